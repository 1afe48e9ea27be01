r"""Files a document class or package loads itself, and the front matter they define, as chunks.

A ReScience article's abstract, title, keywords and dates are in `metadata.tex`, which the article never
inputs: its class does (`rescience.cls` has `\input{metadata.tex}`), and prints the definitions in its title
block. credencegraph reads only what the document inputs, so those words were in no chunk. Ingestion now
finds the classes and packages the main file loads (`\documentclass{x}`, `\usepackage{a,b}`), and for each
one whose `.cls` or `.sty` lies in the paper's folder it reads the files that file `\input`s (resolved from
the main file's folder, as LaTeX does, and only within the paper's root). A class that is not in the folder
(installed with TeX) is known by `KNOWN_INPUTS`: what its published source inputs.

credencegraph would read such a file's definitions as no text, so each definition whose body is prose
(`\def\articleABSTRACT{...}`, `\newcommand{\dateRECEIVED}{07 February 2020}`: three words or more, one of
them with letters) becomes sentence chunks, split as credencegraph splits sentences, the first written after
its macro's name (`\dateRECEIVED: 07 February 2020`), so an agent reads what the text is. They come first,
where the class prints them. A file a class names that does not exist or lies outside the root is not read,
and start_run lists it in `document.not_followed`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from cgx_core.ingest.latex_text import definitions

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

KNOWN_INPUTS: Final = {"rescience": ("metadata.tex",)}
"""Classes whose published source inputs a file of the paper's folder: ReScience C's template class
(github.com/rescience/template, `rescience.cls`) inputs `metadata.tex`."""

_LOADS = re.compile(
    r"\\(?P<macro>documentclass|usepackage|RequirePackage|LoadClass)\s*(?:\[[^\]]*\]\s*)?\{(?P<names>[^{}]*)\}"
)
_INPUT = re.compile(r"\\(?:input|include)\s*\{(?P<name>[^{}]+)\}")
_SENTENCE_END = re.compile(r"[.?!](?=\s)")
_MIN_WORDS = 3


def loaded_classes(main_text: str) -> list[tuple[str, str]]:
    """(name, extension) of each class and package the text loads, in order: `("rescience", ".cls")`."""
    found: list[tuple[str, str]] = []
    for match in _LOADS.finditer(main_text):
        extension = ".cls" if match["macro"] in ("documentclass", "LoadClass") else ".sty"
        found.extend((name.strip(), extension) for name in match["names"].split(",") if name.strip())
    return found


def inputs_of(class_text: str) -> list[str]:
    """The files a class or package's text inputs, as it names them."""
    return [match["name"].strip() for match in _INPUT.finditer(class_text)]


def front_matter(name: str, text: str) -> list[Chunk]:
    """The chunks of the prose definitions of a file a class loads (see the module docstring)."""
    from credencegraph.ingest import Chunk
    from credencegraph.rubric.text import normalise_text

    chunks: list[Chunk] = []
    for definition in definitions(text):
        if definition.parameters or definition.environment or definition.optional or definition.delimited:
            continue
        prose = normalise_text(definition.body)
        words = prose.split()
        if len(words) < _MIN_WORDS or not any(char.isalpha() for char in prose):
            continue
        first = text.count("\n", 0, definition.start) + 1
        locator = f"file={name};lines={first}-{first + text.count(chr(10), definition.start, definition.end)}"
        macro = definition.label
        for index, sentence in enumerate(_sentences(prose)):
            chunks.append(Chunk("sentence", f"{macro}: {sentence}" if index == 0 else sentence, locator))
    return chunks


def _sentences(text: str) -> list[str]:
    """The sentences of a prose text, split where credencegraph's reader would end one."""
    from credencegraph.ingest.chunks import ends_sentence

    found: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        after = text[match.end() :].lstrip()
        if ends_sentence(text[start : match.start()], after, latex=True):
            found.append(text[start : match.end()].strip())
            start = match.end()
    rest = text[start:].strip()
    if rest:
        found.append(rest)
    return found
