"""Every fact about one (dialect, variant) is written once, in its :class:`~harness.dialects.Variant` row:
no module keeps a table keyed by variant names beside it, and every lookup (senders, provider, model,
request forms, the Chat shape, the asks) answers what the row says (issue 47 item 1)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.dialects import REQUEST_FORMS, all_variants, get_dialect, provider_of, senders_of
from harness.dialects._providers import PROVIDERS
from harness.dialects._request_forms import rows_for

HARNESS = Path(__file__).resolve().parents[2] / "harness"
REGISTRY = {"dialects/_variant.py", "dialects/_registry.py", "dialects/_declared.py"}
"""The variant registry: the record, the lookups, and the reader of variant files (whose carrier table is
keyed by field names that are also variant names)."""
RULES = {(d, r) for d in {v.dialect for v in all_variants()} for r in get_dialect(d).provider_rules()}
PAIRS = {(v.dialect, v.name) for v in all_variants()} - RULES
"""(dialect, variant) keys; a pair that also names provider rules (``anthropic-messages:vertex``) is a key
of the provider table (a ``PROVIDERS`` row's ``rules``: provider-wide facts), not a variant's."""
NAMES = {d: set(get_dialect(d).variants) for d in {v.dialect for v in all_variants()}}


def _keyed_by_variant(node: ast.Dict) -> bool:
    """A dict display keyed by (dialect, variant) pairs, or by two or more names of one dialect's
    variants and nothing else."""
    keys = node.keys
    if not keys or any(k is None for k in keys):
        return False
    try:
        values = [ast.literal_eval(k) for k in keys if k is not None]
    except ValueError:
        return False
    if all(isinstance(k, tuple) for k in values):
        return any(k in PAIRS for k in values)
    names = set(values)
    return len(names) >= 2 and any(names <= vs for vs in NAMES.values())


def variant_tables(root: Path = HARNESS) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in REGISTRY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), rel)
        for node in tree.body:  # module-level tables: what a lookup by variant name would read
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if isinstance(value, ast.Dict) and _keyed_by_variant(value):
                found.append(f"{rel}:{node.lineno}")
    return found


def test_no_module_but_the_registry_keeps_a_table_keyed_by_variant() -> None:
    assert variant_tables() == []


def test_the_scan_finds_a_table_keyed_by_variant(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(
        'BY = {("openai-chat", "reasoning"): "vllm"}\nM = {"adaptive": 1, "omitted": 2}\nOK = {"a": 1}\n'
    )
    assert variant_tables(tmp_path) == ["mod.py:1", "mod.py:2"]


def test_the_old_tables_are_gone() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HARNESS.rglob("*.py"))
    for name in ("_BY_VARIANT", "_MODEL_BY_VARIANT", "_VARIANT_ASKS", "SHAPES:", "SENDERS: dict"):
        assert name not in text, name


@pytest.mark.parametrize("v", all_variants(), ids=lambda v: f"{v.dialect}:{v.name}")
def test_every_lookup_answers_what_the_row_says(v) -> None:  # type: ignore[no-untyped-def]
    assert senders_of(v.dialect, v.name) is v.senders
    assert set(v.senders.providers) <= set(PROVIDERS)
    provider = provider_of(v.dialect, v.name)
    if v.provider:
        assert provider.name == v.provider
    if v.model:
        assert provider.model == v.model
    assert {r.name for r in rows_for(v.dialect, v.name)} == set(v.forms)
    assert all(v.name in r.variants for r in REQUEST_FORMS if r.name in v.forms)
    assert (v.shape is not None) == (v.dialect == "openai-chat")


def test_every_form_a_row_names_exists_on_its_dialect() -> None:
    rows = {(r.dialect, r.name) for r in REQUEST_FORMS}
    for v in all_variants():
        for form in v.forms:
            assert (v.dialect, form) in rows, f"{v.dialect}:{v.name} names {form!r}"
