"""``python -m tools.docker up|down|build-args [--state FILE]``: start dockerd and make the base image
(one line: ready, or why docker cannot be used here, exit 0 either way), undo what ``up`` did, or print
the Dockerfile's pip build args for this machine. Stdlib only: .ci/run calls it before any venv."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tools.docker._pip import build_args
from tools.docker._state import down, up


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.docker", description=__doc__)
    ap.add_argument("action", choices=["up", "down", "build-args"])
    ap.add_argument("--state", type=Path, help="the state file (default: state.json in the cache dir)")
    args = ap.parse_args(argv)
    if args.action == "build-args":
        for key, value in build_args().items():
            print(f"--build-arg={key}={value}")
        return 0
    if args.action == "down":
        for line in down(args.state) or ["nothing to undo"]:
            print(f"tools.docker down: {line}")
        return 0
    try:
        state = up(args.state)
    except (RuntimeError, OSError) as exc:
        print(f"tools.docker up: failed: {exc}", file=sys.stderr)
        return 1
    if not state.ready:
        print(f"tools.docker up: docker cannot be used here: {state.skip}")
        return 0
    daemon = "dockerd was running"
    if state.dockerd_pid:
        daemon = f"started dockerd (pid {state.dockerd_pid}, log {state.dockerd_log})"
    built = ", ".join(state.images) or "nothing"
    print(
        f"tools.docker up: ready, base image {state.base_image}; {daemon}; built {built}; {state.seconds} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
