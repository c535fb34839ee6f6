"""Async Python SUTs: an ``async def`` callable returning an async iterator (or an async generator
function) runs on an event loop the driver owns, in lock step with the observer.

Rule: the loop lives on one thread of the driver for the whole run (frameworks keep clients bound to
it); each step is one ``__anext__`` scheduled on it only after the previous event was observed, as in
a user's ``async for``. The deadline cancels the pending step (CancelledError at the SUT's await
point), a client cancel ``aclose()``s the iterator (GeneratorExit inside it): either way the SUT must
close its upstream response, which the cleanup checks observe. Nothing waits unbounded: a SUT that
ignores cancellation is abandoned on the loop after :data:`GRACE` seconds and the run goes on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
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
    """One turn of an async SUT: the same interface as the sync worker (``next``, ``go``, ``stop``)."""

    def __init__(self, loop: LoopThread, fn: Callable[[Any], Any], req: Any) -> None:
        self._loop = loop
        self._fn, self._req = fn, req
        self._it: AsyncIterator[Any] | None = None
        self._task: asyncio.Task[Any] | None = None  # the step running on the loop
        self._pending: concurrent.futures.Future[Any] | None = loop.submit(self._first())
        self._stopped = False

    async def _first(self) -> Any:
        self._task = asyncio.current_task()
        result = self._fn(self._req)
        if inspect.isawaitable(result):
            result = await result
        if not hasattr(result, "__aiter__"):
            raise TypeError(
                f"an async SUT callable must return an async iterator, got {type(result).__name__}"
            )
        self._it = result.__aiter__()
        return await self._step()

    async def _step(self) -> Any:
        assert self._it is not None
        self._task = asyncio.current_task()
        try:
            return await self._it.__anext__()
        except StopAsyncIteration:
            return DONE

    def next(self, timeout: float) -> object:
        """The next event, ``DONE``, the SUT's exception, or ``TIMEOUT`` (the step is still pending)."""
        fut = self._pending
        if fut is None:
            return DONE
        try:
            item = fut.result(timeout=max(timeout, 0.0))
        except concurrent.futures.TimeoutError:
            return TIMEOUT
        except BaseException as exc:  # the SUT's own error (CancelledError included), for the caller
            self._pending = None
            return exc
        if item is DONE:
            self._pending = None
        return item

    def go(self) -> None:
        if not self._stopped and self._it is not None:
            self._pending = self._loop.submit(self._step())

    def stop(self) -> None:
        """Cancel a pending step (deadline) or close the iterator (client cancel, end): bounded."""
        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(BaseException):
            self._loop.submit(self._unwind()).result(2 * GRACE + 1)

    async def _unwind(self) -> None:
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()  # CancelledError at the SUT's await point
            await asyncio.wait([task], timeout=GRACE)
        aclose = getattr(self._it, "aclose", None)
        if aclose is not None and (task is None or task.done()):
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(aclose(), GRACE)
