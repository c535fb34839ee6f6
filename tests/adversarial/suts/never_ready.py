"""A gateway that starts, says it is booting, and never listens."""

import sys
import time

from _mini import note

note("start")
sys.stderr.write("booting: waiting for a license server that does not exist\n")
sys.stderr.flush()
time.sleep(3600)
