"""The tasks the maths worker process runs, by name: each takes its payload (a parsed step, pickled by
the caller) and returns JSON text.

Imported in the worker only (it imports sympy); the caller names a task and never imports it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final

from cgx_checks.maths.worker.certify import certify_task
from cgx_checks.maths.worker.comparison import evaluate_points
from cgx_checks.maths.worker.decide import symbolic_decision
from cgx_checks.maths.worker.observation import key_task


def loaded(payload: object) -> str:
    """The worker's `loaded` task, for tests: how many grammars it has built (none: it gets parsed steps)
    and whether it imported sympy."""
    built = 0
    parsers = (("cgx_checks.maths.read.parse", "side_parser"), ("cgx_checks.maths.read.latex", "latex_parser"))
    for module, function in parsers:
        if module in sys.modules:
            built += getattr(sys.modules[module], function).cache_info().currsize
    return json.dumps({"grammars": built, "sympy": "sympy" in sys.modules}, sort_keys=True)


TASKS: Final[Mapping[str, Callable[[Any], str]]] = {
    "decide": symbolic_decision,
    "numeric": evaluate_points,
    "key": key_task,
    "certify": certify_task,
    "loaded": loaded,
}


def before_task() -> None:
    """Every task starts from sympy's empty cache, so its CPU time (and so whether it fits its budget)
    does not depend on what the worker computed before: a replay decides as the live call did."""
    from sympy.core.cache import clear_cache

    clear_cache()
