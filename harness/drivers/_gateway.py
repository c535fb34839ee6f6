"""Drivers for HTTP SUTs: a gateway thinkwire starts as a process, or one already running at a URL. Both speak
through the HTTP front door in ``_http``; this module only starts, probes and stops."""

from __future__ import annotations

import select
import shutil
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

from harness.dialects import get_dialect
from harness.drivers._base import CaseContext, Driver, DriverError, converse
from harness.drivers._files import write_files
from harness.drivers._http import FrontDoor
from harness.drivers._process import Process, free_port, temp_dir
from harness.drivers._profile import SUTProfile, build_options, echo_pin, reading, substitute
from harness.net import WireClient, WireError

__all__ = ["GatewayDriver", "UrlDriver"]


class UrlDriver(Driver):
    """A SUT that is already running: thinkwire only talks to it."""

    kind = "url"

    def __init__(self, profile: SUTProfile) -> None:
        self.profile = profile
        self.base_url = ""
        self.front: FrontDoor | None = None
        self.values: dict[str, str] = {}

    def start(self, upstream_url: str) -> None:
        self.values = self.profile.run_values(upstream=upstream_url)
        self.base_url = substitute(self.profile.url, self.values)
        self.front = self._front()

    def _front(self) -> FrontDoor:
        door = FrontDoor
        if get_dialect(self.profile.front_door).websocket:  # (wsproto: loaded for such a door only)
            from harness.drivers._websocket import WsFrontDoor

            door = WsFrontDoor
        return door(
            self.base_url,
            dialect=self.profile.front_door,
            variant=self.profile.front_variant,
            path=self.profile.path,
            reading=reading(self.profile),
            request=self.profile.request,
            build_options=build_options(self.profile),
            values=self.values,
            echo_pin=echo_pin(self.profile),
        )

    def run(self, ctx: CaseContext) -> None:
        assert self.front is not None, "start() first"
        front = self.front
        try:
            converse(ctx, lambda i, msgs, cancel: front.send(ctx, i, msgs, cancel))
        finally:
            end = getattr(front, "end_conversation", None)  # a WebSocket door: one socket per conversation
            if end is not None:
                end()

    def stop(self) -> None:
        if self.front is not None:
            self.front.close()

    def stderr_tail(self) -> str:
        return ""

    def answering(self) -> bool | None:
        """Does the SUT's address still take a connection? (False: refused, or none within a second:
        a SUT that worked and stops answering is gone.)"""
        url = urlsplit(self.base_url)
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            with socket.create_connection((url.hostname or "127.0.0.1", port), timeout=1.0) as probe:
                # a process that is exiting may still have its listening socket for a moment: the
                # connection it queued there is then reset at once, where a live server holds it open
                if select.select([probe], [], [], 0.3)[0] and not probe.recv(1, socket.MSG_PEEK):
                    return False
        except OSError:
            return False
        return True


class GatewayDriver(UrlDriver):
    """A gateway process: command with ``{upstream}``/``{port}``/``{tmp}``/``{profile_dir}``
    placeholders, optional templated config files, a readiness URL. It runs in ``{tmp}``, a fresh
    temp dir (relative ``files`` are written there), removed when it stops.

    It is started once per run, ``keep_alive``, and its readiness probed within ``ready_timeout``. An early
    exit or a missed deadline is a DriverError carrying the stderr tail, raised only after the process tree
    is stopped and the temp dir removed: a failed start leaves nothing.
    """

    kind = "gateway"

    def __init__(self, profile: SUTProfile) -> None:
        super().__init__(profile)
        self.proc: Process | None = None
        self.tmp: Path | None = None

    def start(self, upstream_url: str) -> None:
        """Start the gateway and wait for readiness; on any failure nothing is left: the process tree
        is stopped and the temp dir removed before DriverError is raised."""
        self.tmp = temp_dir("thinkwire-sut-")
        try:
            self._start(upstream_url, self.tmp)
        except BaseException:
            self.stop()
            raise

    def _start(self, upstream_url: str, tmp: Path) -> None:
        port = str(free_port())
        values = self.values = self.profile.run_values(upstream=upstream_url, port=port, tmp=str(tmp))
        write_files(self.profile.files, values, tmp)
        argv = [substitute(a, values) for a in self.profile.command]
        env = {k: substitute(v, values) for k, v in self.profile.env.items()}
        try:
            self.proc = Process(argv, env=env, cwd=tmp, log_dir=tmp, owned=(tmp,))
        except OSError as exc:
            raise DriverError(f"cannot start SUT {argv[0]!r}: {exc}") from None
        self.base_url = substitute(self.profile.url, values)
        ready = substitute(self.profile.ready or (self.base_url + "/health"), values)
        self._wait_ready(ready)
        self.front = self._front()

    def _wait_ready(self, url: str) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + self.profile.ready_timeout
        delay = 0.01
        http = WireClient()  # direct, as the front door (no proxy)
        try:
            while time.monotonic() < deadline:
                if not self.proc.alive():
                    code, tail = self.proc.popen.returncode, self.proc.stderr_tail()
                    raise DriverError(f"SUT exited with code {code} before becoming ready", tail)
                if _answers(http, url, max(0.05, min(1.0, deadline - time.monotonic()))):
                    return
                time.sleep(delay)  # readiness probe back-off: not a verdict
                # at most 50 ms: the reference gateway is ready ~0.2 s after its start, and a 0.2 s
                # cap found it at 0.34 s (every run and every SUT restart waited for the next probe)
                delay = min(delay * 2, 0.05)
        finally:
            http.close()
        raise DriverError(
            f"SUT not ready at {url} within {self.profile.ready_timeout:g}s "
            "(raise it with --ready-timeout or ready_timeout in the profile)",
            self.proc.stderr_tail(),
        )

    def run(self, ctx: CaseContext) -> None:
        if self.proc is not None and not self.proc.alive():
            raise DriverError(f"SUT exited with code {self.proc.popen.returncode}", self.proc.stderr_tail())
        super().run(ctx)

    def stderr_tail(self) -> str:
        return self.proc.stderr_tail() if self.proc else ""

    def exited(self, wait: float = 0.0) -> int | None:
        """The gateway's exit code once its process has exited, waiting up to ``wait`` seconds for
        that (None: it runs)."""
        proc = self.proc
        return proc.exit_code(wait) if proc is not None else None

    def answering(self) -> bool | None:
        """None: the gateway's process is thinkwire's, and its exit is how its going away is seen."""
        return None

    def stop(self) -> None:
        super().stop()
        if self.proc is not None:
            self.proc.stop()
            self.proc = None
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None


def _answers(http: WireClient, url: str, timeout: float) -> bool:
    """Does ``url`` answer a GET within ``timeout`` seconds with a status below 500?"""
    try:
        exchange = http.exchange(url, connect_timeout=timeout)
    except (OSError, WireError):
        return False
    try:
        exchange.sock.settimeout(timeout)
        exchange.send("GET", b"", {})
        return exchange.status < 500
    except (OSError, WireError):
        return False
    finally:
        exchange.release(reuse=False)
