"""Lazy planning: a streaming plan built a batch of frames at a time is the plan built whole (same
actions, same bytes, same frame tags, same withheld info, same events), for every script of the
catalog and at every batch size; the first action of a 20,000-frame stream comes before its frames
are encoded, and only a batch of them is held."""

from __future__ import annotations

import itertools
import tracemalloc

import pytest

from harness.catalog import expand, load_catalog
from harness.dialects.anthropic_messages import _wire as _anthropic_wire
from harness.dialects.openai_chat import _wire as _chat_wire
from harness.dialects.openai_responses import _wire as _responses_wire
from harness.events import End, ReasoningDelta, TextDelta
from harness.upstream import Emit, Gate, Script, _plan, _writes, build_plan
from harness.upstream._plan import Head, Write


def _catalog_scripts() -> list[tuple[str, Script]]:
    out = []
    for s in load_catalog():
        for case in expand(s):
            for i, script in enumerate(case.conversation().scripts):
                out.append((f"{case.id}#{i}", script))
    return out


SCRIPTS = _catalog_scripts()


@pytest.mark.parametrize("batch", [1, 2, 64])
def test_lazy_plans_equal_whole_plans_across_the_catalog(monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    monkeypatch.setattr(_writes, "BATCH", batch)

    def fresh_ids() -> None:  # emitters number their mock message ids from a module counter
        for mod in (_anthropic_wire, _responses_wire, _chat_wire):
            monkeypatch.setattr(mod, "_ids", itertools.count(1))

    lazy_seen = 0
    for cid, script in SCRIPTS:
        fresh_ids()
        whole = build_plan(script, stream=True, lazy=False)
        fresh_ids()
        lazy = build_plan(script, stream=True)
        assert not whole.lazy
        lazy_seen += lazy.lazy
        assert lazy.events == whole.events, cid
        assert list(lazy) == list(whole.actions), cid
        fresh_ids()
        assert lazy.actions == whole.actions, cid  # materialised, the same again
    assert lazy_seen > len(SCRIPTS) // 2  # most of the catalog streams lazily


def test_batch_dependent_chunkers_stay_whole() -> None:
    events = (*(ReasoningDelta(f"r{i} ") for i in range(200)), End())
    for chunking in ("tiny", "random:7", "whole", "offsets:3,700"):
        assert not build_plan(Script("openai-chat", (Emit(events),), chunking=chunking), stream=True).lazy
    plan = build_plan(Script("openai-chat", (Emit(events),), perturbation="comments"), stream=True)
    assert not plan.lazy


def _long(n: int) -> Script:
    events = [ReasoningDelta(f"step {i} of the argument. ") for i in range(n)]
    return Script("openai-chat", (Emit((*events, TextDelta("Done."), End())),), variant="reasoning_content")


def test_first_write_before_the_stream_is_encoded() -> None:
    plan = build_plan(_long(20_000), stream=True)
    assert plan.lazy
    it = iter(plan)
    head, role, first = next(it), next(it), next(it)
    assert isinstance(head, Head)
    assert isinstance(role, Write)
    assert b'"role":"assistant"' in role.data
    assert isinstance(first, Write)
    assert b"step 0 of" in first.data
    # taking the first 100 writes planned about two batches, not 20,000 frames
    taken = list(itertools.islice(it, 100))
    assert all(isinstance(a, Write) for a in taken)


def test_memory_of_a_lazy_stream_does_not_grow_with_its_length() -> None:
    """Peak traced memory while walking a plan (dropping each action, as the server does): a stream
    8x longer needs about the same (the script's own events aside, built before tracing)."""

    def peak(script: Script) -> int:
        tracemalloc.start()
        try:
            for _ in build_plan(script, stream=True):
                pass
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    short, long_ = _long(2_500), _long(20_000)
    p_short, p_long = peak(short), peak(long_)
    p_whole = len(build_plan(long_, stream=True, lazy=False).body())
    assert p_long < 2 * p_short + 200_000
    assert p_long < p_whole // 4  # far below the encoded stream (what a whole plan holds and more)


def test_plan_can_be_taken_twice_and_gates_withhold_the_next_write(monkeypatch: pytest.MonkeyPatch) -> None:
    events = tuple(ReasoningDelta(f"r{i} ") for i in range(300))
    script = Script("openai-chat", (Emit(events), Gate(reasoning="r299"), Emit((TextDelta("t"), End()))))
    plan = build_plan(script, stream=True)
    monkeypatch.setattr(_chat_wire, "_ids", itertools.count(1))
    first = list(plan)
    monkeypatch.setattr(_chat_wire, "_ids", itertools.count(1))
    assert list(plan) == first  # planned anew, the same (but for the emitter's next mock id)
    (gate,) = [a for a in first if isinstance(a, _plan.WaitGate)]
    assert '"content":"t"' in gate.withheld["data"]


def test_frames_given_as_frames_are_batched_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.dialects import Frame
    from harness.upstream import EmitFrames

    monkeypatch.setattr(_writes, "BATCH", 3)
    frames = tuple(Frame(f'{{"n":{i}}}', tags=frozenset({"reasoning"})) for i in range(10))
    for perturbation in ("none", "bom", "unterminated"):
        script = Script(
            "openai-chat", (EmitFrames(frames), Gate(events=1), EmitFrames(frames)), perturbation=perturbation
        )
        lazy, whole = build_plan(script, stream=True), build_plan(script, stream=True, lazy=False)
        assert lazy.lazy
        assert list(lazy) == list(whole.actions)
