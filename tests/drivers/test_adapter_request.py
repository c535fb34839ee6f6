"""What an adapter's turn request carries: the scenario's request fields for the turn beside the
profile's request shaping, in ``body`` (docs/adapter-protocol.md, *The turn request*)."""

from __future__ import annotations

from harness.drivers import parse_profile


def test_an_adapter_turn_carries_the_scenario_s_request_fields() -> None:
    """The ``body`` an adapter gets holds the scenario's fields for the turn (a forced tool_choice), as
    a Python SUT's ``SUTRequest.body`` does, beside the shaping's."""
    from harness.drivers._adapter import AdapterDriver
    from harness.drivers._base import CaseContext
    from harness.runner import load_cases
    from harness.timeline import Timeline

    (case,) = load_cases(["incrementality/forced-tool-choice[openai-chat:reasoning_content/frames]"])
    profile = parse_profile({"kind": "adapter", "command": ["true"], "request": {"body": {"seed": 7}}})
    ctx = CaseContext(case, "http://127.0.0.1:9", Timeline(), None, "m", 5.0)
    body = AdapterDriver(profile)._fields(ctx, 0)["body"]
    assert body == {"tool_choice": {"type": "function", "function": {"name": "get_weather"}}, "seed": 7}
