"""Figure (d): verify of many runs, the way a reviewer checks a batch: the command line,
`credencegraph-extract verify RUN... --jobs N --json`, on 1000 finished runs of 20 recompute-numbers checks
each (one run built through the tools and copied: verify does not care that they share a run id).

- d1: 2 jobs against 1 job on the same runs, alternating. Target: at least 1.8x faster.
- d2: the time of 2 jobs on 1000 runs. Target: at most 5 s on 2 cores (with --quick, 100 runs, and the
  figure is scaled to 1000).

Two CPU-bound processes are also timed side by side against one after the other: on shared cores that
says what speed-up the machine could give at the time, and the table notes it beside d1.

The time one run takes in process (`verify_run`) is printed too, and with --profile where it goes.
Run alone with `uv run python benchmarks/bench_verify.py [--quick] [--profile]`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from functools import partial
from pathlib import Path

from synthetic import Workspace
from timing import Figure, at_least, at_most, human, load, ms, paired, parallel_capacity, profile_summary, timed

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


def verify(runs: list[Path], jobs: int) -> dict[str, object]:
    """One verify command; its JSON summary, which must say every check was re-run and nothing differs."""
    command = [CLI, "verify", *(str(run) for run in runs), "--jobs", str(jobs), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"verify failed ({done.returncode}): {done.stderr[-500:]}{done.stdout[-500:]}")
    summary: dict[str, object] = json.loads(done.stdout)
    if summary["runs"] != len(runs) or summary["rerun"] != 20 * len(runs) or summary["differences"] != 0:
        raise RuntimeError(f"verify did not re-run every check cleanly: {summary}")
    return summary


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    from cgx_core.audit.verify import verify_run

    count = 60 if workspace.quick else 1000
    repeats = 1 if workspace.quick else 3
    runs = workspace.verify_copies(count)
    size = sum(path.stat().st_size for path in runs[0].rglob("*") if path.is_file())
    print(f"{count} copies of a finished run of 20 checks ({size // 1000} kB each); {os.cpu_count()} cores")
    verify(runs, 2)  # warm the page cache
    checks = 1 if workspace.quick else 3
    capacity = parallel_capacity(checks)
    times = paired(lambda _: verify(runs, 2), lambda _: verify(runs, 1), repeats)
    capacity = statistics.median([capacity, parallel_capacity(checks)])
    print(f"two CPU-bound processes side by side finish {capacity:.2f}x faster than one after the other ({load()})")
    speedup = statistics.median(one / two for one, two in zip(times.baseline, times.subject, strict=True))
    scaled = times.subject_median * 1000 / count
    print(
        f"verify of {count} runs: 1 job {human(times.baseline_median)}, 2 jobs {human(times.subject_median)} "
        f"(medians of {repeats}): 2 jobs {speedup:.2f}x faster; 1000 runs with 2 jobs: {human(scaled)}"
    )
    verify_run(runs[0])  # imports, plugin discovery, the grammar
    one = statistics.median(timed(partial(verify_run, run)) for run in runs[:50])
    print(
        f"one run in process: {ms(one)} (median of 50); so 1000 runs need {human(one * 1000)} of work, "
        f"{human(one * 500)} per core on 2 cores, and the command adds "
        f"{human(times.baseline_median - one * count)} with 1 job"
    )
    if profile:
        print(profile_summary(lambda: [verify_run(run) for run in runs[:20]], title="verify_run of 20 runs"))
    return [
        Figure(
            "d1",
            f"verify of {count} runs, 2 jobs: speed-up",
            times.subject_median,
            times.baseline_median,
            "1 job",
            f"{speedup:.2f}x faster",
            ">= 1.8x",
            at_least(speedup, 1.8),
            f"2 busy loops got {capacity:.2f}x meanwhile",
        ),
        Figure(
            "d2",
            "verify of 1000 runs of 20 checks, 2 jobs",
            scaled,
            times.baseline_median * 1000 / count,
            "1 job",
            human(scaled) + ("" if count == 1000 else f" (scaled from {count})"),
            "<= 5 s",
            at_most(scaled, 5.0),
        ),
    ]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
