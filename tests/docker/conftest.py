"""The docker tests' daemon and images: the daemon answering on the default socket, else one that
tools/docker starts (with the base image it makes), undone at the end of the session; thinkwire's image
built once from the checkout's Dockerfile and removed after. Where docker cannot be used, every test
here skips with one line saying why."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from _docker_run import ROOT, docker

from tools.docker import DOCKER_LABEL, build_image, down, up


def say(config: pytest.Config, line: str) -> None:
    """A figure on the terminal (build time, image size), -q or not."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line(f"docker: {line}")


@pytest.fixture(scope="session")
def docker_base(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Iterator[str]:
    """The base image's name, with a daemon answering; what this fixture started or built is undone."""
    state = tmp_path_factory.mktemp("docker") / "state.json"
    try:
        got = up(state)
        if not got.ready:
            pytest.skip(f"docker cannot be used here: {got.skip}")
        if got.seconds:
            say(pytestconfig, f"up: {got.seconds} s")
        yield got.base_image
    finally:
        for line in down(state):
            say(pytestconfig, line)


@pytest.fixture(scope="session")
def image(docker_base: str, pytestconfig: pytest.Config) -> Iterator[str]:
    """thinkwire's image built from the checkout's Dockerfile on ``docker_base``."""
    tag = f"thinkwire-test:{uuid.uuid4().hex[:8]}"
    try:
        seconds = build_image(ROOT, tag, docker_base, labels=(DOCKER_LABEL,))
        size = int(docker("image", "inspect", "--format", "{{.Size}}", tag).stdout.strip() or 0)
        say(pytestconfig, f"{tag} built in {seconds:.0f} s on {docker_base}: {size / 1e6:.0f} MB")
        yield tag
    finally:
        docker("image", "rm", "--force", tag)
