"""A byte-transparent relay (``relay.py``: stdlib, parses nothing) is judged as a relay (issue 45): with the
profile ``thinkwire init`` drafts for it (``parses = []``) its whole openai-chat front door has no FAIL,
the in-content markup it relays verbatim PASSes (and FAILs where a profile claims it parses it), the
broken stream it relays is an error its client saw, and each planted bug is caught by the check designed
for it and by no other."""

from __future__ import annotations

import shlex
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from harness.cli import main
from harness.drivers import MARKUP, SUTProfile, load_profile
from harness.runner import RunResult, run
from harness.runner._sut import command_profile
from harness.verdict import Verdict

pytestmark = pytest.mark.slow

RELAY = Path(__file__).with_name("relay.py")
COMMAND = shlex.join([sys.executable, str(RELAY)]) + " --listen {port} --upstream {upstream}"
MARKUP_CASES = ["wire-variants/inline-think-leading*", "incrementality/gated-reasoning[openai-chat:*"]


def relay(*bugs: str, parses: tuple[str, ...] = ()) -> SUTProfile:
    command = COMMAND.replace(" --listen", "".join(f" --{b}" for b in bugs) + " --listen")
    return replace(command_profile(command, "openai-chat"), parses=parses)


def failing(result: RunResult) -> dict[str, set[str]]:
    """case id -> its FAIL / UNCLEAN checks (a keepalive NON_STRICT, the upstream's silence relayed, is
    not one: the relay names no keepalive interval)."""
    bad = (Verdict.FAIL, Verdict.UNCLEAN)
    fails = {r.case_id: {f.check for f in r.findings if f.verdict in bad} for r in result.results}
    return {case: checks for case, checks in fails.items() if checks}


def test_init_then_run_gives_a_relay_no_fail(tmp_path: Path) -> None:
    out = tmp_path / "relay.toml"
    assert main(["init", "--sut-cmd", COMMAND, "--front-door", "openai-chat", "--out", str(out)]) == 0
    text = out.read_text()
    assert "\nparses = []\n" in text
    seen = "claimed   openai-chat:think-tags: upstream reached; the client got no reasoning, text '<think>"
    assert seen in text
    profile = load_profile(out)
    assert profile.parses == ()
    result = run(["*"], sut=profile, expectations=None)
    assert len(result.results) > 200
    assert failing(result) == {}
    assert [r.case_id for r in result.results if r.stream == Verdict.FAIL] == []
    relayed = [r for r in result.results if "think-tags" in r.case_id]
    assert relayed
    assert all(r.stream == Verdict.PASS for r in relayed)
    (cut,) = [r for r in result.results if r.case_id.startswith("sse-framing/unterminated[")]
    said = {f.check: f for f in cut.findings}
    assert said["error-propagation"].verdict == Verdict.PASS
    assert "no-terminator: EOF without data: [DONE]" in said["error-propagation"].message
    assert said["delivery"].message == "turn 0: its upstream failed on purpose (error-propagation judges it)"


def test_markup_relayed_verbatim_passes_unclaimed_and_fails_claimed() -> None:
    unclaimed = run(MARKUP_CASES, sut=relay(), expectations=None)
    assert len(unclaimed.results) >= 16
    assert failing(unclaimed) == {}
    inline = [r for r in unclaimed.results if any(f":{v.split(':')[1]}/" in r.case_id
                                                  for vs in MARKUP.values() for v in vs)]  # fmt: skip
    assert len(inline) >= 16
    passed = [f for r in inline for f in r.findings if f.check == "channel-separation"]
    assert all(f.verdict == Verdict.PASS and "relayed verbatim" in f.message for f in passed)
    gated = [f for r in unclaimed.results for f in r.findings if f.check == "incremental"]
    assert any(f.verdict == Verdict.PASS for f in gated)  # the gates opened on the relayed content
    claimed = run(MARKUP_CASES, sut=relay(parses=tuple(MARKUP)), expectations=None)
    fails = failing(claimed)
    assert sorted(fails) == sorted(r.case_id for r in inline)
    assert set().union(*fails.values()) == {"channel-separation"}


def test_a_quick_run_without_a_profile_judges_by_what_it_did(tmp_path: Path) -> None:
    """``--sut-cmd`` names no claim, so each markup case is judged by what the SUT did: the relay as a
    relay, a gateway that splits ``<think>`` (``passthrough_gateway.py``) as a parser. That gateway misses
    a ``<think>`` split across deltas and relays it verbatim: a quick run judges that case as relayed, while
    the profile ``init`` drafts for it claims think-tags (its discovery saw them split) and FAILs it."""
    quick = command_profile(COMMAND, "openai-chat")
    assert quick.parses is None
    relayed = run(MARKUP_CASES, sut=quick, expectations=None)
    assert len(relayed.results) >= 16
    assert failing(relayed) == {}
    splitter = Path(__file__).with_name("passthrough_gateway.py")
    command = shlex.join([sys.executable, str(splitter)]) + " --port {port} --upstream {upstream}"
    cases = ["wire-variants/inline-think-leading*"]
    parsed = run(cases, sut=command_profile(command, "openai-chat"), expectations=None)
    assert failing(parsed) == {}
    said = {r.case_id: f.message for r in parsed.results for f in r.findings
            if f.check == "channel-separation"}  # fmt: skip
    relayed_ids = {c for c, m in said.items() if "relayed verbatim" in m}
    assert relayed_ids
    assert all(":think-split/" in c and "/nonstream" not in c for c in relayed_ids)  # the split tags
    out = tmp_path / "gw.toml"
    assert main(["init", "--sut-cmd", command, "--front-door", "openai-chat", "--out", str(out)]) == 0
    profile = load_profile(out)
    assert profile.parses == ("think-tags", "thought-tags")
    held = failing(run(cases, sut=profile, expectations=None))
    assert held
    assert sorted(held) == sorted(relayed_ids)
    assert set().union(*held.values()) == {"channel-separation"}


@pytest.mark.parametrize(
    ("bug", "cases", "check"),
    [
        ("drop-passback-reasoning", ["tools-passback/deepseek-*"], "passback"),
        ("buffer-reasoning", ["incrementality/gated-reasoning[openai-chat:reasoning*"], "incremental"),
        ("keep-upstream-open", ["errors-cancellation/client-cancel[openai-chat:*"], "cancellation"),
    ],
)
def test_each_planted_bug_is_caught_by_its_check(bug: str, cases: list[str], check: str) -> None:
    clean = run(cases, sut=relay(), expectations=None)
    assert clean.results
    assert failing(clean) == {}
    result = run(cases, sut=relay(bug), expectations=None)
    fails = failing(result)
    assert fails, f"{bug} not caught"
    assert set().union(*fails.values()) == {check}, fails
