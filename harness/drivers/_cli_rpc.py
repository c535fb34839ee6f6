"""The client side of a CLI that reads pi RPC-mode commands on stdin, profile ``input = "rpc"``, and which
cases a CLI of either input can express. It is sans-IO: stdout bytes in, events and command lines out; the
CLI driver owns the process and the timeline."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._json import dumps_compact, loads
from harness.drivers._base import CancelWatch
from harness.events import Event

__all__ = ["ABORT_LINE", "Fed", "RpcClient", "cli_unsupported", "prompt_line"]

ABORT_LINE = b'{"type":"abort"}\n'
"""pi RPC mode's abort command: stop the run in flight (its upstream request closed), keep the session."""


def prompt_line(message: str, request: Mapping[str, Any] | None = None) -> bytes:
    """pi RPC mode's ``prompt`` command; ``request`` (thinkwire's optional field): the fields the client
    adds to this message's model request, in OpenAI chat form (``response_format``, ``tool_choice``)."""
    obj: dict[str, Any] = {"type": "prompt", "message": message}
    if request:
        obj["request"] = dict(request)
    return dumps_compact(obj).encode() + b"\n"


def cli_unsupported(turns: Sequence[Any], cli_input: str, continues: bool = False) -> str:
    """Why a CLI taking its conversation by ``cli_input`` cannot run a case of ``turns`` ("" when it
    can): a prompt on the command line carries one user message and no request fields; a CLI that
    ``continues`` (profile ``continue``) takes each later user message in a run of its own."""
    if cli_input == "rpc":
        return ""
    if any(t.user is not None for t in turns[1:]) and not continues:
        return (
            'the case continues with another user message: the CLI takes one prompt (input = "argv"; '
            'a profile\'s continue = ["-c"] says how it goes on with its session)'
        )
    if any(t.request for t in turns):
        return (
            "the case adds request fields (response_format, tool_choice): "
            'the CLI takes one prompt (input = "argv")'
        )
    return ""


@dataclass(slots=True)
class Fed:
    """What one read of stdout gave: the events the client sees (with their run's first turn), whether
    the run's cancel gate was met just now, the command lines to write, whether to close stdin."""

    events: list[Event] = field(default_factory=list)
    cancelled: bool = False
    write: list[bytes] = field(default_factory=list)
    close: bool = False


class RpcClient:
    """One case's conversation with an RPC-mode CLI. ``observer`` makes a front-door observer per run.

    A ``prompt`` line goes out per user message of the case, with the turn's request fields if any; an
    ``abort`` line once the run's cancel gate is met; stdin is closed after the last run. The CLI's stdout
    is cut into runs at each ``agent_end`` line, and ``agent_settled`` lines right after it belong to the
    run before. Each run is read by a fresh front-door observer.

    What an aborted run writes after the abort is not shown to the client, which went away as a cancelled
    HTTP client stops reading. The run is still read to find its end.
    """

    def __init__(self, turns: Sequence[Any], observer: Callable[[], Any]) -> None:
        self.turns = turns
        self.make = observer
        self.starts = [i for i, t in enumerate(turns) if t.user is not None]
        self.run = 0  # index into starts
        self.observer = observer()
        self.watch = CancelWatch(self._cancel_gate())
        self.aborted = False
        self.ended = False  # the current run's agent_end was read
        self.pending = b""

    def _cancel_gate(self) -> Any:
        """The first cancel gate among the turns this run covers (its prompt's, its tool continuations')."""
        first = self.starts[self.run]
        last = self.starts[self.run + 1] if self.run + 1 < len(self.starts) else len(self.turns)
        return next((t.cancel for t in self.turns[first:last] if t.cancel is not None), None)

    def first(self) -> bytes:
        """The command that opens the conversation."""
        return self._prompt(0)

    def _prompt(self, run: int) -> bytes:
        turn = self.turns[self.starts[run]]
        return prompt_line(turn.user, turn.request)

    def feed(self, data: bytes) -> Fed:
        out = Fed()
        lines = (self.pending + data).split(b"\n")
        self.pending = lines.pop()
        for line in lines:
            self._line(line + b"\n", out)
        return out

    def end(self) -> list[Event]:
        """EOF: the last, unterminated line and the observer's end of the current run."""
        out = Fed()
        if self.pending:
            self._line(self.pending, out)
            self.pending = b""
        events = self.observer.end()
        return out.events + ([] if self.aborted else events)

    def _line(self, line: bytes, out: Fed) -> None:
        line_type = _type(line)
        if self.ended and line_type != "agent_settled" and self.run + 1 < len(self.starts):
            out.events += [] if self.aborted else self.observer.end()
            self.run += 1
            self.observer = self.make()
            self.watch = CancelWatch(self._cancel_gate())
            self.aborted = self.ended = False
        events = self.observer.feed(line)
        if not self.aborted:
            out.events += events
            if self.watch.gate is not None and [ev for ev in events if self.watch.see(ev)]:
                self.aborted = out.cancelled = True
                out.write.append(ABORT_LINE)
        if line_type == "agent_end" and not self.ended:
            self.ended = True
            if self.run + 1 < len(self.starts):  # the next user message; its records start a new run
                out.write.append(self._prompt(self.run + 1))
            else:
                out.close = True


def _type(line: bytes) -> str:
    try:
        obj = loads(line)
    except ValueError:
        return ""
    line_type = obj.get("type") if isinstance(obj, dict) else None
    return line_type if isinstance(line_type, str) else ""
