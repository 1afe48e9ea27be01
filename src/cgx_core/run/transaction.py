"""One run, opened: reading its state, and the transaction every changing call goes through.

A changing call takes the lock, brings the state up to the log (cutting a torn tail, applying lines
that were committed but not yet derived), computes its effect in memory, writes its artifacts, commits
one log line, and only then writes the derived files. A crash at any point leaves either the old run or
a log line that the next call completes: nothing a committed line records is lost.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from cgx_core.base.digests import bytes_digest, json_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.digest import GraphDigester
from cgx_core.run import log
from cgx_core.run.atomic import write_atomic
from cgx_core.run.call_control import checkpoint
from cgx_core.run.layout import RunPaths
from cgx_core.run.manifest import left_finished, read_manifest
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
    """A committed call's result, what recovery repaired before it, and whether writing its derived files
    failed after the commit (both reported, never digested)."""

    result: Mapping[str, Any]
    recovery: Mapping[str, Any] | None
    underived: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = dict(self.result)
        if self.recovery:
            out["recovery"] = dict(self.recovery)
        if self.underived:
            out["committed_but"] = self.underived
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
_CHAINS: dict[Path, tuple[tuple[int, int, int], int, str | None]] = {}
"""The log's signature when its hash chain was last checked (or extended by this process), and where it ended."""


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
        self.set_aside: str | None = None
        """Why the last read of state.json set it aside and rebuilt the state from the log, if it did."""

    def _has_committed_call(self) -> bool:
        try:
            with self.paths.log.open("rb") as handle:
                return b"\n" in handle.read(1 << 16) or handle.read(1) != b""
        except FileNotFoundError:
            return False

    @cached_property
    def rubric(self) -> Rubric:
        """The run's rubric, loaded from its byte copy (once per process while the file is unchanged)."""
        from cgx_core.graph.rubric import load_rubric_bytes

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
        checked, else parsed and checked against the log's line it says it reflects. A state.json that is
        missing (the file system lost it), unreadable, ahead of the log, or disagreeing with that line (an
        edit) is set aside and the state rebuilt from the log; `set_aside` then says why."""
        self.set_aside = None
        try:
            signature = _signature(self.paths.state)
        except FileNotFoundError:
            return self.initial_state()
        cached = _STATES.get(self._key)
        trusted = cached is not None and cached[0] == signature
        stored: Mapping[str, Any] | None = None
        if cached is not None and trusted:
            state = cached[1]
        else:
            try:
                data = read_state_json(self.paths.state)
                state = state_from_json(data)
            except FileNotFoundError:
                return self.initial_state()
            except CgxError as error:
                self.set_aside = error.message
                return self.initial_state()
            stored = data["graph"]
        self.set_aside = self._disagreement(state, stored)
        if self.set_aside is not None:
            return self.initial_state()
        if not trusted:
            _STATES[self._key] = (signature, state)
        return state

    def _disagreement(self, state: RunState, stored: Mapping[str, Any] | None) -> str | None:
        """Why `state` is not the state after the log's line it names, or None. The line's digest is checked
        every time; a state.json not read before (`stored`, the graph's JSON as read) is also checked against
        what that line recorded: its sequence number, the digest of the graph it left, and whether it finished
        the run."""
        if state.run != self.id:
            return "state.json belongs to another run"
        if state.seq == 0:
            return None
        raw = log.line_ending_at(self.paths.log, state.log_end)
        if raw is None:
            return f"state.json reflects call {state.seq}, which the log no longer holds (lost or deleted)"
        if bytes_digest(raw) != state.last:
            return f"state.json reflects another call {state.seq} than the log's line (one of the two was edited)"
        if stored is not None:
            line = log.parse_line(raw)
            if (
                line is None
                or line.seq != state.seq
                or left_finished(line, state.last, self.manifest) != state.finished
                or not self._graph_is(state.graph, stored, line.graph)
            ):
                return f"state.json is not the state call {state.seq} left (its graph or fields were edited)"
        return None

    def _graph_is(self, graph: Graph, stored: Mapping[str, Any], digest: str) -> bool:
        """Whether the graph built from `stored` has `digest`: from the JSON as read when it matches (see
        `GraphDigester.adopt`), else from the graph itself (JSON that differs only in ways the graph does not
        keep, such as its keys' order, still names the same graph)."""
        return self._digester.adopt(graph, stored, digest) or self.graph_digest(graph) == digest

    def _check_chain(self, state: RunState) -> None:
        """Check the log's whole hash chain up to the line `state` reflects, once per version of the file
        in this process: a line rewritten or deleted anywhere stops every changing call (`run-corrupt`)."""
        if state.seq == 0:
            return  # rebuilt from the log's first line: the scan that follows checks the whole chain
        signature = _signature(self.paths.log)
        if _CHAINS.get(self._key) == (signature, state.log_end, state.last):
            return
        log.check_chain(self.paths.log, state.log_end, state.last)
        _CHAINS[self._key] = (signature, state.log_end, state.last)

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
            self._remove_uncommitted_checks(state)
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
            _CHAINS[self._key] = (_signature(self.paths.log), entry.end, entry.digest)  # the chain, extended
            state = state.advance(effect, tool=call.tool, end=entry.end, digest=entry.digest)
            underived = None
            try:
                self._derive(state, effect)
            except OSError as error:
                # The call is committed: an io-error here would make the agent make it again, and apply it twice.
                underived = (
                    f"call {state.seq} is committed (its line is in calls.jsonl), but writing the files derived "
                    f"from it failed ({error.strerror or error}): do not make this call again. Free the disk "
                    "space; the next changing call writes them (get_state already reads the run as it stands)"
                )
        return Response(effect.result, recovery, underived)

    def _remove_stale_temporaries(self) -> None:
        """Remove the temp files a writer killed mid-write left behind in the run's folder. Every writer holds
        the lock, so while we hold it none of them is anyone's. A check's folder holds one only when the call
        writing it was killed before its commit, and such a folder goes whole (`_remove_uncommitted_checks`):
        globbing every check's folder made each call's cost grow with the run's checks."""
        for path in self.paths.root.glob(".*.tmp-*"):
            path.unlink(missing_ok=True)

    def _remove_uncommitted_checks(self, state: RunState) -> None:
        """Remove each checks/c-NNN folder of no node of the committed graph: a call killed between writing
        its check's files and its commit left it. Verify refuses a finished run with a folder no check names
        (it could be a forger's), so none may outlive the next call. One read of checks/ (the entries' types
        come with their names): no `stat` per check."""
        try:
            entries = list(os.scandir(self.paths.checks))
        except (FileNotFoundError, NotADirectoryError):
            return
        for entry in entries:
            if entry.name not in state.graph.nodes and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)

    def _recover(self) -> tuple[RunState, dict[str, Any] | None]:
        state = self._stored_state()
        self._check_chain(state)
        found = log.scan(self.paths.log, state.log_end, state.seq + 1, state.last)
        self._require_start(state, found)
        recovery: dict[str, Any] = {}
        if self.set_aside is not None and found.entries:
            recovery["state"] = f"{self.set_aside}: rebuilt from the log"
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
        """Write what follows from a committed call: the finished files (and, in the manifest, their digests
        and the log's length and head digest, which verify and replay check), then state.json."""
        from cgx_core.run.manifest import write_manifest

        finished = None
        if effect.finished:
            files = {name: bytes_digest(data) for name, data in sorted(effect.derived.items())}
            if "graph.json" not in files:  # a call that left a finished run finished: the finish's files stay
                kept = self.manifest.get("finished") or {}
                files = dict(sorted({**kept.get("files", {}), **files}.items()))
            # The log's anchor: verify and replay refuse a log that is not exactly this long, with this head.
            anchor = {"calls": state.seq, "bytes": state.log_end, "head": state.last}
            finished = {"seq": state.seq, "files": files, "log": anchor}
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
