"""The LiteLLM SDK adapter's HTTP clients (harness/sdks/_litellm.py ``_Clients``): every conversation has
its own, handed to LiteLLM as ``client=`` and closed when it ends, and no response a turn opened is left
for the garbage collector to close (on LiteLLM's one shared module-level client that deadlocked the SUT
thread on httpcore's pool lock, encode/httpcore#990, and every later case of the run with it)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.drivers import load_profile
from harness.runner import run
from harness.verdict import Verdict

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
PROFILE = Path(__file__).resolve().parents[2] / "profiles" / "litellm-sdk-completion.toml"
# the chat-to-Responses bridge: LiteLLM's close() leaves its response open (a client cancel), and the
# error it raises mid-stream keeps the stream alive in its traceback's frames (a cycle: only the
# collector would close it)
BRIDGE_CANCEL = "errors-cancellation/client-cancel[openai-responses:summary/frames]"
BRIDGE_ERROR = "errors-cancellation/mid-stream-error[openai-responses:summary/frames]"
DEEPSEEK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"  # HTTPHandler
KIMI = "tools-passback/kimi-reasoning-content[openai-chat:reasoning_content/frames]"  # the openai SDK route


def _open_pool_streams() -> list[Any]:
    from httpcore._sync.connection_pool import PoolByteStream

    return [o for o in gc.get_objects() if isinstance(o, PoolByteStream) and not o._closed]


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic garbage collector off: what the adapter leaves open stays open, to be seen."""
    pytest.importorskip("litellm")
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.usefixtures("no_collector")
def test_no_response_is_left_for_the_garbage_collector() -> None:
    before = len(_open_pool_streams())
    cases = (BRIDGE_CANCEL, BRIDGE_ERROR, DEEPSEEK, KIMI)
    result = run(list(cases), sut=load_profile(PROFILE), expectations=None)
    verdicts = {r.case_id: r.stream for r in result.results}
    assert verdicts == dict.fromkeys(cases, Verdict.PASS), verdicts
    assert len(_open_pool_streams()) == before


def test_each_conversation_has_its_own_clients_closed_at_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    litellm = pytest.importorskip("litellm")
    seen: list[Any] = []
    real = litellm.completion

    def completion(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("client"))
        return real(*args, **kwargs)

    monkeypatch.setattr(litellm, "completion", completion)
    result = run([DEEPSEEK, KIMI], sut=load_profile(PROFILE), expectations=None)
    assert [r.stream for r in result.results] == [Verdict.PASS, Verdict.PASS]
    # the conversations in order (the run's warm-up first), each with its clients across its turns
    clients = [c for i, c in enumerate(seen) if i == 0 or seen[i - 1] is not c]
    assert len(clients) == len({id(c) for c in clients}) >= 2  # never one a later conversation reuses
    assert len(seen) >= len(clients) + 2  # the tool loops' second turns used their conversation's own
    assert [type(c).__name__ for c in clients[-2:]] == ["HTTPHandler", "OpenAI"]  # by LiteLLM's route
    assert all(c._client.is_closed for c in clients)  # closed when their conversation ended
