"""start_run's result: a summary of the new run that fits an agent's context, whatever the paper.

Listing every chunk of a real paper took 60 to 185 thousand characters, past what some harnesses keep of
a tool result. So start_run returns what an agent plans by (counts by unit, the document's files, the
bibliography, the rubric's types, hedges and premise rules, the declared check types with the schema of
their proposals) and the first page of nodes, exactly as get_state lists them, filling what the summary
leaves of `MAX_RESULT_CHARS`; `next` says where get_state continues. Lists that grow with the paper
(files, unresolved keys, cited copies, ...) are cut to their first few, with their total: the run's
manifest.json holds them whole.

The declared check types come with the JSON schema of their proposals, in a room of their own
(`PROPOSAL_ROOM`, which also holds what replay will need: `replay_note`), added to the result as it is
returned (`shown_result`) and not part of the result's logged digest, as `recovery` is not: the schemas come
from the plugins installed when the result is shown, and a plugin that rewords a field's description must not
make every run it started diverge on replay. The first page is measured with that room set aside, so it does
not depend on them either.

When a rubric is so large that its own listing would leave too little room for a page, its parts are
shortened in a fixed order (the type descriptions, then the hedges, types and checks beyond what fits),
and `shortened` says what was left out, so the bound holds for any rubric too.

get_state's `summary` gives the whole summary again (a client that lost start_run's result continues), or one
of its lists whole, a page at a time (`descriptions.SUMMARY_PARTS`, `summary_items`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from cgx_core.graph.digest import node_json, relation_json
from cgx_core.tooling.fence import fence_note
from cgx_core.tooling.node_view import DEFAULT_LIMIT, nodes_page
from cgx_core.tooling.output import result_text
from cgx_core.tooling.paging import MAX_RESULT_CHARS, size
from cgx_core.tooling.rubric_view import checks_view, premises_view, types_view

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

Json = dict[str, Any]

FIRST: Final = 10
"""How many items of a list that grows with the paper the summary shows."""
CLIP: Final = 200
"""The most characters of any one text in those lists (a cite key or a printed reference can be long)."""
PAGE_ROOM: Final = 6_000
"""The characters a rubric's listing leaves for the first page at least, before it is shortened."""
PROPOSAL_ROOM: Final = 8_000
"""The characters set aside for the proposal schemas of the declared check types."""
_DOCUMENT_EXTRAS: Final = ("not_followed", "archive", "limits")
"""What the manifest may say of the document beyond its files: macros not followed, the archive of sources
it was unpacked from, and what a PDF could not give (`limits`)."""
NEXT: Final = (
    "classify every chunk (classify), then add the premises of each conclusion (add_premises); the nodes not "
    'listed here come from get_state {"run": <run>, "start": <next>} (or {"type": "unassigned"} for what is '
    "left to classify)"
)


def first(items: Sequence[Any], count: int = FIRST) -> Json:
    """A list cut to its first `count` items, each text in them cut to `CLIP` characters, with its total."""
    return {"total": len(items), "first": [_clipped(item) for item in items[:count]]}


def _clipped(value: Any) -> Any:
    if isinstance(value, str):
        return value if len(value) <= CLIP else value[: CLIP - 3] + "..."
    if isinstance(value, dict):
        return {key: _clipped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_clipped(item) for item in value]
    return value


def _bibliography(report: Mapping[str, Any]) -> Json:
    return {
        "files": first(report.get("files", [])),
        "cited_keys": report.get("cited_keys", 0),
        "from_bbl": len(report.get("from_bbl", [])),
        "from_bib": len(report.get("from_bib", [])),
        "unresolved": first(report.get("unresolved", []), 20),
        "disagreements": first(report.get("disagreements", []), 3),
        "warnings": first(report.get("warnings", []), 3),
        **({"hint": report["hint"]} if report.get("hint") else {}),
    }


def _offline_sources(manifest: Mapping[str, Any]) -> Json:
    """The offline sources start_run was given (only when it was): their URLs, and how many were ignored."""
    offline = manifest.get("offline_sources")
    if offline is None:
        return {}
    return {
        "offline_sources": {"urls": first([item["url"] for item in offline["sources"]]), "ignored": offline["ignored"]}
    }


def _counts(nodes: list[Json]) -> Json:
    """The nodes by unit, and how many chunks are left to classify."""
    by_unit = Counter(unit for node in nodes if isinstance(unit := node["attributes"].get("unit"), str))
    return {
        "nodes": len(nodes),
        "by_unit": dict(sorted(by_unit.items())),
        "untyped": sum(1 for node in nodes if node["kind"] == "unassigned"),
    }


def _shortened(result: Json, room: int) -> None:
    """Shorten the rubric's listing in place, step by step, until the result leaves `room` characters, and
    say in `shortened` what was left out."""
    notes: list[str] = []

    def fits() -> bool:
        return len(result_text({**result, "shortened": notes})) + room <= MAX_RESULT_CHARS

    if not fits():
        result["types"] = [{k: v for k, v in item.items() if k != "description"} for item in result["types"]]
        notes.append("types: the descriptions")
    for key in ("hedges", "types", "checks"):
        if fits():
            break
        items = result[key]
        result[key] = []
        spare = MAX_RESULT_CHARS - room - len(result_text({**result, "shortened": [*notes, f"{key}: 0 of 0000000"]}))
        for item in items:
            spare -= size(item) + 1
            if spare < 0:
                break
            result[key].append(item)
        notes.append(f"{key}: {len(result[key])} of {len(items)}")
    if notes:
        result["shortened"] = notes


def summary(graph: Graph, rubric: Rubric, run_id: str, token: str, manifest: Mapping[str, Any]) -> Json:
    """The start_run result for the run's first state."""
    nodes = [node_json(node) for node in graph]
    relations = [relation_json(relation) for relation in graph.relations.values()]
    result: Json = {
        "run": run_id,
        "fence": fence_note(token),
        "document": {
            "format": manifest["document"]["format"],
            "files": first(manifest["document"]["files"]),
            **{name: manifest["document"][name] for name in _DOCUMENT_EXTRAS if name in manifest["document"]},
        },
        "rubric": manifest["rubric"],
        "counts": _counts(nodes),
        "bibliography": _bibliography(manifest["bibliography"]),
        "cited": first(manifest["cited"]),
        **_offline_sources(manifest),
        "types": types_view(rubric),
        "hedges": sorted(rubric.hedges),
        "premises": premises_view(rubric),
        "checks": checks_view(rubric),
        "total": len(nodes),
        "start": 0,
        "nodes": [],
        "next": None,
        "then": NEXT,
    }
    _shortened(result, PAGE_ROOM + PROPOSAL_ROOM)
    # Unlike get_state's, this page may be empty: a first node longer than the budget is left to get_state.
    result["nodes"], result["next"] = nodes_page(
        nodes, relations, token, 0, DEFAULT_LIMIT, result, at_least_one=False, reserve=PROPOSAL_ROOM
    )
    return result


def replay_note(manifest: Mapping[str, Any]) -> str:
    """What replay and report will need from outside the run, said when the run starts (they refuse at once,
    saying so, when it is not given)."""
    document = manifest["document"]
    paper = (document.get("archive") or document["files"][0])["name"]
    if manifest.get("store_source"):
        return f"the run keeps a copy of {paper}: replay and report need no --source"
    return (
        f"the run keeps {paper}'s digest, not the paper (store_source false): replay and report need --source "
        f"{paper} (the same bytes), and --sources DIR for a citation check of a fetched URL"
    )


def shown_result(result: Mapping[str, Any], manifest: Mapping[str, Any]) -> Json:
    """The result as start_run returns it (and get_state's `summary` gives it again): the logged result, with
    what comes from the code installed now rather than the run, and so is not digested: the proposal schemas
    (`_with_proposal_schemas`) and what replay will need (`replay_note`), both within `PROPOSAL_ROOM`."""
    note = replay_note(manifest)
    shown = _with_proposal_schemas(result, PROPOSAL_ROOM - size(note) - len(',"replay":'))
    shown["replay"] = note
    return shown


def _with_proposal_schemas(result: Mapping[str, Any], room: int = PROPOSAL_ROOM) -> Json:
    """`result` with each declared, installed, proposable check type's JSON schema of its proposals, as many as
    fit `room` characters (the others are named, with where to read them)."""
    shown = dict(result)
    items = list(result.get("checks", []))
    schemas = _proposal_schemas(items)
    listed: set[int] = set()
    for index, schema in schemas.items():
        cost = size(schema) + len(',"proposal":')
        if cost <= room:
            room -= cost
            listed.add(index)
    while listed != set(schemas) and len(_elsewhere(items, schemas, listed)) + 30 > room and listed:
        dropped = max(listed)  # the note naming those left out must fit the room too
        listed.discard(dropped)
        room += size(schemas[dropped]) + len(',"proposal":')
    shown["checks"] = [
        {**item, "proposal": schemas[index]} if index in listed else item for index, item in enumerate(items)
    ]
    if listed != set(schemas):
        shown["proposals_elsewhere"] = _elsewhere(items, schemas, listed)
    return shown


def _elsewhere(items: Sequence[Json], schemas: Mapping[int, Json], listed: set[int]) -> str:
    left = [items[index]["name"] for index in schemas if index not in listed]
    return (
        f"the proposal schemas of {left} are too long to list here: get_state with `describe` set to a "
        "type's name gives its schema"
    )


def _proposal_schemas(items: Sequence[Json]) -> dict[int, Json]:
    """The proposal schema of each listed check type that is installed and proposed (not a fallback), by index."""
    from cgx_core.checks.installed import installed_check_types
    from cgx_core.tooling.proposal_schemas import proposal_schema

    registry = installed_check_types()
    schemas: dict[int, Json] = {}
    for index, item in enumerate(items):
        installed = registry.get(item["name"]) if item.get("installed") else None
        if installed is not None and installed.check_type.fallback_for is None:
            schemas[index] = proposal_schema(installed.check_type)
    return schemas


def summary_items(part: str, manifest: Mapping[str, Any], rubric: Rubric) -> list[Any]:
    """Every item of one list of start_run's summary, uncut: from the manifest, which holds them whole, or the
    run's rubric (each check type with its proposal schema, as start_run shows them)."""
    document, bibliography = manifest["document"], manifest["bibliography"]
    if part == "document.files":
        return list(document["files"])
    if part == "document.not_followed":
        return list(document.get("not_followed", {}).get("macros", []))
    if part.startswith("bibliography."):
        return list(bibliography.get(part.removeprefix("bibliography."), []))
    if part == "cited":
        return list(manifest["cited"])
    if part == "offline_sources":
        return [item["url"] for item in manifest.get("offline_sources", {}).get("sources", [])]
    if part == "types":
        return types_view(rubric)
    if part == "hedges":
        return sorted(rubric.hedges)
    items = checks_view(rubric)
    schemas = _proposal_schemas(items)
    return [{**item, "proposal": schemas[index]} if index in schemas else item for index, item in enumerate(items)]
