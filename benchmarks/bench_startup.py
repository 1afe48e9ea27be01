"""Figure (g): what a shell-driven harness pays per call, and the fast paths (MCP, `batch`) against it.

g1  `credencegraph-extract tool classify` of one record on the 300-chunk run (every command line call starts
    its own interpreter), against `python -c "import credencegraph"`: reported, in wall and processor time.
    Bytecode compiled (as `uv sync --compile-bytecode` leaves it).
g1n the same without compiled bytecode (`PYTHONPYCACHEPREFIX` an empty folder and `PYTHONDONTWRITEBYTECODE`
    set, so every module, the standard library's too, is compiled on every run, as in an environment that
    forbids writing bytecode): reported, with what it costs.
g2  `tool run_checks` of one rederive-maths step (a true one: the symbolic path decides it), on a fresh copy of
    a classified run of the example paper each time, against `python -c "import credencegraph, sympy"`
    (target: at most 1.5x, wall and processor time, the maths worker's counted).
g3  an MCP call: classify of one record sent over stdio to a running `credencegraph-extract mcp` (the mcp
    SDK's client), against the same call made in process with `call_tool`, the tool's own work (target: at
    most 2x). Each side calls on a run of its own, as a session does.
g4  `batch`: 20 classify calls from one JSON-lines file in one process, per call, against one `tool
    classify`: reported (how much a harness without MCP saves).
g6  a session's fixed cost over MCP: the CPU time of `credencegraph-extract mcp` (the process and any child)
    from its start until it has answered initialize and tools/list, before any tool call, against
    `python -c "import mcp.server.lowlevel, credencegraph"` (target: at most 1.5x). Bytecode compiled.

There is no warm process (docs/architecture.md, "No warm process"): MCP and `batch` are the fast paths.
Commands take turns, repeat by repeat, after a warm-up run of each. Run alone with
`uv run python benchmarks/bench_startup.py [--quick] [--profile]`.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bench_cold import import_profile, run_quietly
from synthetic import MODEL, ROOT, Workspace, tool
from timing import Figure, at_most, ms, paired, timed

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
EXAMPLE = ROOT / "examples" / "end-to-end"
STEP = {"symbols": {"x": ["real"]}, "lhs": "(1 + x)^2", "rhs": "1 + 2*x + x^2"}


def classify_command(run: Path, record: dict[str, Any]) -> list[str]:
    arguments = json.dumps({"records": [record], "model": MODEL})
    return [CLI, "tool", "classify", "--run", str(run), "--args", arguments]


def cpu_seconds(command: list[str], env: dict[str, str] | None = None) -> float:
    """The processor time (user and system) a command and its children used: on a shared machine it moves
    far less with the load than the wall time does."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_quietly(command, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def without_bytecode(folder: Path) -> dict[str, str]:
    """An environment in which Python finds no compiled bytecode and writes none."""
    empty = folder / "no-pycache"
    empty.mkdir(exist_ok=True)
    return {**os.environ, "PYTHONPYCACHEPREFIX": str(empty), "PYTHONDONTWRITEBYTECODE": "1"}


def classify_calls(workspace: Workspace, repeats: int, *, profile: bool) -> list[Figure]:
    paper = workspace.paper
    run, ids = workspace.classified_run()
    methods = paper.methods
    baseline = [sys.executable, "-c", "import credencegraph"]

    def classify(index: int, env: dict[str, str] | None = None) -> None:
        record = paper.record(ids, methods[index % len(methods)])
        run_quietly(classify_command(run, record), env=env)

    def importing(_: int, env: dict[str, str] | None = None) -> None:
        run_quietly(baseline, env=env)

    classify(0)
    importing(0)
    started = paired(classify, importing, repeats)
    bare = without_bytecode(workspace.root)
    uncompiled = paired(partial(classify, env=bare), partial(importing, env=bare), max(3, repeats // 3))
    cost = statistics.median(uncompiled.subject) / started.subject_median
    record = paper.record(ids, methods[0])
    cpu = statistics.median(
        cpu_seconds(classify_command(run, record)) / cpu_seconds(baseline) for _ in range(max(3, repeats // 2))
    )
    print(
        f"classify {ms(started.subject_median)} against import credencegraph {ms(started.baseline_median)}: "
        f"{started.ratio:.2f}x (processor time {cpu:.2f}x); without bytecode {ms(uncompiled.subject_median)} "
        f"against {ms(uncompiled.baseline_median)}: {uncompiled.ratio:.2f}x, {cost:.1f} times the compiled one"
    )
    if profile:
        print(import_profile(classify_command(run, paper.record(ids, methods[0])), 16))
    return [
        Figure(
            "g1",
            "`tool classify` (one record, 300 chunks)",
            started.subject_median,
            started.baseline_median,
            "import credencegraph",
            f"{started.ratio:.2f}x",
            "report",
            None,
            f"processor time {cpu:.2f}x",
        ),
        Figure(
            "g1n",
            "the same without compiled bytecode",
            uncompiled.subject_median,
            uncompiled.baseline_median,
            "import credencegraph, no bytecode",
            f"{uncompiled.ratio:.2f}x ({cost:.1f}x compiled)",
            "report",
            None,
        ),
    ]


def classified_example(folder: Path) -> Path:
    """A run of the example paper with every chunk classified (s-07 to s-10 are derivations)."""
    run = folder / "example-template"
    if not run.exists():
        rubric = EXAMPLE / "rubric.toml"
        tool(
            "start_run",
            {"run": str(run), "paper": str(EXAMPLE / "paper" / "paper.tex"), "rubric": str(rubric), "model": MODEL},
        )
        records = [{"node": node, "type": "derivation"} for node in ("s-07", "s-08", "s-09", "s-10")]
        tool("classify", {"run": str(run), "records": records, "model": MODEL})
    return run


def maths_step(workspace: Workspace, repeats: int) -> list[Figure]:
    template = classified_example(workspace.root)
    baseline = [sys.executable, "-c", "import credencegraph, sympy"]
    proposal = {"type": "rederive-maths", "target": "s-08", **STEP}
    arguments = json.dumps({"proposals": [proposal], "model": MODEL})
    copies = (workspace.root / f"maths-{number:04d}" for number in range(10**6))

    def step() -> float:
        run = next(copies)
        shutil.copytree(template, run)  # outside the timed command: a check is never run twice on one node
        command = [CLI, "tool", "run_checks", "--run", str(run), "--args", arguments]
        began = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = timed(partial(run_quietly, command))
        ended = resource.getrusage(resource.RUSAGE_CHILDREN)
        processor.append(ended.ru_utime - began.ru_utime + ended.ru_stime - began.ru_stime)
        if not (run / "checks" / "c-001").is_dir():
            raise RuntimeError("the maths check did not run")
        return seconds

    processor: list[float] = []
    step()
    run_quietly(baseline)
    subject: list[float] = []
    importing: list[float] = []
    importing_cpu: list[float] = []
    for index in range(repeats):
        if index % 2:
            subject.append(step())
            importing.append(timed(partial(run_quietly, baseline)))
        else:
            importing.append(timed(partial(run_quietly, baseline)))
            subject.append(step())
        importing_cpu.append(cpu_seconds(baseline))
    ratio = statistics.median(s / b for s, b in zip(subject, importing, strict=True))
    cpu = statistics.median(s / b for s, b in zip(processor[1:], importing_cpu, strict=True))
    print(
        f"maths step {ms(statistics.median(subject))} against import credencegraph, sympy "
        f"{ms(statistics.median(importing))}: {ratio:.2f}x (processor time, the maths worker's included: {cpu:.2f}x)"
    )
    return [
        Figure(
            "g2",
            "`tool run_checks` of one maths step",
            statistics.median(subject),
            statistics.median(importing),
            "import credencegraph, sympy",
            f"{ratio:.2f}x",
            "<= 1.5x",
            at_most(ratio, 1.5) and at_most(cpu, 1.5),
            f"processor time {cpu:.2f}x",
        )
    ]


def mcp_call(workspace: Workspace, repeats: int) -> list[Figure]:
    import anyio
    from mcp import Client, StdioServerParameters

    from cgx_core.tooling.registry import call_tool

    paper = workspace.paper
    # A run for each side: on a shared run, each call would find the other side's change and read the state
    # anew, while a session's calls follow its own.
    runs = {"mcp": workspace.classified_run(), "in process": workspace.classified_run()}
    methods = paper.methods
    times: dict[str, list[float]] = {"mcp": [], "in process": []}

    def arguments(index: int, side: str) -> dict[str, Any]:
        run, ids = runs[side]
        return {"run": str(run), "records": [paper.record(ids, methods[index % len(methods)])], "model": MODEL}

    async def body() -> None:
        async with Client(StdioServerParameters(command=CLI, args=["mcp"])) as client:
            for index in range(-3, repeats):  # three warm-up rounds
                for name in ["mcp", "in process"] if index % 2 else ["in process", "mcp"]:
                    start = anyio.current_time()
                    if name == "mcp":
                        result = await client.call_tool("classify", arguments(index, name))
                        assert not result.is_error, result
                    else:
                        payload, is_error = call_tool("classify", arguments(index, name))
                        assert not is_error, payload
                    if index >= 0:
                        times[name].append(anyio.current_time() - start)

    anyio.run(body)
    ratio = statistics.median(m / w for m, w in zip(times["mcp"], times["in process"], strict=True))
    over, work = statistics.median(times["mcp"]), statistics.median(times["in process"])
    print(f"MCP classify {ms(over)} against the call in process {ms(work)}: {ratio:.2f}x")
    return [
        Figure(
            "g3",
            "MCP classify call (stdio round trip)",
            over,
            work,
            "call_tool in process",
            f"{ratio:.2f}x",
            "<= 2x",
            at_most(ratio, 2.0),
        )
    ]


def batch_calls(workspace: Workspace, repeats: int) -> list[Figure]:
    paper = workspace.paper
    run, ids = workspace.classified_run()
    methods = paper.methods
    calls = 20
    lines = "".join(
        json.dumps({"tool": "classify", "args": {"records": [paper.record(ids, methods[index])], "model": MODEL}})
        + "\n"
        for index in range(calls)
    )
    batch = workspace.root / "batch.jsonl"
    batch.write_text(lines, encoding="utf-8")

    def batched(_: int) -> None:
        run_quietly([CLI, "batch", "--run", str(run), str(batch)])

    def single(index: int) -> None:
        run_quietly(classify_command(run, paper.record(ids, methods[index % len(methods)])))

    times = paired(batched, single, max(3, repeats // 3))
    per_call = times.subject_median / calls
    print(
        f"batch of {calls} classify calls {ms(times.subject_median)} ({ms(per_call)} a call); "
        f"one `tool classify` {ms(times.baseline_median)}"
    )
    return [
        Figure(
            "g4",
            f"`batch` of {calls} classify calls, per call",
            per_call,
            times.baseline_median,
            "one `tool classify`",
            f"{per_call / times.baseline_median:.2f}x",
            "report",
            None,
        )
    ]


def plugin_discovery(repeats: int) -> list[Figure]:
    """Plugin discovery (what every command that lists check types pays, in process, plugins already
    imported) against the least it could cost: reading the entry-point group alone. Reading every installed
    distribution's METADATA, as discovery did, is shown beside it. CPU time: the machine may be busy."""
    from importlib import metadata

    from cgx_core.checks.installed import build_plugin_manager
    from cgx_core.hookspecs import ENTRY_POINT_GROUP

    build_plugin_manager()  # the plugins' own imports are not discovery

    def cpu(function: Callable[[], object]) -> float:
        began = time.process_time()
        for _ in range(10):
            function()
        return (time.process_time() - began) / 10

    def group() -> object:
        return metadata.entry_points(group=ENTRY_POINT_GROUP)

    def every() -> object:
        return [distribution.metadata["name"] for distribution in metadata.distributions()]

    samples: dict[str, list[float]] = {"ours": [], "group": [], "every": []}
    for _ in range(repeats):  # the three alternate, so a burst of load on the machine touches each alike
        samples["ours"].append(cpu(build_plugin_manager))
        samples["group"].append(cpu(group))
        samples["every"].append(cpu(every))
    ours, alone, all_metadata = (statistics.median(samples[key]) for key in ("ours", "group", "every"))
    print(
        f"plugin discovery {ms(ours)} CPU; the entry-point group alone {ms(alone)}; every METADATA {ms(all_metadata)}"
    )
    return [
        Figure(
            "g5",
            "plugin discovery (CPU, in process)",
            ours,
            alone,
            "importlib.metadata.entry_points(group)",
            f"{ours / alone:.2f}x",
            "<= 4x",
            at_most(ours / alone, 4.0),
            note=f"reading every distribution's METADATA instead: {all_metadata / alone:.1f}x",
        )
    ]


def server_cpu_before_first_call() -> float:
    """CPU seconds the MCP server (and any process it started) spent from its start until it answered
    initialize and tools/list, over its stdio as a client speaks to it."""
    import subprocess

    import psutil

    server = subprocess.Popen([CLI, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    try:
        for message in messages:
            server.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            server.stdin.flush()
            if "id" in message and "result" not in json.loads(server.stdout.readline()):
                raise RuntimeError(f"the server refused {message['method']}")
        process = psutil.Process(server.pid)
        spent = 0.0
        for each in [process, *process.children(recursive=True)]:
            times = each.cpu_times()
            spent += times.user + times.system
        return spent
    finally:
        server.stdin.close()
        server.wait()


def mcp_start(repeats: int) -> list[Figure]:
    anchor = [sys.executable, "-c", "import mcp.server.lowlevel, credencegraph"]
    server_cpu_before_first_call()  # warm the page cache, as the anchor's first run below does
    cpu_seconds(anchor)
    server: list[float] = []
    importing: list[float] = []
    for index in range(repeats):
        pair = [(server, server_cpu_before_first_call), (importing, partial(cpu_seconds, anchor))]
        for times, measure in pair if index % 2 else reversed(pair):
            times.append(measure())
    ratio = statistics.median(s / b for s, b in zip(server, importing, strict=True))
    print(
        f"MCP server until tools/list answered {ms(statistics.median(server))} CPU, against import "
        f"mcp.server.lowlevel, credencegraph {ms(statistics.median(importing))} CPU: {ratio:.2f}x"
    )
    return [
        Figure(
            "g6",
            "MCP server start-up, CPU before the first call",
            statistics.median(server),
            statistics.median(importing),
            "import mcp.server.lowlevel, credencegraph (CPU)",
            f"{ratio:.2f}x",
            "<= 1.5x",
            at_most(ratio, 1.5),
            "bytecode compiled; initialize and tools/list answered",
        )
    ]


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    repeats = 5 if workspace.quick else 15
    found = classify_calls(workspace, repeats, profile=profile)
    found += maths_step(workspace, max(3, repeats // 2))
    found += mcp_call(workspace, 20 if workspace.quick else 100)
    found += batch_calls(workspace, repeats)
    found += plugin_discovery(repeats)
    found += mcp_start(repeats)
    return found


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
