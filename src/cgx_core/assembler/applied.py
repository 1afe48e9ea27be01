"""What a call of the assembler returns: the graph with the records applied, and the tool's result.

A record it does not apply is reported in the result under `refused` (see `cgx_core.refusals`), with a
stable code, the message (credencegraph's own when credencegraph refused) and a fix computed from the
record, the rubric and the run.
"""

from __future__ import annotations

from typing import Any

import attrs
from credencegraph.core import Graph
from credencegraph.core.credence import Credence
from credencegraph.core.serialization import credence_to_json


@attrs.frozen
class Applied:
    """The graph after a call of the assembler, and the tool's JSON result body."""

    graph: Graph
    result: dict[str, Any]


def credence_json(credence: Credence) -> float | dict[str, float]:
    """A credence as credencegraph writes it: a Point as a number, a Beta as {"alpha", "beta"}."""
    written: float | dict[str, float] = credence_to_json(credence)
    return written
