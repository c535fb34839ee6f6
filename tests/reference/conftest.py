"""Fixtures the reference SUTs' tests share: a reference gateway in front of a scripted fake provider."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _reference_fakes import Answer, FakeProvider

from harness.reference.gateway import Gateway


@pytest.fixture
def gateway_for() -> Iterator[Any]:
    """``make(answers, faults)`` -> (the fake provider, the gateway in front of it); both closed after."""
    stack: list[Any] = []

    def make(answers: list[Answer], faults: tuple[str, ...] = ()) -> tuple[FakeProvider, Gateway]:
        up = FakeProvider(answers).__enter__()
        gw = Gateway(up.base_url, faults).__enter__()
        stack.extend([up, gw])
        return up, gw

    yield make
    for obj in reversed(stack):
        obj.__exit__(None, None, None)
