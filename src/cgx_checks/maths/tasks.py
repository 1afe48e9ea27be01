"""The tasks the maths worker process runs, by name: each takes its payload (a parsed step, pickled by
the caller) and returns JSON text.

Imported in the worker only (it imports sympy); the caller names a task and never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from cgx_checks.maths.decide import symbolic_decision
from cgx_checks.maths.numeric import evaluate_points
from cgx_checks.maths.observation import key_task

TASKS: Final[Mapping[str, Callable[[Any], str]]] = {
    "decide": symbolic_decision,
    "numeric": evaluate_points,
    "key": key_task,
}
