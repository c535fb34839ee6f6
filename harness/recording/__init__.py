"""Recording real gateway frames: cassettes, redaction, the recording proxy, replay, promotion.

The recording proxy's names (``Recorder``, ``record_forever``) load on first use (PEP 562): it
imports httpx, which every ``thinkwire run`` (reading the catalog's cassettes) would pay for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness.recording._cassette import Cassette, Chunk, Exchange, read_cassette
from harness.recording._redact import REDACTED, Redactor
from harness.recording._replay import conversation_from_cassette, detect_dialect, parse_timing

__all__ = [
    "REDACTED",
    "Cassette",
    "Chunk",
    "Exchange",
    "Recorder",
    "Redactor",
    "conversation_from_cassette",
    "detect_dialect",
    "parse_timing",
    "read_cassette",
    "record_forever",
]

if TYPE_CHECKING:
    from harness.recording._proxy import Recorder, record_forever


__getattr__ = lazy_names(__name__, {"Recorder": "_proxy", "record_forever": "_proxy"})
