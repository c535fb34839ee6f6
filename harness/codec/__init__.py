"""Sans-IO byte codecs: SSE, JSONL/NDJSON, AWS eventstream; encoders with perturbations; chunkers."""

from harness.codec._encode import encode_frames
from harness.codec._jsonl import JSONLDecoder, encode_jsonl
from harness.codec._sse import SSEDecoder, SSEEvent

__all__ = ["JSONLDecoder", "SSEDecoder", "SSEEvent", "encode_frames", "encode_jsonl"]
