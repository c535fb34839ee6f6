"""The reference agent CLI: one prompt, a streamed pi-style JSONL transcript on stdout, tools run as
child processes in a session dir, reasoning passed back on every tool continuation (over the Responses
WebSocket mode: one socket for the run, each turn chained to the last response, ``_ws_turn``).

Rule: cleanup in the right order: every child has exited before the session dir is removed; SIGTERM
kills the children first, then removes the dir.

Run: ``python -m harness.reference.agent --upstream URL --dialect D [--variant V] [--model M]
--session-dir DIR --prompt TEXT [--fault NAME]...``.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any, BinaryIO

import httpx

from harness._json import dumps_compact, loads
from harness.codec import Frame, encode_frames
from harness.dialects import Emitter, get_dialect
from harness.events import End, Event, Message, StreamError, ToolCallBlock, assemble
from harness.net import WsClosed
from harness.reference._core import Route, UpstreamPipe, error_message, upstream_request
from harness.reference._faults import CLI_FAULTS, check_faults
from harness.reference._ws_turn import ws_turn

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
    """One agent run: the conversation, its children and its session dir."""

    def __init__(
        self,
        *,
        upstream: str,
        route: Route,
        session: Path,
        faults: frozenset[str],
        out: BinaryIO,
        http: httpx.Client,
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
        self.turns = 0
        self.emitter: Emitter = self.pi.emitter("v2", model=route.model)
        self.closing: list[Frame] = []  # agent_end / agent_settled of the latest message
        self.ws: dict[str, Any] = {}  # the Responses WebSocket conversation (_ws_turn), closed at cleanup

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
    def run(self, prompt: str) -> int:
        self.session.mkdir(parents=True, exist_ok=True)
        messages = [Message.user(prompt)]
        status = 0
        for _ in range(MAX_TURNS):
            self.new_message(prompt)
            status, assistant = self.turn(messages)
            if status != 0 or not assistant.tool_calls:
                break
            self.closing = []  # the agent goes on: no agent_end yet
            messages.append(assistant)
            for call in assistant.tool_calls:
                result = self.tool(call)
                messages.append(Message.tool(call.id, result, call.name))
                self.record(_tool_result_record(call, result))
        self.finish()
        return status

    def turn(self, messages: list[Message]) -> tuple[int, Message]:
        """One streamed upstream request; returns (exit status, the assistant message it carried)."""
        if getattr(self.dialect, "websocket", False):
            return self.ws_turn(messages)
        spec = upstream_request(self.route, messages, stream=True, faults=self.faults)
        url = self.upstream + spec.path
        pipe = UpstreamPipe(self.dialect, self.route.variant, self.faults)
        try:
            with self.http.stream("POST", url, json=spec.body, headers=dict(spec.headers)) as resp:
                if resp.status_code >= 400:
                    body = resp.read()
                    if "hide-upstream-error" in self.faults:  # FAULT: an error becomes an empty success
                        self.emit([End("stop")])
                        return 0, Message("assistant")
                    self.emit([StreamError(error_message(body), status=resp.status_code)])
                    return 1, Message("assistant")
                for chunk in resp.iter_raw():
                    self.emit(pipe.feed(chunk))
            self.emit(pipe.end())
        except httpx.TransportError as exc:
            self.emit(pipe.fail(f"upstream connection failed: {exc!r}"))
            return 1, Message("assistant")
        return self.outcome(pipe)

    def outcome(self, pipe: UpstreamPipe) -> tuple[int, Message]:
        """Our own memory of the turn (what we pass back) is the upstream's, not what faults printed."""
        if any(isinstance(e, StreamError) for e in pipe.upstream):
            return (0 if "swallow-stream-error" in self.faults else 1), Message("assistant")
        return 0, assemble(pipe.upstream)

    def ws_turn(self, messages: list[Message]) -> tuple[int, Message]:
        """The Responses WebSocket mode: the run's one socket, each turn chained to the last response."""
        pipe = UpstreamPipe(self.dialect, self.route.variant, self.faults)
        try:
            for ev in ws_turn(self.ws, self.upstream, self.route, messages, self.faults, 300.0, pipe):
                self.emit([ev])
        except (OSError, WsClosed) as exc:
            self.emit(pipe.fail(f"upstream connection failed: {exc!r}"))
            return 1, Message("assistant")
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
    ap.add_argument("--prompt", required=True)
    ap.add_argument("--fault", action="append", default=[], choices=sorted(CLI_FAULTS))
    args = ap.parse_args(argv)
    dialect = get_dialect(args.dialect)
    route = Route(args.dialect, args.variant or dialect.default_variant, args.model)
    faults = check_faults(args.fault, CLI_FAULTS)
    signal.signal(signal.SIGTERM, _on_sigterm)
    with httpx.Client(timeout=httpx.Timeout(300.0, connect=5.0)) as http:
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
            return agent.run(args.prompt)
        except _Terminated:
            killed = True
            return 128 + signal.SIGTERM
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # cleanup is not interrupted
            agent.cleanup(kill=killed)


if __name__ == "__main__":
    sys.exit(main())
