"""An interrupt that lands right after a SUT's temp dir is created must not leave the dir behind:
the dir is registered before it exists, so :func:`stop_all` finds it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.drivers import _process


class _Interrupted(Exception):
    pass


def test_an_interrupt_after_mkdir_finds_the_dir_registered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []
    real = os.mkdir

    def mkdir_then_interrupted(path: str, mode: int = 0o777, **kwargs: object) -> None:
        real(path, mode)
        made.append(str(path))
        raise _Interrupted  # as a KeyboardInterrupt from a signal handler lands after the syscall

    monkeypatch.setattr(os, "mkdir", mkdir_then_interrupted)
    with pytest.raises(_Interrupted):
        _process.temp_dir("thinkwire-test-held-")
    monkeypatch.undo()
    [path] = made
    assert Path(path) in _process._dirs
    _process.stop_all()
    assert not os.path.exists(path)
