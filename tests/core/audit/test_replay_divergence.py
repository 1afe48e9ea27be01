"""Replay names the first call whose graph differs from its log line, though every graph is digested from what
the process cached of the graphs before it (tests/core/graph/test_graph_digest_incremental.py proves the
digests equal). Each case first replays the run as it is, in the same directory and process, so the cache is
warm with the true run's graphs when the forged log is replayed; a forger who rechains the log is still
caught at the call they changed, and the anchor (not the calls) catches a finished run's forged last line."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.run.log import LogLine
from support import EXAMPLE_PREMISES, EXAMPLE_RECORDS, call, start_example

CALLS = 1 + len(EXAMPLE_RECORDS) + 2


def typed_in_order() -> list[dict[str, Any]]:
    """The example's records, each after the records of the nodes it rests on (a classify refuses a record
    that rests on a node not typed yet)."""
    done: set[str] = set()
    out: list[dict[str, Any]] = []
    while len(out) < len(EXAMPLE_RECORDS):
        for record in EXAMPLE_RECORDS:
            if record["node"] not in done and set(record.get("rests_on", ())) <= done:
                out.append(record)
                done.add(record["node"])
    return out


RECORDS = typed_in_order()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An unfinished run of 18 calls: start_run, one classify per chunk, the premises, one check."""
    run = tmp_path_factory.mktemp("replay-divergence") / "run"
    start_example(run, store_source=True)
    for record in RECORDS:
        assert call(run, "classify", records=[record])["refused"] == []
    assert call(run, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    proposals = [{"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"}]
    assert call(run, "run_checks", proposals=proposals)["refused"] == []
    assert len((run / "calls.jsonl").read_bytes().splitlines()) == CALLS
    return run


def logged(run: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run / "calls.jsonl").read_bytes().splitlines()]


def write_rechained(run: Path, lines: list[dict[str, object]]) -> None:
    """The log with every `prev` recomputed: a forger who knows the format."""
    out, previous = [], None
    for data in lines:
        raw = LogLine.from_json({**data, "prev": previous}).to_bytes()
        out.append(raw + b"\n")
        previous = bytes_digest(raw)
    (run / "calls.jsonl").write_bytes(b"".join(out))


def forge(run: Path, seq: int, **changes: object) -> dict[str, object]:
    """Rewrite call `seq`'s line (rechaining the log) after a replay of the true run warmed this process's
    cache; returns the true line."""
    assert replay(run, source=None, sources=None).identical
    lines = logged(run)
    true = lines[seq - 1]
    lines[seq - 1] = {**true, **changes}
    write_rechained(run, lines)
    return true


@pytest.fixture
def run(built: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(built, target)
    return target


@pytest.mark.parametrize("seq", sorted(random.Random(11).sample(range(2, CALLS + 1), 5)))
def test_a_forged_graph_digest_is_caught_at_its_call_with_the_true_digest_rebuilt(run: Path, seq: int) -> None:
    forged = "sha256:" + "ab" * 32
    true = forge(run, seq, graph=forged)
    report = replay(run, source=None, sources=None)
    assert not report.identical
    assert report.body == {
        "diverged": seq,
        "tool": true["tool"],
        "how": "its graph differs",
        "recorded": forged,
        "rebuilt": true["graph"],
    }


def test_a_forged_record_is_caught_at_its_call(run: Path) -> None:
    """A classify record typed otherwise, the line's digests left as they were: the call rebuilds another
    result (its result is compared first, then its graph)."""
    seq = 1 + next(n for n, record in enumerate(RECORDS, start=1) if record["node"] == "s-11")
    true = logged(run)[seq - 1]
    assert true["args"] == {"records": [{"node": "s-11", "type": "assumption"}]}
    forge(run, seq, args={"records": [{"node": "s-11", "type": "derivation"}]})
    report = replay(run, source=None, sources=None)
    assert (report.body["diverged"], report.body["tool"]) == (seq, "classify")
    assert report.body["how"] == "its result differs"


def test_the_graph_of_every_call_is_the_one_its_line_recorded_after_a_forgery_is_undone(run: Path) -> None:
    """The forged log's replay leaves nothing in the cache that hides the true run: undone, it replays
    identically, with the last line's graph digest."""
    original = (run / "calls.jsonl").read_bytes()
    forge(run, 5, graph="sha256:" + "cd" * 32)
    assert replay(run, source=None, sources=None).body["diverged"] == 5
    (run / "calls.jsonl").write_bytes(original)
    report = replay(run, source=None, sources=None)
    assert report.identical and report.body["graph"] == logged(run)[-1]["graph"]


def test_a_finished_run_whose_last_line_is_forged_and_rechained_is_refused_by_its_anchor(run: Path) -> None:
    """Replay checks the anchor against the very lines it applied (it no longer reads the log twice)."""
    assert call(run, "finish_run")["finished"] is True
    lines = logged(run)
    lines[-1] = {**lines[-1], "model": "other-model"}  # finish_run replays the same under another model's name
    assert replay(run, source=None, sources=None).identical  # the true run, warming the cache
    write_rechained(run, lines)
    with pytest.raises(CgxError) as refused:
        replay(run, source=None, sources=None)
    assert refused.value.code == Code.TAMPERED
    assert "is not the log the run finished with" in refused.value.message
