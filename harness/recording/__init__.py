"""Recording real gateway frames: cassettes, redaction, the recording proxy, replay, promotion."""

from harness.recording._cassette import Cassette, Chunk, Exchange, read_cassette
from harness.recording._proxy import Recorder, record_forever
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
