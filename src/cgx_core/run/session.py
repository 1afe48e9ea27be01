"""One run, opened: reading its state, and the transaction every changing call goes through.

A changing call takes the lock, brings the state up to the log (cutting a torn tail, applying lines
that were committed but not yet derived), computes its effect in memory, writes its artifacts, commits
one log line, and only then writes the derived files. A crash at any point leaves either the old run or
a log line that the next call completes: nothing a committed line records is lost.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from cgx_core.call_control import checkpoint
from cgx_core.codes import Code
from cgx_core.digests import bytes_digest, json_digest
from cgx_core.errors import CgxError
from cgx_core.graphs import GraphDigester
from cgx_core.run import log
from cgx_core.run.atomic import write_atomic
from cgx_core.run.layout import RunPaths
from cgx_core.run.manifest import read_manifest
from cgx_core.run.state import Effect, RunState, read_state_json, state_bytes, state_from_json

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

Mode = Literal["live", "recover", "replay"]


@attrs.frozen
class Call:
    """A changing call as the log records it."""

    tool: str
    args: Mapping[str, Any]
    model: str
    agent: str | None = None
    note: str | None = None


@attrs.frozen
class CallContext:
    """What a handler may know besides the state: the run, the sequence number its call takes, and why
    it runs (`live`: an agent's call; `recover`: completing a committed line; `replay`: rebuilding)."""

    run: Run
    seq: int
    mode: Mode
    model: str
    line: log.LogLine | None = None
    sources: Callable[[str], bytes | None] | None = None
    """In replay: the stored bytes of a fetched source, by digest."""


Handler = Callable[[CallContext, RunState, Mapping[str, Any]], Effect]
Resolver = Callable[[str], Handler]


@attrs.frozen
class Response:
    """A committed call's result, and what recovery repaired before it (reported, never digested)."""

    result: Mapping[str, Any]
    recovery: Mapping[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        out = dict(self.result)
        if self.recovery:
            out["recovery"] = dict(self.recovery)
        return out


def _never_started(root: Path) -> CgxError:
    return CgxError(
        Code.NOT_A_RUN, f"'{root.name}' has no committed call: its start_run never finished; delete it and start again"
    )


def _signature(path: Path) -> tuple[int, int, int]:
    """What tells a file from its replacement: every write renames a new inode into place."""
    stat = path.stat()
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


# Per process, by run directory: a long-lived server does not re-read, re-parse or re-digest what it
# wrote itself. Each entry is checked against the file's signature before use, so another process's
# write is always seen.
_STATES: dict[Path, tuple[tuple[int, int, int], RunState]] = {}
_RUBRICS: dict[Path, tuple[tuple[int, int, int], Any]] = {}
_DIGESTERS: dict[Path, GraphDigester] = {}


class Run:
    """An existing run directory."""

    def __init__(self, root: Path, handlers: Resolver, *, creating: bool = False) -> None:
        self.paths = RunPaths(root)
        self.manifest = read_manifest(self.paths)
        if not creating and not self._has_committed_call():
            raise _never_started(root)
        self.id: str = self.manifest["run"]
        self._creating = creating
        self._handlers = handlers
        self._key = root.resolve()
        self._digester = _DIGESTERS.setdefault(self._key, GraphDigester())

    def _has_committed_call(self) -> bool:
        try:
            with self.paths.log.open("rb") as handle:
                return b"\n" in handle.read(1 << 16) or handle.read(1) != b""
        except FileNotFoundError:
            return False

    @cached_property
    def rubric(self) -> Rubric:
        """The run's rubric, loaded from its byte copy (once per process while the file is unchanged)."""
        from cgx_core.rubrics import load_rubric_bytes

        signature = _signature(self.paths.rubric)
        cached = _RUBRICS.get(self._key)
        if cached is not None and cached[0] == signature:
            return cached[1]
        rubric = load_rubric_bytes(self.paths.rubric.read_bytes(), self.paths.rubric.name)
        _RUBRICS[self._key] = (signature, rubric)
        return rubric

    @property
    def digester(self) -> GraphDigester:
        """This run's digester, shared by every Run object of the directory in this process."""
        return self._digester

    def graph_digest(self, graph: Graph) -> str:
        return self._digester.digest(graph)

    # -- reading ---------------------------------------------------------------------------------

    def initial_state(self) -> RunState:
        """The state before call 1: the ingested graph."""
        from credencegraph.core import load

        return RunState(self.id, 0, 0, None, load(self.paths.ingested), (), False)

    def _stored_state(self) -> RunState:
        """state.json as a RunState: from this process's cache while the file is the one it last wrote or
        read, else parsed; an unreadable state.json (the file system lost it) is rebuilt from the log."""
        try:
            signature = _signature(self.paths.state)
        except FileNotFoundError:
            return self.initial_state()
        cached = _STATES.get(self._key)
        if cached is not None and cached[0] == signature:
            state = cached[1]
        else:
            try:
                state = state_from_json(read_state_json(self.paths.state))
            except (FileNotFoundError, CgxError):
                return self.initial_state()
            _STATES[self._key] = (signature, state)
        if state.run != self.id or not self._log_holds(state):
            return self.initial_state()  # the state is ahead of a log that lost writes: rebuild from the log
        return state

    def _log_holds(self, state: RunState) -> bool:
        """Whether the log still ends a line at `state.log_end` with the digest `state.last`."""
        return state.seq == 0 or (
            state.last is not None and log.ends_with_line(self.paths.log, state.log_end, state.last)
        )

    def current(self) -> RunState:
        """The run as it stands, for a reader: committed lines not yet derived are applied in memory and
        a torn tail is ignored. Takes no lock and writes nothing."""
        state = self._stored_state()
        found = log.scan(self.paths.log, state.log_end, state.seq + 1, state.last)
        self._require_start(state, found)
        for entry in found.entries:
            state = self._apply(state, entry, write=False)
        return state

    def _require_start(self, state: RunState, found: log.Scan) -> None:
        """Refuse a run whose log holds no committed call 1 (its first line is torn or garbled: start_run
        never committed), before anything is cut: otherwise the next call would become call 1."""
        if state.seq == 0 and not found.entries and not self._creating:
            raise _never_started(self.paths.root)

    # -- changing ----------------------------------------------------------------------------------

    def change(self, call: Call, compute: Callable[[CallContext, RunState], Effect], *, wait: float) -> Response:
        """Run one changing call as a transaction (see the module docstring)."""
        from cgx_core.run.lock import RunLock

        with RunLock(self.paths.lock, wait_seconds=wait):
            self._remove_stale_temporaries()
            state, recovery = self._recover()
            context = CallContext(self, state.seq + 1, "live", call.model)
            effect = compute(context, state)
            checkpoint()  # the last place a cancelled call stops: nothing of it is written yet
            for name, data in sorted(effect.artifacts.items()):
                target = self.paths.root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(target, data)
            line = log.LogLine(
                seq=state.seq + 1,
                tool=call.tool,
                args=dict(call.args),
                model=call.model,
                agent=call.agent,
                note=call.note,
                read=effect.read,
                result=json_digest(effect.result),
                graph=self.graph_digest(effect.graph),
                prev=state.last,
            )
            entry = log.append(self.paths.log, line)
            state = state.advance(effect, tool=call.tool, end=entry.end, digest=entry.digest)
            self._derive(state, effect)
        return Response(effect.result, recovery)

    def _remove_stale_temporaries(self) -> None:
        """Remove the temp files a writer killed mid-write left behind. Every writer holds the lock, so
        while we hold it none of them is anyone's."""
        for pattern in (".*.tmp-*", "checks/*/.*.tmp-*"):
            for path in self.paths.root.glob(pattern):
                path.unlink(missing_ok=True)

    def _recover(self) -> tuple[RunState, dict[str, Any] | None]:
        state = self._stored_state()
        found = log.scan(self.paths.log, state.log_end, state.seq + 1, state.last)
        self._require_start(state, found)
        recovery: dict[str, Any] = {}
        if found.tail is not None:
            log.cut(self.paths.log, found.tail)
            recovery["cut"] = found.tail.to_json()
        for entry in found.entries:
            state = self._apply(state, entry, write=True)
        if found.entries:
            recovery["completed"] = [entry.line.seq for entry in found.entries]
        return state, recovery or None

    def _apply(self, state: RunState, entry: log.Entry, *, write: bool) -> RunState:
        """Apply a committed line again and check it gives what the line recorded."""
        line = entry.line
        handler = self._handlers(line.tool)
        effect = handler(CallContext(self, line.seq, "recover", line.model, line), state, line.args)
        if json_digest(effect.result) != line.result or self.graph_digest(effect.graph) != line.graph:
            raise CgxError(
                Code.RUN_CORRUPT,
                f"call {line.seq} ({line.tool}) applied again does not give the result and graph its log line "
                "recorded; replay the run to see how it diverges",
            )
        state = state.advance(effect, tool=line.tool, end=entry.end, digest=entry.digest)
        if write:
            self._derive(state, effect)
        return state

    def _derive(self, state: RunState, effect: Effect) -> None:
        """Write what follows from a committed call: the finished files (and their digests in the manifest,
        which verify checks them against), then state.json."""
        from cgx_core.run.manifest import write_manifest

        finished = None
        if effect.finished:
            files = {name: bytes_digest(data) for name, data in sorted(effect.derived.items())}
            finished = {"seq": state.seq, "files": files}
        if self.manifest.get("finished") != finished:
            manifest = {key: value for key, value in self.manifest.items() if key != "finished"}
            if finished is not None:
                manifest["finished"] = finished
            write_manifest(self.paths, manifest)
            self.manifest = manifest
        if not effect.finished:
            for path in self.paths.finished_files:
                if path.exists():
                    os.unlink(path)
        for name, data in sorted(effect.derived.items()):
            write_atomic(self.paths.root / name, data, durable=False)
        write_atomic(self.paths.state, state_bytes(state, self._digester), durable=False)
        _STATES[self._key] = (_signature(self.paths.state), state)
