"""Shared test configuration: hypothesis profiles bounded for a 2-core machine; headless Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def chromium() -> str:
    """Headless Chromium (Debian's package, which .ci/run installs); installed here when missing and
    this is a root shell with apt-get, else the test is skipped."""
    from tools.docs._browser import chromium_binary

    found = chromium_binary()
    if found:
        return found
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.skip("chromium is not installed and cannot be installed here (needs root and apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, check=False)
        if done.returncode != 0:
            pytest.skip(f"chromium could not be installed: {' '.join(cmd)}: {done.stderr.strip()[-300:]}")
    found = chromium_binary()
    if not found:
        pytest.skip("apt-get installed chromium but no `chromium` is on PATH")
    return found
