"""Literal OpenAI Responses frames per variant (``event:`` + ``data:``; ids normalised to ``mockN``): one
table drives the emitter test and the observer test (h11 style). Shapes from wire-formats.md §3."""

# ruff: noqa: E501  (literal wire frames stay on one line)
from __future__ import annotations

from harness.events import (
    End,
    ReasoningDelta,
    ReasoningSignature,
    StreamError,
    TextDelta,
    ToolCallDelta,
    Turn,
    Usage,
)

__all__ = ["CASES", "MODEL"]

MODEL = "o3"

CASES: list[tuple[str, str, Turn, list[tuple[str, str, list[str]]]]] = [
    (
        "summary",
        "RESP-SUM: two summary parts, encrypted_content, message text, usage with reasoning_tokens",
        (
            ReasoningDelta(text="**Estim", item="p0"),
            ReasoningDelta(text="ating**", item="p0"),
            ReasoningDelta(text="**Checking**", item="p1"),
            ReasoningSignature(value="gAAAAB-mock-opaque", item=""),
            TextDelta(text="About 25 t", item=""),
            TextDelta(text="onnes.", item=""),
            Usage(input_tokens=25, output_tokens=2097, reasoning_tokens=1600, total_tokens=2122, item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_part.added",
                '{"type":"response.reasoning_summary_part.added","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_text.delta",
                '{"type":"response.reasoning_summary_text.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"delta":"**Estim","obfuscation":"mockP"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_text.delta",
                '{"type":"response.reasoning_summary_text.delta","sequence_number":5,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"delta":"ating**","obfuscation":"mockPa"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_text.done",
                '{"type":"response.reasoning_summary_text.done","sequence_number":6,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"text":"**Estimating**"}',
                ["reasoning", "repeat"],
            ),
            (
                "response.reasoning_summary_part.done",
                '{"type":"response.reasoning_summary_part.done","sequence_number":7,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"**Estimating**"}}',
                ["reasoning", "repeat"],
            ),
            (
                "response.reasoning_summary_part.added",
                '{"type":"response.reasoning_summary_part.added","sequence_number":8,"item_id":"rs_mockN_0","output_index":0,"summary_index":1,"part":{"type":"summary_text","text":""}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_text.delta",
                '{"type":"response.reasoning_summary_text.delta","sequence_number":9,"item_id":"rs_mockN_0","output_index":0,"summary_index":1,"delta":"**Checking**","obfuscation":"mockPad"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_text.done",
                '{"type":"response.reasoning_summary_text.done","sequence_number":10,"item_id":"rs_mockN_0","output_index":0,"summary_index":1,"text":"**Checking**"}',
                ["reasoning", "repeat"],
            ),
            (
                "response.reasoning_summary_part.done",
                '{"type":"response.reasoning_summary_part.done","sequence_number":11,"item_id":"rs_mockN_0","output_index":0,"summary_index":1,"part":{"type":"summary_text","text":"**Checking**"}}',
                ["reasoning", "repeat"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":12,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[{"type":"summary_text","text":"**Estimating**"},{"type":"summary_text","text":"**Checking**"}],"encrypted_content":"gAAAAB-mock-opaque"}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":13,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
                ["text"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":14,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":15,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"About 25 t","logprobs":[],"obfuscation":"mockPadd"}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":16,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"onnes.","logprobs":[],"obfuscation":"mockPaddi"}',
                ["text"],
            ),
            (
                "response.output_text.done",
                '{"type":"response.output_text.done","sequence_number":17,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"text":"About 25 tonnes.","logprobs":[]}',
                ["repeat", "text"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":18,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"About 25 tonnes."}}',
                ["repeat", "text"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":19,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"About 25 tonnes."}],"role":"assistant"}}',
                ["repeat", "text"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":20,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[{"type":"summary_text","text":"**Estimating**"},{"type":"summary_text","text":"**Checking**"}],"encrypted_content":"gAAAAB-mock-opaque"},{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"About 25 tonnes."}],"role":"assistant"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":{"input_tokens":25,"input_tokens_details":{"cached_tokens":0},"output_tokens":2097,"output_tokens_details":{"reasoning_tokens":1600},"total_tokens":2122},"user":null,"metadata":{}}}',
                ["repeat", "terminal", "usage"],
            ),
        ],
    ),
    (
        "empty",
        "RESP-EMPTY: reasoning item with no deltas, only encrypted_content, then a function call",
        (
            ReasoningSignature(value="gAAAAB-mock-opaque", item=""),
            ToolCallDelta(
                index=0, id="call_Paris2", name="get_weather", arguments='{"city":"Paris"}', item=""
            ),
            Usage(input_tokens=84, output_tokens=94, reasoning_tokens=64, total_tokens=178, item=""),
            End(reason="tool_calls", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[],"encrypted_content":"gAAAAB-mock-opaque"}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":4,"output_index":1,"item":{"id":"fc_mockN_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_Paris2","name":"get_weather"}}',
                ["tool"],
            ),
            (
                "response.function_call_arguments.delta",
                '{"type":"response.function_call_arguments.delta","sequence_number":5,"item_id":"fc_mockN_1","output_index":1,"delta":"{\\"city\\":\\"Paris\\"}","obfuscation":"mockP"}',
                ["tool"],
            ),
            (
                "response.function_call_arguments.done",
                '{"type":"response.function_call_arguments.done","sequence_number":6,"item_id":"fc_mockN_1","output_index":1,"arguments":"{\\"city\\":\\"Paris\\"}"}',
                ["repeat", "tool"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":7,"output_index":1,"item":{"id":"fc_mockN_1","type":"function_call","status":"completed","arguments":"{\\"city\\":\\"Paris\\"}","call_id":"call_Paris2","name":"get_weather"}}',
                ["repeat", "tool"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":8,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[],"encrypted_content":"gAAAAB-mock-opaque"},{"id":"fc_mockN_1","type":"function_call","status":"completed","arguments":"{\\"city\\":\\"Paris\\"}","call_id":"call_Paris2","name":"get_weather"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":{"input_tokens":84,"input_tokens_details":{"cached_tokens":0},"output_tokens":94,"output_tokens_details":{"reasoning_tokens":64},"total_tokens":178},"user":null,"metadata":{}}}',
                ["repeat", "terminal", "usage"],
            ),
        ],
    ),
    (
        "reasoning_text",
        "RESP-TEXT: content_part.added reasoning_text, reasoning_text deltas, item content[]",
        (
            ReasoningDelta(text=" asking", item=""),
            ReasoningDelta(text=" about", item=""),
            TextDelta(text="Hi.", item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":""}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_text.delta",
                '{"type":"response.reasoning_text.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":" asking"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_text.delta",
                '{"type":"response.reasoning_text.delta","sequence_number":5,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":" about"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_text.done",
                '{"type":"response.reasoning_text.done","sequence_number":6,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"text":" asking about"}',
                ["reasoning", "repeat"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":7,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":" asking about"}}',
                ["reasoning", "repeat"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":8,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":" asking about"}]}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":9,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
                ["text"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":10,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":11,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"Hi.","logprobs":[]}',
                ["text"],
            ),
            (
                "response.output_text.done",
                '{"type":"response.output_text.done","sequence_number":12,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"text":"Hi.","logprobs":[]}',
                ["repeat", "text"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":13,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi."}}',
                ["repeat", "text"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":14,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi."}],"role":"assistant"}}',
                ["repeat", "text"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":15,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":" asking about"}]},{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi."}],"role":"assistant"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["repeat", "terminal"],
            ),
        ],
    ),
    (
        "alias-string",
        "RESP-ALIAS: response.reasoning.delta with string deltas, response.reasoning.done",
        (
            ReasoningDelta(text="Let me", item=""),
            ReasoningDelta(text=" think.", item=""),
            TextDelta(text="Done.", item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.reasoning.delta",
                '{"type":"response.reasoning.delta","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":"Let me"}',
                ["reasoning"],
            ),
            (
                "response.reasoning.delta",
                '{"type":"response.reasoning.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":" think."}',
                ["reasoning"],
            ),
            (
                "response.reasoning.done",
                '{"type":"response.reasoning.done","sequence_number":5,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"text":"Let me think."}',
                ["reasoning", "repeat"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":6,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"Let me think."}]}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":7,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
                ["text"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":8,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":9,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"Done.","logprobs":[]}',
                ["text"],
            ),
            (
                "response.output_text.done",
                '{"type":"response.output_text.done","sequence_number":10,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"text":"Done.","logprobs":[]}',
                ["repeat", "text"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":11,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Done."}}',
                ["repeat", "text"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":12,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Done."}],"role":"assistant"}}',
                ["repeat", "text"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":13,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"Let me think."}]},{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Done."}],"role":"assistant"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["repeat", "terminal"],
            ),
        ],
    ),
    (
        "alias-object",
        "RESP-ALIAS: response.reasoning.delta with {text} deltas",
        (
            ReasoningDelta(text="Let me", item=""),
            ReasoningDelta(text=" think.", item=""),
            TextDelta(text="Done.", item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.reasoning.delta",
                '{"type":"response.reasoning.delta","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":{"text":"Let me"}}',
                ["reasoning"],
            ),
            (
                "response.reasoning.delta",
                '{"type":"response.reasoning.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":{"text":" think."}}',
                ["reasoning"],
            ),
            (
                "response.reasoning.done",
                '{"type":"response.reasoning.done","sequence_number":5,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"text":"Let me think."}',
                ["reasoning", "repeat"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":6,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"Let me think."}]}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":7,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
                ["text"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":8,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":9,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"Done.","logprobs":[]}',
                ["text"],
            ),
            (
                "response.output_text.done",
                '{"type":"response.output_text.done","sequence_number":10,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"text":"Done.","logprobs":[]}',
                ["repeat", "text"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":11,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Done."}}',
                ["repeat", "text"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":12,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Done."}],"role":"assistant"}}',
                ["repeat", "text"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":13,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"Let me think."}]},{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Done."}],"role":"assistant"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["repeat", "terminal"],
            ),
        ],
    ),
    (
        "alias-summary",
        "RESP-ALIAS: response.reasoning_summary.delta/.done",
        (
            ReasoningDelta(text="**Plan**", item=""),
            TextDelta(text="Ok.", item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_part.added",
                '{"type":"response.reasoning_summary_part.added","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary.delta",
                '{"type":"response.reasoning_summary.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"delta":"**Plan**"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary.done",
                '{"type":"response.reasoning_summary.done","sequence_number":5,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"text":"**Plan**"}',
                ["reasoning", "repeat"],
            ),
            (
                "response.reasoning_summary_part.done",
                '{"type":"response.reasoning_summary_part.done","sequence_number":6,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"**Plan**"}}',
                ["reasoning", "repeat"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":7,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"}]}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":8,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
                ["text"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":9,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":10,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"Ok.","logprobs":[]}',
                ["text"],
            ),
            (
                "response.output_text.done",
                '{"type":"response.output_text.done","sequence_number":11,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"text":"Ok.","logprobs":[]}',
                ["repeat", "text"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":12,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Ok."}}',
                ["repeat", "text"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":13,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Ok."}],"role":"assistant"}}',
                ["repeat", "text"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":14,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"}]},{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Ok."}],"role":"assistant"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["repeat", "terminal"],
            ),
        ],
    ),
    (
        "vllm-parts",
        "RESP-ALIAS: vLLM response.reasoning_part.added/.done around reasoning_text deltas",
        (
            ReasoningDelta(text=" asking", item=""),
            TextDelta(text="Hi.", item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":null,"encrypted_content":null,"status":"in_progress"}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_part.added",
                '{"type":"response.reasoning_part.added","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":""}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_text.delta",
                '{"type":"response.reasoning_text.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"delta":" asking"}',
                ["reasoning"],
            ),
            (
                "response.reasoning_text.done",
                '{"type":"response.reasoning_text.done","sequence_number":5,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"text":" asking"}',
                ["reasoning", "repeat"],
            ),
            (
                "response.reasoning_part.done",
                '{"type":"response.reasoning_part.done","sequence_number":6,"item_id":"rs_mockN_0","output_index":0,"content_index":0,"part":{"type":"reasoning_text","text":" asking"}}',
                ["reasoning", "repeat"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":7,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":" asking"}],"encrypted_content":null,"status":"completed"}}',
                ["reasoning", "reasoning-done", "repeat"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":8,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}',
                ["text"],
            ),
            (
                "response.content_part.added",
                '{"type":"response.content_part.added","sequence_number":9,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}',
                ["text"],
            ),
            (
                "response.output_text.delta",
                '{"type":"response.output_text.delta","sequence_number":10,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"delta":"Hi.","logprobs":[]}',
                ["text"],
            ),
            (
                "response.output_text.done",
                '{"type":"response.output_text.done","sequence_number":11,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"text":"Hi.","logprobs":[]}',
                ["repeat", "text"],
            ),
            (
                "response.content_part.done",
                '{"type":"response.content_part.done","sequence_number":12,"item_id":"msg_mockN_1","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi."}}',
                ["repeat", "text"],
            ),
            (
                "response.output_item.done",
                '{"type":"response.output_item.done","sequence_number":13,"output_index":1,"item":{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi."}],"role":"assistant"}}',
                ["repeat", "text"],
            ),
            (
                "response.completed",
                '{"type":"response.completed","sequence_number":14,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"completed","background":false,"completed_at":1758106875,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[{"id":"rs_mockN_0","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":" asking"}],"encrypted_content":null,"status":"completed"},{"id":"msg_mockN_1","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi."}],"role":"assistant"}],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":null},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["repeat", "terminal"],
            ),
        ],
    ),
    (
        "failed",
        "RESP-ERR: an error ends the stream as response.failed",
        (
            ReasoningDelta(text="Hmm", item=""),
            StreamError(
                message="The server is overloaded.", code="server_is_overloaded", status=None, item=""
            ),
        ),
        [
            (
                "response.created",
                '{"type":"response.created","sequence_number":0,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.in_progress",
                '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"in_progress","background":false,"completed_at":null,"error":null,"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"auto","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["start"],
            ),
            (
                "response.output_item.added",
                '{"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_mockN_0","type":"reasoning","summary":[]}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_part.added",
                '{"type":"response.reasoning_summary_part.added","sequence_number":3,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}',
                ["reasoning"],
            ),
            (
                "response.reasoning_summary_text.delta",
                '{"type":"response.reasoning_summary_text.delta","sequence_number":4,"item_id":"rs_mockN_0","output_index":0,"summary_index":0,"delta":"Hmm","obfuscation":"mockP"}',
                ["reasoning"],
            ),
            (
                "response.failed",
                '{"type":"response.failed","sequence_number":5,"response":{"id":"resp_mockN","object":"response","created_at":1758106874,"status":"failed","background":false,"completed_at":null,"error":{"code":"server_is_overloaded","message":"The server is overloaded."},"frequency_penalty":0.0,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"o3","moderation":null,"output":[],"parallel_tool_calls":true,"presence_penalty":0.0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":"24h","reasoning":{"effort":"medium","summary":"detailed"},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":null,"user":null,"metadata":{}}}',
                ["error"],
            ),
        ],
    ),
]
