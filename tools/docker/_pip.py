"""The pip settings a build inside a container needs to reach the package index the host reaches: the
index URLs this machine's pip uses (its environment, then ``pip config``), only those a container can
reach (http or https, not a local folder), and the CA bundle path that the base image carries."""

from __future__ import annotations

import os
import subprocess
import sys

from tools.docker._base import CA_BUNDLE

_KEYS = {  # pip config key -> the environment variable pip reads (and the Dockerfile's build arg)
    "index-url": "PIP_INDEX_URL",
    "extra-index-url": "PIP_EXTRA_INDEX_URL",
    "trusted-host": "PIP_TRUSTED_HOST",
    "default-timeout": "PIP_DEFAULT_TIMEOUT",
}


def build_args(configured: dict[str, str] | None = None) -> dict[str, str]:
    """``--build-arg`` values for the Dockerfile's PIP_* args: what the host's pip is configured with,
    the environment first, reachable values only; PIP_CERT when the host has the CA bundle."""
    found = dict(configured if configured is not None else pip_config())
    for key, env in _KEYS.items():
        if os.environ.get(env):
            found[key] = os.environ[env]
    out = {}
    for key, env in _KEYS.items():
        value = found.get(key, "")
        if key.endswith("index-url"):
            value = " ".join(u for u in value.split() if u.startswith(("http://", "https://")))
        if value:
            out[env] = value
    if CA_BUNDLE.exists():
        out["PIP_CERT"] = str(CA_BUNDLE)
    return out


def pip_config() -> dict[str, str]:
    """The host pip's settings (``pip config list``), by key without its section; later lines win,
    as pip reads them."""
    argv = [sys.executable, "-m", "pip", "config", "list"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    out = {}
    for line in done.stdout.splitlines():
        name, sep, value = line.partition("=")
        if sep and not name.startswith(":env:"):
            out[name.split(".", 1)[-1]] = value.strip().strip("'\"")
    return out
