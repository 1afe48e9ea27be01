"""A function called in a thread of its own, whose result (or exception) is collected later: replay reads
the paper again in the budgeted child (a wait on a pipe, which holds no lock the calls need) while it applies
the logged calls in this thread.

The thread is a daemon: a process that ends (an interrupt, a refusal raised before the result is collected)
is not held up by a reading it no longer needs, and the reading child ends with its worker, which sees the
process's end on its stdin (cgx_core.base.budget_worker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Background[T]:
    """`work()` started now in a daemon thread; `result()` waits for it and returns or raises what it did."""

    def __init__(self, work: Callable[[], T], name: str) -> None:
        self._work = work
        self._value: tuple[T] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = (self._work(),)
        except BaseException as error:  # handed to the thread that collects the result, raised there
            self._error = error

    def result(self) -> T:
        """What `work()` returned; its exception, raised again here, if it raised one."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._value is not None  # the thread returned, so work() either raised or returned
        return self._value[0]
