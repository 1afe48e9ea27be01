"""Which of the two `not_assessed` reasons a node without checks gets, for every way a type can be
targeted: a mutant that swaps the reasons, or counts a fallback type, a person's review or a type no plugin
provides as "a check the agent could have selected", fails here.

"not selected": an installed, declared check type the agent proposes could have checked the node.
"no v1 check applies": none could (only a fallback, only a person's review, or no installed type).
"""

from __future__ import annotations

from collections.abc import Callable

from credencegraph.core import graph_from_dict

from cgx_core.checks.verdicts import NO_CHECK_APPLIES, NOT_SELECTED, assess
from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.run.state import read_state_json
from cgx_core.testing import StartedRun

CHECKS = """
[checks.recompute-numbers]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []

[checks.rederive-maths-numeric]
targets = ["derivation"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []

[checks.human-review]
targets = ["claim"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""


def test_each_unchecked_node_gets_the_reason_its_type_earns(cgx_run: Callable[..., StartedRun]) -> None:
    run = cgx_run(rubric_extra=CHECKS)
    records = [
        {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
        {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
        {"node": "s-5", "type": "derivation"},
        {"node": "s-6", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-3"]},
        {"node": "s-7", "type": "literature_claim"},
    ]
    assert run.call("classify", records=records)["refused"] == []
    rubric = load_rubric_bytes((run.path / "rubric.toml").read_bytes(), "rubric.toml")
    graph = graph_from_dict(read_state_json(run.path / "state.json")["graph"])
    assessed = assess(graph, rubric, "run", "finish_run")
    unchecked = ("s-3", "s-5", "s-6", "s-7")
    reasons = {node: assessed.nodes[node].attributes["assessment"].get("reason") for node in unchecked}
    assert reasons == {
        "s-3": NOT_SELECTED,  # recompute-numbers, installed and declared, targets results
        "s-5": NO_CHECK_APPLIES,  # only the numeric fallback targets derivations: it is never proposed itself
        "s-6": NO_CHECK_APPLIES,  # only a person's review targets claims
        "s-7": NO_CHECK_APPLIES,  # no declared check type targets literature claims
    }
    assert (NOT_SELECTED, NO_CHECK_APPLIES) == ("not selected", "no v1 check applies")
