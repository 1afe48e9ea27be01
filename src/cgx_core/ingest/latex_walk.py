r"""The one walk over a LaTeX paper's text: its files in reading order, token by token, with visitors.

What start_run reads of a paper beside credencegraph's chunks (the numbering, the tables) is read in one pass:
the walk follows `\input`, `\include`, `\import` and kin where they stand and skips what is no content (the body
of a `\def`, `\newcommand` or `\newenvironment`, `verbatim` and `comment`), all by the rules of `latex_text`,
and tells each visitor what it meets: an environment beginning or ending, a macro, a row break `\\`, a file.
A visitor keeps its own state (`numbering.visitor`, `tables.paper`); none resolves a file or parses a definition.

It scans tokens, not a parse tree: what numbers things and what holds a table is a short list of macros and
environments, and a scan keeps every line where it is, which is how what the visitors find is matched with
credencegraph's chunks (by their locators' lines). It reads only the files ingestion already read (by name).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Final, Self

import attrs

from cgx_core.ingest.latex_text import (
    IMPORTS,
    INPUTS,
    Braces,
    Definition,
    PaperFiles,
    definitions,
    uncommented,
    visible,
)

_TOKEN: Final = re.compile(
    r"\\(?P<env>begin|end)\s*\{(?P<name>[^{}]*)\}|\\(?P<macro>[A-Za-z@]+)(?P<star>\*?)|(?P<rows>\\\\)"
    r"|(?P<math>\$\$?|\\[()\[\]])|\\.|[{}]|(?P<par>\n[ \t]*\n)"
)
_OPAQUE: Final = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "comment"})
"""Environments whose text is no LaTeX: skipped whole."""
_DEFINING: Final = frozenset(
    {"newcommand", "renewcommand", "providecommand", "DeclareRobustCommand", "def", "edef", "gdef", "xdef"}
    | {"newenvironment", "renewenvironment"}
)
_DOCUMENT: Final = re.compile(r"\\begin\s*\{document\}")
_MAX_DEPTH: Final = 32
"""How deep `\\input` may nest (a cycle is never followed)."""

Key = tuple[int, ...]
"""Where something is in reading order: the lines of the `\\input`s that lead to its file, then its line."""


@attrs.define(eq=False)
class Text:
    """One file as the walk reads it: its name, the name a locator gives it, its text with comments blanked
    (`raw`: as written; positions are the same in both), where its lines start, its brace groups and the
    definitions it writes by where they start."""

    name: str
    located: str
    text: str
    raw: str
    starts: list[int]
    braces: Braces
    definitions: dict[int, Definition]

    @classmethod
    def of(cls, name: str, located: str, raw: str) -> Self:
        text = uncommented(raw)
        starts = [0] + [match.end() for match in re.finditer("\n", text)]
        return cls(name, located, text, raw, starts, Braces(text), {item.start: item for item in definitions(text)})

    def line(self, position: int) -> int:
        return bisect.bisect_right(self.starts, position)

    def group(self, position: int) -> tuple[str, int] | None:
        return self.braces.group(position)

    def lines(self, start: int, end: int) -> tuple[int, int]:
        """The first and last line of `text[start:end]`, from its first to its last visible character."""
        first, last = visible(self.raw, start, end)
        return self.line(first), self.line(last)

    def locator(self, start: int, end: int) -> str:
        """The locator of `text[start:end]`, as credencegraph writes a chunk's."""
        first, last = self.lines(start, end)
        return f"file={self.located};lines={first}-{last}"


@attrs.frozen
class At:
    """What the walk met: a macro's or an environment's name, whether starred, where (the token's start and the
    position after it), how its file was reached, and the walk's state there."""

    name: str
    starred: bool
    source: Text
    start: int
    position: int
    chain: Key
    import_dir: str | None
    braces: int
    """Open `{` groups, across files."""
    in_body: bool
    """Inside the main file's `document` environment (or a file read from it)."""
    math: bool
    """Inside `$...$`, `$$...$$`, `\\(...\\)` or `\\[...\\]`."""
    reading: tuple[str, ...]
    """The files being read, the main one first."""

    @property
    def key(self) -> Key:
        return (*self.chain, self.source.line(self.start))


class Visitor:
    """What a visitor is told, each left unheeded unless a visitor overrides it. A position returned is where the
    walk goes on (`at.position` to skip nothing); the walk goes on from the furthest any visitor returns."""

    def file(self, source: Text, chain: Key, in_body: bool) -> None:
        return None

    def begin(self, at: At) -> int:
        return at.position

    def end(self, at: At) -> None:
        return None

    def row_break(self, at: At) -> None:
        return None

    def macro(self, at: At) -> int:
        return at.position

    def define(self, definition: Definition, at: At) -> None:
        return None


class LatexWalk:
    """One pass over a paper's files (`PaperFiles`), telling every visitor, in order, what it meets."""

    def __init__(self, files: PaperFiles, visitors: Sequence[Visitor]) -> None:
        self.files = files
        self.visitors = visitors
        self.reading: list[str] = []
        self.braces = 0
        self.math: str | None = None
        self.in_body = False

    def run(self) -> None:
        main = self.files.files[self.files.main]
        self.in_body = _DOCUMENT.search(uncommented(main)) is None  # no document environment: all of it is body
        self.read(self.files.main, (), None)

    def read(self, name: str, chain: Key, import_dir: str | None) -> None:
        if name in self.reading or len(self.reading) > _MAX_DEPTH:
            return
        source = Text.of(name, self.files.located(name), self.files.files[name])
        for visitor in self.visitors:
            visitor.file(source, chain, self.in_body)
        self.reading.append(name)
        self.scan(source, chain, import_dir)
        self.reading.pop()

    def scan(self, source: Text, chain: Key, import_dir: str | None) -> None:
        text = source.text
        position = 0
        while (match := _TOKEN.search(text, position)) is not None:
            position = match.end()
            token = match[0]
            if token in "{}":
                self.braces += 1 if token == "{" else -1
            elif match["math"]:
                self.toggle_math(token)
            elif match["par"]:
                self.math = None  # TeX ends maths left open at a paragraph's end (with an error)
            elif match["rows"]:
                self.tell("row_break", self.at("\\\\", False, source, match, chain, import_dir))
            elif match["env"]:
                position = self.environment(match, source, chain, import_dir)
            elif match["macro"]:
                position = self.macro(self.at(match["macro"], bool(match["star"]), source, match, chain, import_dir))

    def at(self, name: str, starred: bool, source: Text, match: re.Match[str], chain: Key, directory: str | None) -> At:
        return At(
            name,
            starred,
            source,
            match.start(),
            match.end(),
            chain,
            directory,
            self.braces,
            self.in_body,
            self.math is not None,
            tuple(self.reading),
        )

    def tell(self, what: str, at: At) -> int:
        """Tell every visitor; the furthest position any returns."""
        returned = [getattr(visitor, what)(at) for visitor in self.visitors]
        return max([at.position, *(value for value in returned if isinstance(value, int))])

    def toggle_math(self, token: str) -> None:
        closing = {"\\(": "\\)", "\\[": "\\]", "$": "$", "$$": "$$"}
        if self.math is None and token in closing:
            self.math = closing[token]
        elif self.math == token:
            self.math = None

    def environment(self, match: re.Match[str], source: Text, chain: Key, import_dir: str | None) -> int:
        name = match["name"].strip()
        at = self.at(name, False, source, match, chain, import_dir)
        if match["env"] == "end":
            self.tell("end", at)
            if name == "document" and len(self.reading) == 1:
                self.in_body = False
            return at.position
        if name in _OPAQUE:
            end = source.text.find(f"\\end{{{name}}}", at.position)
            return len(source.text) if end < 0 else end + len(f"\\end{{{name}}}")
        if name == "document" and len(self.reading) == 1:
            self.in_body = True
            at = attrs.evolve(at, in_body=True)
        return self.tell("begin", at)

    def macro(self, at: At) -> int:
        definition = at.source.definitions.get(at.start)
        if definition is not None and at.name in _DEFINING:
            for visitor in self.visitors:
                visitor.define(definition, at)
            return max(at.position, definition.end)
        if at.name in INPUTS:
            return self.input(at)
        if at.name in IMPORTS:
            return self.import_file(at)
        return self.tell("macro", at)

    def input(self, at: At) -> int:
        argument = at.source.group(at.position)
        if argument is None:
            return at.position
        target = self.files.input_target(argument[0], at.import_dir)
        if target is not None:
            self.read(target, at.key, at.import_dir)
        return argument[1]

    def import_file(self, at: At) -> int:
        directory = at.source.group(at.position)
        file = at.source.group(directory[1]) if directory is not None else None
        if directory is None or file is None:
            return at.position
        target, folder = self.files.import_target(at.name, directory[0], file[0], at.source.name)
        if target is not None:
            self.read(target, at.key, folder)
        return file[1]
