"""The plot of credence before against after the observations, one point per assessed node, as numbers the
template draws into an inline SVG (no script, no external asset).

A point on the diagonal is a node the observations did not move; below it, one they lowered (a failed
check, or a failed premise); above it, one they raised. Each point links to its node.
"""

from __future__ import annotations

import attrs

from cgx_core.report.model import RunReport

SIZE = 300
MARGIN = 44
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


@attrs.frozen
class Point:
    node: str
    verdict: str
    before: float
    after: float
    x: float
    y: float


@attrs.frozen
class Plot:
    points: tuple[Point, ...]
    size: int = SIZE
    margin: int = MARGIN

    @property
    def width(self) -> int:
        return self.size + 2 * self.margin

    def x(self, value: float) -> float:
        return round(self.margin + value * self.size, 2)

    def y(self, value: float) -> float:
        return round(self.margin + (1.0 - value) * self.size, 2)

    @property
    def ticks(self) -> tuple[float, ...]:
        return TICKS


def plot(report: RunReport) -> Plot:
    frame = Plot(())
    points = tuple(
        Point(
            node.id,
            node.verdict or "none",
            node.credence.before,
            node.credence.after,
            frame.x(node.credence.before),
            frame.y(node.credence.after),
        )
        for node in report.assessed
        if node.credence is not None
    )
    return Plot(points)
