"""RunOptions: one frozen value that pickles, built from run()'s keywords, resolving the SUT once with
the settings that replace the profile's (a Python SUT's HTTP client gets --timeout)."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from harness.drivers import make_driver
from harness.runner import RunOptions
from harness.runner._sut import command_profile


def test_frozen_and_pickled_whole() -> None:
    options = RunOptions(sut=command_profile("gw --port {port}", "openai-chat"), faults=[], timeout=3)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.strict = True  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(options)) == options
    assert options.faults == ()  # (a list given is kept as a tuple)


def test_keywords_override_a_base_and_keep_timelines_has_one_vocabulary() -> None:
    base = RunOptions(strict=True, keep_timelines="failures")
    built = RunOptions.build(base, timeout=5.0)
    assert built == RunOptions(strict=True, keep_timelines="failures", timeout=5.0)
    assert RunOptions.build(keep_timelines=True).keep_timelines == "all"  # the old spellings still read
    assert RunOptions.build(keep_timelines=False).keep_timelines == "none"
    assert RunOptions().keep_timelines == "all"


def test_resolve_puts_the_settings_into_the_profile_once() -> None:
    plain = RunOptions(sut="reference-sdk").resolve().profile
    assert plain.timeout == 10.0  # the built-in profile's
    given = {"timeout": 3, "ready_timeout": 2, "gate_timeout": 1.5, "max_bytes": 999}
    sut = RunOptions(sut="reference-sdk", **given).resolve()  # type: ignore[arg-type]
    profile = sut.profile
    assert {k: getattr(profile, k) for k in given} == given
    driver = make_driver(profile, sut.fn)
    try:
        assert driver.http.timeout.read == 3  # type: ignore[attr-defined]  # --timeout, not the profile's 10
    finally:
        driver.stop()


def test_reproduce_flags_are_the_verdict_bearing_settings_given() -> None:
    assert RunOptions(concurrency=4, repeat=3, keep_timelines="none").reproduce_flags() == []
    flags = RunOptions(strict=True, timeout=2.5, max_bytes=100, preflight=False).reproduce_flags()
    assert flags == ["--strict", "--timeout", "2.5", "--max-bytes", "100", "--no-preflight"]


def test_settings_names_every_field() -> None:
    """``settings()`` names each field in code (no walk by name): a field added without it fails here."""
    options = RunOptions(strict=True, timeout=2.5)
    assert list(options.settings()) == [f.name for f in dataclasses.fields(RunOptions)]
    assert RunOptions(**options.settings()) == options
