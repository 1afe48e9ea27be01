"""Property tests: whatever records an agent sends, a call never raises, never half-applies a record, and
never changes a node whose record it refused.

The records are drawn from what an agent plausibly sends (the paper's ids, the rubric's types, phrases
and numerals of the text, clauses cut from it) mixed with what it should not (unknown ids and types,
misplaced fields, arbitrary JSON), so that most examples exercise the assembler past the converter.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import pytest
from assembler_testkit import BASE_RECORDS, REST, RUN, with_check
from credencegraph.core import Graph
from credencegraph.rubric import Rubric, check_graph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgx_core.assembler import add_premises, classify
from cgx_core.assembler.text import numerals_of
from cgx_core.graph.nodes import children

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def graphs(tiny: Graph, rubric: Rubric) -> list[Graph]:
    base = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    premised = add_premises(
        base, rubric, [{"conclusion": "s-5b", "premises": [{"stated_at": "s-2"}, {"statement": "A."}]}], run_id=RUN
    ).graph
    return [tiny, base, with_check(premised, rubric, "s-5a")]


def _json() -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-5, 5000)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=8)
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=8,
    )


def _words(texts: list[str]) -> st.SearchStrategy[str]:
    """A run of whole words of one of the texts, or of several (so it may not occur)."""

    def cut(draw: Any) -> str:
        words = draw(st.sampled_from(texts)).split(" ")
        start = draw(st.integers(0, len(words) - 1))
        end = draw(st.integers(start + 1, min(len(words), start + 6)))
        return " ".join(words[start:end])

    return st.composite(lambda draw: cut(draw))() | st.sampled_from(["likely", "we show", "may", "suggests", "x y"])


def _mutated(
    record: dict[str, Any], ids: st.SearchStrategy[str], types: st.SearchStrategy[str], words: st.SearchStrategy[str]
) -> st.SearchStrategy[dict[str, Any]]:
    """A record known to apply, as it is or with one field changed."""
    if "split" in record:
        return st.just(record)
    return st.one_of(
        st.just(record),
        st.just(record),
        ids.map(lambda node_id: {**record, "rests_on": [node_id]}),
        types.map(lambda type_name: {**record, "type": type_name}),
        words.map(lambda phrase: {**record, "hedge": phrase}),
        st.just({key: value for key, value in record.items() if key != "form"}),
    )


def _calls(
    good: st.SearchStrategy[Any], *bad: st.SearchStrategy[Any], key: str | None = None
) -> st.SearchStrategy[list[Any]]:
    """A call's records: mostly `good` ones, and at most one of `bad`, at any place.

    (Mixing them with one_of would let the simple malformed values crowd out the well-formed records.)
    """
    unique = (lambda record: record[key]) if key is not None else None
    return st.tuples(st.lists(good, max_size=5, unique_by=unique), st.lists(st.one_of(*bad), max_size=1)).flatmap(
        lambda parts: st.permutations([*parts[0], *parts[1]])
    )


def _clauses_of(graph: Graph, child: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A split of a chunk into consecutive runs of its own words, one child each: mostly a valid split."""
    chunks = [node for node in graph if node.statement and len(node.statement.split(" ")) >= 2]

    @st.composite
    def draw_split(draw: Any) -> dict[str, Any]:
        node = draw(st.sampled_from(chunks))
        words = node.statement.split(" ")
        cuts = sorted(draw(st.sets(st.integers(1, len(words) - 1), min_size=1, max_size=min(2, len(words) - 1))))
        bounds = [0, *cuts, len(words)]
        clauses = [" ".join(words[start:end]) for start, end in pairwise(bounds)]
        kids = draw(st.lists(child, min_size=len(clauses), max_size=len(clauses)))
        return {"node": node.id, "split": clauses, "children": kids}

    return draw_split()


def _loose_split(
    ids: st.SearchStrategy[str], texts: list[str], child: st.SearchStrategy[Any]
) -> st.SearchStrategy[dict[str, Any]]:
    """A split of any node into runs of any text, children not always one per clause."""
    return st.integers(2, 3).flatmap(
        lambda count: st.fixed_dictionaries(
            {
                "node": ids,
                "split": st.lists(_words(texts), min_size=count, max_size=count),
                "children": st.lists(child, min_size=count - 1, max_size=count),
            }
        )
    )


def _strategies(graph: Graph, rubric: Rubric) -> tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]:
    texts = [node.statement for node in graph if node.statement]
    ids = st.sampled_from([*graph.nodes, "s-9", "s-01", "s-7a", "s-5c", "a-9", "c-001"])
    types = st.sampled_from([*rubric.types, "unassigned", "compound", "finding"])
    numerals = [float(value) for text in texts for value in numerals_of(text)]
    fields = sorted({name for node_type in rubric.types.values() for name in node_type.form} | {"colour"})
    values = (
        st.sampled_from(numerals)
        | _words(texts)
        | st.sampled_from(["universal", "simulation", "eq:est", "vague"])
        | st.fixed_dictionaries({"value": st.sampled_from(numerals), "unit": st.sampled_from(["Hz", "kHz"])})
        | _json()
    )
    form = st.dictionaries(st.sampled_from(fields), values, max_size=2)
    typing = {"form": form, "rests_on": st.lists(ids, max_size=3), "hedge": _words(texts)}
    child = st.fixed_dictionaries({"type": types}, optional=typing)
    plain = st.fixed_dictionaries({"node": ids, "type": types}, optional=typing)
    split = st.one_of(_clauses_of(graph, child), _clauses_of(graph, child), _loose_split(ids, texts, child))
    extra = st.dictionaries(st.sampled_from(["credence", "base", "note"]), _json(), max_size=1)
    # Mostly well-formed records, so that most examples reach the edits; at most one malformed one a call.
    with_extra = st.tuples(plain, extra).map(lambda pair: {**pair[0], **pair[1]})
    good = st.sampled_from([*BASE_RECORDS, *REST]).flatmap(lambda record: _mutated(record, ids, types, _words(texts)))
    classify_records = st.tuples(
        st.lists(good, max_size=6, unique_by=lambda record: record["node"]),
        _calls(st.one_of(plain, split), with_extra, _json()),
    ).flatmap(lambda parts: st.permutations([*parts[0], *parts[1][:2]]))
    kinds = rubric.premises.for_types if rubric.premises is not None else ()
    conclusions = st.sampled_from([node.id for node in graph if node.kind in kinds] or list(graph.nodes))
    statement = st.fixed_dictionaries({"statement": _words(texts)})
    premise = st.one_of(st.fixed_dictionaries({"stated_at": ids}), statement)
    well_formed = st.fixed_dictionaries(
        {"conclusion": conclusions, "premises": st.lists(premise, min_size=1, max_size=5)}
    )
    with_junk = st.fixed_dictionaries({"conclusion": ids, "premises": st.lists(premise | _json(), max_size=3)})
    return classify_records, _calls(well_formed, with_junk, _json(), key="conclusion")


def _incoming(graph: Graph, node_id: str) -> dict[str, Any]:
    return {rid: relation for rid, relation in graph.relations.items() if relation.target == node_id}


def _each_record_once(result: dict[str, Any], count: int) -> None:
    numbers = [entry["record"] for entry in result["applied"] + result["refused"]]
    assert sorted(numbers) == list(range(count))
    json.dumps(result, allow_nan=False)


@given(data=st.data())
@SETTINGS
def test_classify_never_raises_nor_half_applies(graphs: list[Graph], rubric: Rubric, data: st.DataObject) -> None:
    before = data.draw(st.sampled_from(graphs))
    records = data.draw(_strategies(before, rubric)[0])
    outcome = classify(before, rubric, records, run_id=RUN)
    after = outcome.graph
    _each_record_once(outcome.result, len(records))
    for entry in outcome.result["refused"]:
        node_id = entry["node"]
        if isinstance(node_id, str) and node_id in before:
            assert after.nodes[node_id] == before.nodes[node_id]
            assert children(after, node_id) == children(before, node_id)
            assert _incoming(after, node_id) == _incoming(before, node_id)
    named = set()
    for entry in outcome.result["applied"]:
        record = records[entry["record"]]
        node = after.nodes[record["node"]]
        named.add(node.id)
        if "split" in record:
            kids = children(after, node.id)
            named.update(kids)
            assert node.kind == "compound"
            assert [after.nodes[kid].kind for kid in kids] == [child["type"] for child in record["children"]]
            typings = list(zip(kids, record["children"], strict=True))
        else:
            typings = [(node.id, record)]
        for node_id, typing in typings:
            assert after.nodes[node_id].kind == typing["type"]
            for source in typing.get("rests_on", []):
                assert f"{source}-requires-{node_id}" in after.relations
            hedge = typing.get("hedge")
            assert after.nodes[node_id].stated == (rubric.hedge(hedge) if hedge else None)
    for node in before:
        if node.id not in named:
            assert after.nodes[node.id] == node
    assert check_graph(after, rubric, "anchored", rubric_credences=True) == []


@given(data=st.data())
@SETTINGS
def test_add_premises_never_raises_nor_half_applies(graphs: list[Graph], rubric: Rubric, data: st.DataObject) -> None:
    before = data.draw(st.sampled_from(graphs))
    records = data.draw(_strategies(before, rubric)[1])
    outcome = add_premises(before, rubric, records, run_id=RUN)
    after = outcome.graph
    _each_record_once(outcome.result, len(records))
    for entry in outcome.result["refused"]:
        node_id = entry["node"]
        if isinstance(node_id, str) and node_id in before:
            assert after.nodes[node_id] == before.nodes[node_id]
            assert _incoming(after, node_id) == _incoming(before, node_id)
    for node in before:
        assert after.nodes[node.id] == node  # premises add nodes and relations; they change none
    for entry in outcome.result["applied"]:
        for premise in entry["premises"]:
            assert premise["relation"] in after.relations
        analysts = [
            relation
            for relation in after.relations.values()
            if relation.target == entry["conclusion"] and after.nodes[relation.source].attributes["origin"] == "analyst"
        ]
        assert len(analysts) <= rubric.premises.max_per_conclusion
    assert check_graph(after, rubric, "anchored", rubric_credences=True) == []
