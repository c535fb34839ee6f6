"""Literal Bedrock frames per variant, as (``:event-type``, ``:message-type``, JSON payload): one table
drives the emitter test and (through the eventstream encoder) the observer test. Shapes: §8.2."""

# ruff: noqa: E501  (literal wire payloads stay on one line)
from __future__ import annotations

from harness.events import (
    End,
    ReasoningDelta,
    ReasoningSignature,
    RedactedReasoning,
    TextDelta,
    ToolCallDelta,
    Turn,
    Usage,
)

__all__ = ["CASES", "MODEL"]

MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"

CASES: list[tuple[str, str, Turn, list[tuple[str, str, str]]]] = [
    (
        "converse",
        "BR-CONVERSE: reasoning text + signature, then a toolUse (wire-formats.md §8.2)",
        (
            ReasoningDelta("Inspect the file first."),
            ReasoningSignature("sig_mock_bedrock"),
            ToolCallDelta(0, "tooluse_mock1", "read_file", '{"path":"README.md"}'),
            Usage(40, 25, None, 65),
            End("tool_calls"),
        ),
        [
            ("messageStart", "event", '{"role":"assistant","p":"abcdefgh"}'),
            (
                "contentBlockDelta",
                "event",
                '{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"Inspect the file first."}},"p":"abcdefghijklmno"}',
            ),
            (
                "contentBlockDelta",
                "event",
                '{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"sig_mock_bedrock"}},"p":"abcdefghijklmnopqrstuv"}',
            ),
            ("contentBlockStop", "event", '{"contentBlockIndex":0,"p":"abcdefghijklmnopqrstuvwxyzABC"}'),
            (
                "contentBlockStart",
                "event",
                '{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_mock1","name":"read_file"}},"p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"}',
            ),
            (
                "contentBlockDelta",
                "event",
                '{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\\"path\\":\\"README.md\\"}"}},"p":"abcdef"}',
            ),
            ("contentBlockStop", "event", '{"contentBlockIndex":1,"p":"abcdefghijklm"}'),
            ("messageStop", "event", '{"stopReason":"tool_use","p":"abcdefghijklmnopqrst"}'),
            (
                "metadata",
                "event",
                '{"usage":{"inputTokens":40,"outputTokens":25,"totalTokens":65},"metrics":{"latencyMs":900},"p":"abcdefghijklmnopqrstuvwxyzA"}',
            ),
        ],
    ),
    (
        "converse",
        "BR-CONVERSE: redactedContent, then the answer",
        (
            RedactedReasoning("EmwKAhgBEgy3va3pzix/LafPsn4a"),
            TextDelta("It is "),
            TextDelta("mild."),
            End("stop"),
        ),
        [
            ("messageStart", "event", '{"role":"assistant","p":"abcdefgh"}'),
            (
                "contentBlockDelta",
                "event",
                '{"contentBlockIndex":0,"delta":{"reasoningContent":{"redactedContent":"EmwKAhgBEgy3va3pzix/LafPsn4a"}},"p":"abcdefghijklmno"}',
            ),
            ("contentBlockStop", "event", '{"contentBlockIndex":0,"p":"abcdefghijklmnopqrstuv"}'),
            (
                "contentBlockDelta",
                "event",
                '{"contentBlockIndex":1,"delta":{"text":"It is "},"p":"abcdefghijklmnopqrstuvwxyzABC"}',
            ),
            (
                "contentBlockDelta",
                "event",
                '{"contentBlockIndex":1,"delta":{"text":"mild."},"p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"}',
            ),
            ("contentBlockStop", "event", '{"contentBlockIndex":1,"p":"abcdef"}'),
            ("messageStop", "event", '{"stopReason":"end_turn","p":"abcdefghijklm"}'),
            ("metadata", "event", '{"metrics":{"latencyMs":900},"p":"abcdefghijklmnopqrst"}'),
        ],
    ),
    (
        "invoke",
        "BR-INVOKE: Anthropic thinking/signature/tool_use events inside chunk.bytes",
        (
            ReasoningDelta("Inspect the file first."),
            ReasoningSignature("sig_mock_bedrock"),
            ToolCallDelta(0, "toolu_mock1", "read_file", '{"path":"README.md"}'),
            Usage(40, 25, None, 65),  # the Anthropic observer sums the total
            End("tool_calls"),
        ),
        [
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCIsIm1lc3NhZ2UiOnsibW9kZWwiOiJhbnRocm9waWMuY2xhdWRlLXNvbm5ldC00LTUtMjAyNTA5MjktdjE6MCIsImlkIjoibXNnX2JkcmtfbW9ja04iLCJ0eXBlIjoibWVzc2FnZSIsInJvbGUiOiJhc3Npc3RhbnQiLCJjb250ZW50IjpbXSwic3RvcF9yZWFzb24iOm51bGwsInN0b3Bfc2VxdWVuY2UiOm51bGwsInN0b3BfZGV0YWlscyI6bnVsbCwidXNhZ2UiOnsiaW5wdXRfdG9rZW5zIjo0MCwiY2FjaGVfY3JlYXRpb25faW5wdXRfdG9rZW5zIjowLCJjYWNoZV9yZWFkX2lucHV0X3Rva2VucyI6MCwiY2FjaGVfY3JlYXRpb24iOnsiZXBoZW1lcmFsXzVtX2lucHV0X3Rva2VucyI6MCwiZXBoZW1lcmFsXzFoX2lucHV0X3Rva2VucyI6MH0sIm91dHB1dF90b2tlbnMiOjEsInNlcnZpY2VfdGllciI6InN0YW5kYXJkIiwiaW5mZXJlbmNlX2dlbyI6Im5vdF9hdmFpbGFibGUifX19","p":"abcdefgh"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdGFydCIsImluZGV4IjowLCJjb250ZW50X2Jsb2NrIjp7InR5cGUiOiJ0aGlua2luZyIsInRoaW5raW5nIjoiIiwic2lnbmF0dXJlIjoiIn19","p":"abcdefghijklmno"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImluZGV4IjowLCJkZWx0YSI6eyJ0eXBlIjoidGhpbmtpbmdfZGVsdGEiLCJ0aGlua2luZyI6Ikluc3BlY3QgdGhlIGZpbGUgZmlyc3QuIn19","p":"abcdefghijklmnopqrstuv"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImluZGV4IjowLCJkZWx0YSI6eyJ0eXBlIjoidGhpbmtpbmdfZGVsdGEiLCJ0aGlua2luZyI6IiJ9fQ==","p":"abcdefghijklmnopqrstuvwxyzABC"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImluZGV4IjowLCJkZWx0YSI6eyJ0eXBlIjoic2lnbmF0dXJlX2RlbHRhIiwic2lnbmF0dXJlIjoic2lnX21vY2tfYmVkcm9jayJ9fQ==","p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdG9wIiwiaW5kZXgiOjB9","p":"abcdef"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdGFydCIsImluZGV4IjoxLCJjb250ZW50X2Jsb2NrIjp7InR5cGUiOiJ0b29sX3VzZSIsImlkIjoidG9vbHVfbW9jazEiLCJuYW1lIjoicmVhZF9maWxlIiwiaW5wdXQiOnt9LCJjYWxsZXIiOnsidHlwZSI6ImRpcmVjdCJ9fX0=","p":"abcdefghijklm"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImluZGV4IjoxLCJkZWx0YSI6eyJ0eXBlIjoiaW5wdXRfanNvbl9kZWx0YSIsInBhcnRpYWxfanNvbiI6IiJ9fQ==","p":"abcdefghijklmnopqrst"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImluZGV4IjoxLCJkZWx0YSI6eyJ0eXBlIjoiaW5wdXRfanNvbl9kZWx0YSIsInBhcnRpYWxfanNvbiI6IntcInBhdGhcIjpcIlJFQURNRS5tZFwifSJ9fQ==","p":"abcdefghijklmnopqrstuvwxyzA"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdG9wIiwiaW5kZXgiOjF9","p":"abcdefghijklmnopqrstuvwxyzABCDEFGH"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9kZWx0YSIsImRlbHRhIjp7InN0b3BfcmVhc29uIjoidG9vbF91c2UiLCJzdG9wX3NlcXVlbmNlIjpudWxsLCJzdG9wX2RldGFpbHMiOm51bGx9LCJ1c2FnZSI6eyJpbnB1dF90b2tlbnMiOjQwLCJjYWNoZV9jcmVhdGlvbl9pbnB1dF90b2tlbnMiOjAsImNhY2hlX3JlYWRfaW5wdXRfdG9rZW5zIjowLCJvdXRwdXRfdG9rZW5zIjoyNX19","p":"abcd"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdG9wIiwiYW1hem9uLWJlZHJvY2staW52b2NhdGlvbk1ldHJpY3MiOnsiaW5wdXRUb2tlbkNvdW50Ijo0MCwib3V0cHV0VG9rZW5Db3VudCI6MjUsImludm9jYXRpb25MYXRlbmN5Ijo5MDAsImZpcnN0Qnl0ZUxhdGVuY3kiOjMwMH19","p":"abcdefghijk"}',
            ),
        ],
    ),
    (
        "invoke",
        "BR-INVOKE: redacted_thinking, then text",
        (RedactedReasoning("EmwKAhgBEgy3va3pzix/LafPsn4a"), TextDelta("It is mild."), End("stop")),
        [
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCIsIm1lc3NhZ2UiOnsibW9kZWwiOiJhbnRocm9waWMuY2xhdWRlLXNvbm5ldC00LTUtMjAyNTA5MjktdjE6MCIsImlkIjoibXNnX2JkcmtfbW9ja04iLCJ0eXBlIjoibWVzc2FnZSIsInJvbGUiOiJhc3Npc3RhbnQiLCJjb250ZW50IjpbXSwic3RvcF9yZWFzb24iOm51bGwsInN0b3Bfc2VxdWVuY2UiOm51bGwsInN0b3BfZGV0YWlscyI6bnVsbCwidXNhZ2UiOnsiaW5wdXRfdG9rZW5zIjowLCJjYWNoZV9jcmVhdGlvbl9pbnB1dF90b2tlbnMiOjAsImNhY2hlX3JlYWRfaW5wdXRfdG9rZW5zIjowLCJjYWNoZV9jcmVhdGlvbiI6eyJlcGhlbWVyYWxfNW1faW5wdXRfdG9rZW5zIjowLCJlcGhlbWVyYWxfMWhfaW5wdXRfdG9rZW5zIjowfSwib3V0cHV0X3Rva2VucyI6MCwic2VydmljZV90aWVyIjoic3RhbmRhcmQiLCJpbmZlcmVuY2VfZ2VvIjoibm90X2F2YWlsYWJsZSJ9fX0=","p":"abcdefgh"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdGFydCIsImluZGV4IjowLCJjb250ZW50X2Jsb2NrIjp7InR5cGUiOiJyZWRhY3RlZF90aGlua2luZyIsImRhdGEiOiJFbXdLQWhnQkVneTN2YTNweml4L0xhZlBzbjRhIn19","p":"abcdefghijklmno"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdG9wIiwiaW5kZXgiOjB9","p":"abcdefghijklmnopqrstuv"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdGFydCIsImluZGV4IjoxLCJjb250ZW50X2Jsb2NrIjp7InR5cGUiOiJ0ZXh0IiwidGV4dCI6IiJ9fQ==","p":"abcdefghijklmnopqrstuvwxyzABC"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImluZGV4IjoxLCJkZWx0YSI6eyJ0eXBlIjoidGV4dF9kZWx0YSIsInRleHQiOiJJdCBpcyBtaWxkLiJ9fQ==","p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9ja19zdG9wIiwiaW5kZXgiOjF9","p":"abcdef"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9kZWx0YSIsImRlbHRhIjp7InN0b3BfcmVhc29uIjoiZW5kX3R1cm4iLCJzdG9wX3NlcXVlbmNlIjpudWxsLCJzdG9wX2RldGFpbHMiOm51bGx9LCJ1c2FnZSI6eyJpbnB1dF90b2tlbnMiOjAsImNhY2hlX2NyZWF0aW9uX2lucHV0X3Rva2VucyI6MCwiY2FjaGVfcmVhZF9pbnB1dF90b2tlbnMiOjAsIm91dHB1dF90b2tlbnMiOjB9fQ==","p":"abcdefghijklm"}',
            ),
            (
                "chunk",
                "event",
                '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdG9wIiwiYW1hem9uLWJlZHJvY2staW52b2NhdGlvbk1ldHJpY3MiOnsiaW5wdXRUb2tlbkNvdW50IjowLCJvdXRwdXRUb2tlbkNvdW50IjowLCJpbnZvY2F0aW9uTGF0ZW5jeSI6OTAwLCJmaXJzdEJ5dGVMYXRlbmN5IjozMDB9fQ==","p":"abcdefghijklmnopqrst"}',
            ),
        ],
    ),
]
