r"""credencegraph's LaTeX reader as this package drives it: one subclass of its `_Reader` for the paper's
prose (`documents`) and for table cells (`tables.render`), so each correction is written once.

credencegraph 0.4.1 has no public renderer nor a way to give its reader a text (`read_latex` takes a path), so
this subclasses its private `_Reader`, pinned with the 0.4 series; the tests of ingestion hold every
correction, so a change in a 0.4.x release is caught. The corrections:

- the text of each file is the one every reader of this package reads (`paper_macros`), given by the
  caller, not opened again (a file the caller does not give is opened as credencegraph opens it, under the
  read watch);
- a macro expanded keeps a control word apart from what follows it: `\newcommand{\D}[1][]{\partial#1}` then
  `$\D r$` or `$\D[t]$` reads `\partial r`, `\partial t`, not `\partialr`, another control word
  (credencegraph substitutes `#1` as text and drops the space after any macro that has arguments);
- revtex's `\onlinecite{key}` cites like `\cite`;
- front matter is no prose: revtex's and AASTeX's `\affiliation`, `\email`, ... made one junk sentence of
  every address of the paper ("\email{..} \affiliation{..} \affiliation{..}"), and a `\footnote` or
  `\thanks` in the title, the authors or an affiliation (a grant acknowledged) was lost with `\title` and
  `\author`. Each such note is now one footnote chunk, and the rest of the front matter is in no chunk.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any, Final

from credencegraph.ingest.latex import _CITES, _Reader, _walk

_EXTRA_CITES: Final = frozenset({"onlinecite", "citenum", "citealp*", "citeyearpar"})
_FRONT_MATTER: Final = {
    "affiliation": "[{",
    "altaffiliation": "[{",
    "address": "[{",
    "email": "[{",
    "homepage": "[{",
    "collaboration": "{",
}
"""revtex's and AASTeX's front matter beside `\\title`, `\\author` and `\\thanks` (credencegraph's own)."""
_NOTES: Final = frozenset({"footnote", "thanks"})
_GLUED_PARAMETER: Final = re.compile(r"(\\[A-Za-z@]+)#")
_ENDS_IN_CONTROL_WORD: Final = re.compile(r"\\[A-Za-z@]+$")


class PaperReader(_Reader):  # type: ignore[misc]
    """credencegraph's reader with the corrections above; `text_of` gives a file's text by its path (None: open
    it as credencegraph does)."""

    def __init__(self, main: Path | PurePosixPath, text_of: Callable[[Path], str | None] | None = None) -> None:
        super().__init__(main)
        from pylatexenc.macrospec import MacroSpec

        self.text_of = text_of
        # prepended before the paper's own definitions are: a paper that defines \onlinecite itself wins
        cites = [MacroSpec(name, "*[[{") for name in sorted(_EXTRA_CITES)]
        front = [MacroSpec(name, spec) for name, spec in _FRONT_MATTER.items()]
        self.context.add_context_category("cgx-reader", macros=[*cites, *front], prepend=True)

    def text(self, path: Path) -> str:
        if path not in self.texts:
            given = self.text_of(path) if self.text_of is not None else None
            # read_text's universal newlines, as credencegraph reads a file itself
            self.texts[path] = super().text(path) if given is None else given.replace("\r\n", "\n").replace("\r", "\n")
        return str(self.texts[path])

    def install_definitions(self) -> None:
        """A control word written against a parameter (`\\partial#1`) is kept apart from the argument that
        replaces it (TeX reads them as two tokens; glued as text they are one other control word)."""
        from dataclasses import replace

        definitions: dict[str, Any] = getattr(self, "definitions")  # noqa: B009 (an untyped base's attribute)
        self.definitions = {
            name: replace(definition, body=_GLUED_PARAMETER.sub(r"\1 #", definition.body))
            for name, definition in definitions.items()
        }
        super().install_definitions()

    def render_macro(self, node: Any, cites: list[str], labels: list[str], depth: int) -> str:
        if node.macroname in _EXTRA_CITES and node.macroname not in self.definitions and node.nodeargd is not None:
            argument = node.nodeargd.argnlist[-1]
            keys = "".join(child.latex_verbatim() for child in getattr(argument, "nodelist", None) or [])
            cites.extend(key.strip() for key in keys.split(",") if key.strip() and key.strip() not in cites)
            return str(self.render_arguments(node, cites, labels, depth))
        return str(super().render_macro(node, cites, labels, depth))

    def macro(self, node: Any) -> int:
        """Front matter (`\\title`, `\\author`, `\\affiliation`, ...) gives one footnote chunk per note it holds
        and no prose; any other macro is read as credencegraph reads it."""
        name = node.macroname
        if name in self.definitions or (name not in _FRONT_MATTER and name not in ("title", "author", "thanks")):
            return int(super().macro(node))
        self.end_sentence()
        arguments = node.nodeargd.argnlist if node.nodeargd is not None else []
        notes = [node] if name == "thanks" else []
        notes += [inner for inner in _walk(arguments) if getattr(inner, "macroname", None) in _NOTES]
        for note in notes:
            self.footnote(note)
        self.end_sentence()
        return 0

    def expand(self, node: Any, cites: list[str], labels: list[str], depth: int) -> str:
        text = str(super().expand(node, cites, labels, depth))
        given = [argument for argument in (node.nodeargd.argnlist if node.nodeargd is not None else ()) if argument]
        left_out = node.nodeargd is not None and node.nodeargd.argnlist and not given
        if left_out and node.macro_post_space and _ENDS_IN_CONTROL_WORD.search(text):
            text += node.macro_post_space
        return text

    def chunks_of_main(self) -> list[Any]:
        """`read_latex`'s steps: the definitions of every file, then the main file's body."""
        self.collect_definitions(self.main)
        self.install_definitions()
        self.read_file(self.main, body_only=True)
        return list(self.chunks)


assert _CITES.isdisjoint(_EXTRA_CITES)  # credencegraph cites these itself from some release on: drop them here
