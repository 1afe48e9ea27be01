"""A node as an agent reads it, and the page of nodes that fits a result: what get_state lists, and what
start_run's summary shows first.

A view has the node's type, text (the paper's words fenced as data), form and links, and never a credence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_core.tooling.fence import fenced
from cgx_core.tooling.output import result_text
from cgx_core.tooling.paging import MAX_RESULT_CHARS, page_of

DEFAULT_LIMIT = 50
NUMBERED_UNITS = ("equation", "caption")
"""Chunks whose view names the objects LaTeX numbers them as ("Equation 3 eq:loss"): what a reference writes."""
REFERENCE_FIELDS = ("key", "doi", "arxiv", "title", "first_author", "year")
"""What a reference node shows besides its text: what judge_citation and a reader tie a source to."""
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
        if relation["type"] == "requires":
            links.setdefault("rests_on", []).append(relation["source"])
        elif relation["type"] == "part-of":
            links.setdefault("clauses", []).append(relation["source"])
        elif relation["type"] == "assesses":  # a premised check: it observes this node's reading
            links.setdefault("checks", []).append(relation["source"])
    for relation in outgoing.get(node["id"], ()):
        if relation["type"] == "cites":
            links.setdefault("cites", []).append(relation["target"])
        elif relation["type"] == "part-of":
            links["part_of"] = [relation["target"]]
        elif relation["type"] == "observes":
            links.setdefault("checks", []).append(relation["target"])
        elif relation["type"] == "requires":
            links.setdefault("premise_of", []).append(relation["target"])
    view.update(links)
    return view


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
    incoming: dict[str, list[Json]] = {}
    outgoing: dict[str, list[Json]] = {}
    for relation in relations:
        incoming.setdefault(relation["target"], []).append(relation)
        outgoing.setdefault(relation["source"], []).append(relation)
    # The result as it is without its page, with room for the widest `next` a run can have.
    budget = MAX_RESULT_CHARS - reserve - len(result_text(result)) - len(str(len(selected)))
    return page_of(
        selected,
        start,
        limit,
        budget,
        lambda node: node_view(node, incoming, outgoing, token),
        at_least_one=at_least_one,
    )
