"""The hand annotation of the papers the candidate scan is measured on: each checkable statement by the
proposal that checks it and the verdict it must get (a candidate not listed here, or listed with another
verdict, is a wrong candidate), and the checkable statements the scan is known to miss (for recall)."""

from __future__ import annotations

from pathlib import Path
from typing import Final, NamedTuple

HERE: Final = Path(__file__).parent / "checks" / "arithmetic"
PAPERS: Final = Path(__file__).parent / "papers"

STATISTICS_PAPER: dict[tuple[str, str], str] = {
    ("28 + 32", "60"): "passed",
    ("45 / 60", "75%"): "passed",
    ("(75 - 60) / 60", "25%"): "passed",
    ("p_t(2.20, 28)", ".04"): "passed",
    ("p_F(3.15, 2, 57)", ".05"): "failed",  # the decision error: p = .0502 to .0506 against p < .05
    ("p_r(.32, 48)", ".02"): "passed",
    ("p_chi2(3.84, 1)", ".05"): "passed",
    ("p_t(2.2, 28)", ".03"): "passed",  # only at the printed precision of 2.2
    ("p_z(2.58)", ".01"): "passed",
    ("p_t(3.10, 40)", ".02"): "failed",  # a wrong p: .0035
    ("p_F(2.10, 3, 96)", ".15"): "failed",  # a wrong p: .105
    ("p_r(-.25, 118)", ".001"): "failed",  # a wrong p: .0059 against p < .001
    ("p_chi2(9.50, 2)", ".01"): "passed",
    ("grim(3.47, 19)", "3.47"): "passed",
    ("grimmer(3.47, 1.12, 19)", "1.12"): "passed",
    ("grim(2.50, 12, 5)", "2.50"): "passed",
    ("grim(3.48, 19)", "3.48"): "failed",  # the impossible mean: 66/19 = 3.4737, 67/19 = 3.5263
    ("ci_low(1.20, 0.30, 95%)", "0.61"): "passed",
    ("ci_high(1.20, 0.30, 95%)", "1.79"): "passed",
    ("ci_gmid(1.10, 2.60)", "1.50"): "failed",  # the inconsistent interval: 1.69 on the log scale
}
"""Every checkable statement of the paper, by the proposal that checks it, with the verdict it must get."""


class Annotation(NamedTuple):
    paper: Path
    expected: dict[tuple[str, str], str]
    """(expression, result) -> the verdict the proposal must get."""
    missed: tuple[str, ...]
    """Checkable statements the scan does not list, as the text writes them."""
    root: Path | None = None
    """The paper's folder, for a paper of several files."""


def shared(folder: str, main: str, expected: dict[tuple[str, str], str], missed: tuple[str, ...]) -> Annotation:
    """A real paper of tests/papers, annotated for the checkable statements of the kinds the scan reads."""
    return Annotation(PAPERS / folder / main, expected, missed, PAPERS / folder)


ANNOTATED: Final = {
    "statistics-paper": Annotation(HERE / "statistics_paper" / "paper.tex", STATISTICS_PAPER, ()),
    "reminders": Annotation(
        HERE / "annotated_papers" / "reminders.tex",
        {
            ("120", "112"): "failed",  # N = 120 in the abstract, N = 112 in Method: the same sample
            ("items(s-04)", "three"): "passed",
            ("items(s-05)", "two"): "passed",
            ("items(s-06)", "four"): "failed",  # "four phases" enumerates three
            ("rows(t-1)", "4"): "passed",
            ("items(s-12)", "two"): "passed",  # two channels (text and voice)
            ("items(s-13)", "three"): "failed",  # "three assessors (a physiotherapist and a nurse)" lists two
            ("items(s-14)", "four"): "passed",  # four criteria: ... and follow-up
            ("items(s-15)", "three"): "passed",  # three session types: and an itemize of three
            ("82 / 112", "73%"): "passed",
            ("(31 - 22) / 22", "41%"): "passed",
            ("p_chi2(6.85, 2)", ".03"): "passed",
            ("p_t(2.41, 73)", ".02"): "passed",
            ("p_t(1.12, 72)", ".05"): "passed",  # n.s. against alpha = .05
            ("p_t(2.01, 110)", ".05"): "passed",  # "significantly": .047
            ("p_t(3.30, 110)", ".001"): "passed",  # its p in the next sentence
            ("grim(3.62, 38)", "3.62"): "failed",  # 137/38 = 3.605, 138/38 = 3.632
            ("grim(3.16, 37)", "3.16"): "passed",
            ("grimmer(3.16, 1.04, 37)", "1.04"): "passed",
            ("ci_gmid(1.30, 4.43)", "2.40"): "passed",
            ("ci_low(0.80, 0.25, 95%)", "0.31"): "passed",
            ("ci_high(0.80, 0.25, 95%)", "1.29"): "passed",
        },
        (
            "Table 2 lists the 3 arms: rows(t-N) - 1, the table having a Total row",
            "marginally significant, t(110) = 1.70: .05 < p < .10",
        ),
    ),
    # The real papers: physics, ecology and machine learning, with no reported test; what they write of the
    # scan's kinds is a few counts. Their look-alikes: dynonet's "the two poles are: ($i$) ... ($iii$)" (three
    # cases of two poles, not three poles), fit indexes of two experiments (93.2% and 96.8%).
    "farr-normal-normal": shared("farr-normal-normal", "src/tex/ms.tex", {}, ()),
    "hastings-powell-replication": shared(
        "hastings-powell-replication",
        "article/article.tex",
        {},
        ("hence 10 parameters only: Table 1 has six rows, and the sentence does not refer to it",),
    ),
    "mlrc-warmstart-repro": shared(
        "mlrc-warmstart-repro",
        "2020/mohtashami2021reproducibility/openreview/main.tex",
        {("items(s-206)", "three"): "passed"},  # the described three settings (random initialization, ...)
        (),
    ),
    "dynonet-paper": shared("dynonet-paper", "doc/paper/ms.tex", {}, ()),
    "mlrc-cgn-repro": shared(
        "mlrc-cgn-repro",
        "2021/bagad2022reproducibility/journal/article.tex",
        {
            ("items(s-092)", "three"): "passed",  # three classifier heads: shape, texture, and background;
            ("items(s-229)", "two"): "passed",  # one of two categories: (i) ..., and (ii) ...
            ("items(s-223)", "four"): "passed",  # split into four mechanism: the shape mechanism, ...
        },
        (
            "an ensemble with three heads for shape, texture and background: a list after 'for', which may be a clause",
            "three IMs, each controlling one factor of variation (FoV), namely the shape, texture, and background: "
            "the list after 'namely', a clause away from its count",
            "two tasks, namely generating counterfactual examples and training a classifier to be invariant ...: "
            "a list after 'namely' whose items are clauses",
        ),
    ),
}
"""Every annotated paper by name. The look-alikes each paper writes (a p in the next sentence that belongs to
another test, a sample size counted at another stage, a table with a total row) are in none of the lists."""
