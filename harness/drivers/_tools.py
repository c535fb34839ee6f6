"""The scenario's tools as Python callables, for a SUT whose framework runs its tools itself. Each is named,
described and typed as the scenario's tool definition says and returns the scripted result."""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from harness.drivers._shaping import ToolSpec

__all__ = ["ToolRunner", "recorder"]

_TYPES: Mapping[str, type] = {
    "string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict,
}


class ToolRunner:
    """The scripted results of a case's tools, and the record of each call (``record(name, arguments,
    result)``: what the driver puts in the timeline).

    A tool's result is the ``tool_result`` of the turns whose scripted calls name it, in order, and the
    last one again for any further call: the same text thinkwire's own continuation would send. Every call
    is recorded as a client ``tool`` entry with name, arguments and result. Frameworks that read a
    function's signature and docstring, such as pydantic-ai, LangGraph and the OpenAI Agents SDK, see the
    tool's JSON schema as keyword parameters.
    """

    def __init__(
        self, turns: Sequence[Any], specs: Sequence[ToolSpec], record: Callable[[str, str, str], None]
    ) -> None:
        from harness.events import ToolCallDelta

        self.specs = tuple(specs)
        self._results: dict[str, list[str]] = {}
        for turn in turns:
            for ev in turn.events():
                if isinstance(ev, ToolCallDelta) and ev.name:
                    self._results.setdefault(ev.name, []).append(str(getattr(turn, "tool_result", "")))
        self._calls: dict[str, int] = {}
        self._lock = threading.Lock()
        self._record = record

    def run(self, name: str, arguments: Mapping[str, Any]) -> str:
        """The scripted result of this call of ``name`` (recorded)."""
        with self._lock:
            n = self._calls.get(name, 0)
            self._calls[name] = n + 1
        results = self._results.get(name) or [""]
        result = results[min(n, len(results) - 1)]
        self._record(name, json.dumps(dict(arguments), ensure_ascii=False, sort_keys=True), result)
        return result

    def callables(self, *, asynchronous: bool = False) -> list[Callable[..., Any]]:
        """One function per tool: ``def get_weather(*, city: str) -> str`` (or ``async def``)."""
        return [self._function(spec, asynchronous) for spec in self.specs]

    def _function(self, spec: ToolSpec, asynchronous: bool) -> Callable[..., Any]:
        runner, name = self, spec.name

        def tool(**arguments: Any) -> str:
            return runner.run(name, arguments)

        async def atool(**arguments: Any) -> str:
            return runner.run(name, arguments)

        fn: Any = atool if asynchronous else tool
        props = spec.parameters.get("properties", {}) if isinstance(spec.parameters, Mapping) else {}
        required = set(spec.parameters.get("required", ())) if isinstance(spec.parameters, Mapping) else set()
        params = [
            inspect.Parameter(
                key, inspect.Parameter.KEYWORD_ONLY,
                annotation=_TYPES.get(str(schema.get("type")), Any) if isinstance(schema, Mapping) else Any,
                **({} if key in required else {"default": None}),
            )
            for key, schema in props.items()
        ]
        fn.__signature__ = inspect.Signature(params, return_annotation=str)
        fn.__annotations__ = {p.name: p.annotation for p in params} | {"return": str}
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = spec.description
        return fn  # type: ignore[no-any-return]


def recorder(timeline: Any, turn: int) -> Callable[[str, str, str], None]:
    """Records a tool call the SUT ran (a client ``tool`` entry of ``turn`` in ``timeline``)."""

    def record(name: str, arguments: str, result: str) -> None:
        timeline.add("client", "tool", turn=turn, name=name, arguments=arguments, result=result)

    return record
