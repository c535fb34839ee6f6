"""``thinkwire init``: one case per dialect and variant, then a draft profile. A variant is unclaimed only
where no request reached its upstream (the evidence line says so); the draft loads, and a full run with
it has no FAIL on a variant it left unclaimed; against the reference gateway every variant is claimed,
in well under a minute."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.drivers import load_profile
from harness.runner import run
from harness.runner._probe import draft_profile, probe
from harness.runner._sut import command_profile, resolve_sut
from harness.verdict import Verdict

pytestmark = pytest.mark.slow

GATEWAY = Path(__file__).with_name("passthrough_gateway.py")
COMMAND = shlex.join([sys.executable, str(GATEWAY)]) + " --port {port} --upstream {upstream}"


def test_init_claims_what_reached_the_upstream_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "draft.toml"
    assert main(["init", "--sut-cmd", COMMAND, "--front-door", "openai-chat", "--out", str(out)]) == 0
    assert "unclaimed" in capsys.readouterr().err
    text = out.read_text()
    assert 'dialects = ["openai-chat"]' in text
    unclaimed = "#   unclaimed anthropic-messages:thinking: no request reached the anthropic-messages"
    assert unclaimed in text
    assert "#   claimed   openai-chat:reasoning_content: upstream reached; the client got reasoning" in text
    profile = load_profile(out)
    assert profile.dialects == ("openai-chat",)
    result = run(["tools-passback/*"], sut=profile, expectations=None)
    assert {r.case_id.split("[")[1].split(":")[0] for r in result.results} == {"openai-chat"}
    assert [r.case_id for r in result.results if r.stream == Verdict.FAIL] == []
    assert any(why.startswith("anthropic-messages:") for why in result.left_out)


def test_init_on_the_reference_gateway_claims_every_variant_quickly() -> None:
    t0 = time.monotonic()
    probes = probe(resolve_sut("reference"))  # (it routes by the model names its profile gives)
    assert time.monotonic() - t0 < 60
    probed = [p for p in probes if p.probed]
    assert len(probed) >= 30
    assert all(p.claimed for p in probed), [p for p in probed if not p.claimed]
    assert "unsupported_variants = []" in draft_profile(command_profile("gw", "openai-chat"), probes)
