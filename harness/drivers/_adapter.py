"""The driver for SUTs in any language: one long-running adapter process speaking the JSON-lines adapter
protocol on its stdin and stdout. The protocol itself is parsed in ``_adapter_wire``; this module owns the
process and the timing."""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.drivers._adapter_wire import (
    PROTOCOL,
    Done,
    Failed,
    Hello,
    Observed,
    ProtocolViolation,
    ToolRun,
    cancel_line,
    end_line,
    parse_line,
    tool_result_line,
    turn_line,
)
from harness.drivers._base import (
    CancelWatch,
    CaseContext,
    CaseTooBig,
    Driver,
    DriverError,
    DriverTimeout,
    TurnOutcome,
    converse,
)
from harness.drivers._files import write_files
from harness.drivers._layer import named_layer
from harness.drivers._process import Process, free_port, temp_dir
from harness.drivers._profile import SUTProfile, substitute
from harness.drivers._shaping import shaping, tool_specs, tools_json
from harness.drivers._tools import ToolRunner, recorder
from harness.events import Message, StreamError

if TYPE_CHECKING:
    from harness._gate import Gate

__all__ = ["AdapterDriver"]

CANCEL_GRACE = 2.0  # seconds an adapter gets to answer ``cancel`` with ``done``
_EOF = object()
_MAX_LINE = 16 * 1024 * 1024


class AdapterDriver(Driver):
    """The process is started once per run, and its first line must be ``hello`` within ``ready_timeout``; it
    is stopped with its whole tree by ``_process``. Per turn thinkwire writes one request line and reads
    event lines as they come, each recorded and observed at once, so gates see what the adapter's users
    would.

    A cancel gate or the deadline writes ``cancel`` and waits, bounded, for ``done``; an adapter that does
    not answer is killed and restarted for the next case. A line that breaks the protocol is an
    :class:`~harness.drivers.AdapterError` naming the line, an ERROR and never a SUT verdict. The SUT's own
    ``error`` line is evidence, as a Python SUT's exception is. The protocol is described in
    docs/adapter-protocol.md."""
    kind = "adapter"

    def __init__(self, profile: SUTProfile) -> None:
        self.profile = profile
        self.proc: Process | None = None
        self.tmp: Path | None = None
        self.lines: queue.Queue[object] = queue.Queue()
        self.upstream_url = ""
        self._n = 0  # stdout lines read so far
        self.stale = False  # it left a cancel unanswered: replace it before the next case
        self._conversations = itertools.count(1)

    def start(self, upstream_url: str) -> None:
        self.upstream_url = upstream_url
        try:
            self._spawn()
        except BaseException:
            self.stop()
            raise

    def _spawn(self) -> None:
        self.tmp = temp_dir("thinkwire-adapter-")
        values = self.profile.run_values(upstream=self.upstream_url, port=str(free_port()), tmp=str(self.tmp))
        write_files(self.profile.files, values, self.tmp)
        argv = [substitute(a, values) for a in self.profile.command]
        env = {k: substitute(v, values) for k, v in self.profile.env.items()}
        logs = self.tmp / ".thinkwire"
        logs.mkdir()
        try:
            self.proc = Process(
                argv,
                env=env,
                cwd=self.tmp,
                log_dir=logs,
                stdout_pipe=True,
                stdin_pipe=True,
                owned=(self.tmp,),
            )
        except OSError as exc:
            raise DriverError(f"cannot start adapter {argv[0]!r}: {exc}") from None
        self.lines, self._n = queue.Queue(), 0
        threading.Thread(
            target=self._read, args=(self.proc, self.lines), name="thinkwire-adapter", daemon=True
        ).start()
        item = self._next(self.profile.ready_timeout)
        if item is None:
            raise DriverError(
                f"adapter did not say hello within {self.profile.ready_timeout:g}s", self.stderr_tail()
            )
        if not isinstance(item, Hello):
            raise DriverError(f"adapter's first line must be hello, got {item!r}", self.stderr_tail())
        if item.protocol != PROTOCOL:
            raise DriverError(
                f"adapter speaks protocol {item.protocol}, thinkwire speaks {PROTOCOL} "
                "(docs/adapter-protocol.md)"
            )

    @staticmethod
    def _read(proc: Process, out: queue.Queue[object]) -> None:
        """stdout lines -> ``out`` (raw text), then ``_EOF``; a line past the cap is an error."""
        stream = proc.popen.stdout
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while True:
                line = stream.readline(_MAX_LINE + 1)
                if not line:
                    break
                if len(line) > _MAX_LINE:
                    out.put(ProtocolViolation(f"adapter line longer than {_MAX_LINE} bytes"))
                    break
                out.put(line.decode("utf-8", errors="replace").rstrip("\r\n"))
        out.put(_EOF)

    def _next(self, timeout: float) -> Hello | Observed | Failed | Done | ToolRun | None:
        """The next protocol line (None when none came within ``timeout``); EOF is a DriverError, a
        bad line an AdapterError."""
        from harness.drivers._python import AdapterError

        while True:
            try:
                raw = self.lines.get(timeout=max(0.0, timeout))
            except queue.Empty:
                return None
            if raw is _EOF:
                code = self.proc.popen.poll() if self.proc else None
                raise DriverError(f"the adapter exited (code {code})", self.stderr_tail())
            if isinstance(raw, ProtocolViolation):
                raise AdapterError(str(raw))
            assert isinstance(raw, str)
            self._n += 1
            if not raw.strip():
                continue
            try:
                return parse_line(self._n, raw)
            except ProtocolViolation as exc:
                raise AdapterError(str(exc)) from None

    def stderr_tail(self) -> str:
        return self.proc.stderr_tail() if self.proc is not None else ""

    def _send(self, data: bytes) -> None:
        assert self.proc is not None
        assert self.proc.popen.stdin is not None
        try:
            self.proc.popen.stdin.write(data)
            self.proc.popen.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise DriverError(f"the adapter stopped reading its stdin: {exc}", self.stderr_tail()) from None

    def run(self, ctx: CaseContext) -> None:
        if self.stale:  # it never answered a cancel: a fresh adapter for this case
            self.stop()
        if self.proc is None or not self.proc.alive():
            code = self.proc.popen.returncode if self.proc else None
            if self.proc is not None:
                raise DriverError(f"the adapter exited with code {code}", self.stderr_tail())
            self._spawn()
        conversation = f"c{next(self._conversations)}"
        try:
            converse(ctx, lambda i, msgs, cancel: self._turn(ctx, conversation, i, msgs, cancel))
        finally:
            if self.proc is not None and self.proc.alive():
                with contextlib.suppress(DriverError):
                    self._send(end_line(conversation))

    def _fields(self, ctx: CaseContext, turn: int) -> dict[str, Any]:
        case = ctx.case
        shape = shaping(
            self.profile.request,
            front_door=self.profile.front_door,
            dialect=case.dialect,
            variant=case.variant,
            model=ctx.model,
            values=self.profile.run_values(upstream=ctx.upstream_url, provider=ctx.provider),
        )
        return {
            "base_url": ctx.upstream_url,
            "dialect": case.dialect,
            "variant": case.variant,
            "provider": ctx.provider,
            "model": ctx.model,
            "stream": case.stream,
            "front_door": self.profile.front_door,
            "tools": tools_json(self.profile.front_door, tool_specs(case.turns)),
            "headers": dict(shape.headers),
            # the scenario's fields for this turn (tool_choice, response_format), then the shaping's
            "body": {**(getattr(case.turns[turn], "request", None) or {}), **shape.body},
            "faults": list(self.profile.faults),
        }

    def _turn(
        self, ctx: CaseContext, conversation: str, turn: int, messages: list[Message], cancel: Gate | None
    ) -> TurnOutcome:
        tid = f"{conversation}/{turn}"
        tl = ctx.timeline
        data = turn_line(tid, conversation, turn, self._fields(ctx, turn), messages)
        tl.add("client", "request", turn=turn, model=ctx.model, data=data)
        self._send(data)
        out, watch, size = TurnOutcome(), CancelWatch(cancel), 0
        tools = ToolRunner(ctx.case.turns, tool_specs(ctx.case.turns), recorder(ctx.timeline, turn))
        while True:
            item = self._next(ctx.left())
            if item is None:
                tl.add("client", "error", turn=turn, error="deadline: the adapter was still running the turn")
                self._cancel(tid, kill=True)
                raise DriverTimeout(
                    f"the case did not finish within {ctx.timeout:g}s (turn {turn}: the adapter was still "
                    "running it; cancelled)",
                    self.stderr_tail(),
                )
            if isinstance(item, Hello) or item.id != tid:
                from harness.drivers._python import AdapterError

                raise AdapterError(f"adapter line {self._n}: expected a line of turn {tid!r}, got {item!r}")
            if isinstance(item, Done):
                break
            if isinstance(item, ToolRun):  # the SUT runs the tool itself: its scripted result
                result = tools.run(item.name, _arguments(item.arguments))
                self._send(tool_result_line(tid, item.call_id, result))
                continue
            if isinstance(item, Failed):
                status = item.status or 0
                tl.add(
                    "client",
                    "error",
                    turn=turn,
                    error=f"{item.type}: {item.message}",
                    exception=item.type,
                    traceback=item.traceback or f"{item.type}: {item.message}",
                    where=named_layer(item.frames),  # the package that raised ("": none named)
                )
                ev = StreamError(f"{item.type}: {item.message}", code=item.code, status=status or None)
                tl.add("client", "event", event=ev, turn=turn)
                out.events.append(ev)
                out.status = status or 200
                continue
            size += len(str(item.event))
            if size > ctx.max_bytes:
                self._cancel(tid, kill=True)
                raise CaseTooBig(ctx.max_bytes, repr(out.events[:3]).encode()[:256])
            tl.add("client", "event", event=item.event, turn=turn)
            ctx.client.observe(item.event)
            out.events.append(item.event)
            if cancel is not None and watch.see(item.event):
                tl.add("client", "cancel", turn=turn)
                out.cancelled = True
                self._cancel(tid)
                return out
        tl.add("client", "end", turn=turn)
        return out

    def _cancel(self, tid: str, *, kill: bool = False) -> None:
        """Write ``cancel`` and wait (bounded) for the turn's ``done``, dropping its late events. An
        adapter that does not answer is replaced by a fresh one before the next case; it is stopped
        now only when ``kill`` (the deadline): after a client cancel, what it does with its upstream
        connection meanwhile is the cancellation check's evidence, which a kill would hide."""
        try:
            self._send(cancel_line(tid))
            while True:
                item = self._next(CANCEL_GRACE)
                if item is None:
                    break
                if isinstance(item, Done) and item.id == tid:
                    return
        except DriverError:
            pass
        self.stale = True
        if kill:
            self.stop()

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(OSError, ValueError):
                if self.proc.popen.stdin is not None:
                    self.proc.popen.stdin.close()  # EOF: a well-behaved adapter exits now
            self.proc.stop()
            self.proc = None
        self.tmp = None
        self.stale = False  # (owned by the Process: removed when it stopped)


def _arguments(text: str) -> dict[str, Any]:
    """A tool call's arguments as the tool gets them (text that is no JSON object: none)."""
    import json

    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
