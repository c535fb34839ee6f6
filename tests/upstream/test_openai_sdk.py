"""The official openai SDK as the client: over real loopback (MockUpstream) and in-process (respx)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import openai
import pytest
import respx

from harness.dialects.openai_chat._rules import DS2_MESSAGE
from harness.events import End, ReasoningDelta, TextDelta, ToolCallDelta
from harness.timeline import Timeline
from harness.upstream import (
    ClientSide,
    Conversation,
    Emit,
    Gate,
    MockUpstream,
    RespxUpstream,
    Script,
    mount_respx,
)

TURN = Emit((ReasoningDelta("Let me think."), TextDelta("Hi!"), End()))
GATED = (
    Emit((ReasoningDelta("first"),)),
    Gate(reasoning="first", timeout=5),
    Emit((ReasoningDelta(" second"), TextDelta("Hi!"), End())),
)
MESSAGES = [{"role": "user", "content": "hi"}]


def sdk(base_url: str, **kw: object) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key="sk-test", max_retries=0, **kw)  # type: ignore[arg-type]


def reasoning_of(chunk: object) -> str:
    delta = chunk.choices[0].delta if chunk.choices else None  # type: ignore[attr-defined]
    return (delta.model_extra or {}).get("reasoning_content") or "" if delta is not None else ""


# --- loopback --------------------------------------------------------------------------------------
@pytest.fixture
def client_sdk(up: MockUpstream) -> Iterator[openai.OpenAI]:
    c = sdk(up.base_url + "/v1")
    yield c
    c.close()


def test_reasoning_arrives_as_an_extra_field(up: MockUpstream, client_sdk: openai.OpenAI) -> None:
    up.load(Script("openai-chat", (TURN,), variant="reasoning_content"))
    stream = client_sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
    chunks = list(stream)
    assert "".join(map(reasoning_of, chunks)) == "Let me think."
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "Hi!"
    (req,) = up.requests
    assert (req.path, req.json["stream"], req.turn) == ("/v1/chat/completions", True, 0)


def test_non_streaming_request_gets_one_json_body(up: MockUpstream, client_sdk: openai.OpenAI) -> None:
    up.load(Script("openai-chat", (TURN,), variant="reasoning_content"))
    resp = client_sdk.chat.completions.create(model="m", messages=MESSAGES)  # type: ignore[call-overload]
    assert resp.choices[0].message.content == "Hi!"
    assert resp.choices[0].message.model_extra["reasoning_content"] == "Let me think."


def test_gate_holds_until_the_client_observed_delta_one(up: MockUpstream, client_sdk: openai.OpenAI) -> None:
    up.load(Script("openai-chat", GATED, variant="reasoning_content"))
    got: list[str] = []
    for chunk in client_sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True):  # type: ignore[call-overload]
        r = reasoning_of(chunk)
        if r:
            got.append(r)
            if r == "first":
                # the upstream is holding: nothing of the second delta was written yet
                assert not [w for w in up.timeline.select("upstream", "write") if b"second" in w.data]
            up.client.observe(ReasoningDelta(r))
    assert got == ["first", " second"]
    kinds = [e.act for e in up.timeline.select("upstream") if e.act.startswith("gate")]
    assert kinds == ["gate-wait", "gate-open"]
    (opened,) = up.timeline.select("upstream", "gate-open")
    assert opened.info["seen"] == {"events": 1, "reasoning": "first", "text": ""}


def test_gate_times_out_with_a_clear_record(up: MockUpstream, client_sdk: openai.OpenAI) -> None:
    steps = (GATED[0], Gate(reasoning="first", timeout=0.05), GATED[2])
    up.load(Script("openai-chat", steps, variant="reasoning_content"))
    chunks = list(client_sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[call-overload]
    assert "".join(map(reasoning_of, chunks)) == "first second"  # the script goes on after a timeout
    (t,) = up.timeline.select("upstream", "gate-timeout")
    assert t.info["condition"] == "client saw reasoning 'first'"
    assert t.info["timeout"] == 0.05
    assert t.info["seen"] == {"events": 0, "reasoning": "", "text": ""}
    assert t.info["withheld"]["tags"] == ["reasoning"]
    assert '"reasoning_content":" second"' in t.info["withheld"]["data"]


TOOL_TURN = Emit(
    (
        ReasoningDelta("I need the weather tool."),
        ToolCallDelta(0, "call_00_mock", "get_weather", '{"city":"Paris"}'),
        End("tool_calls"),
    )
)


def _second_request(keep_reasoning: bool) -> list[dict[str, object]]:
    assistant: dict[str, object] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_00_mock",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            }
        ],
    }
    if keep_reasoning:
        assistant["reasoning_content"] = "I need the weather tool."
    return [*MESSAGES, assistant, {"role": "tool", "tool_call_id": "call_00_mock", "content": "sunny"}]


@pytest.mark.parametrize("keep", [True, False])
def test_strict_profile_400(up: MockUpstream, client_sdk: openai.OpenAI, keep: bool) -> None:
    strict = Script("openai-chat", (TOOL_TURN,), variant="reasoning_content", provider_rules="deepseek-v4")
    final = Script("openai-chat", (TURN,), variant="reasoning_content", provider_rules="deepseek-v4")
    up.load(Conversation((strict, final)))
    list(client_sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[call-overload]
    if keep:
        out = list(client_sdk.chat.completions.create(model="m", messages=_second_request(True), stream=True))  # type: ignore[call-overload]
        assert out
        assert not up.timeline.select("upstream", "rejected")
        return
    with pytest.raises(openai.BadRequestError) as info:
        client_sdk.chat.completions.create(model="m", messages=_second_request(False), stream=True)  # type: ignore[call-overload]
    assert info.value.status_code == 400
    assert info.value.body["message"] == DS2_MESSAGE  # type: ignore[index]
    (rej,) = up.timeline.select("upstream", "rejected")
    assert (rej.turn, rej.info["status"], rej.info["rule"]) == (1, 400, "deepseek-reasoning-content-missing")
    assert rej.info["differences"] == (("messages[1].reasoning_content", None, "I need the weather tool."),)


def test_client_closing_early_is_a_recorded_disconnect(up: MockUpstream, client_sdk: openai.OpenAI) -> None:
    up.load(
        Script(
            "openai-chat",
            (*GATED[:1], Gate(reasoning="never", timeout=10), GATED[2]),
            variant="reasoning_content",
        )
    )
    stream = client_sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
    for chunk in stream:
        if reasoning_of(chunk) == "first":
            break
    stream.close()
    gone = up.timeline.wait_for("upstream", "disconnect", timeout=5)
    assert gone is not None
    assert gone.t > up.timeline.select("upstream", "gate-wait")[0].t
    assert not up.timeline.select("upstream", "response-end")
    assert not up.timeline.select("upstream", "gate-timeout")


# --- in-process: respx for httpx clients, RespxUpstream.transport() for the httpx2-based SDKs --------
# openai>=3 (installed: 3.57) runs on the ``httpx2`` fork, which respx does not patch; the SDK therefore
# gets the same conversation through ``transport()``; plain httpx clients go through respx itself.
@pytest.fixture
def mocked() -> Iterator[RespxUpstream]:
    with respx.mock(assert_all_called=False) as router:
        yield mount_respx(router, timeline=Timeline(), client=ClientSide())


def inproc_sdk(mocked: RespxUpstream) -> openai.OpenAI:
    import httpx2

    return sdk(mocked.base_url + "/v1", http_client=httpx2.Client(transport=mocked.transport()))


def test_respx_serves_httpx_clients_a_fresh_stream_each_time(mocked: RespxUpstream) -> None:
    mocked.load(Conversation((), overflow=Script("openai-chat", (TURN,), variant="reasoning_content")))
    from harness.dialects import get_dialect

    for _ in range(2):
        obs = get_dialect("openai-chat").observer()
        with httpx.stream("POST", mocked.base_url + "/v1/chat/completions", json={"stream": True}) as r:
            events = [e for chunk in r.iter_raw() for e in obs.feed(chunk)]
        assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "Let me think."

    import asyncio

    async def run() -> bytes:
        async with httpx.AsyncClient() as ac:
            r = await ac.post(mocked.base_url + "/v1/chat/completions", json={"stream": True})
            return r.content

    assert b'"reasoning_content":"Let me think."' in asyncio.run(run())
    assert [r.turn for r in mocked.requests] == [0, 1, 2]
    assert len(mocked.timeline.select("upstream", "response-end")) == 3
    assert mocked.route.call_count == 3


def test_inprocess_sdk_reasoning_sync_and_async(mocked: RespxUpstream) -> None:
    mocked.load(Conversation((), overflow=Script("openai-chat", (TURN,), variant="reasoning_content")))
    c = inproc_sdk(mocked)
    chunks = list(c.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[call-overload]
    assert "".join(map(reasoning_of, chunks)) == "Let me think."

    import asyncio

    import httpx2

    async def run() -> str:
        ac = openai.AsyncOpenAI(
            base_url=mocked.base_url + "/v1",
            api_key="k",
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=mocked.transport()),
        )
        stream = await ac.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
        out = "".join([reasoning_of(ch) async for ch in stream])
        await ac.close()
        return out

    assert asyncio.run(run()) == "Let me think."
    assert [r.turn for r in mocked.requests] == [0, 1]


def test_inprocess_gate_is_a_non_blocking_check(mocked: RespxUpstream) -> None:
    mocked.load(Script("openai-chat", GATED, variant="reasoning_content"))
    c = inproc_sdk(mocked)
    chunks = list(c.chat.completions.create(model="m", messages=MESSAGES, stream=True))  # type: ignore[call-overload]
    assert "".join(map(reasoning_of, chunks)) == "first second"
    (t,) = mocked.timeline.select("upstream", "gate-timeout")
    assert (t.info["mode"], t.info["condition"]) == ("respx", "client saw reasoning 'first'")
    assert not mocked.timeline.select("upstream", "gate-open")
    # the SDK pulls lazily: observing delta 1 before pulling further opens the gate
    mocked.load(Script("openai-chat", GATED, variant="reasoning_content"))
    for chunk in c.chat.completions.create(model="m", messages=MESSAGES, stream=True):  # type: ignore[call-overload]
        if reasoning_of(chunk):
            mocked.client.observe(ReasoningDelta(reasoning_of(chunk)))
    assert mocked.timeline.select("upstream", "gate-open")
    assert not mocked.timeline.select("upstream", "gate-timeout")


def test_inprocess_strict_profile_and_disconnect(mocked: RespxUpstream) -> None:
    strict = Script("openai-chat", (TOOL_TURN,), variant="reasoning_content", provider_rules="deepseek-v4")
    mocked.load(Conversation((strict, strict)))
    c = inproc_sdk(mocked)
    stream = c.chat.completions.create(model="m", messages=MESSAGES, stream=True)  # type: ignore[call-overload]
    next(iter(stream))
    stream.close()
    assert [e.act for e in mocked.timeline.select("upstream")][-1] == "disconnect"
    with pytest.raises(openai.BadRequestError) as info:
        c.chat.completions.create(model="m", messages=_second_request(False), stream=True)  # type: ignore[call-overload]
    assert info.value.body["message"] == DS2_MESSAGE  # type: ignore[index]
    (rej,) = mocked.timeline.select("upstream", "rejected")
    assert json.loads(rej.info["body"])["error"]["message"] == DS2_MESSAGE
