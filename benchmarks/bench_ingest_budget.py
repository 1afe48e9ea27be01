"""Bounded ingestion, measured: what the hostile papers of issue 11 cost unbounded and what start_run does with
them now, and how soon a reading dies when the process that asked for it is killed.

    uv run python benchmarks/bench_ingest_budget.py [--cap SECONDS] [--kills N]

- before: the same ingestion step (`cgx_core.ingest.paper.ingest_paper`) in a plain process, as start_run ran it
  before it was bounded, stopped by the kernel after `--cap` CPU seconds (120 by default);
- after: `start_run` through the tool layer with the default budget (60 s of CPU time, 2 GiB of memory);
- orphans: `--kills` times (10 by default), a process starts a hostile reading and is SIGKILLed; the time from
  its death (waitpid returned) until the paper reader and its reading child are gone.

It runs on its own (it is not part of run.py: it takes about ten minutes of CPU, most of it the unbounded
runs). Hostile inputs: a 2 MB single-field .bib, macros that double at each of 22 levels, 15 MB of LaTeX
(under the 16 MiB cap).
"""

from __future__ import annotations

import argparse
import itertools
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

SENTENCE = "We measured twelve runs of three hundred seconds each, and the total is one hour of data. "

UNBOUNDED = """
import json, resource, sys, time
from pathlib import Path
from cgx_core.ingest.paper import IngestRequest, ingest_paper
cap = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_CPU, (cap, cap + 5))
request = IngestRequest(paper=sys.argv[1], root=None, rubric=Path(sys.argv[2]).read_bytes(), rubric_name="r.toml")
ingest_paper(request)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024}))
"""

ASKER = """
import sys
from pathlib import Path
from cgx_core.ingest.worker import worker_pid
from cgx_core.tooling.registry import call_tool
folder = Path(sys.argv[1])
def start(run, paper):
    return call_tool("start_run", {"run": str(folder / run), "paper": paper, "rubric": sys.argv[2], "model": "m"})
start("run-warm", sys.argv[3])
print(worker_pid(), flush=True)
start("run-hostile", sys.argv[4])
"""


def nested_macros(folder: Path, levels: int) -> Path:
    folder.mkdir(parents=True)
    names = [f"l{chr(97 + level)}" for level in range(levels + 1)]
    defs = f"\\newcommand{{\\{names[0]}}}{{ab}}\n" + "".join(
        f"\\newcommand{{\\{b}}}{{\\{a}\\{a}}}\n" for a, b in itertools.pairwise(names)
    )
    main = folder / "main.tex"
    main.write_text(f"\\documentclass{{article}}\n{defs}\\begin{{document}}\nIt is \\{names[-1]}.\n\\end{{document}}\n")
    return main


def huge_bib_field(folder: Path, size: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "refs.bib").write_text("@article{k, title={" + "word " * (size // 5) + "}}\n")
    main = folder / "main.tex"
    main.write_text(
        f"\\documentclass{{article}}\n\\begin{{document}}\n{SENTENCE} See \\cite{{k}}.\n\\bibliography{{refs}}\n"
        "\\end{document}\n"
    )
    return main


def large_paper(folder: Path, size: int) -> Path:
    folder.mkdir(parents=True)
    main = folder / "main.tex"
    body = SENTENCE * (size // len(SENTENCE))
    main.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
    return main


def unbounded(main: Path, rubric: Path, cap: int) -> str:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", UNBOUNDED, str(main), str(rubric), str(cap)], capture_output=True, text=True, check=False
    )
    wall = time.monotonic() - started
    if done.returncode == 0:
        figures = json.loads(done.stdout)
        return f"finished: {figures['cpu']:.1f} s CPU, {wall:.1f} s wall, peak {figures['peak_mib']:.0f} MiB"
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"still running after {cap} s of CPU ({wall:.1f} s wall): stopped"
    return f"failed with status {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"


def bounded(main: Path, rubric: Path, run: Path) -> str:
    from cgx_core.tooling.registry import call_tool

    started = time.monotonic()
    arguments = {"run": str(run), "paper": str(main), "rubric": str(rubric), "model": "m"}
    payload, is_error = call_tool("start_run", arguments)
    wall = time.monotonic() - started
    outcome = payload["error"]["code"] if is_error else "started"
    return f"{outcome} after {wall:.1f} s wall (the budget counts CPU time: 60 s)"


def children_of(pid: int) -> list[int]:
    try:
        return [int(part) for part in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def orphan_deaths(folder: Path, rubric: Path, kills: int) -> list[float]:
    fine = nested_macros(folder / "fine", 2)
    hostile = nested_macros(folder / "hostile", 26)
    times = []
    for trial in range(kills):
        work = folder / f"trial-{trial}"
        work.mkdir()
        asker = subprocess.Popen(
            [sys.executable, "-c", ASKER, str(work), str(rubric), str(fine), str(hostile)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert asker.stdout is not None
        reader_worker = int(asker.stdout.readline())
        while not children_of(reader_worker):
            time.sleep(0.001)
        [reader] = children_of(reader_worker)
        time.sleep(0.2)  # the reading is under way
        asker.send_signal(signal.SIGKILL)
        asker.wait()
        dead = time.monotonic()
        while alive(reader_worker) or alive(reader):
            time.sleep(0.0005)
        times.append(time.monotonic() - dead)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cap", type=int, default=120, help="CPU seconds an unbounded reading may run (default 120)")
    parser.add_argument("--kills", type=int, default=10)
    options = parser.parse_args()
    from cgx_core.testing import RUBRIC

    with tempfile.TemporaryDirectory(prefix="cgx-budget-") as name:
        folder = Path(name)
        rubric = folder / "rubric.toml"
        rubric.write_text(RUBRIC)
        cases = {
            "2 MB single-field .bib": huge_bib_field(folder / "bib", 2_000_000),
            "macros doubling over 22 levels": nested_macros(folder / "macros", 22),
            "15 MB of LaTeX": large_paper(folder / "large", 15 * 1024**2),
        }
        for label, main in cases.items():
            print(f"{label}:")
            print(f"  before (unbounded): {unbounded(main, rubric, options.cap)}")
            print(f"  after (start_run):  {bounded(main, rubric, folder / ('run-' + main.parent.name))}")
        times = orphan_deaths(folder, rubric, options.kills)
        print(
            f"a reading outlives the process that asked for it by: median {statistics.median(times) * 1e3:.1f} ms, "
            f"max {max(times) * 1e3:.1f} ms over {len(times)} kills"
        )


if __name__ == "__main__":
    main()
