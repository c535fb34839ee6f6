"""The reference agent CLI: in process (Agent against a loopback fake provider, cleanup order observed at the
moment the dir is removed) and as a process (JSONL on stdout, exit codes, SIGTERM)."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _reference_fakes import SAFETY, Answer, FakeProvider

from harness._json import loads
from harness.dialects import get_dialect
from harness.events import (
    End,
    Event,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCallDelta,
    coalesce,
    strip_items,
)
from harness.net import WireClient
from harness.reference import agent as agent_mod
from harness.reference._core import Route
from harness.reference.agent import Agent

PI = get_dialect("pi-json")
TOOL_TURN: list[Event] = [
    ReasoningDelta("I will list"),
    ReasoningDelta(" the directory."),
    ToolCallDelta(0, "call_ls", "list_files", '{"path":"."}'),
    End("tool_calls"),
]
FINAL: list[Event] = [ReasoningDelta("Got the listing."), TextDelta("There is one file."), End()]


def records(out: bytes) -> list[dict[str, Any]]:
    return [loads(line) for line in out.splitlines() if line.strip()]


def observed(out: bytes) -> tuple[Event, ...]:
    obs = PI.observer("v2")
    return strip_items(coalesce(obs.feed(out) + obs.end()))


class _Client(WireClient):
    """The agent's client; closing it also stops the fake provider it talks to."""

    def __init__(self, provider: FakeProvider) -> None:
        super().__init__()
        self.provider = provider

    def close(self) -> None:
        super().close()
        self.provider.__exit__()


class Run:
    def __init__(self, tmp_path: Path, answers: list[Answer], faults: tuple[str, ...] = ()) -> None:
        self.provider = FakeProvider(answers).__enter__()
        self.session = tmp_path / "session"
        self.out = io.BytesIO()
        self.http = _Client(self.provider)
        self.agent = Agent(
            upstream=self.provider.base_url,
            route=Route("openai-chat", "reasoning_content", "mock-model"),
            session=self.session,
            faults=frozenset(faults),
            out=self.out,
            http=self.http,
        )

    def __call__(self, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[bool]]:
        """Run and clean up; returns the status and, per rmtree of the session dir, whether every
        child had exited at that moment."""
        at_rmtree: list[bool] = []
        real = shutil.rmtree

        def spy(path: Any, *a: Any, **k: Any) -> None:
            if Path(path) == self.session:
                at_rmtree.append(all(c.poll() is not None for c in self.agent.children))
            real(path, *a, **k)

        monkeypatch.setattr(agent_mod.shutil, "rmtree", spy)
        try:
            status = self.agent.run("List the files.")
        finally:
            self.agent.cleanup()
            self.http.close()
        return status, at_rmtree


def test_tool_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)])
    status, at_rmtree = run(monkeypatch)
    assert status == 0
    assert observed(run.out.getvalue()) == (
        ReasoningDelta("I will list the directory."),
        ToolCallDelta(0, "call_ls", "list_files", '{"path":"."}'),
        ReasoningDelta("Got the listing."),
        TextDelta("There is one file."),
        End("stop"),
    )
    kinds = [r["type"] for r in records(run.out.getvalue())]
    assert kinds.count("session") == 1
    assert kinds[-2:] == ["agent_end", "agent_settled"]
    assert kinds.count("agent_end") == 1
    assert kinds.count("turn_end") == 2
    # the continuation carries the tool-call turn's reasoning and the child's result
    cont = run.provider.bodies[1]["messages"]
    assert cont[1]["reasoning_content"] == "I will list the directory."
    assert cont[2]["tool_call_id"] == "call_ls"
    assert loads(cont[2]["content"]) == {"tool": "list_files", "files": ["tool-call_ls.json"]}
    # children reaped, then the dir removed
    assert [c.returncode for c in run.agent.children] == [0]
    assert at_rmtree == [True]
    assert not run.session.exists()


def test_request_fields_forced_tool_choice_only_on_the_first_request(tmp_path: Path) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)])
    forced = {"type": "function", "function": {"name": "list_files"}}
    fields = {"tool_choice": forced, "response_format": {"type": "json_object"}}
    try:
        assert run.agent.run("List.", fields) == 0
    finally:
        run.agent.cleanup()
        run.http.close()
    first, second = run.provider.bodies
    assert first["tool_choice"] == forced
    assert "tool_choice" not in second  # reset after the tool call: forced for ever it would loop
    assert first["response_format"] == second["response_format"] == {"type": "json_object"}

def test_leak_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)], ("leak-child",))
    try:
        status, at_rmtree = run(monkeypatch)
        assert status == 0
        assert [c.poll() for c in run.agent.children] == [None]  # still running after cleanup
        assert at_rmtree == [False]
    finally:
        for c in run.agent.children:
            c.kill()
            c.wait()
            assert c.stdout is not None
            c.stdout.close()


def test_early_rmdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)], ("early-rmdir",))
    status, at_rmtree = run(monkeypatch)
    assert status == 0
    assert at_rmtree[0] is False  # removed while the child still ran
    assert [c.returncode for c in run.agent.children] == [0]  # reaped eventually


def test_leave_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)], ("leave-dir",))
    status, at_rmtree = run(monkeypatch)
    assert status == 0
    assert at_rmtree == []
    assert (run.session / "tool-call_ls.json").exists()


def _thinking_deltas(out: bytes) -> list[str]:
    return [
        r["assistantMessageEvent"]["delta"]
        for r in records(out)
        if r["type"] == "message_update" and r["assistantMessageEvent"]["type"] == "thinking_delta"
    ]


def test_pi_thinking_at_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = Run(tmp_path / "a", [Answer(TOOL_TURN), Answer(FINAL)])
    good(monkeypatch)
    assert _thinking_deltas(good.out.getvalue()) == ["I will list", " the directory.", "Got the listing."]
    bad = Run(tmp_path / "b", [Answer(TOOL_TURN), Answer(FINAL)], ("pi-thinking-at-end",))
    bad(monkeypatch)
    assert _thinking_deltas(bad.out.getvalue()) == ["I will list the directory.", "Got the listing."]


def test_drop_reasoning_keeps_passback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)], ("drop-reasoning",))
    run(monkeypatch)
    assert _thinking_deltas(run.out.getvalue()) == []
    assert run.provider.bodies[1]["messages"][1]["reasoning_content"] == "I will list the directory."


def test_lose_passback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer(TOOL_TURN), Answer(FINAL)], ("lose-passback",))
    run(monkeypatch)
    assert run.provider.bodies[1]["messages"][1]["reasoning_content"] == ""


def test_mid_stream_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = Run(tmp_path, [Answer([ReasoningDelta("x"), StreamError("Overloaded")])])
    status, _ = run(monkeypatch)
    assert status == 1
    assert [type(e) for e in observed(run.out.getvalue())] == [ReasoningDelta, StreamError]


# --------------------------------------------------------------------------------------------------
# As a process


def agent_argv(base: str, session: Path, *faults: str) -> list[str]:
    argv = [sys.executable, "-m", "harness.reference.agent", "--upstream", base, "--dialect", "openai-chat"]
    argv += ["--variant", "reasoning_content", "--session-dir", str(session), "--prompt", "List the files."]
    return argv + [x for f in faults for x in ("--fault", f)]


ENV = {**os.environ, "PYTHONPATH": os.getcwd()}


def test_process_round_trip(tmp_path: Path) -> None:
    with FakeProvider([Answer(TOOL_TURN), Answer(FINAL)]) as up:
        p = subprocess.run(
            agent_argv(up.base_url, tmp_path / "s"), capture_output=True, timeout=SAFETY, env=ENV
        )
    assert p.returncode == 0, p.stderr
    assert observed(p.stdout)[-2:] == (TextDelta("There is one file."), End("stop"))
    assert not (tmp_path / "s").exists()


def test_process_upstream_error(tmp_path: Path) -> None:
    with FakeProvider([Answer(status=400, error="Missing `reasoning_content` field")]) as up:
        p = subprocess.run(
            agent_argv(up.base_url, tmp_path / "s"), capture_output=True, timeout=SAFETY, env=ENV
        )
    assert p.returncode == 1
    end = [r for r in records(p.stdout) if r["type"] == "message_end"][-1]["message"]
    assert end["stopReason"] == "error"
    assert end["errorMessage"] == "Missing `reasoning_content` field"
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("rpc", [False, True], ids=["prompt", "rpc"])
def test_process_sigterm(tmp_path: Path, rpc: bool) -> None:
    session = tmp_path / "s"
    with FakeProvider([Answer(FINAL, hold_after=2)]) as up:
        argv = rpc_argv(up.base_url, session) if rpc else agent_argv(up.base_url, session)
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV
        )
        assert proc.stdout is not None
        assert proc.stdin is not None
        if rpc:  # (the stdin reader thread is still blocked when the agent exits)
            proc.stdin.write(b'{"type":"prompt","message":"List the files."}\n')
            proc.stdin.flush()
        try:
            for line in proc.stdout:  # wait until the agent is mid-stream
                if b"thinking_delta" in line:
                    break
            assert session.exists()
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(SAFETY) == 128 + signal.SIGTERM
            assert proc.stderr is not None
            assert b"Fatal Python error" not in proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
    assert not session.exists()


def rpc_argv(base_url: str, session: Path, *faults: str) -> list[str]:
    argv = [
        sys.executable,
        "-m",
        "harness.reference.agent",
        "--upstream",
        base_url,
        "--dialect",
        "openai-chat",
    ]
    argv += ["--variant", "reasoning_content", "--session-dir", str(session), "--rpc"]
    return argv + [x for f in faults for x in ("--fault", f)]


def rpc_conversation(base_url: str, session: Path, *faults: str) -> list[dict[str, Any]]:
    """--rpc: a prompt held mid-thinking, aborted, then a second prompt asking for JSON; the records."""
    proc = subprocess.Popen(
        rpc_argv(base_url, session, *faults),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=ENV,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        proc.stdin.write(b'{"type":"prompt","message":"Think for long."}\n')
        proc.stdin.flush()
        out = []
        for line in proc.stdout:  # wait until the agent is mid-stream, then abort
            out.append(line)
            if b"thinking_delta" in line:
                break
        proc.stdin.write(b'{"type":"abort"}\n')
        proc.stdin.flush()
        for line in proc.stdout:  # the aborted run ends with agent_end (and agent_settled)
            out.append(line)
            if b'"agent_settled"' in line:
                break
        request = b'{"response_format":{"type":"json_object"}}'
        proc.stdin.write(b'{"type":"prompt","message":"Just say hi.","request":' + request + b"}\n")
        proc.stdin.close()
        out += proc.stdout.readlines()
        assert proc.wait(SAFETY) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    return records(b"".join(out))


def test_rpc_abort_closes_the_upstream_and_the_conversation_goes_on(tmp_path: Path) -> None:
    with FakeProvider([Answer(FINAL, hold_after=2), Answer(FINAL)]) as up:
        recs = rpc_conversation(up.base_url, tmp_path / "s")
        assert up.peer_closed.wait(SAFETY)  # the abort closed the held request
    ends = [
        r["message"]["stopReason"]
        for r in recs
        if r["type"] == "message_end" and "stopReason" in r["message"]
    ]
    assert ends == ["aborted", "stop"]
    assert [r["type"] for r in recs].count("session") == 1
    assert [r["type"] for r in recs].count("agent_end") == 2
    second = up.bodies[1]
    assert second["response_format"] == {"type": "json_object"}  # the prompt's request field, forwarded
    users = [m["content"] for m in second["messages"] if m["role"] == "user"]
    assert users == ["Think for long.", "Just say hi."]  # the history goes on across prompts
    assert not (tmp_path / "s").exists()
