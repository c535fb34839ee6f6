"""Explicit seams (issue 38): a dialect's optional hooks are attributes of the :class:`Dialect` base class
with defaults (the emitter's of :class:`Emitter`, the provider rules' of :class:`ProviderRules`), so
nothing reads one through ``getattr``/``hasattr``. This guard scans harness/ and fails on a probe of a
dialect object or of a hook by name.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import harness
from harness.dialects import Dialect, Emitter, ProviderRules, dialect_names, get_dialect

ROOT = Path(harness.__file__).parent

HOOKS = frozenset({
    # Dialect
    "routed",
    "websocket",
    "json_content_type",
    "id_header",
    "sse_eol",
    "stream_framing",
    "emit_response_for",
    "shape_for_request",
    "reasoning_carriers",
    "multi_carrier",
    # Emitter
    "bind_request",
    "prime",
    # ProviderRules
    "fidelity",
    "request_rules",
})


def _is_dialect(node: ast.expr) -> bool:
    """An expression that names a dialect object: ``get_dialect(...)``, or a name or attribute whose
    identifier says dialect (``dialect``, ``self.dialect``, ``d_dialect``...)."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name == "get_dialect"
    ident = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return "dialect" in ident.lower()


def probes(source: str) -> list[tuple[int, str]]:
    """Each ``getattr``/``hasattr`` call on a dialect object or naming a hook: (line, what)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in ("getattr", "hasattr") or len(node.args) < 2:
            continue
        target, attr = node.args[0], node.args[1]
        name = attr.value if isinstance(attr, ast.Constant) and isinstance(attr.value, str) else None
        if _is_dialect(target) or name in HOOKS:
            out.append((node.lineno, f"{node.func.id}({ast.unparse(target)}, {ast.unparse(attr)})"))
    return out


def test_the_guard_sees_a_probe() -> None:
    """The scan itself can fail: each form it forbids is found, a plain access is not."""
    assert len(probes('getattr(dialect, "anything", None)')) == 1
    assert len(probes('getattr(get_dialect(n), "routed", True)')) == 1
    assert len(probes('hasattr(self.dialect, "x")')) == 1
    assert len(probes('getattr(upstream, "websocket", False)')) == 1  # a hook by name, whatever holds it
    assert len(probes('getattr(emitter, "bind_request", None)')) == 1
    assert probes("dialect.sse_eol == '\\r\\n'") == []
    assert probes('getattr(obj, "model_dump", None)') == []


def scan(files: list[Path], find: Callable[[str], list[tuple[int, str]]]) -> list[str]:
    """``path:line: what`` for every probe ``find`` sees in ``files``."""
    return [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in files
        for line, what in find(path.read_text(encoding="utf-8"))
    ]


def test_no_probe_on_a_dialect_in_harness() -> None:
    files = sorted(ROOT.rglob("*.py"))
    assert len(files) > 50  # the walk found the package
    assert scan(files, probes) == []


def test_every_dialect_subclasses_the_base() -> None:
    """Every registered dialect is a :class:`Dialect`, so each hook is there with its default."""
    for name in dialect_names():
        d = get_dialect(name)
        assert isinstance(d, Dialect), name
        assert d.name == name
        for rules in d.provider_rules().values():
            assert isinstance(rules, ProviderRules), (name, rules)
        for variant in d.variants:
            assert isinstance(d.emitter(variant), Emitter), (name, variant)


def test_observers_take_what_they_read() -> None:
    """``observer`` and ``observe_response`` take typed keyword-only options (``variant``, ``reading``):
    a name they do not know is a TypeError, never silently dropped; the Chat dialect's reading is
    honoured (inline tags split or not)."""
    import pytest

    from harness.dialects import Reading
    from harness.events import ReasoningDelta

    for name in dialect_names():
        d = get_dialect(name)
        with pytest.raises(TypeError):
            d.observe_response(b"{}", inline_thinks=False)  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            d.observer(None, reasoning_field=("x",))  # type: ignore[call-arg]
    chat = get_dialect("openai-chat")
    body = b'{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>t"}}]}'
    split = [e for e in chat.observe_response(body) if isinstance(e, ReasoningDelta)]
    kept = chat.observe_response(body, reading=Reading(inline_think=False))
    assert split == [ReasoningDelta("r")]
    assert not any(isinstance(e, ReasoningDelta) for e in kept)


def runner_probes(source: str) -> list[tuple[int, str]]:
    """Each probe of an attribute by name in the runner (issue 47 item 4): any ``hasattr``, and a
    ``getattr`` naming its attribute in a string, except a dunder (``__name__`` of a user's callable).
    The runner's own objects (drivers, the upstream, cases) declare what it reads; a walk over a
    dataclass's fields (``getattr(obj, f.name)``) names no attribute and is not a probe."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in ("getattr", "hasattr") or len(node.args) < 2:
            continue
        attr = node.args[1]
        name = attr.value if isinstance(attr, ast.Constant) and isinstance(attr.value, str) else None
        dunder = name is not None and name.startswith("__") and name.endswith("__")
        if node.func.id == "hasattr" or (name is not None and not dunder):
            out.append((node.lineno, ast.unparse(node)))
    return out


def test_the_runner_guard_sees_a_probe() -> None:
    assert len(runner_probes('getattr(driver, "stderr_tail", lambda: "")()')) == 1
    assert len(runner_probes('hasattr(self.upstream, "route")')) == 1
    assert len(runner_probes('getattr(upstream, "port", None)')) == 1
    assert len(runner_probes("hasattr(x, name)")) == 1
    assert runner_probes('getattr(fn, "__qualname__", None)') == []
    assert runner_probes("getattr(ev, f.name)") == []
    assert runner_probes("driver.stderr_tail()") == []


def test_no_probe_in_the_runner() -> None:
    """The runner reads what :class:`~harness.drivers.Driver` and :class:`~harness.upstream.LiveUpstream`
    declare, never probes for it."""
    files = sorted((ROOT / "runner").rglob("*.py"))
    assert len(files) > 10
    assert scan(files, runner_probes) == []


def test_the_upstream_executors_meet_their_protocols() -> None:
    """Every mock-upstream executor keeps the records of :class:`Upstream`; the loopback one (and the
    standalone server built on it) is also the :class:`LiveUpstream` a run serves cases from; every
    driver the runner makes is a :class:`Driver`, with each seam declared."""
    import respx

    from harness.drivers import Driver
    from harness.drivers._adapter import AdapterDriver
    from harness.drivers._cli import CliDriver
    from harness.drivers._gateway import GatewayDriver, UrlDriver
    from harness.drivers._python import PythonDriver
    from harness.runner._pool import StartFailed
    from harness.timeline import Timeline
    from harness.upstream import ClientSide, Conversation, LiveUpstream, MockUpstream, ScriptHandler, Upstream
    from harness.upstream._respx import RespxUpstream
    from harness.upstream._standalone import _Standalone

    with respx.mock(assert_all_called=False) as router:
        respx_up = RespxUpstream(router)
        handler = ScriptHandler(Conversation(()), Timeline(), ClientSide())
        mock = MockUpstream()
        for executor in (mock, respx_up, handler):
            assert isinstance(executor, Upstream), type(executor)
        assert isinstance(mock, LiveUpstream)
        assert issubclass(_Standalone, MockUpstream)
        assert not isinstance(handler, LiveUpstream)  # (the protocol can fail)
    for kind in (AdapterDriver, CliDriver, GatewayDriver, UrlDriver, PythonDriver, StartFailed):
        assert issubclass(kind, Driver), kind
    assert Driver.concurrent is False
    assert Driver.base_url == ""
    assert dict(Driver.values) == {}
