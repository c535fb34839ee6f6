"""The thinking-blocks gateway (``_tb_gateway.py``) as a profile, and the Anthropic passback cases the
carrier tests run it on (shared by test_carriers_and_shaping and test_declared_carriers)."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.drivers import parse_profile

GATEWAY = str(Path(__file__).with_name("_tb_gateway.py"))
SIGNED = "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames]"
SIGNED_NONSTREAM = "tools-passback/anthropic-thinking-blocks[anthropic-messages:thinking/frames/nonstream]"
REDACTED = "tools-passback/anthropic-redacted[anthropic-messages:redacted/frames]"
PLAIN = "wire-variants/reasoning-then-answer[anthropic-messages:thinking/frames]"


def tb_gateway(name: str, *args: str, **extra: object) -> object:
    """The gateway started with ``args`` after its port and upstream (its mode, then its style)."""
    mode, *style = args
    data: dict[str, object] = {
        "kind": "gateway",
        "name": name,
        "command": [sys.executable, GATEWAY, mode, "{port}", "{upstream}", *style],
        "env": {"TB_KEY": "k-test"},
        "dialects": ["anthropic-messages"],
        "request": {"headers": {"authorization": "Bearer {env:TB_KEY}"}},
        "timeout": 10,
    }
    data.update(extra)
    return parse_profile(data)
