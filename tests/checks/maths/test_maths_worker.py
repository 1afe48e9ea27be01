"""The maths worker: its budget is CPU time (a busy machine decides the same), it dies with its parent, a
task stuck in C code is ended by the CPU-time rlimit, and the caller's process never imports sympy."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.codes import MathsCode
from cgx_core.codes import Code

# About 2 s of CPU time here; deciding it needs sympy's integration (no cache can answer it in a new worker).
SLOW_STEP = {
    "symbols": {"x": ["real"]},
    "lhs": "Integral(x^3*exp(-x)*sin(x), (x, 0, oo))",
    "rhs": "0",
}


def _state(pid: int) -> str | None:
    """The process's state letter from /proc (Z: a zombie, which has ended), or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


@contextmanager
def _busy_cores() -> Iterator[None]:
    """Two busy processes per core for the duration: the machine saturated."""
    count = 2 * (os.cpu_count() or 2)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for process in busy:
            process.kill()
        for process in busy:
            process.wait()


def _decide_in_a_new_worker(budget: float) -> dict[str, object]:
    with SymbolicDecider(budget=budget) as decider:
        decider.worker.start()  # started (sympy imported) before the decision, outside its budget
        return decider.decide(SLOW_STEP).to_json()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
def test_a_decision_near_its_budget_is_the_same_on_a_saturated_machine_as_on_an_idle_one() -> None:
    idle_passed = _decide_in_a_new_worker(6.0)
    idle_out = _decide_in_a_new_worker(0.5)
    with _busy_cores():
        busy_passed = _decide_in_a_new_worker(6.0)
        busy_out = _decide_in_a_new_worker(0.5)
    # With a wall-clock budget, two busy processes per core would have tripled the wall time of the first.
    assert idle_passed["result"] == "passed"
    assert busy_passed == idle_passed
    assert idle_out["code"] == str(MathsCode.SYMBOLIC_TIMEOUT) and "CPU-time budget" in str(idle_out["detail"])
    assert busy_out == idle_out


PARENT = textwrap.dedent(
    """
    import sys
    from cgx_checks.maths.caller.decider import SymbolicDecider

    if __name__ == "__main__":
        decider = SymbolicDecider(budget=600)
        print(decider.worker.start(), flush=True)
        decider.decide({"symbols": {"x": ["positive"]},
                        "lhs": "40*(x+5)^3*cos(10*(x+5)^4)*(atan(x) + atan(1/x))",
                        "rhs": "20*pi*(x+5)^3*cos(10*(x+5)^4)"})
        print("decided", flush=True)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_worker_dies_within_a_second_of_its_parent_killed_mid_step(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        start = _cpu_ticks(worker)
        while _cpu_ticks(worker) < start + 20:  # the worker is deciding the step (simplify takes minutes)
            time.sleep(0.05)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 1.0
        while _state(worker) not in (None, "Z") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _state(worker) in (None, "Z"), "the worker outlived its parent by more than a second"
    finally:
        parent.kill()
        parent.wait()


STUCK = textwrap.dedent(
    """
    import hashlib, signal
    from cgx_checks.maths.caller.worker_process import TASKS_MODULE
    from cgx_checks.maths.worker import tasks
    from cgx_core.base.budget_worker import answer, out_of_cpu

    signal.signal(signal.SIGPROF, out_of_cpu)  # as the worker's loop does
    # Minutes inside one C call that checks no signal (big-integer arithmetic does: it is interrupted).
    tasks.TASKS["stuck"] = lambda payload: hashlib.pbkdf2_hmac("sha256", b"x", b"y", 10**9).hex()
    print(answer(TASKS_MODULE, "stuck", None, 0.5))
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_CPU and SIGXCPU")
def test_a_task_stuck_in_c_code_is_ended_by_the_cpu_time_rlimit() -> None:
    done = subprocess.run([sys.executable, "-c", STUCK], capture_output=True, text=True, timeout=300, check=False)
    # The profiling timer cannot interrupt one C call; the rlimit, 3 s of CPU time later, ends the process.
    assert done.returncode == -signal.SIGXCPU, (done.returncode, done.stdout, done.stderr[-500:])
    assert done.stdout == ""


IMPORTS = textwrap.dedent(
    """
    import json, sys
    from cgx_checks.maths.caller.decider import SymbolicDecider
    from cgx_checks.maths.read.latex import latex_parser
    from cgx_checks.maths.read.parse import side_parser
    from cgx_checks.maths.read.step import parse_step
    from cgx_checks.rederive_maths import SCHEMA

    if __name__ == "__main__":
        steps = [
            {"symbols": {"x": ["real"]}, "lhs": "(x + 1)^2", "rhs": "x^2 + 2*x + 1"},
            {"symbols": {"x": ["real"]}, "latex": "\\\\int_0^1 x\\\\,dx = \\\\frac{1}{2}"},
            {"symbols": {"x": ["real"]}, "lhs": "sin(x)^2", "rhs": "1 - cos(x)^2"},
        ]
        parsed = [parse_step(step) for step in steps]
        before = "sympy" in sys.modules
        with SymbolicDecider() as decider:
            results = [decider.decide(step).result for step in parsed]
            keys = [decider.observation_key(step, ["e-1"]) for step in parsed]
            loaded = json.loads(decider.worker.run("loaded", None, 5.0).payload)
        print(json.dumps({
            "sympy_before": before,
            "sympy_after": "sympy" in sys.modules,
            "mpmath": "mpmath" in sys.modules,
            "results": results,
            "keys": len(set(keys)),
            "parsers_here": [side_parser.cache_info().misses, latex_parser.cache_info().misses],
            "worker": loaded,
        }))
    """
)


def test_the_callers_process_never_imports_sympy_and_the_grammars_are_built_once(tmp_path: Path) -> None:
    script = tmp_path / "imports.py"
    script.write_text(IMPORTS)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert found["sympy_before"] is False and found["sympy_after"] is False and found["mpmath"] is False
    assert found["results"] == ["passed", "passed", "passed"] and found["keys"] == 3
    assert found["parsers_here"] == [1, 1]  # each grammar built once, in the caller
    assert found["worker"] == {"grammars": 0, "sympy": True}  # the worker gets parsed steps: no grammar there


def test_a_worker_starved_past_its_wall_clock_backstop_decides_nothing_and_the_call_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from cgx_checks.maths.caller import worker_process
    from support import EXAMPLE_RECORDS, call, start_example

    run = tmp_path / "run"
    start_example(run)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    before = (run / "calls.jsonl").read_bytes()
    worker_process.shared_worker().start()
    # The worker says nothing within the backstop, as one the machine starves of CPU would.
    monkeypatch.setattr(Connection, "poll", lambda self, timeout=0.0: False)
    proposal = {"type": "rederive-maths", "target": "s-08", "symbols": {"x": ["real"]}, "lhs": "x + x", "rhs": "2*x"}
    result = call(run, "run_checks", proposals=[proposal])
    assert result["error"]["code"] == str(Code.CHECK_STALLED), result
    assert (run / "calls.jsonl").read_bytes() == before and not (run / "checks").exists()
    monkeypatch.undo()
    assert call(run, "run_checks", proposals=[proposal])["checks"][0]["result"] == "passed"


# A true step sympy's simplify takes minutes over (sympy issue 21787): it keeps its worker busy for its budget.
ENDLESS_STEP = {
    "symbols": {"x": ["positive"]},
    "lhs": "40*(x+5)^3*cos(10*(x+5)^4)*(atan(x) + atan(1/x))",
    "rhs": "20*pi*(x+5)^3*cos(10*(x+5)^4)",
}


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
def test_a_cancelled_call_kills_its_running_maths_task_instead_of_waiting_out_its_budget() -> None:
    """The call stops with Cancelled as soon as it is cancelled, its worker killed: before, it waited for the
    task's whole budget (an hour here), holding the run's lock all the while."""
    import threading

    from cgx_core.run.call_control import Cancelled, Control, controlled

    control = Control()
    ended: list[str] = []
    with SymbolicDecider(budget=3600.0) as decider:
        pid = decider.worker.start()
        idle = _cpu_ticks(pid)

        def decide() -> None:
            with controlled(control):
                try:
                    decider.decide(ENDLESS_STEP)
                    ended.append("decided")
                except Cancelled:
                    ended.append("cancelled")

        thread = threading.Thread(target=decide)
        thread.start()
        while _cpu_ticks(pid) == idle:  # the worker is at work on the step
            assert thread.is_alive(), ended
            time.sleep(0.01)
        control.cancel()
        thread.join(timeout=300)  # a guard only: the step's own budget is an hour of CPU time
        assert not thread.is_alive(), "the cancelled call still waits for its maths task"
        assert ended == ["cancelled"]
        assert _state(pid) in (None, "Z")  # the worker was killed, not left computing
        assert decider.decide({"symbols": {}, "lhs": "2 + 2", "rhs": "4"}).to_json()["result"] == "passed"


def test_a_worker_begun_early_is_the_one_the_step_runs_in() -> None:
    """`start_soon` (a run_checks call naming a maths step) starts the worker in the background; the step then
    waits for that start and runs there, rather than starting a second worker; a second `start_soon` is a no-op."""
    from cgx_checks.maths.caller.worker_process import MathsWorker

    def workers() -> list[int | None]:
        """This process's budgeted workers (started from any of its threads)."""
        children = [
            int(pid) for task in Path("/proc/self/task").iterdir() for pid in (task / "children").read_text().split()
        ]
        return [pid for pid in children if "budget_worker" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]

    before = workers()
    worker = MathsWorker()
    try:
        worker.start_soon()
        worker.start_soon()
        with SymbolicDecider(worker=worker) as decider:
            outcome = decider.decide({"symbols": {"x": ["real"]}, "lhs": "(x + 1)^2", "rhs": "x^2 + 2*x + 1"})
        assert outcome.result == "passed"
        assert [pid for pid in workers() if pid not in before] == [worker.pid]
    finally:
        worker.close()


def test_a_cancel_while_the_early_start_runs_ends_the_step_before_any_task(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cancel kills a worker still starting as it kills one at work: the step stops with `Cancelled` and no
    task is sent (the start is held until the cancel's kill, and the cancel comes once the step waits for it)."""
    import threading

    from cgx_checks.maths.caller.worker_process import MathsWorker
    from cgx_core.base.budget_worker import BudgetedWorker
    from cgx_core.run.call_control import Cancelled, Control, controlled

    worker = MathsWorker()
    starting, killed, joining = threading.Event(), threading.Event(), threading.Event()
    tasks: list[object] = []
    join_start = worker._join_start

    def joined() -> None:
        joining.set()
        join_start()

    def held_start() -> int:
        starting.set()
        killed.wait(60)
        return 0

    monkeypatch.setattr(worker, "start", held_start)
    monkeypatch.setattr(worker, "kill", killed.set)
    monkeypatch.setattr(worker, "_join_start", joined)
    monkeypatch.setattr(BudgetedWorker, "run", lambda *arguments: tasks.append(arguments))
    control = Control()
    raised: list[BaseException] = []

    def step() -> None:
        with controlled(control):
            try:
                worker.run("decide", None, 5.0)
            except Cancelled as cancelled:
                raised.append(cancelled)

    worker.start_soon()
    assert starting.wait(60)
    stepping = threading.Thread(target=step)
    stepping.start()
    assert joining.wait(60)
    control.cancel()
    stepping.join(60)
    assert (len(raised), tasks, killed.is_set()) == (1, [], True)


def test_an_early_start_that_fails_is_silent_and_left_to_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed background start prints nothing (no thread traceback on the command line's stderr); the step's
    own start then runs and reports whatever is wrong."""
    import threading

    from cgx_checks.maths.caller.worker_process import MathsWorker

    worker = MathsWorker()
    escaped: list[object] = []
    monkeypatch.setattr(threading, "excepthook", escaped.append)

    def broken_start() -> int:
        raise OSError("no more processes")

    monkeypatch.setattr(worker, "start", broken_start)
    worker.start_soon()
    worker._join_start()
    assert (escaped, worker.pid) == ([], None)
    monkeypatch.undo()
    try:
        with SymbolicDecider(worker=worker) as decider:
            outcome = decider.decide({"symbols": {"x": ["real"]}, "lhs": "x + x", "rhs": "2*x"})
        assert outcome.result == "passed"
    finally:
        worker.close()
