"""The warm server's zygote (cgx_cli.warm.zygote): a warm call's budgeted workers are forked from it with their
tasks imported, decide what a spawned worker decides within the same CPU-time budget, die with the call that
asked for them and with the zygote, and are spawned as in a cold call when the zygote's code changed."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.codes import MathsCode
from cgx_cli.warm import zygote
from cgx_cli.warm.forked_worker import starter
from cgx_core.base.budget_worker import start_workers_with
from support import PATIENCE, alive, parent_of, wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the warm process is Linux's")

SLOW_STEP = {"symbols": {"x": ["real"]}, "lhs": "Integral(x^3*exp(-x)*sin(x), (x, 0, oo))", "rhs": "0"}
"""About 2 s of CPU time: sympy's integration decides it (no cache can answer it in a new worker)."""
ENDLESS_STEP = {
    "symbols": {"x": ["positive"]},
    "lhs": "40*(x+5)^3*cos(10*(x+5)^4)*(atan(x) + atan(1/x))",
    "rhs": "20*pi*(x+5)^3*cos(10*(x+5)^4)",
}
"""Minutes of simplify."""


@attrs.frozen
class Zygote:
    process: subprocess.Popen[bytes]
    address: str
    folder: Path


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Zygote]:
    """A zygote of its own (in a short folder: a socket's path is limited), this process's workers asked of it."""
    folder = Path(tempfile.mkdtemp(prefix="cgxz-"))
    (folder / "path").mkdir()
    monkeypatch.setenv("PYTHONPATH", str(folder / "path"))  # a module-path folder the zygote stamps
    server = str(folder / "s.sock")
    process = zygote.start(server)
    address = zygote.address_beside(server)
    wait_for(lambda: os.path.exists(address))
    start_workers_with(starter(address))
    try:
        yield Zygote(process, address, folder)
    finally:
        start_workers_with(None)
        assert process.stdin is not None
        process.stdin.close()
        process.wait(PATIENCE)
        shutil.rmtree(folder, ignore_errors=True)


def decide(budget: float) -> tuple[dict[str, object], int]:
    with SymbolicDecider(budget=budget) as decider:
        parent = parent_of(decider.worker.start())  # started (sympy imported) before the decision, outside its budget
        return decider.decide(SLOW_STEP).to_json(), parent


def test_a_forked_worker_decides_what_a_spawned_one_decides_within_the_same_cpu_budget(forked: Zygote) -> None:
    passed, passed_parent = decide(6.0)
    out, out_parent = decide(0.5)
    assert passed_parent == out_parent == forked.process.pid  # forked by the zygote, not spawned
    assert passed["result"] == "passed"
    assert out["code"] == str(MathsCode.SYMBOLIC_TIMEOUT) and "CPU-time budget" in str(out["detail"])
    start_workers_with(None)
    assert decide(6.0) == (passed, os.getpid())  # spawned by this process: the same decisions
    assert decide(0.5) == (out, os.getpid())


CALL = textwrap.dedent(
    """
    import sys
    from cgx_checks.maths.caller.decider import SymbolicDecider
    from cgx_cli.warm.forked_worker import starter
    from cgx_core.base.budget_worker import start_workers_with

    start_workers_with(starter(sys.argv[1]))
    decider = SymbolicDecider(budget=600)
    print(decider.worker.start(), flush=True)
    decider.decide({step!r})
    """
).format(step=ENDLESS_STEP)


def test_a_forked_worker_dies_with_the_call_that_asked_for_it(forked: Zygote) -> None:
    call = subprocess.Popen([sys.executable, "-c", CALL, forked.address], stdout=subprocess.PIPE, text=True)
    assert call.stdout is not None
    worker = int(call.stdout.readline())
    assert parent_of(worker) == forked.process.pid
    call.send_signal(signal.SIGKILL)
    call.wait()
    wait_for(lambda: not alive(worker))
    assert forked.process.poll() is None  # the zygote serves on


def test_the_zygote_ends_with_the_server_and_its_workers_with_it(forked: Zygote) -> None:
    decider = SymbolicDecider(budget=600)
    worker = decider.worker.start()
    assert forked.process.stdin is not None
    forked.process.stdin.close()  # the server and every call it forked are gone
    forked.process.wait(PATIENCE)
    wait_for(lambda: not alive(worker))
    assert not os.path.exists(forked.address)
    decider.close()


def test_once_its_code_changed_the_zygote_declines_and_ends_without_cutting_a_worker_short(forked: Zygote) -> None:
    with SymbolicDecider(budget=6.0) as running:  # a call's worker, forked before the change
        assert parent_of(running.worker.start()) == forked.process.pid
        (forked.folder / "path" / "new_module.py").write_text("")  # a module-path folder changed
        assert decide(6.0)[1] == os.getpid()  # the next worker is spawned, as in a cold call
        assert not os.path.exists(forked.address)  # the zygote takes no more requests
        assert running.decide(SLOW_STEP).to_json()["result"] == "passed"  # the running worker serves on
        assert forked.process.poll() is None
    forked.process.wait(PATIENCE)  # its last worker gone, the zygote exits


def test_a_malformed_request_is_declined_and_the_zygote_serves_on(forked: Zygote) -> None:
    for junk in (b"", b"\x00\x00\x00\x05hello", b"\xff" * 64):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
            peer.connect(forked.address)
            peer.sendall(junk)
            peer.shutdown(socket.SHUT_WR)
            assert peer.recv(4096) == b""  # no pid: nothing was forked for it
    assert forked.process.poll() is None
    assert decide(6.0)[1] == forked.process.pid
