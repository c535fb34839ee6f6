"""The swimlane picture of one case's timeline: upstream writes on top, client observations below, one ms
axis, and each failing finding's evidence outlined in red. It is pure string building with no JS, so the
same picture serves the HTML report, JUnit and the pytest plugin."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path
from typing import Any

from harness.report._common import entry_channel, entry_text, esc, failing_case
from harness.runner import RunResult
from harness.verdict import CaseResult

__all__ = ["COLOURS", "SWIMLANES", "svg_name", "timeline_svg", "write_swimlanes"]

SWIMLANES = "swimlanes"
"""The folder the swimlane files go to, inside a report dir (or beside a JUnit file)."""

COLOURS = {
    "reasoning": "#8e44ad",
    "text": "#2e86de",
    "tool": "#e67e22",
    "error": "#d63031",
    "end": "#2d3436",
    "meta": "#95a5a6",
}
_W, _LEFT, _RIGHT = 960, 84, 16
_UP_Y, _CL_Y, _LANE_H = 22, 92, 56
_SUT_Y, _SUT_H = _CL_Y + _LANE_H + 8, 18
_AXIS_Y = _SUT_Y + _SUT_H + 6
_H = _AXIS_Y + 46
_EVIDENCE = "#d63031"
_UP_ACTS = frozenset({"write", "request", "rejected", "response-end", "fault", "server-error"})
_MARKERS = {("client", "cancel"): "cancel", ("upstream", "disconnect"): "disconnect"}


def timeline_svg(case: CaseResult, width: int = _W) -> str:
    """An ``<svg>`` element (no XML declaration) picturing ``case.timeline``.

    Reasoning and answer get distinct colours and a legend. Every text goes through ``esc``. The marks
    carry classes such as ``tick up reasoning``, ``gate``, ``marker cancel`` and ``evidence``, and evidence
    marks carry ``data-checks``, so tests and CSS can find them.
    """
    tl = case.timeline
    cited: dict[int, list[str]] = {}
    for f in case.failing():
        for i in f.evidence:
            if 0 <= i < len(tl) and f.check not in cited.setdefault(i, []):
                cited[i].append(f.check)
    evidence = set(cited)
    height = _H + (16 if cited else 0)
    t_max = max((float(e.get("t_ms", 0.0)) for e in tl), default=0.0) or 1.0
    plot = width - _LEFT - _RIGHT

    def x(t: Any) -> float:
        return round(_LEFT + plot * max(0.0, float(t)) / t_max, 2)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="timeline of {esc(case.case_id)}" '
        'font-family="sans-serif" font-size="11">',
        f"<title>{esc(case.case_id)}: {len(tl)} timeline entries over {t_max:.1f} ms</title>",
        f'<rect class="lane" x="{_LEFT}" y="{_UP_Y}" width="{plot}" height="{_LANE_H}" fill="#f7f7f9"/>',
        f'<rect class="lane" x="{_LEFT}" y="{_CL_Y}" width="{plot}" height="{_LANE_H}" fill="#f7f7f9"/>',
        f'<text x="6" y="{_UP_Y + 32}">upstream</text>',
        f'<text x="6" y="{_CL_Y + 32}">client</text>',
        f'<rect class="lane" x="{_LEFT}" y="{_SUT_Y}" width="{plot}" height="{_SUT_H}" fill="#fbfbfc"/>',
        f'<text x="6" y="{_SUT_Y + 13}" font-size="10">sut/harness</text>',
    ]
    parts += _gates(tl, x, t_max, evidence)
    parts += _axis(t_max, x)
    if not tl:
        parts.append(f'<text x="{_LEFT + 8}" y="{_CL_Y - 6}" fill="#636e72">no timeline recorded</text>')
    parts += [_entry_mark(i, e, x, cited.get(i, [])) for i, e in enumerate(tl)]
    parts += _legend(width)
    if cited:
        parts += _evidence_legend(cited)
    parts.append("</svg>")
    return "".join(parts)


def _entry_mark(i: int, e: dict[str, Any], x: Any, checks: list[str]) -> str:
    """One timeline entry's mark ("" for entries no lane shows); a cited one is outlined in red and
    carries ``data-checks`` (the checks citing it) and their names in its tooltip."""
    side, act = e.get("side"), e.get("act")
    title = f"#{i} {float(e.get('t_ms', 0)):.2f} ms {side} {act}: {entry_text(e, 300)}"
    if checks:
        title = f"evidence of {', '.join(checks)} · {title}"
    ev = f' evidence" data-checks="{esc(" ".join(checks))}' if checks else ""
    xx = x(e.get("t_ms", 0))
    marker = _MARKERS.get((str(side), str(act)))
    if marker:
        colour = "#d63031" if marker == "cancel" else "#e17055"
        return (
            f'<g class="marker {marker}{ev}"><title>{esc(title)}</title>'
            f'<line x1="{xx}" y1="{_UP_Y - 6}" x2="{xx}" y2="{_AXIS_Y}" stroke="{colour}" '
            f'stroke-width="{3 if checks else 2}" stroke-dasharray="4 3"/>'
            f'<text x="{xx + 3}" y="{_UP_Y - 8}" fill="{colour}">{marker}</text></g>'
        )
    lane = _lane(e)
    if lane is None:
        return _process_mark(e, xx, title, ev) if side in ("sut", "harness") else ""
    channel = entry_channel(e)
    chunk = side == "client" and act == "chunk"
    y0 = lane + (_LANE_H - 14 if chunk else 6)
    h = 10 if chunk else _LANE_H - 24
    colour = "#b2bec3" if chunk else COLOURS[channel]
    cls = f"tick {'up' if lane == _UP_Y else 'client'} {'chunk' if chunk else channel}{ev}"
    mark = f'<g class="{cls}"><title>{esc(title)}</title>'
    if checks:
        mark += (
            f'<rect x="{xx - 4}" y="{lane + 1}" width="9" height="{_LANE_H - 2}" '
            f'fill="#ffeaa7" stroke="{_EVIDENCE}" stroke-width="1.5"/>'
        )
    return mark + f'<rect x="{xx - 1}" y="{y0}" width="3" height="{h}" fill="{colour}"/></g>'


def _evidence_legend(cited: dict[int, list[str]]) -> list[str]:
    """The last line: which check cites which entries (``evidence of incremental: #2 #3 #8``)."""
    by_check: dict[str, list[int]] = {}
    for i in sorted(cited):
        for c in cited[i]:
            by_check.setdefault(c, []).append(i)
    said = "; ".join(
        f"{c}: " + " ".join(f"#{i}" for i in idx[:12]) + (" …" if len(idx) > 12 else "")
        for c, idx in by_check.items()
    )
    y = _H + 8
    return [
        f'<g class="evidence-legend"><rect x="{_LEFT}" y="{y - 8}" width="9" height="9" fill="#ffeaa7" '
        f'stroke="{_EVIDENCE}" stroke-width="1.5"/>'
        f'<text x="{_LEFT + 12}" y="{y}" fill="{_EVIDENCE}">evidence of {esc(said)}</text></g>'
    ]


def svg_name(case_id: str) -> str:
    """A file name for a case's swimlane: the id made file-safe, cut, with a short hash of the id."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", case_id).strip("_")[:100]
    return f"{safe}-{hashlib.sha1(case_id.encode()).hexdigest()[:8]}.svg"


def write_swimlanes(run: RunResult, out_dir: str | Path) -> dict[str, Path]:
    """One standalone SVG file per case that did not pass and has a timeline, in ``out_dir`` (created
    when there is one); returns case id -> path.

    The pytest plugin names these files in its failure message, and JUnit links them.
    """
    out: dict[str, Path] = {}
    for r in run.results:
        if not r.timeline or not failing_case(r):
            continue
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / svg_name(r.case_id)
        path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + timeline_svg(r) + "\n", encoding="utf-8")
        out[r.case_id] = path
    return out


_PROBLEMS = frozenset({"process-left", "dir-left", "timeout", "stderr"})


def _process_mark(e: dict[str, Any], xx: float, title: str, ev: str) -> str:
    """A small diamond in the sut/harness lane (red when it is a leftover or a problem)."""
    bad = e.get("act") in _PROBLEMS or (e.get("act") == "exit" and (e.get("info") or {}).get("code"))
    colour = "#d63031" if bad else "#636e72"
    cy, r = _SUT_Y + _SUT_H / 2, 5
    halo = (
        f'<rect x="{xx - 7}" y="{_SUT_Y}" width="14" height="{_SUT_H}" fill="#ffeaa7" stroke="{_EVIDENCE}"/>'
        if ev
        else ""
    )
    return (
        f'<g class="tick sut {esc(e.get("act", ""))}{ev}"><title>{esc(title)}</title>{halo}'
        f'<path d="M{xx} {cy - r}L{xx + r} {cy}L{xx} {cy + r}L{xx - r} {cy}Z" fill="{colour}"/></g>'
    )


def _lane(e: dict[str, Any]) -> int | None:
    side, act = e.get("side"), e.get("act")
    if side == "upstream" and act in _UP_ACTS:
        return _UP_Y
    if side == "client" and act in ("chunk", "event", "status", "end", "error", "request"):
        return _CL_Y
    return None


def _gates(tl: list[dict[str, Any]], x: Any, t_max: float, evidence: set[int]) -> list[str]:
    """Shaded spans from each ``gate-wait`` to the next ``gate-open`` / ``gate-timeout`` (FIFO)."""
    out: list[str] = []
    opened: list[tuple[int, dict[str, Any]]] = []
    for i, e in enumerate(tl):
        if e.get("side") != "upstream":
            continue
        act = e.get("act")
        if act == "gate-wait":
            opened.append((i, e))
        elif act in ("gate-open", "gate-timeout") and opened:
            n, start = opened.pop(0)
            ev = n in evidence or i in evidence
            out.append(_gate_rect(start, e, x, act == "gate-timeout", ev))
    for n, start in opened:  # never released within the timeline
        end = {"t_ms": t_max, "act": "(still waiting)"}
        out.append(_gate_rect(start, end, x, True, n in evidence))
    return out


def _gate_rect(start: dict[str, Any], end: dict[str, Any], x: Any, timed_out: bool, ev: bool) -> str:
    x0, x1 = x(start.get("t_ms", 0)), x(end.get("t_ms", 0))
    info = start.get("info") or {}
    cond = info.get("condition", "") if isinstance(info, dict) else ""
    title = (
        f"gate {cond} waited {float(end.get('t_ms', 0)) - float(start.get('t_ms', 0)):.2f} ms"
        f" -> {end.get('act')}"
    )
    fill = "#fab1a0" if timed_out else "#ffeaa7"
    cls = ("gate timeout" if timed_out else "gate") + (" evidence" if ev else "")
    stroke = ' stroke="#e17055" stroke-width="2"' if ev else ""
    return (
        f'<g class="{cls}"><title>{esc(title)}</title>'
        f'<rect x="{x0}" y="{_UP_Y}" width="{max(x1 - x0, 2)}" height="{_LANE_H}" fill="{fill}" '
        f'fill-opacity="0.7"{stroke}/>'
        f'<text x="{x0 + 2}" y="{_UP_Y + _LANE_H - 3}" font-size="9" fill="#636e72">'
        f"{'gate timeout' if timed_out else 'gate'}</text></g>"
    )


def _axis(t_max: float, x: Any) -> list[str]:
    out = [
        f'<line x1="{_LEFT}" y1="{_AXIS_Y}" x2="{x(t_max)}" y2="{_AXIS_Y}" stroke="#636e72"/>',
    ]
    step = _nice_step(t_max / 8)
    n = 0
    while n * step <= t_max + 1e-9 and n <= 20:
        t = n * step
        xx = x(t)
        out.append(
            f'<line x1="{xx}" y1="{_AXIS_Y}" x2="{xx}" y2="{_AXIS_Y + 4}" stroke="#636e72"/>'
            f'<text x="{xx}" y="{_AXIS_Y + 15}" text-anchor="middle" fill="#636e72">{t:g}</text>'
        )
        n += 1
    out.append(f'<text x="6" y="{_AXIS_Y + 15}" fill="#636e72">ms</text>')
    return out


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least ``raw``."""
    if raw <= 0:
        return 1.0
    mag = 10.0 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 5, 10) if raw <= m * mag * (1 + 1e-9))


def _legend(width: int) -> list[str]:
    out, xx = [], _LEFT
    y = _H - 10
    for name in ("reasoning", "text", "tool", "error", "end", "meta"):
        out.append(f'<rect x="{xx}" y="{y - 8}" width="9" height="9" fill="{COLOURS[name]}"/>')
        out.append(f'<text x="{xx + 12}" y="{y}">{_LEGEND.get(name, name)}</text>')
        xx += 80
    out.append(f'<rect x="{xx}" y="{y - 8}" width="9" height="9" fill="#b2bec3"/>')
    out.append(f'<text x="{xx + 12}" y="{y}">client chunk</text>')
    xx += 100
    out.append(f'<rect x="{xx}" y="{y - 8}" width="9" height="9" fill="#ffeaa7" stroke="#fdcb6e"/>')
    out.append(f'<text x="{xx + 12}" y="{y}">gate</text>')
    return out


_LEGEND = {"text": "answer", "end": "end", "meta": "other"}
