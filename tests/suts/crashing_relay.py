#!/usr/bin/env python3
"""A byte-transparent OpenAI-chat relay for the crash tests: it forwards the client's request to
``--upstream`` unchanged and hands the answer back byte for byte as it arrives, parsing nothing; when its
client goes away it closes its upstream connection.

``--crash-on-tool-result`` is its one fault: a request that carries a tool result (a ``"role": "tool"``
message) makes the whole process exit with code 3 at once, as a gateway that dies on a tool-result
continuation does. Standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class Relay(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = urlsplit("http://127.0.0.1")
    crash = False

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # the readiness probe: /health
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.crash and _has_tool_result(body):
            sys.stderr.write("crashing_relay: a tool result in the request: exiting with code 3\n")
            sys.stderr.flush()
            os._exit(3)
        up = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=60)
        try:
            skip = ("host", "content-length", "connection")
            headers = {k: v for k, v in self.headers.items() if k.lower() not in skip}
            up.request("POST", self.upstream.path.rstrip("/") + self.path, body, headers)
            answer = up.getresponse()
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.getheader("Content-Type") or "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self._copy(answer)
        finally:
            up.close()

    def _copy(self, answer: http.client.HTTPResponse) -> None:
        """The upstream's bytes to the client as they come; stops when the client goes away."""
        watch = selectors.DefaultSelector()
        watch.register(self.connection, selectors.EVENT_READ)
        try:
            while True:
                if watch.select(0) and not self.connection.recv(1, socket.MSG_PEEK):
                    return  # the client left: the upstream connection closes with ``up``
                data = answer.read1(65536)
                if not data:
                    break
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            return
        finally:
            watch.close()


def _has_tool_result(body: bytes) -> bool:
    try:
        request = json.loads(body)
    except ValueError:
        return False
    messages = request.get("messages") if isinstance(request, dict) else None
    return any(isinstance(m, dict) and m.get("role") == "tool" for m in messages or ())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True, help="0: any free port (printed)")
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--crash-on-tool-result", action="store_true")
    args = parser.parse_args()
    Relay.upstream, Relay.crash = urlsplit(args.upstream), args.crash_on_tool_result
    ThreadingHTTPServer.daemon_threads = True
    with ThreadingHTTPServer(("127.0.0.1", args.port), Relay) as server:
        print(f"listening on {server.server_address[1]}", flush=True)  # (a test started outside waits for it)
        server.serve_forever()


if __name__ == "__main__":
    main()
