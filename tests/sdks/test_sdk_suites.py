"""Example regression suites for wrappers built on the official SDKs: run the catalog cases each SDK
claims against its profile, gated by the profile's expectations file (what the SDK really does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.drivers import load_profile
from harness.runner import load_cases, run

ROOT = Path(__file__).resolve().parents[2]
PROFILES = sorted(
    p for p in (ROOT / "profiles").glob("sdk-*.toml") if not p.name.endswith(".expectations.toml")
)

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("path", PROFILES, ids=[p.stem for p in PROFILES])
def test_sdk_has_no_unexpected_result(path: Path) -> None:
    profile = load_profile(path)
    cases = [c for c in load_cases() if profile.claims(c.dialect, c.variant)]
    assert cases, f"{path.name} claims no case"
    result = run(cases, sut=profile, keep_timelines=False)
    bad = [
        (r.case_id, r.status.value, [f"{f.check}: {f.message}" for f in r.failing()])
        for r in result.unexpected
    ]
    assert not bad, f"{len(bad)} unexpected results (re-run `nox -s sdks` if the SDK changed): {bad[:5]}"


def test_the_anthropic_sdk_losing_message_start_behind_a_bom_fails_naming_it() -> None:
    # anthropic 2.17 keeps a BOM in the first field name, so message_start has no event name and its raw
    # stream skips it: the message id, the model and its usage never reach the SDK's user (issue 46)
    streaming = pytest.importorskip("anthropic._streaming")
    decoder = streaming.SSEDecoder()
    for line in ("\ufeffevent: message_start", "data: {}"):
        decoder.decode(line)
    loses = getattr(decoder.decode(""), "event", None) != "message_start"
    profile = load_profile(ROOT / "profiles" / "sdk-anthropic-messages.toml")
    result = run(["sse-framing/bom[anthropic-messages*"], sut=profile, keep_timelines=False)
    assert len(result.results) == 4
    for r in result.results:
        found = [f for f in r.failing() if f.check == "front-door-grammar"]
        if not loses:  # an SDK that strips the BOM gives message_start: nothing to report
            assert not found, (r.case_id, found)
            continue
        assert found, (r.case_id, r.findings)
        assert "message_start" in found[0].message
