"""A case as the checks read it, for judging hand-built timelines: its turns, dialect, streaming mode,
provider rules and scenario outcome, without loading a scenario file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.catalog._scenario import TurnSpec


@dataclass
class FakeScenario:
    outcome: str = "answer"


@dataclass
class FakeCase:
    turns: tuple[TurnSpec, ...]
    dialect: str = "openai-chat"
    variant: str = "reasoning_content"
    stream: bool = True
    provider_rules: str = "lenient"
    scenario: Any = field(default_factory=FakeScenario)
