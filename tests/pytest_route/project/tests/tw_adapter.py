"""The wrapper under test, as the thinkwire adapter of a project's tests/ sees it.

A stand-in for your own code: ``stream`` is thinkwire's reference SDK (it claims openai-chat only), and
``reasoning_of`` is the wrapper's own decoder of a streamed chat completion. ``TW_ADAPTER_BUG`` plants a
bug: ``lose-passback`` (the continuation loses the reasoning) or ``double`` (the last reasoning piece
is delivered twice).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator

import httpx

import harness
from harness.events import Event
from harness.reference.sdk import reference_sdk


def _bug() -> str:
    return os.environ.get("TW_ADAPTER_BUG", "")


# what the wrapper speaks (the rest of the catalog is deselected), and that it keeps no state between
# calls, so a run puts several cases in flight at once
@harness.claims(dialects=["openai-chat"], concurrent=True)
def stream(request: harness.SUTRequest) -> Iterator[Event]:
    if _bug() == "lose-passback":
        request = dataclasses.replace(request, faults=request.faults | {"lose-passback"})
    yield from reference_sdk(request)


def reasoning_of(base_url: str) -> str:
    """The reasoning of one streamed chat completion from ``base_url``."""
    pieces: list[str] = []
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    with httpx.stream("POST", f"{base_url}/v1/chat/completions", json=body, timeout=10) as resp:
        for line in resp.iter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            for choice in json.loads(line[6:]).get("choices", []):
                piece = (choice.get("delta") or {}).get("reasoning_content")
                if piece:
                    pieces.append(piece)
    if _bug() == "double" and pieces:
        pieces.append(pieces[-1])
    return "".join(pieces)
