"""``thinkwire serve`` and ``replay``: the mock upstream as a standalone server, serving a canned, scenario or
cassette conversation until SIGTERM or SIGINT. The lifecycle of URL line, port file, signals and grace is
:mod:`harness.net._lifecycle`'s, shared with the recorder."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

from harness._errors import FlagError, closest
from harness.dialects import LENIENT, Caps
from harness.events import End, ReasoningDelta, ReasoningSignature, TextDelta, Usage
from harness.net import (
    DEFAULT_GRACE,
    Request,
    Responder,
    Waker,
    check_port,
    drain,
    listen_error,
    remove_port_file,
    say,
    write_port_file,
)
from harness.upstream._script import Conversation, Emit, Script
from harness.upstream._server import MockUpstream

__all__ = ["DEMO_SIGNATURE", "SERVE_KEEP", "demo_conversation", "serve_forever"]

DEMO_SIGNATURE = "EqMBCkYIBxgCKkBtb2NrLXNpZ25hdHVyZS1vZi10aGUtZGVtby10dXJu"
"""The demo turn's reasoning signature (a variant that carries one: Anthropic's ``signature_delta``,
a Responses item's ``encrypted_content``), base64 like the real ones."""

SERVE_KEEP = 20
"""Requests ``serve`` / ``replay`` remember (and x 100 timeline entries): what strict rules
checks a passback against, and enough to look at the last exchanges from a debugger."""


def demo_conversation(dialect: str, variant: str | None = None, rules: str = LENIENT) -> Conversation:
    """A reasoning -> text turn (signed, and with usage, where the variant carries them), answered to
    every request (overflow) in the form the request asks for (the request-forms table). An unknown
    dialect, variant or provider rules name is a :class:`FlagError` naming the closest known names."""
    from harness.dialects import dialect_names, get_dialect

    if dialect not in dialect_names():
        raise FlagError(f"--dialect {dialect!r}: unknown dialect; {closest(dialect, dialect_names())}")
    d = get_dialect(dialect)
    variant = variant or d.default_variant
    if variant not in d.variants:
        raise FlagError(f"--variant {variant!r}: not a variant of {dialect}; {closest(variant, d.variants)}")
    known = list(d.provider_rules())
    if rules not in known:
        raise FlagError(
            f"--provider-rules {rules!r}: not provider rules of {dialect}; {closest(rules, known)}"
        )
    caps = d.variants[variant].caps
    signed = (ReasoningSignature(DEMO_SIGNATURE),) if Caps.SIGNATURE in caps else ()
    usage = (Usage(input_tokens=12, output_tokens=18, reasoning_tokens=9),) if Caps.USAGE in caps else ()
    turn = (
        ReasoningDelta("The user says hello. "),
        ReasoningDelta("I should greet them back."),
        *signed,
        TextDelta("Hello! "),
        TextDelta("How can I help?"),
        *usage,
        End("stop"),
    )
    script = Script(dialect, (Emit(turn),), variant=variant, provider_rules=rules)
    return Conversation((), name=f"demo {dialect}:{variant}", overflow=script)


# --------------------------------------------------------------------------------
class _Standalone(MockUpstream):
    """The mock upstream with a request count, an in-flight count and a closing state (503).

    It answers 503 while closing.
    """

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
