"""thinkwire: a conformance test harness for LLM reasoning ("thinking") streams.

``harness.__all__`` holds what users import: ``run`` and its results, SUT profiles, the mock upstream and
its scripts, the dialects, and the whole error family. The names load lazily, so ``import harness`` and the
pytest plugin cost nothing until something is used."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # run the suite
    "run": "harness.runner",
    "load_cases": "harness.runner",
    "RunOptions": "harness.runner",
    "RunResult": "harness.runner",
    "CaseResult": "harness.verdict",
    "Finding": "harness.verdict",
    "Verdict": "harness.verdict",
    "Status": "harness.verdict",
    # describe a SUT
    "SUTProfile": "harness.drivers",
    "SUTRequest": "harness.drivers",
    "claims": "harness.drivers",
    "load_profile": "harness.drivers",
    # script a mock upstream
    "MockUpstream": "harness.upstream",
    "RespxUpstream": "harness.upstream",
    "Conversation": "harness.upstream",
    "Script": "harness.upstream",
    "Emit": "harness.upstream",
    "Gate": "harness.upstream",
    # wires and what was observed
    "get_dialect": "harness.dialects",
    "SSEDecoder": "harness.codec",
    "SSEEvent": "harness.codec",
    "Timeline": "harness.timeline",
    # the error family (tree in harness/_errors.py)
    "ThinkwireError": "harness._errors",
    "DecodeError": "harness._errors",
    "ScenarioError": "harness._errors",
    "ProfileError": "harness._errors",
    "UnknownName": "harness._errors",
    "CassetteError": "harness._errors",
    "CorpusAbsent": "harness._errors",
    "ResultsError": "harness.report",
    "DriverError": "harness.drivers",
    "DriverTimeout": "harness.drivers",
    "CaseTooBig": "harness.drivers",
    "AdapterError": "harness.drivers",
    "PreflightError": "harness._errors",
    "FlagError": "harness._errors",
    "HarnessError": "harness._errors",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from harness._errors import (
        CassetteError,
        CorpusAbsent,
        DecodeError,
        FlagError,
        HarnessError,
        PreflightError,
        ProfileError,
        ScenarioError,
        ThinkwireError,
        UnknownName,
    )
    from harness.codec import SSEDecoder, SSEEvent
    from harness.dialects import get_dialect
    from harness.drivers import (
        AdapterError,
        CaseTooBig,
        DriverError,
        DriverTimeout,
        SUTProfile,
        SUTRequest,
        claims,
        load_profile,
    )
    from harness.report import ResultsError
    from harness.runner import RunOptions, RunResult, load_cases, run
    from harness.timeline import Timeline
    from harness.upstream import Conversation, Emit, Gate, MockUpstream, RespxUpstream, Script
    from harness.verdict import CaseResult, Finding, Status, Verdict


def __getattr__(name: str) -> Any:
    try:
        module = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'harness' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
