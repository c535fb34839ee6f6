"""The profile keys only a CLI has: how it takes its conversation (``input``, ``continue``) and how its
plain-text output is read (``reasoning_from`` and the markers around reasoning on stdout). Each reader
checks its key against the profile's kind and front door and names the field it refuses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness._fields import Err
from harness.drivers._cli_text import PLAIN_TEXT
from harness.drivers._kinds import Abilities

__all__ = ["CLI_INPUTS", "cli_input", "continue_words", "reasoning_from"]

CLI_INPUTS = ("argv", "rpc")
"""How a CLI gets its conversation: ``argv``, its one prompt in the command (``{prompt}``); ``rpc``, pi
RPC-mode JSON lines on stdin (``prompt`` per user message, ``abort`` to cancel the run in flight)."""


def cli_input(data: Mapping[str, Any], abilities: Abilities, front: str, err: Err) -> str:
    """A CLI's ``input``: ``rpc`` only for a prompted SUT (whose runs a pi-json front door delimits)."""
    value = str(data.get("input", "argv"))
    if value == "rpc" and not abilities.prompted:
        raise err("input", f"only a cli profile reads its prompts from stdin (this is {data['kind']})")
    if value == "rpc" and front != "pi-json":
        raise err(
            "input", f"an rpc CLI writes pi-json records (agent_end ends each run); front_door is {front}"
        )
    return value


def continue_words(data: Mapping[str, Any], abilities: Abilities, err: Err) -> tuple[str, ...]:
    """A CLI's ``continue`` words: a later user message runs the command again with them (argv input)."""
    words = tuple(str(w) for w in data.get("continue", ()))
    if words and not abilities.prompted:
        raise err("continue", f"only a cli profile continues with words of its own (this is {data['kind']})")
    if words and data.get("input", "argv") != "argv":
        raise err("continue", 'an rpc CLI takes its next prompt on stdin: continue is for input = "argv"')
    if "continue" in data and not words:
        raise err("continue", "no words given", 'e.g. continue = ["-c"], or leave the key out')
    return words


def reasoning_from(data: Mapping[str, Any], front: str, err: Err) -> str:
    """Where a plain-text CLI prints its reasoning; stdout needs both markers around it."""
    where = str(data.get("reasoning_from", ""))
    if front != PLAIN_TEXT:
        for key in ("reasoning_from", "reasoning_start", "reasoning_end"):
            if key in data:
                raise err(key, f'only a plain-text front door reads reasoning this way (this is {front})',
                          f'front_door = "{PLAIN_TEXT}"')  # fmt: skip
        return ""
    if not where:
        hint = 'reasoning_from = "stderr", or "stdout" with reasoning_start and reasoning_end'
        raise err("reasoning_from", "a plain-text CLI must say where it prints its reasoning", hint)
    if where == "stdout":
        for key in ("reasoning_start", "reasoning_end"):
            if not data.get(key):
                hint = 'e.g. reasoning_start = "Thinking...\\n", reasoning_end = "...done thinking.\\n"'
                raise err(key, "reasoning on stdout needs the markers the CLI prints around it", hint)
    elif "reasoning_start" in data or "reasoning_end" in data:
        raise err("reasoning_start", "markers are for reasoning on stdout", 'reasoning_from = "stdout"')
    return where
