"""tools/docker without a daemon: the pip settings a build gets, the base image's root stream (CA bundle
swapped, documentation left out), ``up`` where docker cannot be used (one line, nothing started) and
``down`` stopping exactly the daemon its state names."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tools.docker import State, _base, _daemon, _pip, _state
from tools.docker.__main__ import main


def test_build_args_keep_what_a_container_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    for env in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "PIP_DEFAULT_TIMEOUT"):
        monkeypatch.delenv(env, raising=False)
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "90")
    configured = {
        "index-url": "https://mirror.example/simple",
        "extra-index-url": "file:///opt/pypi/simple https://extra.example/simple",
        "find-links": "/opt/wheels",
        "default-timeout": "180",
    }
    got = _pip.build_args(configured)
    ca = {"PIP_CERT": str(_base.CA_BUNDLE)} if _base.CA_BUNDLE.exists() else {}
    assert got == {
        "PIP_INDEX_URL": "https://mirror.example/simple",
        "PIP_EXTRA_INDEX_URL": "https://extra.example/simple",  # a local folder is not in the container
        "PIP_DEFAULT_TIMEOUT": "90",  # the environment wins, as it does for pip
        **ca,
    }


def test_the_root_stream_swaps_the_ca_bundle_and_leaves_out_documentation(tmp_path: Path) -> None:
    files = {
        "./etc/ssl/certs/ca-certificates.crt": b"debian's bundle",
        "./usr/bin/python3": b"#!elf",
        "./usr/share/doc/python3/copyright": b"doc",
        "./usr/share/locale/de/LC_MESSAGES/x.mo": b"mo",
    }
    tarball = tmp_path / "root.tar"
    with tarfile.open(tarball, "w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    sink = io.BytesIO()
    _base._copy_root(tarball, sink, b"this machine's bundle")
    sink.seek(0)
    with tarfile.open(fileobj=sink) as out:
        got = {m.name: out.extractfile(m).read() for m in out if m.isreg()}  # type: ignore[union-attr]
    assert got == {
        "./etc/ssl/certs/ca-certificates.crt": b"this machine's bundle",
        "./usr/bin/python3": b"#!elf",
    }


def test_up_where_docker_cannot_be_used_says_why_and_starts_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_daemon, "answers", lambda sock=_daemon.SOCKET: False)
    monkeypatch.setattr(_daemon, "cannot_start", lambda: "dockerd needs root and this is not a root shell")
    monkeypatch.setattr(_daemon, "start", lambda log: pytest.fail("started a daemon"))
    state = tmp_path / "state.json"
    assert main(["up", "--state", str(state)]) == 0
    out = capsys.readouterr().out
    assert (
        out
        == "tools.docker up: docker cannot be used here: dockerd needs root and this is not a root shell\n"
    )
    assert State.load(state) == State(skip="dockerd needs root and this is not a root shell")


def test_down_stops_the_daemon_its_state_names_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(_daemon, "answers", lambda sock=_daemon.SOCKET: False)
    ours = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        state = tmp_path / "state.json"
        State(ready=True, dockerd_pid=ours.pid).save(state)
        assert _state.down(state) == [f"stopped dockerd (pid {ours.pid})"]
        assert ours.wait(10) == -15  # SIGTERM
        assert other.poll() is None
        assert not state.exists()
        assert _state.down(state) == []  # nothing left to undo
    finally:
        for proc in (ours, other):
            proc.kill()
            proc.wait()
