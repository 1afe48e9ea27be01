"""One maths worker for the whole maths suite: starting one (importing sympy) takes about two seconds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider

BUDGET = 6.0
"""A shorter budget than the default (10 s), so the steps that run out of it keep the suite quick; yet more than
twice what the costliest true step of the suite needs (a one-sided limit confirmed by mpmath at two precisions,
about 2.3 s of CPU on an idle machine), since CPU time itself grows on a saturated one (3 s failed there)."""


@pytest.fixture(scope="session")
def decider() -> Iterator[SymbolicDecider]:
    """A decider with its own worker, stopped at the end of the session."""
    with SymbolicDecider(budget=BUDGET) as shared:
        yield shared
