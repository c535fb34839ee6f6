"""``up`` and ``down``: what ``up`` started or built is written to a state file (JSON), and ``down``
undoes only that, plus the containers and images labelled as thinkwire's tests' own."""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.docker import _base, _daemon

DOCKER_LABEL = "thinkwire.test=1"
"""The label of the containers and images the docker tests make (``down`` removes what is left)."""


@dataclass
class State:
    """What one ``up`` did: the dockerd it started (pid, log), the images it built, how long it took."""

    ready: bool = False
    skip: str = ""  # why docker cannot be used here (ready is False)
    base_image: str = _base.BASE_IMAGE
    dockerd_pid: int | None = None
    dockerd_log: str = ""
    images: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> State:
        if not path.exists():
            return cls()
        return cls(**json.loads(path.read_text(encoding="utf-8")))


def default_state_path() -> Path:
    return _base.cache_dir() / "state.json"


def up(state_path: Path | None = None) -> State:
    """A daemon answering on the default socket and the base image present; the state (also saved to
    ``state_path``) says what was started or built, or why docker cannot be used here (``skip``).
    A failure after the daemon started leaves the state saved, so that ``down`` stops it."""
    path = state_path or default_state_path()
    state = State.load(path)
    if not _daemon.answers():
        why = _daemon.cannot_start()
        if why:
            state.skip = why
            state.save(path)
            return state
        log = Path(tempfile.mkstemp(prefix="thinkwire-dockerd-", suffix=".log")[1])
        started = time.monotonic()
        state.dockerd_pid, state.dockerd_log = _daemon.start(log), str(log)
        state.seconds["dockerd"] = round(time.monotonic() - started, 1)
        state.save(path)
    if not _base.image_exists(state.base_image):
        started = time.monotonic()
        tarball = _base.rootfs_tarball(_base.cache_dir())
        state.seconds["debootstrap"] = round(time.monotonic() - started, 1)
        _base.import_base(tarball, state.base_image)
        state.seconds["base_image"] = round(time.monotonic() - started, 1)
        state.images.append(state.base_image)
    state.ready, state.skip = True, ""
    state.save(path)
    return state


def down(state_path: Path | None = None) -> list[str]:
    """Remove the test containers and images and the images ``up`` built, stop the dockerd it started
    (its build cache pruned first); what was done, one line each. The state file is removed."""
    path = state_path or default_state_path()
    state = State.load(path)
    done: list[str] = []
    if _daemon.answers():
        for kind, listing in (("container", ["--all"]), ("image", [])):
            found = _docker(kind, "ls", *listing, "--quiet", "--filter", f"label={DOCKER_LABEL}")
            for ident in dict.fromkeys(found.split()):
                _docker(kind, "rm", "--force", ident)
                done.append(f"removed test {kind} {ident}")
        for image in state.images:
            _docker("image", "rm", "--force", image)
            done.append(f"removed image {image}")
        if state.dockerd_pid is not None:  # the build cache of a daemon this record started
            _docker("builder", "prune", "--all", "--force")
            done.append("pruned the build cache")
    if state.dockerd_pid is not None:
        _daemon.stop(state.dockerd_pid)
        done.append(f"stopped dockerd (pid {state.dockerd_pid})")
    path.unlink(missing_ok=True)
    return done


def _docker(*argv: str) -> str:
    done = subprocess.run(["docker", *argv], capture_output=True, text=True, timeout=300, check=False)
    return done.stdout
