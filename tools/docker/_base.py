"""The base image when no registry is reachable: Debian bookworm (minbase with python3, venv, pip and
ca-certificates) made by debootstrap, its tarball cached, and imported with this machine's CA bundle in
place of Debian's, so pip inside a build reaches the package index through what the host trusts."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import IO

BASE_IMAGE = "thinkwire-base:bookworm"
PACKAGES = "python3,python3-venv,python3-pip,ca-certificates"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
_CA_MEMBER = "etc/ssl/certs/ca-certificates.crt"
_LEFT_OUT = tuple(f"usr/share/{d}/" for d in ("doc", "man", "info", "locale"))  # 52 of its 208 MB
_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def cache_dir() -> Path:
    """$THINKWIRE_DOCKER_CACHE, else ``thinkwire-docker`` in the user's cache directory."""
    given = os.environ.get("THINKWIRE_DOCKER_CACHE")
    if given:
        return Path(given)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "thinkwire-docker"


def image_exists(name: str) -> bool:
    done = subprocess.run(["docker", "image", "inspect", name], capture_output=True, check=False)
    return done.returncode == 0


def rootfs_tarball(cache: Path) -> Path:
    """The debootstrap root as a tarball in ``cache``, made once (a few minutes) and reused."""
    tarball = cache / "bookworm-minbase.tar"
    if tarball.exists():
        return tarball
    cache.mkdir(parents=True, exist_ok=True)
    mirror = os.environ.get("THINKWIRE_DEBIAN_MIRROR", "http://deb.debian.org/debian")
    with tempfile.TemporaryDirectory(prefix="thinkwire-rootfs-", dir=cache) as tmp:
        root = Path(tmp) / "root"
        argv = ["debootstrap", "--variant=minbase", f"--include={PACKAGES}", "bookworm", str(root), mirror]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=1800, check=False)
        if done.returncode != 0:
            tail = (done.stdout + done.stderr).strip()[-600:]
            raise RuntimeError(f"debootstrap failed (exit {done.returncode}): {tail}")
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):  # downloaded .debs and indexes
            for entry in (root / junk).glob("*"):
                if entry.is_file():
                    entry.unlink()
        partial = tarball.with_suffix(".partial")
        subprocess.run(["tar", "-C", str(root), "-cf", str(partial), "."], check=True, timeout=600)
        partial.rename(tarball)
    return tarball


def import_base(tarball: Path, name: str = BASE_IMAGE, ca_bundle: Path = CA_BUNDLE) -> None:
    """``docker import`` the root, its CA bundle replaced by ``ca_bundle`` (when it exists), with PATH
    set (an imported image has no environment, and a Dockerfile's ``ENV PATH=...:$PATH`` needs one)."""
    argv = ["docker", "import", "--change", f"ENV PATH={_PATH}", "--change", "ENV LANG=C.UTF-8", "-", name]
    ca = ca_bundle.read_bytes() if ca_bundle.exists() else None
    with (
        tempfile.TemporaryFile() as err,
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err) as proc,
    ):
        assert proc.stdin is not None
        try:
            _copy_root(tarball, proc.stdin, ca)
        finally:
            proc.stdin.close()
        if proc.wait(timeout=600) != 0:
            err.seek(0)
            raise RuntimeError(f"docker import failed: {err.read().decode(errors='replace').strip()}")


def _copy_root(tarball: Path, sink: IO[bytes], ca: bytes | None) -> None:
    """The tarball's members into ``sink`` as a tar stream, the CA bundle's content swapped, without
    documentation and translations (nothing in a container reads them)."""
    with tarfile.open(tarball, "r|") as src, tarfile.open(fileobj=sink, mode="w|") as dst:
        for member in src:
            if member.name.removeprefix("./").startswith(_LEFT_OUT):
                continue
            if member.isreg():
                data: IO[bytes] | None = src.extractfile(member)
                if ca is not None and member.name.removeprefix("./") == _CA_MEMBER:
                    member.size, data = len(ca), io.BytesIO(ca)
                dst.addfile(member, data)
            else:
                dst.addfile(member)
