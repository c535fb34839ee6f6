"""Request shaping follows the case's variant (issue 46 item 0): thinkwire's client behind an Anthropic
front door asks an adaptive-only model's case for adaptive thinking, never the manual ``thinking:
enabled`` form that model answers with a 400; other cases keep the front door's form."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from harness.drivers._shaping import request_variant
from harness.runner import run
from harness.runner._builtin import builtin_profile

ADAPTIVE = "tools-passback/anthropic-adaptive[anthropic-messages:adaptive/frames]"


def test_the_case_s_own_form_where_its_model_takes_no_other() -> None:
    ant = "anthropic-messages"
    assert request_variant(ant, "thinking", ant, "adaptive") == "adaptive"
    assert request_variant(ant, "thinking", ant, "omitted") == "omitted"
    assert request_variant(ant, "thinking", ant, "interleaved") == "thinking"
    assert request_variant("openai-chat", "reasoning", "anthropic-messages", "adaptive") == "reasoning"


@pytest.mark.slow
def test_the_anthropic_front_door_asks_an_adaptive_case_for_adaptive_thinking() -> None:
    sut = replace(
        builtin_profile("reference", ()),
        front_door="anthropic-messages",
        front_variant="thinking",
        path="/v1/messages",
    )
    (r,) = run([ADAPTIVE], sut=sut, expectations=None, keep_timelines=True).results
    sent = [e for e in r.timeline if (e["side"], e["act"]) == ("client", "request")]
    assert sent
    for e in sent:
        body = json.loads(e["text"])
        assert body["thinking"]["type"] == "adaptive", body["thinking"]
        assert "budget_tokens" not in body["thinking"]
