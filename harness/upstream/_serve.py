"""``thinkwire serve`` / ``replay``: a canned conversation and the lifecycle of a standalone server
(also the recorder's): URL line flushed at start, ``--port-file``, graceful SIGTERM / SIGINT.

Rule: printing and waiting only; the serving is :class:`~harness.upstream.MockUpstream`'s. The main
thread sleeps on one socket that signals (``signal.set_wakeup_fd``), :meth:`Waker.stop` and "the last
in-flight request ended" all write to: no polling, no exception raised inside a signal handler. On the
first SIGTERM / SIGINT the server answers new requests 503, gives in-flight ones ``grace`` seconds (a
second signal cuts that short), stops, prints its summary line and returns 0 (SIGTERM) or 130 (SIGINT).
"""

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

from harness._errors import FlagError, closest
from harness.events import End, ReasoningDelta, TextDelta
from harness.net import Request, Responder
from harness.upstream._script import Conversation, Emit, Script
from harness.upstream._server import MockUpstream

__all__ = [
    "DEFAULT_GRACE",
    "Waker",
    "check_port",
    "demo_conversation",
    "drain",
    "listen_error",
    "remove_port_file",
    "say",
    "serve_forever",
    "write_port_file",
]

DEFAULT_GRACE = 5.0
"""Seconds in-flight requests get after the first SIGTERM / SIGINT."""

SERVE_KEEP = 20
"""Requests ``serve`` / ``replay`` remember (and x 100 timeline entries): what a strict profile
checks a passback against, and enough to look at the last exchanges from a debugger."""


def demo_conversation(dialect: str, variant: str | None = None, profile: str = "lenient") -> Conversation:
    """A reasoning -> text turn, answered to every request (overflow). An unknown dialect, variant or
    profile is a :class:`FlagError` naming the closest known names."""
    from harness.dialects import dialect_names, get_dialect

    if dialect not in dialect_names():
        raise FlagError(f"--dialect {dialect!r}: unknown dialect; {closest(dialect, dialect_names())}")
    d = get_dialect(dialect)
    variant = variant or d.default_variant
    if variant not in d.variants:
        raise FlagError(f"--variant {variant!r}: not a variant of {dialect}; {closest(variant, d.variants)}")
    profiles = ["lenient", *d.profiles()]
    if profile not in profiles:
        raise FlagError(
            f"--profile {profile!r}: not a provider profile of {dialect}; {closest(profile, profiles)}"
        )
    turn = (
        ReasoningDelta("The user says hello. "),
        ReasoningDelta("I should greet them back."),
        TextDelta("Hello! "),
        TextDelta("How can I help?"),
        End("stop"),
    )
    script = Script(dialect, (Emit(turn),), variant=variant, profile=profile)
    return Conversation((), name=f"demo {dialect}:{variant}", overflow=script)


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
    returns the signals (or ``_STOP``) that arrived."""

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
    seconds pass, or another signal arrives. Returns what is still in flight."""
    deadline = time.monotonic() + grace
    while busy():
        left = deadline - time.monotonic()
        if left <= 0 or waker.wait(left):
            break
    return busy()


# -- serve / replay --------------------------------------------------------------------------------
class _Standalone(MockUpstream):
    """The mock upstream with a request count, an in-flight count and a closing state (503)."""

    def __init__(self, port: int, waker: Waker) -> None:
        super().__init__(port=port)
        self.waker = waker
        self.served = 0
        self.in_flight = 0
        self.closing = False

    async def _handle(self, req: Request, resp: Responder) -> None:
        if self.closing:
            body = b"thinkwire: shutting down\n"
            await resp.start(503, [("content-type", "text/plain")], framing="length", length=len(body))
            await resp.write(body)
            await resp.end()
            return
        self.served += 1
        self.in_flight += 1
        try:
            await super()._handle(req, resp)
        finally:
            self.in_flight -= 1
            if self.closing and not self.in_flight:
                self.waker.poke()


def serve_forever(
    conversation: Conversation,
    *,
    port: int = 0,
    port_file: Path | None = None,
    grace: float = DEFAULT_GRACE,
    label: str = "serve",
    out: Callable[[str], object] = say,
    waker: Waker | None = None,
    setup: Callable[[MockUpstream], object] | None = None,
) -> int:
    """Serve ``conversation`` on 127.0.0.1 until SIGTERM / SIGINT (or ``waker.stop()``); the exit
    code: 0 after SIGTERM or a stop, 130 after SIGINT. ``setup`` is given the upstream before it
    starts (e.g. ``MockUpstream.share`` for a whole catalog)."""
    check_port(port)
    if grace < 0:
        raise FlagError(f"--grace {grace}: expected seconds >= 0 (0 cuts in-flight streams at once)")
    waker = waker or Waker()
    up = _Standalone(port, waker)
    if setup is not None:
        setup(up)
    try:
        up.start()
    except RuntimeError as exc:
        waker.close()
        raise FlagError(
            f"--port {port}: cannot listen on 127.0.0.1:{port} ({exc.__cause__ or listen_error(exc)}); "
            "choose a free port or --port 0"
        ) from None
    waker.install()
    cut = 0
    try:
        up.load(conversation, keep=SERVE_KEEP)  # flat for hours: nobody reads an old request
        if port_file is not None:
            write_port_file(port_file, up.port)
        out(
            f"thinkwire {label}: {up.base_url} serving {conversation.name or 'a conversation'} "
            "(stop with Ctrl-C or SIGTERM)"
        )
        waker.wait_stop()
        up.closing = True
        cut = drain(waker, lambda: up.in_flight, grace)
    finally:
        up.stop()
        remove_port_file(port_file, up.port)
        waker.close()
    how = "SIGINT" if waker.exit_code == 130 else "SIGTERM" if waker.first == signal.SIGTERM else "stop"
    extra = f", {cut} cut at the end of the grace period" if cut else ""
    out(f"thinkwire {label}: stopped ({how}) after {up.served} request(s){extra}")
    return waker.exit_code


def listen_error(exc: RuntimeError) -> str:
    """Why a server could not listen, in words (``address already in use`` for EADDRINUSE)."""
    text = str(exc)
    if "Address already in use" in text or "address already in use" in text or "Errno 98" in text:
        return "address already in use"
    return text
