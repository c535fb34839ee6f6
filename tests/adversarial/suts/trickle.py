"""A gateway that answers with a valid stream, one byte at a time, one byte every 0.5 s: never idle
long enough for a read-idle timeout, so only a wall-clock deadline per case ends it."""

import time

from _mini import frame, port_arg, serve


def body():
    for b in frame(reasoning="slow thought") + b"data: [DONE]\n\n":
        yield bytes([b])
        time.sleep(0.5)


serve(port_arg(), body)
