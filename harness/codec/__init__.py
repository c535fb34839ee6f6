"""The byte codecs, sans-IO: frames, the SSE, JSONL, JSON-array and AWS eventstream encoders and decoders,
framing perturbations and chunkers. Nothing here opens a socket or reads a clock, so every other layer can
feed these codecs bytes split any way it likes."""

from typing import TYPE_CHECKING

from harness._lazy import lazy_names
from harness.codec._chunkers import CHUNKERS, get_chunker
from harness.codec._encode import encode_frames, encode_pieces
from harness.codec._frame import Frame
from harness.codec._jsonl import JSONLDecoder, encode_jsonl
from harness.codec._perturb import PERTURBATIONS, Perturbation, get_perturbation
from harness.codec._sse import SSEDecoder, SSEEvent
from harness.codec._sse_encode import SSEEncoder, SSEFraming, encode_sse

__all__ = [
    "CHUNKERS",
    "PERTURBATIONS",
    "Frame",
    "JSONLDecoder",
    "Perturbation",
    "SSEDecoder",
    "SSEEncoder",
    "SSEEvent",
    "SSEFraming",
    "encode_frames",
    "encode_jsonl",
    "encode_pieces",
    "encode_sse",
    "get_chunker",
    "get_perturbation",
]

# What other harness packages use from this one, loaded on first use (harness._lazy).
if TYPE_CHECKING:
    from harness.codec._eventstream import EventStreamDecoder, EventStreamMessage
    from harness.codec._jsonarray import JSONArrayDecoder

_SHARED = {
    "EventStreamDecoder": "_eventstream",
    "EventStreamMessage": "_eventstream",
    "JSONArrayDecoder": "_jsonarray",
}
__all__ += [
    "EventStreamDecoder",
    "EventStreamMessage",
    "JSONArrayDecoder",
]
__getattr__ = lazy_names(__name__, _SHARED)
