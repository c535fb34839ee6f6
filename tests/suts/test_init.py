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
from harness.runner._probe import VariantProbe, _evidence, draft_profile, probe
from harness.runner._sut import command_profile, resolve_sut
from harness.verdict import Verdict
from tests.suts.test_passthrough_gateway import MINIMAX

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
    failed = [r.case_id for r in result.results if r.stream == Verdict.FAIL]
    assert [c for c in failed if not c.startswith(MINIMAX)] == []  # (the gateway's one loss: see there)
    assert any(why.startswith("anthropic-messages:") for why in result.left_out)


def test_init_on_the_reference_gateway_claims_every_variant_quickly() -> None:
    t0 = time.monotonic()
    probes = probe(resolve_sut("reference"))  # (it routes by the model names its profile gives)
    assert time.monotonic() - t0 < 60
    probed = [p for p in probes if p.probed]
    assert len(probed) >= 30
    assert all(p.claimed for p in probed), [p for p in probed if not p.claimed]
    draft = draft_profile(command_profile("gw", "openai-chat"), probes)
    assert "unsupported_variants = []" in draft
    assert '\nparses = ["think-tags", "mm-think", "harmony", "thought-tags"]\n' in draft  # it splits them all


def _probes(*rows: tuple[str, str, bool]) -> list[VariantProbe]:
    return [VariantProbe(d, v, f"c[{d}:{v}]", claimed, "evidence") for d, v, claimed in rows]


def test_a_profile_files_draft_keeps_the_file_and_replaces_its_claims(tmp_path: Path) -> None:
    """The draft of ``init --sut my.toml`` runs as the file did (its command, env, [request] and [files]
    tables, comments): a draft of only name/command/models lost LiteLLM's config and master key. Its
    relative paths name the same files from the directory the draft is written to."""
    source = tmp_path / "suts" / "my.toml"
    source.parent.mkdir()
    (source.parent / "my.expectations.toml").write_text("")
    source.write_text(
        "# my gateway\n"
        'name = "my"\nkind = "gateway"\n'
        f'command = ["{sys.executable}", "{{profile_dir}}/gw.py", "--port", "{{port}}"]\n'
        'env = { KEY = "k" }\n'
        "# old claims, with why\n"
        'dialects = [\n  "openai-chat",\n  "gemini",\n]\n'
        'unsupported_variants = ["openai-chat:mistral"]\n'
        'expectations = "my.expectations.toml"\n'
        '\n[request]\nheaders = { authorization = "Bearer x" }\n'
        '\n[files]\n"config.yaml" = """\nmodel_list: []\n"""\n'
    )
    sut = load_profile(source)
    probes = _probes(("openai-chat", "reasoning_content", True), ("openai-chat", "mistral", False))
    out = tmp_path / "drafts"
    out.mkdir()
    text = draft_profile(sut, probes, out)
    (out / "my.toml").write_text(text)
    draft = load_profile(out / "my.toml")
    assert (draft.dialects, draft.unsupported_variants) == (("openai-chat",), ("openai-chat:mistral",))
    assert draft.env == {"KEY": "k"}
    assert "config.yaml" in draft.files
    assert draft.command[1] == f"{source.parent.resolve().as_posix()}/gw.py"
    assert draft.expectations == str(source.parent.resolve() / "my.expectations.toml")
    assert "# my gateway" in text
    assert '# before init: dialects = [\n#     "openai-chat",\n#     "gemini",' in text
    assert draft_profile(sut, probes, source.parent).count("{profile_dir}/gw.py") == 1  # beside it: as is


def test_a_builtins_draft_keeps_its_definition() -> None:
    probes = _probes(("openai-chat", "reasoning_content", True))
    text = draft_profile(resolve_sut("reference"), probes)
    import tomllib

    data = tomllib.loads(text)
    assert (data["front_variant"], data["inline_think"], data["dialects"]) == (
        "reasoning_details", False, ["openai-chat"]
    )


def test_a_variant_with_an_endpoint_of_its_own_is_unclaimed_when_never_addressed() -> None:
    """A Messages client reached the Anthropic upstream for the Vertex case, but at /v1/messages: it never
    speaks Vertex (:streamRawPredict), so its full run must not judge it there."""
    request = {"side": "upstream", "act": "request", "info": {"path": "/v1/messages"}}
    vertex = (":streamRawPredict", ":rawPredict")
    reached, why = _evidence([request], "anthropic-messages", vertex)
    assert not reached
    assert "its requests addressed /v1/messages" in why
    at_vertex = {**request, "info": {"path": "/v1/projects/p/models/m:streamRawPredict"}}
    assert _evidence([at_vertex], "anthropic-messages", vertex)[0]
    assert _evidence([request], "anthropic-messages")[0]  # the dialect's own path, any variant of it
