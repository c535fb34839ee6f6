"""The keepalive check: while the upstream is silent for longer than the client's read timeout, the scenario's
``client_read_timeout``, the SUT keeps its client's SSE stream alive. Here a time figure decides a verdict,
because the requirement is itself a deadline: the client of a proxy or an SDK gives up after its read
timeout without a byte."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from harness.judge._base import check, judged_turns, na
from harness.judge._view import CaseView, TurnView
from harness.timeline import Entry
from harness.verdict import Finding, Verdict

__all__: list[str] = []

# Silence is read off the timeline, as gaps between the upstream's writes of a turn; bytes are the client's
# reads, where a comment line, a ping the SUT relayed and the response head all count. A front door that is
# not an SSE stream over HTTP, an in-process SDK or a CLI's stdout, has no read timeout to keep: N/A.
_NAME = "keepalive"
_CLOSING = ("end", "error")
"""Client entries that close its read of a turn (the last gap runs to them when no byte came after)."""


def _sse_head(view: CaseView, turn: int) -> Entry | None:
    """The turn's response head when it opened an SSE stream (the client's ``status`` entry)."""
    for e in view.by_key.get(("client", "status", turn), []):
        headers = e.info.get("headers") or {}
        ctype = next((str(v) for k, v in dict(headers).items() if str(k).lower() == "content-type"), "")
        if ctype.split(";")[0].strip().lower() == "text/event-stream":
            return e
    return None


def _silences(t: TurnView, timeout_ns: int) -> list[tuple[Entry, Entry]]:
    """Consecutive upstream entries further apart than the read timeout: (the last before, the first
    after), from the SUT's request on (a whole answer after a long think is a silence too). The
    upstream's own keepalives (writes tagged ``keepalive``) do not end a silence: a SUT that relays
    them keeps its client alive, one that drops them does not."""
    writes = (e for e in t.writes if "keepalive" not in e.info.get("tags", ()))
    ws = sorted([*t.requests, *writes], key=lambda e: e.t)
    return [(a, b) for a, b in pairwise(ws) if b.t - a.t > timeout_ns]


def _longest_gap(reads: list[Entry], start: int, stop: int) -> tuple[Entry, Entry] | None:
    """The longest gap between consecutive client reads that overlaps [start, stop]."""
    best: tuple[Entry, Entry] | None = None
    for a, b in pairwise(reads):
        if b.t > start and a.t < stop and (best is None or b.t - a.t > best[1].t - best[0].t):
            best = (a, b)
    return best


def _client_reads(view: CaseView, t: TurnView, head: Entry) -> list[Entry]:
    """The client's bytes of the turn in time order (its head, every chunk), then what closed it."""
    reads = sorted([head, *t.chunks], key=lambda e: e.t)
    closing = [e for k in _CLOSING for e in view.by_key.get(("client", k, t.turn), [])]
    later = [e for e in closing if e.t >= reads[-1].t]
    return reads + sorted(later, key=lambda e: e.t)[:1]


@check(
    _NAME,
    "While the upstream is silent for longer than the client's read timeout the scenario declares, the "
    "SUT keeps its client's SSE stream alive (a comment line, its dialect's keepalive such as Anthropic's "
    "ping, or the upstream's relayed): a gap past the interval its profile claims (stream_keepalive = "
    "SECONDS) FAILs; without a claim, a gap past the case's scaled read timeout is NON_STRICT.",
)
def keepalive(view: CaseView) -> Finding:
    timeout = view.case.scenario.client_read_timeout
    if timeout is None:
        return na(_NAME, "the scenario declares no client read timeout")
    if not view.case.stream:
        return na(_NAME, "non-streaming request")
    claimed = view.keepalive_every
    bound = timeout if claimed is None else claimed + max(0.2, claimed / 5)  # jitter of a timer's tick
    timeout_ns = int(timeout * 1e9)
    t0 = min((e.t for e in view.of("client", "request")), default=0)

    def ms(e: Entry) -> str:
        return f"+{(e.t - t0) / 1e6:.1f} ms"

    judged = streams = 0
    longest_silence = 0.0
    worst: tuple[float, str, list[Entry]] = (0.0, "", [])
    for t in judged_turns(view):
        head = _sse_head(view, t.turn)
        if head is None:
            continue
        streams += 1
        silences = _silences(t, timeout_ns)
        if not silences:
            continue
        reads = _client_reads(view, t, head)
        for before, after in silences:
            gap = _longest_gap(reads, before.t, after.t)
            if gap is None:  # the client had stopped reading before the silence: not this check's
                continue
            judged += 1
            seconds = (gap[1].t - gap[0].t) / 1e9
            quiet = (after.t - before.t) / 1e9
            longest_silence = max(longest_silence, quiet)
            if seconds >= bound and (claimed is None or quiet > bound):
                return _silent_client(
                    claimed,
                    timeout,
                    message=f"turn {t.turn}: the client got no byte for {seconds:.2f} s (from {ms(gap[0])} "
                    f"to {ms(gap[1])}) while the upstream was silent for {quiet:.2f} s (from {ms(before)} "
                    f"to {ms(after)})",
                    actual=f"a {seconds:.2f} s gap ({ms(gap[0])} .. {ms(gap[1])})",
                    evidence=view.cite([before, after], list(gap)),
                    data={"gap_ms": round(seconds * 1000, 1), "silence_ms": round(quiet * 1000, 1)},
                )
            if seconds >= worst[0]:
                kept = sum(1 for e in t.chunks if before.t < e.t < after.t)
                said = f"{quiet:.2f} s of upstream silence in turn {t.turn}, {kept} read(s) in it"
                worst = (seconds, said, [before, after, *gap])
    if not streams:
        return na(_NAME, "the SUT's client got no SSE stream over HTTP (an in-process SDK, a CLI's output)")
    if not judged:
        return na(_NAME, f"the upstream was never silent for longer than the {timeout:g} s read timeout")
    if claimed is not None and longest_silence <= bound:
        return na(
            _NAME,
            f"the upstream's longest silence ({longest_silence:.2f} s) is within the {claimed:g} s the SUT "
            "claims between keepalives (profile stream_keepalive): this case cannot judge that claim",
        )
    return Finding(
        _NAME,
        Verdict.PASS,
        message=f"longest gap between the client's bytes while the upstream was silent: {worst[0]:.2f} s "
        f"(read timeout {timeout:g} s{'' if claimed is None else f', claimed interval {claimed:g} s'}; "
        f"{worst[1]})",
        evidence=view.cite(worst[2]),
        data={"gap_ms": round(worst[0] * 1000, 1)},
    )


def _silent_client(claimed: float | None, timeout: float, **said: Any) -> Finding:
    """A silence the client sat through. Against the interval the SUT claims it is a FAIL. Without a
    claim it is NON_STRICT: the case's read timeout is scaled for CI, so a SUT that keeps alive at a
    longer, real-world interval would show the same gap."""
    if claimed is not None:
        return Finding(
            _NAME,
            Verdict.FAIL,
            message=f"{said.pop('message')}: the SUT claims a byte at least every {claimed:g} s "
            "(profile stream_keepalive)",
            expected=f"a byte (a keepalive) at least every {claimed:g} s of upstream silence",
            **said,
        )
    return Finding(
        _NAME,
        Verdict.NON_STRICT,
        message=f"{said.pop('message')}: a client with this case's {timeout:g} s read timeout (scaled for "
        "CI) gives up. The profile names no keepalive interval; set stream_keepalive = SECONDS to have "
        "the gap judged against it, or false if the SUT sends none",
        expected=f"a byte (a keepalive) at least every {timeout:g} s of upstream silence",
        **said,
    )
