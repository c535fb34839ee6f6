"""Shared by the recording tests: the real ``thinkwire`` command as a child process (stdout a pipe,
PYTHONUNBUFFERED unset, every wait bounded) and a raw HTTP/1.1 client that tells a complete response
from a cut one."""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import h11
import psutil

THINKWIRE = str(Path(sys.executable).with_name("thinkwire"))
WAIT = 30.0
"""Upper bound of any wait on a child: only reached when something is broken."""


class Child:
    """``thinkwire ARGS`` with stdout and stderr on pipes, as a process manager or a script runs it."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        self.popen = subprocess.Popen(
            [THINKWIRE, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        self.pid = self.popen.pid
        self._buf = b""

    def line(self, timeout: float = WAIT) -> str:
        """The next stdout line, as soon as it is written (fails when it does not come in time)."""
        assert self.popen.stdout is not None
        fd = self.popen.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                assert left > 0, f"no stdout line within {timeout}s; got {self._buf!r}"
                if sel.select(left):
                    data = os.read(fd, 65536)
                    if not data:
                        raise AssertionError(
                            f"stdout closed before a line; got {self._buf!r}: {self.stderr()}"
                        )
                    self._buf += data
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode()

    def stderr(self) -> str:
        if self.popen.poll() is None or self.popen.stderr is None:
            return ""
        return self.popen.stderr.read().decode(errors="replace")

    def finish(self, sig: int | None = signal.SIGTERM) -> tuple[int, str, str]:
        """Send ``sig`` (None: just wait), wait for the exit; (code, rest of stdout, stderr)."""
        if sig is not None and self.popen.poll() is None:
            self.popen.send_signal(sig)
        try:
            out, err = self.popen.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        return self.popen.returncode, (self._buf + out).decode(), err.decode(errors="replace")

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.communicate(timeout=WAIT)


def url_of(line: str) -> str:
    """The URL in a ``thinkwire serve|replay|record: URL ...`` start line."""
    url = line.split()[2]
    assert url.startswith("http://127.0.0.1:"), line
    return url


def assert_gone(pid: int, port: int) -> None:
    """The child is gone and nothing listens on its port any more."""
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still listening"


def exchange(
    base_url: str, path: str, body: bytes, timeout: float = WAIT, first: threading.Event | None = None
) -> tuple[int, bytes, bool]:
    """POST ``body``; (status, body bytes received, True when the response ended properly). ``first``
    is set when the first body bytes arrive."""
    host, port = base_url.removeprefix("http://").split(":")
    conn = h11.Connection(h11.CLIENT)
    status, got = 0, bytearray()
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        head = h11.Request(
            method="POST",
            target=path,
            headers=[("host", "x"), ("content-length", str(len(body))), ("content-type", "application/json")],
        )
        s.sendall(conn.send(head) + conn.send(h11.Data(data=body)) + conn.send(h11.EndOfMessage()))
        while True:
            try:
                ev = conn.next_event()
            except h11.RemoteProtocolError:
                return status, bytes(got), False
            if ev is h11.NEED_DATA:
                try:
                    conn.receive_data(s.recv(65536))
                except ConnectionError:
                    conn.receive_data(b"")
                continue
            if isinstance(ev, h11.Response):
                status = ev.status_code
            elif isinstance(ev, h11.Data):
                got += ev.data
                if first is not None:
                    first.set()
            elif isinstance(ev, h11.EndOfMessage):
                return status, bytes(got), True
            elif isinstance(ev, h11.ConnectionClosed):
                return status, bytes(got), False
