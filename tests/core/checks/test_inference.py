"""Scalable inference (checks/inference.py) on parent-divorced graphs (graph/divorce.py), against
credencegraph's own exact engine wherever that one can answer."""

from __future__ import annotations

import random

import pytest
from credencegraph.core import Graph, Node, Relation
from credencegraph.inference import VariableElimination, conditional, marginal
from credencegraph.semantics import compile_graph

from cgx_core.checks.inference import APPROXIMATE, EXACT, BucketTree, Budget, all_marginals, likelihood_weighting
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
