"""The no-think-replay check on hand-built timelines: earlier reasoning that goes back in its own field
passes; the same reasoning inside ``<think>`` in the assistant content fails; reasoning the provider's
own wire carried inside tags, or that the client already got inside tags, is not this check's."""

from __future__ import annotations

from harness._json import dumps_compact
from harness.catalog._scenario import TurnSpec
from harness.events import End, Event, ReasoningDelta, TextDelta
from harness.judge import CHECKS, build_view
from harness.timeline import Timeline
from harness.upstream import Emit
from harness.verdict import Verdict
from tests.judge._fake_case import FakeCase

REASONING = "91 = 7 x 13, so it is composite."
TURNS = (
    TurnSpec((Emit((ReasoningDelta(REASONING), TextDelta("No."), End())),), "Is 91 prime?"),
    TurnSpec((Emit((TextDelta("Yes."), End())),), "And 97?"),
)


def _judge(
    assistant: dict[str, object], *, wire: bytes = b'{"reasoning_content":"x"}', seen: str = "No."
) -> Verdict:
    tl = Timeline()
    tl.add("upstream", "request", turn=0, data=b'{"messages":[{"role":"user","content":"Is 91 prime?"}]}')
    tl.add_write("upstream", wire, 0, frozenset({"reasoning"}))
    client: list[Event] = [ReasoningDelta(REASONING), TextDelta(seen), End()]
    for ev in client:
        tl.add("client", "event", event=ev, turn=0)
    history = [
        {"role": "user", "content": "Is 91 prime?"},
        {"role": "assistant", **assistant},
        {"role": "user", "content": "And 97?"},
    ]
    tl.add("upstream", "request", turn=1, data=dumps_compact({"messages": history}).encode())
    for ev2 in (TextDelta("Yes."), End()):
        tl.add("client", "event", event=ev2, turn=1)
    return CHECKS.get("no-think-replay")(build_view(FakeCase(TURNS), tl, "gateway")).verdict


def test_reasoning_in_its_own_field_passes() -> None:
    assert _judge({"content": "No.", "reasoning_content": REASONING}) == Verdict.PASS


def test_reasoning_left_out_passes() -> None:
    assert _judge({"content": "No."}) == Verdict.PASS


def test_reasoning_inside_think_tags_in_the_content_fails() -> None:
    assert _judge({"content": f"<think>{REASONING}</think>No."}) == Verdict.FAIL


def test_a_content_part_with_tagged_reasoning_fails() -> None:
    parts = [{"type": "text", "text": f"<thinking>{REASONING}</thinking>"}, {"type": "text", "text": "No."}]
    assert _judge({"content": parts}) == Verdict.FAIL


def test_the_providers_own_tags_are_not_judged() -> None:
    # a provider that streams <think> in its content (MiniMax) gets its own content back
    wire = dumps_compact({"content": f"<think>{REASONING}</think>No."}).encode()
    content = f"<think>{REASONING}</think>No."
    assert _judge({"content": content}, wire=wire) == Verdict.NOT_APPLICABLE


def test_tags_the_client_already_got_are_channel_separations() -> None:
    assert _judge({"content": f"<think>{REASONING}</think>No."}, seen="<think>x</think>No.") == (
        Verdict.NOT_APPLICABLE
    )
