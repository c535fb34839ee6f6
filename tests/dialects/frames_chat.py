"""Literal openai-chat frames (shapes from wire-formats.md §2): one table drives the emitter and the
observer tests. Ids are normalised before comparing; everything else is byte-exact."""

# ruff: noqa: E501  (literal wire frames stay on one line)
from __future__ import annotations

import json
from dataclasses import dataclass

from harness.events import (
    End,
    Event,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)

MODEL = "m"


def _minimax_detail_chunk(text: str) -> str:
    """A chunk of MiniMax's reasoning_split stream, composed from its OpenAPI ReasoningDetail schema
    (``index``, ``type`` "reasoning.text", ``id``, ``format`` "MiniMax-response-v1", ``text``: each delta's
    own piece) inside this file's chunk envelope."""
    detail = {
        "index": 0, "type": "reasoning.text", "id": "reasoning-text-1", "format": "MiniMax-response-v1",
        "text": text,
    }  # fmt: skip
    delta = {"role": "assistant", "content": "", "reasoning_details": [detail]}
    chunk = {
        "id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 1760000000, "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
    }  # fmt: skip
    return json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Case:
    name: str
    variant: str
    source: str
    turn: tuple[Event, ...]
    frames: tuple[tuple[str, frozenset[str]], ...]


CASES: list[Case] = [
    Case(
        "deepseek-text",
        "reasoning_content",
        "§2.1 DeepSeek text answer",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            Usage(10, 9, 4, 19),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"The user greets"},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":null,"reasoning_content":" me."},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":"Hello!","reasoning_content":null},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":"","reasoning_content":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4},"prompt_tokens_details":{"cached_tokens":0},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":10}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "deepseek-tool",
        "reasoning_content",
        "§2.1 DeepSeek tool-call turn",
        (
            ReasoningDelta("I need the weather tool."),
            ToolCallDelta(0, "call_00_mock", "get_weather", '{"city":"Paris"}'),
            Usage(50, 30, 8, 80),
            End("tool_calls"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"I need the weather tool."},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_00_mock","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"reasoning-done", "tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":\\"Paris\\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}',
                frozenset({"tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":30,"total_tokens":80,"completion_tokens_details":{"reasoning_tokens":8},"prompt_tokens_details":{"cached_tokens":0},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":50}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "vllm-reasoning",
        "reasoning",
        "§2.2 vLLM delta.reasoning + include_usage chunk",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            Usage(10, 9, 4, 19),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"reasoning":"The user greets"},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"reasoning":" me."},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello!"},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4}}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openrouter-details",
        "reasoning_details",
        "§2.3 OpenRouter mirrored reasoning + trailing signature detail (guess, see catalog)",
        (
            ReasoningDelta("Let me check"),
            ReasoningDelta(" the tool."),
            ReasoningSignature("sig_mock_EqQBCkgIAx"),
            TextDelta("Done."),
            Usage(20, 30, 20, 50),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Let me check","reasoning_details":[{"type":"reasoning.text","text":"Let me check","format":"unknown","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":" the tool.","reasoning_details":[{"type":"reasoning.text","text":" the tool.","format":"unknown","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[{"type":"reasoning.text","signature":"sig_mock_EqQBCkgIAx","format":"unknown","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"Done.","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":"stop","native_finish_reason":"stop","logprobs":null}]}',
                frozenset(),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null,"native_finish_reason":null,"logprobs":null}],"usage":{"prompt_tokens":20,"completion_tokens":30,"total_tokens":50,"completion_tokens_details":{"reasoning_tokens":20,"image_tokens":0},"cost":0,"is_byok":false,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0,"video_tokens":0},"cost_details":{"upstream_inference_cost":null,"upstream_inference_prompt_cost":0,"upstream_inference_completions_cost":0}}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openrouter-encrypted",
        "reasoning_details",
        "§2.3 reasoning.encrypted detail",
        (RedactedReasoning("gAAAAB-mock-opaque"), TextDelta("Done."), End("stop")),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAAB-mock-opaque","format":"unknown","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"Done.","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":"stop","native_finish_reason":"stop","logprobs":null}]}',
                frozenset(),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "think-tags",
        "think-tags",
        "§2.4 leading <think> in content",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            Usage(10, 9, 4, 19),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"<think>The user greets"},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":" me."},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"</think>"},"finish_reason":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello!"},"finish_reason":null}]}',
                frozenset({"text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4}}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "think-split",
        "think-split",
        "§2.4a tags split <th | ink>",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            Usage(10, 9, 4, 19),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"<th"},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"ink>The user greets"},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":" me."},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"</th"},"finish_reason":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"ink>Hello!"},"finish_reason":null}]}',
                frozenset({"text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4}}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "think-implicit",
        "think-implicit",
        "§2.4b no opener, only </think>",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            Usage(10, 9, 4, 19),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"The user greets"},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":" me."},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"</think>"},"finish_reason":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello!"},"finish_reason":null}]}',
                frozenset({"text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4}}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "mistral",
        "mistral",
        "§2.5 Magistral thinking chunks, then string content; usage on the finish chunk",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            Usage(10, 9, 4, 19),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"The user greets"}]}]},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":" me."}]}]},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello!"},"finish_reason":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"completion_tokens_details":{"reasoning_tokens":4}}}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openai-usage-only",
        "usage-only",
        "§2.0 OpenAI: no reasoning text, reasoning_tokens only",
        (TextDelta("Hi."), Usage(12, 40, 28, 52), End("stop")),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","service_tier":"default","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"mock"}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","service_tier":"default","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":"Hi."},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"mockP"}',
                frozenset({"text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","service_tier":"default","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null,"obfuscation":"mockPa"}',
                frozenset(),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","service_tier":"default","system_fingerprint":"fp_mock","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":40,"total_tokens":52,"completion_tokens_details":{"reasoning_tokens":28,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0},"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0}},"obfuscation":"mockPad"}',
                frozenset({"usage"}),
            ),
            (
                "[DONE]",
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openrouter-error",
        "reasoning",
        "§2.3 mid-stream error chunk, finish_reason error, no [DONE]",
        (
            ReasoningDelta("Hmm"),
            StreamError("Provider disconnected unexpectedly", "provider_unavailable", 502),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"reasoning":"Hmm"},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","error":{"code":502,"message":"Provider disconnected unexpectedly","metadata":{"error_type":"provider_unavailable"}},"choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"error"}]}',
                frozenset({"error", "reasoning-done"}),
            ),
        ),
    ),
    Case(
        "gemini-openai-parallel-calls",
        "gemini-openai",
        "ai.google.dev/gemini-api/docs/thought-signatures: extra_content.google.thought_signature, only on the first parallel call",
        (
            ReasoningDelta(text='I need both tools.'),
            ToolCallDelta(index=0, id='call_1', name='get_weather', arguments='{"city":"Paris"}'),
            ReasoningSignature(value='CiIB0e2Kb3a4gkvo'),
            ToolCallDelta(index=1, id='call_2', name='get_time', arguments='{"city":"Paris"}'),
            End(reason='tool_calls'),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"<thought>I need both tools.","extra_content":{"google":{"thought":true}},"role":"assistant"},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"</thought>","role":"assistant"},"finish_reason":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"extra_content":{"google":{"thought_signature":"CiIB0e2Kb3a4gkvo"}},"function":{"arguments":"{\\"city\\":\\"Paris\\"}","name":"get_weather"},"id":"call_1","index":0,"type":"function"}],"role":"assistant"},"finish_reason":null}]}',
                frozenset({"tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"{\\"city\\":\\"Paris\\"}","name":"get_time"},"id":"call_2","index":1,"type":"function"}],"role":"assistant"},"finish_reason":null}]}',
                frozenset({"tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "azure-content-filter",
        "azure",
        "learn.microsoft.com azure ai-foundry openai content-filter: prompt filter chunk, annotations",
        (
            ReasoningDelta(text='The user greets'),
            ReasoningDelta(text=' me.'),
            TextDelta(text='Hello!'),
            Usage(input_tokens=10, output_tokens=9, reasoning_tokens=4, total_tokens=19),
            End(reason='stop'),
        ),
        (
            (
                '{"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}}}]}',
                frozenset({"annotation"}),
            ),
            (
                '{"choices":[{"content_filter_results":{},"delta":{"content":"","refusal":null,"role":"assistant"},"finish_reason":null,"index":0,"logprobs":null}],"created":1760000000,"id":"chatcmpl-mock","model":"m","object":"chat.completion.chunk","system_fingerprint":"fp_mock"}',
                frozenset({"start"}),
            ),
            (
                '{"choices":[{"content_filter_results":{},"delta":{"content":null,"reasoning_content":"The user greets"},"finish_reason":null,"index":0,"logprobs":null}],"created":1760000000,"id":"chatcmpl-mock","model":"m","object":"chat.completion.chunk","system_fingerprint":"fp_mock"}',
                frozenset({"reasoning"}),
            ),
            (
                '{"choices":[{"content_filter_results":{},"delta":{"content":null,"reasoning_content":" me."},"finish_reason":null,"index":0,"logprobs":null}],"created":1760000000,"id":"chatcmpl-mock","model":"m","object":"chat.completion.chunk","system_fingerprint":"fp_mock"}',
                frozenset({"reasoning"}),
            ),
            (
                '{"choices":[{"content_filter_results":{},"delta":{"content":"Hello!"},"finish_reason":null,"index":0,"logprobs":null}],"created":1760000000,"id":"chatcmpl-mock","model":"m","object":"chat.completion.chunk","system_fingerprint":"fp_mock"}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"choices":[{"content_filter_offsets":{"check_offset":6,"end_offset":6,"start_offset":0},"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}},"finish_reason":null,"index":0}],"created":0,"id":"","model":"","object":""}',
                frozenset({"annotation"}),
            ),
            (
                '{"choices":[{"content_filter_results":{},"delta":{"content":""},"finish_reason":"stop","index":0,"logprobs":null}],"created":1760000000,"id":"chatcmpl-mock","model":"m","object":"chat.completion.chunk","system_fingerprint":"fp_mock"}',
                frozenset(),
            ),
            (
                '{"choices":[{"content_filter_offsets":{"check_offset":6,"end_offset":6,"start_offset":0},"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}},"finish_reason":null,"index":0}],"created":0,"id":"","model":"","object":""}',
                frozenset({"annotation"}),
            ),
            (
                '{"choices":[],"created":1760000000,"id":"chatcmpl-mock","model":"m","object":"chat.completion.chunk","system_fingerprint":"fp_mock","usage":{"completion_tokens":9,"completion_tokens_details":{"reasoning_tokens":4},"prompt_tokens":10,"total_tokens":19}}',
                frozenset({"usage"}),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "harmony-raw-channels",
        "harmony",
        "cookbook.openai.com/articles/openai-harmony, streamed raw by a local backend",
        (
            ReasoningDelta(text='We need to respond to Hello.'),
            TextDelta(text='Hello! How can I help?'),
            End(reason='stop'),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"<|channel|>analysis<|message|>We need to respond to Hello."},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"<|end|><|start|>assistant<|channel|>final<|message|>"},"finish_reason":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello! How can I help?"},"finish_reason":null}]}',
                frozenset({"text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "minimax-split",
        "minimax-details",
        "MiniMax with reasoning_split=True: incremental reasoning_details text entries, no mirror",
        (
            ReasoningDelta(text='The user greets'),
            ReasoningDelta(text=' me.'),
            TextDelta(text='Hello!'),
            End(reason='stop'),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                _minimax_detail_chunk('The user greets'),
                frozenset({"reasoning"}),
            ),
            (
                _minimax_detail_chunk(' me.'),
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello!"},"finish_reason":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "minimax-m3-mm-think",
        "mm-think",
        "MiniMax-M3 served raw: <mm:think> spans",
        (
            ReasoningDelta(text='\nThe user greets me.\n'),
            TextDelta(text='\n\nHello!'),
            End(reason='stop'),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"<mm:think>\\nThe user greets me.\\n"},"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"</mm:think>"},"finish_reason":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"\\n\\nHello!"},"finish_reason":null}]}',
                frozenset({"text"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openrouter-openai-item",
        "openrouter-openai",
        "§2.3 OpenRouter in front of OpenAI: summary and encrypted details sharing the item's rs_ id",
        (
            ReasoningDelta("**Planning**", item="rs_mock1"),
            ReasoningDelta(" Look up the weather.", item="rs_mock1"),
            ReasoningSignature("gAAAAB-mock-opaque", item="rs_mock1"),
            ToolCallDelta(0, id="call_mock_1", name="get_weather", arguments='{"city":"Paris"}'),
            End("tool_calls"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"**Planning**","reasoning_details":[{"type":"reasoning.summary","summary":"**Planning**","id":"rs_mock1","format":"openai-responses-v1","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":" Look up the weather.","reasoning_details":[{"type":"reasoning.summary","summary":" Look up the weather.","id":"rs_mock1","format":"openai-responses-v1","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAAB-mock-opaque","id":"rs_mock1","format":"openai-responses-v1","index":1}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[],"tool_calls":[{"index":0,"id":"call_mock_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning-done", "tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[],"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":\\"Paris\\"}"}}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":"tool_calls","native_finish_reason":"tool_calls","logprobs":null}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openrouter-gemini-call-signature",
        "openrouter-gemini",
        "§2.3 OpenRouter in front of Gemini: text details, the call's signature as an encrypted detail named by the call id",
        (
            ReasoningDelta("I need the weather tool."),
            ToolCallDelta(0, id="call_mock_1", name="get_weather", arguments='{"city":"Paris"}'),
            ReasoningSignature("CiIB-mock-gemini-sig"),
            End("tool_calls"),
        ),
        (
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"I need the weather tool.","reasoning_details":[{"type":"reasoning.text","text":"I need the weather tool.","format":"google-gemini-v1","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[],"tool_calls":[{"index":0,"id":"call_mock_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning-done", "tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[],"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":\\"Paris\\"}"}}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"tool"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[{"type":"reasoning.encrypted","data":"CiIB-mock-gemini-sig","id":"call_mock_1","format":"google-gemini-v1","index":1}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":"tool_calls","native_finish_reason":"tool_calls","logprobs":null}]}',
                frozenset({"reasoning-done"}),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "flat-mirror",
        "flat-mirror",
        "vLLM 0.11.1-0.15: the same reasoning in reasoning_content and reasoning of one chunk",
        (
            ReasoningDelta("The user greets"),
            ReasoningDelta(" me."),
            TextDelta("Hello!"),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock1","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock1","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"The user greets","reasoning":"The user greets"},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock1","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":null,"reasoning_content":" me.","reasoning":" me."},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock1","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello!"},"logprobs":null,"finish_reason":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock1","object":"chat.completion.chunk","created":1760000000,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
    Case(
        "openrouter-items",
        "openrouter-items",
        "§2.3 OpenRouter in front of OpenAI, two items: the first item's encrypted detail between summary deltas",
        (
            ReasoningDelta("**Factoring**", item="rs_mock1"),
            ReasoningSignature("gAAAAB-one", item="rs_mock1"),
            ReasoningDelta("**Checking**", item="rs_mock2"),
            ReasoningSignature("gAAAAB-two", item="rs_mock2"),
            TextDelta("No."),
            End("stop"),
        ),
        (
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"start"}),
            ),
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"**Factoring**","reasoning_details":[{"type":"reasoning.summary","summary":"**Factoring**","id":"rs_mock1","format":"openai-responses-v1","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAAB-one","id":"rs_mock1","format":"openai-responses-v1","index":1}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"**Checking**","reasoning_details":[{"type":"reasoning.summary","summary":"**Checking**","id":"rs_mock2","format":"openai-responses-v1","index":2}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAAB-two","id":"rs_mock2","format":"openai-responses-v1","index":3}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning"}),
            ),
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"No.","reasoning":null,"reasoning_details":[]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}',
                frozenset({"reasoning-done", "text"}),
            ),
            (
                '{"id":"chatcmpl-mock2","object":"chat.completion.chunk","created":1760000000,"model":"m","provider":"Mock","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":"stop","native_finish_reason":"stop","logprobs":null}]}',
                frozenset(),
            ),
            (
                '[DONE]',
                frozenset({"terminal"}),
            ),
        ),
    ),
]


# Verbatim captures from wire-formats.md (observer direction only): raw SSE bytes -> expected turn.
CAPTURES: list[tuple[str, dict[str, bool], bytes, tuple[Event, ...]]] = [
    (
        "deepseek-keepalive-text",
        {},
        b": keep-alive\n\n"
        b'data: {"id":"7f1c4b7e-0000-4000-8000-000000000001","object":"chat.completion.chunk","created":1741570300,"model":"deepseek-reasoner","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"logprobs":null,"finish_reason":null}]}\n\n'
        b'data: {"id":"7f1c4b7e-0000-4000-8000-000000000001","object":"chat.completion.chunk","created":1741570300,"model":"deepseek-reasoner","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"The user greets"},"logprobs":null,"finish_reason":null}]}\n\n'
        b'data: {"id":"7f1c4b7e-0000-4000-8000-000000000001","object":"chat.completion.chunk","created":1741570300,"model":"deepseek-reasoner","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":null,"reasoning_content":" me."},"logprobs":null,"finish_reason":null}]}\n\n'
        b'data: {"id":"7f1c4b7e-0000-4000-8000-000000000001","object":"chat.completion.chunk","created":1741570300,"model":"deepseek-reasoner","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":"Hello!","reasoning_content":null},"logprobs":null,"finish_reason":null}]}\n\n'
        b'data: {"id":"7f1c4b7e-0000-4000-8000-000000000001","object":"chat.completion.chunk","created":1741570300,"model":"deepseek-reasoner","system_fingerprint":"fp_mock","choices":[{"index":0,"delta":{"content":"","reasoning_content":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":4},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":10}}\n\n'
        b"data: [DONE]\n\n",
        (ReasoningDelta("The user greets me."), TextDelta("Hello!"), Usage(10, 9, 4, 19), End("stop")),
    ),
    (
        "ollama-v1-reasoning",
        {},
        b'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"We"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":" need"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n",
        (ReasoningDelta("We need"), TextDelta("ok"), End("stop")),
    ),
    (
        "openrouter-mirrored-signature",
        {},
        b": OPENROUTER PROCESSING\n\n"
        b'data: {"id":"gen-mock-1","object":"chat.completion.chunk","created":1760000000,"model":"anthropic/claude-sonnet-4.5","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Let me check","reasoning_details":[{"type":"reasoning.text","text":"Let me check","format":"anthropic-claude-v1","index":0}]},"finish_reason":null}]}\n\n'
        b'data: {"id":"gen-mock-1","object":"chat.completion.chunk","created":1760000000,"model":"anthropic/claude-sonnet-4.5","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":" the tool.","reasoning_details":[{"type":"reasoning.text","text":" the tool.","format":"anthropic-claude-v1","index":0}]},"finish_reason":null}]}\n\n'
        b'data: {"id":"gen-mock-1","object":"chat.completion.chunk","created":1760000000,"model":"anthropic/claude-sonnet-4.5","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning_details":[{"type":"reasoning.text","signature":"sig_mock_EqQBCkgIAx","format":"anthropic-claude-v1","index":0}]},"finish_reason":null}]}\n\n'
        b'data: {"id":"gen-mock-1","object":"chat.completion.chunk","created":1760000000,"model":"anthropic/claude-sonnet-4.5","choices":[{"index":0,"delta":{"role":"assistant","content":"Done."},"finish_reason":null}]}\n\n'
        b'data: {"id":"gen-mock-1","object":"chat.completion.chunk","created":1760000000,"model":"anthropic/claude-sonnet-4.5","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}\n\n'
        b'data: {"id":"gen-mock-1","object":"chat.completion.chunk","created":1760000000,"model":"anthropic/claude-sonnet-4.5","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":30,"total_tokens":50,"completion_tokens_details":{"reasoning_tokens":20}}}\n\n'
        b"data: [DONE]\n\n",
        (
            ReasoningDelta("Let me check the tool."),
            ReasoningSignature("sig_mock_EqQBCkgIAx"),
            TextDelta("Done."),
            Usage(20, 30, 20, 50),
            End("stop"),
        ),
    ),
    (
        "r1-distill-split-tags",
        {},
        b'data: {"id":"chatcmpl-t1","object":"chat.completion.chunk","created":1760000000,"model":"r1-distill","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-t1","object":"chat.completion.chunk","created":1760000000,"model":"r1-distill","choices":[{"index":0,"delta":{"content":"<th"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-t1","object":"chat.completion.chunk","created":1760000000,"model":"r1-distill","choices":[{"index":0,"delta":{"content":"ink>\\nThe user wants"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-t1","object":"chat.completion.chunk","created":1760000000,"model":"r1-distill","choices":[{"index":0,"delta":{"content":" a greeting.\\n</th"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-t1","object":"chat.completion.chunk","created":1760000000,"model":"r1-distill","choices":[{"index":0,"delta":{"content":"ink>\\n\\nHello!"},"finish_reason":null}]}\n\n'
        b'data: {"id":"chatcmpl-t1","object":"chat.completion.chunk","created":1760000000,"model":"r1-distill","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n",
        (ReasoningDelta("\nThe user wants a greeting.\n"), TextDelta("\n\nHello!"), End("stop")),
    ),
    (
        "magistral",
        {},
        b'data: {"id":"c3c77283055240cbbaf6f01d384cfccb","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"\'s a greeting"}]}]},"finish_reason":null}]}\n\n'
        b'data: {"id":"c3c77283055240cbbaf6f01d384cfccb","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":", I should"}]}]},"finish_reason":null}]}\n\n'
        b'data: {"id":"c3c77283055240cbbaf6f01d384cfccb","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}\n\n'
        b'data: {"id":"c3c77283055240cbbaf6f01d384cfccb","object":"chat.completion.chunk","created":1762355135,"model":"magistral-medium-2509","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"total_tokens":30,"completion_tokens":25}}\n\n'
        b"data: [DONE]\n\n",
        (ReasoningDelta("'s a greeting, I should"), TextDelta("Hello"), Usage(5, 25, None, 30), End("stop")),
    ),
    (
        "r1-implicit-opener",
        {"implicit_think": True},
        b'data: {"choices":[{"index":0,"delta":{"content":"Okay, so"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"content":" the user\\u2026"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"content":"</think>\\n\\n"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{"content":"Hello!"},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n",
        (ReasoningDelta("Okay, so the user\u2026"), TextDelta("\n\nHello!"), End("stop")),
    ),
]
