"""Fault switches of the reference SUTs, the mutants: the table of switches, which SUT takes which, and the
event and message filters that implement the switches acting on events. The request-side switches are
``_request_faults``', those of a SUT that treats a provider's defaults as opt-in ``_default_faults``'
and the byte-side ones, parser mutants and ``break-utf8``, ``_parser_mutants``': one concern a file."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from harness._errors import UnknownName
from harness._json import dumps_compact, loads
from harness.codec import Frame
from harness.events import (
    End,
    Event,
    Notice,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Usage,
)
from harness.reference._bridge_faults import BRIDGE_FAULTS
from harness.reference._default_faults import DEFAULT_FAULTS
from harness.reference._door_faults import DOOR_FAULTS
from harness.reference._parser_mutants import FIRST_CHOICE_ONLY, PARSER_FAULTS, PARSER_MUTANTS
from harness.reference._request_faults import PASSBACK_FAULTS
from harness.reference._schema_faults import SCHEMA_FAULTS

__all__ = [
    "CLI_FAULTS",
    "FAULTS",
    "GATEWAY_FAULTS",
    "PROCESS_FAULTS",
    "REQUEST_FAULTS",
    "SDK_FAULTS",
    "FaultFilter",
    "announce_thinking_as_text",
    "check_faults",
    "inline_think",
    "is_reasoning",
    "own_process_faults",
    "signature_after_stop",
]

FAULTS: dict[str, str] = {
    "drop-reasoning": "never forward reasoning",
    "buffer-reasoning": "hold reasoning until the answer / a tool call starts or the stream ends",
    "buffer-structured": "hold reasoning until the answer when the request asks for structured output "
    "(response_format) or forces a tool (tool_choice)",
    "replay-done": "at the end, re-emit the final reasoning and text again (forwarding *.done repeats)",
    "reasoning-into-content": "send reasoning as public answer text",
    "non-leading-think": "treat any <think>...</think> in the answer as reasoning, not only a leading tag",
    "ignore-alias": "ignore reasoning from Responses alias events; deliver it all at once at the item's end",
    "lose-passback": "strip reasoning, signatures and redacted blocks from earlier assistant messages",
    "drop-empty-thinking": "on passback, drop thinking blocks whose text is empty (display:omitted: "
    "signature only) as if they carried nothing",
    "replay-unsigned-thinking": "on passback, replay a thinking block that never got its signature (a turn "
    "the client cancelled mid-thinking) to a provider that requires one",
    "drop-signature-bad-args": "on passback, a tool call whose arguments do not parse as JSON loses the "
    "signatures of its message (thinking block signature, thought signature)",
    "thinking-enabled": "ask Anthropic for thinking type enabled with a budget, also of models that accept "
    "only adaptive thinking",
    "no-display-summarized": "ask for adaptive thinking without display: summarized (the model's default, "
    "omitted, then hides the thinking text from users)",
    "no-form-triggers": "ask the upstream without the fields that turn a variant's reasoning form on "
    "(MiniMax reasoning_split, Gemini include_thoughts / includeThoughts, Responses reasoning.summary)",
    "hide-upstream-error": "an upstream HTTP error becomes a 200 with an empty answer",
    "retry-too-soon": "retry a 429 / 5xx at once, ignoring Retry-After",
    "ws-new-socket-per-turn": "Responses WebSocket mode: open a new socket for every turn, yet chain it to "
    "the previous response (the connection-local state is gone: previous_response_not_found)",
    "retry-after-partial": "when the upstream stream fails after output reached the client, retry the "
    "request and stream the new answer too (the client sees the reasoning twice)",
    "swallow-stream-error": "a mid-stream upstream error becomes a clean stop",
    "terminate-broken-stream": "an upstream stream that broke off (EOF before its terminator, inside an "
    "event, or the connection lost) is ended toward the client as a complete answer ([DONE])",
    "keep-upstream-open": "after the client disconnects (a CLI's client: sends abort), keep reading the "
    "upstream to its end",
    "tools-before-reasoning": "emit tool calls before the reasoning of the same message",
    "drop-reasoning-tokens": "drop reasoning_tokens from usage",
    "add-start-output": "add message_start's output_tokens to message_delta's (cumulative) count: the "
    "client sees 41 output tokens where the provider said 40",
    "bom-unnamed-start": "Anthropic front door relaying an Anthropic upstream's events as the anthropic "
    "SDK reads them: a leading UTF-8 BOM stays in the first field name ('\\ufeffevent'), so the first "
    "event has no name and is skipped (message_start: its id, model and input tokens), and the client's "
    "stream opens without one",
    "thinking-as-text-block": "Anthropic front door: open each thinking block as a text block, then stream "
    "its thinking_delta and signature_delta into it",
    "signature-after-step-stop": "Gemini Interactions front door: write a thought step's thought_signature "
    "delta after the step.stop that closed it (a bridge that learns the signature late, as from Gemini's "
    "signature-only last chunk)",
    "mint-tool-ids": "hand tool calls to the client under an id of the SUT's own: the Responses item id "
    "(fc_...) where the upstream gave one, else call_gw_N (the client then answers calls that never "
    "existed)",
    "redacted-as-reasoning": "show the opaque data of a redacted thinking block to users as reasoning text",
    "encrypted-as-reasoning": "show an encrypted reasoning part (OpenRouter's reasoning.encrypted detail "
    "among the summary deltas) to users as reasoning text, beside keeping it for passback",
    "break-utf8": "decode upstream bytes chunk by chunk with errors='replace' (corrupts split code points)",
    "double-done": "write the stream terminator twice",
    "nonstream-inline-think": "non-streaming answers carry reasoning inline as <think>...</think> in content",
    "leak-child": "CLI: leave the tool child process running",
    "early-rmdir": "CLI: delete the session dir before the tool child has exited",
    "leave-dir": "CLI: never delete the session dir",
    "pi-thinking-at-end": "CLI: emit each thinking block as one record at its end instead of as deltas",
    "unsaved-reasoning": "CLI: the session it keeps between prompts holds no reasoning (it goes back inside "
    "a prompt's tool loop, not on the next prompt)",
    "drop-call-signatures": "read tool calls but not the signature on them (Gemini's thoughtSignature / "
    "extra_content.google.thought_signature)",
    "drop-text-signatures": "lose a signature that arrives after answer text (Gemini's signature-only last "
    'chunk, {"text": "", "thoughtSignature": ...}, skipped as an empty part)',
    "output-without-thoughts": "report output tokens without the reasoning tokens (Gemini's "
    "candidatesTokenCount read as the output count, thoughtsTokenCount left out)",
    "raw-inline-tags": "never split inline reasoning tags (<think>, <mm:think>, <thought>, harmony "
    "channels) out of upstream content",
    **PASSBACK_FAULTS,
    **DEFAULT_FAULTS,
    **PARSER_MUTANTS,
    # -- Responses bridges (issue 40): the front door's switches, and the other way round
    **BRIDGE_FAULTS,
    **DOOR_FAULTS,
    **SCHEMA_FAULTS,  # the Responses and Anthropic front doors' per-event field rules
    "drop-reasoning-text": "Responses upstream: read only the reasoning summary; raw reasoning "
    "(reasoning_text content parts, response.reasoning_text.delta) is dropped",
    FIRST_CHOICE_ONLY: "read every chat chunk as choices[0].delta (fails on Azure's choices:[] and "
    "annotation chunks)",
    "read-both-fields": "read every field of a chunk that carries reasoning (a mirror of reasoning_content "
    "and reasoning, or of reasoning and reasoning_details): the reasoning reaches the client twice",
}

REQUEST_FAULTS = frozenset(
    {
        "lose-passback",
        "drop-empty-thinking",
        "replay-unsigned-thinking",
        "drop-signature-bad-args",
        "thinking-enabled",
        "no-display-summarized",
        "no-form-triggers",
        "think-off-by-default",
        *PASSBACK_FAULTS,
    }
)
"""Faults in what the SUT sends upstream (its passback and its request options)."""
_IO = (
    frozenset({"hide-upstream-error", "break-utf8", "double-done", "retry-too-soon", "raw-inline-tags"})
    | {FIRST_CHOICE_ONLY}
    | PARSER_FAULTS
    | REQUEST_FAULTS
)
_STREAM = frozenset(
    {
        "drop-reasoning",
        "buffer-reasoning",
        "replay-done",
        "reasoning-into-content",
        "non-leading-think",
        "ignore-alias",
        "swallow-stream-error",
        "tools-before-reasoning",
        "drop-reasoning-tokens",
        "redacted-as-reasoning",
        "encrypted-as-reasoning",
        "buffer-structured",
        "drop-call-signatures",
        "mint-tool-ids",
        "add-start-output",
        "drop-text-signatures",
        "output-without-thoughts",
        "drop-reasoning-text",
        "read-both-fields",
    }
)
_WS = {"ws-new-socket-per-turn"}  # every reference SUT speaks the Responses WebSocket mode
_DOOR = {"thinking-as-text-block", "bom-unnamed-start", "signature-after-step-stop"}  # its other doors
_DOOR |= set(BRIDGE_FAULTS) | set(DOOR_FAULTS) | set(SCHEMA_FAULTS)  # its Responses and Anthropic doors
GATEWAY_FAULTS = _IO | _STREAM | _WS | _DOOR | {"keep-upstream-open", "nonstream-inline-think"}
GATEWAY_FAULTS |= {"terminate-broken-stream"}
GATEWAY_FAULTS |= {"hide-unasked-reasoning", "drop-unasked-thinking"}
SDK_FAULTS = _IO | _STREAM | _WS | {"nonstream-inline-think", "retry-after-partial"}
PROCESS_FAULTS = frozenset({"leak-child", "early-rmdir", "leave-dir"})
"""Faults that act on the SUT's process tree and session dir, which the cleanup check watches per case:
a case run with one needs the SUT to itself (:func:`own_process_faults`)."""
_CLI = {*PROCESS_FAULTS, "pi-thinking-at-end", "keep-upstream-open", "unsaved-reasoning"}
CLI_FAULTS = _IO | _STREAM | _WS | _CLI


def check_faults(names: Iterable[str], allowed: Iterable[str] = FAULTS, *, where: str = "") -> frozenset[str]:
    """Validate fault names; an unknown one is an :class:`~harness._errors.UnknownName` naming the
    closest of ``allowed``."""
    allowed = set(allowed)
    out = frozenset(names)
    for name in sorted(out):
        if name not in allowed:
            raise UnknownName("fault switch", name, allowed, where=where)
    return out


def own_process_faults(names: Iterable[str]) -> list[str]:
    """The fault switches among ``names`` that need the SUT to themselves for each case (they act on its
    processes and dirs: :data:`PROCESS_FAULTS`), sorted."""
    return sorted(PROCESS_FAULTS.intersection(names))


def is_reasoning(ev: Event) -> bool:
    return isinstance(ev, ReasoningDelta | ReasoningSignature | RedactedReasoning)


def _is_content(ev: Event) -> bool:
    """Events that end a message's reasoning phase (notices are not content)."""
    return not is_reasoning(ev) and not isinstance(ev, Notice)


# --------------------------------------------------------------------------------------------------
# Event side: one stage per fault; the correct path has no stage at all.


# Sans-IO. The correct path is the identity; every fault is one small, clearly marked stage, so a mutant
# differs from the reference only where its bug class lives.
class _Stage:
    def push(self, ev: Event) -> list[Event]:
        return [ev]

    def finish(self) -> list[Event]:
        return []


class _SwallowStreamError(_Stage):
    """``swallow-stream-error``: an upstream error frame becomes a clean stop."""

    def __init__(self) -> None:
        self.ended = False

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, StreamError | End):
            if self.ended:
                return []
            self.ended = True
            return [End("stop")] if isinstance(ev, StreamError) else [ev]
        return [ev]


class _NaiveThinkSplitter(_Stage):
    """``non-leading-think``: every ``<think>``/``</think>`` in the answer switches channel, wherever
    it stands (the correct rule: only a leading tag opens reasoning, and the dialect observer owns it)."""

    OPEN, CLOSE = "<think>", "</think>"

    def __init__(self) -> None:
        self.inside = False
        self.pending = ""
        self.item = ""

    def _out(self, text: str) -> Event:
        return ReasoningDelta(text, item=self.item) if self.inside else TextDelta(text, item=self.item)

    def push(self, ev: Event) -> list[Event]:
        if not isinstance(ev, TextDelta):
            return [*self.finish(), ev]
        self.item = ev.item
        buf, out = self.pending + ev.text, []
        self.pending = ""
        while buf:
            tag = self.CLOSE if self.inside else self.OPEN
            at = buf.find(tag)
            if at >= 0:
                if at:
                    out.append(self._out(buf[:at]))
                self.inside = not self.inside
                buf = buf[at + len(tag) :]
                continue
            keep = next((n for n in range(len(tag) - 1, 0, -1) if buf.endswith(tag[:n])), 0)
            if len(buf) > keep:
                out.append(self._out(buf[: len(buf) - keep]))
            self.pending = buf[len(buf) - keep :]
            break
        return out

    def finish(self) -> list[Event]:
        if not self.pending:
            return []
        out = self._out(self.pending)
        self.pending = ""
        return [out]


class _Hold(_Stage):
    """Holds reasoning events while ``holding()`` says so; releases them before the next content event
    (or at the end), optionally coalesced into one delta."""

    coalesce = False

    def __init__(self) -> None:
        self.held: list[Event] = []

    def holding(self, ev: Event) -> bool:
        return True

    def release(self) -> list[Event]:
        held, self.held = self.held, []
        if not self.coalesce or not held:
            return held
        text = "".join(e.text for e in held if isinstance(e, ReasoningDelta))
        item = next((e.item for e in held if isinstance(e, ReasoningDelta)), "")
        rest: list[Event] = [e for e in held if not isinstance(e, ReasoningDelta)]
        return [ReasoningDelta(text, item=item), *rest] if text else rest

    def push(self, ev: Event) -> list[Event]:
        if is_reasoning(ev) and (self.held or self.holding(ev)):
            self.held.append(ev)
            return []
        if _is_content(ev):
            return [*self.release(), ev]
        return [ev]

    def finish(self) -> list[Event]:
        return self.release()


class _BufferReasoning(_Hold):
    """``buffer-reasoning``: reasoning waits for the answer, a tool call or the end."""


class _ThinkingAtEnd(_Hold):
    """``pi-thinking-at-end``: each thinking block is one record at its end."""

    coalesce = True


class _IgnoreAlias(_Hold):
    """``ignore-alias``: reasoning that came through an alias event (the observer's
    ``Notice("alias")``) is invisible until the item finishes, then it appears all at once."""

    def __init__(self) -> None:
        super().__init__()
        self.alias = False

    def holding(self, ev: Event) -> bool:
        return self.alias

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, Notice) and ev.code == "alias":
            self.alias = True
        return super().push(ev)


class _ToolsBeforeReasoning(_Stage):
    """``tools-before-reasoning``: reasoning is held; a tool call overtakes it; the reasoning follows
    once the tool calls are out."""

    def __init__(self) -> None:
        self.held: list[Event] = []
        self.overtaken = False

    def push(self, ev: Event) -> list[Event]:
        if is_reasoning(ev):
            self.held.append(ev)
            return []
        if isinstance(ev, ToolCallDelta) and self.held:
            self.overtaken = True
            return [ev]
        if self.overtaken and isinstance(ev, ToolCallDelta):
            return [ev]
        if _is_content(ev):
            return [*self.finish(), ev]
        return [ev]

    def finish(self) -> list[Event]:
        held, self.held, self.overtaken = self.held, [], False
        return held


class _ReplayDone(_Stage):
    """``replay-done``: before the end, the whole reasoning and text again (what a gateway that also
    forwards ``*.done`` / ``output_item.done`` delivers)."""

    def __init__(self) -> None:
        self.reasoning: list[ReasoningDelta] = []
        self.text: list[TextDelta] = []

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, ReasoningDelta):
            self.reasoning.append(ev)
        elif isinstance(ev, TextDelta):
            self.text.append(ev)
        elif isinstance(ev, End):
            replay: list[Event] = []
            if self.reasoning:
                text = "".join(e.text for e in self.reasoning)
                replay.append(ReasoningDelta(text, item=self.reasoning[-1].item))
            if self.text:
                replay.append(TextDelta("".join(e.text for e in self.text), item=self.text[-1].item))
            self.reasoning, self.text = [], []
            return [*replay, ev]
        return [ev]


class _DropCallSignatures(_Stage):
    """``drop-call-signatures``: a signature that belongs to a tool call (it follows the call, or names
    the call's id) is lost; signatures of reasoning blocks pass."""

    def __init__(self) -> None:
        self.calls: set[str] = set()
        self.after_call = False

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, ToolCallDelta):
            self.after_call = True
            if ev.id:
                self.calls.add(ev.id)
            return [ev]
        if isinstance(ev, ReasoningSignature) and (self.after_call or ev.item in self.calls):
            return []  # FAULT
        if not isinstance(ev, Notice):
            self.after_call = False
        return [ev]


class _DropTextSignatures(_Stage):
    """``drop-text-signatures``: a signature that follows answer text (and names no tool call) is lost;
    signatures of reasoning blocks and tool calls pass."""

    def __init__(self) -> None:
        self.after_text = False

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, ReasoningSignature):
            return [] if self.after_text else [ev]  # FAULT
        if not isinstance(ev, Notice | Usage):
            self.after_text = isinstance(ev, TextDelta)
        return [ev]


def _without_thoughts(ev: Usage) -> Usage:
    """``output-without-thoughts``: the output count as Gemini's candidatesTokenCount (no thoughts)."""
    return replace(ev, output_tokens=ev.output_tokens - (ev.reasoning_tokens or 0))  # type: ignore[operator]


def _own_call_id(ev: ToolCallDelta) -> str:
    """``mint-tool-ids``: the id a SUT that confuses ids hands out: the Responses item id where the
    observer read one (``fc_...``, not the ``call_id``), else one of its own."""
    return ev.item if ev.item.startswith("fc_") else f"call_gw_{ev.index}"


def _raw_reasoning(ev: Event) -> bool:
    """``drop-reasoning-text``'s blind spot: reasoning text the Responses observer read from a reasoning
    item's content parts (item ``rs_...:cN``), not from its summary (``rs_...:sN``)."""
    return isinstance(ev, ReasoningDelta) and ev.item.startswith("rs_") and ":c" in ev.item


def _mapper(fault: str, ev: Event) -> list[Event]:
    if fault == "drop-reasoning" and is_reasoning(ev):
        return []
    if fault == "drop-reasoning-text" and _raw_reasoning(ev):
        return []  # FAULT: only summaries are read
    if fault == "redacted-as-reasoning" and isinstance(ev, RedactedReasoning):
        return [ReasoningDelta(ev.data, item=ev.item)]
    if fault == "encrypted-as-reasoning" and isinstance(ev, ReasoningSignature):
        return [ev, ReasoningDelta(ev.value, item=ev.item)]  # FAULT: a flagged part read as text
    if fault == "reasoning-into-content" and isinstance(ev, ReasoningDelta):
        return [TextDelta(ev.text, item=ev.item)]
    if fault == "drop-reasoning-tokens" and isinstance(ev, Usage) and ev.reasoning_tokens is not None:
        return [replace(ev, reasoning_tokens=None)]
    if fault == "mint-tool-ids" and isinstance(ev, ToolCallDelta) and ev.id:
        return [replace(ev, id=_own_call_id(ev))]  # FAULT: not the upstream's call id
    if fault == "output-without-thoughts" and isinstance(ev, Usage) and ev.output_tokens is not None:
        return [_without_thoughts(ev)]
    if fault == "double-done" and isinstance(ev, End):
        return [ev, ev]
    return [ev]


class _ReadBothFields(_Stage):
    """``read-both-fields``: after the observer's ``mirrored`` notice (the same text in n fields of one
    chunk), every reasoning delta is read once per field."""

    fields = 1

    def push(self, ev: Event) -> list[Event]:
        if isinstance(ev, Notice) and ev.code == "mirrored" and "(" not in ev.detail:
            self.fields = len(ev.detail.split(","))
        return [ev] * self.fields if isinstance(ev, ReasoningDelta) and ev.text else [ev]


class _Map(_Stage):
    def __init__(self, fault: str) -> None:
        self.fault = fault

    def push(self, ev: Event) -> list[Event]:
        return _mapper(self.fault, ev)


_STAGES: tuple[tuple[str, type[_Stage] | None], ...] = (
    # Order: what the upstream said, then how the SUT misreads it, then what it does to delivery.
    ("swallow-stream-error", _SwallowStreamError),
    ("non-leading-think", _NaiveThinkSplitter),
    ("read-both-fields", _ReadBothFields),
    ("ignore-alias", _IgnoreAlias),
    ("redacted-as-reasoning", None),
    ("encrypted-as-reasoning", None),
    ("drop-reasoning", None),
    ("drop-reasoning-text", None),
    ("reasoning-into-content", None),
    ("buffer-reasoning", _BufferReasoning),
    ("pi-thinking-at-end", _ThinkingAtEnd),
    ("tools-before-reasoning", _ToolsBeforeReasoning),
    ("drop-call-signatures", _DropCallSignatures),
    ("drop-text-signatures", _DropTextSignatures),
    ("replay-done", _ReplayDone),
    ("drop-reasoning-tokens", None),
    ("output-without-thoughts", None),
    ("mint-tool-ids", None),
    ("double-done", None),
)


class FaultFilter:
    """Stateful, sans-IO: canonical events in, the events a SUT with these faults delivers out.

    With no faults it is the identity. ``feed`` one observer batch at a time; ``close`` at EOF
    releases whatever a fault still holds. Faults not about the event stream are ignored here.
    """

    def __init__(self, faults: Iterable[str] = ()) -> None:
        self.faults = check_faults(faults)
        self.stages: list[_Stage] = [
            cls() if cls is not None else _Map(name) for name, cls in _STAGES if name in self.faults
        ]

    def feed(self, events: Sequence[Event]) -> list[Event]:
        if "ignore-alias" in self.faults:
            # The alias notice says how this batch's reasoning arrived: let it lead the batch.
            events = [e for e in events if isinstance(e, Notice)] + [
                e for e in events if not isinstance(e, Notice)
            ]
        out: list[Event] = list(events)
        for stage in self.stages:
            out = [y for x in out for y in stage.push(x)]
        return out

    def close(self) -> list[Event]:
        out: list[Event] = []
        for stage in self.stages:
            out = [y for x in out for y in stage.push(x)] + stage.finish()
        return out

    def run(self, events: Iterable[Event]) -> list[Event]:
        """A whole (non-streaming) turn through the filter."""
        return self.feed(list(events)) + self.close()


def announce_thinking_as_text(frames: Sequence[Frame]) -> list[Frame]:
    """Fault ``thinking-as-text-block`` (an Anthropic front door's frames): a thinking block opens as a
    text block; its deltas follow unchanged (a client that checks block types sees thinking_delta in a
    text block)."""
    out: list[Frame] = []
    for f in frames:
        obj = loads(f.data) if f.event == "content_block_start" else None
        block = obj.get("content_block") if isinstance(obj, dict) else None
        if isinstance(obj, dict) and isinstance(block, dict) and block.get("type") == "thinking":
            obj["content_block"] = {"type": "text", "text": ""}  # FAULT
            f = replace(f, data=dumps_compact(obj))
        out.append(f)
    return out


def signature_after_stop(frames: Sequence[Frame]) -> list[Frame]:
    """Fault ``signature-after-step-stop`` (a Gemini Interactions front door's frames): a thought step's
    ``thought_signature`` delta is written after the ``step.stop`` that closed the step."""
    out = list(frames)
    for n in range(len(out) - 1):
        if (
            out[n].event == "step.delta"
            and out[n + 1].event == "step.stop"
            and b'"thought_signature"' in (out[n].data.encode())
        ):
            out[n], out[n + 1] = out[n + 1], out[n]  # FAULT
    return out


def inline_think(events: Sequence[Event]) -> list[Event]:
    """Fault ``nonstream-inline-think``: a non-streaming answer carries its reasoning inline as a
    leading ``<think>…</think>`` in the content instead of a separate field."""
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    if not reasoning:
        return list(events)
    out: list[Event] = [TextDelta(f"<think>{reasoning}</think>")]
    out += [e for e in events if not isinstance(e, ReasoningDelta)]
    return out


# -- keeping a silent client stream alive (issue 40) -------------------------------------------------
FAULTS["no-keepalive"] = (
    "write nothing to a client's stream while the upstream is silent (no SSE comment, no ping): a client "
    "whose read timeout is shorter than the model's silent reasoning gives up"
)
GATEWAY_FAULTS = GATEWAY_FAULTS | {"no-keepalive"}
