"""A gateway that ignores SIGTERM: it runs the real gateway (the command after ``--``) as a child,
and stays alive after that child has gone, until SIGKILL."""

import signal
import subprocess
import sys
import time

from _mini import note

signal.signal(signal.SIGTERM, signal.SIG_IGN)
note("start")
child = subprocess.Popen(sys.argv[sys.argv.index("--") + 1 :], restore_signals=True)
child.wait()
while True:
    time.sleep(3600)
