"""The reference gateway as a service container runs it: configured by environment (THINKWIRE_UPSTREAM,
PORT, THINKWIRE_GATEWAY_HOST), a flag given on the command line winning over its variable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx
import pytest
from _reference_fakes import SAFETY

from harness.drivers._process import free_port

ENV_KEYS = ("THINKWIRE_UPSTREAM", "PORT", "THINKWIRE_GATEWAY_HOST")


def serve(argv: list[str], env: dict[str, str]) -> tuple[str, int]:
    """Start the gateway; its announce line (read as it is written), then SIGTERM; (line, exit code)."""
    base = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness.reference.gateway", *argv],
        stderr=subprocess.PIPE, text=True, env={**base, "PYTHONPATH": os.getcwd(), **env},
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline().strip()  # the gateway listens before it announces
        if line.startswith("thinkwire reference gateway on "):
            url = line.split()[4]
            assert httpx.get(f"{url}/health", timeout=SAFETY).status_code == 200
            proc.send_signal(signal.SIGTERM)
        else:
            line += proc.stderr.read()
        return line, proc.wait(SAFETY)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()


def test_the_environment_configures_upstream_and_port() -> None:
    port = free_port()
    env = {"THINKWIRE_UPSTREAM": "http://127.0.0.1:9", "PORT": str(port)}
    line, code = serve([], env)
    assert code == 0
    assert line == f"thinkwire reference gateway on http://127.0.0.1:{port} -> http://127.0.0.1:9"


def test_flags_win_over_the_environment() -> None:
    port, other = free_port(), free_port()
    env = {"THINKWIRE_UPSTREAM": "http://127.0.0.1:9", "PORT": str(other), "THINKWIRE_GATEWAY_HOST": "::1"}
    argv = ["--port", str(port), "--upstream", "http://127.0.0.1:7", "--host", "127.0.0.1"]
    line, code = serve(argv, env)
    assert code == 0
    assert line == f"thinkwire reference gateway on http://127.0.0.1:{port} -> http://127.0.0.1:7"


@pytest.mark.parametrize("env", [{}, {"THINKWIRE_UPSTREAM": ""}])
def test_no_upstream_anywhere_is_a_usage_error(env: dict[str, str]) -> None:
    line, code = serve([], env)
    assert code == 2
    assert "the following arguments are required: --upstream" in line
