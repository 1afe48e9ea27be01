"""finish_run's credences: for each assessed node and assumption, before and after the observations, and why.

Before is the marginal with no evidence (the rubric's bases and strengths); after is conditioned on every
check's `observed` value (an errored check carries none and moves nothing). Alongside each, what a person
needs to read it:

- `moved_by`: the observations that moved it most given the rest (after minus after without that one),
  with sign and size, largest first;
- `own_checks`: for a node whose own check failed, the credence given its own checks alone (Bayes' rule on its
  credence before them, or an exact pass when a check observes its reading), so a failing step that other
  observations move is explained;
- `checked_by`: the check types that decided its verdict and how each check ended, so a `holds` says what it
  rests on (a cross-reference alone says where the node points, not that it is true);
- `against_verdict`: present (true) when the observations moved the credence against the verdict (a node that
  fails ending above its credence before them, or one that holds below): flagged for the reviewer;
- `shared`: the assumptions shared by several conclusions that it rests on and whose credence the
  observations moved (one check's failure reaching claims nobody checked).

Inference goes through `checks.inference` on the parent-divorced graph; a node that cannot be had is listed
under `missing` with the reason and what would fix it. Nothing here raises: finish_run never fails because of
inference. Values are rounded to 6 significant digits (what a person reads; the same bytes on replay).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from cgx_core.checks.inference import EXACT, Budget, Marginals, all_marginals
from cgx_core.graph.divorce import divorced
from cgx_core.run.call_control import checkpoint

if TYPE_CHECKING:
    from credencegraph.core import Graph, Node
    from credencegraph.semantics import Network

PLACES = 6
MOVERS = 3
MOVED = 0.005
"""An assumption whose credence moved less than this is not said to have moved anything."""
LEAVE_ONE_OUT_WORK = 2**24
"""What all the leave-one-out passes together may cost (see BUCKET_WORK); beyond it the note says how many ran."""
BUCKET_WORK = 256
"""A pass's cost per variable besides its table entries: the numpy calls of one bucket cost about that many."""
SMALLEST_MOVE = 1e-6


def observations(graph: Graph) -> dict[str, bool]:
    """Every check's observed value: true for a pass, false for a fail."""
    return {node.id: bool(node.attributes["observed"]) for node in graph if "observed" in node.attributes}


def credenced_nodes(graph: Graph) -> list[str]:
    """The nodes a credence is given for: every assessed node and every assumption, in graph order."""
    return [
        node.id
        for node in graph
        if node.attributes.get("origin") in ("document", "analyst")
        and (isinstance(node.attributes.get("assessment"), Mapping) or node.kind == "assumption")
    ]


def _round(value: float) -> float:
    """`value` to PLACES significant digits: what a person reads, and the same bytes on replay."""
    return float(f"{float(value):.{PLACES}g}")


def _missing(node_ids: Iterable[str], reason: str, fix: str) -> dict[str, dict[str, str]]:
    return {node_id: {"reason": reason, "fix": fix} for node_id in node_ids}


def _checks_of(graph: Graph) -> dict[str, list[str]]:
    """Each node's checks: the evidence nodes observing it, or its reading (a premised check observes the
    target as read with its premises, and its record names the target), in graph order."""
    from cgx_core.graph.evidence import check_record

    found: dict[str, list[str]] = {}
    for relation in graph.relations.values():
        if relation.type != "observes":
            continue
        record = check_record(graph.nodes[relation.target].attributes)
        target = record.get("target") if record is not None else None
        found.setdefault(target if isinstance(target, str) else relation.source, []).append(relation.target)
    return found


def _checked_by(graph: Graph, checks: list[str]) -> dict[str, list[str]]:
    """Which check types decided a node, and how each of their checks ended (a `holds` says what it rests on:
    a node checked only by a cross-reference is known to point at the right object, not to be true)."""
    found: dict[str, list[str]] = {}
    for check in checks:
        node = graph.nodes[check]
        observed = node.attributes.get("observed")
        result = "error" if observed is None else "passed" if observed else "failed"
        found.setdefault(node.kind, []).append(result)
    return {kind: sorted(results) for kind, results in sorted(found.items())}


def node_verdict(node: Node) -> str | None:
    """The verdict finish_run derived for a node (`attributes.assessment`), or None."""
    assessment = node.attributes.get("assessment")
    return assessment.get("verdict") if isinstance(assessment, Mapping) else None


def against_verdict(verdict: str | None, before: float, after: float) -> bool:
    """Whether the observations moved a credence against its node's verdict: a node that fails ending above
    where it started, or one that holds ending below. The model weighs every observation, so this can
    happen (a failed check of one number, passes of others); the report flags each such node."""
    return (verdict == "fails" and after > before) or (verdict == "holds" and after < before)


def _downstream(graph: Graph, sources: Iterable[str]) -> dict[str, set[str]]:
    """For each of `sources`, every node resting on it, transitively along `requires` (no recursion: a
    chain of premises may be thousands deep)."""
    conclusions: dict[str, list[str]] = {}
    for relation in graph.relations.values():
        if relation.type == "requires":
            conclusions.setdefault(relation.source, []).append(relation.target)
    found: dict[str, set[str]] = {}
    for source in sources:
        reached: set[str] = set()
        stack = list(conclusions.get(source, ()))
        while stack:
            node_id = stack.pop()
            if node_id not in reached:
                reached.add(node_id)
                stack.extend(conclusions.get(node_id, ()))
        found[source] = reached
    return found


def _shared_assumptions(graph: Graph) -> set[str]:
    conclusions = Counter(
        relation.source
        for relation in graph.relations.values()
        if relation.type == "requires" and graph.nodes[relation.source].attributes.get("origin") == "analyst"
    )
    return {node_id for node_id, count in conclusions.items() if count > 1}


def _evidence(network: Network, observed: Mapping[str, bool]) -> dict[int, int]:
    return {network.index(check): int(value) for check, value in observed.items()}


def credences(graph: Graph, budget: Budget | None = None) -> dict[str, Any]:
    """report.json's `credences`: the method, each node's entry, and the nodes with none (reason and fix).

    Whatever goes wrong in inference, finish_run still finishes: an error no case below foresaw leaves every
    node without a credence, saying so, rather than refusing the call."""
    try:
        return _credences(graph, budget or Budget())
    except Exception as error:  # the one place that keeps inference from failing finish_run
        return {
            "method": (budget or Budget()).describe(),
            "nodes": {},
            "missing": _missing(
                credenced_nodes(graph),
                f"inference failed: {type(error).__name__}: {error}",
                "report this run to the maintainers (replay reproduces it)",
            ),
        }


def _credences(graph: Graph, budget: Budget) -> dict[str, Any]:
    from credencegraph.core import CredenceGraphError
    from credencegraph.semantics import CompileError, compile_graph

    wanted = credenced_nodes(graph)
    observed = observations(graph)
    summary: dict[str, Any] = {"method": budget.describe(), "nodes": {}, "missing": {}}
    try:
        network = compile_graph(divorced(graph))
    except (CompileError, MemoryError) as error:
        summary["missing"] = _missing(
            wanted,
            f"the graph does not compile: {error}",
            "finish_run's gate refuses such a graph; report this run to the maintainers",
        )
        return summary
    carried = [node_id for node_id in wanted if node_id not in graph.nodes or graph.nodes[node_id].base is None]
    summary["missing"].update(
        _missing(
            carried,
            "it is not an inference variable (no base)",
            "type it with a rubric type that has a base (classify), then finish_run again",
        )
    )
    wanted = [node_id for node_id in wanted if node_id not in carried]
    try:
        before = all_marginals(network, {}, budget)
        evidence = _evidence(network, observed)
        after = all_marginals(network, evidence, budget)
    except CredenceGraphError as error:
        summary["missing"].update(
            _missing(
                wanted,
                f"{type(error).__name__}: {error}",
                "look for exclusive relations the observations contradict; report the run if there are none",
            )
        )
        return summary
    by_check = _checks_of(graph)
    verdict = {node_id: node_verdict(graph.nodes[node_id]) for node_id in wanted}
    failing = [node_id for node_id in wanted if verdict[node_id] == "fails"]
    own: dict[str, float] = {}
    if after.method == EXACT:
        for node_id in failing:
            mine = {check: observed[check] for check in by_check.get(node_id, ()) if check in observed}
            own[node_id] = _own_credence(network, node_id, mine, before, budget)
    try:
        movers, movers_note = _movers(network, observed, after, wanted, budget)
    except CredenceGraphError as error:  # a subset of consistent evidence is consistent: defensive only
        movers, movers_note = {}, f"not computed: {type(error).__name__}: {error}"
    shared = _shared_assumptions(graph)
    moved_shared = {
        node_id
        for node_id in shared
        if graph.nodes[node_id].base is not None
        and abs(after.true[network.index(node_id)] - before.true[network.index(node_id)]) >= MOVED
    }
    reaches = _downstream(graph, sorted(moved_shared))
    for node_id in wanted:
        index = network.index(node_id)
        entry: dict[str, Any] = {
            "before": _round(before.true[index]),
            "after": _round(after.true[index]),
            "method": after.method if before.method == EXACT else before.method,
        }
        bound = max(float(before.bound[index]), float(after.bound[index]))
        if bound > 0:
            entry["bound"] = _round(bound)
        if node_id in own:
            entry["own_checks"] = _round(own[node_id])
        if by_check.get(node_id):
            entry["checked_by"] = _checked_by(graph, by_check[node_id])
        if against_verdict(verdict[node_id], entry["before"], entry["after"]):
            entry["against_verdict"] = True
        if node_id in movers:
            entry["moved_by"] = movers[node_id]
        through = [assumption for assumption, reached in reaches.items() if node_id in reached]
        if through:
            entry["shared"] = through
        summary["nodes"][node_id] = entry
    if movers_note:
        summary["moved_by"] = movers_note
    flagged = [node_id for node_id, entry in summary["nodes"].items() if entry.get("against_verdict")]
    if flagged:
        summary["against_verdict"] = flagged
    return summary


def _likelihood(network: Network, check: str, value: bool) -> tuple[int, float, float]:
    """The variable a check observes, and P(its observed value | that variable false, true)."""
    variable = network.variables[network.index(check)]
    table = network.factors[variable.index].table[:, int(value)]
    return variable.parents[0], float(table[0]), float(table[1])


def _own_credence(network: Network, node_id: str, mine: Mapping[str, bool], before: Marginals, budget: Budget) -> float:
    """The node's credence given its own checks alone.

    A check is a leaf whose one parent is what it observes, so when every check observes the node itself
    Bayes' rule on its credence before any observation is exact: one product, not one pass over the whole
    network per failing node (a pass each made the credences quadratic in a paper's size). A check that
    observes the node's reading with premises moves it through them: that node gets its exact pass."""
    index = network.index(node_id)
    likelihoods = [_likelihood(network, check, value) for check, value in mine.items()]
    if before.method != EXACT or any(parent != index for parent, _, _ in likelihoods):
        return float(all_marginals(network, _evidence(network, mine), budget).true[index])
    true, false = float(before.true[index]), 1.0 - float(before.true[index])
    for _, when_false, when_true in likelihoods:
        true, false = true * when_true, false * when_false
        total = true + false  # kept normalised: no product of many small numbers
        true, false = true / total, false / total
    return true


def _local_effect(network: Network, check: str, value: bool, after: Marginals) -> float:
    """How much leaving out one observation changes its own target's credence: exact from that credence
    alone (divide its likelihood back out), so ranking the observations costs no pass."""
    parent, when_false, when_true = _likelihood(network, check, value)
    p = float(after.true[parent])
    true, false = p / when_true, (1 - p) / when_false
    return abs(p - true / (true + false))


def _movers(
    network: Network, observed: Mapping[str, bool], after: Marginals, wanted: list[str], budget: Budget
) -> tuple[dict[str, list[dict[str, Any]]], str | None]:
    """For each node, the observations whose leaving out changes its credence most (one exact pass each).

    The passes go to the observations that moved their own target most, as many as LEAVE_ONE_OUT_WORK
    allows (a pass costs its entries and BUCKET_WORK per variable); the note says when some were left out."""
    if not observed:
        return {}, None
    if after.method != EXACT:
        return {}, "not computed: the credences are approximate, and so would their differences be"
    per_pass = after.cost[1] + BUCKET_WORK * len(network)
    ranked = sorted(observed, key=lambda check: (-_local_effect(network, check, observed[check], after), check))
    chosen = ranked[: max(1, LEAVE_ONE_OUT_WORK // per_pass)]
    indices = [network.index(node_id) for node_id in wanted]
    effects: dict[str, list[tuple[float, str]]] = {node_id: [] for node_id in wanted}
    for check in chosen:
        checkpoint()  # each pass is a safe place for a cancelled call to stop
        rest = {other: value for other, value in observed.items() if other != check}
        without = all_marginals(network, _evidence(network, rest), budget).true
        for node_id, index in zip(wanted, indices, strict=True):
            change = float(after.true[index] - without[index])
            if abs(change) >= SMALLEST_MOVE:
                effects[node_id].append((change, check))
    note = None
    if len(chosen) < len(ranked):
        note = (
            f"weighed for the {len(chosen)} of {len(ranked)} observations that moved their own node most "
            f"(one exact pass each, {per_pass} entries a pass, within {LEAVE_ONE_OUT_WORK})"
        )
    return {
        node_id: [
            {"check": check, "by": _round(change)}
            for change, check in sorted(found, key=lambda item: (-abs(item[0]), item[1]))[:MOVERS]
        ]
        for node_id, found in effects.items()
        if found
    }, note


SHOWN_MISSING = 5


def credences_result(summary: Mapping[str, Any]) -> dict[str, Any]:
    """What finish_run's result says of the credences: how many of each method, and the first missing ones."""
    counts = Counter(entry["method"] for entry in summary["nodes"].values())
    missing = summary["missing"]
    result: dict[str, Any] = {**dict(sorted(counts.items())), "missing": len(missing)}
    if missing:
        result["missing_shown"] = dict(list(missing.items())[:SHOWN_MISSING])
        result["fix"] = "report.json's credences.missing lists every node without a credence, with its reason"
    return result
