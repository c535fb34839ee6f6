"""Responses providers that degrade silently: OpenAI's codex models, where a client drops an assistant
message's ``phase``, and xAI, where dropped encrypted reasoning degrades and altered encrypted reasoning is
a 400. ``fidelity`` compares what this upstream emitted with what came back; ``validate`` answers the
provider's exact error only where the provider rejects, and sources are named per provider."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from harness._json import dumps_compact, loads
from harness.dialects._base import Difference, Fidelity, ProviderRules, Rejection
from harness.dialects.openai_responses._rules import _OpenAI, altered_encrypted, input_items, opaque_blobs
from harness.dialects.openai_responses._wire import phase_of
from harness.events import Message, TextBlock, Turn

__all__ = ["RULES", "XAI_NOT_DECRYPTED"]

XAI_NOT_DECRYPTED = (
    "Could not decrypt the provided encrypted_content. Ensure the value is the unmodified encrypted_content "
    "from a previous response."
)
"""Recorded (a 400 from api.x.ai quoted in NousResearch/hermes-agent's xAI fallback report)."""


def _assistant_texts(items: Sequence[Any]) -> list[tuple[int, Mapping[str, Any], str]]:
    out = []
    for n, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        if item.get("type", "message") == "message" and item.get("role") == "assistant":
            content = item.get("content")
            parts = content if isinstance(content, list) else [{"text": content}]
            text = "".join(str(p.get("text") or "") for p in parts if isinstance(p, Mapping))
            out.append((n, item, text))
    return out


@dataclass(slots=True)
class _Codex(_OpenAI):
    """OpenAI's gpt-5.3-codex and later: every assistant message comes back with the ``phase`` it was
    given (openai ``ResponseOutputMessage.phase``: "preserve and resend phase on all assistant
    messages — dropping it can degrade performance"). A lost phase answers 200: NON_STRICT; the rest
    is the ``openai`` rules'."""

    name: str = "openai-codex"
    description: str = (
        "OpenAI gpt-5.3-codex+: as openai, and assistant messages resend their phase (dropping it degrades)"
    )

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        items = request.get("input")
        if not isinstance(items, list):
            return None
        base = _OpenAI.fidelity(self, request, emitted)
        phases = {}
        for m in emitted:
            for k, b in enumerate(m.content):
                if isinstance(b, TextBlock) and b.text:
                    phases[b.text] = phase_of(m.content[k + 1 :])
        diffs: list[Difference] = list(base.differences) if base is not None else []
        for n, item, text in _assistant_texts(items):
            want = phases.get(text)
            if want is not None and item.get("phase") != want:
                diffs.append((f"input[{n}].phase", item.get("phase"), want))
        return Fidelity("openai/phase", tuple(diffs), rejects=base is not None and base.rejects)


@dataclass(slots=True)
class _Xai(ProviderRules):
    """xAI's Responses API (https://docs.x.ai/developers/advanced-api-usage/troubleshooting-reasoning):
    reasoning items come back with their ``encrypted_content``, in place; "when an integration loses
    it, nothing fails: the API returns 200, and results can get worse". An altered blob cannot be
    decrypted: 400 with xAI's own body (``code`` / ``error`` strings). No rule about item order. Input
    items are read with OpenAI's schema (xAI's Responses API takes the OpenAI SDK's requests:
    https://docs.x.ai/docs/guides/responses-api), so what that schema rejects is a 400 here too, in
    xAI's body."""

    name: str = "xai"
    dialect: str = "openai-responses"
    description: str = "xAI Grok: encrypted reasoning back in place (lost: degraded; altered: 400)"

    def shape(self, request: Mapping[str, Any], turn: Turn) -> Turn:
        return turn

    request_rules: ClassVar[tuple[str, ...]] = ("openai/unknown-input-item", "openai/no-tool-call")

    def validate(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Rejection | None:
        items = request.get("input")
        # OpenAI's item schema first, then outputs that answer no call
        schema = input_items(request, emitted) or input_items(request, emitted, calls=True)
        if schema is not None:
            message = loads(schema.body)["error"]["message"]
            body = dumps_compact({"code": "Client specified an invalid argument", "error": message})
            return replace(schema, body=body.encode())
        bad = altered_encrypted(items, emitted) if isinstance(items, list) else []
        if not bad:
            return None
        n, enc, want = bad[0]
        body = dumps_compact({"code": "Client specified an invalid argument", "error": XAI_NOT_DECRYPTED})
        diff: Difference = (f"input[{n}].encrypted_content", enc, want)
        return Rejection(400, body.encode(), "xai/encrypted-content-altered", (diff,), kind="fidelity")

    def fidelity(self, request: Mapping[str, Any], emitted: Sequence[Message]) -> Fidelity | None:
        items = request.get("input")
        if not isinstance(items, list):
            return None
        bad = altered_encrypted(items, emitted)
        diffs: list[Difference] = [(f"input[{n}].encrypted_content", enc, want) for n, enc, want in bad]
        reasoning = [i for i in items if isinstance(i, Mapping) and i.get("type") == "reasoning"]
        given = {i.get("encrypted_content") for i in reasoning}
        lost = [blob for m in emitted for blob in opaque_blobs(m) if blob not in given]
        if not bad:
            diffs += [("input[reasoning].encrypted_content", None, blob) for blob in lost]
        return Fidelity("xai/encrypted-reasoning", tuple(diffs), rejects=bool(bad))


RULES: dict[str, ProviderRules] = {p.name: p for p in (_Codex(), _Xai())}
