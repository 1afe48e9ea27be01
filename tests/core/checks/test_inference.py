"""Scalable inference (checks/inference.py) on parent-divorced graphs (graph/divorce.py), against
credencegraph's own exact engine wherever that one can answer."""

from __future__ import annotations

import math
import random

import pytest
from credencegraph.core import Graph, Node, Relation
from credencegraph.inference import VariableElimination, ZeroProbabilityError, conditional, marginal
from credencegraph.inference.elimination import min_fill_order
from credencegraph.semantics import compile_graph

from cgx_core.checks.inference import (
    APPROXIMATE,
    EXACT,
    BucketTree,
    Budget,
    Plan,
    PlanTooLarge,
    all_marginals,
    elimination_plan,
    likelihood_weighting,
    min_fill,
)
from cgx_core.graph.divorce import CHAIN_MARK, DIRECT_PARENTS, divorced


def random_graph(seed: int, size: int = 12, fan_in: int = 7, checks: int = 8) -> tuple[Graph, dict[str, bool]]:
    """A seeded graph with every relation inference reads: requires, supports, refutes, equivalent,
    exclusive and observes, some variables with more parents than DIRECT_PARENTS."""
    rng = random.Random(seed)
    graph = Graph()
    for index in range(size):
        graph.add_node(Node(f"n{index}", base=rng.uniform(0.3, 0.95)))
    for child in range(1, size):
        for parent in rng.sample(range(child), min(child, rng.randint(1, fan_in))):
            kind = rng.choice(["requires", "requires", "supports", "refutes"])
            graph.add_relation(
                Relation(f"r{parent}-{child}", kind, f"n{parent}", f"n{child}", strength=rng.uniform(0.4, 0.95))
            )
    graph.add_node(Node("twin", base=graph.nodes["n3"].base))
    graph.add_relation(Relation("same", "equivalent", "n3", "twin"))
    graph.add_relation(Relation("r-twin", "requires", "n1", "twin", strength=0.7))
    graph.add_relation(Relation("apart", "exclusive", "n2", "n4"))
    observed = {}
    for index in range(checks):
        graph.add_node(Node(f"c{index}", kind="check"))
        target = f"n{rng.randrange(size)}"
        graph.add_relation(Relation(f"o{index}", "observes", target, f"c{index}", sensitivity=0.85, false_pass=0.15))
        observed[f"c{index}"] = rng.random() < 0.7
    return graph, observed


@pytest.mark.parametrize("seed", range(6))
def test_every_marginal_equals_credencegraphs_exact_answer(seed: int) -> None:
    graph, observed = random_graph(seed)
    reference = compile_graph(graph)
    network = compile_graph(divorced(graph))
    assert any(CHAIN_MARK in node.id for node in divorced(graph))  # the case under test: some chain was built
    evidence = {network.index(check): int(value) for check, value in observed.items()}
    before = all_marginals(network, {})
    after = all_marginals(network, evidence)
    assert before.method == after.method == EXACT
    engine = BucketTree()
    for node in graph:
        if node.id.startswith("c"):
            continue
        index = network.index(node.id)
        expected = conditional(reference, node.id, observed, draws=0, engine=VariableElimination()).point
        assert after.true[index] == pytest.approx(expected, abs=1e-12)
        assert before.true[index] == pytest.approx(marginal(reference, node.id, draws=0).point, abs=1e-12)
        # The same engine answers through credencegraph's own query functions (its Engine interface).
        assert conditional(network, node.id, observed, draws=0, engine=engine).point == pytest.approx(
            expected, abs=1e-12
        )


def fan_in_graph(results: int, failing: int) -> tuple[Graph, dict[str, bool]]:
    """A claim resting on `results` results, each observed by one check; the first `failing` fail."""
    graph = Graph()
    graph.add_node(Node("claim", base=0.5))
    observed = {}
    for index in range(results):
        graph.add_node(Node(f"r{index}", base=0.8))
        graph.add_relation(Relation(f"q{index}", "requires", f"r{index}", "claim", strength=0.9))
        graph.add_node(Node(f"c{index}", kind="check"))
        graph.add_relation(
            Relation(f"o{index}", "observes", f"r{index}", f"c{index}", sensitivity=0.85, false_pass=0.15)
        )
        observed[f"c{index}"] = index >= failing
    return graph, observed


def test_a_claim_resting_on_fifty_results_is_exact_with_small_tables() -> None:
    """credencegraph would build a 2^51 table for this claim; divorced, no clique passes 2^3 entries, and
    the answer is the closed form of a noisy-AND of independent premises."""
    graph, observed = fan_in_graph(50, 5)
    network = compile_graph(divorced(graph))
    assert max(len(factor.scope) for factor in network.factors) <= DIRECT_PARENTS
    evidence = {network.index(check): int(value) for check, value in observed.items()}
    found = all_marginals(network, evidence)
    assert found.method == EXACT and found.cost[0] <= 8
    passed = 0.8 * 0.85 / (0.8 * 0.85 + 0.2 * 0.15)
    failed = 0.8 * 0.15 / (0.8 * 0.15 + 0.2 * 0.85)
    expected = 0.5 * (passed + (1 - passed) * 0.1) ** 45 * (failed + (1 - failed) * 0.1) ** 5
    assert found.true[network.index("claim")] == pytest.approx(expected, rel=1e-12)


def test_beyond_the_budget_the_estimate_is_seeded_bounded_and_says_so() -> None:
    graph, observed = random_graph(3)
    network = compile_graph(divorced(graph))
    evidence = {network.index(check): int(value) for check, value in observed.items()}
    exact = all_marginals(network, evidence)
    tight = Budget(max_table=2, samples=20_000)
    first = all_marginals(network, evidence, tight)
    again = all_marginals(network, evidence, tight)
    assert first.method == APPROXIMATE
    assert first.true.tobytes() == again.true.tobytes() and first.bound.tobytes() == again.bound.tobytes()
    assert (first.bound > 0).any()
    # A 95% bound: on these few variables every estimate lies within twice its bound of the exact value.
    variables = [network.index(node.id) for node in graph if not node.id.startswith("c")]
    assert all(abs(first.true[i] - exact.true[i]) <= 2 * first.bound[i] + 1e-9 for i in variables)
    other = likelihood_weighting(network, evidence, Budget(max_table=2, seed=7))
    assert other.true.tobytes() != first.true.tobytes()  # the seed is what makes it reproducible


def test_exact_inference_refuses_before_building_a_table_beyond_the_budget() -> None:
    from credencegraph.inference import ProblemTooLargeError

    graph, _ = random_graph(1)
    network = compile_graph(divorced(graph))
    with pytest.raises(ProblemTooLargeError, match="above the budget"):
        BucketTree(Budget(max_table=2)).marginals(network, {})


def test_divorce_leaves_small_fan_in_alone_and_keeps_merged_parents_together() -> None:
    graph, _ = fan_in_graph(DIRECT_PARENTS, 0)
    assert divorced(graph) is graph
    graph, _ = random_graph(2)
    chained = divorced(graph)
    network = compile_graph(chained)
    assert all(len(variable.parents) <= DIRECT_PARENTS for variable in network.variables)
    # n3 and twin are one variable: their relations feed one set of chains, into n3 (the earliest).
    assert not any(relation.target == "twin" and relation.type == "requires" for relation in chained.relations.values())


@pytest.mark.parametrize("missing_base", [False, True])
def test_the_gate_on_the_divorced_graph_finds_what_credencegraphs_check_finds(missing_base: bool) -> None:
    """Where credencegraph's own check can run (six parents), the gate that checks the assessed level on the
    divorced graph finds the same, a compile error included."""
    from credencegraph.rubric import check_graph

    from cgx_core.checks.verdicts import gate_findings
    from cgx_core.graph.rubric import load_rubric_bytes
    from support import EXAMPLE_RUBRIC

    rubric = load_rubric_bytes(EXAMPLE_RUBRIC.read_bytes(), "rubric.toml")
    graph, _ = fan_in_graph(6, 2)
    if missing_base:
        graph.add_node(Node("bare", attributes={"origin": "document"}))
        graph.add_relation(Relation("q-bare", "requires", "bare", "claim", strength=0.9))
    assert divorced(graph) is not graph
    expected = check_graph(graph, rubric, "assessed", rubric_credences=True)
    found = gate_findings(graph, rubric)
    assert sorted((item.diagnostic, item.id) for item in found) == sorted(
        (item.diagnostic, item.id) for item in expected
    )
    assert ("compile-error" in {item.diagnostic for item in found}) is missing_base


def hub_graph(results: int, observed_every: int) -> tuple[Graph, dict[str, bool]]:
    """One method under `results` results, every `observed_every`-th observed by a passed check."""
    graph = Graph()
    graph.add_node(Node("method", base=0.9))
    observed = {}
    for index in range(results):
        graph.add_node(Node(f"r{index}", base=0.8))
        graph.add_relation(Relation(f"q{index}", "requires", "method", f"r{index}", strength=0.9))
        if index % observed_every == 0:
            graph.add_node(Node(f"c{index}", kind="check"))
            graph.add_relation(
                Relation(f"o{index}", "observes", f"r{index}", f"c{index}", sensitivity=0.85, false_pass=0.15)
            )
            observed[f"c{index}"] = index % (3 * observed_every) != 0
    return graph, observed


def test_a_method_under_thousands_of_results_keeps_its_evidence_in_range() -> None:
    """Each of 3,000 results sends the method a message below one: multiplied together they were 0.5^3000,
    zero in floating point, and every credence of such a run went missing as "probability zero". Normalised
    as they arrive, the answer is the closed form (computed in log odds) whatever the count."""
    graph, observed = hub_graph(3000, 2)
    network = compile_graph(graph)
    evidence = {network.index(check): int(value) for check, value in observed.items()}
    before, after = all_marginals(network, {}), all_marginals(network, evidence)
    assert before.method == after.method == EXACT
    method, result = network.index("method"), network.factors[network.index("r0")].table
    assert before.true[method] == pytest.approx(0.9, rel=1e-12)
    # P(result | method) from its table, P(check | result) from the observes relation: each observation
    # multiplies the method's odds by its likelihood ratio, summed here as logarithms.
    log_odds = math.log(0.9 / 0.1)
    for value in observed.values():
        given = {True: 0.85, False: 0.15} if value else {True: 0.15, False: 0.85}
        likelihood = [result[m, 1] * given[True] + result[m, 0] * given[False] for m in (0, 1)]
        log_odds += math.log(likelihood[1] / likelihood[0])
    assert after.true[method] == pytest.approx(1 / (1 + math.exp(-log_odds)), rel=1e-9)


def test_contradictory_evidence_still_raises_probability_zero() -> None:
    """Keeping the evidence in range must not hide a real contradiction: a certain node whose perfect check
    failed has probability zero, in both passes."""
    graph = Graph()
    graph.add_node(Node("sure", base=1.0))
    graph.add_node(Node("c", kind="check"))
    graph.add_relation(Relation("o", "observes", "sure", "c", sensitivity=1.0, false_pass=0.0))
    network = compile_graph(graph)
    with pytest.raises(ZeroProbabilityError):
        all_marginals(network, {network.index("c"): 0})
    assert BucketTree().probability(network, {network.index("c"): 0}) == 0.0


@pytest.mark.parametrize("seed", range(40))
def test_min_fill_is_credencegraphs_order_and_stops_exactly_where_the_budget_is_exceeded(seed: int) -> None:
    """The incremental min-fill gives credencegraph's own order; with a budget it stops when, and only
    when, the full plan's largest table or its entries a pass exceed it (so the same plans stay exact)."""
    rng = random.Random(seed)
    count = rng.randint(1, 30)
    scopes = [tuple(rng.sample(range(count), rng.randint(1, min(count, 4)))) for _ in range(rng.randint(1, 45))]
    assert min_fill(scopes) == min_fill_order(scopes)
    cost = elimination_plan(tuple(sorted({tuple(sorted(scope)) for scope in scopes})), None)
    assert isinstance(cost, Plan)
    for budget in (Budget(max_table=4, max_work=50), Budget(max_table=16, max_work=200), Budget(max_work=40)):
        fits = cost.cost[0] <= budget.max_table and cost.cost[1] <= budget.max_work
        try:
            min_fill(scopes, budget)
        except PlanTooLarge:
            assert not fits
        else:
            assert fits
