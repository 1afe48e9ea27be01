"""Finished runs the report and review tests share: the example paper with a rubric that declares reviews,
each real paper classified as tests/paper_scripts.py scripts it (with the maths checks that apply and a
person's reviews), and a hostile paper whose text and cited source hold markup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paper_scripts import SCRIPTS

from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, ROOT, call, listed_nodes, person_review

PAPER_RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def listed(run: Path, **filters: Any) -> list[dict[str, Any]]:
    """Every node get_state lists with these filters, page by page, as an agent reads them."""
    return listed_nodes(run, **filters)


def ok(payload: dict[str, Any]) -> dict[str, Any]:
    assert "error" not in payload, payload
    assert not payload.get("refused"), payload
    return payload


EXAMPLE_CHECKS: list[dict[str, Any]] = [
    {"type": "recompute-numbers", "target": "s-12", "cites": ["s-12"], "expression": "12 * 300", "result": "3000"},
    {"type": "recompute-numbers", "target": "s-13", "cites": ["s-13"], "expression": "1200 * 75", "result": "90000"},
    {
        "type": "rederive-maths",
        "target": "s-09",
        "equations": ["e-4"],
        "symbols": {"gamma": ["positive"], "T": ["positive"]},
        "lhs": "1/(1 - gamma*T)",
        "rhs": "1 + gamma*T + gamma^2*T^2",
    },
]


def start_example_with(run: Path, rubric: Path, *, store_source: bool = True) -> dict[str, Any]:
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool(
        "start_run",
        {
            "run": str(run),
            "paper": str(EXAMPLE / "paper.tex"),
            "rubric": str(rubric),
            "cited": str(EXAMPLE / "cited"),
            "store_source": store_source,
            "model": "test-model",
        },
    )
    assert not is_error, payload
    return payload


def checked_example(run: Path, rubric: Path) -> Path:
    """The example paper classified, premised and checked (c-001 fails, c-002 passes, c-003 fails), unfinished."""
    start_example_with(run, rubric)
    ok(call(run, "classify", records=EXAMPLE_RECORDS))
    ok(call(run, "add_premises", records=EXAMPLE_PREMISES))
    ok(call(run, "run_checks", proposals=EXAMPLE_CHECKS))
    return run


# The checks that apply to the real papers' scripted nodes: maths steps the papers carry out.
PAPER_CHECKS: dict[str, list[dict[str, Any]]] = {
    "farr-normal-normal": [
        {
            "type": "rederive-maths",
            "target": "e-16",
            "equations": ["e-16"],
            "symbols": {"N": ["positive"], "s": ["real"], "V": ["positive"]},
            "lhs": "N/(s^2 + V) - (s^2 + V)/N * N/(s^2 + V)^2",
            "rhs": "(N - 1)/(s^2 + V)",
        }
    ],
    "dynonet-paper": [
        {
            "type": "rederive-maths",
            "target": "e-40",
            "equations": ["e-40"],
            "symbols": {"r": ["real"], "beta": ["real"], "q": ["nonzero"]},
            "lhs": "(1 - r*exp(I*beta)/q)*(1 - r*exp(-I*beta)/q)",
            "rhs": "1 - 2*r*cos(beta)/q + r^2/q^2",
        }
    ],
}

# A person's verdicts on each real paper: a claim the reviewer judges wrong, and an assumption the agent added.
PAPER_REVIEWS: dict[str, str] = {
    "farr-normal-normal": "s-15a",
    "dynonet-paper": "s-241",
    "hastings-powell-replication": "s-031",
    "mlrc-warmstart-repro": "s-013b",
}


def finished_paper(run: Path, papers: Path, paper: str) -> Path:
    """A real paper through the tools as an agent would (scripted classification, the rest as context, the
    premises, the checks that apply), two reviews by a person, and finished."""
    script = SCRIPTS[paper]
    started = call(
        run,
        "start_run",
        paper=str(papers / paper / script["main"]),
        rubric=str(PAPER_RUBRIC),
        store_source=True,
    )
    assert "error" not in started, started
    scripted = {record["node"] for record in script["records"]}
    rest = [
        {"node": chunk["id"], "type": "context"}
        for chunk in listed(run, type="unassigned")
        if chunk["id"] not in scripted
    ]
    ok(call(run, "classify", records=[*script["records"], *rest]))
    call(run, "add_premises", records=script["premises"])  # one conclusion overflows, by design of the script
    if paper in PAPER_CHECKS:
        ok(call(run, "run_checks", proposals=PAPER_CHECKS[paper]))
    reason = "the argument given does not establish it"
    ok(person_review(run, node=PAPER_REVIEWS[paper], verdict="fails", reviewer="A. Reviewer", reason=reason))
    ok(person_review(run, node="a-1", verdict="holds", reviewer="A. Reviewer", reason="a standard premise"))
    ok(call(run, "finish_run"))
    return run


HOSTILE_TEX = r"""\documentclass{article}
\begin{document}
We measured 12 runs of 300 s, 3000 s in total <script>window.pwned = 1;</script> of data.
The method follows \cite{evil2020} closely <img src=x onerror="window.pwned=2"> as before.
A reader may see </style><style>body{display:none}</style> here & there "quotes" 'single' `ticks`.
\begin{thebibliography}{1}
\bibitem{evil2020} A. Evil. <b>Bold</b> claims <a href="https://example.org/x">here</a>. 2020.
\end{thebibliography}
\end{document}
"""
HOSTILE_SOURCE = (
    "The method is described in full <script>window.pwned = 3;</script> and it works as claimed by everyone.\n"
)
HOSTILE_PASSAGE = "described in full <script>window.pwned = 3;</script> and it works"


def finished_hostile(folder: Path) -> Path:
    """A paper whose chunks, bibliography and cited source hold markup and script; a failed arithmetic check,
    and a failed citation check whose passage is the source's script."""
    paper = folder / "paper"
    (paper / "cited").mkdir(parents=True)
    (paper / "paper.tex").write_text(HOSTILE_TEX, encoding="utf-8")
    (paper / "cited" / "evil2020.txt").write_text(HOSTILE_SOURCE, encoding="utf-8")
    run = folder / "run"
    started = call(
        run,
        "start_run",
        paper=str(paper / "paper.tex"),
        rubric=str(EXAMPLE_RUBRIC),
        cited=str(paper / "cited"),
        store_source=True,
    )
    assert "error" not in started, started
    first, second, third = (chunk["id"] for chunk in listed(run, unit="sentence"))
    ok(
        call(
            run,
            "classify",
            records=[
                {"node": first, "type": "result", "form": {"value": 3000}, "rests_on": [third]},
                {"node": second, "type": "literature_claim"},
                {"node": third, "type": "method", "form": {"kind": "procedure"}},
            ],
        )
    )
    proposal = {"type": "recompute-numbers", "target": first, "cites": [first], "expression": "12 * 300"}
    ok(call(run, "run_checks", proposals=[{**proposal, "result": "3000"}]))
    entry = next(item["id"] for item in listed(run, unit="reference"))
    ok(
        call(
            run,
            "judge_citation",
            node=second,
            entry=entry,
            source="evil2020.txt",
            passage=HOSTILE_PASSAGE,
            supports=False,
        )
    )
    ok(
        call(
            run,
            "review",
            node=second,
            verdict="holds",
            reviewer='<script>window.pwned = 4;</script> "Mallory"',
            reason="</dd><script>window.pwned = 5;</script>",
        )
    )
    ok(call(run, "finish_run"))
    return run
