#!/usr/bin/env python3
"""A small chat CLI as people write them: it streams an OpenAI-compatible model's answer to stdout and its
reasoning to stderr, runs the model's tool calls itself (each in a child process), keeps the conversation
in a state file, and goes on with it when given ``-c``. It retries a 429 after the Retry-After it was
given (at most 5 s), reads SSE as the spec says (an event without its blank line at EOF is not one), and
an error ends it with exit code 1 and one ``error:`` line on stderr.

Reasoning goes back in the field it came in (``reasoning_content`` or ``reasoning``) on every assistant
message of the history (DeepSeek V3.2 needs a tool-call turn's reasoning in every later request).
``--bug`` plants one fault: ``drop-reasoning`` (reasoning never goes back), ``reasoning-to-stdout``
(reasoning printed with the answer), ``continue-fresh`` (``-c`` ignored: every run starts a new
conversation), ``unsaved-reasoning`` (the state file keeps no reasoning: it goes back inside a run, not
after ``-c``). Standard library only.

Run: ``text_cli.py --upstream URL --model M --state FILE [-c] [--bug NAME] PROMPT``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CARRIERS = ("reasoning_content", "reasoning")
TOOL = "import sys; print('18°C, clear in ' + sys.argv[1])"
_LINE = re.compile(rb"\r\n|\r|\n")


class Failed(Exception):
    """The model call failed: the message is the CLI's one error line."""


def _post(upstream: str, body: dict[str, Any]) -> http.client.HTTPResponse:
    url = urlsplit(upstream)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
    headers = {"Content-Type": "application/json", "Authorization": "Bearer sk-test"}
    conn.request("POST", url.path.rstrip("/") + "/v1/chat/completions", json.dumps(body), headers)
    return conn.getresponse()


def _answer(upstream: str, body: dict[str, Any]) -> http.client.HTTPResponse:
    """The model's answer, a 429 retried up to twice after its Retry-After (at most 0.5 s)."""
    for attempt in range(3):
        resp = _post(upstream, body)
        if resp.status == 429 and attempt < 2:
            wait = min(float(resp.getheader("Retry-After") or 0.1), 5.0)
            resp.read()
            time.sleep(wait)
            continue
        if resp.status != 200:
            raise Failed(f"HTTP {resp.status}: {resp.read()[:300].decode('utf-8', 'replace')}")
        return resp
    raise Failed("rate limited")  # (not reached: the third answer is returned or raised above)


def _events(resp: http.client.HTTPResponse) -> Iterator[bytes]:
    """The data of each SSE event as it completes (CR, LF or CRLF line ends; a leading BOM skipped;
    an event still open at EOF is not one)."""
    pending, data, first = b"", [], True
    while True:
        block = resp.read1(65536)
        buf = pending + block
        if first and (len(buf) >= 3 or not block):  # (a BOM may come split over reads)
            buf, first = buf.removeprefix(b"\xef\xbb\xbf"), False
        elif first:
            pending = buf
            continue
        cr = bool(block) and buf.endswith(b"\r")  # its LF may come in the next read: one line end
        lines = _LINE.split(buf[:-1] if cr else buf)
        pending = lines.pop() + (b"\r" if cr else b"")
        for line in lines:
            if not line:
                if data:
                    yield b"\n".join(data)
                data = []
            elif line.startswith(b"data:"):
                data.append(line[5:].removeprefix(b" "))
        if not block:
            return


def _round(upstream: str, body: dict[str, Any], bug: str) -> dict[str, Any]:
    """One streamed model call, printed as it arrives; the assistant message it makes."""
    resp = _answer(upstream, body)
    text, reasoning, carrier, calls, done = [], [], "", {}, False
    for data in _events(resp):
        if data == b"[DONE]":
            done = True
            break
        chunk = json.loads(data)
        if "error" in chunk:
            raise Failed(f"stream error: {json.dumps(chunk['error'])[:300]}")
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            for key in CARRIERS:
                if isinstance(delta.get(key), str):
                    carrier = key
                    reasoning.append(delta[key])
                    out = sys.stdout if bug == "reasoning-to-stdout" else sys.stderr
                    out.write(delta[key])
                    out.flush()
                    break
            if delta.get("content"):
                text.append(delta["content"])
                sys.stdout.write(delta["content"])
                sys.stdout.flush()
            for call in delta.get("tool_calls") or ():
                slot = calls.setdefault(call.get("index", 0), {"id": "", "name": "", "arguments": ""})
                slot["id"] = call.get("id") or slot["id"]
                fn = call.get("function") or {}
                slot["name"] += fn.get("name") or ""
                slot["arguments"] += fn.get("arguments") or ""
    if not done:
        raise Failed("the stream ended without [DONE]")
    message: dict[str, Any] = {"role": "assistant", "content": "".join(text) or None}
    if carrier and bug != "drop-reasoning":  # (an empty reasoning goes back empty, as it came)
        message[carrier] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for _, c in sorted(calls.items())
        ]
    return message


def converse(upstream: str, model: str, history: list[dict[str, Any]], prompt: str, bug: str) -> list[Any]:
    """One question: model calls and tool runs until an answer; the whole history after it."""
    messages = [*history, {"role": "user", "content": prompt}]
    for _ in range(4):
        body = {"model": model, "messages": messages, "stream": True}
        message = _round(upstream, body, bug)
        messages.append(message)
        if not message.get("tool_calls"):
            break
        for call in message["tool_calls"]:
            run = [sys.executable, "-c", TOOL, call["function"]["name"]]
            result = subprocess.run(run, capture_output=True, text=True, timeout=10, check=False).stdout
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.strip()})
    sys.stdout.write("\n")
    sys.stdout.flush()
    return messages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--model", default="deepseek-chat")
    ap.add_argument("--state", required=True, type=Path)
    ap.add_argument("-c", "--continue", dest="go_on", action="store_true")
    bugs = ["", "drop-reasoning", "reasoning-to-stdout", "continue-fresh", "unsaved-reasoning"]
    ap.add_argument("--bug", default="", choices=bugs)
    ap.add_argument("prompt")
    args = ap.parse_args(argv)
    go_on = args.go_on and args.bug != "continue-fresh"  # BUG continue-fresh: its continue words unread
    history = json.loads(args.state.read_text()) if go_on and args.state.exists() else []
    try:
        messages = converse(args.upstream, args.model, history, args.prompt, args.bug)
    except (Failed, OSError, ValueError) as exc:
        sys.stderr.write(f"\nerror: {exc}\n")
        return 1
    if args.bug == "unsaved-reasoning":  # BUG: the saved session loses what only the model needs back
        messages = [{k: v for k, v in m.items() if k not in CARRIERS} for m in messages]
    args.state.write_text(json.dumps(messages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
