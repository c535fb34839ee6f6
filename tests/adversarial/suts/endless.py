"""A gateway that streams valid reasoning frames forever (one every millisecond)."""

import time

from _mini import frame, port_arg, serve


def body():
    while True:
        yield frame(reasoning="and so on ")
        time.sleep(0.001)


serve(port_arg(), body)
