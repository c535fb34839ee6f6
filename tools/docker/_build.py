"""Building thinkwire's image from a checkout's Dockerfile with the pip settings this machine needs. With
BuildKit where the docker CLI has it: the classic builder runs every instruction in a container, and on
vfs storage each one copies the whole root (2 min for four instructions here, against 15 s)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from shutil import which

from tools.docker._pip import build_args


def builder() -> tuple[str, dict[str, str]]:
    """The docker CLI to build with and its DOCKER_BUILDKIT: the first CLI (on PATH, then Debian's
    /usr/bin/docker) that has BuildKit, built in (before 23.0) or through the buildx plugin; else the
    one on PATH with the classic builder."""
    found = [c for c in dict.fromkeys([which("docker"), "/usr/bin/docker"]) if c and Path(c).exists()]
    for cli in found:
        if _has_buildkit(cli):
            return cli, {"DOCKER_BUILDKIT": "1"}
    return (found[0] if found else "docker"), {"DOCKER_BUILDKIT": "0"}


def _has_buildkit(cli: str) -> bool:
    version = _output([cli, "version", "--format", "{{.Client.Version}}"]).strip()
    major = version.split(".")[0]
    if major.isdigit() and int(major) < 23:
        return True
    return bool(_output([cli, "buildx", "version"]).strip())


def build_image(
    context: Path, tag: str, base: str, labels: tuple[str, ...] = (), timeout: float = 1800.0
) -> float:
    """``docker build --network host --build-arg BASE=base`` of ``context`` tagged ``tag``; its seconds.
    RuntimeError with the output's tail when it fails."""
    cli, env = builder()
    pip = [f"--build-arg={key}={value}" for key, value in build_args().items()]
    label = [f"--label={each}" for each in labels]
    argv = [cli, "build", "--network", "host", "--build-arg", f"BASE={base}", *pip, *label, "-t", tag]
    argv.append(str(context))
    started = time.monotonic()
    done = subprocess.run(
        argv, env={**os.environ, **env}, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip()[-1500:]
        raise RuntimeError(f"docker build failed (exit {done.returncode}): {tail}")
    return time.monotonic() - started


def _output(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return ""
    return done.stdout if done.returncode == 0 else ""
