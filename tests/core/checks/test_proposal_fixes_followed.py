"""Every fix of a refused proposal leads to a call that works (issue 37), as test_fixes_followed does for
records: each refusal code is provoked by a real proposal on a real run, its fix (and the message it points to)
is followed as an agent reads it, and the corrected call is made. It must run (every proposal becomes a check),
or leave only what the agent alone can give, or the fix must say there is nothing to send (the observation is
made already).

The table is `ROWS`, one row per provoked refusal. `PENDING` names the refusal codes whose rows their owners
add (the cross-reference and maths rooms, the arithmetic's relation vocabulary); `CHECK_ERRORS` the codes a
check type only ever ends a check with, never refuses with. `test_every_refusal_code_has_a_row` keeps the
three complete: a new refusal code fails it until it has its row (or is named, with why, in one of the others).
Classify and premise refusals are tests/core/assembler/test_fixes_followed.py's.
"""

from __future__ import annotations

import copy
import difflib
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from cgx_core.checks.guard import OWN_DISTRIBUTION
from cgx_core.checks.installed import installed_check_types
from cgx_core.codes import Code
from cgx_core.testing import RUBRIC
from cgx_core.tooling.registry import call_tool

PAPER = r"""\documentclass{article}
\begin{document}
We ran 12 trials of 300 s each.
The trials took 3600 s in all, roughly 1 h.
The error is below 1\% in 961 of 1000 realisations, that is 96\% of them.
We compare two settings: (a) the mean and (b) the variance.
The amplifier gain is unity at every frequency we measured.
As the table shows, the amplifier gain is unity at every frequency we measured.
What is the gain?
Matched filtering is optimal in Gaussian noise~\cite{wz}.
\begin{thebibliography}{1}
\bibitem{wz} L. A. Wainstein, Extraction of Signals from Noise (1962).
\end{thebibliography}
\end{document}
"""
CITED = "Matched filtering is optimal in Gaussian noise, as the likelihood ratio shows for a known signal.\n"
CHECKS = """
[types.question]
description = "A question the paper asks."
assess = true

[checks.recompute-numbers]
targets = ["result", "claim", "question"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []

[checks.internal-consistency]
targets = ["result", "claim"]
sensitivity = "beta:17,3"
false_pass = "beta:7,3"
models = []

[checks.citation-support]
targets = ["literature_claim"]
sensitivity = 0.8
false_pass = 0.2
models = []

[checks.human-review]
targets = ["result", "claim"]
sensitivity = "beta:9,1"
false_pass = "beta:1,9"
models = []

[checks.reference-resolves]
targets = ["reference"]
sensitivity = "beta:19,1"
false_pass = "beta:1,19"
models = []
"""
RECORDS = [
    {"node": "s-1", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-2", "type": "result", "rests_on": ["s-1"]},
    {"node": "s-3", "type": "result", "rests_on": ["s-1"]},
    {"node": "s-4", "type": "result", "rests_on": ["s-1"]},
    {"node": "s-5", "type": "result", "rests_on": ["s-1"]},
    {"node": "s-6", "type": "result", "rests_on": ["s-1"]},
    {"node": "s-7", "type": "question"},
    {"node": "s-8", "type": "literature_claim"},
]
GOOD = {
    "type": "recompute-numbers",
    "target": "s-2",
    "cites": ["s-1", "s-2"],
    "expression": "12 * 300 s",
    "result": "3600 s",
}
"""A proposal that runs: what an agent writes of its own where a fix leaves the choice to it."""

Call = tuple[str, dict[str, Any]]
Follow = Callable[[dict[str, Any], dict[str, Any]], Call | None]
APPLIED: frozenset[str] = frozenset()


def agent(value: Any) -> Any:
    """The agent's own content where the fix leaves it the choice (marked, so a reader sees it is not the fix's)."""
    return value


def proposal(**fields: Any) -> dict[str, Any]:
    return {"proposals": [{**GOOD, **fields}]}


def mended(args: dict[str, Any], **fields: Any) -> Call:
    """run_checks with the one proposal of `args` changed."""
    return "run_checks", {"proposals": [{**copy.deepcopy(args["proposals"][0]), **fields}]}


def quoted(text: str) -> list[str]:
    return re.findall(r"'([^']*)'", text)


def ids(text: str) -> list[str]:
    return re.findall(r"\b([a-z]-\d+[a-z]?)\b", text)


def unknown_fields(message: str) -> list[str]:
    """The fields a message names as unknown: "unknown argument(s) ['expr']"."""
    return quoted(re.findall(r"unknown argument\(s\) \[([^\]]*)\]", message)[0])


def units_written(args: dict[str, Any], refusal: dict[str, Any]) -> Call:
    """ "the text writes these numbers in different units (300 s, 3600 s, 1 h)": each numeral of the expression
    and the result gets the unit the message names for it."""
    written = dict(re.findall(r"([0-9.]+) ([A-Za-z]+)", refusal["message"].split("units (", 1)[1].split(")")[0]))

    def mend(text: str) -> str:
        return re.sub(r"\b([0-9.]+)\b(?! [A-Za-z])", lambda m: f"{m[1]} {written.get(m[1], '')}".strip(), text)

    original = args["proposals"][0]
    return mended(args, expression=mend(original["expression"]), result=mend(original["result"]))


@attrs.frozen
class Row:
    name: str
    code: str
    call: Call
    follow: Follow
    left: frozenset[str] = APPLIED
    before: tuple[Call, ...] = ()
    """Calls made first (a check that a duplicate repeats)."""


ROWS = [
    Row(
        "a misspelt check type",
        Code.CHECK_TYPE_UNKNOWN,
        ("run_checks", proposal(type="recompute-number")),
        lambda args, refusal: mended(
            args, type=difflib.get_close_matches("recompute-number", quoted(refusal["fix"]))[0]
        ),
    ),
    Row(
        "a type the rubric does not declare",
        Code.CHECK_TYPE_UNDECLARED,
        ("run_checks", {"proposals": [{"type": "cross-reference", "target": "s-2", "ref": "eq:x", "cites": ["s-2"]}]}),
        lambda args, refusal: (
            ("run_checks", {"proposals": [agent(GOOD)]}) if GOOD["type"] in quoted(refusal["fix"]) else None
        ),
    ),
    Row(
        "a target of another type",
        Code.CHECK_TARGET_TYPE,
        ("run_checks", proposal(target="s-8")),
        lambda args, refusal: mended(args, target=ids(refusal["fix"])[0]),
    ),
    Row(
        "a target whose type is not assessed",
        Code.CHECK_NOT_ASSESSED,
        ("run_checks", proposal(target="s-1")),
        lambda args, refusal: mended(args, target=agent("s-2")) if "result" in refusal["fix"] else None,
    ),
    Row(
        "a second check of one number",
        Code.CHECK_DUPLICATE,
        ("run_checks", proposal(expression="300 s * 12")),
        lambda args, refusal: None if "append-only" in refusal["fix"] else mended(args),
        before=(("run_checks", proposal()),),
    ),
    Row(
        "one observation on two targets",
        Code.CHECK_SAME_OBSERVATION,
        ("run_checks", proposal(target="s-3")),
        lambda args, refusal: None if refusal["fix"].startswith("leave it out") else mended(args),
        before=(("run_checks", proposal()),),
    ),
    Row(
        "a citation check through run_checks",
        Code.CHECK_WRONG_TOOL,
        ("run_checks", {"proposals": [{"type": "citation-support", "target": "s-8"}]}),
        lambda args, refusal: (
            re.findall(r"call (\w+)", refusal["fix"])[0],
            agent({"node": "s-8", "entry": "r-1", "source": "wz.txt", "passage": CITED[:46], "supports": True}),
        ),
    ),
    Row(
        "a misspelt field",
        Code.PROPOSAL_INVALID,
        ("run_checks", {"proposals": [{**{k: v for k, v in GOOD.items() if k != "expression"}, "expr": "12 * 300 s"}]}),
        lambda args, refusal: (
            "run_checks",
            {
                "proposals": [
                    {
                        **{
                            k: v for k, v in args["proposals"][0].items() if k not in unknown_fields(refusal["message"])
                        },
                        re.findall(r"required argument '(\w+)'", refusal["message"])[0]: args["proposals"][0]["expr"],
                    }
                ]
            },
        ),
    ),
    Row(
        "a check cited",
        Code.UNKNOWN_NODE,
        ("run_checks", proposal(cites=["s-1", "s-2", "c-001"])),
        lambda args, refusal: mended(
            args, cites=[node for node in args["proposals"][0]["cites"] if node not in quoted(refusal["message"])]
        ),
        before=(("run_checks", proposal(target="s-3", cites=["s-3"], expression="961 / 1000", result="96%")),),
    ),
    Row(
        "an expression that does not parse",
        Code.EXPRESSION_INVALID,
        ("run_checks", proposal(expression="12 * * 300 s")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")),
    ),
    Row(
        "an exponent above 100",
        Code.EXPONENT_TOO_LARGE,
        ("run_checks", proposal(expression="12 ** 300", result="3600")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s"), result="3600 s"),
    ),
    Row(
        "parentheses nested past the bound",
        Code.EXPRESSION_TOO_LARGE,
        ("run_checks", proposal(expression="(" * 101 + "12" + ")" * 101 + " * 300 s")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")),
    ),
    Row(
        "a number too large to compute",
        "result-too-large",
        ("run_checks", proposal(expression="((300 ** 12) ** 12) ** 12", result="3600")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s"), result="3600 s"),
    ),
    Row(
        "a numeral of another chunk",
        "operand-not-in-text",
        ("run_checks", proposal(cites=["s-2"])),
        lambda args, refusal: mended(
            args, cites=[*args["proposals"][0]["cites"], *re.findall(r"is written in (\S+) \(", refusal["message"])]
        ),
    ),
    Row(
        "a root as a power",
        "exponent-not-whole",
        ("run_checks", proposal(target="s-3", cites=["s-3"], expression="961 ** (1 / 1000)", result="96%")),
        lambda args, refusal: mended(args, expression=agent("961 / 1000")) if "root" in refusal["fix"] else None,
    ),
    Row(
        "a number and a time added",
        "unit-incompatible",
        ("run_checks", proposal(expression="12 + 300 s")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")),
    ),
    Row(
        "units left out",
        "unit-missing",
        ("run_checks", proposal(expression="12 * 300", result="1")),
        units_written,
    ),
    Row(
        "the result restated",
        "expression-is-result",
        ("run_checks", proposal(expression="3600 s")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")),
    ),
    Row(
        "a root of a negative number",
        "function-domain",
        ("run_checks", proposal(expression="sqrt(12 - 300) * 1 h", result="1 h")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s"), result="3600 s"),
    ),
    Row(
        "a division by zero",
        "division-by-zero",
        ("run_checks", proposal(expression="3600 s / (12 - 12)")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")),
    ),
    Row(
        "a symbol",
        "unknown-symbol",
        ("run_checks", proposal(expression="x * 300 s")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")),
    ),
    Row(
        "a function outside the set",
        "unknown-function",
        ("run_checks", proposal(expression="product(12, 300 s)")),
        lambda args, refusal: mended(args, expression=agent("12 * 300 s")) if "mean" in refusal["fix"] else None,
    ),
    Row(
        "a rounding coarser than the result",
        "rounding-too-coarse",
        ("run_checks", proposal(target="s-3", cites=["s-3"], expression="round(961 / 1000, 0)", result="96%")),
        lambda args, refusal: mended(
            args, expression=f"round(961 / 1000, {re.findall(r'round\(x, (\d+)\)', refusal['fix'])[0]})"
        ),
    ),
    Row(
        "items of a chunk without an enumeration",
        "enumeration-not-found",
        ("run_checks", proposal(target="s-4", cites=["s-3", "s-4"], expression="items(s-3)", result="two")),
        lambda args, refusal: (
            mended(args, expression=agent("items(s-4)"), cites=["s-4"])
            if "cite the chunk that writes the enumeration" in refusal["fix"]
            else None
        ),
    ),
    Row(
        "GRIM without the premise that the data are integers",
        "premise-missing",
        ("run_checks", proposal(target="s-3", cites=["s-3"], expression="grim(961, 1000)", result="961")),
        lambda args, refusal: (
            mended(args, premises=[agent("each realisation either stays below 1% or not: a whole count")])
            if '"premises"' in refusal["fix"]
            else None
        ),
    ),
    Row(
        "a target whose type has no base",
        Code.CHECK_TARGET_NO_BASE,
        ("run_checks", proposal(target="s-7")),
        lambda args, refusal: None if "start a new run" in refusal["fix"] else mended(args),  # a rubric change
    ),
    Row(
        "a passage not in its chunk",
        "passage-not-in-chunk",
        (
            "run_checks",
            {
                "proposals": [
                    {
                        "type": "internal-consistency",
                        "target": "s-5",
                        "with": ["s-2"],
                        "passages": [
                            {"node": "s-5", "text": "The gain of the amplifier is unity"},
                            {"node": "s-2", "text": "The trials took 3600 s in all"},
                        ],
                        "consistent": True,
                    }
                ]
            },
        ),
        lambda args, refusal: (
            (
                "run_checks",
                {
                    "proposals": [
                        {
                            **args["proposals"][0],
                            "passages": [
                                {"node": "s-5", "text": agent("The amplifier gain is unity")},
                                args["proposals"][0]["passages"][1],
                            ],
                        }
                    ]
                },
            )
            if "word for word" in refusal["fix"]
            else None
        ),
    ),
    Row(
        "a passage compared with the same words",
        "passages-identical",
        (
            "run_checks",
            {
                "proposals": [
                    {
                        "type": "internal-consistency",
                        "target": "s-5",
                        "with": ["s-6"],
                        "passages": [
                            {"node": "s-5", "text": "the amplifier gain is unity at every frequency"},
                            {"node": "s-6", "text": "the amplifier gain is unity at every frequency"},
                        ],
                        "consistent": True,
                    }
                ]
            },
        ),
        lambda args, refusal: (
            (
                "run_checks",
                {
                    "proposals": [
                        {
                            **args["proposals"][0],
                            "passages": [
                                args["proposals"][0]["passages"][0],
                                {"node": "s-6", "text": agent("As the table shows, the amplifier gain is unity")},
                            ],
                        }
                    ]
                },
            )
            if "differ" in refusal["fix"]
            else None
        ),
    ),
    Row(
        "an entry that is not a reference",
        "not-a-reference",
        (
            "judge_citation",
            {"node": "s-8", "entry": "s-2", "source": "wz.txt", "passage": CITED[:46], "supports": True},
        ),
        lambda args, refusal: ("judge_citation", {**args, "entry": quoted(refusal["fix"])[-1]}),
    ),
    Row(
        "a reference with no identifier",
        "reference-no-identifier",
        ("run_checks", {"proposals": [{"type": "reference-resolves", "target": "r-1"}]}),
        lambda args, refusal: None if "cannot be resolved" in refusal["fix"] else ("run_checks", args),
    ),
    Row(
        "a review of a check that is not one",
        Code.UNKNOWN_NODE,
        ("review", {"check": "c-099", "verdict": "holds", "reviewer": "Ada", "reason": "recomputed"}),
        lambda args, refusal: (
            ("review", {**{k: v for k, v in args.items() if k != "check"}, "node": agent("s-2")})
            if "'node'" in refusal["fix"]
            else None
        ),
    ),
]

PENDING: dict[str, str] = {
    # cross-reference (its helper): panels, labels of any spelling, another work's figure
    "ref-not-written": "the cross-reference helper",
    "ref-unknown": "the cross-reference helper",
    "ref-another-work": "the cross-reference helper",
    "cite-not-numbered": "the cross-reference helper",
    "numbering-unknown": "the cross-reference helper",
    # the arithmetic's relation vocabulary (the lead, issue 35)
    "relation-not-in-text": "the lead (issue 35)",
    # rederive-maths (the maths helper): the split hint among them
    "degree-too-large": "the maths helper",
    "latex-invalid": "the maths helper",
    "latex-not-in-text": "the maths helper",
    "latex-ambiguous": "the maths helper",
    "step-trivial": "the maths helper",
    "approximation-not-numeric": "the maths helper",
    # arithmetic refusals that need a setup of their own (a hedge outside the tolerance table, a unit the
    # reader knows but cannot scale, a table whose columns were not recorded, a bound too close to call)
    "hedge-undeclared": "the lead (arithmetic)",
    "unit-invalid": "the lead (arithmetic)",
    "columns-not-counted": "the lead (arithmetic)",
    "value-undecided": "the lead (arithmetic)",
    # the dimensions check (issue 39): a unit or constant the registries do not know, a dimension that depends
    # on a value; tests/checks/dimensions/test_dimensions.py provokes each and checks its fix
    "unit-unknown": "the dimensions check's own tests",
    "constant-unknown": "the dimensions check's own tests",
    "dimension-undecided": "the dimensions check's own tests",
}
"""Refusal codes whose rows their owners add, with who."""

CHECK_ERRORS: dict[str, str] = {
    **dict.fromkeys(
        (
            "source-untied",
            "source-changed",
            "source-unreadable",
            "passage-not-found",
            "fetch-refused",
            "fetch-failed",
            "fetch-too-large",
            "fetch-timeout",
            "fetch-content-type",
            "fetch-redirects",
            "metadata-unreadable",
            "registry-unsupported",
        ),
        "a source read or fetched gave no reading: an error check, which another source may follow",
    ),
    "review-undetermined": "an undetermined review is recorded as an error check",
    **dict.fromkeys(
        (
            "symbolic-undecided",
            "symbolic-timeout",
            "numeric-undefined",
            "numeric-distribution",
            "numeric-condition",
            "numeric-degenerate",
            "numeric-precision",
        ),
        "a maths step that could not be decided: an error check",
    ),
}
"""Codes a built-in check type ends a check with, never refuses a proposal with."""

PROPOSAL_CODES = (
    Code.CHECK_TYPE_UNKNOWN,
    Code.CHECK_TYPE_UNDECLARED,
    Code.CHECK_TARGET_TYPE,
    Code.CHECK_NOT_ASSESSED,
    Code.CHECK_DUPLICATE,
    Code.CHECK_SAME_OBSERVATION,
    Code.CHECK_WRONG_TOOL,
    Code.PROPOSAL_INVALID,
    Code.CHECK_TARGET_NO_BASE,
    Code.UNKNOWN_NODE,
    Code.EXPRESSION_INVALID,
    Code.EXPONENT_TOO_LARGE,
    Code.EXPRESSION_TOO_LARGE,
)
"""The engine's own refusals of a proposal, and the numeral reader's."""


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("proposal-fixes")
    paper = folder / "paper" / "paper.tex"
    (folder / "paper" / "cited").mkdir(parents=True)
    paper.write_text(PAPER, encoding="utf-8")
    (folder / "paper" / "cited" / "wz.txt").write_text(CITED, encoding="utf-8")
    rubric = folder / "rubric.toml"
    types, checks = CHECKS.split("[checks.", 1)
    assessed = RUBRIC.replace('"A bibliography entry."', '"A bibliography entry."\nassess = true\nbase = "beta:19,1"')
    assert assessed != RUBRIC  # a reference is assessed here, so reference-resolves may check it
    rubric.write_text(
        assessed.replace("[types.claim]", types.strip() + "\n\n[types.claim]") + "\n[checks." + checks,
        encoding="utf-8",
    )
    run = folder / "run"
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(rubric), "cited": str(paper.parent / "cited")}
    payload, is_error = call_tool("start_run", {**arguments, "model": "m"})
    assert not is_error, payload
    assert made("classify", run, {"records": RECORDS})["refused"] == []
    return run


def made(tool: str, run: Path, args: dict[str, Any]) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"run": str(run), "model": "m", **args})
    assert "error" not in payload, payload
    return payload


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_a_fix_followed_leads_to_a_proposal_that_runs(started: Path, tmp_path: Path, row: Row) -> None:
    run = tmp_path / "run"
    shutil.copytree(started, run)
    for tool, args in row.before:
        assert made(tool, run, args)["refused"] == []
    tool, args = row.call
    refused = made(tool, run, args)["refused"]
    assert [refusal["code"] for refusal in refused] == [row.code], refused
    corrected = row.follow(args, refused[0])
    if corrected is None:
        return  # the fix says there is nothing to send: the observation is made, or only a new rubric would do
    result = made(*corrected[:1], run, corrected[1])
    problems = {problem["code"] for entry in result["refused"] for problem in [entry, *entry.get("also", [])]}
    assert problems <= row.left, (row.name, refused[0]["fix"], corrected, result["refused"])
    assert problems or result["checks"], result


def _refusal_codes() -> set[str]:
    """Every code a proposal may be refused with: the engine's, and each built-in check type's own."""
    codes = {str(code) for code in PROPOSAL_CODES}
    for installed in installed_check_types():
        if installed.distribution == OWN_DISTRIBUTION:
            codes |= set(installed.check_type.codes)
    return codes


def test_every_refusal_code_has_a_row() -> None:
    covered = {str(row.code) for row in ROWS}
    assert not covered & set(PENDING) and not covered & set(CHECK_ERRORS)
    assert _refusal_codes() - covered - set(PENDING) - set(CHECK_ERRORS) == set()
