"""`calibrate`: a rubric fitted on labelled runs, and how much better its credences are.

The fit uses every run but the held-out ones. The credences of the rubric given (`before`) and of the
fitted one (`after`) are scored three ways: in sample (on the runs fitted on), leaving each run out (fitted
on the others, scored on it), leaving each paper out (its runs, an original and its planted copies, left
out together: they share most of their text), and on the held-out runs, never fitted on. The same runs and
options give the same bytes: runs are taken in name order, and nothing reads the clock.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.calibration.counts import Counts, ExtraCounts, counted
from cgx_core.calibration.fit import Fitted, fit
from cgx_core.calibration.labels import LabelledRun, describe
from cgx_core.calibration.rubric_file import calibrated_rubric
from cgx_core.calibration.score import Scores, against_verdict, credences
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.rubric import load_rubric_bytes

if TYPE_CHECKING:
    from credencegraph.rubric import Rubric


@attrs.frozen
class Calibration:
    """What `calibrate` made and measured."""

    rubric: str
    """The calibrated rubric's text."""
    fitted: Fitted
    counts: Counts
    against: str
    scores: Mapping[str, Mapping[str, Scores]]
    """By way of scoring (in_sample, leave_one_run_out, leave_one_paper_out, held_out): before and after."""
    against_verdict: Mapping[str, Mapping[str, Sequence[str]]]
    """By run (fitted on or held out) and verdict, the nodes the calibrated credences move against it: `fails`,
    failing nodes raised (the bar is none); `holds`, holding nodes lowered (a failed parent they rest on, or a
    passing check of one aspect of a false statement: worth a reviewer's look, and often right)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "against": self.against,
            "counts": self.counts.to_json(),
            "fitted": attrs.asdict(self.fitted),
            "scores": {
                way: {side: found.to_json() for side, found in sides.items()} for way, sides in self.scores.items()
            },
            "against_verdict": {
                name: {verdict: list(nodes) for verdict, nodes in sorted(found.items())}
                for name, found in self.against_verdict.items()
            },
        }


def calibrate(
    runs: Sequence[LabelledRun],
    rubric_text: str,
    *,
    version: str,
    on: datetime.date,
    extra: Mapping[str, ExtraCounts] | None = None,
    baseline: str | None = None,
) -> Calibration:
    """Fit `rubric_text` on `runs` (but the held-out ones), write it as calibrated, and score both: the fitted
    values against `baseline`'s (a rubric's text; by default `rubric_text`'s own values, which re-fitting an
    already calibrated rubric would make the fit itself)."""
    runs = sorted(runs, key=lambda run: run.name)
    fitted_on = [run for run in runs if not run.held_out]
    held = [run for run in runs if run.held_out]
    if not fitted_on:
        raise CgxError(Code.CALIBRATION_INVALID, "every run is held out: no run is left to fit the rubric on")
    before = load_rubric_bytes(rubric_text.encode("utf-8"), "the rubric")
    compared = before if baseline is None else load_rubric_bytes(baseline.encode("utf-8"), "the baseline rubric")
    counts = counted(fitted_on, extra)
    fitted = fit(counts, before)
    against = _against(fitted_on, held, counts, extra or {})
    text = calibrated_rubric(rubric_text, fitted, version=version, against=against, on=on)
    after = load_rubric_bytes(text.encode("utf-8"), "the calibrated rubric")

    def refit(without: Callable[[LabelledRun], bool]) -> Rubric:
        kept = [run for run in fitted_on if not without(run)]
        if not kept:
            return after
        again = fit(counted(kept, extra), before)
        written = calibrated_rubric(rubric_text, again, version=version, against=against, on=on)
        return load_rubric_bytes(written.encode("utf-8"), "a refitted rubric")

    by_paper: dict[str, Rubric] = {}
    found: dict[str, dict[str, Scores]] = {
        "in_sample": _both(fitted_on, compared, lambda run: after),
        "leave_one_run_out": _both(fitted_on, compared, lambda run: refit(lambda other: other.name == run.name)),
        "leave_one_paper_out": _both(
            fitted_on,
            compared,
            lambda run: by_paper.setdefault(run.paper, refit(lambda other: other.paper == run.paper)),
        ),
    }
    if held:
        found["held_out"] = _both(held, compared, lambda run: after)
    against_verdicts = {run.name: nodes for run in runs if (nodes := against_verdict(run, after))}
    return Calibration(text, fitted, counts, against, found, against_verdicts)


def _both(runs: Sequence[LabelledRun], before: Rubric, after: Callable[[LabelledRun], Rubric]) -> dict[str, Scores]:
    pairs_before: list[tuple[float, bool]] = []
    pairs_after: list[tuple[float, bool]] = []
    for run in runs:
        for pairs, rubric in ((pairs_before, before), (pairs_after, after(run))):
            values = credences(run, rubric)
            pairs.extend((values[node_id], run.truth[node_id]) for node_id in values)
    return {"before": Scores.of(pairs_before), "after": Scores.of(pairs_after)}


def _against(
    fitted_on: Sequence[LabelledRun], held: Sequence[LabelledRun], counts: Counts, extra: Mapping[str, ExtraCounts]
) -> str:
    """The `[calibration] against` sentence: what the values were fitted on, and what was kept out."""
    described = describe(fitted_on)
    checks = sum(found.holding.total + found.failing.total for found in counts.checks.values())
    outside = sum(more.on_true[0] + more.on_true[1] + more.on_false[0] + more.on_false[1] for more in extra.values())
    names = ", ".join(run.name for run in fitted_on)
    sentence = (
        f"{described['runs']} labelled runs of {described['papers']} papers ({names}): "
        f"{described['labelled']} labelled nodes ({described['false']} false), {checks - outside} checks"
    )
    for name, more in sorted(extra.items()):
        sentence += f"; {name} also {sum(more.on_true) + sum(more.on_false)} steps of {more.source}"
    if held:
        sentence += f"; held out: {', '.join(run.name for run in held)}"
    return sentence
