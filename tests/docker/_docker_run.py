"""What the docker tests run containers with: ``docker`` (the CLI, output captured), ``RUN`` (every
container on the host's network, labelled for ``tools.docker down``), ``Service`` (a detached container
ready once its log says so) and ``verdicts`` (of a report's results.json)."""

from __future__ import annotations

import json
import subprocess
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from tools.docker import DOCKER_LABEL

ROOT = Path(__file__).resolve().parents[2]
RUN = ("run", "--rm", "--network", "host", "--label", DOCKER_LABEL)
"""``docker run`` as every test here runs it: removed at its end, on the host's network only."""


def docker(*argv: str, timeout: float = 600.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *argv], capture_output=True, text=True, timeout=timeout, check=False)


class Service:
    """A detached container, ready once its log has a line with ``ready`` in it (read as written;
    a container that ends first, or a minute without it, fails the test); removed on exit."""

    def __init__(self, argv: list[str], ready: str) -> None:
        self.name = f"thinkwire-test-{uuid.uuid4().hex[:8]}"
        self.argv, self.ready = argv, ready

    def __enter__(self) -> Service:
        started = docker("run", "--detach", "--name", self.name, *RUN[2:], *self.argv)
        assert started.returncode == 0, started.stderr
        try:
            return self._wait()
        except BaseException:
            self.__exit__()
            raise

    def _wait(self) -> Service:
        logs = subprocess.Popen(
            ["docker", "logs", "--follow", self.name],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        watchdog = threading.Timer(60.0, logs.kill)
        watchdog.start()
        try:
            assert logs.stdout is not None
            seen = []
            for line in logs.stdout:
                seen.append(line)
                if self.ready in line:
                    return self
            pytest.fail(f"{self.name} ended without {self.ready!r}: {''.join(seen)[-600:]}")
        finally:
            watchdog.cancel()
            logs.kill()
            logs.wait()
            if logs.stdout is not None:
                logs.stdout.close()

    def __exit__(self, *exc: object) -> None:
        docker("rm", "--force", self.name)


def verdicts(report: Path) -> dict[str, tuple[str, str]]:
    """case id -> (status, stream verdict) of a report dir's results.json."""
    data: dict[str, Any] = json.loads((report / "results.json").read_text(encoding="utf-8"))
    return {r["case_id"]: (r["status"], r["stream"]) for r in data["results"]}
