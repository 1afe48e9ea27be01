"""The check engine: proposals in, evidence nodes `c-NNN` out.

Everything that is the same for every check type lives here, so a plugin only says what is particular to
its type (see `cgx_core.checks.api`). A proposal runs only when its type is installed, the rubric declares
it, and the declaration's `targets` list the target's type (credencegraph parses `targets` but does not
enforce it). Checks are append-only: never withdrawn and never run again on their target, so a failed
check stays observed; two proposals that would pass or fail together are one observation, not two.

A check that ran becomes an evidence node of its type, `target --observes--> c-NNN` with the rubric's
sensitivity and false_pass, and the files `checks/c-NNN/{inputs.json,output.json,log.txt}`. Those files
are written before the call commits, so a call completed from the log after a crash reuses the recorded
outcome instead of running the check again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.base.digests import bytes_digest, canonical_json, hex_of, json_digest
from cgx_core.base.json_schema import problems
from cgx_core.base.json_values import json_kind
from cgx_core.checks import premises as premised
from cgx_core.checks.api import Outcome, Prepared, Refusal
from cgx_core.checks.guard import GuardedCheckType, PluginFailed
from cgx_core.checks.installed import CheckTypeRegistry, distribution_version, installed_check_types
from cgx_core.checks.view import GraphRunView
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph import extraction
from cgx_core.graph.edit import copy_graph
from cgx_core.graph.evidence import EVIDENCE, check_record
from cgx_core.numbers.tolerances import run_tolerances
from cgx_core.refusals import ItemRefused
from cgx_core.run import call_control
from cgx_core.run.state import Effect, RunState

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

    from cgx_core.run.transaction import CallContext

STATEMENT = "{type} on {target}: {result}"


@attrs.frozen
class Existing:
    """A check already in the graph, as the rules about duplicates need it."""

    id: str
    type: str
    target: str
    slot: str
    result: str
    observation: str


def check_id(number: int) -> str:
    return f"c-{number:03d}"


def _named_node(proposal: Any) -> str | None:
    """The node a proposal names as its target, if it names one (a refusal reports it)."""
    target = proposal.get("target") if isinstance(proposal, dict) else None
    return target if isinstance(target, str) else None


def existing_checks(graph: Graph, registry: CheckTypeRegistry) -> list[Existing]:
    """The check nodes of a graph, in order."""
    found = []
    for node in graph:
        record = check_record(node.attributes)
        if record is None:
            continue
        installed = registry.get(node.kind)
        try:
            slot = installed.check_type.slot_of(record.get("inputs", {})) if installed else ""
        except PluginFailed:  # its plugin cannot say now: a slot of its own, so it blocks nothing
            slot = node.id
        found.append(
            Existing(
                node.id,
                node.kind,
                str(record.get("target")),
                slot,
                str(record.get("result")),
                str(record.get("observation")),
            )
        )
    return found


def check_files(record_inputs: Mapping[str, Any], outcome: Outcome) -> dict[str, bytes]:
    stored = {
        "result": outcome.result,
        "detail": outcome.detail,
        "code": outcome.code,
        "output": dict(outcome.output),
        "libraries": dict(outcome.libraries),
        "read": outcome.read,
    }
    if outcome.notices:
        stored["notices"] = [dict(notice) for notice in outcome.notices]
    return {
        "inputs.json": json.dumps(dict(record_inputs), indent=2, ensure_ascii=False, sort_keys=True).encode() + b"\n",
        "output.json": json.dumps(stored, indent=2, ensure_ascii=False, sort_keys=True).encode() + b"\n",
        "log.txt": outcome.log.encode("utf-8"),
    }


def recorded_detail(outcome: Outcome) -> str:
    """The detail a check record holds: an error's detail starts with its code, so a person reading it
    can tell why it erred (a program reads the record's `code`)."""
    return f"{outcome.code}: {outcome.detail}" if outcome.result == "error" and outcome.code else outcome.detail


def recorded_code(outcome: Outcome) -> str | None:
    """The code a check record holds (`code`): an error's code, the only one a record keeps. Records made
    before the field existed hold none; their detail still starts with the code."""
    return outcome.code if outcome.result == "error" and outcome.code else None


def files_digest(files: Mapping[str, bytes]) -> str:
    """The digest of a check's directory: its file names with the digest of each."""
    return json_digest({name: bytes_digest(data) for name, data in sorted(files.items())})


def outcome_from_files(inputs: bytes, output: bytes, log: bytes) -> tuple[dict[str, Any], Outcome]:
    """A recorded check read back from `checks/c-NNN/`."""
    stored = json.loads(output)
    outcome = Outcome(
        result=stored["result"],
        detail=stored["detail"],
        output=stored["output"],
        log=log.decode("utf-8"),
        libraries=stored["libraries"],
        code=stored["code"],
        read=stored["read"],
        notices=stored.get("notices", ()),
    )
    return json.loads(inputs), outcome


class Proposals:
    """One call's proposals, applied in the order given to a copy of the graph."""

    def __init__(self, context: CallContext, state: RunState, tool: str) -> None:
        self.context = context
        self.run = context.run
        self.rubric: Rubric = context.run.rubric
        self.registry = installed_check_types()
        self.tool = tool
        self.graph = copy_graph(state.graph)
        self.existing = existing_checks(state.graph, self.registry)
        self.number = len(self.existing) + 1
        self.checks: list[dict[str, Any]] = []
        self.refused: list[dict[str, Any]] = []
        self.artifacts: dict[str, bytes] = {}
        self.reads: dict[str, Any] = {}
        self.recorded: Mapping[str, Any] = {}
        if context.line is not None and isinstance(context.line.read, Mapping):
            self.recorded = context.line.read
        cited = {item["name"]: item["digest"] for item in self.run.manifest.get("cited", [])}
        self.view = GraphRunView(
            self.graph,
            "replay" if context.mode == "replay" else "live",
            root=self.run.paths.root,
            cited_digests=cited,
            sources=context.sources,
            offline=self.run.manifest.get("offline_sources", {}).get("sources", ()),
            tolerances=run_tolerances(self.run.paths.root, self.run.manifest),
        )

    # -- the rules every type shares ------------------------------------------------------------------

    def _declared_for(self, tool: str) -> list[str]:
        return [
            name
            for name in self.rubric.checks
            if (item := self.registry.get(name)) is not None
            and item.check_type.tool == tool
            and item.check_type.fallback_for is None
        ]

    def _shape_problems(self, proposal: Any) -> list[ItemRefused]:
        """What is wrong with a proposal's `type` and `target` as JSON (none for a well-formed one)."""
        choose = f"<one of {self._declared_for(self.tool)}>"
        if not isinstance(proposal, dict):
            return [
                ItemRefused(
                    Code.PROPOSAL_INVALID,
                    "a proposal is a JSON object with a string 'type' and a string 'target'",
                    f'send {{"type": {choose}, "target": <node id>, ...its fields}}',
                )
            ]
        found = []
        for name, fix in (("type", f"give 'type': {choose}"), ("target", "give 'target': the id of the node to check")):
            if not isinstance(proposal.get(name), str):
                got = "nothing" if name not in proposal else json_kind(proposal[name])
                message = f"a proposal's '{name}' must be a string, got {got}"
                found.append(ItemRefused(Code.PROPOSAL_INVALID, message, fix))
        return found

    def _type_problems(self, kind: str) -> tuple[GuardedCheckType | None, list[ItemRefused]]:
        """The check type a proposal names when this tool can propose it (its schema then checks the
        fields, even when the rubric does not declare it), and what is wrong with the type."""
        installed = self.registry.get(kind)
        if installed is None:
            return None, [
                ItemRefused(
                    Code.CHECK_TYPE_UNKNOWN,
                    f"no installed plugin provides check type '{kind}'{self.registry.invalid_note()}",
                    f"use one of {self._declared_for(self.tool)}",
                )
            ]
        found = []
        if kind not in self.rubric.checks:
            found.append(
                ItemRefused(
                    Code.CHECK_TYPE_UNDECLARED,
                    f"the rubric's [checks] table does not declare '{kind}'",
                    f"use one of {self._declared_for(self.tool)}, or a rubric that declares [checks.{kind}]",
                )
            )
        check_type = installed.check_type
        if check_type.fallback_for is not None:
            message = f"'{kind}' runs only when a '{check_type.fallback_for}' check on the same step errs"
            fix = f"propose '{check_type.fallback_for}' with the same fields; if it cannot decide, '{kind}' runs itself"
            return None, [*found, ItemRefused(Code.PROPOSAL_INVALID, message, fix)]
        if check_type.tool != self.tool:
            message = f"'{kind}' is proposed through {check_type.tool}, not {self.tool}"
            return None, [
                *found,
                ItemRefused(Code.CHECK_WRONG_TOOL, message, f"call {check_type.tool} for it"),
            ]
        return check_type, found

    def _field_problem(self, check_type: GuardedCheckType, proposal: Mapping[str, Any]) -> ItemRefused | None:
        """Every field of the proposal its type's schema does not accept, named at once."""
        fields = {name: value for name, value in proposal.items() if name not in ("type", "target", premised.FIELD)}
        schema = {"type": "object", **check_type.proposal_schema}
        found = problems(fields, schema, "$")
        if not found:
            return None
        return ItemRefused(
            Code.PROPOSAL_INVALID,
            "; ".join(found),
            f"a {check_type.name} proposal has the fields {sorted(schema.get('properties', {}))}"
            if schema.get("properties")
            else f"a {check_type.name} proposal has no fields besides type and target",
        )

    def _problems(self, proposal: Any) -> tuple[GuardedCheckType | None, list[ItemRefused]]:
        """The proposal's check type, and every problem that can be seen before the plugin reads it: its
        shape, its type, its fields and its target, all at once."""
        found = self._shape_problems(proposal)
        if not isinstance(proposal, dict):
            return None, found
        check_type = None
        if isinstance(proposal.get("type"), str):
            check_type, wrong = self._type_problems(proposal["type"])
            found.extend(wrong)
        if check_type is not None:
            target = None
            if isinstance(proposal.get("target"), str) and check_type.name in self.rubric.checks:
                target = self._target_problem(check_type, proposal["target"])
                found.extend([target] if target is not None else [])
            field = self._field_problem(check_type, proposal)
            found.extend([field] if field is not None else [])
            shape = premised.premise_problems(proposal, check_type.accepts_premises, check_type.name)
            found.extend(shape)
            if premised.FIELD in proposal and not shape and target is None and check_type.name in self.rubric.checks:
                found.extend(self._premise_problems(proposal))
        return check_type, found

    def _premise_problems(self, proposal: Mapping[str, Any]) -> list[ItemRefused]:
        """What the rubric says against a well-formed proposal's premises: it cannot record them."""
        target = self.graph.nodes[proposal["target"]]
        problem = premised.rubric_problem(self.rubric, target.kind)
        return [problem] if problem is not None else []

    def _premise_numerals(self, prepared: Prepared, premises: Sequence[str]) -> ItemRefused | None:
        """A premise writing a number that neither the target nor the chunks the check cites write (the cites as
        the type recorded them: a range of rows written `t-07..t-28` is expanded there)."""
        cites = prepared.inputs.get("cites")
        named = [prepared.target, *(item for item in cites if isinstance(item, str))] if isinstance(cites, list) else []
        named = named or [prepared.target]
        texts = [node.statement for node_id in named if (node := self.graph.nodes.get(node_id)) and node.statement]
        return premised.numeral_problem(premises, texts)

    def _target_problem(self, check_type: GuardedCheckType, target: str) -> ItemRefused | None:
        node = self.graph.nodes.get(target)
        if node is None:
            return ItemRefused(Code.UNKNOWN_NODE, f"no node '{target}' in this run", "get_state lists the nodes")
        assessed = [name for name, spec in self.rubric.types.items() if spec.assess]
        node_type = self.rubric.types.get(node.kind)
        if node_type is None or not node_type.assess:
            return ItemRefused(
                Code.CHECK_NOT_ASSESSED,
                f"node '{target}' has type '{node.kind}', which the rubric does not assess",
                f"checks go on nodes of the assessed types {assessed}; classify '{target}' as one of them first"
                if node.kind == "unassigned"
                else f"checks go on nodes of the assessed types {assessed}",
            )
        targets = self.rubric.checks[check_type.name].targets
        if node.kind not in targets:
            candidates = [other.id for other in self.graph if other.kind in targets][:20]
            return ItemRefused(
                Code.CHECK_TARGET_TYPE,
                f"'{check_type.name}' targets {list(targets)}, and '{target}' is a {node.kind}",
                f"target a node of type {list(targets)}: {candidates}"
                if candidates
                else f"no node of type {list(targets)} yet: classify one first",
            )
        if node.base is None:  # an observed node without a base makes the graph uncompilable at finish_run
            return ItemRefused(
                Code.CHECK_TARGET_NO_BASE,
                f"'{target}' has no base (the rubric's type '{node.kind}' declares none), so a check observing it "
                "would leave the graph uncompilable",
                f"give [types.{node.kind}] a base in the rubric and start a new run with it",
            )
        return None

    def _repeat_problem(self, check_type: GuardedCheckType, prepared: Prepared, key: str) -> ItemRefused | None:
        slot = check_type.slot_of(prepared.inputs)
        for earlier in self.existing:
            if earlier.type != check_type.name:
                continue
            if earlier.target == prepared.target and earlier.slot == slot:
                if earlier.result == "error" and self._may_follow_error(check_type, prepared.target, slot, key):
                    continue
                if earlier.result == "error" and earlier.observation == key:
                    return ItemRefused(
                        Code.CHECK_DUPLICATE,
                        f"{earlier.id} already checked this encoding on '{prepared.target}' with {check_type.name} "
                        "and it erred: the same encoding would err again",
                        "propose the step in another encoding (the paper's LaTeX, another spelling or assumptions), "
                        "or check another node",
                    )
                return ItemRefused(
                    Code.CHECK_DUPLICATE,
                    f"{earlier.id} already checks '{prepared.target}' with {check_type.name} ({earlier.result})",
                    "checks are append-only: a check is never withdrawn or run again on its target; check another node",
                )
            if earlier.observation == key and earlier.target != prepared.target:
                return ItemRefused(
                    Code.CHECK_SAME_OBSERVATION,
                    f"{earlier.id} on '{earlier.target}' already makes this observation; checks that would pass or "
                    "fail together are one observation, not two",
                    f"leave it out: {earlier.id} is the evidence; check a step or number of its own for "
                    f"'{prepared.target}'",
                )
        return None

    def _may_follow_error(self, check_type: GuardedCheckType, target: str, slot: str, key: str) -> bool:
        """Whether a check may follow its type's errored checks at this target and slot.

        An error moves no credence, so a type that says so (`retry_after_error`: a citation check on
        another source) may always be tried again. A deterministic type (no model) may be tried again with
        another encoding of the same step: only while every check of the step so far, its fallback's too,
        erred (a step already decided is not re-encoded until it passes), and never with an encoding that
        already erred (the same observation would err again)."""
        if check_type.retry_after_error:
            return True
        if check_type.uses_model:
            return False
        family = {check_type.name} | {
            name
            for name in self.rubric.checks
            if (installed := self.registry.get(name)) is not None
            and installed.check_type.fallback_for == check_type.name
        }
        for earlier in self.existing:
            if earlier.target != target or earlier.slot != slot or earlier.type not in family:
                continue
            if earlier.result != "error" or earlier.observation == key:
                return False
        return True

    # -- running one check ----------------------------------------------------------------------------

    def _outcome(self, check_type: GuardedCheckType, prepared: Prepared, cid: str) -> Outcome:
        if self.context.mode == "recover":
            folder = self.run.paths.checks / cid
            try:
                inputs, outcome = outcome_from_files(
                    (folder / "inputs.json").read_bytes(),
                    (folder / "output.json").read_bytes(),
                    (folder / "log.txt").read_bytes(),
                )
            except (OSError, ValueError, KeyError) as error:
                raise CgxError(Code.RUN_CORRUPT, f"checks/{cid}/ of a committed call cannot be read: {error}") from None
            if canonical_json(inputs) != canonical_json(dict(prepared.inputs)):
                raise CgxError(
                    Code.RUN_CORRUPT, f"checks/{cid}/inputs.json is not what call {self.context.seq} proposed"
                )
            return outcome
        view = self.view.with_graph(self.graph).with_recorded(self.recorded.get(cid))
        model = self.context.model if check_type.uses_model else None
        try:
            return check_type.run(prepared, view, model=model)
        except PluginFailed as failure:  # a plugin's fault is an error check naming it, not a broken call
            if failure.stalled:
                raise  # the wall clock decides no check's result: the proposal is refused instead
            return Outcome("error", failure.message, log=failure.log + "\n", code=failure.code)

    def _record(
        self, check_type: GuardedCheckType, prepared: Prepared, key: str, outcome: Outcome, premises: Sequence[str]
    ) -> str:
        from credencegraph.core import Node, Relation

        cid = check_id(self.number)
        self.number += 1
        files = check_files(prepared.inputs, outcome)
        for name, data in files.items():
            self.artifacts[f"checks/{cid}/{name}"] = data
        installed = self.registry.get(check_type.name)
        assert installed is not None
        record: dict[str, Any] = {
            "type": check_type.name,
            "target": prepared.target,
            "artifact": f"checks/{cid}/output.json",
            "inputs": dict(prepared.inputs),
            "result": outcome.result,
            "detail": recorded_detail(outcome),
            **({"code": code} if (code := recorded_code(outcome)) is not None else {}),
            "tool": {
                "credencegraph-extract": distribution_version("credencegraph-extract"),
                "python": ".".join(str(part) for part in sys.version_info[:3]),
                "plugin": {"distribution": installed.distribution, "version": installed.version},
                "libraries": dict(sorted(outcome.libraries.items())),
            },
            "model": self.context.model if check_type.uses_model else None,
            "log": {"path": f"checks/{cid}/", "digest": files_digest(files)},
            "observation": key,
        }
        if check_type.budget is not None:
            record["tool"]["budget"] = check_type.budget.to_json()  # what bounded a third party's code
        if outcome.notices:
            record["notices"] = [dict(notice) for notice in outcome.notices]
        attributes: dict[str, Any] = {"origin": EVIDENCE, "check": record}
        if outcome.result != "error":
            attributes["observed"] = outcome.result == "passed"
        attributes[extraction.KEY] = extraction.stamp(self.run.id, self.tool)
        observed = prepared.target
        if premises:  # a premised check observes its target as read with its premises (checks/premises.py)
            stamp = extraction.stamp(self.run.id, self.tool)
            observed, ids = premised.add_reading(self.graph, self.rubric, prepared.target, premises, stamp)
            record["premises"] = ids
            record["reading"] = observed
        statement = STATEMENT.format(type=check_type.name, target=prepared.target, result=outcome.result)
        self.graph.add_node(Node(cid, kind=check_type.name, statement=statement, attributes=attributes))
        declared = self.rubric.checks[check_type.name]
        self.graph.add_relation(
            Relation(
                f"{observed}-observes-{cid}",
                "observes",
                observed,
                cid,
                sensitivity=declared.sensitivity,
                false_pass=declared.false_pass,
            )
        )
        if premises:
            self.graph.add_relation(
                Relation(
                    f"{cid}-{premised.ASSESSES}-{prepared.target}",
                    premised.ASSESSES,
                    cid,
                    prepared.target,
                    attributes={extraction.KEY: extraction.stamp(self.run.id, self.tool)},
                )
            )
        if outcome.read is not None:
            self.reads[cid] = outcome.read
        if self.run.manifest.get("store_source"):
            for digest, data in outcome.sources.items():
                self.artifacts[f"sources/{hex_of(digest)}"] = data
        for digest, data in outcome.metadata.items():  # public records: kept so replay and verify decide again
            self.artifacts[f"sources/{hex_of(digest)}"] = data
        slot = check_type.slot_of(prepared.inputs)
        self.existing.append(Existing(cid, check_type.name, prepared.target, slot, outcome.result, key))
        return cid

    def _ready(
        self, kind: GuardedCheckType, prepared: Prepared | Refusal, premises: Sequence[str]
    ) -> tuple[Prepared, str] | ItemRefused:
        """A prepared proposal that may run, with its observation key; or why it may not: the plugin refused
        it, a premise writes a foreign number, the plugin recorded other premises, or it repeats a check."""
        if isinstance(prepared, Refusal):
            return ItemRefused(prepared.code, prepared.message, prepared.fix)
        numerals = self._premise_numerals(prepared, premises) if premises else None
        if numerals is not None:
            return numerals
        if list(prepared.inputs.get(premised.FIELD, [])) != premises:
            message = (
                f"the plugin '{kind.name}' recorded the premises {prepared.inputs.get(premised.FIELD)!r}, "
                f"not the proposal's {premises!r}"
            )
            fix = "the plugin is broken: propose the check without premises, and report this to its author"
            return ItemRefused(Code.PLUGIN_FAILED, message, fix)
        key = json_digest({"type": kind.name, "observation": kind.observation_key(prepared)})
        repeat = self._repeat_problem(kind, prepared, key)
        return (prepared, key) if repeat is None else repeat

    def _fallback(self, primary: GuardedCheckType, proposal: Mapping[str, Any], target: str) -> GuardedCheckType | None:
        node = self.graph.nodes[target]
        for name, declared in self.rubric.checks.items():
            installed = self.registry.get(name)
            if installed and installed.check_type.fallback_for == primary.name and node.kind in declared.targets:
                return installed.check_type
        return None

    def add(self, index: int, proposal: Any) -> None:
        """One proposal: refused with a fix, or a check (and maybe its fallback). A plugin's failure in any
        of its methods stays with this proposal: the call's other proposals run."""
        try:
            self._add(index, proposal)
        except PluginFailed as failure:
            fix = (
                "the plugin waited without using CPU; call again later, or leave this check type out"
                if failure.stalled
                else "the plugin is broken: propose another check type, and report the message to its author"
            )
            refusal = ItemRefused(failure.code, failure.message, fix)
            self.refused.append(refusal.to_json(index, _named_node(proposal), "proposal"))

    def _add(self, index: int, proposal: Any) -> None:
        check_type, found = self._problems(proposal)
        if found:
            self.refused.append(ItemRefused.every(found).to_json(index, _named_node(proposal), "proposal"))
            return
        assert check_type is not None and isinstance(proposal, dict)
        target = proposal["target"]
        premises = [premised.normalised(premise) for premise in proposal.get(premised.FIELD, ())]
        chain: list[GuardedCheckType] = [check_type]
        current: Mapping[str, Any] = {**proposal, premised.FIELD: premises} if premises else proposal
        while chain:
            kind = chain.pop()
            ready = self._ready(kind, kind.prepare(current, self.view.with_graph(self.graph)), premises)
            if isinstance(ready, ItemRefused):
                if kind is check_type:  # a fallback that may not run leaves its primary's error check as it is
                    self.refused.append(ready.to_json(index, target, "proposal"))
                return
            prepared, key = ready
            cid = check_id(self.number)
            if self.context.mode == "live":
                call_control.checkpoint()  # a fallback is more work: a cancelled call does not start it
            outcome = self._outcome(kind, prepared, cid)
            self._record(kind, prepared, key, outcome, premises)
            entry = {"proposal": index, "id": cid, "type": kind.name, "target": target, "result": outcome.result}
            entry["detail"] = recorded_detail(outcome)
            if outcome.notices:  # what the agent must see besides the result (a retraction, a computable judgement)
                entry["notices"] = [dict(notice) for notice in outcome.notices]
            if kind is not check_type:
                entry["fallback_for"] = check_type.name
            self.checks.append(entry)
            if outcome.result == "error":
                fallback = self._fallback(kind, current, target)
                if fallback is not None and (fallback.accepts_premises or not premises):
                    chain.append(fallback)
                    current = {**current, "type": fallback.name}

    def effect(self) -> Effect:
        return Effect(
            graph=self.graph,
            result={"checks": self.checks, "refused": self.refused},
            rejections=self.refused,
            read=self.reads or None,
            artifacts=self.artifacts,
        )


def apply_proposals(context: CallContext, state: RunState, proposals: Sequence[Any], *, tool: str) -> Effect:
    """Run a call's proposals; each is refused with a fix or becomes one check (and maybe its fallback)."""
    engine = Proposals(context, state, tool)
    live = context.mode == "live"  # a call completed from the log or replayed is neither reported nor stopped
    for index, proposal in enumerate(proposals):
        if live:
            call_control.progress(
                index, len(proposals), f"proposal {index + 1} of {len(proposals)}: {_named(proposal)}"
            )
        engine.add(index, proposal)
    if live:
        call_control.progress(len(proposals), len(proposals), "checks done")
    return engine.effect()


def _named(proposal: Any) -> str:
    """A proposal's type and target, for a progress message (whatever the proposal holds)."""
    if not isinstance(proposal, dict):
        return "not an object"
    kind, target = proposal.get("type"), proposal.get("target")
    return f"{kind if isinstance(kind, str) else '?'} on {target if isinstance(target, str) else '?'}"[:200]
