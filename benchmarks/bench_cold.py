"""Figure (b): the cost of a cold command, the way a harness without MCP pays it on every call.

`credencegraph-extract tool get_state` on a finished 300-chunk run, in a new interpreter each time, against
`python -c "import credencegraph"` (target: at most 1.5x), and `credencegraph-extract --help` (target: at
most 150 ms). `python -c pass` is timed too, as the interpreter's own floor. The commands take turns,
repeat by repeat, after one warm-up run of each (so the figures are of a cold process, not a cold disk).

Run alone with `uv run python benchmarks/bench_cold.py [--quick] [--profile]`.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from functools import partial
from pathlib import Path

from synthetic import Workspace
from timing import Figure, at_most, ms, timed

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


def commands(run: Path) -> dict[str, list[str]]:
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import credencegraph": [sys.executable, "-c", "import credencegraph"],
        "tool get_state": [CLI, "tool", "get_state", "--run", str(run), "--args", "{}"],
        "--help": [CLI, "--help"],
    }


def run_quietly(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    done = subprocess.run(command, capture_output=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{command[1:3]} failed: {done.stderr.decode(errors='replace')[-500:]}")
    return done


def import_profile(command: list[str], top: int) -> str:
    """The heaviest imports of one cold run of `command` (Python's -X importtime), by cumulative time."""
    done = run_quietly(command, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    rows: list[tuple[int, int, str]] = []
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line.removeprefix("import time:").split("|", 2)
        if not cumulative.strip().isdigit():
            continue  # the header line
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((int(cumulative), depth, name.strip()))
    total = sum(row[0] for row in rows if row[1] == 0)
    lines = [f"imports of one cold `{' '.join(Path(part).name for part in command[:3])}`: {total / 1e3:.0f} ms in all"]
    for microseconds, depth, module in sorted((row for row in rows if row[1] <= 1), reverse=True)[:top]:
        lines.append(f"  {microseconds / 1e3:7.1f} ms  {'  ' * depth}{module}")
    return "\n".join(lines)


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    repeats = 5 if workspace.quick else 20
    listed = commands(workspace.finished_run)
    for command in listed.values():
        run_quietly(command)  # warm the page cache and the bytecode caches
    times: dict[str, list[float]] = {name: [] for name in listed}
    names = list(listed)
    for repeat in range(repeats):
        for name in names[repeat % len(names) :] + names[: repeat % len(names)]:
            times[name].append(timed(partial(run_quietly, listed[name])))
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, value in median.items():
        print(f"  {name:22} {ms(value)} (median of {repeats})")
    ratio = statistics.median(
        get / base for get, base in zip(times["tool get_state"], times["import credencegraph"], strict=True)
    )
    help_ratio = statistics.median(h / base for h, base in zip(times["--help"], times["python -c pass"], strict=True))
    if profile:
        print(import_profile(listed["tool get_state"], 14))
        print(import_profile(listed["import credencegraph"], 6))
    return [
        Figure(
            "b1",
            "cold `tool get_state` (finished 300-chunk run)",
            median["tool get_state"],
            median["import credencegraph"],
            "import credencegraph",
            f"{ratio:.2f}x",
            "<= 1.5x",
            at_most(ratio, 1.5),
        ),
        Figure(
            "b2",
            "cold `credencegraph-extract --help`",
            median["--help"],
            median["python -c pass"],
            "python -c pass",
            f"{ms(median['--help'])} ({help_ratio:.1f}x)",
            "<= 150 ms",
            at_most(median["--help"], 0.150),
        ),
    ]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
