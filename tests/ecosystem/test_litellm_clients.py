"""The LiteLLM SDK adapter's HTTP clients (harness/sdks/_litellm.py ``_Clients``): every LiteLLM call has
its own, handed to LiteLLM as ``client=``, so no pool is used again after its turn (on LiteLLM's one
shared module-level client, a stream left to the garbage collector deadlocked the SUT thread on
httpcore's pool lock, encode/httpcore#990, and every later case of the run with it); what LiteLLM left
open stays open while its case is observed, and is closed once the next conversation starts."""

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
PROFILES = Path(__file__).resolve().parents[2] / "profiles"
COMPLETION = PROFILES / "litellm-sdk-completion.toml"
# the chat-to-Responses bridge: the error it raises mid-stream keeps the stream alive in its traceback's
# frames (a cycle: only the collector would close it), and its close() closes no response
BRIDGE_ERROR = "errors-cancellation/mid-stream-error[openai-responses:summary/frames]"
BRIDGE_CANCEL = "errors-cancellation/client-cancel[openai-responses:summary/frames]"
DEEPSEEK = "tools-passback/deepseek-reasoning-content[openai-chat:reasoning_content/frames]"  # HTTPHandler
KIMI = "tools-passback/kimi-reasoning-content[openai-chat:reasoning_content/frames]"  # the openai SDK route


def _open_pool_streams() -> list[Any]:
    from httpcore._sync.connection_pool import PoolByteStream

    return [o for o in gc.get_objects() if isinstance(o, PoolByteStream) and not o._closed]


def _close_retired() -> None:
    from harness.sdks import _litellm

    getattr(_litellm, "_close_retired", lambda: None)()  # (none before the adapter retired its clients)


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic garbage collector off: what is left open stays open, to be seen."""
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
    result = run(list(cases), sut=load_profile(COMPLETION), expectations=None)
    verdicts = {r.case_id: r.stream for r in result.results}
    assert verdicts == dict.fromkeys(cases, Verdict.PASS), verdicts
    _close_retired()  # (what the next run's first conversation does)
    assert len(_open_pool_streams()) == before


def test_every_call_has_a_client_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    litellm = pytest.importorskip("litellm")
    seen: list[Any] = []
    real = litellm.completion

    def completion(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("client"))
        return real(*args, **kwargs)

    monkeypatch.setattr(litellm, "completion", completion)
    result = run([DEEPSEEK, KIMI], sut=load_profile(COMPLETION), expectations=None)
    assert [r.stream for r in result.results] == [Verdict.PASS, Verdict.PASS]
    assert len(seen) >= 4  # two turns each
    assert len({id(c) for c in seen}) == len(seen)  # never one reused
    assert [type(c).__name__ for c in seen[-4:]] == ["HTTPHandler"] * 2 + ["OpenAI"] * 2  # LiteLLM's routes
    http = [c._client for c in seen]  # (HTTPHandler.client would make a new one for a closed one)
    assert not http[-1].is_closed  # open while its case is observed
    _close_retired()
    assert all(h.is_closed for h in http)


def test_what_litellm_leaves_open_stays_visible() -> None:
    """LiteLLM's responses() bridge to Anthropic keeps its upstream open after a client cancel: the
    adapter's own clients must not close it while the case is observed (cleanup UNCLEAN stays)."""
    pytest.importorskip("litellm")
    case = "errors-cancellation/client-cancel[anthropic-messages:thinking/frames]"
    result = run([case], sut=load_profile(PROFILES / "litellm-sdk-responses.toml"), expectations=None)
    (r,) = result.results
    _close_retired()
    assert r.cleanup is Verdict.UNCLEAN, [(f.check, f.verdict, f.message) for f in r.findings]
