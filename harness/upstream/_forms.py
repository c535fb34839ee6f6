"""The form an answer takes, from the request it answers. A real provider leaves out what the request did not
ask for, so the mock, its ``withheld`` record and recorded replays all decide it here."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from harness._json import loads
from harness.dialects import Answer, answer_for, applied_defaults, get_dialect, provider_of
from harness.timeline import Timeline
from harness.upstream._script import Emit, Script

__all__ = ["answer_of", "answered_chunks", "read_as", "withheld_entry"]


def answer_of(script: Script, request: Mapping[str, Any] | None, *, stream: bool, target: str = "") -> Answer:
    """How the provider the script plays answers ``request`` (None, no request bound, as in a plan
    built without one: the scripted form). The display default follows the model the case plays, or
    the one the request names (in its body, or in ``target``, its path)."""
    variant = script.variant or get_dialect(script.dialect).default_variant
    if request is None:
        return Answer(variant)
    model = provider_of(script.dialect, variant, script.provider_rules).model
    rules = script.provider_rules
    return answer_for(
        script.dialect, variant, request, rules=rules, stream=stream, model=model, target=target
    )


def read_as(script: Script, request: Mapping[str, Any], target: str = "") -> Mapping[str, Any]:
    """``request`` as the provider the script plays reads it, its model's defaults filled in (a Claude
    model that thinks by default reads an omitted ``thinking`` as adaptive): what its strict rules judge."""
    variant = script.variant or get_dialect(script.dialect).default_variant
    model = provider_of(script.dialect, variant, script.provider_rules).model
    return applied_defaults(script.dialect, request, model=model, target=target)


def withheld_entry(
    tl: Timeline, turn: int, script: Script, request: Mapping[str, Any], stream: bool, target: str = ""
) -> None:
    """A ``withheld`` entry when the request did not ask for a form the case is about (the table's
    premise rows): the real API sends its default form then, and the verdict says so."""
    answer = answer_of(script, request, stream=stream, target=target)
    scripted = tuple(ev for st in script.steps if isinstance(st, Emit) for ev in st.events)
    rows = answer.withheld(scripted) if answer.off else ()
    if rows:
        tl.add(
            "upstream",
            "withheld",
            turn=turn,
            rows=[r.name for r in rows],
            fields=[r.field for r in rows],
            forms=[r.form for r in rows],
            defaults=[r.default for r in rows],
            played=answer.variant,
        )


_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


def _usage_only(event: bytes) -> bool:
    """A ``choices: []`` chunk with a usage object: what only ``include_usage`` asks for."""
    data = b"".join(line[5:].lstrip(b" ") for line in event.splitlines() if line.startswith(b"data:"))
    if not data or data.strip() == b"[DONE]":
        return False
    try:
        obj = loads(data)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(obj, dict) and obj.get("choices") == [] and isinstance(obj.get("usage"), dict)


def _asked_usage(request: Mapping[str, Any]) -> bool:
    opts = request.get("stream_options")
    return isinstance(opts, Mapping) and opts.get("include_usage") is True


def answered_chunks(
    chunks: Sequence[bytes], dialect: str, request: Mapping[str, Any] | None, *, stream: bool
) -> tuple[bytes, ...]:
    """``chunks`` as the provider would have answered ``request``: without the usage-only chunk of a
    Chat Completions stream the request did not ask usage for (recorded: corpus/openai-chat-tools-
    stream.jsonl asked for it and has one; corpus/groq-reasoning-stream.jsonl did not and has none).
    ``request`` None: no request bound, the recording as it is.

    A recording made for a request that asked for a form loses it when the replayed-to request does not
    ask, for example a Chat Completions usage chunk without ``stream_options.include_usage``. A replay
    keeps every other byte and its chunk boundaries, dropping whole SSE events only.
    """
    if request is None or dialect != "openai-chat" or not stream or _asked_usage(request):
        return tuple(chunks)
    whole = b"".join(chunks)
    drop: list[tuple[int, int]] = []
    start = 0
    for m in _EVENT_END.finditer(whole):
        if _usage_only(whole[start : m.start()]):
            drop.append((start, m.end()))
        start = m.end()
    if not drop:
        return tuple(chunks)
    out: list[bytes] = []
    pos = 0
    for c in chunks:  # each chunk keeps its bytes outside the dropped events: boundaries stay
        end = pos + len(c)
        kept = bytearray()
        cut = pos
        for a, b in drop:
            if b <= pos or a >= end:
                continue
            kept += whole[cut : max(a, pos)]
            cut = min(b, end)
        kept += whole[cut:end]
        if kept:
            out.append(bytes(kept))
        pos = end
    return tuple(out)
