"""Fixtures: one MockUpstream per module, reset per test with a fresh timeline and client side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.timeline import Timeline
from harness.upstream import ClientSide, Conversation, MockUpstream


@pytest.fixture(scope="module")
def server() -> Iterator[MockUpstream]:
    with MockUpstream() as up:
        yield up


@pytest.fixture
def up(server: MockUpstream) -> MockUpstream:
    return server.load(Conversation(()), timeline=Timeline(), client=ClientSide())
