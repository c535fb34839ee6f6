"""The mock against the corpus, exchange by exchange: status, framing, the headers clients read, the event
grammar, the fields of each event kind with their JSON types, and the rules of ``_rules``. A difference is
explained only by a row of ``_kept.KEPT``."""

from __future__ import annotations

import fnmatch
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tools.fidelity._corpus import CorpusExchange, load_corpus
from tools.fidelity._kept import KEPT, Kept
from tools.fidelity._mock import MockAnswer, mock_answers
from tools.fidelity._rules import RULES, Seen
from tools.fidelity._shapes import OPAQUE, Unit, paths, units
from tools.fidelity._wire import read_wire

__all__ = ["SDK_HEADERS", "Difference", "ExchangeReport", "FidelityReport", "compare_corpus", "seen_of"]

SDK_HEADERS: dict[str, tuple[tuple[str, str], ...]] = {
    "openai-chat": (("x-request-id", "openai/_response.py: _request_id"),),
    "openai-responses": (("x-request-id", "openai/_response.py: _request_id"),),
    "anthropic-messages": (("request-id", "anthropic/_response.py: _request_id"),),
    "bedrock-converse": (("x-amzn-requestid", "botocore/parsers.py: ResponseMetadata.RequestId"),),
}
"""Response headers an official SDK reads (besides content-type), with where it reads them."""
_FRAMING_FACTS = frozenset(
    {
        "eol-crlf",
        "eol-lf",
        "eol-cr",
        "event-lines",
        "data-no-space",
        "padded",
        "array-separator-lf-comma-crlf",
    }
)


@dataclass(frozen=True, slots=True)
class Difference:
    """A difference is a fact about one recorded exchange and the mock's answer to the same request: an event
    kind or a field the mock sends that the recording never has, which is invented; one the recording has
    in every frame of its kind that the mock lacks, which is missing; a type the recording never uses; a
    different order of kinds, not judged on trimmed recordings; a framing fact or header that differs."""
    dialect: str
    aspect: str  # status | framing | header | kind | order | field | type | rule
    subject: str  # the kind, header, fact or rule
    detail: str  # the path, or what differs
    where: str  # corpus file#exchange

    def matches(self, row: Kept) -> bool:
        return (
            row.dialect == self.dialect
            and fnmatch.fnmatchcase(self.aspect, row.aspect)
            and fnmatch.fnmatchcase(self.subject, row.subject)
            and fnmatch.fnmatchcase(self.detail, row.detail)
            and fnmatch.fnmatchcase(self.where, row.where)
        )


@dataclass
class ExchangeReport:
    cx: CorpusExchange
    kinds: list[str]
    mock_kinds: list[str]
    fields: int
    differences: list[Difference]


@dataclass
class FidelityReport:
    exchanges: list[ExchangeReport]
    explained: dict[Kept, list[Difference]] = field(default_factory=dict)
    unexplained: list[Difference] = field(default_factory=list)
    stale: list[Kept] = field(default_factory=list)
    contradicted: list[str] = field(default_factory=list)
    """Rules a recording breaks (the rule is wrong): ``rule: file#n: why``."""


def seen_of(cx: CorpusExchange, body: bytes, content_type: str, stream: bool) -> Seen:
    wire = read_wire(body, content_type)
    return Seen(cx.exchange.path, cx.request, wire, units(cx.dialect, wire), stream)


def _collapse(kinds: Iterable[str]) -> list[str]:
    out: list[str] = []
    for k in kinds:
        if not out or out[-1] != k:
            out.append(k)
    return out


def _by_kind(us: Sequence[Unit], opaque: frozenset[str]) -> dict[str, list[dict[str, set[str]]]]:
    out: dict[str, list[dict[str, set[str]]]] = defaultdict(list)
    for kind, obj in us:
        out[kind].append(paths(obj, opaque))
    return out


def _fields(cx: CorpusExchange, real: Seen, mock: Seen) -> tuple[int, list[Difference]]:
    d, where = cx.dialect, cx.label
    opaque = OPAQUE.get(d, frozenset())
    rk, mk = _by_kind(real.units, opaque), _by_kind(mock.units, opaque)
    diffs: list[Difference] = []
    compared = 0
    for kind in sorted(set(rk) & set(mk)):
        union: dict[str, set[str]] = defaultdict(set)
        for p in rk[kind]:
            for path, types in p.items():
                union[path] |= types
        always = set.intersection(*(set(p) for p in rk[kind]))
        mine: dict[str, set[str]] = defaultdict(set)
        for p in mk[kind]:
            for path, types in p.items():
                mine[path] |= types
        compared += len(union)
        for path in sorted(set(mine) - set(union)):
            diffs.append(Difference(d, "field", kind, f"invented {path}", where))
        for path in sorted(always - set(mine)):
            diffs.append(Difference(d, "field", kind, f"missing {path}", where))
        for path in sorted(set(mine) & set(union)):
            extra = mine[path] - union[path]
            if extra:
                diffs.append(
                    Difference(
                        d,
                        "type",
                        kind,
                        f"{path}: {'/'.join(sorted(extra))} (recorded: {'/'.join(sorted(union[path]))})",
                        where,
                    )
                )
    return compared, diffs


def _headers(cx: CorpusExchange, answer: MockAnswer) -> list[Difference]:
    d, where = cx.dialect, cx.label
    out = []
    real_ct = (cx.exchange.header("content-type") or "").replace(" ", "").lower()
    mock_ct = (answer.header("content-type") or "").replace(" ", "").lower()
    if real_ct != mock_ct:
        out.append(Difference(d, "header", "content-type", f"{mock_ct or '-'} (recorded: {real_ct})", where))
    for name, _ in SDK_HEADERS.get(d, ()):
        if cx.exchange.header(name) is not None and answer.header(name) is None:
            out.append(Difference(d, "header", name, "missing", where))
    return out


def _compare_one(cx: CorpusExchange, answer: MockAnswer) -> ExchangeReport:
    d, where = cx.dialect, cx.label
    real_ct = cx.exchange.header("content-type") or ""
    real = seen_of(cx, cx.exchange.body, real_ct, answer.stream)
    mock = seen_of(cx, answer.body, answer.header("content-type") or "", answer.stream)
    diffs: list[Difference] = []
    if answer.status != cx.exchange.status:
        diffs.append(Difference(d, "status", str(answer.status), f"recorded {cx.exchange.status}", where))
    diffs += _headers(cx, answer)
    if real.wire.framing != mock.wire.framing:
        diffs.append(Difference(d, "framing", mock.wire.framing, f"recorded {real.wire.framing}", where))
    for fact in sorted((real.wire.facts ^ mock.wire.facts) & _FRAMING_FACTS):
        what = "missing" if fact in real.wire.facts else "invented"
        diffs.append(Difference(d, "framing", fact, what, where))
    rkinds, mkinds = [k for k, _ in real.units], [k for k, _ in mock.units]
    for kind in sorted(set(mkinds) - set(rkinds)) if not cx.file.trimmed else ():
        diffs.append(Difference(d, "kind", kind, "invented", where))  # a trimmed recording lost some
    for kind in sorted(set(rkinds) - set(mkinds)):
        diffs.append(Difference(d, "kind", kind, "missing", where))
    if not cx.file.trimmed and _collapse(rkinds) != _collapse(mkinds) and set(rkinds) == set(mkinds):
        diffs.append(
            Difference(
                d, "order", " ".join(_collapse(mkinds)), "recorded " + " ".join(_collapse(rkinds)), where
            )
        )
    compared, field_diffs = _fields(cx, real, mock)
    diffs += field_diffs
    for rule in RULES:
        if rule.dialect == d:
            broken = rule.check(mock)
            if broken is not None:
                diffs.append(Difference(d, "rule", rule.name, broken, where))
    return ExchangeReport(cx, rkinds, mkinds, compared, diffs)


def _contradictions(cx: CorpusExchange) -> list[str]:
    real = seen_of(cx, cx.exchange.body, cx.exchange.header("content-type") or "", _is_stream(cx))
    out = []
    for rule in RULES:
        if rule.dialect == cx.dialect:
            broken = rule.check(real)
            if broken is not None:
                out.append(f"{rule.name}: {cx.label}: {broken}")
    return out


def _is_stream(cx: CorpusExchange) -> bool:
    from harness.dialects import get_dialect

    return get_dialect(cx.dialect).wants_stream(cx.exchange.path.split("?", 1)[0], cx.request)


def compare_corpus(
    corpus: Sequence[CorpusExchange] | None = None, kept: Sequence[Kept] = KEPT
) -> FidelityReport:
    """A row of ``_kept.KEPT`` that explains nothing is stale, and is reported so the table stays true."""
    corpus = list(corpus) if corpus is not None else load_corpus()
    by_file: dict[str, list[CorpusExchange]] = defaultdict(list)
    for cx in corpus:
        by_file[cx.file.name].append(cx)
    report = FidelityReport([])
    for name in sorted(by_file):
        group = by_file[name]
        for cx, answer in zip(group, mock_answers(group), strict=True):
            report.exchanges.append(_compare_one(cx, answer))
            report.contradicted += _contradictions(cx)
    used: dict[Kept, list[Difference]] = {row: [] for row in kept}
    for er in report.exchanges:
        for diff in er.differences:
            row = next((r for r in kept if diff.matches(r)), None)
            if row is None:
                report.unexplained.append(diff)
            else:
                used[row].append(diff)
    report.explained = {row: got for row, got in used.items() if got}
    report.stale = [row for row, got in used.items() if not got]
    return report
