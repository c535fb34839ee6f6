"""The lifecycle of a standalone loopback server for ``thinkwire serve``, ``replay`` and ``record``: the URL
line, ``--port-file`` and graceful signals. It only prints and waits; the serving belongs to the server."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from harness._errors import FlagError

__all__ = [
    "DEFAULT_GRACE",
    "Waker",
    "check_port",
    "drain",
    "listen_error",
    "remove_port_file",
    "say",
    "write_port_file",
]

DEFAULT_GRACE = 5.0
"""Seconds in-flight requests get after the first SIGTERM / SIGINT."""

# -- output ----------------------------------------------------------------------------------------
def say(line: str) -> None:
    """One line to stdout, flushed at once (stdout may be a pipe); a reader that went away (``| head
    -1``) is not an error: later lines go nowhere."""
    try:
        print(line, flush=True)  # noqa: T201
    except (BrokenPipeError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # the interpreter's exit flush must not fail either
            os.close(devnull)


def check_port(port: int, flag: str = "--port") -> int:
    if not 0 <= port <= 65535:
        raise FlagError(f"{flag} {port}: expected a TCP port 0-65535 (0 picks a free one)")
    return port


def write_port_file(path: Path, port: int) -> None:
    """The port number and a newline, atomically (a script polling for the file reads it whole)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(f"{port}\n", encoding="ascii")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise FlagError(
            f"--port-file {str(path)!r}: cannot be written ({exc.strerror or exc}); "
            "name a file in a writable directory"
        ) from None


def remove_port_file(path: Path | None, port: int) -> None:
    if path is None:
        return
    with contextlib.suppress(OSError):
        if path.read_text(encoding="ascii").strip() == str(port):
            path.unlink()


# -- waiting ---------------------------------------------------------------------------------------
_POKE = 0
_STOP = 255


class Waker:
    """What the main thread sleeps on. ``install()`` (main thread only) routes SIGTERM and SIGINT to
    it; ``stop(signum)`` does the same from any thread; ``poke()`` wakes it without a stop. ``wait``
    returns the signals (or ``_STOP``) that arrived.

    The main thread sleeps on one socket that signals, :meth:`stop` and the end of the last in-flight
    request all write to, through ``signal.set_wakeup_fd``. Nothing polls, and no exception is raised
    inside a signal handler.
    """

    def __init__(self) -> None:
        self._r, self._w = socket.socketpair()
        self._r.setblocking(False)
        self._w.setblocking(False)
        self._old: list[tuple[int, object]] = []
        self._old_fd: int | None = None
        self.first = 0
        """The first stop reason: a signal number, or ``_STOP``."""

    def install(self) -> Waker:
        if threading.current_thread() is not threading.main_thread():
            return self
        self._old_fd = signal.set_wakeup_fd(self._w.fileno(), warn_on_full_buffer=False)
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._old.append((sig, signal.signal(sig, _ignore)))
        return self

    def stop(self, signum: int = _STOP) -> None:
        with contextlib.suppress(OSError):
            self._w.send(bytes([signum]))

    def poke(self) -> None:
        with contextlib.suppress(OSError):
            self._w.send(bytes([_POKE]))

    def wait(self, timeout: float | None = None) -> set[int]:
        """Sleep until something arrives (or ``timeout``); the stop reasons that arrived."""
        import select

        select.select([self._r], [], [], timeout)
        got: set[int] = set()
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while data := self._r.recv(256):
                got.update(data)
        got.discard(_POKE)
        if got and not self.first:
            self.first = signal.SIGINT if signal.SIGINT in got else min(got)
        return got

    def wait_stop(self) -> int:
        while not self.wait():
            pass
        return self.first

    def close(self) -> None:
        if self._old_fd is not None:
            signal.set_wakeup_fd(self._old_fd)
            self._old_fd = None
        for sig, old in self._old:
            signal.signal(sig, old)  # type: ignore[arg-type]
        self._old.clear()
        self._r.close()
        self._w.close()

    @property
    def exit_code(self) -> int:
        return 130 if self.first == signal.SIGINT else 0


def _ignore(signum: int, frame: object) -> None:
    """The Python-level handler: the byte on the wakeup socket is what counts."""


def drain(waker: Waker, busy: Callable[[], int], grace: float) -> int:
    """After a stop: wait until ``busy()`` is 0 (the server pokes when it gets there), ``grace``
    seconds pass, or another signal arrives. Returns what is still in flight.

    On the first SIGTERM or SIGINT a server answers new requests 503, gives in-flight ones ``grace``
    seconds, stops, prints its summary line and returns 0 for SIGTERM or 130 for SIGINT. A second signal
    cuts the grace short.
    """
    deadline = time.monotonic() + grace
    while busy():
        left = deadline - time.monotonic()
        if left <= 0 or waker.wait(left):
            break
    return busy()


def listen_error(exc: RuntimeError) -> str:
    """Why a server could not listen, in words (``address already in use`` for EADDRINUSE)."""
    text = str(exc)
    if "Address already in use" in text or "address already in use" in text or "Errno 98" in text:
        return "address already in use"
    return text
