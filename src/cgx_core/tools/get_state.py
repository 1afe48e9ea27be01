"""get_state: the run as it stands, read without a lock and without writing.

A 400-chunk paper must not flood the agent, so nodes come a page at a time (`start`, `limit`, and never
more than the result's character budget: see `cgx_core.tooling.paging`), or by id (`nodes`), filtered by
`type` or `unit`; the progress counts always come whole.

It is the call an agent makes most, so it is kept cheap: it works on the graph as JSON, read straight from
state.json. Only when the log holds calls that state.json does not reflect yet (a crash between a commit
and its derived files) does it build the run's state in memory, which needs credencegraph.
"""

from __future__ import annotations

import contextlib
import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cgx_core.base.digests import bytes_digest, graph_json_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.evidence import check_record
from cgx_core.graph.extraction import tool_of
from cgx_core.run.layout import RunPaths
from cgx_core.run.manifest import read_manifest
from cgx_core.tooling.fence import fence_note, fence_token
from cgx_core.tooling.node_view import DEFAULT_LIMIT, origin_of, whole_page
from cgx_core.tooling.output import result_text
from cgx_core.tooling.paging import MAX_RESULT_CHARS, page_of

AWAITING_SHOWN = 20
Json = dict[str, Any]


def progress(nodes: list[Json], relations: list[Json], conclusions: set[str], state: Mapping[str, Any]) -> Json:
    """How far the run has got: the counts an agent plans its next calls by."""
    origin = {node["id"]: origin_of(node) for node in nodes}
    chunks = [
        node for node in nodes if origin[node["id"]] == "document" and node["attributes"].get("unit") != "reference"
    ]
    clauses = sum(1 for relation in relations if relation["type"] == "part-of")
    untyped = [node["id"] for node in chunks if node["kind"] == "unassigned"]
    with_premises = {
        relation["target"]
        for relation in relations
        if relation["type"] == "requires"
        and (origin.get(relation["source"]) == "analyst" or tool_of(relation["attributes"]) == "add_premises")
    }
    checks: dict[str, dict[str, int]] = {}
    for node in nodes:
        record = check_record(node["attributes"])
        if record is not None:
            by_result = checks.setdefault(node["kind"], {})
            by_result[str(record.get("result"))] = by_result.get(str(record.get("result")), 0) + 1
    return {
        "calls": state["seq"],
        "chunks": len(chunks) - clauses,
        "clauses": clauses,
        "split": sum(1 for node in chunks if node["kind"] == "compound"),
        "typed": sum(1 for node in chunks if node["kind"] not in ("unassigned", "compound")),
        "untyped": len(untyped),
        "first_untyped": untyped[:10],
        "conclusions": sum(1 for node in nodes if node["kind"] in conclusions),
        "conclusions_with_premises": sum(
            1 for node in nodes if node["kind"] in conclusions and node["id"] in with_premises
        ),
        "analyst_premises": sum(1 for node in nodes if origin[node["id"]] == "analyst"),
        "checks": {kind: dict(sorted(results.items())) for kind, results in sorted(checks.items())},
        "refusals": len(state["rejections"]),
        "finished": state["finished"],
    }


def _state_json(paths: RunPaths, manifest: Mapping[str, Any]) -> Json:
    """state.json when it is the state after the log's last line (the common case, read without
    credencegraph); else the state rebuilt in memory from the log (committed calls not yet derived are
    applied, a torn tail ignored, an edited state.json set aside)."""
    from cgx_core.run.log import line_ending_at

    # A state.json that cannot be read or does not match the log is not an error here: the run is rebuilt below.
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        data: Json = json.loads(paths.state.read_bytes())
        end, last = data["log"]["end"], data["log"]["last"]
        if (
            paths.log.stat().st_size == end
            and isinstance(last, str)
            and _is_state_after(data, line_ending_at(paths.log, end), manifest)
        ):
            return data
    from cgx_core.run.state import state_bytes
    from cgx_core.run.transaction import Run
    from cgx_core.tooling.registry import handler_for

    run = Run(paths.root, handler_for)
    rebuilt: Json = json.loads(state_bytes(run.current(), run.digester))  # texts this process already holds
    return rebuilt


def _is_state_after(data: Json, raw: bytes | None, manifest: Mapping[str, Any]) -> bool:
    """Whether state.json's `data` is the state the log line `raw` left: the line's digest, sequence number,
    whether it left the run finished, and the digest of the graph it recorded (so an edited graph is never
    served)."""
    from cgx_core.run.log import parse_line
    from cgx_core.run.manifest import left_finished

    if raw is None or bytes_digest(raw) != data["log"]["last"]:
        return False
    line = parse_line(raw)
    return (
        line is not None
        and line.seq == data["seq"]
        and left_finished(line, data["log"]["last"], manifest) == data["finished"]
        and graph_json_digest(data["graph"]) == line.graph
    )


def execute(args: Mapping[str, Any], *, wait: float) -> Json:
    if "describe" in args:  # a schema, not the run: tools/list carries only lean copies of the schemas
        from cgx_core.tooling.describe import described

        return described(args["describe"], args.get("run"))
    paths = RunPaths(Path(args["run"]))
    manifest = read_manifest(paths)
    if not paths.log.is_file():
        raise CgxError(Code.NOT_A_RUN, f"'{paths.root.name}' has no committed call: its start_run never finished")
    if "summary" in args:
        return _summary(paths, manifest, args)
    state = _state_json(paths, manifest)
    graph = state["graph"]
    nodes: list[Json] = graph["nodes"]
    relations: list[Json] = graph["relations"]
    try:
        rubric = tomllib.loads(paths.rubric.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CgxError(Code.RUN_CORRUPT, f"rubric.toml cannot be read: {error}") from None
    premises = rubric.get("premises", {})
    conclusions = set(premises.get("for", ()))
    selected = nodes
    if "type" in args:
        selected = [node for node in selected if node["kind"] == args["type"]]
    if "unit" in args:
        selected = [node for node in selected if node["attributes"].get("unit") == args["unit"]]
    if "nodes" in args:
        known = {node["id"] for node in nodes}
        missing = [node_id for node_id in args["nodes"] if node_id not in known]
        if missing:
            raise CgxError(Code.INVALID_ARGUMENTS, f"get_state: no node {missing} in this run")
        wanted = set(args["nodes"])
        selected = [node for node in selected if node["id"] in wanted]
    token = fence_token(manifest["run"], state["seq"])
    result: Json = {
        "run": manifest["run"],
        "fence": fence_note(token),
        "progress": progress(nodes, relations, conclusions, state),
        "total": len(selected),
        "start": args.get("start", 0),
        "nodes": [],
        "next": None,
        "awaiting_review": _awaiting_review(nodes, relations, rubric),
    }
    result["nodes"], result["next"] = whole_page(
        selected, relations, token, args.get("start", 0), args.get("limit", DEFAULT_LIMIT), result
    )
    return result


def _awaiting_review(nodes: list[Json], relations: list[Json], rubric: Mapping[str, Any]) -> Json:
    """What a person should look at (see cgx_core.graph.review_queue): the count, and the first items."""
    from cgx_core.graph.review_queue import awaiting_review, models_from_rubric_toml

    items = awaiting_review(nodes, relations, models_from_rubric_toml(rubric))
    return {"total": len(items), "items": items[:AWAITING_SHOWN]}


def _summary(paths: RunPaths, manifest: Mapping[str, Any], args: Mapping[str, Any]) -> Json:
    """start_run's summary again (`"all"`: the very result start_run returned, made again from the run's start),
    or one of its lists whole, a page at a time: a client that lost start_run's result continues from here."""
    from cgx_core.run.log import parse_line
    from cgx_core.run.transaction import CallContext, Run
    from cgx_core.tooling.registry import handler_for
    from cgx_core.tooling.start_summary import shown_result, summary_items

    part = args["summary"]
    if part == "candidates":
        return _page(manifest, args, _candidates(_state_json(paths, manifest)["graph"]["nodes"]))
    run = Run(paths.root, handler_for)
    if part != "all":
        return _page(manifest, args, summary_items(part, manifest, run.rubric))
    with paths.log.open("rb") as handle:
        first = parse_line(handle.readline().removesuffix(b"\n"))
    if first is None or first.tool != "start_run":
        raise CgxError(Code.RUN_CORRUPT, f"'{paths.root.name}/calls.jsonl' does not begin with start_run")
    context = CallContext(run, 1, "recover", first.model, first)
    effect = handler_for("start_run")(context, run.initial_state(), first.args)
    return {"run": manifest["run"], "start_run": shown_result(effect.result, manifest)}


def _page(manifest: Mapping[str, Any], args: Mapping[str, Any], items: list[Any]) -> Json:
    """One page of a list of `summary`, from `start`, within the result's character budget."""
    start = args.get("start", 0)
    result: Json = {"run": manifest["run"], "summary": {"part": args["summary"], "total": len(items), "start": start}}
    budget = MAX_RESULT_CHARS - len(result_text(result)) - len(',"items":[],"next":') - len(str(len(items)))
    shown, following = page_of(
        items, start, args.get("limit", DEFAULT_LIMIT), budget, lambda item: item, at_least_one=True
    )
    result["summary"].update({"items": shown, "next": following})
    return result


def _candidates(nodes: list[Json]) -> list[Json]:
    """The checkable statements the document's chunks write, each with a ready proposal (`tooling.candidates`):
    computed from the chunks' texts on every call, never logged, so a run's log and replay are as they were."""
    from cgx_core.numbers.columns import TABLE_ROW, cells_text
    from cgx_core.tooling.candidates import candidates

    chunks = []
    attributes: dict[str, Json] = {}
    for node in nodes:
        unit = node["attributes"].get("unit")
        if origin_of(node) == "document" and unit not in (None, "reference") and isinstance(node["statement"], str):
            chunks.append((str(node["id"]), cells_text(node["statement"]) if unit == TABLE_ROW else node["statement"]))
            attributes[str(node["id"])] = node["attributes"]
    return candidates(chunks, attributes)
