"""Counts to a rubric's values: beta posteriors on a uniform prior.

A check type's `sensitivity` is P(pass | the node it observes holds): beta(1 + passes, 1 + fails) over the
checks on nodes that hold; its `false_pass` is P(pass | that node does not hold), the same over nodes that do
not. A type's `base` is beta(1 + holding, 1 + failing) over its nodes whose every `requires` parent holds. A type's
`rests_on` strength s (P(the node fails | one parent it requires fails), beyond its base) solves
P(holds | one false parent) = base * (1 - s), with that probability the posterior mean over its nodes with
exactly one false parent (at least MIN_PROPAGATION of them), written as a number to two places.
What no labelled run observed keeps the rubric's value, and so does a check type whose counts would make a
pass no evidence (mean sensitivity not above mean false_pass, which credencegraph refuses): the fit says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from cgx_core.calibration.counts import PREMISES, Counts, Tally

if TYPE_CHECKING:
    from credencegraph.rubric import Rubric

PRIOR = 1
"""The uniform prior's pseudo-count on each side: beta(1, 1)."""
MIN_PROPAGATION = 5
"""The fewest nodes with one false parent a strength is fitted on (fewer: the rubric's is kept)."""
STRENGTH_RANGE = (0.05, 0.95)
"""A fitted strength is kept within this range: no parent is irrelevant or certain death for its child."""


@attrs.frozen
class Fitted:
    """The values a fit gives (credences written `beta:a,b`), and why it left any out."""

    sensitivity: Mapping[str, str]
    false_pass: Mapping[str, str]
    bases: Mapping[str, str]
    """By type, and `premises` for premises.base (and the bases that equal it)."""
    strengths: Mapping[str, str]
    """By type: its `rests_on` rule's strength."""
    kept: Mapping[str, str]
    """What keeps the rubric's value, and why."""


def beta(tally: Tally) -> str:
    return f"beta:{PRIOR + tally.yes},{PRIOR + tally.no}"


def mean(credence: str) -> float:
    """The mean of a credence as a rubric writes it (`beta:a,b` or a number)."""
    if credence.startswith("beta:"):
        a, b = (float(part) for part in credence[5:].split(","))
        return a / (a + b)
    return float(credence)


def fit(counts: Counts, rubric: Rubric) -> Fitted:
    """The rubric's values fitted to `counts`: every declared check type and based type the counts observed."""
    sensitivity: dict[str, str] = {}
    false_pass: dict[str, str] = {}
    kept: dict[str, str] = {}
    for name in sorted(rubric.checks):
        found = counts.checks.get(name)
        if found is None or (found.holding.total == 0 and found.failing.total == 0):
            kept[f"checks.{name}"] = "no labelled observation"
            continue
        sens = beta(found.holding) if found.holding.total else _written(rubric.checks[name].sensitivity)
        false = beta(found.failing) if found.failing.total else _written(rubric.checks[name].false_pass)
        if mean(sens) <= mean(false):
            kept[f"checks.{name}"] = (
                f"the counts give sensitivity {sens} and false_pass {false}: a pass would be no evidence"
            )
            continue
        for side, tally in (("sensitivity", found.holding), ("false_pass", found.failing)):
            if tally.total == 0:
                kept[f"checks.{name}.{side}"] = "no labelled observation on that side"
        sensitivity[name], false_pass[name] = sens, false
    bases: dict[str, str] = {}
    for name, tally in sorted(counts.bases.items()):
        if name == PREMISES:
            if rubric.premises is not None:
                bases[name] = beta(tally)
        elif name in rubric.types and rubric.types[name].base is not None:
            bases[name] = beta(tally)
    for name, node_type in sorted(rubric.types.items()):
        if node_type.base is not None and name not in bases and name not in (PREMISES, "assumption", "reading"):
            kept[f"types.{name}.base"] = "no labelled node whose requirements all hold"
    strengths = _strengths(counts, rubric, bases, kept)
    return Fitted(sensitivity, false_pass, bases, strengths, kept)


def _strengths(counts: Counts, rubric: Rubric, bases: Mapping[str, str], kept: dict[str, str]) -> dict[str, str]:
    strengths: dict[str, str] = {}
    for name, node_type in sorted(rubric.types.items()):
        rule = node_type.rests_on
        if rule is None or rule.relation != "requires":
            continue
        tally = counts.propagation.get(name, Tally())
        if tally.total < MIN_PROPAGATION:
            kept[f"types.{name}.rests_on.strength"] = f"{tally.total} labelled nodes with one false parent"
            continue
        base = mean(bases[name]) if name in bases else mean(_written(node_type.base))
        holds = (PRIOR + tally.yes) / (2 * PRIOR + tally.total)
        low, high = STRENGTH_RANGE
        strengths[name] = f"{min(high, max(low, 1 - holds / base)):.2f}"
    return strengths


def _written(credence: object) -> str:
    """A credencegraph credence as a rubric writes it."""
    from credencegraph.core import Beta, Point

    if isinstance(credence, Beta):
        return f"beta:{_number(credence.alpha)},{_number(credence.beta)}"
    assert isinstance(credence, Point)
    return _number(credence.p)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))
