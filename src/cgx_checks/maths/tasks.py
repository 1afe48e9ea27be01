"""The tasks the maths worker process runs, by name: each takes a JSON string and returns one.

Imported in the worker only (it imports sympy); the caller names a task and never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from cgx_checks.maths.decide import symbolic_decision
from cgx_checks.maths.numeric import evaluate_points

TASKS: Final[Mapping[str, Callable[[str], str]]] = {
    "decide": symbolic_decision,
    "numeric": evaluate_points,
}
