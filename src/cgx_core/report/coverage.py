"""Coverage: the chunks that write numerals, and the equations, that no check touched.

A check touches its target and every node its recorded inputs name (a recompute-numbers check's `cites`, a
maths check's `equations`, whatever a third party's type records): any string in the inputs that is a node
id of the run. That reads every check type the same way, without knowing its fields. A compound chunk is
left out (its clauses carry its text), and so are bibliography entries (their years and pages are no
claims). Numerals are credencegraph's reading of the chunk's text, the one form fields are checked against.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.graph.evidence import check_record

if TYPE_CHECKING:
    from credencegraph.core import Graph

SHOWN_NUMERALS = 8


@attrs.frozen
class Untouched:
    """A chunk no check touched: its id, its type, and the numerals it writes (none for an equation)."""

    node: str
    kind: str
    numerals: tuple[str, ...]


@attrs.frozen
class Coverage:
    numerals: tuple[Untouched, ...]
    equations: tuple[Untouched, ...]
    numeral_chunks: int
    equation_chunks: int


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a JSON value, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings_in(item)


def touched_by_checks(graph: Graph) -> set[str]:
    """The nodes some check targets or names in its inputs."""
    touched: set[str] = set()
    for node in graph:
        record = check_record(node.attributes)
        if record is None:
            continue
        touched.add(str(record.get("target")))
        touched.update(text for text in strings_in(record.get("inputs", {})) if text in graph.nodes)
    return touched


def _written(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else format(value, ".6g")


def numerals_in(text: str) -> set[float]:
    """credencegraph's `numerals(text)`, never raising (cgx_core.graph.numerals)."""
    from cgx_core.graph.numerals import numerals

    return numerals(text)


def coverage(graph: Graph) -> Coverage:
    touched = touched_by_checks(graph)
    with_numerals: list[Untouched] = []
    equations: list[Untouched] = []
    numeral_chunks = equation_chunks = 0
    for node in graph:
        unit = node.attributes.get("unit")
        if node.attributes.get("origin") != "document" or unit == "reference" or node.kind == "compound":
            continue
        if unit == "equation":
            equation_chunks += 1
            if node.id not in touched:
                equations.append(Untouched(node.id, node.kind, ()))
            continue
        found = sorted(numerals_in(node.statement or ""))
        if not found:
            continue
        numeral_chunks += 1
        if node.id not in touched:
            shown = tuple(_written(value) for value in found[:SHOWN_NUMERALS])
            more = ("...",) if len(found) > SHOWN_NUMERALS else ()
            with_numerals.append(Untouched(node.id, node.kind, shown + more))
    return Coverage(tuple(with_numerals), tuple(equations), numeral_chunks, equation_chunks)
