"""A gateway whose reasoning stream is huge: 64 KiB frames until 16 MiB (each frame valid)."""

from _mini import frame, port_arg, serve

CHUNK = frame(reasoning="x" * 65536)


def body():
    for _ in range((16 << 20) // len(CHUNK)):
        yield CHUNK
    yield b"data: [DONE]\n\n"


serve(port_arg(), body)
