"""Scripted classifications of the four real papers in tests/papers, as an agent would send them.

Shared by the assembler's own test (tests/core/assembler/test_papers.py) and the end-to-end test that
sends the same records through the tools and replays the run (tests/e2e/test_papers_through_tools.py).
"""

from __future__ import annotations

from typing import Any

SHARED = "The benchmark data used for testing are independent of the data used for training and tuning."

SCRIPTS: dict[str, dict[str, Any]] = {
    "farr-normal-normal": {
        "main": "src/tex/ms.tex",
        "records": [
            {
                "node": "s-14",
                "type": "literature_claim",
                "form": {"statement": "the method may not converge to a consistent posterior"},
                "hedge": "may",
            },
            {
                "node": "s-15",
                "split": [
                    "The first observation is in error",
                    "the second is a consequence of the prior-population mismatch between the hierarchical model "
                    "and the underlying repeated ensemble of observations",
                ],
                "children": [
                    {"type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-29", "s-41"]},
                    {"type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-17"]},
                ],
            },
            {"node": "s-17", "type": "assumption"},
            {
                "node": "s-24",
                "type": "claim",
                "form": {"shape": "universal"},
                "rests_on": ["s-29", "s-41"],
                "hedge": "we show",
            },
            {"node": "s-26", "type": "definition", "form": {"term": "The maximum likelihood estimator"}},
            {"node": "e-07", "type": "derivation", "rests_on": ["e-04"]},
            {
                "node": "s-29",
                "type": "result",
                "form": {"quantity": "The estimator $\\hat{\\mu}$"},
                "rests_on": ["e-07"],
            },
            {"node": "e-16", "type": "derivation", "rests_on": ["e-15"]},
            {"node": "s-41", "type": "result", "rests_on": ["e-16"], "hedge": "indicating"},
            {"node": "e-18", "type": "derivation", "rests_on": ["e-17"]},
            {
                "node": "s-44",
                "type": "claim",
                "form": {"shape": "universal"},
                "rests_on": ["e-18", "s-41"],
                "hedge": "asymptotically",
            },
        ],
        "premises": [
            {"conclusion": "s-24", "premises": [{"stated_at": "s-17"}, {"statement": SHARED}]},
            {
                "conclusion": "s-44",
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
            {"node": "s-029", "type": "method", "form": {"kind": "procedure"}},
            {
                "node": "s-031",
                "type": "claim",
                "form": {"shape": "universal", "statement": "We were able to successfully replicate all figures"},
                "rests_on": ["s-050", "s-090"],
            },
            {
                "node": "s-034",
                "type": "literature_claim",
                "form": {"statement": "used a continuous-time model with 14 parameters"},
            },
            {"node": "s-035", "type": "result", "form": {"value": 10}, "rests_on": ["s-034"]},
            {
                "node": "s-044",
                "split": [
                    "We tried to approximate $y$ and $z$ by trial and error",
                    "found $x = 0.76$, $y = 0.16$ and $z = 9.9$ to be an appropriate combination for most cases",
                ],
                "children": [
                    {"type": "method", "form": {"kind": "procedure"}},
                    {"type": "result", "form": {"value": 0.76}, "rests_on": ["s-044a"]},
                ],
            },
            {"node": "s-050", "type": "method", "form": {"kind": "implementation"}},
            {"node": "s-058", "type": "method", "form": {"kind": "simulation"}},
            {"node": "s-060", "type": "method", "form": {"kind": "simulation"}},
            {
                "node": "s-061",
                "type": "claim",
                "form": {"shape": "existential"},
                "rests_on": ["s-060"],
                "hedge": "suggests",
            },
            {"node": "s-066", "type": "method", "form": {"kind": "simulation"}},
            {"node": "s-074", "type": "result", "form": {"value": 37}, "rests_on": ["s-066"]},
            {
                "node": "s-126",
                "type": "claim",
                "form": {"shape": "existential"},
                "rests_on": ["s-060"],
                "hedge": "It is possible that",
            },
            {"node": "s-088", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-090", "s-074"]},
            {
                "node": "s-090",
                "type": "result",
                "form": {"value": 125},
                "rests_on": ["s-058", "e-1"],
                "hedge": "we observed",
            },
        ],
        "premises": [
            {
                "conclusion": "s-061",
                "premises": [{"statement": "The numerical solver is accurate at the tolerance used."}],
            },
            {
                "conclusion": "s-088",
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
