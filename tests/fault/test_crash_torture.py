"""Crash torture: SIGKILL a process in the middle of changing calls, at points drawn from a seeded
generator, and prove that the next call recovers the run without losing a committed call.

Each trial lays the reference run as it was after some call, and has a forked child make the next one to
three workload calls, killing itself just before or just after one of the file operations of those calls,
or halfway through writing the log line (a torn line). A quarter of the trials kill a second child
in the middle of the first one's recovery. Then, in this process:

- every committed line is the reference's line, byte for byte, and every call the child acknowledged
  (its result returned) is among them with the result digest the child saw;
- a reader (get_state) sees exactly the committed calls, without error;
- the next changing call reports the repair it made, exactly: the torn tail it cut (where and how many
  bytes) and the committed calls it completed (those past state.json);
- once the workload has gone on, every file of the run equals the reference's, byte for byte (the log
  included: the same calls gave the same results in the same order), and replay is identical.

`CGX_KILLS` sets the number of kills (default 40; the full run uses 500) and `CGX_KILL_SEED` the seed
(default 1); a failure names the seed and the trial, and the same two values reproduce it exactly.
"""

from __future__ import annotations

import json
import os
import random
import signal
from collections import Counter
from pathlib import Path
from typing import Any

from crash_workload import (
    LAST,
    PHASES,
    STEPS,
    Reference,
    advance,
    leftover_temps,
    read_acks,
    read_trace,
    run_files,
)
from fork_server import ForkServer

from cgx_core.audit.replay import replay
from cgx_core.tooling.registry import call_tool

KILLS = int(os.environ.get("CGX_KILLS", "40"))
SEED = int(os.environ.get("CGX_KILL_SEED", "1"))
CATEGORIES = (*PHASES, "any")
STARTS = LAST - 1  # a trial starts after 0..LAST-2 calls, so the last workload call is left to recover


class Trials:
    """The trials of one test: the reference, the fork server, and what the trials found."""

    def __init__(self, reference: Reference, server: ForkServer, folder: Path) -> None:
        self.reference = reference
        self.server = server
        self.folder = folder
        self.dry: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self.killed: Counter[str] = Counter()
        self.tools: Counter[str] = Counter()
        self.repairs: Counter[str] = Counter()
        self.leftovers = 0

    def round(self, run: Path, name: str, end: int, kill: dict[str, Any] | None) -> tuple[int, list[dict[str, Any]]]:
        files = {part: str(run.parent / f"{name}.{part}") for part in ("trace", "acks", "output")}
        status = self.server.round({"run": str(run), "end": end, "kill": kill, **files})
        if status not in (0, -signal.SIGKILL):
            output = Path(files["output"]).read_text(encoding="utf-8", errors="replace")
            raise AssertionError(f"the child failed with status {status}:\n{output}")
        return status, read_trace(Path(files["trace"]))

    def events(self, start: int, end: int) -> list[dict[str, Any]]:
        """The events of calls start..end-1 made without a crash (computed once, checked against the reference)."""
        if (start, end) not in self.dry:
            folder = self.folder / f"dry-{start}-{end}"
            folder.mkdir()
            run = folder / "run"
            self.reference.copy(start, run)
            status, events = self.round(run, "dry", end, None)
            assert status == 0
            assert run_files(run) == self.reference.files(end), "a child's calls differ from the reference's"
            self.dry[start, end] = events
        return self.dry[start, end]


def plan(trial: int, rng: random.Random, trials: Trials) -> dict[str, Any]:
    """Where trial `trial` starts, ends and is killed: every start is paired with every phase in turn."""
    start = trial % STARTS
    category = CATEGORIES[(trial // STARTS) % len(CATEGORIES)]
    end = rng.randint(start + 1, min(start + 3, LAST - 1))
    events = trials.events(start, end)
    pool = [event for event in events if category in ("any", event["phase"])] or events
    event = rng.choice(pool)
    torn = event["phase"] == "append" and rng.random() < 0.75
    how = "torn" if torn else rng.choice(("before", "after"))
    kill = {"at": event["at"], "how": how, "cut": rng.random()}
    second = None
    if rng.random() < 0.25:
        # the second child's first events are its recovery of the first one's crash
        second = {"at": rng.randint(1, 12), "how": rng.choice(("before", "after", "torn")), "cut": rng.random()}
    return {"start": start, "end": end, "kill": kill, "second": second}


def expected_recovery(run: Path) -> tuple[bytes, list[bytes], dict[str, Any] | None]:
    """The committed bytes, their lines, and the repair the next changing call must report."""
    log_path = run / "calls.jsonl"
    raw = log_path.read_bytes() if log_path.exists() else b""
    complete = raw[: raw.rfind(b"\n") + 1]
    lines = complete.splitlines()
    if not lines:
        return complete, lines, None
    state_path = run / "state.json"
    derived = json.loads(state_path.read_bytes())["seq"] if state_path.exists() else 0
    expected: dict[str, Any] = {}
    if len(raw) > len(complete):
        reason = "the last line has no newline"
        expected["cut"] = {"cut_at_byte": len(complete), "bytes": len(raw) - len(complete), "reason": reason}
    if len(lines) > derived:
        expected["completed"] = list(range(derived + 1, len(lines) + 1))
    return complete, lines, expected or None


def check_trial(trials: Trials, run: Path, acks: list[dict[str, Any]], end: int, where: str) -> None:
    reference = trials.reference
    complete, lines, expected = expected_recovery(run)
    assert complete == reference.log[: len(complete)], f"{where}: a committed line differs from the reference"
    for ack in acks:
        seq = ack["step"] + 1
        assert seq <= len(lines), f"{where}: acknowledged call {seq} ({ack['tool']}) is not in the log"
        line = json.loads(lines[seq - 1])
        assert (line["tool"], line["note"], line["result"]) == (ack["tool"], ack["note"], ack["result"]), where
    seen, is_error = call_tool("get_state", {"run": str(run), "limit": 1})
    if lines:
        assert not is_error, f"{where}: a reader cannot read the killed run: {seen}"
        assert seen["progress"]["calls"] == len(lines), where
    else:
        assert is_error and seen["error"]["code"] in ("run-not-found", "not-a-run"), f"{where}: {seen}"
        assert not acks, where
    results: list[dict[str, Any]] = []
    advance(run, end + 1, lambda step, payload: results.append(payload))
    assert results, where
    assert results[0].get("recovery") == expected, f"{where}: the repair reported is not the one the files need"
    assert all("recovery" not in result for result in results[1:]), where
    for name in expected or {}:
        trials.repairs[name] += 1
    assert run_files(run) == reference.files(end + 1), f"{where}: the recovered run differs from the reference"
    leftovers = leftover_temps(run)
    trials.leftovers += len(leftovers)
    report = replay(run, source=None, sources=None)
    assert report.identical, f"{where}: replay differs: {report.body}"


def killed_event(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(event for event in events if event["outcome"].startswith("killed"))


def test_sigkill_at_seeded_points_loses_no_committed_call_and_recovery_is_exact(
    crash_reference: Reference, fork_server: ForkServer, tmp_path: Path, pinned: None
) -> None:
    trials = Trials(crash_reference, fork_server, tmp_path)
    rng = random.Random(SEED)
    kills = 0
    trial = 0
    while kills < KILLS:
        where = f"CGX_KILL_SEED={SEED}, trial {trial}"
        chosen = plan(trial, rng, trials)
        folder = tmp_path / f"trial-{trial}"
        folder.mkdir()
        run = folder / "run"
        crash_reference.copy(chosen["start"], run)
        status, events = trials.round(run, "first", chosen["end"], chosen["kill"])
        assert status == -signal.SIGKILL, f"{where}: the child was not killed at {chosen['kill']}"
        kills += 1
        event = killed_event(events)
        trials.killed[f"{event['phase']} ({event['outcome']})"] += 1
        trials.tools[STEPS[event["step"]][0] if event["step"] >= 0 else "restart"] += 1
        acks = read_acks(folder / "first.acks")
        if chosen["second"] is not None:
            status, events = trials.round(run, "second", chosen["end"], chosen["second"])
            if status == -signal.SIGKILL:
                kills += 1
                event = killed_event(events)
                trials.killed[f"second crash, {event['phase']} ({event['outcome']})"] += 1
            acks += read_acks(folder / "second.acks")
        check_trial(trials, run, acks, chosen["end"], f"{where} {chosen}")
        trial += 1
    print(
        f"\ncrash torture: {kills} kills in {trial} trials (seed {SEED});"
        f" killed in: {dict(sorted(trials.killed.items()))};"
        f" tools: {dict(sorted(trials.tools.items()))}; repairs: {dict(trials.repairs)};"
        f" temp files left by killed writers: {trials.leftovers}"
    )
    if trial >= STARTS * len(PHASES):
        # by construction every start met every phase: each phase and each changing tool was killed
        phases = {name.split(" ")[0] for name in trials.killed if not name.startswith("second")}
        assert phases == set(PHASES)
        assert {tool for tool, _ in STEPS} <= set(trials.tools)
        assert trials.repairs["cut"] and trials.repairs["completed"]
