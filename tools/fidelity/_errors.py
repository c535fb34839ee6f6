"""The mock's error answers against recorded error exchanges: the recorded request goes through the mock
upstream's own dispatch under the provider rules that play its provider, and the answer is compared
with the recorded one (status, content type, the request-id header SDKs read, the error body's field
paths and JSON types, and its message text, which SDKs surface).

Rule: every recorded exchange whose status is 400 or more is compared: the project's own
``recordings/`` (each named in :data:`ERROR_RECORDINGS` with its provider rules) and every corpus
exchange (with its manifest's rules; the corpus holds none today). A difference is explained only by a
row of :data:`KEPT_ERRORS`; a row that explains nothing is stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness._json import loads
from harness.events import End, TextDelta
from harness.recording import Exchange, read_cassette
from harness.upstream import Conversation, Emit, Script
from harness.upstream._dispatch import ConversationState, dispatch
from harness.upstream._plan import Head, Write
from tools.fidelity._compare import SDK_HEADERS, Difference
from tools.fidelity._kept import Kept
from tools.fidelity._shapes import paths

__all__ = [
    "ERROR_RECORDINGS",
    "KEPT_ERRORS",
    "ErrorExchange",
    "ErrorReport",
    "answer",
    "compare_errors",
    "compare_one",
    "error_exchanges",
]

ERROR_RECORDINGS: dict[str, tuple[str, str, str]] = {
    "deepseek-400-ds1": ("openai-chat", "reasoning_content", "deepseek-v3.2"),
    "deepseek-400-ds2": ("openai-chat", "reasoning_content", "deepseek-v4"),
}
"""``recordings/NAME.jsonl`` holding an error answer -> (dialect, variant, the provider rules that play
its provider). tests/fidelity/test_errors.py checks every error recording is named here."""

KEPT_ERRORS: tuple[Kept, ...] = (
    Kept(
        "openai-chat",
        "message",
        "deepseek-reasoning-content-missing",
        "*message index 1*(recorded: *message index 2*",
        "The mock names the assistant message's own index in messages[] (1 here); the recording was "
        "composed from reports whose requests are not public (wire-formats.md section 7), its request "
        "has the assistant at index 1 and its message the reports' 2: which index DeepSeek counts is not "
        "established by a captured exchange.",
        "deepseek-400-ds1#0",
    ),
)
"""Differences on the error path the mock keeps, each with its reason."""


@dataclass(frozen=True, slots=True)
class ErrorExchange:
    label: str  # file#n
    dialect: str
    variant: str | None
    rules: str
    exchange: Exchange


def error_exchanges(recordings: Path, corpus: Sequence[Any] = ()) -> list[ErrorExchange]:
    """Every recorded exchange answered with an error: ``recordings/*.jsonl`` and the corpus's."""
    out: list[ErrorExchange] = []
    for path in sorted(recordings.glob("*.jsonl")):
        for n, ex in enumerate(read_cassette(path).exchanges):
            if ex.status >= 400:
                dialect, variant, rules = ERROR_RECORDINGS.get(path.stem, ("?", None, "?"))
                out.append(ErrorExchange(f"{path.stem}#{n}", dialect, variant, rules, ex))
    for cx in corpus:
        if cx.exchange.status >= 400:
            out.append(
                ErrorExchange(cx.label, cx.dialect, cx.file.variant, cx.file.provider_rules, cx.exchange)
            )
    return out


def answer(ee: ErrorExchange) -> tuple[int, tuple[tuple[str, str], ...], bytes]:
    """The mock's answer to the recorded request, its script a plain answer the rules may refuse."""
    script = Script(
        ee.dialect, (Emit((TextDelta("ok"), End())),), variant=ee.variant, provider_rules=ee.rules
    )
    state = ConversationState(Conversation((script,), name=ee.label))
    ex = ee.exchange
    _, plan = dispatch(
        state, method=ex.method, target=ex.path, headers=tuple(ex.request_headers), body=ex.request_body, t=0
    )
    head = next((a for a in plan.actions if isinstance(a, Head)), None)
    body = b"".join(a.data for a in plan.actions if isinstance(a, Write))
    return (head.status if head else 0), (head.headers if head else ()), body


def _header(headers: Sequence[tuple[str, str]], name: str) -> str | None:
    return next((v for k, v in headers if k.lower() == name.lower()), None)


def _json(data: bytes) -> Any:
    try:
        return loads(data)
    except ValueError:
        return None


def compare_one(ee: ErrorExchange) -> list[Difference]:
    d, where, ex = ee.dialect, ee.label, ee.exchange
    status, headers, body = answer(ee)
    diffs: list[Difference] = []
    if status != ex.status:
        diffs.append(Difference(d, "status", str(status), f"recorded {ex.status}", where))
    real_ct = (ex.header("content-type") or "").replace(" ", "").lower()
    mock_ct = (_header(headers, "content-type") or "").replace(" ", "").lower()
    if real_ct != mock_ct:
        diffs.append(
            Difference(d, "header", "content-type", f"{mock_ct or '-'} (recorded: {real_ct})", where)
        )
    for name, _ in SDK_HEADERS.get(d, ()):
        if ex.header(name) is not None and _header(headers, name) is None:
            diffs.append(Difference(d, "header", name, "missing", where))
    real, mock = _json(ex.body), _json(body)
    rp, mp = paths(real), paths(mock)
    for path in sorted(set(mp) - set(rp)):
        diffs.append(Difference(d, "field", "error", f"invented {path}", where))
    for path in sorted(set(rp) - set(mp)):
        diffs.append(Difference(d, "field", "error", f"missing {path}", where))
    for path in sorted(set(rp) & set(mp)):
        if rp[path] != mp[path]:
            got, want = "/".join(sorted(mp[path])), "/".join(sorted(rp[path]))
            diffs.append(Difference(d, "type", "error", f"{path}: {got} (recorded: {want})", where))
    said, recorded = _message(mock), _message(real)
    if said != recorded:
        diffs.append(Difference(d, "message", _rule_of(ee), f"{said!r} (recorded: {recorded!r})", where))
    return diffs


def _message(obj: Any) -> Any:
    err = obj.get("error") if isinstance(obj, dict) else None
    return err.get("message") if isinstance(err, dict) else None


def _rule_of(ee: ErrorExchange) -> str:
    """The provider rule that refused the recorded request (its name, for the kept table)."""
    from harness.dialects import get_dialect

    rules = get_dialect(ee.dialect).provider_rules().get(ee.rules)
    request = _json(ee.exchange.request_body)
    rejection = rules.validate(request, ()) if rules is not None and isinstance(request, dict) else None
    return rejection.rule if rejection is not None else "-"


@dataclass
class ErrorReport:
    compared: list[str]
    explained: dict[Kept, list[Difference]]
    unexplained: list[Difference]
    stale: list[Kept]


def compare_errors(exchanges: Sequence[ErrorExchange], kept: Sequence[Kept] = KEPT_ERRORS) -> ErrorReport:
    used: dict[Kept, list[Difference]] = {row: [] for row in kept}
    unexplained: list[Difference] = []
    for ee in exchanges:
        for diff in compare_one(ee):
            row = next((r for r in kept if diff.matches(r)), None)
            if row is None:
                unexplained.append(diff)
            else:
                used[row].append(diff)
    return ErrorReport(
        [ee.label for ee in exchanges],
        {row: got for row, got in used.items() if got},
        unexplained,
        [row for row, got in used.items() if not got],
    )
