"""The assembler: pure functions that apply an agent's records to a credencegraph graph.

`classify` splits, types, hedges and links chunks; `add_premises` adds the premises of conclusions.
Both take the graph, the rubric, the call's raw JSON records and the run id, and return an `Applied`:
the new graph and the tool's JSON result. Neither reads or writes anything, raises on any record, or
applies part of a record: a record is applied whole, or refused with a code, a message and a fix.
"""

from __future__ import annotations

from cgx_core.assembler.applied import Applied
from cgx_core.assembler.classify import classify
from cgx_core.assembler.premises import add_premises

__all__ = ["Applied", "add_premises", "classify"]
