"""The reference agent CLI: one prompt, or pi RPC-mode commands on stdin, and a streamed pi-style JSONL
transcript on stdout. It runs tools as child processes in a session dir and passes reasoning back on every
tool continuation and every next prompt.

Run: ``python -m harness.reference.agent --upstream URL --dialect D [--variant V] [--model M]
--session-dir DIR (--prompt TEXT | --rpc) [--fault NAME]...``.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, BinaryIO

from harness._json import dumps_compact, loads
from harness.codec import Frame, encode_frames
from harness.dialects import Emitter, get_dialect
from harness.events import End, Event, Message, StreamError, ToolCallBlock, assemble
from harness.net import WireClient, WireError, shutdown
from harness.reference._core import (
    Route,
    UpstreamPipe,
    error_message,
    pipe_faults,
    structured_fields,
    upstream_request,
)
from harness.reference._faults import CLI_FAULTS, check_faults
from harness.reference._request_faults import strip_passback

__all__ = ["MAX_TURNS", "TOOL_SOURCE", "Agent", "main"]

MAX_TURNS = 4

TOOL_SOURCE = """\
import json, os, sys
call_id, name, arguments, mode = sys.argv[1:5]
with open(f"tool-{call_id}.json", "w", encoding="utf-8") as f:
    f.write(arguments)
print(json.dumps({"tool": name, "files": sorted(os.listdir("."))}), flush=True)
if mode == "linger":  # hold on until the parent closes our stdin, then take a while to close (a
    sys.stdin.read()  # real tool flushing its files): the window in which a removed dir is a bug
    import time
    time.sleep(0.5)
elif mode == "leak":  # the bug: nobody will ever wait for us
    import time
    time.sleep(60)
"""
"""The tool: writes a file into its cwd (the session dir), prints a one-line JSON result."""


class _Terminated(Exception):
    pass


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


class Agent:
    """One agent run: the conversation, its children and its session dir.

    Cleanup goes in the right order: every child has exited before the session dir is removed, and SIGTERM
    kills the children first, then removes the dir. An abort closes the upstream request in flight at once
    by shutting its socket down; the partial reply stays in the history as it was read.

    With ``--rpc``, stdin carries ``prompt`` lines, with optional ``request`` fields, and ``abort``. Over
    the Responses WebSocket mode one socket serves the conversation and each turn is chained to the last
    response, through ``_upstream_ws``.
    """

    def __init__(
        self,
        *,
        upstream: str,
        route: Route,
        session: Path,
        faults: frozenset[str],
        out: BinaryIO,
        http: WireClient,
    ) -> None:
        self.upstream = upstream.rstrip("/")
        self.route = route
        self.dialect = get_dialect(route.dialect)
        self.session = session
        self.faults = faults
        self.out = out
        self.http = http
        self.children: list[subprocess.Popen[bytes]] = []
        self.pi = get_dialect("pi-json")
        self.turns = 0  # assistant messages of the current run
        self.runs = 0  # prompts run
        self.messages: list[Message] = []  # the conversation, across prompts
        self.abort = threading.Event()  # the current prompt's abort (--rpc)
        self.live: socket.socket | None = None  # the socket of the upstream request being read
        self.lock = threading.Lock()
        self.emitter: Emitter = self.pi.emitter("v2", model=route.model)
        self.closing: list[Frame] = []  # agent_end / agent_settled of the latest message
        self.ws: dict[str, Any] = {}  # the Responses WebSocket conversation (_upstream_ws), closed at cleanup

    # -- output: every record written and flushed as soon as it exists
    def new_message(self, prompt: str) -> None:
        """One pi emitter per assistant message; the records that open the session come only once."""
        self.emitter = self.pi.emitter("v2", model=self.route.model, prompt=prompt)  # type: ignore[call-arg]
        self.turns += 1

    def emit(self, events: Sequence[Event]) -> None:
        self.write(self.emitter.feed(list(events)))

    def write(self, frames: Sequence[Frame]) -> None:
        for frame in frames:
            kind = _record_type(frame)
            if kind in ("agent_end", "agent_settled"):
                self.closing.append(frame)  # held only until we know whether the agent goes on
                continue
            if kind == "session" and self.runs > 1:
                continue
            if self.turns > 1 and (kind in ("session", "agent_start") or _is_user_record(frame)):
                continue
            self.record(frame)

    def record(self, frame: Frame) -> None:
        for data in encode_frames([frame], self.pi.transport):
            self.out.write(data)
            self.out.flush()

    def finish(self) -> None:
        """The agent is done: its closing records, once."""
        if not self.closing:
            self.write(self.emitter.close())
        for frame in self.closing:
            self.record(frame)
        self.closing = []

    # -- the loop
    def run(self, prompt: str, request: Mapping[str, object] | None = None) -> int:
        """One prompt: upstream turns and tool runs until an answer; the history kept for the next."""
        self.session.mkdir(parents=True, exist_ok=True)
        self.runs, self.turns = self.runs + 1, 0
        if "unsaved-reasoning" in self.faults:  # FAULT: the session kept between prompts holds no reasoning
            self.messages = strip_passback(self.messages)
        messages = self.messages
        messages.append(Message.user(prompt))
        status, structured = 0, structured_fields(request or {})
        for _ in range(MAX_TURNS):
            self.new_message(prompt)
            status, assistant = self.turn(messages, structured)
            # A forced tool_choice holds for the first request only, as the OpenAI Agents SDK resets it
            # after a tool call (reset_tool_choice): kept, it would force the same call for ever.
            structured = {k: v for k, v in structured.items() if k != "tool_choice"}
            if self.abort.is_set():  # the partial reply as read, its unanswered tool calls left out
                kept = tuple(b for b in assistant.content if not isinstance(b, ToolCallBlock))
                messages += [Message("assistant", kept)] if kept else []
                break
            if status != 0 or not assistant.tool_calls:
                messages += [assistant] if status == 0 else []
                break
            self.closing = []  # the agent goes on: no agent_end yet
            messages.append(assistant)
            for call in assistant.tool_calls:
                result = self.tool(call)
                messages.append(Message.tool(call.id, result, call.name))
                self.record(_tool_result_record(call, result))
        self.finish()
        return status

    def turn(self, messages: list[Message], structured: Mapping[str, object]) -> tuple[int, Message]:
        """One streamed upstream request; returns (exit status, the assistant message it carried)."""
        if self.dialect.websocket:
            return self.ws_turn(messages, structured)
        spec = upstream_request(self.route, messages, stream=True, faults=self.faults, structured=structured)
        url = self.upstream + spec.path
        pipe = UpstreamPipe(self.dialect, self.route.variant, pipe_faults(self.faults, structured))
        exchange = None
        try:
            exchange = self.http.exchange(url, connect_timeout=5.0)
            self.attach(exchange.sock)
            exchange.send("POST", dumps_compact(spec.body).encode(), dict(spec.headers))
            if exchange.status >= 400:
                body = b"".join(exchange.body())
                if "hide-upstream-error" in self.faults:  # FAULT: an error becomes an empty success
                    self.emit([End("stop")])
                    return 0, Message("assistant")
                self.emit([StreamError(error_message(body), status=exchange.status)])
                return 1, Message("assistant")
            for chunk in exchange.body():
                events = pipe.feed(chunk)
                if not self.abort.is_set():
                    self.emit(events)
            if self.abort.is_set():
                return self.aborted(pipe)
            self.emit(pipe.end())
        except (OSError, WireError) as exc:
            if self.abort.is_set():
                return self.aborted(pipe)
            self.emit(pipe.fail(f"upstream connection failed: {exc!r}"))
            return 1, Message("assistant")
        finally:
            self.attach(None)
            if exchange is not None:
                exchange.release()
        return self.outcome(pipe)

    def outcome(self, pipe: UpstreamPipe) -> tuple[int, Message]:
        """Our own memory of the turn (what we pass back) is the upstream's, not what faults printed."""
        if any(isinstance(e, StreamError) for e in pipe.upstream):
            return (0 if "swallow-stream-error" in self.faults else 1), Message("assistant")
        return 0, assemble(pipe.upstream)

    # -- abort (--rpc): the stdin reader thread asks, the loop's upstream read stops
    def attach(self, sock: socket.socket | None) -> None:
        """The socket of the upstream request now being read (an abort already asked for closes it)."""
        with self.lock:
            self.live = sock
        if sock is not None and self.abort.is_set():
            self.interrupt()

    def interrupt(self) -> None:
        """Close the upstream request in flight: its socket shut down, which wakes the blocked read."""
        if "keep-upstream-open" in self.faults:  # FAULT: the upstream is read to its end regardless
            return
        with self.lock:
            sock = self.live
        if sock is not None:
            shutdown(sock)
        ws = self.ws.get("ws")
        if ws is not None:  # the Responses WebSocket mode's socket
            ws.shutdown()

    def aborted(self, pipe: UpstreamPipe) -> tuple[int, Message]:
        """The client aborted the run: pi's ``aborted`` stop; the agent remembers what it had read."""
        self.emit([End("aborted")])
        return 0, assemble([e for e in pipe.upstream if not isinstance(e, StreamError)])

    def serve(self, stdin: BinaryIO) -> int:
        """--rpc: run each ``prompt`` command in turn until stdin closes; ``abort`` stops the run in
        flight (read on a thread of its own, so it lands while the loop blocks on the upstream)."""
        commands: queue.Queue[tuple[dict[str, object], threading.Event] | None] = queue.Queue()

        def read() -> None:
            current = threading.Event()
            for raw in stdin:
                try:
                    cmd = loads(raw)
                except ValueError:
                    print(f"rpc: not a JSON line: {raw[:80]!r}", file=sys.stderr)
                    continue
                kind = cmd.get("type") if isinstance(cmd, dict) else None
                if kind == "prompt":
                    current = threading.Event()
                    commands.put((cmd, current))
                elif kind == "abort":
                    current.set()
                    self.interrupt()
                else:
                    print(f"rpc: unknown command {kind!r}", file=sys.stderr)
            commands.put(None)

        threading.Thread(target=read, name="agent-rpc-stdin", daemon=True).start()
        status = 0
        while (item := commands.get()) is not None:
            cmd, self.abort = item
            request = cmd.get("request")
            status = self.run(str(cmd.get("message", "")), request if isinstance(request, dict) else None)
        return status

    def ws_turn(self, messages: list[Message], structured: Mapping[str, object]) -> tuple[int, Message]:
        """The Responses WebSocket mode: the conversation's one socket, each turn chained to the last
        response; an abort shuts the socket down (``interrupt``), which ends the read at once. Its
        modules (wsproto, harness.net) are imported here: an agent process runs one case, and
        importing them for every HTTP case cost ~0.2 s a case (-X importtime)."""
        from harness.net import WsClosed
        from harness.reference._upstream_ws import ws_turn

        pipe = UpstreamPipe(self.dialect, self.route.variant, pipe_faults(self.faults, structured))
        try:
            for ev in ws_turn(self.ws, self.upstream, self.route, messages, self.faults, 300.0, pipe):
                if not self.abort.is_set():
                    self.emit([ev])
        except (OSError, WsClosed) as exc:
            if self.abort.is_set():
                return self.aborted(pipe)
            self.emit(pipe.fail(f"upstream connection failed: {exc!r}"))
            return 1, Message("assistant")
        if self.abort.is_set():
            return self.aborted(pipe)
        return self.outcome(pipe)

    def tool(self, call: ToolCallBlock) -> str:
        """Run one tool in a child process with cwd = the session dir; its printed line is the result."""
        mode = "leak" if "leak-child" in self.faults else "linger" if "early-rmdir" in self.faults else "exit"
        child = subprocess.Popen(
            [sys.executable, "-c", TOOL_SOURCE, call.id, call.name, call.arguments or "{}", mode],
            cwd=self.session,
            stdin=subprocess.PIPE if mode == "linger" else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.children.append(child)
        assert child.stdout is not None
        result = child.stdout.readline().decode("utf-8", errors="replace").strip()
        if mode == "exit":
            child.stdout.close()
            child.wait()  # the correct path: the tool has finished before we go on
        if "early-rmdir" in self.faults:  # FAULT: the dir goes while the child still runs
            shutil.rmtree(self.session, ignore_errors=True)
        return result or '{"error":"the tool printed nothing"}'

    def cleanup(self, *, kill: bool = False) -> None:
        """The upstream socket; children first (killed on SIGTERM, else waited for), then the session dir."""
        if "ws" in self.ws:
            self.ws.pop("ws").close()
        for child in self.children:
            if "leak-child" in self.faults:  # FAULT: nobody waits for the child
                continue
            if kill and child.poll() is None:
                child.kill()
            if child.stdin is not None:
                with contextlib.suppress(OSError):
                    child.stdin.close()  # releases a lingering child
            child.wait()
            if child.stdout is not None:
                child.stdout.close()
        if "leave-dir" in self.faults:  # FAULT: the dir stays behind
            return
        shutil.rmtree(self.session, ignore_errors=True)


def _record_type(frame: Frame) -> str:
    try:
        obj = loads(frame.data)
    except ValueError:
        return ""
    return str(obj.get("type", "")) if isinstance(obj, dict) else ""


def _is_user_record(frame: Frame) -> bool:
    obj = loads(frame.data)
    msg = obj.get("message") if isinstance(obj, dict) else None
    return isinstance(msg, dict) and msg.get("role") == "user"


def _tool_result_record(call: ToolCallBlock, result: str) -> Frame:
    message = {
        "role": "toolResult",
        "toolCallId": call.id,
        "toolName": call.name,
        "content": [{"type": "text", "text": result}],
        "isError": False,
    }
    return Frame(dumps_compact({"type": "message_end", "message": message}))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m harness.reference.agent", description=__doc__)
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--dialect", default="openai-chat")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--model", default="mock-model")
    ap.add_argument("--session-dir", required=True, type=Path)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--prompt")
    mode.add_argument("--rpc", action="store_true", help="read pi RPC-mode commands (prompt, abort) on stdin")
    ap.add_argument("--fault", action="append", default=[], choices=sorted(CLI_FAULTS))
    args = ap.parse_args(argv)
    dialect = get_dialect(args.dialect)
    route = Route(args.dialect, args.variant or dialect.default_variant, args.model)
    faults = check_faults(args.fault, CLI_FAULTS)
    signal.signal(signal.SIGTERM, _on_sigterm)
    http = WireClient()  # not httpx: its import and TLS set-up were ~70% of an agent's run (py-spy)
    try:
        agent = Agent(
            upstream=args.upstream,
            route=route,
            session=args.session_dir,
            faults=faults,
            out=sys.stdout.buffer,
            http=http,
        )
        killed = False
        try:
            if args.rpc:  # unbuffered: the reader thread then holds no buffer lock at interpreter exit
                return agent.serve(open(sys.stdin.fileno(), "rb", buffering=0, closefd=False))
            return agent.run(args.prompt)
        except _Terminated:
            killed = True
            return 128 + signal.SIGTERM
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # cleanup is not interrupted
            agent.cleanup(kill=killed)
    finally:
        http.close()


if __name__ == "__main__":
    sys.exit(main())
