#!/usr/bin/env python3
"""A byte-transparent HTTP relay, the simplest correct gateway: each request goes to ``--upstream`` (its path
appended to the URL's) with its body unchanged, and the answer comes back byte for byte as the upstream
wrote it (status line, headers, framing, body). It parses no body and closes its upstream connection as
soon as its client goes away. Standard library only; one request per connection.

    python relay.py --listen [HOST:]PORT --upstream URL [--port-file FILE]
    thinkwire run --sut-cmd 'python tests/suts/relay.py --listen {port} --upstream {upstream}'

Planted bugs, one flag each, for tests that show a check catches them: ``--drop-reasoning`` (reasoning
fields removed from the assistant messages it forwards; also ``--drop-passback-reasoning``), ``--buffer``
(the whole answer held until the upstream ends it), ``--buffer-reasoning`` (the answer's bytes held until
its first answer content or tool call), ``--keep-upstream`` (the upstream read to its end after the client
went away; also ``--keep-upstream-open``), ``--exit-on-tool-result CODE`` (the process exits with CODE on
a request that carries a tool result).
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import socket
import socketserver
import sys
from urllib.parse import urlsplit

REASONING = ("reasoning_content", "reasoning", "reasoning_details", "thinking_blocks")
MAX_HEAD = 65536


class Relay(socketserver.BaseRequestHandler):
    upstream = urlsplit("http://127.0.0.1")
    bugs: argparse.Namespace = argparse.Namespace()

    def handle(self) -> None:
        client: socket.socket = self.request
        head, body = read_request(client)
        if head is None:
            return
        lines = head.split(b"\r\n")
        method, target, version = lines[0].split(b" ", 2)
        if method == b"GET" and target == b"/health":  # the readiness probe
            client.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
            return
        body = self.planted(body)
        up = socket.create_connection((self.upstream.hostname, self.upstream.port or 80), timeout=60)
        try:
            path = self.upstream.path.rstrip("/").encode() + target
            headers = [h for h in lines[1:] if h and not h.lower().startswith((b"host:", b"connection:"))]
            if self.bugs.drop_reasoning:
                headers = [h for h in headers if not h.lower().startswith(b"content-length:")]
                headers.append(b"content-length: %d" % len(body))
            host = f"{self.upstream.hostname}:{self.upstream.port or 80}".encode()
            out = [b" ".join((method, path, version)), b"host: " + host, *headers, b"connection: close"]
            up.sendall(b"\r\n".join(out) + b"\r\n\r\n" + body)
            self.pump(up, client)
        finally:
            up.close()

    def planted(self, body: bytes) -> bytes:
        bugs = self.bugs
        if bugs.exit_on_tool_result is not None and (b'"role": "tool"' in body or b'"role":"tool"' in body):
            code = bugs.exit_on_tool_result
            sys.stderr.write(f"relay: a tool result in the request: exiting with code {code}\n")
            sys.stderr.flush()
            os._exit(code)
        if bugs.drop_reasoning:
            request = json.loads(body)
            for m in request.get("messages", []):
                if m.get("role") == "assistant":
                    for key in REASONING:
                        m.pop(key, None)
            body = json.dumps(request).encode()
        return body

    def pump(self, up: socket.socket, client: socket.socket) -> None:
        """Upstream bytes to the client as they come; the client leaving ends it (and the upstream
        connection with it), unless ``--keep-upstream``."""
        sel = selectors.DefaultSelector()
        sel.register(up, selectors.EVENT_READ, "up")
        sel.register(client, selectors.EVENT_READ, "client")
        held: list[bytes] | None = []
        client_gone = False
        try:
            while True:
                for key, _ in sel.select(timeout=120):
                    data = recv(key.fileobj)  # type: ignore[arg-type]
                    if key.data == "client":
                        if data:
                            continue  # (nothing more is expected from the client: one request)
                        client_gone = True
                        sel.unregister(client)
                        if not self.bugs.keep_upstream:
                            return
                        continue
                    if not data:
                        if held and not client_gone:
                            client.sendall(b"".join(held))
                        return
                    if self.bugs.buffer or (self.bugs.buffer_reasoning and held is not None):
                        held.append(data)
                        if not self.bugs.buffer and answer_started(b"".join(held)):
                            data, held = b"".join(held), None  # (held: None from here on)
                            client.sendall(data)
                    elif not client_gone:
                        try:
                            client.sendall(data)
                        except OSError:
                            client_gone = True
                            if not self.bugs.keep_upstream:
                                return
        finally:
            sel.close()


def answer_started(held: bytes) -> bool:
    """An SSE ``data:`` line whose delta has answer content or a tool call (``--buffer-reasoning``)."""
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


def recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def read_request(sock: socket.socket) -> tuple[bytes | None, bytes]:
    """The request head and its body (content-length framed: what an HTTP client sends a JSON body
    with); (None, b"") when the client left first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = recv(sock)
        if not chunk or len(data) > MAX_HEAD:
            return None, b""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = recv(sock)
        if not chunk:
            return None, b""
        body += chunk
    return head, body


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv: list[str] | None = None) -> None:
    how = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=how)
    parser.add_argument("--listen", required=True, metavar="[HOST:]PORT", help="host 127.0.0.1 unless given")
    parser.add_argument("--upstream", required=True, metavar="URL", help="the provider's base URL")
    parser.add_argument("--port-file", metavar="FILE", help="write the port here once listening")
    parser.add_argument("--drop-reasoning", "--drop-passback-reasoning", dest="drop_reasoning",
                        action="store_true")  # fmt: skip
    parser.add_argument("--buffer", action="store_true")
    parser.add_argument("--buffer-reasoning", action="store_true")
    parser.add_argument("--keep-upstream", "--keep-upstream-open", dest="keep_upstream", action="store_true")
    parser.add_argument("--exit-on-tool-result", type=int, metavar="CODE")
    args = parser.parse_args(argv)
    Relay.upstream, Relay.bugs = urlsplit(args.upstream), args
    host, _, port = args.listen.rpartition(":")
    with Server((host.strip("[]") or "127.0.0.1", int(port)), Relay) as server:
        if args.port_file:
            tmp = args.port_file + ".tmp"
            with open(tmp, "w") as f:
                f.write(str(server.server_address[1]))
            os.replace(tmp, args.port_file)
        where = f"http://{server.server_address[0]}:{server.server_address[1]}"
        print(f"relay: {where} -> {args.upstream}", file=sys.stderr)
        print(f"listening on {server.server_address[1]}", flush=True)  # (for a test that started it)
        server.serve_forever()


if __name__ == "__main__":
    main()
