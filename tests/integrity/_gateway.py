"""A small misbehaving OpenAI-chat gateway for the verdict-integrity tests (stdlib + httpx only).

    python _gateway.py MODE PORT UPSTREAM

MODE: ``canned`` (answers every request with one fixed reasoning stream, never calls the upstream),
``relay`` (forwards the upstream's bytes verbatim: a leading <think> stays inside ``content``),
``fakestream`` (asks the upstream for one whole body, then replays it to its client in small chunks),
``slam`` (relays the first upstream chunk, then closes the upstream connection and ends its answer),
``trickle`` (relays correctly, but sends its client one byte every 0.3 s), ``flood`` (an endless stream
of valid reasoning frames), ``coldstart`` (a correct relay whose first answer starts 1.5 s late),
``slow`` (a correct relay whose every answer starts 0.3 s late), ``crosstalk`` (reads each upstream
answer whole, then, when another request is in flight, swaps answers with it: two conversations' streams
crossed under load; alone, each request waits 0.3 s for a partner, then gets its own answer),
``lastrequest`` (keeps "the last request" in one variable shared by every connection, waits 0.3 s,
then forwards its own messages plus the user messages of whatever request is the last one by then:
alone, that is its own; under load, another conversation's content in this one's request).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

MODE, PORT, UPSTREAM = sys.argv[1], int(sys.argv[2]), sys.argv[3].rstrip("/")
FIRST = threading.Event()
SWAP = threading.Condition()  # crosstalk and lastrequest: requests in flight meet here
WAITING: list[dict[str, object]] = []  # crosstalk: answers waiting for a partner to swap with
LAST: list[dict[str, object]] = [{}]  # lastrequest: the bug, one "last request" for all connections

CANNED = [
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]},
    {"choices": [{"index": 0, "delta": {"reasoning_content": "Let me think."}}]},
    {"choices": [{"index": 0, "delta": {"content": "Hello!"}}]},
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
]


def sse(obj: object) -> bytes:
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def start_stream(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        url = UPSTREAM + "/v1/chat/completions"
        if MODE == "canned":
            self.start_stream()
            for frame in CANNED:
                self.wfile.write(sse(frame))
            self.wfile.write(b"data: [DONE]\n\n")
        elif MODE == "relay":
            with httpx.stream("POST", url, json=body, timeout=30) as resp:
                self.start_stream()
                for chunk in resp.iter_raw():
                    self.wfile.write(chunk)
                    self.wfile.flush()
        elif MODE == "fakestream":
            answer = httpx.post(url, json={**body, "stream": False}, timeout=30).json()
            message = answer["choices"][0]["message"]
            reasoning = message.get("reasoning_content") or message.get("reasoning") or ""
            self.start_stream()
            self.wfile.write(sse({"choices": [{"index": 0, "delta": {"role": "assistant"}}]}))
            for i in range(0, len(reasoning), 4):
                piece = {"reasoning": reasoning[i : i + 4]}
                self.wfile.write(sse({"choices": [{"index": 0, "delta": piece}]}))
            content = message.get("content") or ""
            for i in range(0, len(content), 4):
                self.wfile.write(sse({"choices": [{"index": 0, "delta": {"content": content[i : i + 4]}}]}))
            self.wfile.write(sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
            self.wfile.write(b"data: [DONE]\n\n")
        elif MODE in ("coldstart", "slow"):
            if MODE == "slow" or not FIRST.is_set():
                time.sleep(1.5 if MODE == "coldstart" else 0.3)  # pacing of a misbehaving SUT
            FIRST.set()
            with httpx.stream("POST", url, json=body, timeout=30) as resp:
                self.start_stream()
                for chunk in resp.iter_raw():
                    self.wfile.write(chunk)
                    self.wfile.flush()
        elif MODE == "trickle":
            with httpx.stream("POST", url, json=body, timeout=30) as resp:
                data = resp.read()
            self.start_stream()
            for i in range(len(data)):
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                time.sleep(0.3)
        elif MODE == "flood":
            httpx.post(url, json=body, timeout=30).read()
            self.start_stream()
            frame = sse({"choices": [{"index": 0, "delta": {"reasoning": "x" * 1000}}]})
            while True:
                self.wfile.write(frame * 64)
        elif MODE == "crosstalk":
            resp = httpx.post(url, json=body, timeout=30)
            answer = (resp.status_code, resp.headers.get("content-type", ""), resp.content)
            status, ctype, data = swapped(answer)
            self.send_response(status)
            self.send_header("content-type", str(ctype))
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif MODE == "lastrequest":
            with SWAP:  # the bug: one "last request" for every connection
                LAST[0] = body
                SWAP.notify_all()
                # until another conversation's request overwrites it (up to 0.3 s: a lone request, as
                # in a serial run, goes on with its own)
                SWAP.wait_for(lambda: LAST[0] is not body, timeout=0.3)
                last = LAST[0]
            if last is not body:  # the shared variable now holds another conversation's request
                extra = [m for m in last.get("messages", []) if m.get("role") == "user"]  # type: ignore[union-attr]
                body = {**body, "messages": [*body["messages"], *extra]}
            with httpx.stream("POST", url, json=body, timeout=30) as resp:
                self.start_stream()
                for chunk in resp.iter_raw():
                    self.wfile.write(chunk)
                    self.wfile.flush()
        elif MODE == "slam":
            with httpx.stream("POST", url, json=body, timeout=30) as resp:
                self.start_stream()
                for chunk in resp.iter_raw():
                    self.wfile.write(chunk)
                    break  # then drop the upstream connection mid-stream
            self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


def swapped(mine: tuple[int, str, bytes]) -> tuple[int, str, bytes]:
    """Crosstalk: give ``mine`` to a request waiting for a partner and take its answer; else wait up to
    0.3 s for one (pacing of a broken SUT), and keep ``mine`` when none came."""
    with SWAP:
        if WAITING:
            partner = WAITING.pop(0)
            partner["got"] = mine
            SWAP.notify_all()
            return partner["answer"]  # type: ignore[return-value]
        me: dict[str, object] = {"answer": mine, "got": None}
        WAITING.append(me)
        SWAP.wait_for(lambda: me["got"] is not None, timeout=0.3)
        if me["got"] is None:
            WAITING.remove(me)
            return mine
        return me["got"]  # type: ignore[return-value]


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
