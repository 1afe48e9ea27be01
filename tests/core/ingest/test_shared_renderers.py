"""The readers' shared pylatexenc pieces give what pylatexenc's own, built afresh, give: the `.bib` field
renderer built once per process, and the table walk's specials found by their first character."""

from __future__ import annotations

import pytest
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexWalker, get_default_latex_context_db
from pylatexenc.macrospec import LatexContextDb, SpecialsSpec

from cgx_core.ingest.bibliography import _plain
from cgx_core.ingest.specials import IndexedContextDb, merged
from cgx_core.ingest.tables.paper import latex_context

FIELDS = [
    r"{Isi}, M. and Farr, W. M.",
    r"Schr\"{o}dinger's {\em cat}: $\alpha$-stable -- and --- ``quoted''~text",
    r"{The {LIGO} Scientific Collaboration} and M\'esz\'aros, P.",
    r"\textbf{Bold {nested {groups}}} \unknownmacro{x} 50\% of 10\,000",
    r"unbalanced { brace and \end{nothing} $x",
    r"",
]

TEXTS = [
    r"a & b \\ c~d ``e'' -- f --- g ? ` ' `` '' ~~ &&",
    r"\begin{tabular}{l|c} x & y \\ \hline 1 & 2 \end{tabular} and -- dashes --- ~ at the end~",
    "-",
    "``",
]


@pytest.mark.parametrize("value", FIELDS)
def test_a_bib_field_renders_as_a_fresh_renderer_renders_it(value: str) -> None:
    _plain.cache_clear()  # rendered now, by the shared renderer, not remembered
    fresh = LatexNodes2Text(strict_latex_spaces=True).latex_to_text(value)
    assert _plain(value) == " ".join(fresh.split())


@pytest.mark.parametrize("text", TEXTS)
def test_the_indexed_context_finds_the_specials_the_plain_one_finds_at_every_position(text: str) -> None:
    plain = get_default_latex_context_db()
    indexed = merged(plain)
    for pos in range(len(text) + 2):
        assert indexed.test_for_specials(text, pos) is plain.test_for_specials(text, pos), (text, pos)


@pytest.mark.parametrize("text", TEXTS)
def test_the_table_walk_context_parses_to_the_same_nodes_as_a_plain_one(text: str) -> None:
    indexed = latex_context()
    plain = LatexContextDb()
    for category in indexed.category_list:
        specs = indexed.d[category]
        plain.add_context_category(
            category,
            macros=list(specs["macros"].values()),
            environments=list(specs["environments"].values()),
            specials=list(specs["specials"].values()),
        )
    plain.set_unknown_macro_spec(indexed.unknown_macro_spec)
    plain.set_unknown_environment_spec(indexed.unknown_environment_spec)
    plain.set_unknown_specials_spec(indexed.unknown_specials_spec)
    assert isinstance(indexed, IndexedContextDb)

    def parsed(context: LatexContextDb) -> str:
        nodes, _, _ = LatexWalker(text, latex_context=context, tolerant_parsing=True).get_latex_nodes()
        return repr([(type(node).__name__, node.pos, node.len, node.latex_verbatim()) for node in nodes])

    assert parsed(indexed) == parsed(plain)


def test_a_category_added_later_is_found_and_a_longer_match_wins() -> None:
    indexed = IndexedContextDb()
    indexed.add_context_category("one", specials=[SpecialsSpec("-")])
    assert indexed.test_for_specials("--x", 0).specials_chars == "-"
    indexed.add_context_category("two", specials=[SpecialsSpec("--"), SpecialsSpec("-")])
    assert indexed.test_for_specials("--x", 0).specials_chars == "--"
    assert indexed.test_for_specials("-x", 0) is indexed.d["one"]["specials"]["-"]  # the first category's
    assert indexed.test_for_specials("x-", 0) is None
