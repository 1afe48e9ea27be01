"""A pylatexenc context database that finds the specials at a position by their first character.

pylatexenc asks its context, at every token, which specials (`~`, `&`, the quotes and dashes, ...) start at
the position, by trying every specials string of every category with `str.startswith`: a third of the table
reader's walk of a paper, and of rendering a `.bib`'s fields. `IndexedContextDb` answers the same question
from the specials that start with the character at the position, in the same order, so the same spec wins
(the longest match; between matches of one length, the first found) and the parse builds the same nodes.
pylatexenc is imported where this module is, so only the readers, which parse LaTeX anyway, import it.
"""

from __future__ import annotations

from typing import Any

from pylatexenc.macrospec import LatexContextDb


class IndexedContextDb(LatexContextDb):  # type: ignore[misc]  # pylatexenc ships no type hints
    """`LatexContextDb` with `test_for_specials` answered from an index by first character, rebuilt when a
    category is added."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._by_first: dict[str, list[tuple[str, Any]]] | None = None

    def add_context_category(self, *args: Any, **kwargs: Any) -> Any:
        self._by_first = None
        return super().add_context_category(*args, **kwargs)

    def test_for_specials(self, s: str, pos: int, parsing_state: Any = None) -> Any:
        """The specials spec that `LatexContextDb.test_for_specials` returns, or None."""
        if pos >= len(s):
            return None
        candidates = self._index().get(s[pos])
        if not candidates:
            return None
        best_len = 0
        best = None
        for chars, spec in candidates:
            if len(chars) > best_len and s.startswith(chars, pos):
                best, best_len = spec, len(chars)
        return best

    def _index(self) -> dict[str, list[tuple[str, Any]]]:
        """Every category's specials in lookup order (categories in order, each in its own order), grouped by
        their first character."""
        if self._by_first is None:
            index: dict[str, list[tuple[str, Any]]] = {}
            for category in self.category_list:
                for chars, spec in self.d[category]["specials"].items():
                    if chars:
                        index.setdefault(chars[0], []).append((chars, spec))
            self._by_first = index
        return self._by_first


def merged(layered: LatexContextDb) -> IndexedContextDb:
    """`layered`'s specs in one category of an `IndexedContextDb` (a name two categories define has the first's
    spec, as a lookup finds it), and its specs for what it does not know: the same parse, faster. pylatexenc
    looks for specials category by category at every token, so one category parses a paper about a fifth
    faster than ten."""
    kinds: dict[str, dict[str, Any]] = {"macros": {}, "environments": {}, "specials": {}}
    for category in reversed(layered.category_list):  # the first category wins, as in a lookup
        for kind, specs in kinds.items():
            specs.update(layered.d[category][kind])
    context = IndexedContextDb()
    context.add_context_category("cgx", **{kind: list(specs.values()) for kind, specs in kinds.items()})
    context.set_unknown_macro_spec(layered.unknown_macro_spec)
    context.set_unknown_environment_spec(layered.unknown_environment_spec)
    context.set_unknown_specials_spec(layered.unknown_specials_spec)
    return context
