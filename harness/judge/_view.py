"""The per-turn view every check reads: what the upstream sent, what the client got, and the fate of reasoning
and text. It is computed once, apart from the checks, so that one cause is reported by one check."""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness._gate import Gate
from harness._routing import tokens_in
from harness.dialects import HARMONY
from harness.drivers import Abilities
from harness.events import (
    End,
    Event,
    Message,
    Notice,
    ReasoningBlock,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallBlock,
    ToolCallDelta,
    Usage,
    assemble,
)
from harness.timeline import Entry, Timeline

__all__ = ["CaseView", "Foreign", "TurnView", "build_view", "fate", "relayed_events"]


_EMPTY_TAGS = re.compile(
    r"<(think|thinking|thought|reasoning|mm:think)>\s*</\1>"
    + "|"
    + re.escape(HARMONY[0])
    + r"\s*"
    + re.escape(HARMONY[1])
)
"""An emptied inline reasoning wrapper (the reasoning was moved out of it, the markup left behind)."""


# The fate decides attribution. Reasoning that never reached the client is ``dropped``: the delivery check
# says so once and dependent checks become N/A. Reasoning found in the answer is ``moved``,
# channel-separation's; the opaque data of a redacted block shown as reasoning or answer text is
# ``exposed``, channel-separation's in its own words; repeated is ``duplicated``, no-duplication's; with
# U+FFFD where none was sent it is ``corrupted``, utf8-integrity's. A turn the SUT itself failed, with an
# exception, an error status or a broken stream the upstream never sent, is sut-error's alone.
def fate(expected: str, got: str, other_channel: str, other_expected: str = "") -> str:
    """``ok``, ``none`` (nothing expected, nothing got), ``dropped``, ``moved`` (went to the other
    channel), ``intruded`` (correct, plus the other channel's content), ``duplicated``, ``corrupted``,
    ``leaked`` (got something where nothing was expected), ``altered``."""
    if got == expected:
        return "ok" if expected else "none"
    if other_expected and other_expected in got:
        rest = _EMPTY_TAGS.sub("", got.replace(other_expected, "", 1))
        if rest.strip() == expected.strip():
            return "intruded"
    if not expected:
        return "leaked"
    if "\ufffd" in got and "\ufffd" not in expected:
        return "corrupted"
    if expected in got and len(got) > len(expected):
        return "duplicated"
    if expected in other_channel or (not got and _overlap(expected, other_channel)):
        return "moved"
    if not got:
        return "dropped"
    return "altered"


def _overlap(expected: str, other: str) -> bool:
    probe = expected.strip()[:24]
    return bool(probe) and probe in other


@dataclass(frozen=True, slots=True)
class Foreign:
    """Another case's routing token found in a turn: ``where`` (``request``: the upstream request
    carried it; ``stream``: the client received it), the ``token``, the other case's id (``""``
    when unknown) and the timeline entry that shows it."""

    where: str
    token: str
    case: str
    entry: Entry | None = None


@dataclass(slots=True)
class TurnView:
    turn: int
    expected_events: tuple[Event, ...]
    client_events: list[Event]
    reached: bool  # the upstream received a request for this turn
    rejected: list[Entry]
    gate_timeouts: list[Entry]
    gate_opens: list[Entry]
    writes: list[Entry]
    status: int | None
    cancelled: bool
    faulted: bool
    gates_scripted: int = 0  # Gate steps in this turn's script
    gate_waits: list[Entry] = field(default_factory=list)  # gates the upstream reached
    mode: Entry | None = None  # upstream ``mode``: stream / asked_stream / reasoning of its answer
    observed: bool = False  # the client got anything from the SUT (a status, bytes or an event)
    raised: list[Entry] = field(default_factory=list)  # client ``error`` entries with an exception
    client_errors: list[Entry] = field(default_factory=list)  # every client ``error`` entry
    foreign: list[Foreign] = field(default_factory=list)  # other cases' content in this turn
    requests: list[Entry] = field(default_factory=list)  # upstream ``request`` entries: one per attempt
    attempts_scripted: int = 0  # failed upstream answers scripted before the turn's own (retries)
    replayed: bool = False  # the SUT retried after output of a failed attempt reached its client
    event_entries: list[Entry] = field(default_factory=list)  # the client ``event`` entries
    chunks: list[Entry] = field(default_factory=list)  # the client ``chunk`` entries
    faults: list[Entry] = field(default_factory=list)  # the upstream ``fault`` entries
    fidelity: list[Entry] = field(default_factory=list)  # upstream ``fidelity``: passback compared
    expected: Message = field(init=False)
    delivered: Message = field(init=False)
    reasoning: str = field(init=False)
    """All reasoning the client saw, joined once (checks read it many times; a stream can be long)."""
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.expected = assemble(self.expected_events)
        self.delivered = assemble(self.client_events)
        self.reasoning = "".join(e.text for e in self.client_events if isinstance(e, ReasoningDelta))
        self.text = "".join(e.text for e in self.client_events if isinstance(e, TextDelta))

    @property
    def expected_reasoning(self) -> str:
        return self.expected.reasoning

    @property
    def expected_text(self) -> str:
        return self.expected.text

    @property
    def redacted(self) -> tuple[str, ...]:
        """The opaque data of the redacted reasoning blocks the upstream sent (never user-facing)."""
        blocks = self.expected.content
        return tuple(b.redacted for b in blocks if isinstance(b, ReasoningBlock) and b.redacted)

    @property
    def reasoning_fate(self) -> str:
        if any(d in self.reasoning for d in self.redacted):
            return "exposed"
        return fate(self.expected_reasoning, self.reasoning, self.text, self.expected_text)

    @property
    def text_fate(self) -> str:
        if any(d in self.text for d in self.redacted):
            return "exposed"
        return fate(self.expected_text, self.text, self.reasoning, self.expected_reasoning)

    @property
    def errors(self) -> list[StreamError]:
        return [e for e in self.client_events if isinstance(e, StreamError)]

    @property
    def ends(self) -> list[End]:
        return [e for e in self.client_events if isinstance(e, End)]

    @property
    def notices(self) -> list[Notice]:
        return [e for e in self.client_events if isinstance(e, Notice)]

    @property
    def usages(self) -> list[Usage]:
        return [e for e in self.client_events if isinstance(e, Usage)]

    @property
    def expected_usage(self) -> Usage | None:
        found = [e for e in self.expected_events if isinstance(e, Usage)]
        return found[-1] if found else None

    def rejections(self, family: str) -> list[Entry]:
        """The strict upstream's rejections of this turn's request by rules of ``family`` (a rejection's
        ``rule_family``: ``passback``, ``fidelity`` or ``request``; each is one check's)."""
        return [e for e in self.rejected if e.info.get("rule_family", "passback") == family]

    @property
    def client_saw_error(self) -> bool:
        return bool(self.errors) or (self.status is not None and self.status >= 400)

    @property
    def tool_calls(self) -> tuple[ToolCallBlock, ...]:
        return self.delivered.tool_calls

    def writes_of(self, channel: str) -> list[Entry]:
        """The upstream writes tagged with ``channel`` (``reasoning``, ``text``, ``tool``, ``usage``...)."""
        return [e for e in self.writes if channel in e.info.get("tags", ())]

    def events_of(self, *types: type) -> list[Entry]:
        """The client event entries whose event is one of ``types``."""
        return [e for e in self.event_entries if isinstance(e.event, types)]

    def events_containing(self, needle: str, *types: type[ReasoningDelta | TextDelta]) -> list[Entry]:
        """The client reasoning/text event entries whose text contains ``needle``."""
        return [e for e in self.events_of(*types) if needle in getattr(e.event, "text", "")]


@dataclass(slots=True)
class CaseView:
    """Pure functions of the case and its timeline build it. It also holds the evidence the runner weighs in
    ``harness.judge._evidence``: which turns reached the upstream and in which mode, the gates it reached,
    and whether the client observed anything at all. Another case's content in a turn, its routing token in
    the turn's upstream request or in what the client got, is ``foreign`` and isolation's alone: the turn
    is judged by no content check."""

    case: Any
    abilities: Abilities
    """What the SUT can do (its kind's record): checks ask it, never the kind's name."""
    timeline: Timeline
    turns: list[TurnView]
    entries: list[Entry]
    by_key: dict[tuple[str, str, int], list[Entry]]
    """``entries`` grouped by (side, act, turn), each group in time order (``of`` reads it)."""
    keepalive_every: float | None = None
    """The longest the SUT claims to stay silent toward its client (its profile's ``stream_keepalive``)."""
    relayed: bool = False
    """The case's reasoning rides in markup the SUT does not claim to parse: each turn expects the content
    verbatim, markup and all (:func:`relayed_events`)."""

    _index: dict[int, int] | None = None

    @property
    def caps(self) -> Abilities:
        """Deprecated spelling of :attr:`abilities` ("caps" is what a wire variant carries)."""
        warnings.warn("CaseView.caps is deprecated; use .abilities", DeprecationWarning, stacklevel=2)
        return self.abilities

    def of(self, side: str, act: str | None = None, *, kind: str | None = None) -> list[Entry]:
        """The entries of one side and act, every turn's, in time order: a lookup, not a scan of
        ``entries`` (a byte-wise stream has thousands of writes). (``kind=``: the deprecated spelling
        of ``act``.)"""
        if kind is not None:
            warnings.warn("CaseView.of(kind=...) is deprecated; use act=", DeprecationWarning, stacklevel=2)
            if act is not None and act != kind:
                raise TypeError(f"CaseView.of: act={act!r} and its old spelling kind={kind!r} disagree")
            act = kind
        if act is None:
            raise TypeError("CaseView.of() missing the argument 'act' (what happened)")
        groups = [g for (s, k, _), g in self.by_key.items() if s == side and k == act]
        if len(groups) == 1:
            return groups[0]
        return sorted((e for g in groups for e in g), key=lambda e: e.t)

    def index_of(self, entry: Entry) -> int:
        if self._index is None:
            self._index = {id(e): i for i, e in enumerate(self.entries)}
        return self._index.get(id(entry), -1)

    def cite(self, *groups: list[Entry], limit: int = 8) -> tuple[int, ...]:
        """A finding's evidence: the timeline indexes of the entries it cites, the first ``limit`` of
        each group (a per-byte stream writes thousands of frames; the first ones make the point)."""
        out: list[int] = []
        for group in groups:
            out += [i for i in (self.index_of(e) for e in group[:limit]) if i >= 0]
        return tuple(sorted(set(out)))

    @property
    def sut_entries(self) -> list[Entry]:
        return [e for e in self.entries if e.side == "sut"]


def _made_by_harness(entry: Entry, errors: list[Entry]) -> bool:
    """A transport-error StreamError the HTTP driver made up when the SUT never answered."""
    ev = entry.event
    if ev is None:
        return True
    return isinstance(ev, StreamError) and ev.message.startswith("transport error:") and bool(errors)


def build_view(
    case: Any,
    timeline: Timeline,
    abilities: Abilities,
    names: Mapping[str, str] | None = None,
    *,
    keepalive_every: float | None = None,
    relayed: bool | None = False,
) -> CaseView:
    """The view of ``case``'s ``timeline`` for a SUT of ``abilities``. ``names``: routing token
    -> case id of the run's cases (the run's table, passed down), which names another case whose
    content shows up in this one's stream. ``keepalive_every``: the SUT's claimed keepalive interval.
    ``relayed``: the case's reasoning markup is one the SUT does not claim to parse, so what it owes its
    client is the content as the upstream sent it (``SUTProfile.relays_markup``); None: no claim either
    way, so what the client got decides (reasoning split out: judged as parsed, else as relayed)."""
    timeline.quiesce()  # every write the SUT could have read is recorded before anything is judged
    entries = timeline.entries()
    if relayed is None:
        relayed = not any(isinstance(e.event, ReasoningDelta) for e in entries if e.side == "client")
    by_key: dict[tuple[str, str, int], list[Entry]] = {}
    for e in entries:  # one pass: every turn's selections below are lookups
        by_key.setdefault((e.side, e.act, e.turn), []).append(e)
    views: list[TurnView] = []
    for i, spec in enumerate(case.turns):

        def sel(side: str, k: str, i: int = i) -> list[Entry]:
            return by_key.get((side, k, i), [])

        statuses = sel("client", "status")
        modes = sel("upstream", "mode")
        errors = sel("client", "error")
        events = sel("client", "event")
        requests = sel("upstream", "request")
        attempts = len(getattr(spec, "attempts", ()))
        final_reached = any(r.info.get("attempt", 0) == attempts for r in requests)
        cut_in_frame = _ends_inside_a_frame(case, modes)
        views.append(
            TurnView(
                turn=i,
                expected_events=relayed_events(case.dialect, case.variant, spec.events())
                if relayed
                else spec.events(),
                client_events=[e.event for e in events if e.event is not None],
                reached=bool(requests),
                rejected=sel("upstream", "rejected"),
                gate_timeouts=sel("upstream", "gate-timeout"),
                gate_opens=sel("upstream", "gate-open"),
                writes=sel("upstream", "write"),
                status=int(statuses[-1].info.get("status", 0)) if statuses else None,
                cancelled=bool(sel("client", "cancel")),
                faulted=spec.faulted or cut_in_frame or (bool(requests) and not final_reached),
                gates_scripted=sum(1 for st in spec.steps if isinstance(st, Gate)),
                gate_waits=sel("upstream", "gate-wait"),
                mode=modes[-1] if modes else None,
                observed=bool(statuses or sel("client", "chunk"))
                or any(not _made_by_harness(e, errors) for e in events),
                raised=[e for e in errors if e.info.get("exception")],
                client_errors=errors,
                requests=requests,
                attempts_scripted=attempts,
                replayed=_retried_after_output(requests, events),
                event_entries=events,
                chunks=sel("client", "chunk"),
                faults=sel("upstream", "fault"),
                fidelity=sel("upstream", "fidelity"),
            )
        )
        views[-1].foreign = _foreign(case, views[-1], sel("upstream", "crosstalk"), events, names or {})
    return CaseView(case, abilities, timeline, views, entries, by_key, keepalive_every, relayed)


_CONTENT = (ReasoningDelta, TextDelta, ToolCallDelta, ReasoningSignature, RedactedReasoning)


def relayed_events(dialect: str, variant: str, events: Sequence[Event]) -> tuple[Event, ...]:
    """What a relay that parses none of the variant's markup delivers of a turn: the upstream's stream
    read literally (the variant's emitter, then its dialect's observer with inline markup left as
    content), so the reasoning arrives as answer text inside its markup, intact and in order. Usage,
    errors and the end are the turn's own."""
    from harness.codec import encode_frames
    from harness.dialects import Reading, get_dialect

    d = get_dialect(dialect)
    emitter = d.emitter(variant)
    frames = emitter.feed(list(events)) + emitter.close()
    observer = d.observer(None, reading=Reading(inline_think=False, implicit_think=False))
    read = observer.feed(b"".join(encode_frames(frames, str(d.transport.value)))) + observer.end()
    own = [e for e in events if not isinstance(e, _CONTENT)]
    return (*[e for e in read if isinstance(e, _CONTENT)], *own)


def _foreign(
    case: Any, t: TurnView, crosstalk: list[Entry], events: list[Entry], names: Mapping[str, str]
) -> list[Foreign]:
    """Other cases' tokens in turn ``t``: those the mock found in its requests (``crosstalk``), then
    those in the reasoning and text the client got (named by ``names``, the run's token table)."""
    out = [
        Foreign("request", tok, str(name), e)
        for e in crosstalk
        for tok, name in zip(e.info.get("tokens", ()), e.info.get("cases", ()), strict=False)
    ]
    own = getattr(case, "token", "")
    got = t.reasoning + t.text
    if own and "tw-" in got:
        for tok in tokens_in(got.encode()):
            if tok != own:
                first = next((e for e in events if e.event is not None and tok in _text(e.event)), None)
                out.append(Foreign("stream", tok, names.get(tok, ""), first))
    return out


def _text(ev: Event) -> str:
    return ev.text if isinstance(ev, ReasoningDelta | TextDelta) else ""


def _retried_after_output(requests: list[Entry], events: list[Entry]) -> bool:
    """A retry (a second upstream request of the turn) sent after reasoning or text of the failed
    attempt had reached the client: whatever the retry streams, the client sees it twice."""
    shown = [e.t for e in events if isinstance(e.event, ReasoningDelta | TextDelta) and e.event.text]
    return bool(shown) and any(r.info.get("attempt", 0) > 0 and r.t > shown[0] for r in requests)


def _ends_inside_a_frame(case: Any, modes: Sequence[Entry] = ()) -> bool:
    """Perturbation ``unterminated`` on SSE: the stream ends inside its last frame, which WHATWG says is
    never dispatched, so the stream broke off before its terminator (an upstream failure to report);
    on a JSON array (Gemini without ``?alt=sse``) the array lacks its closing ``]``, the same break.
    What the mock played (its ``mode`` entry) decides: a framing the request picked may not carry it."""
    if getattr(case, "perturbation", "none") != "unterminated":
        return False
    played = modes[-1].info if modes else None
    if played is not None and "perturbation" in played:
        return played["perturbation"] == "unterminated" and played.get("transport") in ("sse", "json-array")
    from harness.dialects import get_dialect

    return str(get_dialect(case.dialect).transport.value) == "sse"
