"""Catalog self-test: no case runs without its premise. A case on a variant with a premise carries it
(every case on ``anthropic-messages:redacted`` has a redacted step), every perturbation changes the
bytes of its case's answer, and every model/rule pair is one the real API has (adaptive-only and
display-omitted rules under Opus 4.7 and later, Vertex rules on Vertex's endpoint)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from harness.catalog._case import Case, expand_all, needed_caps
from harness.catalog._catalog import load_catalog
from harness.dialects import answer_for, get_dialect
from harness.dialects._request_forms import adaptive_only, claude_thinks_by_default
from harness.events import Message, RedactedReasoning
from harness.upstream import Emit, build_plan

CASES = expand_all(load_catalog())


def _client_request(case: Case) -> tuple[str, dict[str, object]]:
    """The upstream request thinkwire's client sends for the case's first turn (its path and body)."""
    spec = get_dialect(case.dialect).build_request(
        [Message.user("hi")], model=case.provider.model, stream=case.stream, variant=case.variant
    )
    return spec.path, spec.body


def test_every_case_on_a_variant_with_a_premise_carries_it() -> None:
    premised = [c for c in CASES if get_dialect(c.dialect).variants[c.variant].premise]
    assert premised, "no variant has a premise: the test would pass hollowly"
    for c in premised:
        assert get_dialect(c.dialect).variants[c.variant].premise <= needed_caps(c.scenario), c.id
    redacted = [c for c in CASES if (c.dialect, c.variant) == ("anthropic-messages", "redacted")]
    assert redacted
    for c in redacted:
        events = [e for t in c.turns for e in t.events()]
        assert any(isinstance(e, RedactedReasoning) for e in events), c.id


@pytest.mark.parametrize("case", [c for c in CASES if c.perturbation != "none"], ids=lambda c: c.id)
def test_every_perturbation_acts_on_the_bytes_of_its_case(case: Case) -> None:
    script = case.conversation(case.provider.model).scripts[0]
    if not any(isinstance(s, Emit) for s in script.steps):
        pytest.skip("no emitted frames to perturb")
    path, body = _client_request(case)
    plain = replace(script, perturbation="none")
    kw = {"path": path.split("?")[0], "target": path, "request": body, "stream": case.stream, "lazy": False}
    assert build_plan(script, **kw).body() != build_plan(plain, **kw).body(), case.id  # type: ignore[arg-type]


def test_every_model_rule_pair_is_one_the_real_api_has() -> None:
    checked = 0
    for c in CASES:
        model = c.provider.model
        path, body = _client_request(c)
        if c.provider_rules == "anthropic-adaptive" or c.variant in ("adaptive", "omitted"):
            assert adaptive_only(model), f"{c.id}: adaptive-only / display-omitted rules under {model}"
            checked += 1
        if c.provider_rules == "vertex" or c.variant == "vertex":
            assert "/publishers/anthropic/models/" in path, f"{c.id}: Vertex rules on {path}"
            assert path.endswith((":rawPredict", ":streamRawPredict")), c.id
            checked += 1
        if c.variant == "unasked":  # the client names no thinking: the model must think by default
            assert "thinking" not in body, c.id
            assert claude_thinks_by_default(model), c.id
            checked += 1
            continue
        if c.dialect == "anthropic-messages" and c.variant not in ("adaptive", "omitted"):
            thinking = body.get("thinking")
            if adaptive_only(model):
                assert isinstance(thinking, dict), c.id
                assert thinking.get("type") == "adaptive", c.id
    assert checked


def test_thinkwire_client_asks_for_every_premise_form_of_its_cases() -> None:
    """The catalog's own client never loses a case's premise to the request it sends."""
    for c in CASES:
        _, body = _client_request(c)
        model = c.provider.model
        answer = answer_for(c.dialect, c.variant, body, rules=c.provider_rules, stream=c.stream, model=model)
        events = tuple(e for t in c.turns for e in t.events())
        assert not answer.withheld(events), (c.id, [r.name for r in answer.withheld(events)])
