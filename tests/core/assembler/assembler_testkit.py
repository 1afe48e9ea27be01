"""The assembler tests' kit: a tiny paper, the example rubric, and helpers to ingest and add checks.

Everything is real: the paper is read by credencegraph's LaTeX reader, the rubric by its loader, and the
initial types are annotated as start_run does (an [initial] type carries no base until annotated).
"""

from __future__ import annotations

from pathlib import Path

from credencegraph.core import Graph, Node, Relation
from credencegraph.ingest import chunks_to_graph
from credencegraph.ingest.latex import read_latex
from credencegraph.rubric import Rubric, annotate_node, loads_rubric

from cgx_core.graph.edit import appended

RUBRIC = """\
[rubric]
format = 2
name = "example-paper"
version = "0.1-example"

[parameters.sample_rate]
unit = "Hz"
domain = [0, inf]

[initial]
reference = "reference"
equation = "equation"

[types.reference]
description = "A bibliography entry."

[types.equation]
description = "A display equation."
base = "beta:9,1"

[types.method]
description = "What was done."
base = "beta:9,1"
form.kind = { type = "enum", values = ["test", "simulation", "dataset", "procedure"], required = true }
form.scope = { type = "scope" }

[types.result]
description = "What was found."
assess = true
base = "beta:8,2"
form.quantity = { type = "verbatim" }
form.value = { type = "number" }
form.measured = { type = "quantity" }
rests_on.types = ["method", "derivation", "equation", "assumption"]
rests_on.min = 1
rests_on.relation = "requires"
rests_on.strength = "beta:9,1"

[types.derivation]
description = "A step of mathematics."
assess = true
base = "beta:9,1"
form.equation = { type = "eqref" }

[types.literature_claim]
description = "A finding taken from a cited work."
assess = true
base = "beta:8,2"
form.statement = { type = "verbatim" }

[types.claim]
description = "A conclusion."
assess = true
base = "beta:5,5"
form.shape = { type = "enum", values = ["universal", "existential", "comparative", "bound"], required = true }
form.statement = { type = "verbatim" }
form.bound = { type = "number" }
rests_on.types = ["result", "method", "derivation", "equation", "literature_claim", "assumption"]
rests_on.min = 1
rests_on.relation = "requires"
rests_on.strength = "beta:9,1"

[types.assumption]
description = "A premise taken without support."
origins = ["document", "analyst"]
base = "beta:8,2"

[checks.recompute-numbers]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []

[premises]
base = "beta:8,2"
strength = "beta:9,1"
for = ["claim", "result"]
max_per_conclusion = 3

[hedges]
"we show" = "beta:19,1"
"likely" = 0.7
"suggests" = 0.6
"may" = 0.5
"""

PAPER = r"""\documentclass{article}
\begin{document}
\begin{abstract}
We show that the estimator recovers the signal amplitude to within 5\%.
\end{abstract}
We simulate 1000 noise realisations at a sample rate of 4096 Hz.
The estimator is
\begin{equation}
\hat{A} = \frac{\langle d, h\rangle}{\langle h, h\rangle} \label{eq:est}
\end{equation}
Substituting $d = A h + n$ into Eq.~\eqref{eq:est} gives an unbiased estimate.
The mean error is 0.8\% across all realisations, and the estimator likely generalises to real data.
Matched filtering is optimal in Gaussian noise~\cite{wz1962}.
The bias vanishes for long segments, so the estimator is likely consistent.
The noise is noise and the noise is white.
\begin{thebibliography}{1}
\bibitem{wz1962} L. A. Wainstein and V. D. Zubakov, Extraction of Signals from Noise (1962).
\end{thebibliography}
\end{document}
"""
"""s-1 abstract, s-2 simulate, s-3 estimator, e-1, s-4 substituting, s-5 mean error, s-6 matched
filtering, s-7 bias, s-8 noise, r-1."""

RUN = "run-1"


def rubric_from(text: str) -> Rubric:
    """A rubric from TOML text, through credencegraph's loader."""
    return loads_rubric(text)


def ingest(tex: str, folder: Path, rubric: Rubric) -> Graph:
    """The graph start_run would hold for a LaTeX text: ingested, initial types annotated with their base."""
    path = folder / "paper.tex"
    path.write_text(tex, encoding="utf-8")
    graph, _ = chunks_to_graph(read_latex(path), "paper", rubric.initial)
    for node in list(graph):
        if node.kind in rubric.types:
            graph = annotate_node(graph, rubric, node.id, node_type=node.kind)
    return graph


def with_check(graph: Graph, rubric: Rubric, target: str, check_id: str = "c-001") -> Graph:
    """The graph with a passed recompute-numbers check node observing `target`, as the check engine adds one."""
    check = rubric.checks["recompute-numbers"]
    node = Node(
        check_id,
        kind="recompute-numbers",
        statement=f"recompute-numbers on {target}: passed",
        attributes={"origin": "evidence", "check": {"result": "passed"}, "observed": True},
    )
    relation = Relation(
        f"{target}-observes-{check_id}",
        "observes",
        target,
        check_id,
        sensitivity=check.sensitivity,
        false_pass=check.false_pass,
    )
    return appended(graph, [node], [relation])


def cyclic_rubric() -> Rubric:
    """The example rubric where a claim may rest on a claim (so records can close a cycle) and a
    derivation (which rests on nothing) may take premises."""
    text = RUBRIC.replace(
        'rests_on.types = ["result", "method", "derivation", "equation", "literature_claim", "assumption"]',
        'rests_on.types = ["result", "method", "derivation", "equation", "literature_claim", "assumption", "claim"]',
    ).replace('for = ["claim", "result"]', 'for = ["claim", "result", "derivation"]')
    assert text != RUBRIC
    return rubric_from(text)


def rubric_without_premises() -> Rubric:
    """The example rubric with no [premises] table."""
    head, _, tail = RUBRIC.partition("[premises]")
    return rubric_from(head + tail[tail.index("[hedges]") :])


def rubric_without_analyst_assumption() -> Rubric:
    """The example rubric whose assumption type is for document nodes only."""
    return rubric_from(RUBRIC.replace('origins = ["document", "analyst"]', 'origins = ["document"]'))


BASE_RECORDS = [
    {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
    {"node": "s-4", "type": "derivation", "form": {"equation": "eq:est"}},
    {
        "node": "s-5",
        "split": ["The mean error is 0.8\\% across all realisations", "the estimator likely generalises to real data"],
        "children": [
            {"type": "result", "form": {"value": 0.008}, "rests_on": ["s-2", "e-1"]},
            {"type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-5a"], "hedge": "likely"},
        ],
    },
    {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-5a"], "hedge": "we show"},
]
"""Records that type part of the tiny paper: a method, a derivation, a split result and claim, a claim."""


REST = [
    {"node": "s-3", "type": "method", "form": {"kind": "procedure"}},
    {
        "node": "s-6",
        "type": "literature_claim",
        "form": {"statement": "Matched filtering is optimal in Gaussian noise"},
    },
    {
        "node": "s-7",
        "split": ["The bias vanishes for long segments", "the estimator is likely consistent"],
        "children": [
            {"type": "result", "form": {"quantity": "The bias"}, "rests_on": ["s-2"]},
            {"type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-7a"], "hedge": "likely"},
        ],
    },
    {"node": "s-8", "type": "assumption"},
]
"""Records that type the rest of the tiny paper, with BASE_RECORDS every chunk."""
