"""Boxes on a PDF's pages, and the locators credencegraph's reader writes for them (`page=3;bbox=x0,y0,x1,y1`,
in PDF points, origin at the bottom left): one reading of them for every module of this package."""

from __future__ import annotations

import re
from collections.abc import Iterable

Box = tuple[float, float, float, float]
"""Left, bottom, right, top."""

_LOCATOR = re.compile(r"^page=(?P<page>\d+);bbox=(?P<x0>[-0-9.]+),(?P<y0>[-0-9.]+),(?P<x1>[-0-9.]+),(?P<y1>[-0-9.]+)")


def first_box(locator: str) -> tuple[int, Box] | None:
    """The page and box a locator starts with (a chunk over two pages names the first), or None."""
    match = _LOCATOR.match(locator)
    if match is None:
        return None
    return int(match["page"]), (float(match["x0"]), float(match["y0"]), float(match["x1"]), float(match["y1"]))


def boxes_of(locator: str) -> list[tuple[int, Box]]:
    """Every page and box a locator names (a chunk over two pages names one box on each)."""
    found = []
    for part in re.finditer(r"page=\d+;bbox=[-0-9.,]+", locator):
        located = first_box(part[0])
        if located is not None:
            found.append(located)
    return found


def union(boxes: Iterable[Box]) -> Box:
    """The smallest box around every box (at least one)."""
    found = list(boxes)
    return (min(b[0] for b in found), min(b[1] for b in found), max(b[2] for b in found), max(b[3] for b in found))


def centre_in(box: Box, region: Box, slack: float = 0.0) -> bool:
    """Whether the centre of `box` lies in `region`, widened by `slack` points."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return region[0] - slack <= x <= region[2] + slack and region[1] - slack <= y <= region[3] + slack


def locator_of(page: int, box: Box) -> str:
    """A locator as credencegraph writes it, to a tenth of a point."""
    return f"page={page};bbox=" + ",".join(f"{value:.1f}" for value in box)
