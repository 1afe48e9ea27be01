"""What every benchmark shares: paired timing against a baseline, the figure a benchmark reports, an
instrumenter that splits a call into phases, and a short profile summary.

Every figure is a ratio against a baseline measured in the same run, the two sides alternating, so a
machine that gets busier or quieter while the benchmark runs (the cores are shared) slows both alike.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One line of the final table: what was measured, against what, and whether it meets its target.

    `value` is the quantity the target is about (a ratio, or milliseconds, or seconds), shown as `shown`;
    `subject` and `baseline` are the medians (seconds) it comes from. `passed` is None for a figure that
    is reported without a target.
    """

    key: str
    name: str
    subject: float
    baseline: float
    against: str
    shown: str
    target: str
    passed: bool | None
    note: str = ""


@dataclass
class Paired:
    """The times of a subject and of its baseline, measured alternately, repeat by repeat."""

    subject: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)

    @property
    def subject_median(self) -> float:
        return statistics.median(self.subject)

    @property
    def baseline_median(self) -> float:
        return statistics.median(self.baseline)

    @property
    def ratio(self) -> float:
        """The median of the per-repeat ratios: each pair ran under the same load."""
        return statistics.median(s / b for s, b in zip(self.subject, self.baseline, strict=True))

    @property
    def added(self) -> float:
        """What the subject adds to the baseline, at the median (seconds)."""
        return self.subject_median - self.baseline_median


def timed(function: Callable[[], object]) -> float:
    """The wall-clock time of one call, in seconds."""
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def tree_cpu() -> float:
    """The CPU time (user and system, seconds) of this process, of its child processes that ended and were
    waited for, and of those still alive (a maths worker kept for the next task): what a call cost the machine
    whatever process it ran in, and much steadier than a wall time on shared cores."""
    import psutil

    own = time.process_time()
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    alive = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        alive += times.user + times.system
    return own + ended.ru_utime + ended.ru_stime + alive


def tree_cpu_of(function: Callable[[], object]) -> float:
    """The CPU time of one call, of this process and every process it started (`tree_cpu`), in seconds."""
    start = tree_cpu()
    function()
    return tree_cpu() - start


def paired(
    subject: Callable[[int], object],
    baseline: Callable[[int], object],
    repeats: int,
    measure: Callable[[Callable[[], object]], float] = timed,
) -> Paired:
    """Time `subject(i)` and `baseline(i)` for i in range(repeats), alternating which goes first; `measure` is
    the clock (`timed`, wall time, or `tree_cpu_of`)."""
    result = Paired()
    for index in range(repeats):
        pair = [(result.subject, partial(subject, index)), (result.baseline, partial(baseline, index))]
        for times, function in pair if index % 2 else reversed(pair):
            times.append(measure(function))
    return result


def parallel_capacity(repeats: int = 3) -> float:
    """How much faster two CPU-bound processes finish side by side than one after the other, right now:
    2.0 on two idle cores, less when other work shares them. It says what a parallel speed-up could be."""
    command = [sys.executable, "-c", "for _ in range(8_000_000): pass"]

    def sequential() -> None:
        for _ in range(2):
            subprocess.run(command, check=True)

    def together() -> None:
        for process in [subprocess.Popen(command) for _ in range(2)]:
            process.wait()

    times = paired(lambda _: sequential(), lambda _: together(), repeats)
    return times.ratio


def load() -> str:
    """The load averages, to read the figures by: the cores are shared."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def at_most(value: float, limit: float) -> bool:
    return value <= limit


def at_least(value: float, limit: float) -> bool:
    return value >= limit


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 0.1 else f"{seconds * 1e3:.0f} ms"


def human(seconds: float) -> str:
    return ms(seconds) if seconds < 10 else f"{seconds:.1f} s"


class Phases:
    """Splits calls into named phases by wrapping functions with a timer, for as long as it is entered.

    Times are exclusive: a wrapped function called inside another (an fsync inside the log append) is
    counted in its own phase and taken out of its caller's, so the phases add up to at most the whole.
    A function that is not where it is named (the code under measurement was reorganised) is reported
    as not found and its time falls into "other".
    """

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.missing: list[str] = []
        self._wanted: list[tuple[str, object, str]] = []
        self._patched: list[tuple[object, str, Any]] = []
        self._stack: list[list[float]] = []

    def reset(self) -> None:
        """Forget what was measured so far."""
        self.totals = dict.fromkeys(self.totals, 0.0)
        self.counts = dict.fromkeys(self.counts, 0)

    def add(self, label: str, owner: object, attribute: str) -> None:
        self._wanted.append((label, owner, attribute))
        self.totals.setdefault(label, 0.0)
        self.counts.setdefault(label, 0)

    def _wrap(self, label: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self._stack.append([0.0])
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                children = self._stack.pop()[0]
                self.totals[label] += elapsed - children
                self.counts[label] += 1
                if self._stack:
                    self._stack[-1][0] += elapsed

        return wrapper

    def __enter__(self) -> Phases:
        self.missing = []
        for label, owner, attribute in self._wanted:
            original = owner.__dict__.get(attribute) if isinstance(owner, type) else getattr(owner, attribute, None)
            if original is None or not callable(original):
                self.missing.append(f"{label} ({getattr(owner, '__name__', owner)}.{attribute})")
                continue
            self._patched.append((owner, attribute, original))
            setattr(owner, attribute, self._wrap(label, original))
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, attribute, original in reversed(self._patched):
            setattr(owner, attribute, original)
        self._patched.clear()


def profile_summary(function: Callable[[], object], *, top: int = 12, title: str = "") -> str:
    """A cProfile of one call: the functions with the most time of their own, and the heaviest of ours
    by cumulative time (cProfile slows the code down; read the shares, not the absolute times)."""
    profile = cProfile.Profile()
    profile.runcall(function)
    stream = io.StringIO()
    stats = pstats.Stats(profile, stream=stream)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)
    own = _trim(stream.getvalue())
    stream = io.StringIO()
    stats = pstats.Stats(profile, stream=stream)
    stats.sort_stats("cumulative").print_stats(r"cgx_|credencegraph", top)
    ours = _trim(stream.getvalue()).replace(os.getcwd() + os.sep, "")
    return f"--- profile{': ' + title if title else ''} (by own time) ---\n{own}\n--- by cumulative time ---\n{ours}"


def _trim(text: str) -> str:
    """pstats' table without its preamble, with site-packages paths shortened."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("ncalls")), 0)
    kept = [line for line in lines[start:] if line.strip()]
    return "\n".join(_short(line) for line in kept)


def _short(line: str) -> str:
    marker = "site-packages/"
    return line.replace(line[line.find("/") : line.find(marker) + len(marker)], "") if marker in line else line


@contextmanager
def section(title: str) -> Iterator[None]:
    """Print a heading, then how long the section took."""
    print(f"\n=== {title} ===", flush=True)
    start = time.perf_counter()
    yield
    print(f"[{title}: {time.perf_counter() - start:.1f} s]", flush=True)
