"""Benchmark: how soon a run's lock is free after the process holding it is killed.

Run with `uv run python benchmarks/bench_lock_release.py [--repeats N]`.

Each repeat starts a process that takes a run's lock exactly as a tool call does (`RunLock` on the run's
`.lock`), waits until it holds it, SIGKILLs it, and then measures, from this other process:

- kill -> free: from sending SIGKILL to the first successful non-blocking `flock` (tried in a tight loop);
- death -> free: from `waitpid` returning (the holder is dead) to a successful non-blocking `flock`,
  tried once: the kernel drops a dead process's locks as it closes its files, before `waitpid` returns,
  so this is the cost of one `flock` call.

The promise is that the lock is free within 10 ms of its holder's death (`waitpid` returned); the script
prints the median, the 99th percentile and the maximum of each, in milliseconds, and exits 1 if the
maximum of death -> free passes 10 ms. Kill -> free adds the kernel's teardown of the dying process
(unmapping its memory), which depends on the machine's load, not on this package; it is printed for
context. The tests only check that the lock IS free once its holder died (tests/fault/test_concurrency.py).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOLD = """
import sys, time
from pathlib import Path
from cgx_core.run.lock import RunLock
with RunLock(Path(sys.argv[1]), wait_seconds=5):
    print("held", flush=True)
    time.sleep(60)
"""
BOUND_MS = 10.0


def try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    fcntl.flock(fd, fcntl.LOCK_UN)
    return True


def one(lock: Path, after_death: bool) -> float:
    """Seconds until the lock is free: after the kill (tight polling), or after waitpid (one try)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    fd = os.open(lock, os.O_RDWR)
    try:
        if try_lock(fd):
            raise RuntimeError("the lock is free while its holder runs")
        if after_death:
            holder.send_signal(signal.SIGKILL)
            holder.wait()
            start = time.perf_counter()
            if not try_lock(fd):
                raise RuntimeError("the lock is still held after its holder died")
            return time.perf_counter() - start
        start = time.perf_counter()
        holder.send_signal(signal.SIGKILL)
        while not try_lock(fd):
            pass
        elapsed = time.perf_counter() - start
        holder.wait()
        return elapsed
    finally:
        os.close(fd)
        holder.stdout.close()


def summary(name: str, seconds: list[float]) -> float:
    ms = sorted(value * 1000 for value in seconds)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    print(f"{name:16} median {statistics.median(ms):7.3f} ms   p99 {p99:7.3f} ms   max {ms[-1]:7.3f} ms")
    return ms[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=100, help="kills of each kind (default 100)")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        lock = Path(folder) / ".lock"
        lock.touch()
        after_kill = [one(lock, after_death=False) for _ in range(options.repeats)]
        after_death = [one(lock, after_death=True) for _ in range(options.repeats)]
    print(f"repeats: {options.repeats} of each")
    summary("kill -> free", after_kill)
    worst = summary("death -> free", after_death)
    print(f"death -> free within {BOUND_MS} ms: {'met' if worst <= BOUND_MS else 'NOT MET'}")
    return 0 if worst <= BOUND_MS else 1


if __name__ == "__main__":
    sys.exit(main())
