"""A cassette as a mock-upstream conversation. Replay adds nothing of its own: it builds plain ``Script`` data
the mock upstream serves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness._errors import CassetteError, FlagError
from harness.recording._cassette import Cassette, Exchange
from harness.upstream import Conversation, Disconnect, HttpError, Pause, Raw, Script, Step

__all__ = ["chunker", "conversation_from_cassette", "detect_dialect", "parse_timing"]


def parse_timing(timing: str) -> float | None:
    """Delay factor: ``recorded`` -> 1.0, ``none`` -> None (no pauses), ``x4`` -> 0.25 (4x faster)."""
    if timing == "recorded":
        return 1.0
    if timing == "none":
        return None
    if timing.startswith("x"):
        try:
            speed = float(timing[1:])
        except ValueError:
            speed = 0.0
        if speed > 0:
            return 1.0 / speed
    raise FlagError(f"--timing {timing!r}: unknown timing; use recorded, none, or xN (x2 = twice as fast)")


def detect_dialect(path: str) -> str | None:
    from harness.dialects import dialect_names, get_dialect

    route = path.split("?", 1)[0]
    for name in dialect_names():
        try:
            suffixes = get_dialect(name).path_suffixes
        except ImportError:  # pragma: no cover - a dialect module missing from the install
            continue
        if any(route.endswith(s) or s in route for s in suffixes if s):
            return name
    return None


def _script(ex: Exchange, dialect: str, factor: float | None, rechunk: str | None) -> Script:
    headers = tuple(
        (k, v)
        for k, v in ex.response_headers
        if k.lower() in ("content-type", "x-amzn-errortype", "x-request-id", "request-id")
    )
    if not ex.status:  # the recording stopped before the upstream answered: a head, then the cut
        return Script(dialect=dialect, steps=(Disconnect(),), headers=headers, stream=True)
    cut: tuple[Step, ...] = () if ex.complete else (Disconnect(),)
    if ex.status >= 400:
        return Script(
            dialect=dialect,
            steps=(HttpError(ex.status, ex.body, ex.header("content-type") or "application/json"),),
            headers=headers,
        )
    chunks = [c.data for c in ex.chunks]
    if rechunk:
        return Script(
            dialect=dialect, steps=(Raw(tuple(chunker(rechunk)(chunks))), *cut), headers=headers, stream=True
        )
    if factor is None:
        return Script(dialect=dialect, steps=(Raw(tuple(chunks)), *cut), headers=headers, stream=True)
    steps: list[Step] = []
    last = ex.chunks[0].t_ms if ex.chunks else 0.0
    for c in ex.chunks:
        gap = (c.t_ms - last) * factor / 1000.0
        if gap > 0.0005:
            steps.append(Pause(gap))
        steps.append(Raw((c.data,)))
        last = c.t_ms
    return Script(dialect=dialect, steps=(*steps, *cut), headers=headers, stream=True)


def chunker(name: str) -> Callable[[Sequence[bytes]], list[bytes]]:
    """``--rechunk NAME`` as a chunker, or a :class:`FlagError` naming the valid ones."""
    from harness.codec import get_chunker

    try:
        return get_chunker(name)
    except (ValueError, KeyError) as exc:
        raise FlagError(f"--rechunk {name!r}: {exc}") from None


def conversation_from_cassette(
    cassette: Cassette, *, timing: str = "none", rechunk: str | None = None
) -> Conversation:
    """Chunks are byte-identical by default, optionally re-timed, ``recorded``, ``none`` or ``xN``, or
    re-chunked with any chunker. Non-2xx exchanges become HTTP errors. An exchange that did not end
    ``complete``, truncated by the recorder's shutdown or cut by a disconnect, is served as what it was:
    its recorded bytes, then a cut connection."""
    factor = parse_timing(timing)
    if rechunk:
        chunker(rechunk)
    scripts = []
    for i, ex in enumerate(cassette.exchanges):
        dialect = cassette.dialect or detect_dialect(ex.path)
        if dialect is None:
            raise CassetteError(
                f'{cassette.path}: exchange {i} ({ex.path}): unknown dialect; set "dialect" '
                "in the header line"
            )
        scripts.append(_script(ex, dialect, factor, rechunk))
    return Conversation(tuple(scripts), name=cassette.path)
