"""A node as an agent reads it, and the page of nodes that fits a result: what get_state lists, and what
start_run's summary shows first.

A view has the node's type, text (the paper's words fenced as data), form and links, and never a credence.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping
from typing import Any

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.tooling.fence import fenced
from cgx_core.tooling.output import result_text
from cgx_core.tooling.paging import MAX_RESULT_CHARS, page_of, size

DEFAULT_LIMIT = 50
NUMBERED_UNITS = ("equation", "caption")
"""Chunks whose view names the objects LaTeX numbers them as ("Equation 3 eq:loss"): what a reference writes."""
REFERENCE_FIELDS = ("key", "doi", "arxiv", "title", "first_author", "year")
"""What a reference node shows besides its text: what judge_citation and a reader tie a source to."""
INCOMING_LINKS = {"requires": "rests_on", "part-of": "clauses", "assesses": "checks"}
"""A view's links from the relations into its node, by relation type (`assesses`: a premised check, which
observes the node's reading)."""
OUTGOING_LINKS = {"cites": "cites", "part-of": "part_of", "observes": "checks", "requires": "premise_of"}
Json = dict[str, Any]


def origin_of(node: Mapping[str, Any]) -> str:
    return str(node["attributes"].get("origin", ""))


def _numbered(item: Mapping[str, Any]) -> str:
    """A numbered object as a reference names it: "Table A1 tab:extra"."""
    words = [str(item.get("kind", "")).capitalize(), str(item.get("number") or "(number unknown)")]
    return " ".join([*words, *(str(label) for label in item.get("labels") or ())])


def node_view(node: Json, incoming: Mapping[str, list[Json]], outgoing: Mapping[str, list[Json]], token: str) -> Json:
    """One node as an agent reads it: type, text, form and how it is linked; no credences."""
    attributes = node["attributes"]
    view: Json = {
        "id": node["id"],
        "origin": origin_of(node),
        "unit": attributes.get("unit"),
        "type": node["kind"],
        "text": fenced(node["statement"], token) if origin_of(node) == "document" else node["statement"],
    }
    if attributes.get("unit") == "reference":
        view.update({name: attributes[name] for name in REFERENCE_FIELDS if name in attributes})
    if attributes.get("unit") in NUMBERED_UNITS and attributes.get("numbered"):
        view["numbered"] = [_numbered(item) for item in attributes["numbered"] if item.get("kind") != "section"]
    if "form" in attributes:
        view["form"] = attributes["form"]
    if node["stated"] is not None:
        view["stated"] = True
    if "assessment" in attributes:
        view["assessment"] = attributes["assessment"]
    if "check" in attributes:
        view["check"] = {name: attributes["check"].get(name) for name in ("type", "target", "result", "detail")}
    links: dict[str, list[str]] = {}
    for relation in incoming.get(node["id"], ()):
        if (name := INCOMING_LINKS.get(relation["type"])) is not None:
            links.setdefault(name, []).append(relation["source"])
    for relation in outgoing.get(node["id"], ()):
        if (name := OUTGOING_LINKS.get(relation["type"])) is not None:
            links.setdefault(name, []).append(relation["target"])  # a clause is part of one chunk
    view.update(links)
    return view


def _links(relations: list[Json]) -> tuple[dict[str, list[Json]], dict[str, list[Json]]]:
    """The relations into and out of each node."""
    incoming: dict[str, list[Json]] = {}
    outgoing: dict[str, list[Json]] = {}
    for relation in relations:
        incoming.setdefault(relation["target"], []).append(relation)
        outgoing.setdefault(relation["source"], []).append(relation)
    return incoming, outgoing


def _budget(result: Json, reserve: int, total: int) -> int:
    """What `result` leaves of the character budget for its page, `reserve` characters set aside, with room
    for the widest `next` a run can have."""
    return MAX_RESULT_CHARS - reserve - len(result_text(result)) - len(str(total))


def stub_view(node: Json) -> Json:
    """A node listed without its text, which did not fit the page: `text_cut` is the text's length, and
    get_state `nodes` (or the page from `next`) gives it whole."""
    return {"id": node["id"], "type": node["kind"], "text_cut": len(node["statement"] or "")}


def whole_page(
    selected: list[Json], relations: list[Json], token: str, start: int, limit: int, result: Json
) -> tuple[list[Json], int | None]:
    """get_state's page: every node of `selected[start:start + limit]`, so that paging by offsets (`start`
    plus `limit`) skips none. As many as fit the budget come whole, from the first (one at least); the rest
    come without their text (`stub_view`), and `next` is then the first of those, so that paging from `next`
    reads each text whole (a first node longer than the budget comes whole all the same: it is readable only
    so). A page whose stubs alone overflow the budget (a `limit` of hundreds of nodes) is refused, with the
    limit that fits."""
    incoming, outgoing = _links(relations)
    budget = _budget(result, 0, len(selected))
    chosen = selected[start : start + limit]
    views = [node_view(node, incoming, outgoing, token) for node in chosen]
    stubs = [stub_view(node) for node in chosen]
    whole, short = [size(view) + 1 for view in views], [size(stub) + 1 for stub in stubs]
    # The first node comes whole; one longer than the budget is let through alone (its overflow is its own).
    first = whole[0] if chosen and whole[0] + 2 <= budget else (short[0] if chosen else 0)
    if 2 + first + sum(short[1:]) > budget:
        raise CgxError(
            Code.INVALID_ARGUMENTS,
            f"get_state: a page of {len(chosen)} nodes from {start} does not fit 20,000 characters, even with "
            f"their texts left out: ask limit={1 + _stubs_that_fit(short[1:], budget - 2 - first)}",
        )
    used, kept = 2 + sum(short), 0
    while kept < len(chosen) and (kept == 0 or used - short[kept] + whole[kept] <= budget):
        used += whole[kept] - short[kept]
        kept += 1
    end = start + len(chosen)
    return views[:kept] + stubs[kept:], start + kept if kept < len(chosen) else (end if end < len(selected) else None)


def _stubs_that_fit(stubs: list[int], room: int) -> int:
    """How many of the page's nodes fit `room` as stubs."""
    return bisect.bisect_right(list(itertools.accumulate(stubs)), room)


def nodes_page(
    selected: list[Json],
    relations: list[Json],
    token: str,
    start: int,
    limit: int,
    result: Json,
    *,
    at_least_one: bool = True,
    reserve: int = 0,
) -> tuple[list[Json], int | None]:
    """The page of `selected` from `start` that fits what `result` leaves of the character budget, `reserve`
    characters set aside (with `at_least_one`, one node at least when any is left), and the start of the
    next page or None."""
    incoming, outgoing = _links(relations)
    budget = _budget(result, reserve, len(selected))
    return page_of(
        selected,
        start,
        limit,
        budget,
        lambda node: node_view(node, incoming, outgoing, token),
        at_least_one=at_least_one,
    )
