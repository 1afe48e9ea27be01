"""Results that fit an agent's context: the size every listing result is held under, and the page of nodes
that fits it.

Some harnesses cut a tool result near 25,000 tokens, and every character an agent reads costs its context,
so a result that lists the paper's nodes (get_state, start_run) lists a page of them: at most `limit`
nodes, and fewer when the next one would take the result past `MAX_RESULT_CHARS`. A page always holds at
least one node when any is left (a single node longer than the budget is still readable, alone), so
paging by `next` reaches every node. Sizes are counted in characters of the result as it is printed
(compact JSON), which is the same on every machine, so a page and its `next` are deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from cgx_core.tooling.output import result_text

MAX_RESULT_CHARS: Final = 20_000
"""The most characters a start_run or get_state result holds (as compact JSON), whatever the paper."""

Json = dict[str, Any]


def size(value: Any) -> int:
    """Characters of a JSON value as a result prints it."""
    return len(result_text({"v": value})) - len('{"v":}')


def page_of(
    items: Sequence[Json], start: int, limit: int, budget: int, view: Callable[[Json], Json], *, at_least_one: bool
) -> tuple[list[Json], int | None]:
    """The views of `items[start:]`: at most `limit`, stopping before the one that would take their size
    past `budget`; and the start of the next page, or None when the page reached the end."""
    views: list[Json] = []
    used = 2  # the brackets of the list
    index = start
    while index < len(items) and len(views) < limit:
        shown = view(items[index])
        cost = size(shown) + (1 if views else 0)
        if used + cost > budget and (views or not at_least_one):
            break
        views.append(shown)
        used += cost
        index += 1
    return views, (index if index < len(items) else None)


SHORTENED_ROOM: Final = 4_000
"""The characters kept for `shortened` when a records result is cut: the positions of up to 500 records."""


def fitted_records_result(result: Json, lists: Sequence[str]) -> Json:
    """A classify or add_premises result held under `MAX_RESULT_CHARS`: unchanged when it fits, else each of
    `lists` (in that order: the refusals first, which need an answer) cut to the items that fit, and
    `shortened` saying, for each cut list, how many it shows of how many and the positions of the records
    left out (so the agent knows which to send again). Every record was applied or refused all the same:
    only the result is cut, and the run's rejections.json keeps every refusal whole."""
    if size(result) <= MAX_RESULT_CHARS:
        return result
    fitted: Json = {key: [] if key in lists else value for key, value in result.items()}
    shortened: Json = {}
    for key in lists:
        items: list[Json] = result[key]
        budget = MAX_RESULT_CHARS - SHORTENED_ROOM - size(fitted)
        shown, _ = page_of(items, 0, len(items), budget, lambda item: item, at_least_one=False)
        fitted[key] = shown
        if len(shown) < len(items):
            left = items[len(shown) :]
            shortened[key] = {
                "shown": len(shown),
                "total": len(items),
                "records": sorted({item["record"] for item in left if isinstance(item.get("record"), int)}),
            }
    fitted["shortened"] = shortened
    return fitted
