"""A gate's text condition is searched incrementally (only the new text each time it is checked) and
agrees with a plain substring test at every step, whatever the split of the text into deltas."""

from __future__ import annotations

import random

import pytest

from harness.events import ReasoningDelta, TextDelta
from harness.upstream import Gate
from harness.upstream._gates import ClientSide


@pytest.mark.parametrize("seed", range(40))
def test_incremental_search_agrees_with_substring(seed: int) -> None:
    rng = random.Random(seed)
    client = ClientSide()
    text = "".join(rng.choice("ab") for _ in range(rng.randint(0, 40)))
    needles = ["".join(rng.choice("ab") for _ in range(rng.randint(1, 5))) for _ in range(3)]
    gates = [Gate(reasoning=n) for n in needles]
    seen, pos = "", 0
    while pos < len(text):
        piece = text[pos : pos + rng.randint(1, 4)]
        pos += len(piece)
        client.observe(ReasoningDelta(piece))
        client.observe(TextDelta("b"))  # text never counts for a reasoning gate
        seen += piece
        for gate, needle in zip(gates, needles, strict=True):
            if rng.random() < 0.6:  # checked at some steps only: the carry spans several deltas
                assert client.satisfied(gate) == (needle in seen), (seen, needle)
    for gate, needle in zip(gates, needles, strict=True):
        assert client.satisfied(gate) == (needle in seen)
    client.reset()
    assert not any(client.satisfied(g) for g in gates)
