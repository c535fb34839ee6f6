"""Provider envelopes over the chat wire: Azure OpenAI's content-filter envelope and Gemini's
OpenAI-compatible ``extra_content``, as chat emitter subclasses. A subclass changes only what its
provider's envelope adds around the same deltas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness._json import dumps_compact
from harness.codec import Frame
from harness.dialects._chat_shape import Shape
from harness.dialects.openai_chat._wire import ChatEmitter
from harness.events import End, Event, ReasoningSignature, TextDelta, ToolCallDelta

# Where the reasoning rides stays the variant's ``Shape``. Sources: Azure
# https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter (streaming and the
# asynchronous filter's annotation chunks; key order as in recorded Azure streams quoted in public test
# fixtures), Gemini https://ai.google.dev/gemini-api/docs/openai and
# https://ai.google.dev/gemini-api/docs/thought-signatures (``extra_content.google.thought_signature``).
__all__ = ["AzureEmitter", "GeminiChatEmitter", "azure_response", "google"]

SAFE: dict[str, Any] = {
    c: {"filtered": False, "severity": "safe"} for c in ("hate", "self_harm", "sexual", "violence")
}
"""One filter verdict per default category, none triggered."""
PROMPT_FILTER: dict[str, Any] = {
    "choices": [],
    "created": 0,
    "id": "",
    "model": "",
    "object": "",
    "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": SAFE}],
}
"""Azure's first chunk: the prompt's filter results, no choice (an SDK reading ``choices[0]`` fails)."""


def google(**fields: Any) -> dict[str, Any]:
    """``{"extra_content": {"google": fields}}``."""
    return {"extra_content": {"google": fields}}


def _sorted(obj: Any) -> Any:
    """Azure serialises every object with its keys in alphabetical order."""
    if isinstance(obj, Mapping):
        return {k: _sorted(obj[k]) for k in sorted(obj)}
    if isinstance(obj, list):
        return [_sorted(v) for v in obj]
    return obj


def azure_response(obj: dict[str, Any]) -> dict[str, Any]:
    """A non-streaming ``chat.completion`` in Azure's envelope."""
    for choice in obj.get("choices") or []:
        choice["content_filter_results"] = SAFE
    obj["prompt_filter_results"] = PROMPT_FILTER["prompt_filter_results"]
    out: dict[str, Any] = _sorted(obj)
    return out


class AzureEmitter(ChatEmitter):
    """The prompt filter chunk first, ``content_filter_results`` on every choice, keys sorted, and the
    asynchronous filter's annotations (a choice with ``content_filter_offsets`` and no ``delta``, in a
    chunk whose id, model and object are empty) after the first text and after the finish."""

    def __init__(self, shape: Shape, *, model: str = "mock-model", id: str | None = None) -> None:
        super().__init__(shape, model=model, id=id)
        self._seen = 0  # characters of content so far (the annotations' offsets)
        self._annotated = False

    def _chunk(
        self, delta: Mapping[str, Any] | None, finish: str | None = None, **top: Any
    ) -> dict[str, Any]:
        obj = super()._chunk(delta, finish, **top)
        for choice in obj["choices"]:
            choice["content_filter_results"] = {}
        out: dict[str, Any] = _sorted(obj)
        return out

    def _annotation(self) -> Frame:
        offsets = {"check_offset": self._seen, "start_offset": 0, "end_offset": self._seen}
        choice = {"content_filter_offsets": offsets, "content_filter_results": SAFE, "finish_reason": None}
        obj = {"choices": [{**choice, "index": 0}], "created": 0, "id": "", "model": "", "object": ""}
        return Frame(dumps_compact(_sorted(obj)), tags=frozenset({"annotation"}))

    def _start(self) -> list[Frame]:
        if self._started:
            return []
        return [Frame(dumps_compact(PROMPT_FILTER), tags=frozenset({"annotation"})), *super()._start()]

    def _event(self, ev: Event) -> list[Frame]:
        out = super()._event(ev)
        if isinstance(ev, TextDelta):
            self._seen += len(ev.text)
            if not self._annotated and out:
                self._annotated = True
                out.append(self._annotation())
        return out

    def _end(self, ev: End) -> list[Frame]:
        out = super()._end(ev)
        at = next(i for i, f in enumerate(out) if f.data == "[DONE]" or f.data.startswith('{"choices":[],'))
        return [*out[:at], self._annotation(), *out[at:]]


class GeminiChatEmitter(ChatEmitter):
    """Thoughts as ``<thought>`` content marked ``extra_content.google.thought``, ``role`` on every
    delta, each tool call whole in one chunk carrying its thought signature, and a signature that does
    not follow a tool call on an empty content delta (``extra_content.google.thought_signature``)."""

    def __init__(self, shape: Shape, *, model: str = "mock-model", id: str | None = None) -> None:
        super().__init__(shape, model=model, id=id)
        self._held: dict[str, Any] | None = None  # the tool call being assembled

    def _chunk(
        self, delta: Mapping[str, Any] | None, finish: str | None = None, **top: Any
    ) -> dict[str, Any]:
        if delta is not None and ("content" in delta or "tool_calls" in delta):
            delta = {**delta, "role": "assistant"}
        return super()._chunk(delta, finish, **top)

    def _content(self, content: Any, *tags: str) -> Frame:
        if "reasoning" not in tags:
            return super()._content(content, *tags)
        return self._frame(self._chunk({"content": content, **google(thought=True)}), *tags)

    def _flush_call(self) -> list[Frame]:
        if self._held is None:
            return []
        call, self._held = self._held, None
        call = {k: call[k] for k in sorted(call)}  # Google's key order: extra_content first
        return [self._delta_frame({"tool_calls": [call]}, "tool")]

    def _event(self, ev: Event) -> list[Frame]:
        if isinstance(ev, ToolCallDelta):
            held = self._held
            if held is not None and held["index"] == ev.index:
                held["function"]["arguments"] += ev.arguments
                return []
            out = self._flush_call() + self._close_think() + self._flush_prefix()
            self._held = {
                "function": {"arguments": ev.arguments, "name": ev.name or ""},
                "id": ev.id or f"call_mock_{ev.index}",
                "index": ev.index,
                "type": "function",
            }
            return out
        if isinstance(ev, ReasoningSignature):
            if self._held is not None:
                self._held.update(google(thought_signature=ev.value))
                return self._flush_call()
            out = self._close_think() + self._flush_prefix()
            delta = {"content": "", **google(thought_signature=ev.value)}
            return [*out, self._frame(self._chunk(delta), "reasoning")]
        return self._flush_call() + super()._event(ev)

    def _end(self, ev: End) -> list[Frame]:
        return self._flush_call() + super()._end(ev)
