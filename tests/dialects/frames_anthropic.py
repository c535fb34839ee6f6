"""Literal Anthropic Messages frames per variant (``event:`` + ``data:``; ids normalised to ``mockN``):
one table drives the emitter test and the observer test (h11 style). Shapes as recorded
(the corpus files anthropic-*: the padding, the ping, the empty thinking_delta before the signature)."""

# ruff: noqa: E501  (literal wire frames stay on one line)
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

MODEL = "claude-sonnet-4-5"

CASES: list[tuple[str, str, Turn, list[tuple[str, str, list[str]]]]] = [
    (
        "thinking",
        "ANT-THINK: thinking -> signature -> tool_use with input_json_delta, usage",
        (
            ReasoningDelta(text="The user wants the weather", item=""),
            ReasoningDelta(text=" in Paris.", item=""),
            ReasoningSignature(value="sig_mock_EqQBCgIYAhIM1gbcDa9GJwZA2b3h", item=""),
            ToolCallDelta(
                index=0, id="toolu_01Paris", name="get_weather", arguments='{"city": "Par', item=""
            ),
            ToolCallDelta(index=0, id=None, name=None, arguments='is"}', item=""),
            Usage(input_tokens=472, output_tokens=180, reasoning_tokens=None, total_tokens=652, item=""),
            End(reason="tool_calls", item=""),
        ),
        [
            (
                "message_start",
                '{"type":"message_start","message":{"model":"claude-sonnet-4-5","id":"msg_mockN","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":472,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard","inference_geo":"not_available"}}}',
                ["start"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}           }',
                ["reasoning"],
            ),
            (
                "ping",
                '{"type": "ping"}',
                [],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants the weather"}   }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" in Paris."}               }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":""}        }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig_mock_EqQBCgIYAhIM1gbcDa9GJwZA2b3h"} }',
                ["reasoning"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":0             }',
                ["reasoning", "reasoning-done"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01Paris","name":"get_weather","input":{},"caller":{"type":"direct"}}    }',
                ["tool"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}          }',
                ["tool"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Par"}  }',
                ["tool"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"is\\"}"}              }',
                ["tool"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":1       }',
                ["tool"],
            ),
            (
                "message_delta",
                '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null},"usage":{"input_tokens":472,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":180}}',
                ["usage"],
            ),
            (
                "message_stop",
                '{"type":"message_stop"            }',
                ["terminal"],
            ),
        ],
    ),
    (
        "redacted",
        "ANT-REDACTED: redacted_thinking complete at start, no deltas, then text",
        (
            RedactedReasoning(data="mock-opaque-redacted", item=""),
            TextDelta(text="18°C.", item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "message_start",
                '{"type":"message_start","message":{"model":"claude-sonnet-4-5","id":"msg_mockN","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":0,"service_tier":"standard","inference_geo":"not_available"}}}',
                ["start"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"mock-opaque-redacted"}           }',
                ["reasoning"],
            ),
            (
                "ping",
                '{"type": "ping"}',
                [],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":0   }',
                ["reasoning", "reasoning-done"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}               }',
                ["text"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"18°C."}        }',
                ["text"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":1 }',
                ["text"],
            ),
            (
                "message_delta",
                '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null},"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}             }',
                [],
            ),
            (
                "message_stop",
                '{"type":"message_stop"    }',
                ["terminal"],
            ),
        ],
    ),
    (
        "omitted",
        "ANT-OMITTED: thinking block with empty text, signature only, then text",
        (
            ReasoningSignature(value="sig_mock_omitted", item=""),
            TextDelta(text="Hello.", item=""),
            Usage(input_tokens=10, output_tokens=20, reasoning_tokens=15, total_tokens=30, item=""),
            End(reason="stop", item=""),
        ),
        [
            (
                "message_start",
                '{"type":"message_start","message":{"model":"claude-sonnet-4-5","id":"msg_mockN","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard","inference_geo":"not_available"}}}',
                ["start"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}           }',
                ["reasoning"],
            ),
            (
                "ping",
                '{"type": "ping"}',
                [],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":""}   }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig_mock_omitted"}               }',
                ["reasoning"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":0        }',
                ["reasoning", "reasoning-done"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""} }',
                ["text"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello."}             }',
                ["text"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":1    }',
                ["text"],
            ),
            (
                "message_delta",
                '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null},"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20,"output_tokens_details":{"thinking_tokens":15}}          }',
                ["usage"],
            ),
            (
                "message_stop",
                '{"type":"message_stop"  }',
                ["terminal"],
            ),
        ],
    ),
    (
        "interleaved",
        "ANT-INTERLEAVED: thinking, text, thinking, tool_use in one message",
        (
            ReasoningDelta(text="First.", item=""),
            ReasoningSignature(value="sig_a", item=""),
            TextDelta(text="Let me check.", item=""),
            ReasoningDelta(text="Then the tool.", item="b"),
            ReasoningSignature(value="sig_b", item=""),
            ToolCallDelta(index=0, id="toolu_01Time", name="get_time", arguments='{"tz":"CET"}', item=""),
            End(reason="tool_calls", item=""),
        ),
        [
            (
                "message_start",
                '{"type":"message_start","message":{"model":"claude-sonnet-4-5","id":"msg_mockN","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":0,"service_tier":"standard","inference_geo":"not_available"}}}',
                ["start"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}           }',
                ["reasoning"],
            ),
            (
                "ping",
                '{"type": "ping"}',
                [],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"First."}   }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":""}               }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig_a"}        }',
                ["reasoning"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":0 }',
                ["reasoning", "reasoning-done"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}             }',
                ["text"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Let me check."}    }',
                ["text"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":1          }',
                ["text"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":2,"content_block":{"type":"thinking","thinking":"","signature":""}  }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":2,"delta":{"type":"thinking_delta","thinking":"Then the tool."}              }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":2,"delta":{"type":"thinking_delta","thinking":""}       }',
                ["reasoning"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":2,"delta":{"type":"signature_delta","signature":"sig_b"}}',
                ["reasoning"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":2            }',
                ["reasoning", "reasoning-done"],
            ),
            (
                "content_block_start",
                '{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_01Time","name":"get_time","input":{},"caller":{"type":"direct"}}     }',
                ["tool"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":""}      }',
                ["tool"],
            ),
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\\"tz\\":\\"CET\\"}"}}',
                ["tool"],
            ),
            (
                "content_block_stop",
                '{"type":"content_block_stop","index":3           }',
                ["tool"],
            ),
            (
                "message_delta",
                '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null},"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}   }',
                [],
            ),
            (
                "message_stop",
                '{"type":"message_stop"               }',
                ["terminal"],
            ),
        ],
    ),
]
