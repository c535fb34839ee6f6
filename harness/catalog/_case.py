"""The expansion of a scenario's axes into concrete cases, and of a case into upstream scripts. A case is the
unit every run, expectation file and recording keys on, so its id and content are fixed here."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from harness._routing import token_for
from harness.catalog._salt import salted
from harness.catalog._scenario import ProviderHttpError, Scenario, TurnSpec
from harness.dialects import LENIENT, Caps, Provider, get_dialect, provider_of
from harness.events import (
    End,
    Event,
    Message,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextDelta,
    ToolCallDelta,
    Usage,
    assemble,
)
from harness.upstream import Conversation, Emit, HttpError, MidStreamError, Script, Step

__all__ = ["Case", "expand", "expand_all", "matches", "rate_limit_headers", "select"]


@dataclass(frozen=True, slots=True)
class Case:
    scenario: Scenario
    dialect: str
    variant: str
    chunking: str
    perturbation: str
    stream: bool
    token: str = field(init=False, default="", repr=False, compare=False)
    """The case's routing token (the same in every run: a hash of its id)."""
    _turns: tuple[TurnSpec, ...] = field(init=False, default=(), repr=False, compare=False)

    # A case's turns are its scenario's, salted with its routing token by ``_salt``, so its content is its
    # own.
    def __post_init__(self) -> None:
        token = token_for(self.id)
        object.__setattr__(self, "token", token)
        object.__setattr__(self, "_turns", salted(self.scenario.turns, token))

    @property
    def id(self) -> str:
        """``<scenario-id>[<dialect>:<variant>/<chunking>(/<perturbation>)(/nonstream)]``, which never changes
        for the same scenario file: expectation files and recordings key on it."""
        parts = [f"{self.dialect}:{self.variant}", self.chunking]
        if self.perturbation != "none":
            parts.append(self.perturbation)
        if not self.stream:
            parts.append("nonstream")
        return f"{self.scenario.id}[{'/'.join(parts)}]"

    @property
    def turns(self) -> tuple[TurnSpec, ...]:
        """The scenario's turns, salted with this case's token."""
        return self._turns

    @property
    def provider_rules(self) -> str:
        """The scenario's rules for the dialect; where it names none, the variant's own strict rules (a
        variant file's ``[strict]``), else lenient."""
        rules = self.scenario.rules_for(self.dialect)
        own = get_dialect(self.dialect).variants[self.variant].rules
        return own if rules == LENIENT and own else rules

    @property
    def provider(self) -> Provider:
        """The provider the case's upstream plays (and the model name it answers to)."""
        return provider_of(self.dialect, self.variant, self.provider_rules)

    def axes(self) -> dict[str, str]:
        return {
            "dialect": self.dialect,
            "variant": self.variant,
            "chunking": self.chunking,
            "perturbation": self.perturbation,
            "mode": "stream" if self.stream else "nonstream",
        }

    def expected_events(self, turn: int) -> tuple[Event, ...]:
        """What the upstream streams on this turn: what a correct SUT delivers."""
        return self.turns[turn].events()

    def expected_message(self, turn: int) -> Message:
        return assemble(self.expected_events(turn))

    def conversation(self, model: str = "mock-model") -> Conversation:
        dialect = get_dialect(self.dialect)
        scripts = []
        for i, spec in enumerate(self.turns):
            if spec.replay is not None:
                scripts.append(_replayed(spec.replay, self.scenario.path, self.provider_rules, model))
                continue
            for k, answer in enumerate((*spec.attempts, spec.steps)):
                steps: list[Step] = []
                for st in answer:
                    if isinstance(st, ProviderHttpError):
                        body = dialect.error_body(st.status, st.message, st.code)
                        heads = rate_limit_headers(self.dialect, st) + dialect.error_headers(
                            st.status, st.code
                        )
                        steps.append(HttpError(st.status, body, headers=heads))
                    else:
                        steps.append(st)
                scripts.append(
                    Script(
                        dialect=self.dialect,
                        steps=tuple(steps),
                        variant=self.variant,
                        chunking=self.chunking,
                        perturbation=self.perturbation,
                        terminator=spec.terminator,  # type: ignore[arg-type]
                        provider_rules=self.provider_rules,
                        model=model,
                        turn=i,
                        attempt=k,
                    )
                )
        last = scripts[-1] if scripts else None
        overflow = None
        if last is not None and last.steps and isinstance(last.steps[0], HttpError):
            # an upstream that failed the last request fails its retries too (a persistent 429 / 5xx)
            overflow = replace(last, attempt=last.attempt + 1)
        elif last is not None and any(isinstance(ev, ToolCallDelta) for ev in last.events()):
            # a conversation that ends in tool calls: an agent that runs the tools itself asks the model
            # again, as it should; that continuation is beyond the scenario (a turn of its own that no
            # check judges) and gets a plain answer from a lenient upstream
            answer = (Emit((TextDelta("Done."), End("stop"))),)
            overflow = replace(last, steps=answer, provider_rules=LENIENT, turn=len(self.turns), attempt=0)
        return Conversation(tuple(scripts), name=self.id, overflow=overflow)

    def with_stream(self, stream: bool) -> Case:
        return replace(self, stream=stream)


def rate_limit_headers(dialect: str, error: ProviderHttpError) -> tuple[tuple[str, str], ...]:
    """``retry-after`` and the provider's own rate-limit headers for an error that names a wait: OpenAI's
    ``x-ratelimit-*`` (https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers),
    Anthropic's ``anthropic-ratelimit-*`` (https://docs.anthropic.com/en/api/rate-limits#response-headers)."""
    if error.retry_after is None:
        return ()
    wait = error.retry_after
    seconds = str(int(wait)) if wait == int(wait) else f"{wait:g}"
    out = [("retry-after", seconds)]
    if dialect.startswith("openai-"):
        out += [
            ("x-ratelimit-limit-requests", "500"),
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", f"{wait:g}s"),
            ("x-ratelimit-limit-tokens", "30000"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", f"{wait:g}s"),
        ]
    elif dialect == "anthropic-messages":
        out += [
            ("anthropic-ratelimit-requests-limit", "50"),
            ("anthropic-ratelimit-requests-remaining", "0"),
            ("anthropic-ratelimit-requests-reset", "2026-01-01T00:00:01Z"),
        ]
    return tuple(out)


def _replayed(replay: tuple[str, int], scenario_path: str, rules: str, model: str) -> Script:
    """The recorded exchange of a promoted scenario, byte-identical (chunk boundaries kept). The cassette
    path is relative to the scenario file (``thinkwire promote --out``), else to the catalog's parent
    (the bundled ``recordings/``)."""
    from dataclasses import replace as dc_replace
    from pathlib import Path

    from harness.catalog._scenario import catalog_dir
    from harness.recording import conversation_from_cassette, read_cassette

    rel, index = replay
    path = Path(scenario_path).parent / rel
    if not path.exists():
        path = catalog_dir().parent / rel
    if not path.exists():  # installed wheel: recordings/ ships next to the catalog
        path = catalog_dir().parent / "recordings" / Path(rel).name
    script = conversation_from_cassette(read_cassette(path))[index]
    return dc_replace(script, provider_rules=rules, model=model)


def _variant_ok(scenario: Scenario, dialect: str, name: str) -> bool:
    variant = get_dialect(dialect).variants[name]
    names = {name, variant.like} - {""}  # a variant plays the cases its sibling ``like`` plays
    if names & set(scenario.exclude_variants):
        return False
    if scenario.variants is not None and not names & set(scenario.variants):
        return False
    needed = needed_caps(scenario)
    return needed <= variant.caps and variant.premise <= needed  # a case carries its variant's premise


def needed_caps(scenario: Scenario) -> set[Caps]:
    """What a variant must be able to carry for this scenario: declared ``requires`` plus what the
    turns' events and faults imply (so no case asks a variant for something its wire cannot say)."""
    needed = {Caps(c) for c in scenario.requires}
    for spec in scenario.turns:
        events = spec.events()
        kinds: list[str] = []
        for n, ev in enumerate(events):
            if isinstance(ev, ReasoningDelta) and ev.text:
                needed.add(Caps.REASONING)
                kinds.append("r" + ev.item)
            elif isinstance(ev, ReasoningSignature):
                after_call = n > 0 and isinstance(events[n - 1], ToolCallDelta)
                needed.add(Caps.CALL_SIGNATURE if after_call else Caps.SIGNATURE)
            elif isinstance(ev, RedactedReasoning):
                needed.add(Caps.REDACTED)
                kinds.append("x" + ev.item)
            elif isinstance(ev, ToolCallDelta):
                needed.add(Caps.TOOLS)
                kinds.append("c")
            elif isinstance(ev, TextDelta):
                kinds.append("t")
            elif isinstance(ev, Usage) and ev.reasoning_tokens is not None:
                needed.add(Caps.USAGE)
        blocks = [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]
        reasoning = [k for k in blocks if k[0] in "rx"]
        if len(reasoning) > 1:
            needed.add(Caps.MULTI_REASONING)
        first_other = next((i for i, k in enumerate(blocks) if k[0] in "tc"), None)
        if first_other is not None and any(k[0] in "rx" for k in blocks[first_other:]):
            needed.add(Caps.INTERLEAVED)
        if any(isinstance(s, MidStreamError) for s in spec.steps):
            needed.add(Caps.ERRORS)
    return needed


_LINE_ENDS = frozenset({"crlf", "cr", "mixed"})


def _perturbation_ok(dialect: str, name: str) -> bool:
    if name == "none":
        return True
    if name in _LINE_ENDS and get_dialect(dialect).sse_eol == "\r\n":
        return False  # the provider's own framing is CRLF (Gemini): a parser that knows only LF fails
        # every plain case already, and the other line ends are not what that provider sends
    try:
        from harness.codec import PERTURBATIONS
    except ImportError:  # pragma: no cover - the codec ships them
        return False
    transport = get_dialect(dialect).transport.value
    entry = PERTURBATIONS.get(name) if hasattr(PERTURBATIONS, "get") else PERTURBATIONS[name]
    transports = getattr(entry, "transports", None)
    return transports is None or transport in transports


def expand(scenario: Scenario) -> list[Case]:
    cases: list[Case] = []
    for dialect in scenario.dialects:
        for variant in get_dialect(dialect).variants:
            if not _variant_ok(scenario, dialect, variant):
                continue
            for chunking in scenario.chunkings:
                for perturbation in scenario.perturbations:
                    if not _perturbation_ok(dialect, perturbation):
                        continue
                    for mode in scenario.modes:
                        cases.append(
                            Case(scenario, dialect, variant, chunking, perturbation, mode == "stream")
                        )
    return cases


def expand_all(scenarios: Iterable[Scenario]) -> list[Case]:
    return [c for s in scenarios for c in expand(s)]


def select(cases: Sequence[Case], patterns: Sequence[str] | None) -> list[Case]:
    """Cases whose id or scenario id matches any glob (``openai-chat/*``, ``*passback*``)."""
    if not patterns:
        return list(cases)
    rx = [_glob(p) for p in patterns]
    return [c for c in cases if any(r.fullmatch(c.id) or r.fullmatch(c.scenario.id) for r in rx)]


def matches(pattern: str, case_or_scenario_id: str) -> bool:
    """Does the glob (as ``--cases`` takes it) match this id?"""
    return _glob(pattern).fullmatch(case_or_scenario_id) is not None


def _glob(pattern: str) -> re.Pattern[str]:
    """``*`` and ``?`` are wildcards; brackets are literal (case ids contain them)."""
    return re.compile(re.escape(pattern).replace(r"\*", ".*").replace(r"\?", "."))
