"""The driver for CLI and agent SUTs: a process that reads a prompt and writes JSONL, pi-style, or SSE to
stdout. It also watches the session dir and the child processes the CLI spawns, so a broken SUT never leaks
into the next case."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

import psutil

from harness.dialects import get_dialect
from harness.drivers._base import CancelWatch, CaseContext, CaseTooBig, DriverError, DriverTimeout
from harness.drivers._cli_rpc import RpcClient
from harness.drivers._files import write_files
from harness.drivers._process import Process, free_port, temp_dir
from harness.drivers._profile import SUTProfile, substitute
from harness.events import Event
from harness.timeline import Timeline

__all__ = ["CliDriver"]

_WATCH_INTERVAL = 0.005  # observation cadence of the process/dir watcher (not a verdict)
_CHILD_GRACE = 1.0  # how long children may take to go away after the SUT exits


class CliDriver:
    """The prompt is given on the command line, or as pi RPC-mode commands on stdin through ``_cli_rpc``.
    Whatever the SUT leaves behind is recorded, then killed or removed."""
    kind = "cli"

    def __init__(self, profile: SUTProfile) -> None:
        self.profile = profile
        self.upstream_url = ""
        self._last_stderr = ""

    def start(self, upstream_url: str) -> None:
        self.upstream_url = upstream_url

    def stop(self) -> None:
        pass

    def stderr_tail(self) -> str:
        return self._last_stderr

    def run(self, ctx: CaseContext) -> None:
        tmp = temp_dir("thinkwire-cli-")  # (removed by stop_all too, should the run be interrupted)
        logs = temp_dir("thinkwire-cli-logs-")
        values = self._values(ctx, tmp)
        write_files(self.profile.files, values, tmp)
        argv = [substitute(a, values) for a in self.profile.command]
        env = {k: substitute(v, values) for k, v in self.profile.env.items()}
        session = Path(values["session"])
        try:
            proc = Process(
                argv,
                env=env,
                cwd=tmp,
                log_dir=logs,
                stdout_pipe=True,
                stdin_pipe=self.profile.input == "rpc",
                owned=(tmp, logs),
            )
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.rmtree(logs, ignore_errors=True)
            raise DriverError(f"cannot start CLI {argv[0]!r}: {exc}") from None
        ctx.timeline.add("sut", "start", pid=proc.pid, argv=argv)
        watcher = _Watcher(proc.pid, session, ctx.timeline)
        watcher.start()
        dialect, variant = get_dialect(self.profile.front_door), self.profile.front_variant
        rpc = (
            RpcClient(ctx.case.turns, lambda: dialect.observer(variant))
            if self.profile.input == "rpc"
            else None
        )
        stdout = _Stdout(ctx, proc, dialect.observer(variant), rpc)
        stdout.read()
        self._reap(ctx, proc, watcher, session, kill=stdout.timed_out or stdout.too_big is not None)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(logs, ignore_errors=True)
        if stdout.too_big is not None:
            raise stdout.too_big
        if stdout.timed_out:
            raise DriverTimeout(f"the CLI did not finish within {ctx.timeout:g}s", self._last_stderr)

    def _values(self, ctx: CaseContext, tmp: Path) -> dict[str, str]:
        """The placeholders of the command, env, files and session dir for this case."""
        case = ctx.case
        values = self.profile.run_values(
            upstream=ctx.upstream_url,
            port=str(free_port()),
            tmp=str(tmp),
            dialect=case.dialect,
            variant=case.variant,
            model=ctx.model,
            provider=ctx.provider,
            front_door=self.profile.front_door,
            prompt=next((t.user for t in case.turns if t.user), "Hello?"),
        )
        values["session"] = substitute(self.profile.session_dir, values)
        return values

    def _reap(self, ctx: CaseContext, proc: Process, watcher: _Watcher, session: Path, *, kill: bool) -> None:
        """Wait for the CLI (killed after a timeout or overflow), then record and remove whatever it
        left: children still running, its session dir, processes that left its tree."""
        tl = ctx.timeline
        if kill:
            proc.popen.kill()
        try:
            code = proc.popen.wait(5.0)
        except Exception:
            proc.popen.kill()
            code = proc.popen.wait(5.0)
        tl.add("sut", "exit", code=code)
        watcher.settle(_CHILD_GRACE)
        watcher.stop()
        for pid, cmd in watcher.alive_children():
            tl.add("sut", "process-left", pid=pid, cmdline=cmd)
            with contextlib.suppress(psutil.Error):
                psutil.Process(pid).kill()
        if session.exists():
            tl.add("sut", "dir-left", path=str(session))
        self._last_stderr = proc.stderr_tail()
        if self._last_stderr:
            tl.add("sut", "stderr", data=self._last_stderr.encode())
        proc.stop()
        for p in proc.left:  # detached (setsid / double fork) and never seen by the watcher
            if p.pid not in watcher.known:
                tl.add("sut", "process-left", pid=p.pid, cmdline="(left the SUT's process tree)")


class _Stdout:
    """Reads the CLI's stdout until EOF, the case's deadline or its byte cap: each read recorded as a
    client chunk, decoded by the front door's observer, every event recorded and shown to the gates;
    a cancel gate met sends the CLI SIGTERM. An RPC-mode CLI (``rpc``) gets its commands on stdin
    instead: the first prompt at once, the next when a run ends, ``abort`` for a cancel gate."""

    def __init__(self, ctx: CaseContext, proc: Process, observer: Any, rpc: RpcClient | None = None) -> None:
        self.ctx, self.proc, self.observer, self.rpc = ctx, proc, observer, rpc
        self.tl = ctx.timeline
        self.cancel = next((t.cancel for t in ctx.case.turns if t.cancel is not None), None)
        self.watch = CancelWatch(self.cancel)
        self.cancelled = False
        self.timed_out = False
        self.too_big: CaseTooBig | None = None
        self.taken = 0

    def turn_now(self) -> int:
        return max(0, len(self.tl.select("upstream", "request")) - 1)

    def emit(self, events: list[Event]) -> None:
        for ev in events:
            self.tl.add("client", "event", event=ev, turn=self.turn_now())
            self.ctx.client.observe(ev)

    def cancel_if_met(self, events: list[Event]) -> None:
        """After a read's events: once the cancel gate's condition holds, SIGTERM the CLI (once)."""
        if self.cancel is not None and not self.cancelled and [ev for ev in events if self.watch.see(ev)]:
            self.cancelled = True
            self.tl.add("client", "cancel", turn=self.turn_now())
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGTERM)

    def command(self, lines: list[bytes], *, close: bool = False) -> None:
        """Write RPC commands to the CLI's stdin (each recorded); ``close``: the conversation is over."""
        stdin = self.proc.popen.stdin
        if stdin is None:
            return
        try:
            for line in lines:
                self.tl.add("client", "command", turn=self.turn_now(), data=line)
                stdin.write(line)
            stdin.flush()
            if close:
                stdin.close()
        except (OSError, ValueError):  # the CLI is gone (its exit and output are the evidence)
            pass

    def read(self) -> None:
        import selectors

        assert self.proc.popen.stdout is not None
        if self.rpc is not None:
            self.command([self.rpc.first()])
        fd = self.proc.popen.stdout.fileno()
        os.set_blocking(fd, False)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                left = self.ctx.deadline - time.monotonic()
                if left <= 0:
                    self.timed_out = True
                    break
                if not sel.select(min(left, 0.5)):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk or not self.chunk(chunk):
                    break
        self.emit(self.observer.end() if self.rpc is None else self.rpc.end())
        self.tl.add("client", "end", turn=self.turn_now())

    def chunk(self, chunk: bytes) -> bool:
        """One read; False once the byte cap is reached (reading stops: memory stays bounded)."""
        cap = self.ctx.max_bytes
        self.taken += len(chunk)
        if self.taken > cap:
            chunk = chunk[: len(chunk) - (self.taken - cap)]
            self.tl.add("client", "chunk", data=chunk, turn=self.turn_now())
            head = b"".join(e.data for e in self.tl.select("client", "chunk"))[:256]
            self.too_big = CaseTooBig(cap, head)
            return False
        self.tl.add("client", "chunk", data=chunk, turn=self.turn_now())
        if self.rpc is not None:
            fed = self.rpc.feed(chunk)
            self.emit(fed.events)
            if fed.cancelled:
                self.tl.add("client", "cancel", turn=self.turn_now())
            self.command(fed.write, close=fed.close)
            return True
        events = self.observer.feed(chunk)
        self.emit(events)
        self.cancel_if_met(events)
        return True


class _Watcher(threading.Thread):
    """Samples the SUT's process tree and its session dir; records changes with their times.

    It only records ``sut`` entries: start, child-start, child-exit, dir-created, dir-removed, exit,
    process-left, dir-left. The cleanup check judges them.
    """

    def __init__(self, pid: int, session: Path, timeline: Timeline) -> None:
        super().__init__(name="thinkwire-cli-watcher", daemon=True)
        self.pid = pid
        self.session = session
        self.tl = timeline
        self.known: dict[int, tuple[psutil.Process, str]] = {}
        self.gone: set[int] = set()
        self.dir_state = "absent"  # absent -> present -> removed
        self._stop_flag = threading.Event()
        self._lock = threading.Lock()

    def run(self) -> None:
        while not self._stop_flag.is_set():
            self.sample()
            self._stop_flag.wait(_WATCH_INTERVAL)

    def sample(self) -> None:
        tl = self.tl
        with self._lock:
            try:
                for child in psutil.Process(self.pid).children(recursive=True):
                    if child.pid not in self.known:
                        try:
                            cmd = " ".join(child.cmdline())[:200]
                        except psutil.Error:
                            cmd = "?"
                        self.known[child.pid] = (child, cmd)
                        tl.add("sut", "child-start", pid=child.pid, cmdline=cmd)
            except psutil.Error:
                pass
            for pid, (p, _) in self.known.items():
                if pid not in self.gone and not _running(p):
                    self.gone.add(pid)
                    tl.add("sut", "child-exit", pid=pid)
            exists = self.session.exists()
            if exists and self.dir_state == "absent":
                self.dir_state = "present"
                tl.add("sut", "dir-created", path=str(self.session))
            elif not exists and self.dir_state == "present":
                self.dir_state = "removed"
                alive = [pid for pid, _ in self.alive_children()]
                tl.add("sut", "dir-removed", path=str(self.session), children_alive=alive)

    def settle(self, grace: float) -> None:
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            self.sample()
            if not self.alive_children():
                return
            time.sleep(_WATCH_INTERVAL)

    def alive_children(self) -> list[tuple[int, str]]:
        return [(pid, cmd) for pid, (p, cmd) in self.known.items() if pid not in self.gone and _running(p)]

    def stop(self) -> None:
        self._stop_flag.set()
        self.join(2.0)
        self.sample()


def _running(p: psutil.Process) -> bool:
    try:
        return bool(p.is_running() and p.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False
