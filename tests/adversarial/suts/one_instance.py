"""A gateway of which only one instance may run: it takes the lock file named by its first argument
(exclusive create), exits 1 when another instance holds it, and otherwise runs the real gateway (the
command after ``--``) in its own process, removing the lock when that ends or it is stopped."""

import os
import signal
import sys

lock = sys.argv[1]
try:
    os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
except FileExistsError:
    sys.stderr.write(f"another instance holds {lock}\n")
    sys.exit(1)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
try:
    argv = sys.argv[sys.argv.index("--") + 1 :]
    pid = os.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGTERM))
    os.waitpid(pid, 0)
finally:
    os.unlink(lock)
