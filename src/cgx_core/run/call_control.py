"""Cancelling a long call, and reporting its progress, from whatever runs it.

A call of run_checks with slow maths steps, or a judge_citation that fetches, can take longer than a
harness waits; the harness needs to hear that the call is alive, and must be able to take it back. The
front end that runs a call (the MCP server, a batch) gives it a `Control`; the code that does long work
calls `checkpoint()` between its steps and `progress()` as it goes. Neither does anything when no
`Control` is in place, so the tools, replay and verify run unchanged.

Cancelling is cooperative: `cancel()` makes the next `checkpoint()` raise `Cancelled`. The last checkpoint
of a changing call is in the run's transaction just before anything is written (`Run.change`), so a
cancelled call has written no artifact and no log line, and its lock is released as the exception leaves
the transaction. A cancel that comes after that point is too late: the call commits, as if it had come
after the answer. `Cancelled` is a BaseException, so a plugin's `except Exception` cannot swallow it
into an error check.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Report = Callable[[int, int | None, str], None]
"""`report(done, total, message)`: `done` steps of `total` (None when unknown) are finished."""


class Cancelled(BaseException):
    """The caller cancelled the call before it committed: nothing was written."""


class Control:
    """One call's cancellation flag and progress report, shared by the thread that runs the call and the
    one that cancels it."""

    def __init__(self, report: Report | None = None) -> None:
        self._cancelled = threading.Event()
        self._report = report
        self._lock = threading.Lock()
        self._stops: list[Callable[[], None]] = []

    def cancel(self) -> None:
        """Cancel the call: its next checkpoint raises `Cancelled`, and the work registered with
        `stopping` is told to stop now."""
        with self._lock:
            self._cancelled.set()
            stops = list(self._stops)
        for stop in stops:
            stop()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def check(self) -> None:
        """Raise `Cancelled` when the call was cancelled."""
        if self._cancelled.is_set():
            raise Cancelled

    def report(self, done: int, total: int | None, message: str) -> None:
        if self._report is not None:
            self._report(done, total, message)


_current: ContextVar[Control | None] = ContextVar("cgx_call_control", default=None)


@contextmanager
def controlled(control: Control | None) -> Iterator[None]:
    """Run the code inside under `control` (None: no control, as outside)."""
    token = _current.set(control)
    try:
        yield
    finally:
        _current.reset(token)


@contextmanager
def stopping(stop: Callable[[], None]) -> Iterator[None]:
    """While inside, a cancel of the running call also calls `stop` (from the cancelling thread).

    For work that blocks between checkpoints, such as a wait on a worker process: `stop` ends it (kills
    the worker), the wait returns, and the next checkpoint raises `Cancelled`. `stop` must be safe to
    call from another thread and harmless when the work has ended."""
    control = _current.get()
    if control is None:
        yield
        return
    with control._lock:
        if control.cancelled:
            stop()
        control._stops.append(stop)
    try:
        yield
    finally:
        with control._lock:
            control._stops.remove(stop)


def checkpoint() -> None:
    """A safe place to stop: raise `Cancelled` when the running call was cancelled."""
    control = _current.get()
    if control is not None:
        control.check()


def progress(done: int, total: int | None, message: str) -> None:
    """Say how far the running call has got (and check, as every step is a safe place to stop)."""
    control = _current.get()
    if control is not None:
        control.check()
        control.report(done, total, message)
