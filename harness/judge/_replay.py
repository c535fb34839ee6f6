"""The no-think-replay check: reasoning of an earlier turn never goes back to the provider as ``<think>`` text
inside an assistant message's content. The model would then read its old reasoning as something it said and
echo it into its answer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness._json import loads
from harness.judge._base import check, na
from harness.judge._view import CaseView, TurnView
from harness.verdict import Finding, Verdict

__all__: list[str] = []

OPENERS = ("<think>", "<thinking>", "<thought>", "<reasoning>")
"""The tags a SUT folds reasoning into (DeepSeek-R1 distills, Claude-style prompts, Gemma, generic)."""


def _strings(obj: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string of a parsed JSON body, with its path."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(v, f"{path}.{k}" if path else str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _strings(v, f"{path}[{i}]")


def _tagged(s: str, reasoning: str) -> bool:
    """``s`` holds ``reasoning`` after an opening think tag."""
    at = s.find(reasoning)
    return at >= 0 and any(0 <= s.find(tag) < at for tag in OPENERS)


def _judged(u: TurnView) -> str:
    """The reasoning of turn ``u`` this check may judge a replay of ('' when none or not its cause)."""
    reasoning = u.expected_reasoning.strip()
    if not reasoning or not u.reached:
        return ""
    if any(tag.encode() in w.data for w in u.writes for tag in OPENERS):
        return ""  # the provider's own wire carried the tags: its content, not a replay
    if any(tag in u.text for tag in OPENERS):
        return ""  # the client got the tags from the SUT (channel-separation's), then echoed them
    return reasoning


# It reads the SUT's own upstream requests: a JSON string of a continuation request that holds an earlier
# turn's reasoning inside think tags is the replay. Reasoning the provider itself sent inside tags, or that
# the SUT already gave its client inside tags, is not judged here; channel-separation owns that cause, and
# the client echoes what it got.
@check(
    "no-think-replay",
    "Reasoning of earlier turns never goes back to the provider as <think> text inside an assistant "
    "message's content (the model then echoes it into its answer); it goes back in the provider's "
    "reasoning field, or not at all.",
)
def no_think_replay(view: CaseView) -> Finding:
    continued = 0
    for t in view.turns[1:]:
        earlier = [(u, r) for u in view.turns[: t.turn] if (r := _judged(u))]
        if not t.requests or not earlier:
            continue
        continued += 1
        for req in t.requests:
            try:
                body = loads(req.data)
            except ValueError:
                continue
            for path, s in _strings(body):
                u = next((u for u, r in earlier if _tagged(s, r)), None)
                if u is None:
                    continue
                return Finding(
                    "no-think-replay",
                    Verdict.FAIL,
                    message=f"turn {t.turn}: the SUT's upstream request carried turn {u.turn}'s reasoning "
                    f"back as think-tagged text in {path}",
                    expected="earlier reasoning in the provider's reasoning field (or left out), never "
                    "inside the content as <think>...</think>",
                    actual=f"{path} = {s[:200]!r}",
                    evidence=(view.index_of(req),),
                )
    if not continued:
        return na("no-think-replay", "no continuation request followed a turn with reasoning")
    return Finding("no-think-replay", Verdict.PASS, message=f"{continued} continuation(s) without a replay")
