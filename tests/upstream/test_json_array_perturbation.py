"""A perturbation acts only on framings it can: on Gemini's JSON-array stream (no ``?alt=sse``) an SSE
perturbation is not played and the ``mode`` entry says so (the verdict is then N/A, never a check that
expects its effect); ``unterminated`` is the array's own truncation: every element whole, no ``]``."""

from __future__ import annotations

import httpx

from harness.codec._jsonarray import JSONArrayDecoder
from harness.events import End, ReasoningDelta, TextDelta
from harness.timeline import Timeline
from harness.upstream import ClientSide, Conversation, Emit, MockUpstream, Script

TURN = (ReasoningDelta("Think."), TextDelta("Hi."), End())
BODY = {
    "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    "generationConfig": {"thinkingConfig": {"includeThoughts": True}},
}
ARRAY = "/v1beta/models/gemini-2.5-pro:streamGenerateContent"


def _serve(up: MockUpstream, perturbation: str, target: str) -> tuple[bytes, dict[str, object]]:
    tl = Timeline()
    up.load(
        Conversation((Script("gemini", (Emit(TURN),), variant="thought", perturbation=perturbation),)),
        timeline=tl,
        client=ClientSide(),
    )
    body = httpx.post(up.base_url + target, json=BODY).content
    mode = tl.select("upstream", "mode")[-1].info
    return body, dict(mode)


def test_an_sse_perturbation_is_not_played_on_a_json_array_and_the_mode_says_so(up: MockUpstream) -> None:
    body, mode = _serve(up, "bom", ARRAY)
    assert body.startswith(b"[")
    assert mode["transport"] == "json-array"
    assert mode["perturbation"] == "none"
    assert mode["perturbed"] is False
    sse, mode = _serve(up, "bom", ARRAY + "?alt=sse")
    assert sse.startswith(b"\xef\xbb\xbf")
    assert mode["perturbed"] is True


def test_unterminated_truncates_a_json_array(up: MockUpstream) -> None:
    whole, _ = _serve(up, "none", ARRAY)
    cut, mode = _serve(up, "unterminated", ARRAY)
    assert whole.endswith(b"\n]")
    assert cut == whole[: -len(b"\n]")]
    assert mode["perturbed"] is True
    dec = JSONArrayDecoder()
    assert len(dec.feed(cut)) == len(JSONArrayDecoder().feed(whole))  # every element arrives whole
    dec.end()
    assert "unterminated" in dec.anomalies
