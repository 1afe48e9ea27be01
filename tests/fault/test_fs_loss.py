"""The file system loses unsynced writes: recovery keeps a prefix of the log holding every acknowledged call.

A call is acknowledged once its line is fsynced: the log up to the end of line c-1 is durable when call c
is in flight, and only one call is ever in flight (the lock). So a power cut during call c can leave line
c dropped, cut short, zeroed (the file grown but its data never written), or garbled, with or without a
newline after it; and because the derived files' renames are not fsynced through their directory,
state.json and the other derived files can be those after call c (ahead of the damaged log), those after
call c-1, or state.json can be missing. Each trial builds such a run from the reference and checks:

- a reader sees the c-1 acknowledged calls, without error (or, when call 1 itself was lost, that the run
  never started, and nothing else);
- the next changing call cuts exactly the damaged bytes, reports it, and commits as call c;
- the log is then the reference's, byte for byte, every file equals the reference's, and replay is
  identical.

`CGX_LOSSES` sets the number of trials (default 60; the full run uses 500), `CGX_KILL_SEED` the seed.
"""

from __future__ import annotations

import os
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from crash_workload import LAST, Reference, advance, run_files

from cgx_core.audit.replay import replay
from cgx_core.tooling.registry import call_tool

LOSSES = int(os.environ.get("CGX_LOSSES", "60"))
SEED = int(os.environ.get("CGX_KILL_SEED", "1"))
DAMAGES = ("drop", "zero", "garble", "zero-extend", "garble-newline")
STATES = ("ahead", "behind", "missing")


def damage(line: bytes, how: str, rng: random.Random) -> bytes:
    """What the file system kept of an unsynced line: a prefix, then nothing, zeros or noise."""
    keep = rng.randrange(0, len(line))  # at least the newline is lost
    lost = len(line) - keep
    noise = bytes(rng.randrange(256) for _ in range(lost))
    return (
        line[:keep]
        + {
            "drop": b"",
            "zero": bytes(lost),
            "garble": noise,
            "zero-extend": bytes(lost + rng.randint(1, 4096)),
            "garble-newline": noise + b"\n",
        }[how]
    )


def lay(reference: Reference, run: Path, lost: int, renames: str, state: str, tail: bytes) -> None:
    """The run after a power cut during call `lost`: the durable log, the damaged tail, derived files."""
    kept = lost if renames == "kept" or lost == 1 else lost - 1
    reference.copy(kept, run)
    (run / "calls.jsonl").write_bytes(reference.log[: durable(reference, lost)] + tail)
    if state == "missing":
        (run / "state.json").unlink()
    elif state == "ahead" and kept != lost:
        shutil.copyfile(reference.snapshots[lost] / "state.json", run / "state.json")  # type: ignore[operator]
    elif state == "behind" and lost > 1:
        shutil.copyfile(reference.snapshots[lost - 1] / "state.json", run / "state.json")  # type: ignore[operator]


def durable(reference: Reference, lost: int) -> int:
    return reference.line_ends[lost - 2] if lost > 1 else 0


def test_a_log_that_lost_unsynced_writes_recovers_to_a_prefix_with_every_acknowledged_call(
    crash_reference: Reference, tmp_path: Path, pinned: None
) -> None:
    rng = random.Random(SEED)
    seen: Counter[str] = Counter()
    for trial in range(LOSSES):
        lost = trial % LAST + 1  # the call in flight when the power went
        how = DAMAGES[(trial // LAST) % len(DAMAGES)]
        renames = rng.choice(("kept", "lost"))
        state = rng.choice(STATES)
        start, end = durable(crash_reference, lost), crash_reference.line_ends[lost - 1]
        tail = damage(crash_reference.log[start:end], how, rng)
        where = f"CGX_KILL_SEED={SEED}, trial {trial}: call {lost} lost ({how}, renames {renames}, state {state})"
        run = tmp_path / f"trial-{trial}" / "run"
        lay(crash_reference, run, lost, renames, state, tail)

        seen_state, is_error = call_tool("get_state", {"run": str(run), "limit": 1})
        if lost == 1:
            assert is_error and seen_state["error"]["code"] == "not-a-run", f"{where}: {seen_state}"
        else:
            assert not is_error, f"{where}: {seen_state}"
            assert seen_state["progress"]["calls"] == lost - 1, where
        results: list[dict[str, Any]] = []
        advance(run, lost, lambda step, payload, into=results: into.append(payload))
        assert len(results) == 1, where
        recovery = results[0].get("recovery") or {}
        if tail and lost > 1:
            assert recovery.get("cut", {}).get("cut_at_byte") == start, f"{where}: {recovery}"
            assert recovery["cut"]["bytes"] == len(tail), where
            seen[f"cut ({recovery['cut']['reason'].split(' call')[0]})"] += 1
        else:
            assert "cut" not in recovery, where
        if "completed" in recovery:
            assert recovery["completed"] == list(range(recovery["completed"][0], lost)), where
            seen["completed"] += 1
        assert (run / "calls.jsonl").read_bytes() == crash_reference.log[:end], f"{where}: the log is not the prefix"
        assert run_files(run) == crash_reference.files(lost), f"{where}: the run differs from the reference"
        report = replay(run, source=None, sources=None)
        assert report.identical, f"{where}: {report.body}"
        seen[how] += 1
    print(f"\nfile-system loss: {LOSSES} trials (seed {SEED}): {dict(sorted(seen.items()))}")


def test_a_garbled_tail_that_still_parses_as_json_is_cut_not_committed(
    crash_reference: Reference, tmp_path: Path, pinned: None
) -> None:
    # The file system kept line 3 whole but garbled its newline into a space and a newline: the JSON parses
    # and chains, yet these are not the bytes that were written, so line 3 was never acknowledged.
    run = tmp_path / "run"
    lay(crash_reference, run, 3, "lost", "behind", b"")
    start, end = durable(crash_reference, 3), crash_reference.line_ends[2]
    with (run / "calls.jsonl").open("ab") as handle:
        handle.write(crash_reference.log[start : end - 1] + b" \n")
    assert call_tool("get_state", {"run": str(run), "limit": 1})[0]["progress"]["calls"] == 2
    results: list[dict[str, Any]] = []
    advance(run, 3, lambda step, payload: results.append(payload))
    assert results[0]["recovery"]["cut"] == {
        "cut_at_byte": start,
        "bytes": end - start + 1,
        "reason": "the line after call 2 is not valid",
    }
    assert (run / "calls.jsonl").read_bytes() == crash_reference.log[:end]
