"""A small SUT speaking thinkwire's JSON-lines adapter protocol (docs/adapter-protocol.md), in Python
for the tests (stdlib + httpx + harness codecs): an OpenAI-compatible chat client whose history lives
in the adapter, one conversation per ``conversation`` id.

    python _json_adapter.py MODE

MODE: ``ok``; ``lossy`` (drops reasoning_content on tool-call turns: DeepSeek answers 400);
``bad-line`` (writes a line that is not JSON instead of its first event); ``deaf`` (ignores cancel:
keeps reading after its client went away, never answers ``done``).
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import traceback
from typing import Any

import httpx
from _toy_framework import chat_entry

from harness.dialects import get_dialect

MODE = sys.argv[1]
LOCK = threading.Lock()
HISTORY: dict[str, list[dict[str, Any]]] = {}
CANCELS: dict[str, threading.Event] = {}
OPEN: dict[str, httpx.Response] = {}  # the turn's streaming response, aborted on cancel
HTTP = httpx.Client(timeout=30)


def say(obj: dict[str, Any]) -> None:
    with LOCK:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def event_json(ev: Any) -> dict[str, Any]:
    names = {
        "ReasoningDelta": "reasoning",
        "ReasoningSignature": "signature",
        "RedactedReasoning": "redacted",
        "TextDelta": "text",
        "ToolCallDelta": "tool_call",
        "Usage": "usage",
        "StreamError": "error",
        "End": "end",
    }
    out = {"type": names[type(ev).__name__]}
    for f in ev.__dataclass_fields__:
        if f != "channel":
            out[f] = getattr(ev, f)
    return out


def run_turn(req: dict[str, Any], cancel: threading.Event) -> None:
    tid = req["id"]
    history = HISTORY.setdefault(req["conversation"], [])
    seen = HISTORY.setdefault(req["conversation"] + "#seen", [])  # how many thinkwire messages were taken
    for m in req["messages"][len(seen) :]:
        seen.append(m)
        if m["role"] == "user":
            history.append({"role": "user", "content": "".join(b.get("text", "") for b in m["content"])})
        for b in m["content"]:
            if b["type"] == "tool_result":
                history.append({"role": "tool", "tool_call_id": b["call_id"], "content": b["content"]})
    body = {"model": req["model"], "messages": history, "stream": req["stream"], "tools": req["tools"]}
    chat = get_dialect("openai-chat")
    events: list[Any] = []
    first = True
    try:
        if req["stream"]:
            obs = chat.observer()
            with HTTP.stream("POST", req["base_url"] + "/v1/chat/completions", json=body) as resp:
                OPEN[tid] = resp
                if resp.status_code >= 400:
                    resp.read()
                    raise httpx.HTTPStatusError(
                        f"{resp.status_code}: {resp.text}", request=resp.request, response=resp
                    )
                for data in resp.iter_raw():
                    if cancel.is_set() and MODE != "deaf":
                        break
                    for ev in obs.feed(data):
                        if first and MODE == "bad-line":
                            with LOCK:
                                sys.stdout.write("this is not json\n")
                                sys.stdout.flush()
                        first = False
                        events.append(ev)
                        if type(ev).__name__ != "Notice":
                            say({"id": tid, "event": event_json(ev)})
            if cancel.is_set():
                if MODE != "deaf":
                    say({"id": tid, "done": True})
                return
            for ev in obs.end():
                events.append(ev)
                if type(ev).__name__ != "Notice":
                    say({"id": tid, "event": event_json(ev)})
        else:
            resp = HTTP.post(req["base_url"] + "/v1/chat/completions", json=body)
            if resp.status_code >= 400:
                raise httpx.HTTPStatusError(
                    f"{resp.status_code}: {resp.text}", request=resp.request, response=resp
                )
            for ev in chat.observe_response(resp.content):
                events.append(ev)
                if type(ev).__name__ != "Notice":
                    say({"id": tid, "event": event_json(ev)})
    except httpx.TransportError:
        if cancel.is_set():  # our own abort
            say({"id": tid, "done": True})
            return
        raise
    except httpx.HTTPStatusError as exc:
        say(
            {
                "id": tid,
                "error": {
                    "type": "HTTPStatusError",
                    "message": str(exc),
                    "status": exc.response.status_code,
                    "traceback": traceback.format_exc(),
                },
            }
        )
        say({"id": tid, "done": True})
        return
    history.append(chat_entry(events, keep_reasoning=MODE != "lossy"))
    say({"id": tid, "done": True})


def abort(resp: httpx.Response) -> None:
    """Abort a streaming read blocked on another thread (shutting the socket down wakes it)."""
    import socket

    sock = resp.extensions["network_stream"].get_extra_info("socket")
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def main() -> None:
    say({"type": "hello", "protocol": 1, "name": f"py-json-adapter ({MODE})"})
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "turn":
            cancel = CANCELS[msg["id"]] = threading.Event()
            threading.Thread(target=run_turn, args=(msg, cancel), daemon=True).start()
        elif msg["type"] == "cancel":
            CANCELS[msg["id"]].set()
            if MODE != "deaf" and msg["id"] in OPEN:
                abort(OPEN[msg["id"]])
        elif msg["type"] == "end":
            HISTORY.pop(msg["conversation"], None)
            HISTORY.pop(msg["conversation"] + "#seen", None)


if __name__ == "__main__":
    main()
