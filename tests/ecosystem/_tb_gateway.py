"""A small LiteLLM-like gateway for the carrier and request-shaping tests (stdlib + httpx only).

    python _tb_gateway.py MODE PORT UPSTREAM [STYLE]

An OpenAI-chat front door (``/v1/chat/completions``) in front of an Anthropic Messages upstream, as
LiteLLM carries Anthropic thinking: ``reasoning_content`` mirrored in ``thinking_blocks`` (with the
signature, ``redacted_thinking`` with its data) on deltas and on messages, and ``thinking_blocks``
expected back on assistant messages. It wants ``authorization: Bearer $TB_KEY`` on every request (401
otherwise) and forwards the client's ``thinking`` field (no field: no thinking asked for).

MODE: ``ok`` (a correct translation), ``drop-signatures`` (passes thinking blocks back without their
signatures, and drops redacted blocks: Anthropic rejects that continuation).

STYLE (where the blocks ride; default ``litellm``): ``litellm`` (``thinking_blocks`` beside
``reasoning_content``), ``portkey`` (``content_blocks`` only: streamed as ``{"index", "delta":
{"thinking" | "signature" | "data" | "text"}}``, typed blocks on messages and back, text included),
``custom`` (a convention nobody ships: deltas carry ``x_parts`` entries ``{"kind": "thought", "body",
"sig"}`` / ``{"kind": "hidden", "blob"}``, messages and the echo carry the same entries as
``x_reasoning``).
"""

from __future__ import annotations

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

MODE, PORT, UPSTREAM = sys.argv[1], int(sys.argv[2]), sys.argv[3].rstrip("/")
STYLE = sys.argv[4] if len(sys.argv) > 4 else "litellm"


def blocks_back(m: dict[str, Any]) -> list[dict[str, Any]]:
    """The thinking blocks of an assistant message the client sent back, as Anthropic blocks."""
    if STYLE == "portkey":
        return [b for b in m.get("content_blocks") or [] if b.get("type") != "text"]
    if STYLE == "custom":
        out = []
        for e in m.get("x_reasoning") or []:
            if e.get("kind") == "hidden":
                out.append({"type": "redacted_thinking", "data": e.get("blob")})
            else:
                out.append({"type": "thinking", "thinking": e.get("body", ""), "signature": e.get("sig")})
        return out
    return list(m.get("thinking_blocks") or [])


def delta_of(kind: str, value: str, index: int) -> dict[str, Any]:
    """One streamed piece (kind: thinking, signature, redacted) in this STYLE's delta form."""
    if STYLE == "portkey":
        key = {"thinking": "thinking", "signature": "signature", "redacted": "data"}[kind]
        return {"content": "", "content_blocks": [{"index": index, "delta": {key: value}}]}
    if STYLE == "custom":
        entry = {"kind": "hidden", "blob": value} if kind == "redacted" else (
            {"kind": "thought", "body": value} if kind == "thinking" else {"kind": "thought", "sig": value})
        return {"content": "", "x_parts": [entry]}
    if kind == "redacted":
        return {"content": "", "thinking_blocks": [{"type": "redacted_thinking", "data": value}]}
    if kind == "signature":
        return {"content": "", "thinking_blocks": [{"type": "thinking", "thinking": "", "signature": value}]}
    tb = [{"type": "thinking", "thinking": value, "signature": None}]
    return {"content": "", "reasoning_content": value, "thinking_blocks": tb}


def message_blocks(message: dict[str, Any], blocks: list[dict[str, Any]], reasoning: str, text: str) -> None:
    """A non-streaming message's reasoning in this STYLE's message form."""
    if STYLE == "portkey":
        message["content_blocks"] = [*blocks, *([{"type": "text", "text": text}] if text else [])]
    elif STYLE == "custom":
        message["x_reasoning"] = [
            {"kind": "hidden", "blob": b["data"]} if b["type"] == "redacted_thinking"
            else {"kind": "thought", "body": b["thinking"], "sig": b.get("signature")}
            for b in blocks
        ]
    else:
        message["reasoning_content"] = reasoning
        message["thinking_blocks"] = blocks
KEY = os.environ.get("TB_KEY", "")


def to_anthropic(messages: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    system: str | None = None
    out: list[dict[str, Any]] = []
    for m in messages:
        role = m.get("role")
        if role == "system":
            system = str(m.get("content") or "")
        elif role == "user":
            out.append({"role": "user", "content": [{"type": "text", "text": str(m.get("content") or "")}]})
        elif role == "tool":
            block = {"type": "tool_result", "tool_use_id": m.get("tool_call_id"), "content": m.get("content")}
            if out and out[-1]["role"] == "user" and out[-1]["content"][0]["type"] == "tool_result":
                out[-1]["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        elif role == "assistant":
            content: list[dict[str, Any]] = []
            for b in blocks_back(m):
                if MODE == "drop-signatures":
                    if b.get("type") == "thinking":
                        content.append({"type": "thinking", "thinking": b.get("thinking", "")})
                    continue
                content.append(dict(b))
            if m.get("content"):
                content.append({"type": "text", "text": m["content"]})
            for c in m.get("tool_calls") or []:
                fn = c.get("function") or {}
                content.append(
                    {
                        "type": "tool_use",
                        "id": c.get("id"),
                        "name": fn.get("name"),
                        "input": json.loads(fn.get("arguments") or "{}"),
                    }
                )
            out.append({"role": "assistant", "content": content})
    return system, out


def chunk(delta: dict[str, Any], finish: str | None = None, **top: Any) -> bytes:
    obj = {
        "id": "chatcmpl-tb",
        "object": "chat.completion.chunk",
        "model": "tb",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **top,
    }
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


STOP = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.reply(200, b"ok")

    def reply(self, status: int, body: bytes, ctype: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if self.headers.get("authorization") != f"Bearer {KEY}":
            self.reply(401, b'{"error": {"message": "no or wrong key", "code": 401}}')
            return
        system, messages = to_anthropic(body.get("messages") or [])
        req: dict[str, Any] = {
            "model": body.get("model"),
            "max_tokens": 4096,
            "messages": messages,
            "stream": bool(body.get("stream")),
        }
        if system is not None:
            req["system"] = system
        if "thinking" in body:
            req["thinking"] = body["thinking"]
        if body.get("tools"):
            req["tools"] = [
                {"name": t["function"]["name"], "input_schema": t["function"].get("parameters", {})}
                for t in body["tools"]
            ]
        url = UPSTREAM + "/v1/messages"
        if not req["stream"]:
            resp = httpx.post(url, json=req, timeout=30)
            if resp.status_code >= 400:
                self.reply(resp.status_code, resp.content)
                return
            self.reply(200, json.dumps(self.message(resp.json())).encode())
            return
        with httpx.stream("POST", url, json=req, timeout=30) as resp:
            if resp.status_code >= 400:
                self.reply(resp.status_code, resp.read())
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            self.close_connection = True
            self.wfile.write(chunk({"role": "assistant", "content": ""}))
            self.relay(resp)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def relay(self, resp: httpx.Response) -> None:
        tools: dict[int, int] = {}
        usage: dict[str, Any] = {}
        buf = b""
        for data in resp.iter_raw():
            buf += data
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                line = next((x for x in block.split(b"\n") if x.startswith(b"data:")), None)
                if line is None:
                    continue
                ev = json.loads(line[5:])
                out = self.frame(ev, tools, usage)
                if out:
                    self.wfile.write(out)
                    self.wfile.flush()

    def frame(self, ev: dict[str, Any], tools: dict[int, int], usage: dict[str, Any]) -> bytes:
        kind = ev.get("type")
        if kind == "message_start":
            usage["prompt_tokens"] = ev["message"].get("usage", {}).get("input_tokens", 0)
        elif kind == "content_block_start":
            block = ev["content_block"]
            if block["type"] == "redacted_thinking":
                return chunk(delta_of("redacted", block["data"], ev["index"]))
            if block["type"] == "tool_use":
                tools[ev["index"]] = len(tools)
                call = {
                    "index": tools[ev["index"]],
                    "id": block["id"],
                    "type": "function",
                    "function": {"name": block["name"], "arguments": ""},
                }
                return chunk({"content": None, "tool_calls": [call]})
        elif kind == "content_block_delta":
            d = ev["delta"]
            if d["type"] == "thinking_delta":
                return chunk(delta_of("thinking", d["thinking"], ev["index"]))
            if d["type"] == "signature_delta":
                return chunk(delta_of("signature", d["signature"], ev["index"]))
            if d["type"] == "text_delta":
                if STYLE == "portkey":  # Portkey mirrors the text in content_blocks
                    return chunk({"content": d["text"], "content_blocks": [{"index": ev["index"],
                                                                            "delta": {"text": d["text"]}}]})
                return chunk({"content": d["text"]})
            if d["type"] == "input_json_delta":
                call = {"index": tools[ev["index"]], "function": {"arguments": d["partial_json"]}}
                return chunk({"content": None, "tool_calls": [call]})
        elif kind == "message_delta":
            out = ev.get("usage", {}).get("output_tokens", 0)
            u = {
                "prompt_tokens": usage.get("prompt_tokens", 0),
                "completion_tokens": out,
                "total_tokens": usage.get("prompt_tokens", 0) + out,
            }
            return chunk({}, STOP.get(ev["delta"].get("stop_reason"), "stop"), usage=u)
        elif kind == "error":
            return b"data: " + json.dumps({"error": ev.get("error")}).encode() + b"\n\n"
        return b""

    def message(self, msg: dict[str, Any]) -> dict[str, Any]:
        text, reasoning, blocks, calls = "", "", [], []
        for b in msg.get("content") or []:
            if b["type"] == "thinking":
                reasoning += b["thinking"]
                blocks.append(
                    {"type": "thinking", "thinking": b["thinking"], "signature": b.get("signature")}
                )
            elif b["type"] == "redacted_thinking":
                blocks.append({"type": "redacted_thinking", "data": b["data"]})
            elif b["type"] == "text":
                text += b["text"]
            elif b["type"] == "tool_use":
                calls.append(
                    {
                        "id": b["id"],
                        "type": "function",
                        "function": {"name": b["name"], "arguments": json.dumps(b["input"])},
                    }
                )
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if blocks:
            message_blocks(message, blocks, reasoning, text)
        if calls:
            message["tool_calls"] = calls
        u = msg.get("usage", {})
        usage = {
            "prompt_tokens": u.get("input_tokens", 0),
            "completion_tokens": u.get("output_tokens", 0),
            "total_tokens": u.get("input_tokens", 0) + u.get("output_tokens", 0),
        }
        finish = STOP.get(msg.get("stop_reason") or "end_turn", "stop")
        return {
            "id": "chatcmpl-tb",
            "object": "chat.completion",
            "model": "tb",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
