"""Inference that scales: every marginal of a network at once, exact within a budget, else a seeded estimate.

`BucketTree` is a credencegraph `Engine` (its public inference interface: `probability` of a partial
assignment, so `marginal`, `conditional` and the rest take it as `engine=`), and it also answers the
question a report asks, every variable's marginal given one set of evidence, in two passes over one
elimination tree (Hugin's collect and distribute) instead of one elimination per node.

The elimination order is credencegraph's min-fill on the factor scopes left once the evidence is fixed; for
the graphs agents build (chunks resting on chunks, one method chunk under many results, analyst assumptions
shared by many conclusions, each check a leaf observed) it keeps every clique small, and parent divorcing
(graph/divorce.py) keeps fan-in out of the tables. Before a number is computed the cliques are sized: the
largest table (memory) and the entries of all of them (CPU, the work of one pass) must stay within the
`Budget`, and the order's search stops at the first step that exceeds it; wall time is never looked at, so
the answer is the same on a busy machine. Every table is normalised as each factor and message arrives (the
evidence's probability kept as a sum of logarithms), so no size of graph underflows to "probability zero".

Beyond the budget `likelihood_weighting` estimates the marginals from a fixed number of samples drawn from a
seeded generator (the same bytes every time), and returns for each a 95% half-width (normal approximation of
the weighted estimator, Kish's effective sample size): a recorded, approximate answer, never a silent one.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs
import numpy as np
from credencegraph.inference import Engine, ZeroProbabilityError

if TYPE_CHECKING:
    from credencegraph.semantics import Network

EXACT = "exact"
APPROXIMATE = "likelihood-weighting"
Z_95 = 1.959963984540054
SAMPLE_ROWS = 256
"""Variables whose samples are weighed at once: a float copy of all of them was 8 bytes per sample per variable
(1.6 GB for 10,000 variables of 20,000 samples)."""


@attrs.frozen
class Budget:
    """What one exact pass may cost: its largest clique table and all its tables, in entries (8 bytes each)."""

    max_table: int = 2**20
    max_work: int = 2**24
    samples: int = 20_000
    seed: int = 25

    def describe(self) -> str:
        return (
            f"exact when the largest clique table has at most {self.max_table} entries and one pass at most "
            f"{self.max_work}; otherwise {self.samples} likelihood-weighted samples (seed {self.seed})"
        )


@attrs.frozen
class Marginals:
    """P(variable true | evidence) for every variable, how it was had, and each estimate's 95% half-width."""

    true: np.ndarray
    method: str
    bound: np.ndarray
    cost: tuple[int, int]
    """The largest clique table and the entries of one pass (what the budget is compared with)."""


@attrs.frozen
class Plan:
    order: tuple[int, ...]
    cliques: tuple[tuple[int, ...], ...]
    parent: tuple[int, ...]
    """The position (in `order`) of the bucket each bucket sends its message to; -1 for a root."""
    position: Mapping[int, int]

    @property
    def cost(self) -> tuple[int, int]:
        sizes = [2 ** len(clique) for clique in self.cliques]
        return max(sizes, default=1), sum(sizes)

    def home(self, scope: tuple[int, ...]) -> int:
        """The bucket a factor over `scope` is multiplied into; -1 for a factor with no variable left."""
        return min((self.position[v] for v in scope), default=-1)


def _reduced(network: Network, evidence: Mapping[int, int]) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """The factors with the evidence fixed, an unobserved observation left out: it has no child (a check is
    a leaf) and its table sums to one over its own value, so it changes no answer. Every query on one
    network then has the same interaction graph, and one plan serves them all."""
    from credencegraph.semantics import is_observation

    has_child = {parent for variable in network.variables for parent in variable.parents}
    out = []
    for variable, factor in zip(network.variables, network.factors, strict=True):
        if is_observation(variable) and variable.index not in evidence and variable.index not in has_child:
            continue
        index = tuple(evidence.get(v, slice(None)) for v in factor.scope)
        out.append((tuple(v for v in factor.scope if v not in evidence), np.asarray(factor.table[index])))
    return out


class PlanTooLarge(Exception):
    """min_fill stopped: the cliques of its order so far already exceed the budget, so sampling is certain."""

    def __init__(self, table: int, work: int) -> None:
        super().__init__(table, work)
        self.table = table
        self.work = work


def min_fill(scopes: Iterable[tuple[int, ...]], budget: Budget | None = None) -> list[int]:
    """credencegraph's greedy min-fill order (fewest added edges, then fewest neighbours, then lowest index),
    its `min_fill_order` made to scale, and stopped as soon as the budget is certainly exceeded.

    A variable's fill is the pairs of its neighbours not yet joined: C(degree, 2) minus the triangles through
    it. Both are kept up to date as variables go (removing one takes its triangles; each fill edge adds one
    with every neighbour its ends share), so a score costs nothing to recompute, and only the variables whose
    degree or triangles changed are scored again. credencegraph rescores every variable at every step, and
    recounting the fill of one method under thousands of results after each of them went was quadratic.

    Eliminating a variable makes a clique of it and its neighbours, the table of its bucket: with a `budget`,
    the order stops (PlanTooLarge) when one such table, or all of them so far, exceeds what an exact pass may
    cost. The count is of entries, never of time: the same graph stops at the same step on any machine."""
    neighbours: dict[int, set[int]] = {}
    for scope in scopes:
        for variable in scope:
            neighbours.setdefault(variable, set()).update(v for v in scope if v != variable)
    triangles = dict.fromkeys(neighbours, 0)
    for variable, around in neighbours.items():
        for other in around:
            if other > variable:
                for third in around & neighbours[other]:
                    if third > other:
                        triangles[variable] += 1
                        triangles[other] += 1
                        triangles[third] += 1

    def cost(variable: int) -> tuple[int, int, int]:
        count = len(neighbours[variable])
        return count * (count - 1) // 2 - triangles[variable], count, variable

    heap = [cost(variable) for variable in neighbours]
    heapq.heapify(heap)
    current = {entry[2]: entry for entry in heap}
    order: list[int] = []
    work = 0
    while heap:
        entry = heapq.heappop(heap)
        variable = entry[2]
        if current.get(variable) != entry:
            continue  # a stale score, superseded by a later push
        if budget is not None:
            table = 2 ** (entry[1] + 1)
            work += table
            if table > budget.max_table or work > budget.max_work:
                raise PlanTooLarge(table, work)
        del current[variable]
        around = neighbours.pop(variable)
        for other in around:  # the triangles through `variable` go with it
            triangles[other] -= len(neighbours[other] & around)
            neighbours[other].discard(variable)
        touched = set(around)
        for first in around:  # its neighbours become a clique
            for second in around - neighbours[first]:
                if second <= first:
                    continue  # each pair once (and never a variable with itself)
                shared = neighbours[first] & neighbours[second]
                for third in shared:
                    triangles[third] += 1
                triangles[first] += len(shared)
                triangles[second] += len(shared)
                touched |= shared
                neighbours[first].add(second)
                neighbours[second].add(first)
        order.append(variable)
        for other in touched:
            fresh = cost(other)
            if current[other] != fresh:
                current[other] = fresh
                heapq.heappush(heap, fresh)
    return order


@functools.lru_cache(maxsize=32)
def elimination_plan(structure: tuple[tuple[int, ...], ...], budget: Budget | None) -> Plan | PlanTooLarge:
    """The buckets of min-fill elimination over the distinct factor scopes, sized before any table is built;
    or, with a budget, why there is none: the order stopped where the budget was certainly exceeded."""
    try:
        order = tuple(min_fill(structure, budget))
    except PlanTooLarge as beyond:
        return beyond
    position = {variable: step for step, variable in enumerate(order)}
    bucket_scopes: list[set[int]] = [set() for _ in order]
    for scope in structure:
        bucket_scopes[min(position[v] for v in scope)].update(scope)
    parent = []
    for step, variable in enumerate(order):
        rest = bucket_scopes[step] - {variable}
        if rest:
            target = min(position[v] for v in rest)
            bucket_scopes[target].update(rest)
            parent.append(target)
        else:
            parent.append(-1)
    cliques = tuple(tuple(sorted(scope)) for scope in bucket_scopes)
    return Plan(order, cliques, tuple(parent), position)


def _plan_of(factors: Sequence[tuple[tuple[int, ...], np.ndarray]], budget: Budget | None) -> Plan | PlanTooLarge:
    """The plan of these factors: keyed by their interaction graph (a factor over one variable adds no edge),
    so the queries of one network, which differ only in such factors, share one plan."""
    edges = {tuple(sorted(scope)) for scope, _ in factors if len(scope) > 1}
    alone = {(scope[0],) for scope, _ in factors if len(scope) == 1} - {(v,) for scope in edges for v in scope}
    return elimination_plan(tuple(sorted(edges | alone)), budget)


def _expand(scope: tuple[int, ...], table: np.ndarray, clique: tuple[int, ...]) -> np.ndarray:
    """`table` (axes in `scope` order) with its axes in `clique` order and length 1 for the others."""
    place = {variable: axis for axis, variable in enumerate(clique)}
    permutation = sorted(range(len(scope)), key=lambda axis: place[scope[axis]])
    ordered = np.transpose(table, permutation)
    present = set(scope)
    return ordered.reshape([2 if variable in present else 1 for variable in clique])


def _onto(table: np.ndarray, clique: tuple[int, ...], kept: tuple[int, ...]) -> np.ndarray:
    keep = set(kept)
    axes = tuple(axis for axis, variable in enumerate(clique) if variable not in keep)
    return table.sum(axis=axes) if axes else table


def _normalised(table: np.ndarray) -> tuple[np.ndarray, float]:
    total = float(table.sum())
    if total <= 0.0 or not math.isfinite(total):
        raise ZeroProbabilityError("the evidence, together with the exclusive constraints, has probability zero")
    return table / total, math.log(total)


class BucketTree(Engine):  # type: ignore[misc]  # credencegraph ships no type hints
    """Exact inference on one elimination tree, refusing (before building a table) what exceeds the budget."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()

    def plan(self, network: Network, evidence: Mapping[int, int]) -> Plan | PlanTooLarge:
        """The elimination plan of these evidence's factors, or why it exceeds the budget (found early)."""
        return _plan_of(_reduced(network, evidence), self.budget)

    def _calibrate(
        self, network: Network, evidence: Mapping[int, int], distribute: bool
    ) -> tuple[Plan, list[np.ndarray], float]:
        factors = _reduced(network, evidence)
        plan = _plan_of(factors, self.budget)
        if isinstance(plan, PlanTooLarge):
            from credencegraph.inference import ProblemTooLargeError

            raise ProblemTooLargeError(
                f"exact inference needs a clique table of at least {plan.table} entries, or {plan.work} per pass, "
                f"above the budget ({self.budget.describe()})",
                plan.table,
                self.budget.max_table,
            )
        log_total = 0.0
        beliefs: list[np.ndarray] = [np.ones([2] * len(clique)) for clique in plan.cliques]
        for scope, table in factors:
            home = plan.home(scope)
            if home < 0:
                log_total += _normalised(np.asarray(table, dtype=float).reshape(1))[1]
                continue
            beliefs[home] = beliefs[home] * _expand(scope, table, plan.cliques[home])
            beliefs[home], scale = _normalised(beliefs[home])
            log_total += scale
        sent: list[np.ndarray] = []
        for step, clique in enumerate(plan.cliques):
            beliefs[step], scale = _normalised(beliefs[step])
            log_total += scale
            target = plan.parent[step]
            separator = tuple(v for v in clique if v != plan.order[step])
            message = _onto(beliefs[step], clique, separator)
            sent.append(message)
            if target < 0:
                continue
            # Normalised as each message arrives, not once per bucket: a variable many buckets send to (one
            # method under thousands of results) would otherwise multiply thousands of numbers below one and
            # underflow to zero, an evidence of "probability zero" that is only a float's range.
            beliefs[target], scale = _normalised(beliefs[target] * _expand(separator, message, plan.cliques[target]))
            log_total += scale
        if distribute:
            for step in reversed(range(len(plan.order))):
                target = plan.parent[step]
                if target < 0:
                    continue
                clique = plan.cliques[step]
                separator = tuple(v for v in clique if v != plan.order[step])
                fresh = _onto(beliefs[target], plan.cliques[target], separator)
                old = sent[step]
                ratio = np.divide(fresh, old, out=np.zeros_like(fresh), where=old > 0)
                beliefs[step], _ = _normalised(beliefs[step] * _expand(separator, ratio, clique))
        return plan, beliefs, log_total

    def probability(self, network: Network, assignment: Mapping[int, int]) -> float:
        try:
            _, _, log_total = self._calibrate(network, assignment, distribute=False)
        except ZeroProbabilityError:
            return 0.0
        return math.exp(log_total)

    def marginals(self, network: Network, evidence: Mapping[int, int]) -> Marginals:
        """P(true | evidence, constraints) of every variable, exactly (raises ProblemTooLargeError beyond budget)."""
        given = {**evidence, **{index: int(value) for index, value in network.constraints.items()}}
        plan, beliefs, _ = self._calibrate(network, given, distribute=True)
        true = np.zeros(len(network))
        for variable, value in given.items():
            true[variable] = float(value)
        for step, variable in enumerate(plan.order):
            table = _onto(beliefs[step], plan.cliques[step], (variable,))
            true[variable] = float(table[1] / table.sum())
        return Marginals(true, EXACT, np.zeros(len(network)), plan.cost)


def likelihood_weighting(network: Network, evidence: Mapping[int, int], budget: Budget) -> Marginals:
    """Every marginal estimated from `budget.samples` weighted samples (seeded: the same bytes every run)."""
    given = {**evidence, **{index: int(value) for index, value in network.constraints.items()}}
    generator = np.random.Generator(np.random.PCG64(budget.seed))
    count = budget.samples
    values = np.zeros((len(network), count), dtype=np.int8)
    log_weight = np.zeros(count)
    for variable, factor in zip(network.variables, network.factors, strict=True):
        parents = tuple(values[parent] for parent in factor.scope[:-1])
        rows = factor.table[parents] if parents else np.broadcast_to(factor.table, (count, 2))
        index = variable.index
        if index in given:
            values[index] = given[index]
            with np.errstate(divide="ignore"):
                log_weight += np.log(rows[:, given[index]])
        else:
            values[index] = generator.random(count) < rows[:, 1]
    if not np.isfinite(log_weight).any():
        raise ZeroProbabilityError("no sample agrees with the evidence and the exclusive constraints")
    weight = np.exp(log_weight - log_weight.max())  # the weights' log-sum-exp: no sample's weight underflows
    total = weight.sum()
    squared = weight**2
    weighted, weighted_squared = np.empty(len(network)), np.empty(len(network))
    for start in range(0, len(network), SAMPLE_ROWS):  # a float copy of a few rows at a time, never of all
        rows_of = values[start : start + SAMPLE_ROWS].astype(float)
        weighted[start : start + SAMPLE_ROWS] = rows_of @ weight
        weighted_squared[start : start + SAMPLE_ROWS] = rows_of @ squared
    true = weighted / total
    # sum of w^2 (x - p)^2 for x in {0, 1} is (1 - 2p) sum w^2 x + p^2 sum w^2: no samples-by-variables copy.
    spread = np.sqrt(np.maximum((1 - 2 * true) * weighted_squared + true**2 * squared.sum(), 0.0)) / total
    # When a few samples carry the weight the estimated spread is itself unreliable: never claim less than
    # a proportion's worst spread over Kish's effective sample size.
    effective = total**2 / squared.sum()
    bound = np.minimum(Z_95 * np.maximum(spread, 0.5 / math.sqrt(effective)), 1.0)
    largest = max((2 ** len(factor.scope) for factor in network.factors), default=1)
    return Marginals(true, APPROXIMATE, bound, (largest, count * len(network)))


def all_marginals(network: Network, evidence: Mapping[int, int], budget: Budget | None = None) -> Marginals:
    """Exact marginals when the budget allows them, else the seeded estimate with its bounds."""
    engine = BucketTree(budget)
    given = {**evidence, **{index: int(value) for index, value in network.constraints.items()}}
    if isinstance(engine.plan(network, given), PlanTooLarge):
        return likelihood_weighting(network, evidence, engine.budget)
    return engine.marginals(network, evidence)
