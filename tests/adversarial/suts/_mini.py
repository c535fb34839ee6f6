"""A tiny gateway for the adversarial SUTs: ``/health`` and an OpenAI-chat SSE front door whose body
the calling script supplies as a generator of byte strings. Stdlib only, 127.0.0.1 only.

Every script records what it started in ``$ADV_LOG`` (one ``<what> <pid> [port]`` line each), so a
test can prove that each of those processes and ports is gone afterwards."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LIMIT_S = 20.0
"""No adversarial stream lasts longer than this, so a thinkwire without a deadline still ends."""


def note(what: str, *extra: object) -> None:
    log = os.environ.get("ADV_LOG")
    if log:
        with (Path(log) / "events").open("a") as f:
            f.write(" ".join(str(x) for x in (what, os.getpid(), *extra)) + "\n")


def frame(reasoning: str = "", content: str = "") -> bytes:
    delta = {"reasoning": reasoning} if reasoning else {"content": content}
    return b"data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}).encode() + b"\n\n"


def serve(port: int, body: Callable[[], Iterator[bytes]], *, ready: bool = True) -> None:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(200 if ready else 503)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", 0)))
            note("request")
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()
            end = time.monotonic() + LIMIT_S
            try:
                for chunk in body():
                    self.wfile.write(chunk)
                    self.wfile.flush()
                    if time.monotonic() > end:
                        break
            except OSError:  # the client went away: what a deadline or a size cap does
                pass
            self.close_connection = True

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    note("listen", port)
    sys.stderr.write(f"adversarial gateway on 127.0.0.1:{port}\n")
    sys.stderr.flush()
    server.serve_forever()


def port_arg() -> int:
    return int(sys.argv[sys.argv.index("--port") + 1])
