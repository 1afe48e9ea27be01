"""The crash harness: a workload of every changing tool, a child that SIGKILLs itself at a chosen point
of it, and the fork server that runs such children.

A crash can only matter where the run's files change, so the child counts every such change as an
*event* (`os.write`, `os.fsync`, `os.replace` and `os.unlink` on a file inside the run) and kills itself
just before or just after event K, or in the middle of the log append (half a line written, then
SIGKILL: a torn line). Killing between two events is the same crash as killing just before the next
one, so these points cover every crash state a process kill can leave. Events are labelled with their
phase inside the call: `prepare` (before the log append: check artifacts, start_run's files),
`append` (the write of the log line), `commit` (its fsync) and `derive` (state.json, the finished
files, the manifest).

The workload runs with a pinned run id (start_run's id generator returns a constant here), so a run
that was killed and recovered can be compared byte for byte with the run the same calls made
without a crash.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import traceback
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs

from cgx_core.base.digests import json_digest
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC

PINNED_RUN_ID = "c0ffee00c0ffee00"
MODEL = "crash-model"
PASSAGE = "Damped oscillators describe many laboratory systems, from torsion pendula"

# The workload: every changing tool, including a finish, a call that reopens the finished run (removing
# graph.json, report.json and rejections.json), a second finish, and a call refused whole that leaves the run
# finished (adding to rejections.json). The last step is never killed: it is the call that recovers a run
# killed in the step before it.
STEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "start_run",
        {
            "paper": str(EXAMPLE / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "cited": str(EXAMPLE / "cited"),
            "store_source": True,
        },
    ),
    ("classify", {"records": EXAMPLE_RECORDS}),
    ("add_premises", {"records": EXAMPLE_PREMISES}),
    (
        "run_checks",
        {
            "proposals": [
                {"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"},
                {"type": "recompute-numbers", "target": "s-13", "expression": "1200 * 75", "result": "90000"},
            ]
        },
    ),
    (
        "judge_citation",
        {"node": "s-02", "entry": "r-1", "source": "smith2019.txt", "passage": PASSAGE, "supports": True},
    ),
    ("finish_run", {}),
    ("classify", {"records": [{"node": "s-09", "type": "assumption"}]}),
    ("finish_run", {}),
    ("run_checks", {"proposals": [{"type": "no-such-check", "target": "s-01"}]}),
    ("run_checks", {"proposals": [{"type": "no-such-check", "target": "s-02"}]}),
)
LAST = len(STEPS)
"""Calls in the whole workload; a crash round ends at most at call LAST - 1."""

PHASES = ("prepare", "append", "commit", "derive")


class WorkloadError(AssertionError):
    """A workload call was refused: the run was left in a state the next call cannot continue from."""


def step_call(index: int, run: Path) -> tuple[str, dict[str, Any]]:
    """The tool and arguments of workload call `index` (0-based) on `run`."""
    tool, arguments = STEPS[index]
    return tool, {"run": str(run), **arguments, "model": MODEL, "agent": "crash", "note": f"step {index}"}


@contextlib.contextmanager
def pinned_run_id() -> Iterator[None]:
    """Make start_run give every run the same id while the block runs (in this process)."""
    from cgx_core.tools import start_run

    saved = start_run.secrets
    start_run.secrets = SimpleNamespace(token_hex=lambda n: PINNED_RUN_ID[: 2 * n])  # type: ignore[assignment]
    try:
        yield
    finally:
        start_run.secrets = saved


def committed_calls(run: Path) -> int | None:
    """How many calls the run has committed, as a reader sees it; None when it is no run (yet)."""
    payload, is_error = call_tool("get_state", {"run": str(run), "limit": 1})
    if is_error:
        if payload["error"]["code"] in ("run-not-found", "not-a-run"):
            return None
        raise WorkloadError(f"get_state refused the run: {payload}")
    calls: int = payload["progress"]["calls"]
    return calls


Ack = Callable[[int, dict[str, Any]], None]


def advance(run: Path, end: int, ack: Ack, begin: Callable[[int], None] | None = None) -> None:
    """Make the workload's calls from the first the run has not committed up to call `end` (exclusive).

    A run whose start_run never committed is deleted and started again, as its error message says.
    `ack(step, result)` runs after each call returns: the call is acknowledged to its caller.
    """
    done = committed_calls(run)
    if done is None:
        if begin is not None:
            begin(-1)
        shutil.rmtree(run, ignore_errors=True)
        done = 0
    for step in range(done, end):
        if begin is not None:
            begin(step)
        tool, arguments = step_call(step, run)
        payload, is_error = call_tool(tool, arguments)
        if is_error:
            raise WorkloadError(f"call {step} ({tool}) was refused: {payload}")
        ack(step, payload)


SHOWN_ONLY = ("recovery", "replay", "proposals_elsewhere")
"""What a result carries besides what its log line digests (start_summary.shown_result, Response.to_json)."""


def ack_record(step: int, payload: Mapping[str, Any]) -> dict[str, Any]:
    """What a caller knows of an acknowledged call: which it was and the digest of its result."""
    tool, _ = STEPS[step]
    result = {key: value for key, value in payload.items() if key not in SHOWN_ONLY}
    if tool == "start_run":  # the proposal schemas come from the plugins installed when shown, never digested
        result["checks"] = [{k: v for k, v in item.items() if k != "proposal"} for item in result["checks"]]
    return {
        "step": step,
        "tool": tool,
        "note": f"step {step}",
        "result": json_digest(result),
        "recovery": payload.get("recovery"),
    }


# -- files of a run ----------------------------------------------------------------------------------


def is_temp(name: str) -> bool:
    """A temp file of write_atomic (`.<name>.tmp-<pid>`), left behind when a writer was killed."""
    return name.startswith(".") and ".tmp-" in name


def run_files(root: Path) -> dict[str, bytes]:
    """Every file of a run by relative path, without the lock file (it names its last holder, for
    information only) and without temp files a killed writer left."""
    if not root.exists():
        return {}
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name != ".lock" and not is_temp(path.name)
    }


def leftover_temps(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*") if is_temp(path.name))


@attrs.frozen
class Reference:
    """The workload run without a crash: a copy of the run after each call (None before call 1)."""

    snapshots: tuple[Path | None, ...]
    log: bytes
    line_ends: tuple[int, ...]

    def files(self, calls: int) -> dict[str, bytes]:
        snapshot = self.snapshots[calls]
        return run_files(snapshot) if snapshot is not None else {}

    def copy(self, calls: int, target: Path) -> None:
        """Lay the run as it was after `calls` calls at `target` (nothing when calls is 0)."""
        snapshot = self.snapshots[calls]
        if snapshot is not None:
            shutil.copytree(snapshot, target)


def build_reference(folder: Path) -> Reference:
    """Run the workload once, keeping a copy of the run after every call."""
    run = folder / "run"
    snapshots: list[Path | None] = [None]

    def keep(step: int, payload: dict[str, Any]) -> None:
        snapshot = folder / f"after-{step + 1}"
        shutil.copytree(run, snapshot)
        snapshots.append(snapshot)

    advance(run, LAST, keep)
    log = (run / "calls.jsonl").read_bytes()
    ends = tuple(index + 1 for index, byte in enumerate(log) if byte == ord("\n"))
    assert len(ends) == LAST
    return Reference(tuple(snapshots), log, ends)


# -- the child: fault injection ----------------------------------------------------------------------

REAL_WRITE = os.write
REAL_FSYNC = os.fsync
REAL_REPLACE = os.replace
REAL_UNLINK = os.unlink


@attrs.define
class Injector:
    """Counts the events of a child's calls, writes each to a trace file, and kills at the chosen one."""

    root: str
    trace_fd: int
    kill_at: int | None
    how: str
    cut: float
    count: int = 0
    step: int = -1
    appended: bool = False
    committed: bool = False

    def begin(self, step: int) -> None:
        self.step = step
        self.appended = False
        self.committed = False

    def name_of_path(self, path: str) -> str | None:
        path = os.path.abspath(path)
        if not path.startswith(self.root):
            return None
        relative = path[len(self.root) :]
        head, _, tail = relative.rpartition("/")
        if is_temp(tail):
            tail = tail[1 : tail.index(".tmp-")] + "~tmp"
        name = f"{head}/{tail}" if head else tail
        return None if name == ".lock" else name

    def name_of_fd(self, fd: int) -> str | None:
        try:
            return self.name_of_path(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            return None

    def phase(self, kind: str, name: str) -> str:
        if kind == "write" and name == "calls.jsonl" and not self.appended:
            self.appended = True
            return "append"
        if kind == "fsync" and name == "calls.jsonl" and self.appended and not self.committed:
            self.committed = True
            return "commit"
        return "derive" if self.committed else "prepare"

    def trace(self, phase: str, kind: str, name: str, outcome: str) -> None:
        line = f"{self.count}\t{self.step}\t{phase}\t{kind}\t{name}\t{outcome}\n"
        REAL_WRITE(self.trace_fd, line.encode("utf-8"))

    def event(self, kind: str, name: str | None, perform: Callable[[], Any], partial: Callable[[], Any] | None) -> Any:
        if name is None:
            return perform()
        self.count += 1
        phase = self.phase(kind, name)
        if self.count != self.kill_at:
            result = perform()
            self.trace(phase, kind, name, "done")
            return result
        if self.how == "torn" and partial is not None:
            partial()
            self.trace(phase, kind, name, "killed mid-write")
        elif self.how == "after":
            perform()
            self.trace(phase, kind, name, "killed after")
        else:
            self.trace(phase, kind, name, "killed before")
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable: SIGKILL was sent")

    def install(self) -> None:
        """Route the four file operations through `event` (this process only: it is a forked child)."""

        def write(fd: int, data: Any) -> int:
            data = bytes(data)
            cut = min(len(data) - 1, max(1, int(len(data) * self.cut)))
            written: int = self.event(
                "write", self.name_of_fd(fd), lambda: REAL_WRITE(fd, data), lambda: REAL_WRITE(fd, data[:cut])
            )
            return written

        def fsync(fd: Any) -> None:
            number = fd if isinstance(fd, int) else fd.fileno()
            self.event("fsync", self.name_of_fd(number), lambda: REAL_FSYNC(number), None)

        def replace(src: Any, dst: Any, **kwargs: Any) -> None:
            self.event("replace", self.name_of_path(os.fspath(dst)), lambda: REAL_REPLACE(src, dst, **kwargs), None)

        def unlink(path: Any, **kwargs: Any) -> None:
            name = self.name_of_path(os.fspath(path)) if isinstance(path, (str, os.PathLike)) else None
            self.event("unlink", name, lambda: REAL_UNLINK(path, **kwargs), None)

        os.write = write
        os.fsync = fsync
        os.replace = replace
        os.unlink = unlink


def child_main(request: Mapping[str, Any]) -> int:
    """Run in a forked child: advance the run to `end` with the kill injected; 0 when not killed."""
    try:
        output = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(output, 1)
        os.dup2(output, 2)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        run = Path(request["run"])
        trace_fd = os.open(request["trace"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        acks_fd = os.open(request["acks"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        kill = request.get("kill") or {}
        injector = Injector(
            str(run.resolve()) + "/", trace_fd, kill.get("at"), kill.get("how", "before"), kill.get("cut", 0.5)
        )

        def ack(step: int, payload: dict[str, Any]) -> None:
            REAL_WRITE(acks_fd, (json.dumps(ack_record(step, payload)) + "\n").encode("utf-8"))

        injector.install()
        advance(run, request["end"], ack, injector.begin)
        return 0
    except BaseException:
        traceback.print_exc()
        return 70


_PINNED = contextlib.ExitStack()


def preload(scratch: Path) -> None:
    """In the fork server: pin the run id for good, and import and warm everything a child uses (one
    whole workload), so a child only forks."""
    _PINNED.enter_context(pinned_run_id())
    advance(scratch / "warm-up", LAST, lambda step, payload: None)


def read_trace(path: Path) -> list[dict[str, Any]]:
    """The events a child traced, in order."""
    if not path.exists():
        return []
    events = []
    for line in path.read_text(encoding="utf-8").splitlines():
        count, step, phase, kind, name, outcome = line.split("\t")
        events.append(
            {"at": int(count), "step": int(step), "phase": phase, "kind": kind, "name": name, "outcome": outcome}
        )
    return events


def read_acks(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
