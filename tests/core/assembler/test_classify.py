"""classify: records applied in document order, judged together, each whole or not at all."""

from __future__ import annotations

import json

from assembler_testkit import BASE_RECORDS, REST, RUN, cyclic_rubric, with_check
from credencegraph.core import Beta, Graph, Point, dumps
from credencegraph.rubric import Rubric, check_graph

from cgx_core.assembler import add_premises, classify
from cgx_core.graph.nodes import children


def test_a_whole_paper_classified_in_one_call_passes_check_graph(tiny: Graph, rubric: Rubric) -> None:
    records = [*reversed(BASE_RECORDS), *REST]
    outcome = classify(tiny, rubric, records, run_id=RUN)
    assert outcome.result["refused"] == []
    assert [entry["record"] for entry in outcome.result["applied"]] == list(range(len(records)))
    assert check_graph(outcome.graph, rubric, "typed", rubric_credences=True) == []
    json.dumps(outcome.result, allow_nan=False)


def test_a_record_may_rest_on_a_node_typed_later_in_the_document_by_the_same_call(tiny: Graph, rubric: Rubric) -> None:
    # s-1 (the abstract) rests on s-5a, a clause of a chunk further on that the same call splits and types.
    outcome = classify(tiny, rubric, BASE_RECORDS, run_id=RUN)
    assert outcome.result["refused"] == []
    assert outcome.graph.relations["s-5a-requires-s-1"].strength == rubric.types["claim"].rests_on.strength


def test_types_bases_strengths_and_stated_come_from_the_rubric(tiny: Graph, rubric: Rubric) -> None:
    outcome = classify(tiny, rubric, BASE_RECORDS, run_id=RUN)
    graph = outcome.graph
    assert graph.nodes["s-2"].base == rubric.types["method"].base
    assert graph.nodes["s-5a"].base == rubric.types["result"].base
    assert graph.nodes["s-5"].kind == "compound" and graph.nodes["s-5"].base is None
    assert children(graph, "s-5") == ["s-5a", "s-5b"]
    assert graph.relations["s-2-requires-s-5a"].strength == rubric.types["result"].rests_on.strength
    assert graph.nodes["s-1"].stated == Beta(19, 1)  # "we show" written lower case, "We show" in the text
    assert graph.nodes["s-5b"].stated == Point(0.7)
    by_node = {entry["node"]: entry for entry in outcome.result["applied"]}
    assert by_node["s-1"]["stated"] == {"alpha": 19.0, "beta": 1.0}
    assert by_node["s-5"]["children"][1] == {
        "node": "s-5b",
        "type": "claim",
        "stated": 0.7,
        "relations": ["s-5a-requires-s-5b"],
    }


def test_every_node_and_relation_a_call_makes_or_changes_is_stamped(tiny: Graph, rubric: Rubric) -> None:
    outcome = classify(tiny, rubric, BASE_RECORDS, run_id=RUN)
    stamp = {"run": RUN, "tool": "classify"}
    changed = {"s-1", "s-2", "s-4", "s-5", "s-5a", "s-5b"}
    for node in outcome.graph:
        assert (node.attributes.get("extraction") == stamp) == (node.id in changed), node.id
    for relation in outcome.graph.relations.values():
        if relation.type == "requires":
            assert relation.attributes["extraction"] == stamp


def test_an_unlisted_hedge_sets_nothing_and_is_returned(tiny: Graph, rubric: Rubric) -> None:
    record = {"node": "s-4", "type": "derivation", "hedge": "gives an  Unbiased"}
    outcome = classify(tiny, rubric, [record], run_id=RUN)
    assert outcome.result["unmapped_hedges"] == [{"node": "s-4", "phrase": "gives an unbiased"}]
    assert outcome.graph.nodes["s-4"].stated is None
    assert "stated" not in outcome.result["applied"][0]


def test_a_longer_hedge_is_read_as_the_longest_listed_phrase_it_holds(tiny: Graph, rubric: Rubric) -> None:
    """ "most likely" was unmapped while "likely" is listed (issue 37): a longer phrase counts as the longest
    listed phrase it holds as whole words, and the result says which."""
    record = {"node": "s-7", "type": "claim", "form": {"shape": "universal"}, "hedge": "is Likely"}
    outcome = classify(tiny, rubric, [record], run_id=RUN)
    assert outcome.result["refused"] == [] and outcome.result["unmapped_hedges"] == []
    [applied] = outcome.result["applied"]
    assert applied["hedge"] == "likely" and applied["stated"] == 0.7
    assert outcome.graph.nodes["s-7"].stated == rubric.hedge("likely")
    listed = classify(tiny, rubric, [{**record, "hedge": "likely"}], run_id=RUN).result["applied"][0]
    assert "hedge" not in listed  # a listed phrase is itself


def test_a_hedge_is_a_run_of_whole_words(tiny: Graph, rubric: Rubric) -> None:
    outcome = classify(tiny, rubric, [{"node": "s-7", "type": "claim", "hedge": "like"}], run_id=RUN)
    assert outcome.result["refused"][0]["code"] == "hedge-not-in-text"


def test_a_split_is_applied_whole_or_not_at_all(tiny: Graph, rubric: Rubric) -> None:
    record = {
        "node": "s-7",
        "split": ["The bias vanishes for long segments", "the estimator is likely consistent"],
        "children": [{"type": "result"}, {"type": "claim", "form": {"shape": "sometimes"}}],
    }
    outcome = classify(tiny, rubric, [record], run_id=RUN)
    assert outcome.result["applied"] == []
    assert outcome.result["refused"][0]["child"] == 1
    assert outcome.graph == tiny
    assert "s-7a" not in outcome.graph


def test_a_record_whose_links_fail_is_undone_and_the_others_stay(tiny: Graph, rubric: Rubric) -> None:
    records = [
        {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
        {"node": "s-3", "type": "result", "rests_on": ["r-1"]},  # typed in step 1, refused in step 3
    ]
    outcome = classify(tiny, rubric, records, run_id=RUN)
    assert [entry["record"] for entry in outcome.result["applied"]] == [0]
    assert outcome.result["refused"][0]["code"] == "rests-on-type"
    assert outcome.graph.nodes["s-3"] == tiny.nodes["s-3"]


def test_a_record_resting_on_a_refused_record_of_the_same_call_is_refused_too(tiny: Graph, rubric: Rubric) -> None:
    records = [
        {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-2"]},
        {"node": "s-2", "type": "method", "form": {"kind": "guesswork"}},
    ]
    outcome = classify(tiny, rubric, records, run_id=RUN)
    assert [entry["code"] for entry in outcome.result["refused"]] == ["rests-on-type", "form-invalid"]
    assert outcome.graph == tiny


def test_classifying_again_starts_from_the_ingested_node(tiny: Graph, rubric: Rubric) -> None:
    first = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    record = {"node": "s-5a", "type": "result", "form": {"quantity": "The mean error"}, "rests_on": ["s-4"]}
    outcome = classify(first, rubric, [record], run_id="run-2")
    entry = outcome.result["applied"][0]
    assert entry["previous"] == "result"
    assert entry["dropped"] == ["s-2-requires-s-5a", "e-1-requires-s-5a"]
    node = outcome.graph.nodes["s-5a"]
    assert dict(node.attributes["form"]) == {"quantity": "The mean error"}  # the old value is gone
    assert node.attributes["extraction"] == {"run": "run-2", "tool": "classify"}
    assert "s-2-requires-s-5a" not in outcome.graph.relations
    assert "s-5a-requires-s-5b" in outcome.graph.relations  # what rests on it stays
    assert check_graph(outcome.graph, rubric, "anchored", rubric_credences=True) == []


def test_classifying_again_keeps_the_premises_add_premises_gave(tiny: Graph, rubric: Rubric) -> None:
    first = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    premises = [{"conclusion": "s-5b", "premises": [{"stated_at": "s-5a"}, {"statement": "Noise is white."}]}]
    premised = add_premises(first, rubric, premises, run_id=RUN)
    record = {"node": "s-5b", "type": "claim", "form": {"shape": "existential"}}
    outcome = classify(premised.graph, rubric, [record], run_id=RUN)
    assert outcome.result["refused"] == []
    assert {"s-5a-requires-s-5b", "a-1-requires-s-5b"} <= set(outcome.graph.relations)
    assert "dropped" not in outcome.result["applied"][0]  # add_premises took s-5a-requires-s-5b over


def test_a_split_record_on_a_typed_chunk_resets_it_first(tiny: Graph, rubric: Rubric) -> None:
    first = classify(tiny, rubric, [{"node": "s-8", "type": "assumption"}], run_id=RUN).graph
    record = {
        "node": "s-8",
        "split": ["The noise is noise", "the noise is white"],
        "children": [{"type": "assumption"}] * 2,
    }
    outcome = classify(first, rubric, [record], run_id=RUN)
    assert outcome.result["applied"][0]["previous"] == "assumption"
    assert outcome.graph.nodes["s-8"].kind == "compound"
    assert outcome.graph.nodes["s-8"].base is None


def test_a_failed_reclassification_that_dropped_links_leaves_the_node_as_it_was(tiny: Graph, rubric: Rubric) -> None:
    first = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    records = [{"node": "s-5a", "type": "result", "form": {"value": 99}}, {"node": "s-3", "type": "method"}]
    outcome = classify(first, rubric, records, run_id=RUN)
    assert outcome.result["refused"][0]["code"] == "form-not-in-text"
    assert outcome.graph.nodes["s-5a"] == first.nodes["s-5a"]
    assert "s-2-requires-s-5a" in outcome.graph.relations
    assert outcome.graph.nodes["s-3"].kind == "method"


def test_a_checked_node_keeps_its_type(tiny: Graph, rubric: Rubric) -> None:
    checked = with_check(classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph, rubric, "s-5a")
    outcome = classify(checked, rubric, [{"node": "s-5a", "type": "result"}], run_id=RUN)
    assert outcome.result["refused"][0]["code"] == "targeted-by-check"
    assert outcome.graph == checked


def test_the_later_of_two_records_closing_a_cycle_is_refused(tiny: Graph) -> None:
    rubric = cyclic_rubric()
    records = [
        {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-2"]},
        {"node": "s-2", "type": "method", "form": {"kind": "test"}},
        {"node": "s-6", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-1"]},
        {"node": "s-7", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-6"]},
        {"node": "s-4", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-7"]},
        {"node": "s-3", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-4", "s-6"]},
    ]
    outcome = classify(tiny, rubric, records, run_id=RUN)
    assert outcome.result["refused"] == []
    cyclic = [*records, {"node": "s-8", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-3"]}]
    cyclic[0] = {**cyclic[0], "rests_on": ["s-2", "s-8"]}
    outcome = classify(tiny, rubric, cyclic, run_id=RUN)
    codes = {entry["node"]: entry["code"] for entry in outcome.result["refused"]}
    assert codes["s-8"] == "cycle"


def test_the_same_call_gives_the_same_bytes(tiny: Graph, rubric: Rubric) -> None:
    records = [*BASE_RECORDS, *REST, {"node": "s-9", "type": "claim"}, {"node": "s-3", "credence": 1}]
    first = classify(tiny, rubric, records, run_id=RUN)
    second = classify(tiny, rubric, records, run_id=RUN)
    assert dumps(first.graph) == dumps(second.graph)
    assert json.dumps(first.result, sort_keys=True) == json.dumps(second.result, sort_keys=True)


def test_nothing_to_do_returns_the_graph_as_it_was(tiny: Graph, rubric: Rubric) -> None:
    outcome = classify(tiny, rubric, [], run_id=RUN)
    assert outcome.graph == tiny
    assert outcome.result == {"applied": [], "refused": [], "unmapped_hedges": []}


def test_a_relation_made_again_is_not_listed_as_dropped(tiny: Graph, rubric: Rubric) -> None:
    first = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    record = {"node": "s-5a", "type": "result", "rests_on": ["s-2"]}
    entry = classify(first, rubric, [record], run_id=RUN).result["applied"][0]
    assert entry["dropped"] == ["e-1-requires-s-5a"]
    assert entry["relations"] == ["s-2-requires-s-5a"]
