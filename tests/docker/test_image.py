"""thinkwire's container image (Dockerfile) as docs/ci-gate.md's recipes use it: built from the checkout
on the base image tools/docker makes, it runs a catalog slice against the reference gateway inside it;
the reference gateway in a container of its own, configured by environment to a fixed mock address,
passes the same slice run by thinkwire on the host (the GitHub Actions service-container recipe) and
from thinkwire's own container (the compose recipe); ``thinkwire serve`` in it is a shared mock."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from _docker_run import ROOT, RUN, Service, docker, verdicts

from harness.drivers._process import free_port

pytestmark = pytest.mark.docker

SLICE = "incrementality/*"
OPENAI_SLICE = "incrementality/*openai-chat:reasoning*"
"""What a gateway configured by --sut-url alone (an openai-chat front door, the model named as it is)
is asked: the reference gateway picks its upstream dialect and variant from the model name, which only
a profile's ``models`` gives (the compose recipe's profile does)."""
GATEWAY = ["--entrypoint", "python"], ["-m", "harness.reference.gateway"]
ANNOUNCE = "thinkwire reference gateway on "
DOC = ROOT / "docs" / "ci-gate.md"


def recipe(marker: str, lang: str = "yaml") -> str:
    """The one fenced block of docs/ci-gate.md in ``lang`` that has ``marker`` in it."""
    blocks = re.findall(rf"^```{lang}\n(.*?)^```\n", DOC.read_text(encoding="utf-8"), re.S | re.M)
    (body,) = [b for b in blocks if marker in b]
    return str(body)


@pytest.fixture(scope="module")
def reference_run(image: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """The slice run inside the image against the reference gateway thinkwire starts there."""
    work = tmp_path_factory.mktemp("reference")
    done = docker(*RUN, "-v", f"{work}:/work", image, "run", "--sut", "reference", "--cases", SLICE, "-q",
                  "--report", "report")  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return verdicts(work / "report")


def test_the_image_runs_a_slice_against_the_reference_gateway_inside_it(
    reference_run: dict[str, tuple[str, str]],
) -> None:
    assert len(reference_run) >= 100  # 116 cases when this was written, every dialect's
    assert set(reference_run.values()) == {("OK", "PASS")}


def test_the_image_carries_the_whole_bundled_catalog(image: str, tmp_path: Path) -> None:
    """``thinkwire list`` in the image lists the checkout's catalog (without the fidelity corpus, which
    never ships: the host lists it with an empty corpus folder)."""
    inside = docker(*RUN, image, "list")
    assert inside.returncode == 0, inside.stderr
    env = {**os.environ, "THINKWIRE_CORPUS": str(tmp_path)}
    host = subprocess.run([sys.executable, "-m", "harness.cli", "list"], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120, check=True)  # fmt: skip
    assert inside.stdout.splitlines() == host.stdout.splitlines()
    assert len(host.stdout.splitlines()) > 600


def local(url: str, port: int) -> str:
    """A recipe's address as it is reached here (every container on the host's network): the host
    itself, on a port that is free."""
    return re.sub(r"//(host\.docker\.internal|0\.0\.0\.0|127\.0\.0\.1):\d+", f"//127.0.0.1:{port}", url)


def test_the_service_container_recipe(image: str, tmp_path: Path) -> None:
    """docs/ci-gate.md's workflow: the gateway's service env names the mock's fixed address, the Action
    binds the mock there and drives the published port. Here: the reference gateway in its own
    container configured by environment only, thinkwire on the host with the Action's inputs as flags."""
    workflow: dict[str, Any] = yaml.safe_load(recipe("\n    services:\n"))
    job = workflow["jobs"]["thinkwire"]
    service = job["services"]["gateway"]
    given = next(s for s in job["steps"] if s.get("uses", "").startswith("your-org/thinkwire@"))["with"]
    published, _ = service["ports"][0].split(":")
    assert given["sut-url"] == f"http://127.0.0.1:{published}"
    host, port = given["upstream-listen"].rsplit(":", 1)
    assert host == "0.0.0.0"  # reachable from the service's network
    assert given["upstream-url"] == f"http://host.docker.internal:{port}"
    assert "--add-host=host.docker.internal:host-gateway" in service["options"]
    (upstream,) = [v for v in service["env"].values() if v == given["upstream-url"]]

    mock, gateway = free_port(), free_port()
    env = ["-e", f"THINKWIRE_UPSTREAM={local(upstream, mock)}", "-e", f"PORT={gateway}"]
    flags = [
        *("--sut-url", local(given["sut-url"], gateway)),
        *(
            "--upstream-listen",
            f"127.0.0.1:{mock}",
        ),  # loopback here: every container is on the host's network
        *("--upstream-url", local(given["upstream-url"], mock)),
    ]
    with Service([*env, *GATEWAY[0], image, *GATEWAY[1]], ANNOUNCE):
        done = subprocess.run(
            [sys.executable, "-m", "harness.cli", "run", *flags, "--cases", OPENAI_SLICE, "-q",
             "--report", str(tmp_path / "report")],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    got = verdicts(tmp_path / "report")
    assert len(got) >= 10
    assert set(got.values()) == {("OK", "PASS")}
    assert f"mock upstream listening on 127.0.0.1:{mock}" in done.stdout + done.stderr
    run_info = json.loads((tmp_path / "report" / "results.json").read_text(encoding="utf-8"))["run_info"]
    assert run_info["upstream"] == {"listen": f"127.0.0.1:{mock}", "url": f"http://127.0.0.1:{mock}"}


def compose_and_profile(gateway: int, mock: int) -> tuple[dict[str, Any], str]:
    """The compose recipe and its profile, their ports (8080, 18080) moved to free ones."""
    moved = {"18080": str(mock), "8080": str(gateway)}

    def move(text: str) -> str:
        return re.sub(r"\b(18080|8080)\b", lambda m: moved[m.group(1)], text)

    return yaml.safe_load(move(recipe("# docker-compose.yml"))), move(
        recipe("# ci/thinkwire-gateway.toml", "toml")
    )


def run_service(spec: dict[str, Any], image: str) -> list[str]:
    """``docker run`` arguments for a compose service (after ``--name``): environment, entrypoint."""
    assert spec["network_mode"] == "host"
    argv = [f"--env={k}={v}" for k, v in spec.get("environment", {}).items()]
    entry = spec.get("entrypoint", [])
    if entry:
        argv.append(f"--entrypoint={entry[0]}")
    return [*argv, image, *entry[1:]]


def test_the_compose_recipe(image: str, reference_run: dict[str, tuple[str, str]], tmp_path: Path) -> None:
    """docs/ci-gate.md's compose file, service by service as compose runs it (here with docker run: the
    image built from the checkout, the gateway's healthcheck run once it announces itself): thinkwire's
    container with the recipe's profile gets the verdicts of the reference gateway run by thinkwire."""
    gateway, mock = free_port(), free_port()
    compose, profile = compose_and_profile(gateway, mock)
    services = compose["services"]
    assert tomllib.loads(profile)["upstream_listen"] == f"127.0.0.1:{mock}"
    assert services["gateway"]["environment"]["THINKWIRE_UPSTREAM"] == f"http://127.0.0.1:{mock}"
    ci = tmp_path / "ci"
    ci.mkdir()
    (ci / "thinkwire-gateway.toml").write_text(profile, encoding="utf-8")
    (volume,) = services["thinkwire"]["volumes"]
    assert volume.startswith("./ci:")
    with Service(run_service(services["gateway"], image), ANNOUNCE) as gw:
        health = services["gateway"]["healthcheck"]["test"]
        assert health[0] == "CMD"
        probe = docker("exec", gw.name, *health[1:])
        assert probe.returncode == 0, probe.stderr
        spec = services["thinkwire"]
        done = docker(*RUN, "-v", f"{ci}:{volume.split(':')[1]}", *run_service(spec, image), *spec["command"],
                      "--cases", SLICE, "-q")  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert verdicts(ci / "thinkwire-report") == reference_run


def test_serve_in_the_image_is_a_shared_mock(image: str) -> None:
    """``docker run --network host <image> serve --catalog --port P`` (docs/ci-gate.md): it announces its
    URL, a request naming a case gets that case's stream, SIGTERM (docker stop) ends it with exit 0."""
    port = free_port()
    with Service([image, "serve", "--catalog", "--port", str(port)], f"http://127.0.0.1:{port}") as mock:
        body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
        case = {
            "x-thinkwire-case": "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
        }
        answer = httpx.post(
            f"http://127.0.0.1:{port}/v1/chat/completions", json=body, headers=case, timeout=60
        )
        assert answer.status_code == 200, answer.text
        assert "reasoning_content" in answer.text
        assert docker("stop", mock.name).returncode == 0
        assert docker("inspect", "--format", "{{.State.ExitCode}}", mock.name).stdout.strip() == "0"


def test_a_gateway_configured_to_another_address_stops_at_the_preflight(image: str) -> None:
    """The service recipe's control: the same containers, the gateway's THINKWIRE_UPSTREAM naming a port
    where no mock listens, end in the one-line preflight refusal (exit 2), not in verdicts."""
    mock, elsewhere, gateway = free_port(), free_port(), free_port()
    env = ["-e", f"THINKWIRE_UPSTREAM=http://127.0.0.1:{elsewhere}", "-e", f"PORT={gateway}"]
    with Service([*env, *GATEWAY[0], image, *GATEWAY[1]], ANNOUNCE):
        done = docker(*RUN, image, "run", "--sut-url", f"http://127.0.0.1:{gateway}",
                      "--upstream-listen", f"127.0.0.1:{mock}", "--cases", OPENAI_SLICE, "-q")  # fmt: skip
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert "preflight: the SUT at" in done.stderr
    assert "answered without calling the mock upstream" in done.stderr
