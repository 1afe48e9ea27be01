"""A labelled run: a finished run, and the truth of its nodes, from a key file or from a person's reviews.

A **key** (TOML) names the nodes whose statement is false as written; every other proposition of the run
(a document or analyst node with a base) is then taken as true, except those it names `unlabelled`:

    paper = "hastings"            # the paper the run reads: its runs are left out together (optional)
    false = ["s-031", "t-04"]     # false as written
    unlabelled = ["s-040"]        # truth not claimed (optional)
    note = "b1 steps planted as 0.02 for 0.01"   # optional

Without a key, a node's truth is a person's verdict (`review`: holds is true, fails false); a node two
reviews disagree on, or none decided, is unlabelled. A **reading** (what a premised check observes) is true
when its target and every premise are, and unlabelled when any of them is.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph import analyst
from cgx_core.graph.evidence import check_record
from cgx_core.graph.extraction import tool_of
from cgx_core.graph.review_queue import REVIEW_TOOL

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

KEY_FIELDS = frozenset({"paper", "false", "unlabelled", "note"})
VERDICTS = {"passed": True, "failed": False}


@attrs.frozen
class Key:
    """What a key file says of a run."""

    false: frozenset[str]
    unlabelled: frozenset[str] = frozenset()
    paper: str | None = None


@attrs.frozen
class LabelledRun:
    """A finished run with its nodes' truth."""

    name: str
    paper: str
    graph: Graph
    rubric: Rubric
    truth: Mapping[str, bool]
    held_out: bool = False


def read_key(path: Path) -> Key:
    """The key in `path`; CgxError `key-invalid` naming what is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot read the key {path.name}: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise CgxError(Code.KEY_INVALID, f"{path.name}: not a TOML key: {error}") from None
    unknown = sorted(set(data) - KEY_FIELDS)
    if unknown:
        raise CgxError(Code.KEY_INVALID, f"{path.name}: unknown fields {unknown}; a key has {sorted(KEY_FIELDS)}")
    lists = {name: data.get(name, []) for name in ("false", "unlabelled")}
    for name, value in lists.items():
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise CgxError(Code.KEY_INVALID, f"{path.name}: `{name}` must be a list of node ids")
    paper = data.get("paper")
    if paper is not None and (not isinstance(paper, str) or not paper):
        raise CgxError(Code.KEY_INVALID, f"{path.name}: `paper` must be a non-empty string")
    both = sorted(set(lists["false"]) & set(lists["unlabelled"]))
    if both:
        raise CgxError(Code.KEY_INVALID, f"{path.name}: {both} are both false and unlabelled")
    return Key(frozenset(lists["false"]), frozenset(lists["unlabelled"]), paper)


def load_run(path: Path, key: Key | None, *, held_out: bool = False) -> LabelledRun:
    """A finished run at `path` and its nodes' truth (from `key`, else from its reviews)."""
    from credencegraph.core import loads

    from cgx_core.graph.rubric import load_rubric_bytes
    from cgx_core.run.layout import RunPaths

    paths = RunPaths(path)
    if not paths.graph.is_file():
        raise CgxError(Code.NOT_FINISHED, f"{path.name} is not a finished run (no graph.json): finish_run it first")
    try:
        graph = loads(paths.graph.read_text(encoding="utf-8"))
        rubric = load_rubric_bytes(paths.rubric.read_bytes(), f"{path.name}/rubric.toml")
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot read {path.name}: {error.strerror}") from None
    except ValueError as error:
        raise CgxError(Code.RUN_CORRUPT, f"{path.name}/graph.json: {error}") from None
    truth = key_truth(graph, key, path.name) if key is not None else review_truth(graph)
    paper = key.paper if key is not None and key.paper else path.name
    return LabelledRun(path.name, paper, graph, rubric, with_readings(graph, truth), held_out)


def propositions(graph: Graph) -> list[str]:
    """The nodes a truth is given for: document and analyst nodes with a base, readings aside."""
    return [
        node.id
        for node in graph
        if node.base is not None
        and node.attributes.get("origin") in ("document", "analyst")
        and node.kind != analyst.READING
    ]


def key_truth(graph: Graph, key: Key, name: str) -> dict[str, bool]:
    """Every proposition true but those the key names false, leaving out those it names unlabelled."""
    named = sorted((key.false | key.unlabelled) - set(graph.nodes))
    if named:
        raise CgxError(Code.KEY_INVALID, f"the key of {name} names {named}, which are not nodes of the run")
    return {node_id: node_id not in key.false for node_id in propositions(graph) if node_id not in key.unlabelled}


def review_truth(graph: Graph) -> dict[str, bool]:
    """Each node a person's reviews decided, and decided alike."""
    said: dict[str, set[bool]] = {}
    for node in graph:
        record = check_record(node.attributes)
        if record is None or tool_of(node.attributes) != REVIEW_TOOL or record.get("result") not in VERDICTS:
            continue
        said.setdefault(str(record.get("target")), set()).add(VERDICTS[str(record["result"])])
    return {node_id: next(iter(verdicts)) for node_id, verdicts in said.items() if len(verdicts) == 1}


def requires_parents(graph: Graph) -> dict[str, list[str]]:
    """Each node's `requires` parents (what its base and its rule's strength are counted against)."""
    parents: dict[str, list[str]] = {}
    for relation in graph.relations.values():
        if relation.type == analyst.REQUIRES:
            parents.setdefault(relation.target, []).append(relation.source)
    return parents


def with_readings(graph: Graph, truth: Mapping[str, bool]) -> dict[str, bool]:
    """`truth` and each reading's: true when its target and every premise are (all labelled)."""
    parents = requires_parents(graph)
    found = dict(truth)
    for node in graph:
        if node.kind == analyst.READING and node.attributes.get("origin") == "analyst":
            sources = parents.get(node.id, [])
            if sources and all(source in truth for source in sources):
                found[node.id] = all(truth[source] for source in sources)
    return found


def parse_run_argument(argument: str) -> tuple[Path, Path | None]:
    """`RUN` or `RUN=KEY` as the command line gives them."""
    run, _, key = argument.partition("=")
    return Path(run), Path(key) if key else None


def describe(runs: Sequence[LabelledRun]) -> dict[str, int]:
    """How many runs, papers and labelled nodes (false among them) a set holds."""
    labels = [
        value
        for run in runs
        for node_id, value in run.truth.items()
        if run.graph.nodes[node_id].kind != analyst.READING
    ]
    return {
        "runs": len(runs),
        "papers": len({run.paper for run in runs}),
        "labelled": len(labels),
        "false": labels.count(False),
    }
