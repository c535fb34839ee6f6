"""Variants from files (issue 47 item 3): a TOML file declares a variant that the whole catalog then runs on
like on a built-in one, with no code change; a wrong file is one line naming the file, the field and the
fix; the built-in Chat variants shipped as files are the same rows they were in code."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness._errors import ScenarioError
from harness.dialects import get_dialect, provider_of, senders_of
from harness.dialects._declared import ENV, read_variant
from harness.dialects._registry import declare_dir, declared_rules, retract
from harness.dialects._request_forms import rows_for
from harness.runner import load_cases, run
from harness.verdict import CaseResult

FILES = Path(__file__).parent / "files"
MIRROR = FILES / "file-mirror.toml"


@pytest.fixture
def file_mirror(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The flat mirror declared for one test (and in the environment a SUT process reads), then gone."""
    monkeypatch.delenv(ENV, raising=False)
    rows = declare_dir(FILES)
    try:
        yield
    finally:
        retract(rows)


def test_the_file_is_a_row_like_a_built_in_one(file_mirror: None) -> None:
    row = get_dialect("openai-chat").variants["file-mirror"]
    assert row.source == str(MIRROR)
    assert row.shape is not None
    assert row.shape.also == ("reasoning",)
    assert senders_of("openai-chat", "file-mirror").providers == ("vllm",)
    assert provider_of("openai-chat", "file-mirror").name == "vllm"
    assert [r.name for r in rows_for("openai-chat", "file-mirror")] == ["openai-chat/include-usage"]
    assert "file-mirror-strict" in declared_rules("openai-chat")
    assert "file-mirror-strict" in get_dialect("openai-chat").provider_rules()


def test_retract_leaves_the_built_in_rows(file_mirror: None) -> None:
    assert "file-mirror" in get_dialect("openai-chat").variants
    retract([get_dialect("openai-chat").variants["file-mirror"]])
    assert "file-mirror" not in get_dialect("openai-chat").variants
    assert "file-mirror-strict" not in declared_rules("openai-chat")


def test_one_chunk_carries_the_reasoning_in_both_fields(file_mirror: None) -> None:
    from harness.events import End, ReasoningDelta, TextDelta

    frames = (
        get_dialect("openai-chat")
        .emitter("file-mirror")
        .feed([ReasoningDelta("why"), TextDelta("ok"), End()])
    )
    bodies = [f.data for f in frames if '"why"' in f.data]
    assert len(bodies) == 1
    assert '"reasoning_content":"why"' in bodies[0]
    assert '"reasoning":"why"' in bodies[0]


def test_the_strict_rule_answers_the_declared_body(file_mirror: None) -> None:
    from harness.events import Message, ReasoningBlock, ToolCallBlock

    rules = declared_rules("openai-chat")["file-mirror-strict"]
    emitted = [Message("assistant", (ReasoningBlock("why"), ToolCallBlock("c1", "f", "{}")))]
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    kept = {
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "reasoning_content": "why", "tool_calls": [call]},
        ]
    }
    lost = {"messages": [kept["messages"][0], {"role": "assistant", "content": None, "tool_calls": [call]}]}
    assert rules.validate(kept, emitted) is None
    rejection = rules.validate(lost, emitted)
    assert rejection is not None
    assert rejection.status == 400
    assert b"assistant message at index 1" in rejection.body
    assert rejection.differences[0][0] == "messages[1].reasoning_content"


@pytest.mark.parametrize(
    ("text", "field", "fix"),
    [
        (
            'name = "x"\ndialect = "openai-chat"\n[carrier]\nfields = ["reasoning_text"]\n',
            "carrier.fields",
            "one or two of",
        ),
        ('name = "x"\ndialect = "gemini"\n[carrier]\nfields = ["reasoning"]\n', "dialect", "use openai-chat"),
        ('dialect = "openai-chat"\n[carrier]\nfields = ["reasoning"]\n', "name", 'name = "..."'),
        (
            'name = "x"\ndialect = "openai-chat"\ncolour = 1\n[carrier]\nfields = ["reasoning"]\n',
            "colour",
            "use one of",
        ),
        (
            'name = "x"\ndialect = "openai-chat"\ncaps = ["thoughts"]\n[carrier]\nfields = ["reasoning"]\n',
            "caps",
            "use reasoning",
        ),
        (
            'name = "x"\ndialect = "openai-chat"\n[carrier]\nmarkup = ["<t>"]\n',
            "carrier.markup",
            "markup = [",
        ),
        (
            'name = "x"\ndialect = "openai-chat"\n[carrier]\nfields = ["reasoning"]\n'
            '[strict]\nmust_return = ["reasoning"]\n',
            "strict.error",
            "[strict.error]",
        ),
        ('name = "x"\ndialect = "openai-chat"\n[carrier]\n', "carrier", "exactly one of"),
        ('name = "x"\ndialect = "openai-chat"\n[carrier\n', "-", "fix the TOML syntax"),
    ],
)
def test_a_wrong_file_is_one_line_naming_the_file_field_and_fix(
    tmp_path: Path, text: str, field: str, fix: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as exc:
        read_variant(path)
    message = str(exc.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: field {field!r}:")
    assert fix in message


def test_a_name_a_built_in_row_has_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dup.toml").write_text(
        'name = "reasoning"\ndialect = "openai-chat"\n[carrier]\nfields = ["reasoning"]\n'
    )
    with pytest.raises(ScenarioError, match="field 'name': openai-chat:reasoning is already a variant"):
        declare_dir(tmp_path)


def test_an_unknown_sibling_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text(
        'name = "x"\ndialect = "openai-chat"\nlike = "reasoning_contnet"\n[carrier]\nfields = ["reasoning"]\n'
    )
    with pytest.raises(ScenarioError, match="field 'like': openai-chat has no variant 'reasoning_contnet'"):
        declare_dir(tmp_path)


def test_three_built_in_chat_variants_are_files() -> None:
    import harness.dialects.openai_chat

    packaged = Path(harness.dialects.openai_chat.__file__).parent / "variants"
    files = sorted(p.stem for p in packaged.glob("*.toml"))
    assert len(files) >= 3
    for name in files:
        row = get_dialect("openai-chat").variants[name]
        assert row.source.endswith(f"{name}.toml")


# -- the acceptance: the whole catalog on the file's variant, against the reference gateway -----------


def _mirror_cases() -> list[str]:
    return [c.id for c in load_cases(["*openai-chat:file-mirror/*"])]


def _verdicts(r: CaseResult) -> dict[str, str]:
    return {"status": r.status.value, "stream": r.stream.value, "cleanup": r.cleanup.value} | {
        f.check: f.verdict.value for f in r.findings
    }


@pytest.mark.slow
def test_the_whole_catalog_runs_on_the_declared_variant(file_mirror: None) -> None:
    """Every case the catalog plays on its sibling ``reasoning_content`` runs on the file's variant, with
    the sibling's verdicts; only ``passback`` is judged where the sibling's is N/A (the file's strict
    rule makes the continuation checkable)."""
    cases = _mirror_cases()
    siblings = [c.replace(":file-mirror/", ":reasoning_content/") for c in cases]
    result = run([*cases, *siblings], sut="reference", expectations=None)
    by = {r.case_id: r for r in result.results}
    ran = [(c, s) for c, s in zip(cases, siblings, strict=True) if c in by]
    assert len(ran) > 50
    assert {s for _, s in ran} == {s for s in siblings if s in by}  # the same cases left out of both
    assert not [(c, [(f.check, f.message) for f in by[c].failing()]) for c, _ in ran if by[c].failing()]
    judged = 0
    for case, sibling in ran:
        mine, theirs = _verdicts(by[case]), _verdicts(by[sibling])
        if mine.get("passback") == "PASS" and theirs.get("passback") == "N/A":
            judged += 1
            mine["passback"] = "N/A"
        assert mine == theirs, case
    assert judged > 0


@pytest.mark.slow
def test_losing_the_passback_gets_the_declared_400(file_mirror: None) -> None:
    cases = [c for c in _mirror_cases() if c.startswith("cleanup/tool-round-trip")]
    result = run(cases, sut="reference", faults=["lose-passback"], expectations=None)
    failing = [f for r in result.results for f in r.failing() if f.check == "passback"]
    assert failing
    assert all("file-mirror-strict" in f.message for f in failing)


@pytest.mark.slow
def test_reading_both_fields_is_caught_by_no_duplication(file_mirror: None) -> None:
    cases = [c for c in _mirror_cases() if "reasoning-then-answer" in c]
    assert cases
    result = run(cases, sut="reference", faults=["read-both-fields"], expectations=None)
    failing = {f.check for r in result.results for f in r.failing()}
    assert "no-duplication" in failing
    caught = [r for r in result.results if any(f.check == "no-duplication" for f in r.failing())]
    assert any("2x" in f.message for r in caught for f in r.failing() if f.check == "no-duplication")


def test_a_profile_names_its_variants_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.drivers import load_profile
    from harness.runner import RunOptions

    monkeypatch.delenv(ENV, raising=False)
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / MIRROR.name).write_text(MIRROR.read_text())
    profile_file = tmp_path / "sut.toml"
    profile_file.write_text('kind = "gateway"\ncommand = ["true"]\nvariants_dir = "variants"\n')
    profile = load_profile(profile_file)
    assert profile.variants_dir == (str((tmp_path / "variants").resolve()),)
    try:
        RunOptions(sut=profile).resolve()
        assert "file-mirror" in get_dialect("openai-chat").variants
    finally:
        retract([get_dialect("openai-chat").variants["file-mirror"]])


def test_run_names_its_variants_dir_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.runner import RunOptions

    monkeypatch.delenv(ENV, raising=False)
    try:
        assert RunOptions(variants=(str(FILES),)).variants == (str(FILES),)
        assert "file-mirror" in get_dialect("openai-chat").variants
        assert str(FILES.resolve()) in os.environ[ENV]
    finally:
        retract([get_dialect("openai-chat").variants["file-mirror"]])
