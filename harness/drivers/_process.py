"""Subprocess lifecycle shared by the gateway, CLI and adapter drivers: start in its own process group,
capture output to files, read a bounded stderr tail, and tear the whole tree down. Every process a SUT
starts is stopped with it, also one that left the group or its parent."""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import psutil

__all__ = [
    "RUN_MARKER",
    "SUT_MARKER",
    "Process",
    "become_subreaper",
    "free_port",
    "kill_marked",
    "run_scope",
    "run_token",
    "stop_all",
    "temp_dir",
]

RUN_MARKER = "THINKWIRE_RUN_ID"
"""Environment variable every SUT process of one ``thinkwire run`` carries."""
SUT_MARKER = "THINKWIRE_SUT_ID"
"""Environment variable naming the one :class:`Process` a SUT process descends from."""

_PR_SET_CHILD_SUBREAPER = 36
_subreaper = False
_default_token = ""
_live: set[Process] = set()
_dirs: set[Path] = set()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux ``prctl``): a process that
    detaches from its parent is re-parented here instead of to init, so it stays findable. Returns
    whether this process is one (idempotent; False where the call is unavailable).

    As a child subreaper thinkwire inherits orphans, so the marker search walks only its own descendants.
    Elsewhere it walks every process it may read.
    """
    global _subreaper
    if not _subreaper and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _subreaper


def run_token() -> str:
    """The current run's marker value: set by :func:`run_scope`, else one per interpreter."""
    global _default_token
    token = os.environ.get(RUN_MARKER)
    if not token:
        token = _default_token = _default_token or secrets.token_hex(8)
    return token


@contextlib.contextmanager
def run_scope() -> Iterator[str]:
    """One ``thinkwire run``: a fresh marker in this process's environment (inherited by every SUT
    started meanwhile); on exit, every process still carrying it is stopped and the
    environment restored."""
    previous = os.environ.get(RUN_MARKER)
    token = os.environ[RUN_MARKER] = secrets.token_hex(8)
    try:
        yield token
    finally:
        if previous is None:
            os.environ.pop(RUN_MARKER, None)
        else:
            os.environ[RUN_MARKER] = previous
        kill_marked(token)


def _marked(name: str, value: str) -> list[psutil.Process]:
    """Processes whose environment has ``name=value``: among this process's descendants when it is a
    subreaper (orphans come here), else among every process this user can read."""
    me = os.getpid()
    try:
        pool = psutil.Process().children(recursive=True) if _subreaper else list(psutil.process_iter())
    except psutil.Error:
        return []
    out = []
    for p in pool:
        if p.pid == me:
            continue
        with contextlib.suppress(psutil.Error, OSError):
            if p.environ().get(name) == value:
                out.append(p)
    return out


def _kill_all(procs: Sequence[psutil.Process], grace: float) -> list[psutil.Process]:
    """SIGTERM, then SIGKILL what is left after ``grace``; reaps those that are our children."""
    if not procs:
        return []
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.terminate()
    _, alive = psutil.wait_procs(procs, timeout=grace)
    for p in alive:
        with contextlib.suppress(psutil.Error):
            p.kill()
    psutil.wait_procs(alive, timeout=grace)
    return list(procs)


def kill_marked(value: str, *, name: str = RUN_MARKER, grace: float = 1.0) -> list[psutil.Process]:
    """Stop every process carrying ``name=value`` (default: this run's marker); returns them."""
    return _kill_all(_marked(name, value), grace)


def temp_dir(prefix: str) -> Path:
    """A fresh temp dir for a SUT, removed by the Process that owns it, or else by :func:`stop_all`.
    Registered before it is created: an interrupt (which may land anywhere) between creating and
    registering it left the dir behind (seen once in a SIGTERM test of a CLI run)."""
    root = Path(tempfile.gettempdir())
    while True:
        path = root / f"{prefix}{secrets.token_hex(6)}"
        _dirs.add(path)
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:  # a name taken by chance: another
            _dirs.discard(path)
            continue
        return path


def stop_all() -> None:
    """An interrupted run: stop every process carrying this run's marker first (one whose ``Popen``
    was cut short is known to no Process, and must not write into a dir after it is removed), then
    every live Process, then remove every temp dir still there.

    An interrupt may land anywhere, even inside ``Popen``. Afterwards every dir made by :func:`temp_dir`
    that is still there is removed.
    """
    kill_marked(run_token())
    for proc in list(_live):
        proc.stop(grace=1.0)
    for path in list(_dirs):
        shutil.rmtree(path, ignore_errors=True)
        _dirs.discard(path)


class Process:
    """One SUT process: its own session and process group, stdout/stderr to files (or either to a
    pipe, whose reader keeps stderr in the log with ``log_stderr``; stdin a pipe or nothing),
    ``THINKWIRE_RUN_ID``/``THINKWIRE_SUT_ID`` in its environment, and ``owned`` dirs removed when it
    stops (or when it cannot be started: then OSError is raised as usual).

    The tree is snapshotted before the group is signalled, and every process whose environment carries this
    SUT's marker ``THINKWIRE_SUT_ID`` is killed after it; that catches a ``setsid`` and a double fork. A
    Process removes the dirs it owns when it stops, and when it cannot start.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        log_dir: Path,
        stdout_pipe: bool = False,
        stdin_pipe: bool = False,
        stderr_pipe: bool = False,
        owned: Sequence[Path] = (),
    ) -> None:
        self.owned = tuple(owned)
        self.token = secrets.token_hex(8)
        self.stderr_path = log_dir / "stderr.log"
        self._stdout = None
        try:
            self._stderr = self.stderr_path.open("wb")
            self._stdout = None if stdout_pipe else (log_dir / "stdout.log").open("wb")
            self.popen = subprocess.Popen(
                list(argv),
                env={**os.environ, **env, RUN_MARKER: run_token(), SUT_MARKER: self.token},
                cwd=cwd,
                stdin=subprocess.PIPE if stdin_pipe else subprocess.DEVNULL,
                stdout=subprocess.PIPE if stdout_pipe else self._stdout,
                stderr=subprocess.PIPE if stderr_pipe else self._stderr,
                start_new_session=True,
            )
        except Exception:  # it could not start: nothing of it is left
            self._close()
            self._release()
            raise
        except BaseException:  # interrupted, maybe after the fork: stop_all kills first, then cleans
            self._close()
            raise
        _live.add(self)
        self.left: list[psutil.Process] = []
        """Processes found by the marker after the group was gone (detached descendants)."""

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def log_stderr(self, data: bytes) -> None:
        """Keep what the caller read from a stderr pipe in the stderr log (``stderr_tail`` reads it)."""
        if not self._stderr.closed:
            self._stderr.write(data)

    def exit_code(self, wait: float = 0.0) -> int | None:
        """Its exit code once it has exited, waiting up to ``wait`` seconds for that (None: running)."""
        if wait > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(wait)
        return self.popen.poll()

    def stderr_tail(self, limit: int = 2000) -> str:
        if not self._stderr.closed:
            self._stderr.flush()
        try:
            with self.stderr_path.open("rb") as f:
                f.seek(max(0, f.seek(0, os.SEEK_END) - limit))
                data = f.read()
        except OSError:
            return ""
        return data.decode(errors="replace")

    def stop(self, grace: float = 3.0) -> int | None:
        """SIGTERM the process group, SIGKILL it after ``grace`` seconds (always reaps), then stop
        every descendant that left the group or its parent; remove the owned dirs. Idempotent."""
        tree: list[psutil.Process] = []
        if self.alive():  # (once reaped, its pid may belong to another process)
            with contextlib.suppress(psutil.Error):
                tree = psutil.Process(self.popen.pid).children(recursive=True)
        if self.alive():
            self._signal(signal.SIGTERM)
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.popen.wait(grace)
        self.kill_group()
        stray = [p for p in tree if _running(p)]
        known = {p.pid for p in stray}
        stray += [p for p in _marked(SUT_MARKER, self.token) if p.pid not in known]
        self.left += _kill_all(stray, min(grace, 1.0))
        self._close()
        self._release()
        _live.discard(self)
        return self.popen.returncode

    def kill_group(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)

    def _close(self) -> None:
        popen = getattr(self, "popen", None)
        pipes = [getattr(popen, name, None) for name in ("stdout", "stdin", "stderr")]
        for f in (getattr(self, "_stderr", None), self._stdout, *pipes):
            if f is not None:
                with contextlib.suppress(OSError):  # (a broken stdin pipe to a dead process)
                    f.close()

    def _release(self) -> None:
        for d in self.owned:
            shutil.rmtree(d, ignore_errors=True)
            _dirs.discard(d)


def _running(p: psutil.Process) -> bool:
    try:
        return bool(p.is_running() and p.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False
