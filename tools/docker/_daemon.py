"""dockerd on the default unix socket: whether one answers, starting one (vfs storage, no bridge, so
containers run with ``--network host`` only) and stopping the one that was started."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from shutil import which

SOCKET = Path("/var/run/docker.sock")
_STARTED: dict[int, subprocess.Popen[bytes]] = {}
"""The daemons this process started, by pid: ``stop`` waits for them (a Popen left running warns)."""
START_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0


def answers(sock: Path = SOCKET) -> bool:
    """True when a daemon answers ``GET /_ping`` on ``sock``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5.0)
            s.connect(str(sock))
            s.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
            head = s.recv(64)
    except OSError:
        return False
    return head.startswith(b"HTTP/1.") and b" 200 " in head


def cannot_start() -> str | None:
    """Why no daemon can be started here, or None."""
    if os.name != "posix" or os.geteuid() != 0:
        return "dockerd needs root and this is not a root shell"
    for tool, package in (("dockerd", "docker.io"), ("docker", "docker.io"), ("debootstrap", "debootstrap")):
        if which(tool) is None:
            return f"no {tool} on PATH (Debian: apt-get install {package})"
    return None


def start(log: Path) -> int:
    """Start dockerd in its own session, logging to ``log``; its pid once the socket answers.

    Raises RuntimeError with the log's last lines when it exits or does not answer in time."""
    argv = ["dockerd", "--storage-driver=vfs", "--bridge=none", "--iptables=false", "--ip6tables=false"]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True
        )
    _STARTED[proc.pid] = proc
    deadline = time.monotonic() + START_TIMEOUT
    while not answers():
        if proc.poll() is not None or time.monotonic() > deadline:
            if proc.poll() is None:
                stop(proc.pid)
            _STARTED.pop(proc.pid, None)
            tail = log.read_text(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"dockerd did not come up (log {log}): {' | '.join(tail)}")
        time.sleep(0.2)  # polling an outside daemon's socket, bounded by START_TIMEOUT
    return proc.pid


def stop(pid: int) -> None:
    """SIGTERM the daemon ``pid`` (and its managed containerd with it), SIGKILL after STOP_TIMEOUT."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        _STARTED.pop(pid, None)
        return
    deadline = time.monotonic() + STOP_TIMEOUT
    while _alive(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            break
        time.sleep(0.2)
    child = _STARTED.pop(pid, None)
    if child is not None:
        child.wait(STOP_TIMEOUT)


def _alive(pid: int) -> bool:
    child = _STARTED.get(pid)
    if child is not None:
        return child.poll() is None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")  # a zombie is gone for this purpose
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")
