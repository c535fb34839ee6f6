"""What every renderer shares: a case's outcome word, a timeline entry's channel and text, escaping. Renderers
decide layout only; how a case or a frame is classified is decided here, once."""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from harness.verdict import CaseResult, Finding, Status, Verdict, is_failure

__all__ = [
    "CHANNELS",
    "entry_channel",
    "entry_text",
    "esc",
    "failing_case",
    "finding_lines",
    "first_line",
    "outcome",
    "unclaimed",
    "xml_safe",
]

CHANNELS = ("reasoning", "text", "tool", "error", "end", "meta")

# Characters XML 1.0 forbids (C0 controls except TAB/LF/CR, surrogates, U+FFFE/U+FFFF).
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with characters XML cannot carry shown as ``\\xNN`` / ``\\uNNNN``."""
    return _XML_BAD.sub(lambda m: _show(m.group()), text)


def _show(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def esc(text: object, quote: bool = True) -> str:
    """Escape for XML/HTML text and attribute values (also strips what XML cannot carry)."""
    s = xml_safe(str(text)).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        s = s.replace('"', "&quot;").replace("'", "&#39;")
    return s


def first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def outcome(r: CaseResult) -> str:
    """One word for a case: ``PASS``, ``FAIL``, ``UNCLEAN``, ``NON_STRICT``, ``INFO``, ``UNSUPPORTED``,
    ``ERROR``, ``TIMEOUT``, ``XFAIL`` (a failure the expectations file covers)."""
    if r.fails(strict=False) and not r.unexpected and r.expected:
        return "XFAIL"
    if r.status != Status.OK:
        return r.status.value
    if r.stream == Verdict.FAIL:
        return "FAIL"
    if is_failure(r.cleanup, strict=False):
        return r.cleanup.value
    if r.unexpected:  # NON_STRICT under --strict
        return r.stream.value if r.stream != Verdict.PASS else "FAIL"
    return r.stream.value


def finding_lines(f: Finding) -> list[str]:
    """A failing finding, h2spec-style: ``  [check] VERDICT: message``, then Expected / Actual."""
    lines = [f"  [{f.check}] {f.verdict.value}: {f.message}"]
    if f.expected:
        lines.append(f"    Expected: {f.expected}")
    if f.actual:
        lines.append(f"    Actual:   {f.actual}")
    return lines


def failing_case(r: CaseResult) -> bool:
    """A case that did not pass: a failure (expected or not), an error or timeout, or anything the run
    counted as unexpected (NON_STRICT under --strict).

    What counts as failing is ``harness.verdict.is_failure`` and ``CaseResult.fails``, the one rule of the
    suite.
    """
    return r.unexpected or outcome(r) in ("FAIL", "UNCLEAN", "ERROR", "TIMEOUT", "XFAIL")


_EVENT_CHANNEL = {
    "ReasoningDelta": "reasoning",
    "ReasoningSignature": "reasoning",
    "RedactedReasoning": "reasoning",
    "TextDelta": "text",
    "ToolCallDelta": "tool",
    "StreamError": "error",
    "End": "end",
}
_TAG_CHANNEL = (
    ("error", "error"),
    ("terminal", "end"),
    ("tool", "tool"),
    ("reasoning", "reasoning"),
    ("reasoning-done", "reasoning"),
    ("text", "text"),
    ("repeat", "text"),
)


def entry_channel(entry: dict[str, Any]) -> str:
    """``reasoning`` / ``text`` / ``tool`` / ``error`` / ``end`` / ``meta`` for a timeline entry."""
    event = entry.get("event")
    if isinstance(event, dict):
        return _EVENT_CHANNEL.get(str(event.get("type", "")), "meta")
    act = entry.get("act")
    if act in ("error", "server-error", "rejected", "gate-timeout"):
        return "error"
    if act in ("end", "response-end"):
        return "end"
    info = entry.get("info")
    tags = info.get("tags") if isinstance(info, dict) else None
    if isinstance(tags, list | tuple):
        names = {str(t) for t in tags}
        for tag, channel in _TAG_CHANNEL:
            if tag in names:
                return channel
    return "meta"


def entry_text(entry: dict[str, Any], limit: int = 4096) -> str:
    """The human-readable content of an entry: its bytes (base64 decoded; invalid UTF-8 shown as
    ``\\xNN``), else its event, else its info."""
    if "text" in entry:
        text = str(entry["text"])
    elif "base64" in entry:
        try:
            raw = base64.b64decode(str(entry["base64"]), validate=True)
            text = raw.decode("utf-8", errors="backslashreplace")
        except (binascii.Error, ValueError):
            text = "base64:" + str(entry["base64"])
    elif isinstance(entry.get("event"), dict):
        text = json.dumps(entry["event"], ensure_ascii=False)
    elif entry.get("info"):
        text = json.dumps(entry["info"], ensure_ascii=False, default=str)
    else:
        text = ""
    if entry.get("truncated"):
        text += f" … [truncated, {entry['truncated']} bytes]"
    return text if len(text) <= limit else text[:limit] + "…"


def unclaimed(results: Any) -> dict[str, list[str]]:
    """Cases UNSUPPORTED because the SUT does not claim their provider's semantics (profile
    ``providers``), by provider: what a report lists so nothing is hidden silently."""
    out: dict[str, list[str]] = {}
    for r in results:
        for f in r.findings:
            if f.check == "support" and "semantics (profile providers" in f.message:
                provider = f.message.split("the SUT does not claim ", 1)[-1].split("'s", 1)[0]
                out.setdefault(provider, []).append(r.case_id)
    return out
