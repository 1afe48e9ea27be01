"""The four real papers: a scripted classification of a realistic subset of each, as an agent would send it.

Each script splits a sentence that mixes a method and a finding (or two findings), hedges a few
assertions with the phrases the text uses, rests claims on results that come later in the document
(typed by the same call), turns a displayed equation into the derivation it carries out, and adds
premises: one statement shared by two conclusions, and one conclusion given more statements than
`max_per_conclusion`. Every other chunk is typed `context`, as an agent types front matter, plans and
asides. The graph must then pass credencegraph's own `check_graph` at level `typed`, with the rubric's
credences, against `examples/rubrics/paper.toml`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from assembler_testkit import RUN
from credencegraph.core import Graph
from credencegraph.ingest import chunks_to_graph
from credencegraph.rubric import Rubric, annotate_node, check_graph
from paper_scripts import SCRIPTS

from cgx_core.assembler import add_premises, classify
from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from support import ROOT


@pytest.fixture(scope="module")
def paper_rubric() -> Rubric:
    path = ROOT / "examples" / "rubrics" / "paper.toml"
    return load_rubric_bytes(path.read_bytes(), path.name)


def _ingested(main: Path, rubric: Rubric) -> Graph:
    # The chunks start_run reads: credencegraph's, mended, with the front matter a class loads.
    graph, _ = chunks_to_graph(read_document(main).chunks, main.parent.name, rubric.initial)
    for node in list(graph):
        if node.kind in rubric.types:
            graph = annotate_node(graph, rubric, node.id, node_type=node.kind)
    return graph


@pytest.mark.parametrize("paper", sorted(SCRIPTS))
def test_a_scripted_classification_of_a_real_paper_passes_check_graph(
    papers: Path, paper_rubric: Rubric, paper: str
) -> None:
    script = SCRIPTS[paper]
    graph = _ingested(papers / paper / script["main"], paper_rubric)
    scripted = {record["node"] for record in script["records"]}
    rest = [
        {"node": node.id, "type": "context"} for node in graph if node.kind == "unassigned" and node.id not in scripted
    ]
    records = [*reversed(script["records"]), *rest]  # sent out of order: applied in document order

    typed = classify(graph, paper_rubric, records, run_id=RUN)

    assert typed.result["refused"] == []
    assert len(typed.result["applied"]) == len(records)
    split = next(entry for entry in typed.result["applied"] if entry["type"] == "compound")
    assert len(split["children"]) == 2
    hedged = [node for node in typed.graph if node.stated is not None]
    assert len(hedged) >= 2
    unlisted = {
        typing["hedge"].casefold()
        for record in script["records"]
        for typing in [record, *record.get("children", [])]
        if "hedge" in typing and paper_rubric.hedge(typing["hedge"]) is None
    }
    assert {entry["phrase"] for entry in typed.result["unmapped_hedges"]} == unlisted
    premised = add_premises(typed.graph, paper_rubric, script["premises"], run_id=RUN)
    assert premised.result["refused"] == []
    assert [entry["statements"] for entry in premised.result["overflow"]] == [
        [script["premises"][1]["premises"][-1]["statement"]]
    ]
    shared = [node for node in premised.graph if node.statement == script["premises"][1]["premises"][0]["statement"]]
    assert len(shared) == 1
    into = [relation.target for relation in premised.graph.relations.values() if relation.source == shared[0].id]
    assert sorted(into) == sorted(entry["conclusion"] for entry in script["premises"])
    assert check_graph(premised.graph, paper_rubric, "typed", rubric_credences=True) == []
