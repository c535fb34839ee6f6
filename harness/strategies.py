"""Hypothesis strategies for fuzzing your own SUT: chunkings, perturbations, wire variants, whole reasoning
turns, and the cases of a scenario. They are public so that shrinking finds the minimal split that breaks a
user's SUT."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from harness.dialects import Caps, Variant, all_variants, get_dialect
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextDelta,
    ToolCallDelta,
    Usage,
)

__all__ = ["Chunking", "from_scenario", "perturbations", "reasoning_turns", "sse_chunkings", "wire_variants"]


@dataclass(frozen=True, slots=True)
class Chunking:
    """Cut points into a byte stream (taken modulo its length): shrinks towards fewer, earlier cuts."""

    cuts: tuple[int, ...]

    def split(self, data: bytes) -> list[bytes]:
        if not data:
            return []
        points = sorted({c % len(data) for c in self.cuts} - {0})
        out, last = [], 0
        for p in points:
            out.append(data[last:p])
            last = p
        out.append(data[last:])
        return out

    def pieces(self, pieces: Iterable[bytes]) -> list[bytes]:
        return self.split(b"".join(pieces))


# Following hypothesis' API style: plural nouns, keyword-only arguments, and bad arguments raise when the
# test runs.
def sse_chunkings(*, max_cuts: int = 64) -> st.SearchStrategy[Chunking]:
    """How a byte stream is split into reads/writes."""
    if max_cuts < 0:
        raise ValueError(f"max_cuts must be >= 0, got {max_cuts!r}")
    return st.builds(
        Chunking, st.lists(st.integers(min_value=1, max_value=1 << 20), max_size=max_cuts).map(tuple)
    )


def perturbations(*, transport: str = "sse", lossless: bool = True) -> st.SearchStrategy[str]:
    """Names of framing perturbations (``harness.codec.PERTURBATIONS``) valid for a transport."""
    from harness.codec import PERTURBATIONS

    names = []
    for name in PERTURBATIONS:
        entry = PERTURBATIONS[name]
        transports = getattr(entry, "transports", None)
        if transports is not None and transport not in transports:
            continue
        if lossless and not getattr(entry, "lossless", True):
            continue
        names.append(name)
    if not names:
        raise ValueError(f"no perturbation for transport {transport!r}")
    return st.sampled_from(sorted(names))


def wire_variants(
    *, dialects: Sequence[str] | None = None, caps: Iterable[str] = ()
) -> st.SearchStrategy[Variant]:
    """Reasoning wire variants (optionally of some dialects, having some capabilities)."""
    need = {Caps(c) for c in caps}
    pool = [v for v in all_variants() if (dialects is None or v.dialect in dialects) and need <= v.caps]
    if not pool:
        raise ValueError(f"no variant of {dialects!r} has capabilities {sorted(need)}")
    return st.sampled_from(pool)


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)


def reasoning_turns(
    *, variant: Variant | str | None = None, max_deltas: int = 6
) -> st.SearchStrategy[tuple[Event, ...]]:
    """A whole assistant turn (reasoning, signature, redacted, text, tool calls, usage, end) within
    what ``variant`` can carry (``"dialect:variant"`` or a Variant; everything when None)."""
    if isinstance(variant, str):
        dialect, _, name = variant.partition(":")
        variant = get_dialect(dialect).variants[name or get_dialect(dialect).default_variant]
    caps = variant.caps if variant is not None else frozenset(Caps)
    texts = st.lists(_TEXT, min_size=1, max_size=max_deltas)
    if variant is not None and variant.catalog_id == "CC-THINK":
        # reasoning rides inline between <think> tags: a tag inside the text cannot be carried
        texts = texts.filter(lambda ts: "think>" not in "".join(ts))

    @st.composite
    def turns(draw: st.DrawFn) -> tuple[Event, ...]:
        out: list[Event] = []
        if Caps.REDACTED in caps and draw(st.booleans()):
            out.append(RedactedReasoning(draw(st.text("abcdefXYZ0123456789+/", min_size=4, max_size=24))))
        if Caps.REASONING in caps:
            out += [ReasoningDelta(t) for t in draw(texts)]
            if Caps.SIGNATURE in caps and draw(st.booleans()):
                out.append(
                    ReasoningSignature("sig_" + draw(st.text("abcdefXYZ0123456789", min_size=4, max_size=16)))
                )
        tools = Caps.TOOLS in caps and draw(st.booleans())
        if tools:
            out.append(
                ToolCallDelta(0, "call_1", draw(st.sampled_from(["get_weather", "read_file"])), '{"a":1}')
            )
            if Caps.CALL_SIGNATURE in caps and draw(st.booleans()):
                sig = "Ci" + draw(st.text("abcdefXYZ0123456789", min_size=4, max_size=16))
                out.append(ReasoningSignature(sig))
        else:
            out += [TextDelta(t) for t in draw(texts)]
        if Caps.USAGE in caps and draw(st.booleans()):
            out.append(Usage(10, 20, draw(st.integers(0, 20)), 30))
        out.append(End("tool_calls" if tools else "stop"))
        return tuple(out)

    return turns()


def from_scenario(scenario_id: str) -> st.SearchStrategy[object]:
    """The expanded cases of one catalog scenario (``harness.catalog.Case``)."""
    from harness.catalog import expand, load_catalog

    matches = [s for s in load_catalog() if s.id == scenario_id]
    if not matches:
        from harness._errors import closest

        raise ValueError(
            f"no scenario {scenario_id!r}: {closest(scenario_id, [s.id for s in load_catalog()])}"
        )
    return st.sampled_from(expand(matches[0]))
