"""The driver for in-process SUTs: a Python callable, such as an SDK wrapper, that yields canonical events. It
runs the callable on a worker thread in lock step with the observer, so a hang becomes a TIMEOUT at the
case's deadline, never a hung run."""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import queue
import shutil
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar, cast

from harness.drivers._base import (
    CancelWatch,
    CaseContext,
    CaseTooBig,
    Driver,
    DriverError,
    DriverTimeout,
    TurnOutcome,
    converse,
)
from harness.drivers._contract import contract_violation
from harness.drivers._profile import SUTProfile
from harness.drivers._python_async import DONE, TIMEOUT, AsyncWorker, LoopThread, is_async
from harness.drivers._raised import raised
from harness.drivers._shaping import ToolSpec, shaping, tool_specs, tools_json
from harness.drivers._tools import ToolRunner, recorder
from harness.events import Event, Message, StreamError

_F = TypeVar("_F", bound=Callable[..., Any])

if TYPE_CHECKING:
    import httpx

    from harness._gate import Gate

__all__ = [
    "AdapterError",
    "PythonDriver",
    "SUTCallable",
    "SUTRequest",
    "claims",
    "declared_claims",
    "load_callable",
    "short_traceback",
    "with_declared_claims",
]

_CLAIMS = ("dialects", "providers", "modes", "unsupported_variants")
"""What a callable may declare where it is defined (``thinkwire_<name>`` attributes, or :func:`claims`)."""


def claims(
    *,
    dialects: Sequence[str] | None = None,
    providers: Sequence[str] | None = None,
    modes: Sequence[str] | None = None,
    usage: bool | None = None,
    unsupported_variants: Sequence[str] | None = None,
    concurrent: bool | None = None,
) -> Callable[[_F], _F]:
    """Declare what a Python SUT claims where it is defined (a profile's keys win over it)::

        @harness.claims(dialects=["anthropic-messages"], providers=["anthropic"], modes=["stream"])
        def my_sut(request): ...

    ``usage=False``: it reports no token usage (the profile's ``usage = false``); ``unsupported_variants``:
    ``"dialect:variant"`` names it is known not to handle, judged UNSUPPORTED (the profile's key of that
    name, added to it); ``concurrent=True``: it carries several conversations at once, so a run puts
    several cases in flight (``thinkwire_concurrent``). It sets ``thinkwire_<name>`` attributes on the
    function."""
    given = {"dialects": dialects, "providers": providers, "modes": modes,
             "unsupported_variants": unsupported_variants}

    def mark(fn: _F) -> _F:
        for key, value in given.items():
            if value is not None:
                setattr(fn, f"thinkwire_{key}", tuple(value))
        if usage is not None:
            fn.thinkwire_usage = bool(usage)  # type: ignore[attr-defined]
        if concurrent is not None:
            fn.thinkwire_concurrent = bool(concurrent)  # type: ignore[attr-defined]
        return fn

    return mark


def _variant_names() -> list[str]:
    from harness.dialects import all_variants

    return [f"{v.dialect}:{v.name}" for v in all_variants()] + [v.name for v in all_variants()]


def declared_claims(fn: object) -> dict[str, tuple[str, ...]]:
    """The claims a callable declares (``thinkwire_dialects`` ...), each name checked: an unknown one
    is a ProfileError naming the attribute."""
    from harness._errors import ProfileError, closest
    from harness.dialects import dialect_names, provider_names
    from harness.drivers._profile import MODES

    known: dict[str, Callable[[], Sequence[str]]] = {
        "dialects": dialect_names, "providers": provider_names, "modes": lambda: MODES,
        "unsupported_variants": _variant_names,
    }
    out: dict[str, tuple[str, ...]] = {}
    for key in _CLAIMS:
        value = getattr(fn, f"thinkwire_{key}", None)
        if value is None:
            continue
        names = (value,) if isinstance(value, str) else tuple(str(v) for v in value)
        options = list(known[key]())
        for name in names:
            if name not in options:
                where = f"SUT callable {getattr(fn, '__qualname__', fn)!r}"
                hint = closest(name, options)
                raise ProfileError(where, f"thinkwire_{key}", f"unknown {key[:-1]} {name!r}", hint)
        out[key] = names
    return out


def with_declared_claims(profile: SUTProfile, fn: object) -> SUTProfile:
    """``profile`` with what ``fn`` declares where the profile says nothing; its unsupported variants
    added to the profile's, and its ``usage = False`` kept (a profile cannot make it report usage)."""
    import dataclasses

    declared = declared_claims(fn)
    claims: dict[str, Any] = {k: v for k, v in declared.items() if k in ("dialects", "providers", "modes")
                              and getattr(profile, k) is None}
    if "unsupported_variants" in declared:
        claims["unsupported_variants"] = tuple(
            dict.fromkeys(profile.unsupported_variants + declared["unsupported_variants"])
        )
    if getattr(fn, "thinkwire_usage", None) is False:
        claims["reports_usage"] = False
    return dataclasses.replace(profile, **claims) if claims else profile


@dataclass(frozen=True, slots=True)
class SUTRequest:
    """One turn for an in-process SUT: call the provider at ``base_url`` in ``dialect``.

    This is the framework adapter contract. Each turn's request carries the scenario's tool definitions,
    the profile's request shaping in ``headers`` and ``body``, and ``state``: one dict per conversation
    that the adapter owns across its turns. A framework keeps its own history objects there, so its
    passback, not thinkwire's, is what the upstream sees; values with a ``close()`` are closed when the
    conversation ends.

    ``front_door`` is the event style the adapter speaks: the profile's ``front_door``, or the callable's
    ``thinkwire_front_door`` attribute, ``openai-chat`` for chat-like events and ``openai-responses`` for
    Responses-like ones.
    """

    base_url: str
    dialect: str
    variant: str | None
    model: str
    messages: list[Message]
    stream: bool
    http: httpx.Client
    faults: frozenset[str] = field(default_factory=frozenset)
    async_http: httpx.AsyncClient | None = None  # async SUTs: a client bound to the driver's loop
    tools: tuple[ToolSpec, ...] = ()  # the tools the scenario's upstream calls (name, JSON schema)
    state: dict[str, Any] = field(default_factory=dict)  # the adapter's own, kept across the turns
    headers: Mapping[str, str] = field(default_factory=dict)  # the profile's request shaping
    body: Mapping[str, Any] = field(default_factory=dict)  # extra request fields (request shaping)
    turn: int = 0
    front_door: str = "openai-chat"  # the event style the adapter speaks (chat- or Responses-like)
    provider: str = ""  # the provider the case's upstream plays (deepseek, kimi, anthropic, openai...)
    tmp: str = ""  # the case's directory holding the profile's files ("" when the profile has none)
    runner: ToolRunner | None = None  # the scenario's tools as callables (``tool_functions``)

    def tools_json(self, front_door: str | None = None) -> list[dict[str, Any]]:
        """The tool definitions in a front door's request form (default: the adapter's own)."""
        return tools_json(front_door or self.front_door, self.tools)

    def tool_functions(self, *, asynchronous: bool = False) -> list[Callable[..., Any]]:
        """The scenario's tools as functions for a framework that runs its tools itself: named,
        described and typed as the tool definitions say, each returning the scripted result of its
        call (the conversation's next request is then the SUT's own: thinkwire reads the turns from
        what reached the upstream). ``asynchronous``: ``async def`` functions."""
        return self.runner.callables(asynchronous=asynchronous) if self.runner is not None else []


SUTCallable = Callable[[SUTRequest], Iterable[Event]]


def load_callable(spec: str, sys_path: Iterable[str] = ()) -> SUTCallable:
    """Import ``module:attr`` (any exception the import raises is the SUT's: a DriverError with it),
    with ``sys_path`` first on the import path."""
    import sys

    for entry in reversed(tuple(sys_path)):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    module, _, attr = spec.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except Exception as exc:  # the first line says what; the rest is the whole traceback
        raise DriverError(
            f"cannot load SUT callable {spec!r}: {type(exc).__name__}: {exc}\n{short_traceback(exc, 8000)}"
        ) from None
    if not callable(obj):
        raise DriverError(f"SUT callable {spec!r} is not callable")
    fn: SUTCallable = obj
    return fn


def short_traceback(exc: BaseException, limit: int = 4000) -> str:
    """The whole traceback when it fits; else its head and its tail, never cutting the exception line."""
    text = "".join(traceback.format_exception(exc))
    if len(text) <= limit:
        return text
    head, tail = text[: limit // 4], text[-(limit * 3 // 4) :]
    return f"{head}\n  [... {len(text) - len(head) - len(tail)} characters ...]\n{tail}"


class PythonDriver(Driver):
    """The callable gets a :class:`SUTRequest` and returns an iterable of canonical events, what its users
    would see. An exception it raises is what its users would see on error, recorded with its traceback.
    Every event it yields is checked against the adapter contract in ``_contract`` first.

    It is imported when the driver starts, outside any case's budget, after the profile's ``sys_path`` is
    put on ``sys.path``. An ``async def`` callable or async generator function runs on the driver's own
    event loop instead, in ``_python_async``, and gets ``SUTRequest.async_http``, an ``httpx.AsyncClient``
    bound to that loop. A callable that may be called from several threads at once says so with
    ``thinkwire_concurrent = True``; a run then puts several cases in flight by default."""
    kind = "python"

    def __init__(self, profile: SUTProfile, fn: SUTCallable | None = None) -> None:
        self.profile = profile
        self.fn = fn
        self.http = self._client()
        self.upstream_url = ""
        self.front_door = profile.front_door
        self.loop: LoopThread | None = None  # async SUTs: the event loop the driver owns
        self.async_http: httpx.AsyncClient | None = None
        self.concurrent = False
        """The callable says it carries several conversations at once (``thinkwire_concurrent``)."""

    def _client(self) -> httpx.Client:
        import httpx  # here: a run whose SUT is no Python callable never pays for its import

        return httpx.Client(timeout=httpx.Timeout(self.profile.timeout, connect=5.0))

    def start(self, upstream_url: str) -> None:
        """Imports the callable now, outside any case's budget (a wrapped SDK can take seconds)."""
        self.upstream_url = upstream_url
        if self.fn is None:
            self.fn = load_callable(self.profile.callable or "", self.profile.sys_path)
        declared = getattr(self.fn, "thinkwire_front_door", None)
        if declared is not None:
            from harness.dialects import dialect_names

            if declared not in dialect_names():
                raise AdapterError(
                    f"SUT callable {self.profile.callable!r}: thinkwire_front_door = {declared!r} names no "
                    f"dialect (use 'openai-chat' for chat-like events, 'openai-responses' for Responses-like)"
                )
            self.front_door = str(declared)
        self.concurrent = getattr(self.fn, "thinkwire_concurrent", False) is True
        if is_async(self.fn):
            self.loop = LoopThread()
            import httpx

            self.async_http = httpx.AsyncClient(timeout=httpx.Timeout(self.profile.timeout, connect=5.0))

    def stop(self) -> None:
        self.http.close()
        if self.loop is not None:
            client, self.async_http = self.async_http, None
            if client is not None:
                with contextlib.suppress(Exception):
                    self.loop.submit(client.aclose()).result(2.0)
            self.loop.close()
            self.loop = None

    def stderr_tail(self) -> str:
        return ""

    def run(self, ctx: CaseContext) -> None:
        state: dict[str, Any] = {}  # one conversation: the adapter's across its turns
        context = contextvars.Context()  # an async SUT's turns all run in it, as in one user's task
        tmp = self._files(ctx)
        try:
            converse(ctx, lambda i, msgs, cancel: self._turn(ctx, i, msgs, cancel, state, context, tmp))
        finally:  # what the adapter kept open for its conversation (a WebSocket) ends with it
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)
            for value in state.values():
                close = getattr(value, "close", None)
                if callable(close):
                    with contextlib.suppress(Exception):
                        close()

    def _turn(
        self,
        ctx: CaseContext,
        turn: int,
        messages: list[Message],
        cancel: Gate | None,
        state: dict[str, Any] | None = None,
        context: contextvars.Context | None = None,
        tmp: str = "",
    ) -> TurnOutcome:
        assert self.fn is not None, "start() first"
        req = self._request(ctx, turn, messages, state, tmp)
        tl = ctx.timeline
        tl.add("client", "request", turn=turn, model=ctx.model)
        out = TurnOutcome()
        size = sum(_size(e.event) for e in tl.select("client", "event") if e.event is not None)
        worker: _Worker | AsyncWorker = (
            _Worker(self.fn, req) if self.loop is None else AsyncWorker(self.loop, self.fn, req, context)
        )
        watch = CancelWatch(cancel)
        try:
            while True:
                item = worker.next(ctx.left())
                if item is _TIMEOUT:
                    tl.add("client", "error", turn=turn, error="deadline: the callable was still running")
                    if self.loop is None:
                        self._abandon()
                    else:  # cancelled on the loop: CancelledError at its await point, then aclose()
                        worker.stop()
                    raise DriverTimeout(
                        f"the case did not finish within {ctx.timeout:g}s (turn {turn}: the SUT callable "
                        + ("was still running; abandoned on its thread)" if self.loop is None
                           else "was still awaiting; cancelled on the driver's loop)")
                    )
                if item is _DONE:
                    break
                if isinstance(item, BaseException):  # the SUT's own error: what its users would see
                    self._raised(tl, turn, item, out)
                    break
                problem = contract_violation(item)
                if problem is not None:
                    worker.stop()
                    raise AdapterError(f"turn {turn}, event #{len(out.events) + 1}: {problem}")
                item = cast(Event, item)
                size += _size(item)
                if size > ctx.max_bytes:
                    worker.stop()
                    raise CaseTooBig(ctx.max_bytes, repr(out.events[:3]).encode()[:256])
                tl.add("client", "event", event=item, turn=turn)
                ctx.client.observe(item)
                out.events.append(item)
                if cancel is not None and watch.see(item):
                    tl.add("client", "cancel", turn=turn)
                    out.cancelled = True
                    worker.stop()  # close() on the SUT's iterator: it must close its upstream response
                    break
                worker.go()
        finally:
            worker.stop()
        if not out.cancelled:
            tl.add("client", "end", turn=turn)
        return out

    def _files(self, ctx: CaseContext) -> str:
        """The case's directory with the profile's files written into it ("" when it has none)."""
        if not self.profile.files:
            return ""
        from harness.drivers._files import write_files
        from harness.drivers._process import free_port, temp_dir

        tmp = temp_dir("thinkwire-py-")
        case = ctx.case
        values = self.profile.run_values(
            upstream=ctx.upstream_url, port=str(free_port()), tmp=str(tmp), model=ctx.model,
            dialect=case.dialect, variant=case.variant or "", provider=ctx.provider,
            front_door=self.front_door,
        )
        write_files(self.profile.files, values, tmp)
        return str(tmp)

    def _request(
        self, ctx: CaseContext, turn: int, messages: list[Message], state: dict[str, Any] | None,
        tmp: str = "",
    ) -> SUTRequest:
        """What the callable gets for this turn, with the profile's request shaping."""
        case = ctx.case
        shape = shaping(
            self.profile.request, front_door=self.front_door, dialect=case.dialect,
            variant=case.variant, model=ctx.model,
            values=self.profile.run_values(upstream=ctx.upstream_url, provider=ctx.provider),
        )
        return SUTRequest(
            ctx.upstream_url,
            case.dialect,
            case.variant,
            ctx.model,
            messages,
            case.stream,
            self.http,
            frozenset(self.profile.faults),
            tools=tool_specs(case.turns),
            state={} if state is None else state,
            headers=shape.headers,
            body={**(getattr(case.turns[turn], "request", None) or {}), **shape.body},
            turn=turn,
            front_door=self.front_door,
            provider=ctx.provider,
            async_http=self.async_http,
            tmp=tmp,
            runner=ToolRunner(case.turns, tool_specs(case.turns), recorder(ctx.timeline, turn)),
        )

    def _raised(self, tl: Any, turn: int, exc: BaseException, out: TurnOutcome) -> None:
        httpx = sys.modules.get("httpx")  # an httpx timeout can only come from a loaded httpx
        if httpx is not None and isinstance(exc, httpx.TimeoutException):
            tl.add("client", "error", turn=turn, error=f"timeout: {exc!r}")
            raise DriverTimeout(f"the SUT callable timed out on turn {turn}: {exc!r}") from None
        said = raised(exc)
        tl.add(
            "client",
            "error",
            turn=turn,
            error=said.error,
            exception=said.type,
            traceback=short_traceback(exc),
            where=said.where,  # the package that raised ("": none named)
        )
        ev = StreamError(said.error, code=said.code, status=said.status)
        tl.add("client", "event", event=ev, turn=turn)
        out.events.append(ev)
        out.status = said.status or 200

    def _abandon(self) -> None:
        """A hung callable keeps its thread; its HTTP client is closed (off this thread: closing can
        wait on the hung request), which drops its upstream connections, and the next case gets a new
        one."""
        old, self.http = self.http, self._client()
        threading.Thread(target=old.close, name="thinkwire-abandon", daemon=True).start()


class AdapterError(DriverError):
    """A Python adapter yielded something that is not a valid canonical event: a harness-side ERROR
    naming the event and field (fix the adapter), never a SUT verdict."""


_DONE = DONE
_TIMEOUT = TIMEOUT


class _Worker:
    """Runs the SUT's iterator on its own thread, one event at a time in lock step with the caller
    (``go`` after each event): the SDK pulls its next chunk only after the previous event was
    observed, as in a user's ``for`` loop, so gates and cancels see exactly what a user would, and a
    hang is bounded by the caller's deadline instead of blocking the run."""

    def __init__(self, fn: SUTCallable, req: SUTRequest) -> None:
        self._fn, self._req = fn, req
        self._out: queue.Queue[object] = queue.Queue()
        self._go = threading.Event()
        self._stopped = False
        self._thread = threading.Thread(target=self._work, name="thinkwire-sut", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        iterator: Iterator[Event] | None = None
        try:
            iterator = iter(self._fn(self._req))
            for ev in iterator:
                self._out.put(ev)
                self._go.wait()
                self._go.clear()
                if self._stopped:
                    break
        except BaseException as exc:  # the SUT's own error, handed to the caller
            self._out.put(exc)
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    close()
            self._out.put(_DONE)

    def next(self, timeout: float) -> object:
        try:
            return self._out.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return _TIMEOUT

    def go(self) -> None:
        self._go.set()

    def stop(self) -> None:
        """Let the worker close the iterator, and wait (briefly) for the close to happen."""
        if self._stopped:
            return
        self._stopped = True
        self._go.set()
        self._thread.join(2.0)


def _size(ev: object) -> int:
    """The characters an event carries (what the byte cap counts for an in-process SUT)."""
    total = 0
    for f in fields(ev):  # type: ignore[arg-type]
        value = getattr(ev, f.name)
        if isinstance(value, str):
            total += len(value)
    return total
