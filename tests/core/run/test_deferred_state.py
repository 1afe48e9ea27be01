"""A long-lived process (`batch`, the MCP server) rewrites state.json only once every few calls
(`deferred_state_writes`): what a user relies on is that its session gives exactly the results and files a
session writing state.json after every call gives, that another process's change is seen and never served
stale, and that a kill while state.json lags leaves a run the next call completes.

`ITEMS_PER_DEFERRED_CALL` is set to 1 here, so the example paper's small graph lags as a long paper's does."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.run import transaction
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_PREMISES, EXAMPLE_RECORDS, call, start_example, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
RETYPE = {"node": "s-09", "type": "assumption"}

# A session of every kind of call: classify in pieces, a refused record (rejections), premises, a reader.
SESSION: list[tuple[str, dict[str, Any]]] = [
    ("classify", {"records": EXAMPLE_RECORDS[4:10]}),
    ("classify", {"records": [{"node": "s-99", "type": "claim"}]}),
    ("get_state", {"limit": 3}),
    ("classify", {"records": EXAMPLE_RECORDS[10:]}),
    ("classify", {"records": EXAMPLE_RECORDS[:4]}),
    ("add_premises", {"records": EXAMPLE_PREMISES}),
    ("classify", {"records": [RETYPE]}),
]


def fresh_process() -> None:
    """Forget what this process holds of every run, as a new process finds it."""
    transaction._STATES.clear()
    transaction._LAGGING.clear()
    transaction._DIGESTERS.clear()
    transaction._CHAINS.clear()


@pytest.fixture(autouse=True)
def long_paper_lag(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(transaction, "ITEMS_PER_DEFERRED_CALL", 1)
    fresh_process()
    yield
    fresh_process()


@pytest.fixture
def twins(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one started run (same run id): one for the deferring session, one for the reference."""
    deferring = tmp_path / "deferring"
    start_example(deferring, store_source=True)
    reference = tmp_path / "reference"
    shutil.copytree(deferring, reference)
    return deferring, reference


def stored_seq(run: Path) -> int:
    seq: int = json.loads((run / "state.json").read_bytes())["seq"]
    return seq


def read(run: Path, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool("get_state", {"run": str(run), **arguments})
    assert not is_error, payload
    return payload


def session(run: Path) -> list[dict[str, Any]]:
    return [
        read(run, **arguments) if tool == "get_state" else call(run, tool, **arguments) for tool, arguments in SESSION
    ]


def test_a_deferring_session_gives_the_same_results_and_files_as_one_writing_every_call(
    twins: tuple[Path, Path],
) -> None:
    deferring, reference = twins
    with transaction.deferred_state_writes():
        results = session(deferring)
        assert stored_seq(deferring) == 1, "state.json was rewritten during the block: nothing was deferred"
    assert results == session(reference)
    assert read(deferring, limit=500) == read(reference, limit=500)
    assert stored_seq(deferring) == stored_seq(reference) == 7
    assert tree(deferring) == tree(reference)
    assert replay(deferring, source=None, sources=None).identical


def test_a_reader_in_the_process_sees_every_deferred_call(twins: tuple[Path, Path]) -> None:
    deferring, reference = twins
    session(reference)
    with transaction.deferred_state_writes():
        session(deferring)
        assert stored_seq(deferring) == 1
        assert read(deferring, limit=500) == read(reference, limit=500)


def test_a_finish_writes_state_json_at_once(twins: tuple[Path, Path]) -> None:
    deferring, reference = twins
    with transaction.deferred_state_writes():
        session(deferring)
        finished = call(deferring, "finish_run")
        assert stored_seq(deferring) == 8, finished  # verify and replay compare a finished run's state.json
        assert replay(deferring, source=None, sources=None).identical
    session(reference)
    assert finished == call(reference, "finish_run")
    assert tree(deferring) == tree(reference)


def test_a_new_process_completes_a_lagging_state_json_from_the_log(twins: tuple[Path, Path]) -> None:
    """What a process killed while deferring leaves (its block never ended): the next process's call applies
    the calls state.json lacks again and gives what the reference gives."""
    deferring, reference = twins
    with transaction.deferred_state_writes():
        session(deferring)
        transaction._LAGGING.clear()  # as a kill leaves it: nothing written at the block's end
    assert stored_seq(deferring) == 1
    fresh_process()
    session(reference)
    recovered = call(deferring, "classify", records=[{"node": "s-10", "type": "assumption"}])
    assert recovered.pop("recovery") == {"completed": [2, 3, 4, 5, 6, 7]}
    assert recovered == call(reference, "classify", records=[{"node": "s-10", "type": "assumption"}])
    assert tree(deferring) == tree(reference)


def test_a_state_json_changed_under_the_process_is_read_again(twins: tuple[Path, Path]) -> None:
    deferring, reference = twins
    with transaction.deferred_state_writes():
        session(deferring)
        (deferring / "state.json").write_bytes((reference / "state.json").read_bytes().replace(b'"seq":1', b'"seq":5'))
        result = call(deferring, "classify", records=[RETYPE])
        assert "edited" in result["recovery"]["state"], result  # set aside and rebuilt from the log, as ever
    session(reference)
    result.pop("recovery")
    assert result == call(reference, "classify", records=[RETYPE])
    assert tree(deferring) == tree(reference)


def test_another_process_s_call_is_seen_not_served_stale(twins: tuple[Path, Path]) -> None:
    """A `tool` call in another process, between two calls of a deferring process, is in the state the
    deferring process serves next (that process finds state.json behind the log and completes it)."""
    deferring, reference = twins
    other = {"records": [{"node": "s-08", "type": "assumption"}], "model": "test-model"}
    with transaction.deferred_state_writes():
        session(deferring)
        done = subprocess.run(
            [CLI, "tool", "classify", "--run", str(deferring), "--args", json.dumps(other)],
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["recovery"] == {"completed": [2, 3, 4, 5, 6, 7]}
        nodes = read(deferring, limit=500)["nodes"]
        assert next(node for node in nodes if node["id"] == "s-08")["type"] == "assumption"
        after = call(deferring, "classify", records=[RETYPE])
    session(reference)
    call(reference, "classify", **other)
    assert after == call(reference, "classify", records=[RETYPE])
    assert tree(deferring) == tree(reference)


BATCH_WITH_LAG = (
    "import sys; import cgx_core.run.transaction as t; t.ITEMS_PER_DEFERRED_CALL = 1; "
    "from cgx_cli.main import entry; sys.argv[0] = 'credencegraph-extract'; sys.exit(entry())"
)


def batch_line(tool: str, arguments: dict[str, Any]) -> str:
    model = {} if tool == "get_state" else {"model": "test-model"}
    return json.dumps({"tool": tool, "args": {**arguments, **model}}) + "\n"


def test_a_batch_killed_while_deferring_leaves_a_run_the_next_call_completes(twins: tuple[Path, Path]) -> None:
    deferring, reference = twins
    batch = subprocess.Popen(
        [sys.executable, "-c", BATCH_WITH_LAG, "batch", "--run", str(deferring)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert batch.stdin is not None and batch.stdout is not None
    answers = []
    for tool, arguments in SESSION:
        batch.stdin.write(batch_line(tool, arguments).encode())
        batch.stdin.flush()
        answers.append(json.loads(batch.stdout.readline()))
    assert stored_seq(deferring) == 1, "the batch wrote state.json during the session: nothing was deferred"
    batch.send_signal(signal.SIGKILL)
    batch.wait()
    assert answers == session(reference)
    recovered = call(deferring, "classify", records=[{"node": "s-10", "type": "assumption"}])
    assert recovered.pop("recovery") == {"completed": [2, 3, 4, 5, 6, 7]}
    assert recovered == call(reference, "classify", records=[{"node": "s-10", "type": "assumption"}])
    assert tree(deferring) == tree(reference)
    assert replay(deferring, source=None, sources=None).identical


def test_a_batch_that_ends_writes_the_state_it_deferred(twins: tuple[Path, Path]) -> None:
    deferring, reference = twins
    lines = "".join(batch_line(tool, arguments) for tool, arguments in SESSION)
    done = subprocess.run(
        [sys.executable, "-c", BATCH_WITH_LAG, "batch", "--run", str(deferring)],
        input=lines.encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    session(reference)
    assert tree(deferring) == tree(reference)
