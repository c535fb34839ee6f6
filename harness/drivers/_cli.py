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
from harness.drivers._base import CancelWatch, CaseContext, CaseTooBig, Driver, DriverError, DriverTimeout
from harness.drivers._cli_rpc import RpcClient
from harness.drivers._cli_text import PLAIN_TEXT, TextReader, continued
from harness.drivers._files import write_files
from harness.drivers._process import Process, free_port, temp_dir
from harness.drivers._profile import SUTProfile, substitute
from harness.events import Event
from harness.timeline import Timeline

__all__ = ["CliDriver"]

_WATCH_INTERVAL = 0.005  # observation cadence of the process/dir watcher (not a verdict)
_CHILD_GRACE = 1.0  # how long children may take to go away after the SUT exits


class CliDriver(Driver):
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
        try:
            values = self._values(ctx, tmp)
            write_files(self.profile.files, values, tmp)
            env = {k: substitute(v, values) for k, v in self.profile.env.items()}
            runs = self._runs(ctx)
            for n, turns in enumerate(runs):
                prompt = ctx.case.turns[turns[0]].user or values["prompt"]
                command = list(self.profile.command)
                if n:
                    command = continued(command, self.profile.continue_words)
                argv = [substitute(a, {**values, "prompt": prompt}) for a in command]
                if not self._run_once(ctx, argv, env, (tmp, logs), turns, last=n == len(runs) - 1):
                    break
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.rmtree(logs, ignore_errors=True)

    def _runs(self, ctx: CaseContext) -> list[range]:
        """The case's turns, cut into the CLI's runs: one run for the whole conversation, or, where the
        profile says how the CLI continues (``continue``), a run from each user message to the next."""
        n = len(ctx.case.turns)
        if not self.profile.continue_words or self.profile.input != "argv":
            return [range(n)]
        starts = [i for i, t in enumerate(ctx.case.turns) if i == 0 or t.user is not None]
        return [range(a, b) for a, b in zip(starts, [*starts[1:], n], strict=True)]

    def _run_once(
        self, ctx: CaseContext, argv: list[str], env: dict[str, str], dirs: tuple[Path, Path],
        turns: range, *, last: bool,
    ) -> bool:  # fmt: skip
        """One run of the CLI over ``turns``; False when the case cannot go on (a timeout, the byte cap)."""
        tmp, logs = dirs
        session = Path(substitute(self.profile.session_dir, self._values(ctx, tmp)))
        try:
            proc = Process(
                argv,
                env=env,
                cwd=tmp,
                log_dir=logs,
                stdout_pipe=True,
                stdin_pipe=self.profile.input == "rpc",
                stderr_pipe=self.profile.reasoning_from == "stderr",
                owned=(tmp, logs) if last else (),
            )
        except OSError as exc:
            raise DriverError(f"cannot start CLI {argv[0]!r}: {exc}") from None
        ctx.timeline.add("sut", "start", pid=proc.pid, argv=argv)
        watcher = _Watcher(proc.pid, session, ctx.timeline)
        watcher.start()
        stdout = _Stdout(ctx, proc, self._reader(ctx), turns)
        stdout.read()
        stuck = stdout.timed_out or stdout.too_big is not None
        self._reap(ctx, proc, watcher, session, kill=stuck, last=last)
        if stdout.too_big is not None:
            raise stdout.too_big
        if stdout.timed_out:
            raise DriverTimeout(f"the CLI did not finish within {ctx.timeout:g}s", self._last_stderr)
        return True

    def _reader(self, ctx: CaseContext) -> Any:
        """How this run's output is read: as text, pi RPC runs, or the front door dialect's frames."""
        profile = self.profile
        if profile.front_door == PLAIN_TEXT:
            return TextReader(profile.reasoning_from, *profile.reasoning_markers)
        dialect, variant = get_dialect(profile.front_door), profile.front_variant
        if profile.input == "rpc":
            return RpcClient(ctx.case.turns, lambda: dialect.observer(variant))
        return dialect.observer(variant)

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

    def _reap(
        self, ctx: CaseContext, proc: Process, watcher: _Watcher, session: Path, *, kill: bool, last: bool
    ) -> None:
        """Wait for the CLI (killed after a timeout or overflow), then record and remove whatever it
        left: children still running, processes that left its tree, and after its ``last`` run its
        session dir (a CLI that continues keeps its session between runs)."""
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
        if last and session.exists():
            tl.add("sut", "dir-left", path=str(session))
        self._last_stderr = proc.stderr_tail()
        if self._last_stderr:
            tl.add("sut", "stderr", data=self._last_stderr.encode())
        proc.stop()
        for p in proc.left:  # detached (setsid / double fork) and never seen by the watcher
            if p.pid not in watcher.known:
                tl.add("sut", "process-left", pid=p.pid, cmdline="(left the SUT's process tree)")


class _Stdout:
    """Reads one run of the CLI until EOF, the case's deadline or its byte cap: each read recorded as a
    client chunk and decoded by the run's reader, every event recorded and shown to the gates; a cancel
    gate met sends the CLI SIGTERM. An RPC-mode CLI (an ``RpcClient`` reader) gets its commands on stdin
    instead: the first prompt at once, the next when a run ends, ``abort`` for a cancel gate. A plain-text
    CLI (a ``TextReader``) that prints its reasoning on stderr is read on both pipes as they become
    readable, stderr first when both are (kept in the stderr log as well)."""

    def __init__(self, ctx: CaseContext, proc: Process, reader: Any, turns: range) -> None:
        self.ctx, self.proc = ctx, proc
        self.rpc = reader if isinstance(reader, RpcClient) else None
        self.text = reader if isinstance(reader, TextReader) else None
        self.observer = reader
        self.tl = ctx.timeline
        self.cancel = next((ctx.case.turns[i].cancel for i in turns if ctx.case.turns[i].cancel), None)
        self.watch = CancelWatch(self.cancel)
        self.cancelled = False
        self.timed_out = False
        self.too_big: CaseTooBig | None = None
        self.taken = 0

    def turn_now(self) -> int:
        """The client turn the SUT is in: that of its last upstream request (a retried request is an
        attempt inside its turn, never a new turn)."""
        requests = self.tl.select("upstream", "request")
        return requests[-1].turn if requests else 0

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
        pipes = {"stdout": self.proc.popen.stdout, "stderr": self.proc.popen.stderr}
        with selectors.DefaultSelector() as sel:
            for name, pipe in pipes.items():
                if pipe is not None:
                    os.set_blocking(pipe.fileno(), False)
                    sel.register(pipe.fileno(), selectors.EVENT_READ, name)
            while sel.get_map():
                left = self.ctx.deadline - time.monotonic()
                if left <= 0:
                    self.timed_out = True
                    break
                ready = sorted(key.data for key, _ in sel.select(min(left, 0.5)))  # stderr first
                if not all(self._take(sel, pipes[name], name) for name in ready):
                    break
        self.emit(self._end())
        self.tl.add("client", "end", turn=self.turn_now())

    def _take(self, sel: Any, pipe: Any, name: str) -> bool:
        """One read of a ready pipe; False when reading stops (stdout's EOF, the byte cap)."""
        chunk = os.read(pipe.fileno(), 65536)
        if not chunk:
            sel.unregister(pipe.fileno())
            return name != "stdout"  # stdout's EOF ends the run; stderr's is only the stream's
        if name == "stderr":
            self.proc.log_stderr(chunk)
        return self.chunk(chunk, stream=name)

    def _end(self) -> list[Event]:
        if self.rpc is not None:
            return self.rpc.end()
        if self.text is None:
            return list(self.observer.end())
        code: int | None = None
        if not (self.timed_out or self.too_big or self.cancelled):
            with contextlib.suppress(Exception):  # (it closed stdout but goes on: judged as stopped)
                code = self.proc.popen.wait(max(0.0, self.ctx.deadline - time.monotonic()))
            self._drain_stderr()
        return self.text.end(code)

    def _drain_stderr(self) -> None:
        """What the CLI wrote to stderr before it exited and stdout's EOF was read first."""
        pipe = self.proc.popen.stderr
        if pipe is None or pipe.closed:
            return
        with contextlib.suppress(OSError):
            while chunk := os.read(pipe.fileno(), 65536):
                self.proc.log_stderr(chunk)
                if not self.chunk(chunk, stream="stderr"):
                    return

    def chunk(self, chunk: bytes, stream: str = "stdout") -> bool:
        """One read; False once the byte cap is reached (reading stops: memory stays bounded)."""
        cap = self.ctx.max_bytes
        self.taken += len(chunk)
        info: dict[str, Any] = {"stream": stream} if self.text is not None else {}
        if self.taken > cap:
            chunk = chunk[: len(chunk) - (self.taken - cap)]
            self.tl.add("client", "chunk", data=chunk, turn=self.turn_now(), **info)
            head = b"".join(e.data for e in self.tl.select("client", "chunk"))[:256]
            self.too_big = CaseTooBig(cap, head)
            return False
        self.tl.add("client", "chunk", data=chunk, turn=self.turn_now(), **info)
        if self.rpc is not None:
            fed = self.rpc.feed(chunk)
            self.emit(fed.events)
            if fed.cancelled:
                self.tl.add("client", "cancel", turn=self.turn_now())
            self.command(fed.write, close=fed.close)
            return True
        if self.text is not None:
            events = self.text.stderr(chunk) if stream == "stderr" else self.text.stdout(chunk)
        else:
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
