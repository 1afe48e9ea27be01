"""The edges of a call's commit: a disk that fills up around it, a commit that cannot be made durable, and the
lock file a call leaves behind."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.run import log
from cgx_core.tooling.registry import call_tool
from support import call, start_example, tree

RECORD = {"node": "s-09", "type": "assumption"}

FULL_DISK = """
import json, resource, signal, sys
from cgx_core.tooling.registry import call_tool
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
payload, is_error = call_tool("classify", {"run": sys.argv[1], "model": "m", "records": [json.loads(sys.argv[3])]})
print(json.dumps({"payload": payload, "is_error": is_error}))
"""


def test_a_call_committed_before_the_disk_filled_says_so_and_is_not_made_twice(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run, store_source=True)
    log_size = (run / "calls.jsonl").stat().st_size
    limit = log_size + 2048  # room for the log line, none for state.json (tens of kilobytes)
    assert (run / "state.json").stat().st_size > limit
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(run), str(limit), json.dumps(RECORD)],
        capture_output=True,
        text=True,
        check=True,
    )
    outcome: dict[str, Any] = json.loads(done.stdout)
    assert not outcome["is_error"], outcome  # before: io-error, and an agent that retried applied it twice
    payload = outcome["payload"]
    assert payload["committed_but"].startswith("call 2 is committed (its line is in calls.jsonl)")
    assert "do not make this call again" in payload["committed_but"]
    assert len((run / "calls.jsonl").read_bytes().splitlines()) == 2
    assert json.loads((run / "state.json").read_bytes())["seq"] == 1  # not derived
    seen, _ = call_tool("get_state", {"run": str(run), "nodes": ["s-09"]})
    assert seen["progress"]["calls"] == 2 and seen["nodes"][0]["type"] == "assumption"
    again = call(run, "classify", records=[{"node": "s-10", "type": "derivation"}])
    assert again["recovery"] == {"completed": [2]}  # the next call writes what the full disk stopped
    assert replay(run, source=None, sources=None).identical


def test_a_commit_whose_fsync_fails_is_taken_back_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    start_example(run)
    before = (run / "calls.jsonl").read_bytes()

    def failing_fsync(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(log.os, "fsync", failing_fsync)
    payload, is_error = call_tool("classify", {"run": str(run), "model": "m", "records": [RECORD]})
    monkeypatch.undo()
    assert is_error and payload["error"]["code"] == "io-error"
    # The whole line had been written: left in place, the next reader would have taken it as committed.
    assert (run / "calls.jsonl").read_bytes() == before
    result = call(run, "classify", records=[RECORD])
    assert "recovery" not in result
    assert [json.loads(line)["seq"] for line in (run / "calls.jsonl").read_bytes().splitlines()] == [1, 2]


def test_the_lock_file_names_no_command_line_once_released(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run)
    cli = str(Path(sys.executable).with_name("credencegraph-extract"))
    arguments = json.dumps({"model": "m", "note": f"a note naming {tmp_path}", "records": [RECORD]})
    done = subprocess.run([cli, "tool", "classify", "--run", str(run), "--args", arguments], capture_output=True)
    assert done.returncode == 0, done.stderr
    lock = (run / ".lock").read_bytes()
    assert str(tmp_path).encode() not in lock  # before: the holder's whole command line, --args included
    assert lock.strip() == b""


def test_no_file_of_a_run_holds_a_local_path_the_lock_included(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run, store_source=True)
    call(run, "classify", records=[RECORD])
    for name, data in tree(run).items():
        assert str(tmp_path).encode() not in data, name


@pytest.mark.parametrize("wait", ["nan", "inf", "-1", "1e9", "soon"])
def test_wait_takes_a_finite_number_of_seconds(tmp_path: Path, wait: str) -> None:
    cli = str(Path(sys.executable).with_name("credencegraph-extract"))
    done = subprocess.run(
        [cli, "tool", "get_state", "--run", str(tmp_path / "run"), "--wait", wait],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error [usage]: argument --wait: --wait takes ")


def test_the_lock_refuses_a_wait_that_is_not_a_finite_number(tmp_path: Path) -> None:
    from cgx_core.errors import CgxError
    from cgx_core.run.lock import RunLock

    for wait in (float("nan"), float("inf"), -1.0, 3600.001, 1e9):
        with pytest.raises(CgxError) as refused:
            RunLock(tmp_path / ".lock", wait_seconds=wait)
        assert refused.value.code == "invalid-arguments"
        assert "from 0 to 3600" in refused.value.message


def test_the_lock_takes_every_wait_up_to_its_documented_cap_of_an_hour(tmp_path: Path) -> None:
    """The cap is docs/guarantees.md's 3600 s, and its edges are inside it (a mutant of the bound fails)."""
    from cgx_core.run.lock import MAX_WAIT_SECONDS, RunLock

    assert MAX_WAIT_SECONDS == 3600
    for wait in (0.0, 0.5, 3600.0):
        RunLock(tmp_path / ".lock", wait_seconds=wait)  # accepted: nothing raised, nothing taken yet


def test_a_lock_this_very_process_holds_is_not_named_as_a_stranger_to_unlock(tmp_path: Path) -> None:
    """A server whose cancelled call is still stopping refuses a retry as its own earlier call, not as
    'process <its own pid>' to be unlocked."""
    import os

    from cgx_core.errors import CgxError
    from cgx_core.run.lock import RunLock

    lock = tmp_path / ".lock"
    with RunLock(lock, wait_seconds=0), pytest.raises(CgxError) as refused, RunLock(lock, wait_seconds=0):
        pass
    assert refused.value.code == "run-locked"
    assert f"process {os.getpid()}" not in refused.value.message and "unlock RUN" not in refused.value.message
    assert "this same process" in refused.value.message and "again in a moment" in refused.value.message
    with RunLock(lock, wait_seconds=0):  # both released
        pass


def test_the_next_call_removes_what_an_uncommitted_check_left_and_follows_no_link(tmp_path: Path) -> None:
    # A call killed between writing its check's files and its commit leaves checks/c-NNN (a writer's temp file
    # in it too); the next call removes the folder whole. A link named like a check is never followed into.
    run = tmp_path / "run"
    start_example(run)
    call(run, "classify", records=[RECORD])
    left = run / "checks" / "c-001"
    left.mkdir(parents=True)
    (left / "inputs.json").write_text("{}")
    (left / ".output.json.tmp-4242").write_text("half")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    (run / "checks" / "c-002").symlink_to(outside, target_is_directory=True)
    (run / ".state.json.tmp-4242").write_text("half")
    call(run, "classify", records=[{"node": "s-10", "type": "derivation"}])
    assert not left.exists() and not (run / ".state.json.tmp-4242").exists()
    assert (outside / "keep.txt").read_text() == "mine"
