"""Subprocess lifecycle shared by the gateway and CLI drivers: start in its own process group,
capture output to files, read a bounded stderr tail, and tear the whole group down."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["Process", "free_port"]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Process:
    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        log_dir: Path,
        stdout_pipe: bool = False,
    ) -> None:
        self.stderr_path = log_dir / "stderr.log"
        self._stderr = self.stderr_path.open("wb")
        self._stdout = None if stdout_pipe else (log_dir / "stdout.log").open("wb")
        self.popen = subprocess.Popen(
            list(argv),
            env={**os.environ, **env},
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if stdout_pipe else self._stdout,
            stderr=self._stderr,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stderr_tail(self, limit: int = 2000) -> str:
        self._stderr.flush()
        try:
            data = self.stderr_path.read_bytes()
        except OSError:
            return ""
        return data[-limit:].decode(errors="replace")

    def stop(self, grace: float = 3.0) -> int | None:
        """SIGTERM the process group, then SIGKILL after ``grace`` seconds; always reaps."""
        if self.alive():
            self._signal(signal.SIGTERM)
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.popen.wait(grace)
        self.kill_group()
        for f in (self._stderr, self._stdout, self.popen.stdout):
            if f is not None:
                f.close()
        return self.popen.returncode

    def kill_group(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)
