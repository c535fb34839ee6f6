"""A gateway that exits at once with an error, as a proxy without its master key does."""

import sys

from _mini import note

note("start")
sys.stderr.write("fatal: master key is not set (set GATEWAY_MASTER_KEY)\n")
sys.exit(1)
