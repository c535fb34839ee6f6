#!/usr/bin/env python3
"""A byte-transparent relay, the smallest correct gateway: it forwards each request to ``--upstream`` as it
came (method, path, headers, body) and the answer back byte for byte as it arrives, parsing nothing, and
closes its upstream connection as soon as its client goes away. ``GET /health`` it answers itself (its
readiness probe). Standard library only.

    python tests/suts/relay.py --listen PORT --upstream URL
    thinkwire run --sut-cmd 'python tests/suts/relay.py --listen {port} --upstream {upstream}'

Its planted bugs, one flag each, reproduce what relays get wrong: ``--drop-passback-reasoning`` (the
reasoning fields of the assistant messages it forwards are dropped), ``--buffer-reasoning`` (the answer's
bytes are held until its first answer content or tool call) and ``--keep-upstream-open`` (the upstream is
read to its end after the client left).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import select
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "te", "upgrade"}
REASONING = ("reasoning_content", "reasoning", "reasoning_details", "thinking_blocks")


class Relay(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = urlsplit("http://127.0.0.1")
    bugs: frozenset[str] = frozenset()

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        if self.path != "/health":
            return self.forward()
        self.send_response(200)  # its own readiness endpoint, as deployed relays have one
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
        return None

    def do_POST(self) -> None:
        self.forward()

    def do_DELETE(self) -> None:
        self.forward()

    def forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if "drop-passback-reasoning" in self.bugs:  # BUG: history rebuilt without reasoning
            body = _without_reasoning(body)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        up = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=120)
        gone = threading.Event()
        done = threading.Event()
        watcher = threading.Thread(target=self.watch, args=(up, gone, done), daemon=True)
        try:
            up.request(self.command, self.upstream.path.rstrip("/") + self.path, body, headers)
            watcher.start()
            answer = up.getresponse()
            self.send_response_only(answer.status, answer.reason)
            for key, value in answer.getheaders():
                if key.lower() not in HOP:
                    self.send_header(key, value)
            length = answer.getheader("Content-Length")
            chunked = length is None
            self.send_header(*(("Transfer-Encoding", "chunked") if chunked else ("Content-Length", length)))
            self.end_headers()
            self.copy(answer, chunked, gone)
        except (OSError, http.client.HTTPException):
            self.close_connection = True  # the upstream broke off: so does the client's stream
        finally:
            done.set()
            if not (gone.is_set() and "keep-upstream-open" in self.bugs):
                up.close()

    def copy(self, answer: http.client.HTTPResponse, chunked: bool, gone: threading.Event) -> None:
        """The answer's bytes as they arrive; the terminating chunk only after a complete upstream body,
        so an upstream that broke off reaches the client broken off."""
        held = b"" if "buffer-reasoning" in self.bugs else None
        while piece := answer.read1(65536):
            if gone.is_set():
                if "keep-upstream-open" in self.bugs:  # BUG: the upstream is read to its end
                    continue
                return
            if held is not None:  # BUG: nothing is sent before the answer starts
                held += piece
                if not _answer_started(held):
                    continue
                piece, held = held, None
            self.send(piece, chunked)
        if held:
            self.send(held, chunked)
        if answer.length:  # a body shorter than its Content-Length: cut short here too
            self.close_connection = True
        elif chunked:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    def send(self, piece: bytes, chunked: bool) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
        self.wfile.flush()

    def watch(self, up: http.client.HTTPConnection, gone: threading.Event, done: threading.Event) -> None:
        """Close the upstream connection when the client goes away (EOF on its socket), even while the
        upstream is silent: the blocked read wakes up and the request ends."""
        sock = self.connection
        while not done.is_set():
            readable, _, _ = select.select([sock], [], [], 0.1)
            if not readable:
                continue
            try:
                if sock.recv(1, socket.MSG_PEEK):
                    return  # the client's next request: it is still there
            except OSError:
                pass
            gone.set()
            if "keep-upstream-open" not in self.bugs and up.sock is not None:
                with contextlib.suppress(OSError):
                    up.sock.shutdown(socket.SHUT_RDWR)
            return


def _without_reasoning(body: bytes) -> bytes:
    try:
        request = json.loads(body)
    except ValueError:
        return body
    for m in request.get("messages", []) if isinstance(request, dict) else []:
        if isinstance(m, dict) and m.get("role") == "assistant":
            for key in REASONING:
                m.pop(key, None)
    return json.dumps(request).encode()


def _answer_started(held: bytes) -> bool:
    """An SSE ``data:`` line whose delta has answer content or a tool call (the buffering bug's trigger)."""
    for line in held.split(b"\n"):
        if not line.startswith(b"data:"):
            continue
        try:
            obj = json.loads(line[5:])
        except ValueError:
            continue
        for choice in obj.get("choices") or [] if isinstance(obj, dict) else []:
            delta = choice.get("delta") or {}
            if delta.get("content") or delta.get("tool_calls"):
                return True
    return False


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--listen", required=True, help="PORT or HOST:PORT")
    parser.add_argument("--upstream", required=True, help="the upstream's base URL")
    for bug in ("drop-passback-reasoning", "buffer-reasoning", "keep-upstream-open"):
        parser.add_argument(f"--{bug}", action="store_true")
    args = parser.parse_args()
    host, _, port = args.listen.rpartition(":")
    Relay.upstream = urlsplit(args.upstream)
    Relay.bugs = frozenset(b for b in ("drop-passback-reasoning", "buffer-reasoning", "keep-upstream-open")
                           if getattr(args, b.replace("-", "_")))  # fmt: skip
    ThreadingHTTPServer.daemon_threads = True
    with ThreadingHTTPServer((host or "127.0.0.1", int(port)), Relay) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
