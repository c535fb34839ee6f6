"""Headless Chromium for the documentation tools and the browser tests: find it, run it on a page. One command
line serves everywhere, with flags that keep a headless run off the network and quiet."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["FLAGS", "chromium_binary", "run_chromium"]

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def chromium_binary() -> str | None:
    """The Chromium on PATH (Debian's ``chromium``; ``.ci/run`` installs it), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_chromium(
    binary: str,
    url: str,
    tmp: Path,
    *extra: str,
    window: tuple[int, int] = (1400, 1800),
    timeout: float = 180,
) -> subprocess.CompletedProcess[str]:
    """Open ``url`` headless (``--dump-dom``, ``--screenshot=PATH`` ... in ``extra``); the profile dir
    goes under ``tmp``.

    Every run is bounded by a timeout and has its own profile dir, removed with the caller's temp dir.
    """
    cmd = [
        binary,
        *FLAGS,
        f"--user-data-dir={tmp / 'chromium-profile'}",
        f"--window-size={window[0]},{window[1]}",
        *extra,
        url,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False, cwd=tmp)
