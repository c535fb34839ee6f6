"""Literal Gemini alt=sse frames per variant (CRLF CRLF framing, ``": "``/``","`` spacing): one table
drives the emitter test and the observer test (h11 style). Shapes from wire-formats.md §5.1."""

# ruff: noqa: E501  (literal wire frames stay on one line)
from __future__ import annotations

from harness.events import End, ReasoningDelta, ReasoningSignature, TextDelta, ToolCallDelta, Turn, Usage

__all__ = ["CASES", "MODEL"]

MODEL = "gemini-2.5-pro"

CASES: list[tuple[str, str, Turn, list[bytes]]] = [
    (
        "thought",
        "GEM-THOUGHT: thought part, text, usage with thoughtsTokenCount",
        (
            ReasoningDelta("**Planning**\n\nI need the weather."),
            TextDelta("It is 18°C"),
            TextDelta(" in Paris."),
            Usage(60, 20, 5, 80),
            End("stop"),
        ),
        [
            b'data: {"candidates": [{"content": {"parts": [{"text": "**Planning**\\n\\nI need the weather.","thought": true}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 60,"candidatesTokenCount": 15,"totalTokenCount": 80,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 60}],"thoughtsTokenCount": 5},"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": "It is 18\xc2\xb0C"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 60,"candidatesTokenCount": 15,"totalTokenCount": 80,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 60}],"thoughtsTokenCount": 5},"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": " in Paris."}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 60,"candidatesTokenCount": 15,"totalTokenCount": 80,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 60}],"thoughtsTokenCount": 5},"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 60,"candidatesTokenCount": 15,"totalTokenCount": 80,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 60}],"thoughtsTokenCount": 5},"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
        ],
    ),
    (
        "signature",
        "GEM-SIG-FC: the first functionCall part of the step carries the signature; parallel calls",
        (
            ReasoningDelta("**Planning**\n\nI need the weather."),
            ToolCallDelta(0, "call_1", "get_weather", '{"city":"Paris"}'),
            ReasoningSignature("CiIB0e2Kb3a4gkvo"),
            ToolCallDelta(1, "call_2", "get_time", '{"tz":"CET"}'),
            End("tool_calls"),
        ),
        [
            b'data: {"candidates": [{"content": {"parts": [{"text": "**Planning**\\n\\nI need the weather.","thought": true}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"functionCall": {"id": "call_1","name": "get_weather","args": {"city": "Paris"}},"thoughtSignature": "CiIB0e2Kb3a4gkvo"}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"functionCall": {"id": "call_2","name": "get_time","args": {"tz": "CET"}}}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
        ],
    ),
    (
        "signature-text",
        "GEM-SIG-TEXT: the signature rides on the last ordinary text part",
        (
            ReasoningDelta("Greeting."),
            TextDelta("Of course! "),
            TextDelta("Here it is."),
            ReasoningSignature("CiIB0e2Kb3a4gkvo"),
            End("stop"),
        ),
        [
            b'data: {"candidates": [{"content": {"parts": [{"text": "Greeting.","thought": true}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": "Of course! "}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": "Here it is.","thoughtSignature": "CiIB0e2Kb3a4gkvo"}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
        ],
    ),
    (
        "signature-empty",
        'GEM-SIG-EMPTY: a final {"text": ""} part carrying only the signature',
        (
            ReasoningDelta("Greeting."),
            TextDelta("Hello."),
            ReasoningSignature("CiIB0e2Kb3a4gkvo"),
            End("stop"),
        ),
        [
            b'data: {"candidates": [{"content": {"parts": [{"text": "Greeting.","thought": true}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": "Hello."}],"role": "model"},"index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
            b'data: {"candidates": [{"content": {"parts": [{"text": "","thoughtSignature": "CiIB0e2Kb3a4gkvo"}],"role": "model"},"finishReason": "STOP","index": 0}],"modelVersion": "gemini-2.5-pro","responseId": "mockResp1"}\r\n\r\n',
        ],
    ),
]
