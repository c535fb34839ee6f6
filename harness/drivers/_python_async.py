"""Async Python SUTs: an ``async def`` callable returning an async iterator, or an async generator function,
run on an event loop the driver owns, in lock step with the observer. The loop lives on one thread of the
driver for the whole run, because frameworks keep clients bound to it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import inspect
import queue
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

__all__ = ["DONE", "GRACE", "TIMEOUT", "AsyncWorker", "LoopThread", "is_async"]

GRACE = 2.0
"""Seconds a cancelled or closed async SUT gets to unwind before it is abandoned."""

DONE = object()
"""A worker's ``next``: the SUT's iterator ended."""
TIMEOUT = object()
"""A worker's ``next``: no event before the timeout (the step is still pending)."""


def is_async(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` is driven on the loop: a coroutine function or an async generator function (also
    as a callable object's ``__call__``)."""
    call = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(fn, "__call__", fn)  # noqa: B004
    return inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)


class LoopThread:
    """An event loop running on its own daemon thread until :meth:`close`."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="thinkwire-sut-loop", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def close(self) -> None:
        """Cancel what is still running on the loop (bounded), stop it and join its thread."""
        if self.loop.is_closed():
            return

        async def _cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), GRACE)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.loop.shutdown_asyncgens(), GRACE)

        with contextlib.suppress(BaseException):
            self.submit(_cancel_all()).result(2 * GRACE + 1)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(GRACE)
        if not self._thread.is_alive():
            self.loop.close()


class AsyncWorker:
    """One turn of an async SUT: the same interface as the sync worker (``next``, ``go``, ``stop``).

    One task runs the SUT's iterator from its call to its close, in ``context`` (the case's): it hands
    each event over through a queue and awaits ``go`` before asking for the next one.

    Each turn's iterator is driven by one task, in one :class:`contextvars.Context` per case, from its call
    to its close, as a user's ``async for`` would: a contextvar set before a ``yield``, such as a tracing
    span, is there after it. The deadline cancels the task with CancelledError at the SUT's await point; a
    client cancel makes it ``aclose()`` the iterator, raising GeneratorExit inside it. Either way the SUT
    must close its upstream response, which the cleanup checks observe. A SUT that ignores cancellation is
    abandoned on the loop after :data:`GRACE` seconds and the run goes on.
    """

    def __init__(
        self,
        loop: LoopThread,
        fn: Callable[[Any], Any],
        req: Any,
        context: contextvars.Context | None = None,
    ) -> None:
        self._loop = loop
        self._fn, self._req = fn, req
        self._out: queue.Queue[object] = queue.Queue()
        self._go: asyncio.Event | None = None  # made on the loop by the task
        self._at_gate = False  # the task awaits the observer, not the SUT
        self._stopped = False
        self._ended = False
        started = concurrent.futures.Future[asyncio.Task[None]]()
        own = contextvars.Context() if context is None else context  # an empty Context is falsy

        def _start() -> None:
            started.set_result(loop.loop.create_task(self._drive(), context=own))

        loop.loop.call_soon_threadsafe(_start)
        self._task: asyncio.Task[None] = started.result(2 * GRACE + 1)

    async def _drive(self) -> None:
        self._go = asyncio.Event()
        it: AsyncIterator[Any] | None = None
        try:
            result = self._fn(self._req)
            if inspect.isawaitable(result):
                result = await result
            if not hasattr(result, "__aiter__"):
                raise TypeError(
                    f"an async SUT callable must return an async iterator, got {type(result).__name__}"
                )
            it = result.__aiter__()
            while not self._stopped:
                try:
                    item = await it.__anext__()
                except StopAsyncIteration:
                    it = None  # ended by itself: nothing to close
                    break
                except BaseException:
                    it = None  # an async generator that raised is finished
                    raise
                self._out.put(item)
                self._at_gate = True
                await self._go.wait()
                self._at_gate = False
                self._go.clear()
        except BaseException as exc:  # the SUT's own error (CancelledError included), for the caller
            self._out.put(exc)
        finally:
            aclose = getattr(it, "aclose", None)
            if aclose is not None:  # in this task and context: GeneratorExit at the SUT's yield
                with contextlib.suppress(BaseException):
                    async with asyncio.timeout(GRACE):
                        await aclose()
            self._out.put(DONE)

    def next(self, timeout: float) -> object:
        """The next event, ``DONE``, the SUT's exception, or ``TIMEOUT`` (the step is still pending)."""
        if self._ended:
            return DONE
        try:
            item = self._out.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return TIMEOUT
        if item is DONE or isinstance(item, BaseException):
            self._ended = True
        return item

    def go(self) -> None:
        if not self._stopped:
            self._loop.loop.call_soon_threadsafe(self._release)

    def _release(self) -> None:
        if self._go is not None:
            self._go.set()

    def stop(self) -> None:
        """Cancel a pending step (deadline) or close the iterator (client cancel, end): bounded."""
        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(BaseException):
            self._loop.submit(self._unwind()).result(2 * GRACE + 1)

    async def _unwind(self) -> None:
        task = self._task
        if task.done():
            return
        if self._at_gate:  # the task leaves its loop and closes the iterator itself
            self._release()
        else:
            task.cancel()  # CancelledError at the SUT's await point
        await asyncio.wait([task], timeout=2 * GRACE)
