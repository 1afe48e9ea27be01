r"""A cell's text as credencegraph renders prose: LaTeX as written, with the paper's own macros expanded,
comments and `\label` dropped, and the `\cite` keys collected.

credencegraph 0.4.1 has no public renderer, so this reuses its LaTeX reader as the prose is read
(`cgx_core.ingest.latex_reader`, with its corrections); tests/core/ingest/tables prove the rendering of
expanded macros, so a change in a 0.4.x release is caught. Two differences from prose, both on purpose: a
`\footnote` stays in the cell as written (the table's own footnote is part of what the cell says, and no
footnote chunk is made for it), and expansion is
bounded per paper by `MAX_TABLE_EXPANSIONS` expansions and `MAX_TABLE_RENDERED_CHARS` characters (a macro
that doubles at each level would otherwise cost time exponential in its depth); past either bound the
remaining macros stay as written. The budgets count operations, never time, so the same paper always renders
the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from credencegraph.rubric.text import normalise_text

from cgx_core.base.limits import MAX_TABLE_EXPANSIONS, MAX_TABLE_RENDERED_CHARS
from cgx_core.ingest.latex_reader import PaperReader
from cgx_core.ingest.tables.source import Span

_NESTED = frozenset({"tabular", "tabular*", "tabularx", "tabulary"})


class CellRenderer(PaperReader):
    """Renders table cells with a paper's macro definitions; it never reads a file."""

    def __init__(self, definitions: Mapping[str, Any]) -> None:
        super().__init__(PurePosixPath("."))
        from cgx_core.ingest.tables.paper import add_table_specs

        self.definitions = dict(definitions)
        add_table_specs(self.context)
        self.install_definitions()
        self.expansions = 0
        self.produced = 0

    def render(self, node: Any, cites: list[str], labels: list[str], depth: int = 0) -> str:
        """A tabular nested in a cell (a multi-line label, as makecell writes one) reads as its text."""
        if type(node).__name__ == "LatexEnvironmentNode" and node.environmentname in _NESTED:
            return " ".join(self._flat(node.nodelist, cites, labels, depth))
        return str(super().render(node, cites, labels, depth))

    def _flat(self, nodes: list[Any], cites: list[str], labels: list[str], depth: int) -> list[str]:
        words = []
        for inner in nodes or ():
            if inner is None:
                continue
            if getattr(inner, "macroname", None) in (
                "\\",
                "tabularnewline",
                "hline",
                "toprule",
                "midrule",
                "bottomrule",
            ) or (type(inner).__name__ == "LatexSpecialsNode" and inner.specials_chars == "&"):
                words.append(" ")
            else:
                words.append(self.render(inner, cites, labels, depth))
        return ["".join(words).strip()]

    def render_macro(self, node: Any, cites: list[str], labels: list[str], depth: int) -> str:
        if node.macroname == "footnote" and node.nodeargd is not None:
            return str(self.render_arguments(node, cites, labels, depth))
        return str(super().render_macro(node, cites, labels, depth))

    def expand(self, node: Any, cites: list[str], labels: list[str], depth: int) -> str:
        self.expansions += 1
        if self.expansions > MAX_TABLE_EXPANSIONS or self.produced > MAX_TABLE_RENDERED_CHARS:
            return str(node.latex_verbatim())
        text = str(super().expand(node, cites, labels, depth))
        self.produced += len(text)
        return text

    def render_cell(self, spans: Sequence[Span]) -> tuple[str, list[str]]:
        """A cell's rendered, normalised text and the keys it cites.

        The table reader parsed the file without knowing the paper's macros' arguments, which is enough
        unless the cell uses one of them: then its source is parsed again with them (as credencegraph
        parses prose), so `\\best{7}` expands with its argument."""
        if any(self._uses_definitions(span.node) for span in spans):
            parts = [self.render_text(source) for source in _sources(spans)]
            return " ".join(text for text, _ in parts if text), [key for _, keys in parts for key in keys]
        cites: list[str] = []
        pieces = [span.text if span.node is None else self.render(span.node, cites, []) for span in spans]
        return normalise_text("".join(pieces)), cites

    def _uses_definitions(self, node: Any) -> bool:
        if node is None or not self.definitions:
            return False
        from credencegraph.ingest.latex import _walk

        return any(getattr(inner, "macroname", None) in self.definitions for inner in _walk([node]))

    def render_text(self, source: str) -> tuple[str, list[str]]:
        """The rendered, normalised text of a piece of LaTeX, and the keys it cites in order."""
        from pylatexenc.latexwalker import LatexWalker

        walker = LatexWalker(source, latex_context=self.context, tolerant_parsing=True)
        nodes, _, _ = walker.get_latex_nodes()
        self.walker = walker
        cites: list[str] = []
        text = self.render_nodes(nodes, cites, [])
        return normalise_text(text), cites


def _sources(spans: Sequence[Span]) -> Iterator[str]:
    """The source text of a cell's spans, one slice per run of spans from one file."""
    run: list[Span] = []
    for span in spans:
        if run and span.source is not run[-1].source:
            yield run[0].source.raw[run[0].start : run[-1].end]
            run = []
        run.append(span)
    if run:
        yield run[0].source.raw[run[0].start : run[-1].end]
