"""One maths worker for the whole maths suite: starting one (importing sympy) takes about two seconds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider

BUDGET = 3.0
"""A shorter budget than the default, so the steps that run out of it keep the suite quick."""


@pytest.fixture(scope="session")
def decider() -> Iterator[SymbolicDecider]:
    """A decider with its own worker, stopped at the end of the session."""
    with SymbolicDecider(budget=BUDGET) as shared:
        yield shared
