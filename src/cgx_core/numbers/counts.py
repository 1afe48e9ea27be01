"""Counting units: names a rubric's author declares as counts of something ("120 C", "30 cells", "12 patients").

A paper may write a count with a unit-like name after it: "120 C" meaning 120 colonies counted, not 120
coulombs; "30 cells"; "12 patients". Such a name is no unit of the units library (pint reads `C` as
coulomb, and `cells` as nothing), so without a declaration the numeral reader leaves it unread, and a check
over counts per hour could not be written. The rubric's author declares the names in the `[counts]` table
of `<rubric>.tolerances.toml` (`tolerances.py`), and a check reads with them through `counting`:

    with counting({"C": "C", "cell": "cell", "cells": "cell"}):
        read_text("We counted 120 C in 4 h.")   # 120 has the unit count:C, 4 the unit hour

Each key is a spelling as the paper writes it (matched exactly, case included), each value the name of the
count it spells: spellings with one name are one count ("cell" and "cells" when the author declares them
together), and every count is its own dimension, so a count never cancels against another count or a unit.

The declaration is a context variable, not a global: it holds only within `counting`, in the thread (and
asyncio task) that entered it, so two runs read side by side never see each other's counts, and a text
read outside any check (classify's fixes) reads "120 C" as it always has: 120 without a unit.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Final

COUNT_PREFIX: Final = "count:"
"""How a count's term is named in a `Unit` (`count:C`): no name of the units library has a colon, so a count
can never be taken for a unit (`C` for coulomb) by the check that scales units."""

_NONE: Final[Mapping[str, str]] = MappingProxyType({})
_DECLARED: ContextVar[Mapping[str, str]] = ContextVar("cgx_count_units", default=_NONE)


@contextmanager
def counting(units: Mapping[str, str]) -> Iterator[None]:
    """Read numerals with these counting units (spelling -> count name) until the block ends."""
    token = _DECLARED.set(MappingProxyType(dict(units)) if units else _NONE)
    try:
        yield
    finally:
        _DECLARED.reset(token)


def count_term(token: str) -> str | None:
    """The term name of a written token that is a declared counting unit (`C` -> `count:C`), else None."""
    name = _DECLARED.get().get(token)
    return None if name is None else COUNT_PREFIX + name


def is_count_term(name: str) -> bool:
    """Whether a unit's term name is a count's (`count:C`) rather than a unit of the units library."""
    return name.startswith(COUNT_PREFIX)
