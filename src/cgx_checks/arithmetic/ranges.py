"""Citing many chunks at once: a range of rows (`t-07..t-28`) or a whole table (`table(t-07)`).

A claim over a 22-row table rests on every row, and a proposal's `cites` holds at most 20 entries: an entry
may be a range of chunks of one kind, from one id to another in document order, both included, or the whole
table holding a row. The check expands each into the chunks it names and records the expanded list, so
`verify` reads exactly the chunks the proposal was decided on, as for any other proposal.

A table's rows are the consecutive table-row chunks (`t-1` ... `t-6`) that share the table's identity: its
`attributes.table` (kind, number, label) and the title and caption their text opens with. A clause of a
split row (`t-3a`) is never part of a range or a table: cite it by its own id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from cgx_core.numbers.columns import TABLE_ROW, row_title
from cgx_core.plugin_api import NodeView, Refusal

MAX_CITED: Final = 1_000
"""The most chunks a proposal's cites may expand to."""

_RANGE = re.compile(r"^(?P<first>(?P<kind>[a-z]+)-[0-9]+)\.\.(?P<last>(?P=kind)-[0-9]+)$")
_TABLE = re.compile(r"^table\((?P<row>t-[0-9]+)\)$")
_WHOLE = re.compile(r"^[a-z]+-[0-9]+$")
_FORMS = "a chunk id (t-3), a range of one kind of chunk (t-07..t-28) or a table (table(t-07))"


def is_compact(entry: str) -> bool:
    """Whether a cites entry names several chunks (a range or a table)."""
    return bool(_RANGE.match(entry) or _TABLE.match(entry))


def expand_cites(entries: Sequence[str], nodes: Sequence[NodeView]) -> list[str] | Refusal:
    """The chunk ids the entries name, in order and once each; a Refusal (`unknown-node`) for a range or
    table that names no chunk of the run, ends before it starts, or expands beyond MAX_CITED chunks."""
    whole = [node for node in nodes if _WHOLE.match(node.id) and node.attributes.get("origin") == "document"]
    expanded: list[str] = []
    for entry in entries:
        named = _expand(entry, whole)
        if isinstance(named, Refusal):
            return named
        expanded.extend(named)
    cited = list(dict.fromkeys(expanded))
    if len(cited) > MAX_CITED:
        return _refused(f"cites expands to {len(cited)} chunks; at most {MAX_CITED} are accepted")
    return cited


def _expand(entry: str, whole: Sequence[NodeView]) -> list[str] | Refusal:
    table = _TABLE.match(entry)
    if table is not None:
        for rows in tables(whole):
            if table["row"] in rows:
                return rows
        return _refused(f"cites names {entry!r}, but {table['row']} is not a table row of the document")
    found = _RANGE.match(entry)
    if found is None:
        return [entry]
    kind = [node.id for node in whole if node.id.startswith(found["kind"] + "-")]
    missing = [name for name in (found["first"], found["last"]) if name not in kind]
    if missing:
        return _refused(f"cites names the range {entry!r}, but {missing[0]} is not a chunk of the document")
    start, end = kind.index(found["first"]), kind.index(found["last"])
    if end < start:
        return _refused(f"the range {entry!r} ends before it starts: write the first chunk first")
    return kind[start : end + 1]


def tables(nodes: Sequence[NodeView]) -> list[list[str]]:
    """The run's tables, each as the ids of its body rows in order (whole rows only: not `t-3a`)."""
    found: list[tuple[tuple[str, str], list[str]]] = []
    for node in nodes:
        if node.unit != TABLE_ROW or not re.match(r"^t-[0-9]+$", node.id):
            continue
        identity = (repr(sorted(dict(node.attributes.get("table") or {}).items())), row_title(node.text or ""))
        if not found or found[-1][0] != identity:
            found.append((identity, []))
        found[-1][1].append(node.id)
    return [rows for _, rows in found]


def _refused(message: str) -> Refusal:
    return Refusal("unknown-node", message, f"cite {_FORMS}, naming chunks of this run")
