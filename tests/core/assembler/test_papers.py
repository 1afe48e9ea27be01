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
from typing import Any

import pytest
from assembler_testkit import RUN
from credencegraph.core import Graph
from credencegraph.ingest import chunks_to_graph
from credencegraph.ingest.latex import read_latex
from credencegraph.rubric import Rubric, annotate_node, check_graph

from cgx_core.assembler import add_premises, classify
from cgx_core.rubrics import load_rubric_bytes
from support import ROOT

SHARED = "The benchmark data used for testing are independent of the data used for training and tuning."

SCRIPTS: dict[str, dict[str, Any]] = {
    "farr-normal-normal": {
        "main": "src/tex/ms.tex",
        "records": [
            {
                "node": "s-15",
                "type": "literature_claim",
                "form": {"statement": "the method may not converge to a consistent posterior"},
                "hedge": "may",
            },
            {
                "node": "s-16",
                "split": [
                    "The first observation is in error",
                    "the second is a consequence of the prior-population mismatch between the hierarchical model "
                    "and the underlying repeated ensemble of observations",
                ],
                "children": [
                    {"type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-30", "s-42"]},
                    {"type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-18"]},
                ],
            },
            {"node": "s-18", "type": "assumption"},
            {
                "node": "s-25",
                "type": "claim",
                "form": {"shape": "universal"},
                "rests_on": ["s-30", "s-42"],
                "hedge": "we show",
            },
            {"node": "s-27", "type": "definition", "form": {"term": "The maximum likelihood estimator"}},
            {"node": "e-07", "type": "derivation", "rests_on": ["e-04"]},
            {
                "node": "s-30",
                "type": "result",
                "form": {"quantity": "The estimator $\\hat{\\mu}$"},
                "rests_on": ["e-07"],
            },
            {"node": "e-16", "type": "derivation", "rests_on": ["e-15"]},
            {"node": "s-42", "type": "result", "rests_on": ["e-16"], "hedge": "indicating"},
            {"node": "e-18", "type": "derivation", "rests_on": ["e-17"]},
            {
                "node": "s-45",
                "type": "claim",
                "form": {"shape": "universal"},
                "rests_on": ["e-18", "s-42"],
                "hedge": "asymptotically",
            },
        ],
        "premises": [
            {"conclusion": "s-25", "premises": [{"stated_at": "s-18"}, {"statement": SHARED}]},
            {
                "conclusion": "s-45",
                "premises": [
                    {"statement": SHARED},
                    {"statement": "The observational uncertainties are known exactly."},
                    {"statement": "The distribution of observational errors has enough finite moments."},
                    {"statement": "The number of events is large enough for terms of order 1/N to be negligible."},
                ],
            },
        ],
    },
    "hastings-powell-replication": {
        "main": "article/article.tex",
        "records": [
            {"node": "s-013", "type": "method", "form": {"kind": "procedure"}},
            {
                "node": "s-015",
                "type": "claim",
                "form": {"shape": "universal", "statement": "We were able to successfully replicate all figures"},
                "rests_on": ["s-034", "s-074"],
            },
            {
                "node": "s-018",
                "type": "literature_claim",
                "form": {"statement": "used a continuous-time model with 14 parameters"},
            },
            {"node": "s-019", "type": "result", "form": {"value": 10}, "rests_on": ["s-018"]},
            {
                "node": "s-028",
                "split": [
                    "We tried to approximate $y$ and $z$ by trial and error",
                    "found $x = 0.76$, $y = 0.16$ and $z = 9.9$ to be an appropriate combination for most cases",
                ],
                "children": [
                    {"type": "method", "form": {"kind": "procedure"}},
                    {"type": "result", "form": {"value": 0.76}, "rests_on": ["s-028a"]},
                ],
            },
            {"node": "s-034", "type": "method", "form": {"kind": "implementation"}},
            {"node": "s-042", "type": "method", "form": {"kind": "simulation"}},
            {"node": "s-044", "type": "method", "form": {"kind": "simulation"}},
            {
                "node": "s-045",
                "type": "claim",
                "form": {"shape": "existential"},
                "rests_on": ["s-044"],
                "hedge": "suggests",
            },
            {"node": "s-050", "type": "method", "form": {"kind": "simulation"}},
            {"node": "s-058", "type": "result", "form": {"value": 37}, "rests_on": ["s-050"]},
            {
                "node": "s-110",
                "type": "claim",
                "form": {"shape": "existential"},
                "rests_on": ["s-044"],
                "hedge": "It is possible that",
            },
            {"node": "s-072", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-074", "s-058"]},
            {
                "node": "s-074",
                "type": "result",
                "form": {"value": 125},
                "rests_on": ["s-042", "e-1"],
                "hedge": "we observed",
            },
        ],
        "premises": [
            {
                "conclusion": "s-045",
                "premises": [{"statement": "The numerical solver is accurate at the tolerance used."}],
            },
            {
                "conclusion": "s-072",
                "premises": [
                    {"statement": "The numerical solver is accurate at the tolerance used."},
                    {"statement": "The parameter values of the original paper were transcribed correctly."},
                    {"statement": "Matching figures by eye is enough to call a replication successful."},
                    {"statement": "The initial conditions chosen lie on the same attractor as the original ones."},
                ],
            },
        ],
    },
    "mlrc-warmstart-repro": {
        "main": "2020/mohtashami2021reproducibility/openreview/main.tex",
        "records": [
            {
                "node": "s-013",
                "split": [
                    "we confirm that the warm-starting gap exists in certain settings",
                    "the Shrink-Perturb method successfully reduces or eliminates this gap",
                ],
                "children": [
                    {"type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-052"], "hedge": "we confirm"},
                    {"type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-170"]},
                ],
            },
            {
                "node": "s-033",
                "type": "claim",
                "form": {"shape": "existential"},
                "rests_on": ["s-182"],
                "hedge": "might",
            },
            {"node": "s-039", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-040", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-052", "type": "result", "rests_on": ["s-039", "s-040"], "hedge": "we observe"},
            {"node": "s-064", "type": "assumption"},
            {"node": "s-066", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-068", "type": "result", "rests_on": ["s-064", "s-066"], "hedge": "clearly"},
            {"node": "s-097", "type": "method", "form": {"kind": "test"}},
            {"node": "s-099", "type": "method", "form": {"kind": "test"}},
            {"node": "s-098", "type": "result", "rests_on": ["s-097"], "hedge": "we observe"},
            {"node": "s-100", "type": "result", "rests_on": ["s-097", "s-099"], "hedge": "we find"},
            {"node": "s-170", "type": "result", "rests_on": ["s-066"], "hedge": "we confirm"},
            {"node": "s-175", "type": "method", "form": {"kind": "dataset"}},
            {"node": "s-180", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-182", "type": "result", "rests_on": ["s-175", "s-180"]},
        ],
        "premises": [
            {"conclusion": "s-013a", "premises": [{"stated_at": "s-064"}, {"statement": SHARED}]},
            {
                "conclusion": "s-100",
                "premises": [
                    {"statement": SHARED},
                    {"statement": "The differences in accuracy exceed the run-to-run variation."},
                    {"statement": "The weight decay values tried span the range that matters."},
                    {"statement": "Training ran to the same convergence criterion at every weight decay."},
                ],
            },
        ],
    },
    "dynonet-paper": {
        "main": "doc/paper/ms.tex",
        "records": [
            {"node": "e-40", "type": "derivation", "rests_on": ["e-05"]},
            {
                "node": "s-058",
                "type": "claim",
                "form": {"shape": "existential"},
                "rests_on": ["s-203", "s-220"],
                "hedge": "may",
            },
            {"node": "s-200", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-201", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-203", "type": "result", "form": {"value": 99.5}, "rests_on": ["s-200", "s-201"]},
            {
                "node": "s-205",
                "split": [
                    "While specialized training algorithms for WH systems may provide even superior results on this "
                    "benchmark",
                    "the \\emph{dynoNet}\\ model trained by plain back-propagation achieves remarkably good "
                    "performance",
                ],
                "children": [
                    {"type": "claim", "form": {"shape": "comparative"}, "rests_on": ["s-203"], "hedge": "may"},
                    {"type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-203"]},
                ],
            },
            {"node": "s-210", "type": "method", "form": {"kind": "dataset"}},
            {"node": "s-211", "type": "assumption"},
            {"node": "s-213", "type": "method", "form": {"kind": "procedure"}},
            {"node": "s-219", "type": "method", "form": {"kind": "procedure"}},
            {
                "node": "s-220",
                "type": "result",
                "form": {"value": 93.2, "quantity": "a RMSE"},
                "rests_on": ["s-213", "s-219", "s-210"],
            },
            {"node": "s-222", "type": "claim", "form": {"shape": "comparative"}, "rests_on": ["s-220", "s-224"]},
            {
                "node": "s-224",
                "type": "literature_claim",
                "form": {"statement": "The best results are obtained with the NFIR structure"},
            },
            {"node": "s-241", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-203", "s-220"]},
        ],
        "premises": [
            {"conclusion": "s-222", "premises": [{"stated_at": "s-211"}, {"statement": SHARED}]},
            {
                "conclusion": "s-241",
                "premises": [
                    {"statement": SHARED},
                    {"statement": "The three benchmarks are representative of system identification tasks."},
                    {"statement": "Limited tuning was applied in the same way to every benchmark."},
                    {"statement": "The reported runs were not selected among several."},
                ],
            },
        ],
    },
}


@pytest.fixture(scope="module")
def paper_rubric() -> Rubric:
    path = ROOT / "examples" / "rubrics" / "paper.toml"
    return load_rubric_bytes(path.read_bytes(), path.name)


def _ingested(main: Path, rubric: Rubric) -> Graph:
    graph, _ = chunks_to_graph(read_latex(main), main.parent.name, rubric.initial)
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
