#!/usr/bin/env python3
"""A small correct OpenAI-chat gateway, as a user writes one from the README: it forwards the client's
request to ``--upstream`` unchanged and streams the answer back event by event, with reasoning in
``reasoning_content`` (Gemini's ``<thought>`` content moved there; every other field as it came).

``--strip-reasoning`` is its one fault: reasoning is dropped from the assistant messages it forwards
(what a gateway does that rebuilds history from content and tool calls only). Standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

REASONING = ("reasoning_content", "reasoning", "reasoning_details", "thinking_blocks")


class Gateway(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = urlsplit("http://127.0.0.1")
    strip = False

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # the readiness probe: /health
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.strip:
            request = json.loads(body)
            for m in request.get("messages", []):
                if m.get("role") == "assistant":
                    for key in REASONING:
                        m.pop(key, None)
            body = json.dumps(request).encode()
        up = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=60)
        try:
            headers = {"Content-Type": "application/json", "Authorization": "Bearer sk-test"}
            up.request("POST", self.upstream.path.rstrip("/") + self.path, body, headers)
            answer = up.getresponse()
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.getheader("Content-Type") or "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            tags = Tags()
            while line := answer.readline():  # one SSE line at a time: a stream stays a stream
                if line.startswith(b"data: {"):
                    line = b"data: " + json.dumps(tags.split(json.loads(line[6:]))).encode() + b"\n"
                elif line.startswith(b"{") and answer.status == 200:  # a whole JSON body
                    line = json.dumps(tags.split(json.loads(line))).encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        finally:
            up.close()


class Tags:
    """A leading ``<think>`` / ``<thought>`` block in content (MiniMax, Gemini's OpenAI-compatible
    endpoint) goes into ``reasoning_content``; signatures and every other field stay where they are."""

    def __init__(self) -> None:
        self.closer = ""

    def split(self, obj: dict) -> dict:
        for choice in obj.get("choices") or []:
            part = choice.get("delta") or choice.get("message") or {}
            text = part.get("content")
            if not isinstance(text, str):
                continue
            for opener in ("<think>", "<thought>"):
                if not self.closer and text.lstrip().startswith(opener):
                    self.closer, text = opener.replace("<", "</"), text.lstrip()[len(opener) :]
            if self.closer:
                thought, closed, part["content"] = text.partition(self.closer)
                part["reasoning_content"] = part.get("reasoning_content") or thought
                self.closer = "" if closed else self.closer
        return obj


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--strip-reasoning", action="store_true")
    args = parser.parse_args()
    Gateway.upstream, Gateway.strip = urlsplit(args.upstream), args.strip_reasoning
    ThreadingHTTPServer.daemon_threads = True
    with ThreadingHTTPServer(("127.0.0.1", args.port), Gateway) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
