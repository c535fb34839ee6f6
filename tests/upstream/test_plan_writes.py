"""Planning shortcuts give the plans the general path gives: one write per whole piece skips the
offset sweep; gates learn what they withhold in one backward sweep."""

from __future__ import annotations

import pytest

from harness.dialects import Frame
from harness.upstream import EmitFrames, Gate, Raw, Script, build_plan
from harness.upstream._writes import WaitGate, Write
from harness.upstream._writes import Write as _Piece
from harness.upstream._writes import attribute as _attribute

R = frozenset({"reasoning"})
T = frozenset({"text"})


@pytest.mark.parametrize(
    "pieces",
    [
        [_Piece(b"data: 1\n\n", R, 0), _Piece(b"data: 2\n\n", T, 1), _Piece(b"\n", frozenset(), None)],
        [_Piece(b"\xef\xbb", frozenset(), None), _Piece(b"\xbfdata: 1\n\n", R, 0)],
        [_Piece(b"", R, 0), _Piece(b"data: 2\n\n", T, 1)],  # an empty piece: the sweep decides
        [_Piece(b"a", R, 0)],
    ],
)
def test_one_write_per_piece_matches_the_sweep(pieces: list[_Piece]) -> None:
    writes = [p.data for p in pieces if p.data]  # what the default "frames" chunker returns
    copies = [bytes(bytearray(w)) for w in writes]  # equal bytes, other objects: forces the sweep
    assert _attribute(pieces, writes) == _attribute(pieces, copies)


def test_gates_withhold_the_next_write() -> None:
    steps = (
        EmitFrames((Frame("1", tags=R),)),
        Gate(events=1),
        Gate(events=2),
        Raw((b"raw",)),
        EmitFrames((Frame("2", tags=T | R),)),
        Gate(events=3),
    )
    plan = build_plan(Script("openai-chat", steps, terminator="missing"), stream=True)
    gates = [a.withheld for a in plan.actions if isinstance(a, WaitGate)]
    assert gates == [
        {"frame": None, "tags": [], "data": "raw"},
        {"frame": None, "tags": [], "data": "raw"},
        {"frame": None, "tags": [], "data": ""},  # nothing left to withhold
    ]
    writes = [a for a in plan.actions if isinstance(a, Write)]
    assert [(w.data, sorted(w.tags), w.frame) for w in writes] == [
        (b"data: 1\n\n", ["reasoning"], 0),
        (b"raw", [], None),
        (b"data: 2\n\n", ["reasoning", "text"], 1),
    ]
