"""Starting ``relay.py`` as a user starts a service: outside thinkwire, with a fixed upstream URL, and
stopping it (the tests that run a gateway thinkwire did not start share these)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil

RELAY = Path(__file__).with_name("relay.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_relay(upstream: str, tmp: Path, *bugs: str) -> tuple[subprocess.Popen[bytes], int]:
    """``relay.py`` started as a user starts a service: outside thinkwire, with a fixed upstream URL."""
    port_file = tmp / "relay.port"
    argv = [sys.executable, str(RELAY), "--listen", "0", "--upstream", upstream]
    proc = subprocess.Popen([*argv, "--port-file", str(port_file), *bugs], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while not port_file.exists():  # the relay writes it once listening (atomically)
        assert proc.poll() is None, "the relay exited before listening"
        assert time.monotonic() < deadline, "the relay did not listen within 15 s"
        time.sleep(0.02)  # polling a file the child writes: no event to wait on across processes
    return proc, int(port_file.read_text())


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(10)
    assert not psutil.pid_exists(proc.pid) or psutil.Process(proc.pid).status() == psutil.STATUS_ZOMBIE
