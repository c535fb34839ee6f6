"""No branch on a SUT kind's name outside ``harness/drivers`` (issue 38): the suite asks a kind's
record (``SUTProfile.abilities``, ``CaseView.abilities``) what the SUT can do, so a new kind is a
driver and a row of ``KIND_TABLE``, never a hunt for ``kind == "cli"``. Scenario files may still name
kinds (``sut_kinds``: data); ``Scenario.for_kind`` is where the catalog reads that list."""

from __future__ import annotations

import ast
from pathlib import Path

import harness
from harness.drivers import KINDS

ROOT = Path(harness.__file__).parent
ALLOWED = ("drivers/",)
"""Where kind names may be compared: the drivers, which define the kinds."""


def _names(node: ast.expr) -> list[str]:
    """The kind names ``node`` spells as string literals: itself, or the items of a tuple, list or set."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in KINDS]


def _on_profile(node: ast.expr) -> bool:
    """``node`` is ``<something>.kind`` read from a SUT profile or a case view (by the name it is reached
    through: ``profile.kind``, ``self.sut.profile.kind``, ``view.kind``)."""
    if not (isinstance(node, ast.Attribute) and node.attr == "kind"):
        return False
    base = node.value
    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
    return name.endswith("profile") or name in ("view", "sut")


def branches(source: str) -> list[tuple[int, str]]:
    """(line, what) of every comparison, membership test or match case on a kind name in ``source``."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [n for o in operands for n in _names(o)]
            if named:
                out.append((node.lineno, f"compares the kind name(s) {named}"))
            elif any(_on_profile(o) for o in operands):
                out.append((node.lineno, "compares a profile's .kind"))
        elif isinstance(node, ast.MatchValue) and _names(node.value):
            out.append((node.lineno, f"matches the kind name(s) {_names(node.value)}"))
    return out


def kind_branches() -> dict[str, list[tuple[int, str]]]:
    out: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(ALLOWED):
            continue
        found = branches(path.read_text(encoding="utf-8"))
        if found:
            out[rel] = found
    return out


def test_no_kind_name_is_compared_outside_the_drivers() -> None:
    assert kind_branches() == {}


def test_the_scan_sees_every_form_of_branch() -> None:
    source = "\n".join(
        [
            'if profile.kind == "cli": pass',
            'if kind in ("gateway", "url"): pass',
            'x = "python" != kind',
            "y = self.sut.profile.kind in allowed",
            "z = view.kind is not None",
            'match kind:\n    case "adapter": pass',
            'ok = e.kind == "write"',  # (Entry.act's old spelling): not a SUT kind
            'ok = profile.name == "reference"',
            "ok = kind in scenario.sut_kinds",  # (Scenario.for_kind: data, through a name)
        ]
    )
    assert [line for line, _ in branches(source)] == [1, 2, 3, 4, 5, 7]
    assert set(KINDS) == {"gateway", "url", "python", "cli", "adapter"}
    assert len(list(ROOT.rglob("*.py"))) > 50


def test_the_guide_names_every_capability_and_the_files_a_new_kind_touches() -> None:
    """docs/writing-a-sut-profile.md's "A new kind of SUT" lists the record's fields and three files."""
    from dataclasses import fields

    from harness.drivers import Abilities

    guide = (ROOT.parent / "docs" / "writing-a-sut-profile.md").read_text(encoding="utf-8")
    section = guide.split("## A new kind of SUT", 1)[1].split("\n## ", 1)[0]
    named = [f.name for f in fields(Abilities) if f.name not in ("what", "example")]  # (said with `needs`)
    unnamed = [name for name in named if f"`{name}`" not in section]
    assert unnamed == []
    for name in ("_kinds.py", "__init__.py"):
        assert f"`{name}`" in section
        assert (ROOT / "drivers" / name).is_file()


# One word, one idea (issue 47, docs/architecture.md "Words"): "kind" is a SUT kind's name, "caps" what a
# wire variant carries. The classes below have a ``kind`` attribute, each a SUT kind's name; a class not
# listed here that gets one fails (a timeline entry's is ``Entry.act``, a notice's ``Notice.code``).
KIND_ATTRIBUTES = {
    # a SUT kind's name: the profile's and its driver's
    ("drivers/_profile.py", "SUTProfile"): "",
    ("drivers/_base.py", "Driver"): "",
    ("drivers/_adapter.py", "AdapterDriver"): "",
    ("drivers/_cli.py", "CliDriver"): "",
    ("drivers/_gateway.py", "UrlDriver"): "",
    ("drivers/_gateway.py", "GatewayDriver"): "",
    ("drivers/_python.py", "PythonDriver"): "",
    ("runner/_pool.py", "StartFailed"): "",
}


def kind_attributes(source: str) -> set[str]:
    """The classes of ``source`` that define a ``kind`` attribute: a field, a class attribute, a slot,
    or an assignment to ``<something>.kind`` in a method."""
    out = set()
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        for st in cls.body:
            targets = (
                [st.target]
                if isinstance(st, ast.AnnAssign)
                else st.targets
                if isinstance(st, ast.Assign)
                else []
            )
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if "kind" in names or ("__slots__" in names and "'kind'" in ast.unparse(st)):
                out.add(cls.name)
        stored = [n for n in ast.walk(cls) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)]
        if any(n.attr == "kind" for n in stored):
            out.add(cls.name)
    return out


def caps_reads(source: str) -> list[tuple[int, str]]:
    """(line, expression) of each ``.caps`` read on something not named as a variant (``v``,
    ``variant``, ``d.variants[name]``): "caps" is what a variant carries, nothing else."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "caps":
            base = ast.unparse(node.value)
            if not (base == "v" or "variant" in base.rsplit(".", 1)[-1]):
                out.append((node.lineno, f"{base}.caps"))
    return out


def test_the_word_scans_see_what_they_forbid() -> None:
    source = "\n".join(
        [
            "class A:\n    kind: str",
            "class B:\n    kind = 'x'",
            "class C:\n    __slots__ = ('kind', 'n')",
            "class D:\n    def f(self):\n        self.kind = 1",
            "class E:\n    name: str",
        ]
    )
    assert kind_attributes(source) == {"A", "B", "C", "D"}
    found = sorted(what for _, what in caps_reads("profile.caps.at_url; view.caps; self.sut.caps"))
    assert found == ["profile.caps", "self.sut.caps", "view.caps"]
    assert caps_reads("v.caps; variant.caps; d.variants[variant].caps") == []


def test_kind_means_a_sut_kind_and_caps_what_a_variant_carries() -> None:
    found = {
        (path.relative_to(ROOT).as_posix(), cls)
        for path in sorted(ROOT.rglob("*.py"))
        for cls in kind_attributes(path.read_text(encoding="utf-8"))
    }
    assert found - set(KIND_ATTRIBUTES) == set(), "a new 'kind' attribute: name it for what it is"
    assert set(KIND_ATTRIBUTES) - found == set(), "renamed: drop it from KIND_ATTRIBUTES"
    reads = {
        path.relative_to(ROOT).as_posix(): found_reads
        for path in sorted(ROOT.rglob("*.py"))
        if (found_reads := caps_reads(path.read_text(encoding="utf-8")))
    }
    assert reads == {}


def test_the_old_spellings_still_read_with_a_warning() -> None:
    """``SUTProfile.caps``, ``CaseView.caps`` and ``harness.drivers.Kind`` work for one release, each with
    a one-line DeprecationWarning naming the new spelling."""
    import pytest

    import harness.drivers
    from harness.judge import build_view
    from harness.runner import builtin_profile, load_cases
    from harness.timeline import Timeline

    profile = builtin_profile("reference")
    with pytest.warns(DeprecationWarning, match=r"SUTProfile\.caps is deprecated; use \.abilities"):
        assert profile.caps == profile.abilities
    view = build_view(load_cases()[0], Timeline(), profile.abilities)
    with pytest.warns(DeprecationWarning, match=r"CaseView\.caps is deprecated; use \.abilities"):
        assert view.caps is view.abilities
    with pytest.warns(DeprecationWarning, match="use Abilities"):
        assert harness.drivers.Kind is harness.drivers.Abilities


def test_an_entry_s_act_and_a_notice_s_code_keep_their_old_spelling_with_a_warning() -> None:
    """``Entry.kind``, ``Notice.kind``, ``Notice(kind=...)`` and the ``kind=`` keyword of the timeline's
    and the case view's queries work for one release, each with a one-line DeprecationWarning naming the
    new spelling; the new spellings warn of nothing."""
    import warnings

    import pytest

    from harness.drivers import KIND_TABLE
    from harness.events import Notice
    from harness.judge import build_view
    from harness.runner import load_cases
    from harness.timeline import Timeline

    tl = Timeline()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        entry = tl.add("client", "chunk", data=b"x")
        notice = Notice("alias", "reasoning_content")
        assert (entry.act, notice.code) == ("chunk", "alias")
        assert tl.select("client", act="chunk") == tl.select("client", "chunk") == [entry]
        assert tl.wait_for("client", "chunk", timeout=0) == entry
    with pytest.warns(DeprecationWarning, match=r"Entry\.kind is deprecated; use Entry\.act"):
        assert entry.kind == "chunk"
    with pytest.warns(DeprecationWarning, match=r"Notice\.kind is deprecated; use Notice\.code"):
        assert notice.kind == "alias"
    with pytest.warns(
        DeprecationWarning, match=r"Notice\(kind=\.\.\.\) is deprecated; use Notice\(code=\.\.\.\)"
    ):
        assert Notice(kind="alias", detail="reasoning_content") == notice
    with pytest.warns(DeprecationWarning, match=r"Timeline\.add\(kind=\.\.\.\) is deprecated; use act="):
        old = tl.add("client", kind="end")
    assert (old.act, dict(old.info)) == ("end", {})  # the keyword is the act, not an info key
    with pytest.warns(DeprecationWarning, match=r"Timeline\.select\(kind=\.\.\.\) is deprecated; use act="):
        assert tl.select("client", kind="chunk") == [entry]
    with pytest.warns(DeprecationWarning, match=r"Timeline\.wait_for\(kind=\.\.\.\) is deprecated; use act="):
        assert tl.wait_for("client", kind="end", timeout=0) == old
    view = build_view(load_cases()[0], tl, KIND_TABLE["gateway"])
    assert view.of("client", "chunk") == [entry]
    with pytest.warns(DeprecationWarning, match=r"CaseView\.of\(kind=\.\.\.\) is deprecated; use act="):
        assert view.of("client", kind="chunk") == [entry]
    with pytest.raises(TypeError, match="disagree"), pytest.warns(DeprecationWarning, match="Notice"):
        Notice("alias", kind="mirrored")
    with pytest.raises(TypeError, match="missing the argument 'code'"):
        Notice()
    with pytest.raises(TypeError, match="missing the argument 'act'"):
        tl.add("client")
