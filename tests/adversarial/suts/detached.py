"""A SUT that first leaves a grandchild behind, detached from it, listening on a port, then becomes
the real SUT (``exec`` of the command after ``--``): the reference gateway or CLI.

``--how setsid``: a child in a new session (out of the SUT's process group, still its descendant).
``--how double-fork``: a grandchild in a new session whose parent exits at once (re-parented away
from the SUT's tree)."""

import os
import socket
import sys
import time

from _mini import note


def linger(ready: int) -> None:
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # as a daemon does: the SUT's output ends when the SUT does
        os.dup2(null, fd)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    note("grandchild", s.getsockname()[1])
    os.close(ready)  # listening and noted: the SUT may go on
    time.sleep(3600)


how = sys.argv[sys.argv.index("--how") + 1]
rest = sys.argv[sys.argv.index("--") + 1 :]
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    if how == "double-fork" and os.fork() != 0:
        os._exit(0)
    linger(w)
    os._exit(0)
os.close(w)
os.read(r, 1)  # EOF once the lingering process listens (and its parent, if any, has exited)
os.close(r)
if how == "double-fork":
    os.waitpid(pid, 0)
os.execv(rest[0], rest)
