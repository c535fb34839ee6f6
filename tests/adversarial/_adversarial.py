"""The sandbox every adversarial test runs ``thinkwire run`` in, as a real subprocess, and the proof
that nothing is left afterwards.

Each test gets its own TMPDIR (so thinkwire's temp dirs, pytest's basetemp and the SUT's files land
where they can be counted, apart from other sessions on the machine), an ``ADV_TAG`` environment
marker that every process started under it inherits, and an ``ADV_LOG`` dir where the adversarial
SUTs note the processes and ports they open. After the test: no process carries the tag, no noted
port accepts a connection, the TMPDIR is empty and this process has no new child.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import selectors
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

SUTS = Path(__file__).parent / "suts"
REPO = Path(__file__).resolve().parents[2]
ONE_CASE = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/frames]"
SOME_CASES = "wire-variants/reasoning-then-answer[openai-chat:reasoning_content/*"
BOUND_S = 120.0
"""No thinkwire run in these tests may take longer (a hang fails the test instead of the session)."""


def sut(script: str, *args: str) -> list[str]:
    """The command (profile ``command`` list) of an adversarial SUT script."""
    return ["{python}", str(SUTS / script), *args]


REFERENCE_GATEWAY = [
    "{python}",
    "-m",
    "harness.reference.gateway",
    "--port",
    "{port}",
    "--upstream",
    "{upstream}",
]
REFERENCE_AGENT = [
    "{python}", "-m", "harness.reference.agent", "--upstream", "{upstream}", "--dialect", "{dialect}",
    "--variant", "{variant}", "--model", "{model}", "--session-dir", "{session}", "--prompt", "{prompt}",
]  # fmt: skip


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str
    elapsed: float
    report: Path

    @property
    def results(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.report / "results.json").read_text())
        return data


class Sandbox:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.tmp = root / "tmp"
        self.log = root / "log"
        self.tmp.mkdir()
        self.log.mkdir()
        self.tag = secrets.token_hex(8)
        self.env = {
            **os.environ,
            "TMPDIR": str(self.tmp),
            "ADV_TAG": self.tag,
            "ADV_LOG": str(self.log),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        }
        self.env.pop("PYTEST_XDIST_WORKER", None)

    def profile(self, name: str, **fields: Any) -> Path:
        """A SUT profile TOML (CLI SUTs need one)."""
        lines = []
        for key, value in fields.items():
            if isinstance(value, dict):
                value = "{" + ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in value.items()) + "}"
            else:
                value = json.dumps(value)
            lines.append(f"{key} = {value}")
        path = self.root / f"{name}.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "harness.cli", "run", "--report", str(self.root / "report"), *args]

    def run(self, *args: str) -> Ran:
        started = time.monotonic()
        done = subprocess.run(
            self.argv(*args),
            env=self.env,
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=BOUND_S,
            check=False,
        )
        return Ran(
            done.returncode, done.stdout, done.stderr, time.monotonic() - started, self.root / "report"
        )

    def start(self, *args: str, session: bool = False) -> subprocess.Popen[bytes]:
        """``thinkwire run`` with ``args``, left running, stdout and stderr piped; ``session``: in a
        session of its own (a test may signal its process group)."""
        return subprocess.Popen(
            self.argv(*args),
            env=self.env,
            cwd=self.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=session,
        )

    def noted(self, what: str) -> list[list[str]]:
        path = self.log / "events"
        lines = path.read_text().splitlines() if path.exists() else []
        return [line.split()[1:] for line in lines if line.split()[0] == what]

    def wait_noted(self, what: str, proc: subprocess.Popen[bytes], timeout: float = BOUND_S) -> None:
        """Until an adversarial SUT notes ``what`` (bounded; fails early if thinkwire exits)."""
        deadline = time.monotonic() + timeout
        while not self.noted(what):
            assert proc.poll() is None, f"thinkwire exited ({proc.returncode}) before {what!r}"
            assert time.monotonic() < deadline, f"no {what!r} within {timeout}s"
            time.sleep(0.02)  # polling a file for an event, not timing a verdict

    def tagged(self) -> list[psutil.Process]:
        out = []
        for p in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if p.environ().get("ADV_TAG") == self.tag and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
        return out

    def leftovers(self) -> list[str]:
        left = [f"process {p.pid} (parent {p.ppid()}) {' '.join(p.cmdline())[:120]}" for p in self.tagged()]
        for what in ("listen", "grandchild"):
            for _pid, port, *_ in self.noted(what):
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", int(port)), 1):
                    left.append(f"port {port} ({what}) still accepts connections")
        left += [f"temp entry {p.name}" for p in self.tmp.iterdir()]
        return left


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    box = Sandbox(tmp_path)
    yield box
    left = box.leftovers()
    new = [
        p for p in me.children(recursive=True) if p.pid not in before and p.status() != psutil.STATUS_ZOMBIE
    ]
    left += [f"child {p.pid} of the test process" for p in new]
    for p in box.tagged():  # do not leak into the rest of the session, whatever the verdict
        with contextlib.suppress(psutil.Error):
            p.kill()
    assert not left, "left behind: " + "; ".join(left)


def wait_for_output(proc: subprocess.Popen[bytes], marks: bytes, timeout: float = BOUND_S) -> bytes:
    """Read the process's stderr until one of the bytes in ``marks`` appears (a progress mark: a case
    finished); returns what was read. Synchronises on output, not on time; bounded."""
    assert proc.stderr is not None
    fd = proc.stderr.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while not any(m in seen for m in marks):
            left = deadline - time.monotonic()
            if left <= 0 or (proc.poll() is not None and not sel.select(0)):
                raise AssertionError(f"no progress mark from thinkwire; stderr so far: {seen[-2000:]!r}")
            if sel.select(min(left, 1.0)):
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise AssertionError(f"thinkwire closed stderr early: {seen[-2000:]!r}")
                seen += chunk
    return seen


def command_line(argv: Sequence[str]) -> str:
    return shlex.join(argv)
