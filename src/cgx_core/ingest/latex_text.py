r"""The rules every reader of a LaTeX paper's text shares, written once: comments, brace groups, which file an
`\input` or `\import` names, and what a `\def`, `\newcommand` or `\newenvironment` defines.

The paper's files are read once (`documents`), prepared once (`paper_macros`), then walked once (`latex_walk`,
with the numbering's and the tables' visitors). Each of them used to carry its own copy of these rules, and
copies drift; a change to how a file name resolves or where a definition ends is made here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import Final

import attrs

_COMMENT: Final = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")
_BRACE: Final = re.compile(r"\\.|[{}]", re.DOTALL)
_SPACE: Final = " \t\n"
_MAX_OPTIONAL: Final = 100_000
"""The most characters a `[...]` argument may span: an unclosed bracket costs no more than this."""

INPUTS: Final = frozenset({"input", "include"})
IMPORTS: Final = frozenset({"import", "subimport", "inputfrom", "subinputfrom", "includefrom", "subincludefrom"})
"""The import package's macros: `\\import{dir}{file}` names `dir/file` from the main file's folder, the `sub`
forms from the importing file's folder."""

_DEFINITION: Final = re.compile(
    r"\\(?:[egx]?def\s*\\(?P<def>[A-Za-z@]+)(?P<parameters>[^{}]*?)(?=\{)"
    r"|(?:(?:re)?newcommand|providecommand|DeclareRobustCommand)\*?\s*"
    r"(?:\{\s*\\(?P<braced>[A-Za-z@]+)\s*\}|\\(?P<bare>[A-Za-z@]+))"
    r"|(?:re)?newenvironment\*?\s*\{\s*(?P<environment>[^{}\s]+)\s*\})"
)
_COUNT: Final = re.compile(r"\s*\[\s*(\d)\s*\]")
_DEFAULT: Final = re.compile(r"\s*\[")
_PARAMETER: Final = re.compile(r"#(\d)")
_LOCATOR: Final = re.compile(r"^file=(?P<file>.*);lines=(?P<first>\d+)-(?P<last>\d+)$")


def file_lines(locator: str) -> tuple[str, int, int] | None:
    """The file, first and last line a LaTeX chunk's locator names (`file=x.tex;lines=3-5`), or None for any
    other locator (a PDF's)."""
    match = _LOCATOR.match(locator)
    return None if match is None else (match["file"], int(match["first"]), int(match["last"]))


def uncommented(text: str) -> str:
    """The text with every comment blanked (newlines kept, so positions and lines stay where they were); `\\%` is
    a percent sign, `\\\\%` a line break then a comment."""
    return _COMMENT.sub(lambda match: match[1] + " " * (len(match[0]) - len(match[1])), text)


class Braces:
    """A text's brace groups: where each `{` closes (an escaped `\\{` is no brace), found once in one pass, so
    reading an argument costs nothing however many are left unclosed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._closing: dict[int, int] | None = None

    def closing(self) -> dict[int, int]:
        if self._closing is None:
            self._closing = {}
            opened: list[int] = []
            for match in _BRACE.finditer(self.text):
                if match[0] == "{":
                    opened.append(match.start())
                elif match[0] == "}" and opened:
                    self._closing[opened.pop()] = match.start()
        return self._closing

    def group(self, position: int) -> tuple[str, int] | None:
        """The `{...}` argument starting at `position` (after spaces): its content and the position after it."""
        index = skip_space(self.text, position)
        end = self.closing().get(index)
        return None if end is None else (self.text[index + 1 : end], end + 1)


def visible(text: str, start: int, end: int) -> tuple[int, int]:
    """`text[start:end]` from its first to its last visible character: credencegraph's rule for a chunk's
    locator, which every locator we write follows too."""
    while end > start + 1 and text[end - 1].isspace():
        end -= 1
    while start < end - 1 and text[start].isspace():
        start += 1
    return start, max(start, end - 1)


def skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in _SPACE:
        position += 1
    return position


def bracket_end(text: str, index: int) -> int:
    """Just after the `[...]` group that opens at `index` (brackets nested in it counted), or `index` when none
    opens there or it does not close."""
    if not text.startswith("[", index):
        return index
    depth = 0
    for position in range(index, min(len(text), index + _MAX_OPTIONAL)):
        depth += {"[": 1, "]": -1}.get(text[position], 0)
        if depth == 0:
            return position + 1
    return index


def optional(text: str, position: int) -> int:
    """The position after any `[...]` arguments (and spaces) at `position`."""
    while True:
        index = skip_space(text, position)
        end = bracket_end(text, index)
        if end == index:
            return position
        position = end


@attrs.frozen
class PaperFiles:
    """The files of a paper by name (relative to its root, as `Document.files` names them) and its main file: the
    one place an `\\input` or `\\import` argument becomes a file of the paper. A name not in the list is not read:
    no walk opens a path of its own."""

    files: Mapping[str, str]
    main: str

    @property
    def main_dir(self) -> str:
        return posixpath.dirname(self.main)

    def located(self, name: str) -> str:
        """The name credencegraph's locators give a file: relative to the main file's folder."""
        return posixpath.relpath(name, self.main_dir or ".")

    def resolve(self, argument: str, base: str | None = None) -> str | None:
        """The file an argument names relative to `base` (default: the main file's folder), as credencegraph
        resolves `\\input`: the name as written, then with `.tex`; never a `.bbl` or `.bib`."""
        written = argument.strip()
        if not written:
            return None
        directory = self.main_dir if base is None else base
        name = posixpath.normpath(posixpath.join(directory, written)) if directory else posixpath.normpath(written)
        for candidate in (name,) if name.endswith(".tex") else (name, name + ".tex"):
            if candidate in self.files and not candidate.endswith((".bbl", ".bib")):
                return candidate
        return None

    def input_target(self, argument: str, import_dir: str | None) -> str | None:
        """The file an `\\input` names: inside an imported file, relative to its import folder first."""
        return (self.resolve(argument, import_dir) if import_dir else None) or self.resolve(argument)

    def import_target(self, macro: str, directory: str, file: str, importing: str) -> tuple[str | None, str]:
        """The file an `\\import`-like macro names, and the folder it sets for the `\\input`s of that file."""
        here = posixpath.dirname(importing) if macro.startswith("sub") else self.main_dir
        written = directory.strip()
        folder = posixpath.normpath(posixpath.join(here, written)) if here or written else ""
        return self.resolve(file, folder), folder


@attrs.frozen
class Definition:
    r"""A macro (or, `environment` true, an environment) a paper defines, and where the definition stands."""

    name: str
    parameters: int
    body: str
    start: int
    end: int
    optional: bool = False
    """It takes an optional argument (a default for `#1`)."""
    delimited: bool = False
    """A `\\def` whose parameters are delimited (`\\def\\x#1.{...}`): its uses end where TeX finds the delimiter."""
    environment: bool = False
    end_code: str = ""
    """An environment's end code."""

    @property
    def label(self) -> str:
        return f"{{{self.name}}}" if self.environment else f"\\{self.name}"


def definitions(text: str) -> Iterator[Definition]:
    """Every `\\def` (`\\edef`, `\\gdef`, `\\xdef`), `\\newcommand` (`\\renewcommand`, `\\providecommand`,
    `\\DeclareRobustCommand`) and `\\newenvironment` of an uncommented text, in order, with its body given in
    braces; one written inside another's body is found too."""
    braces = Braces(text)
    for match in _DEFINITION.finditer(text):
        found = _definition(braces, match)
        if found is not None:
            yield found


def _definition(braces: Braces, match: re.Match[str]) -> Definition | None:
    text = braces.text
    position = match.end()
    optional_argument = False
    if match["def"] is not None:
        parameters = len(_PARAMETER.findall(match["parameters"]))
    else:
        count = _COUNT.match(text, position)
        parameters = int(count[1]) if count is not None else 0
        position = count.end() if count is not None else position
        default = _DEFAULT.match(text, position)
        if default is not None and parameters:
            optional_argument = True
            closing = text.find("]", default.end())
            position = closing + 1 if closing >= 0 else position
    body = braces.group(position)
    if body is None:
        return None
    if match["environment"] is not None:
        end = braces.group(body[1])
        if end is None:
            return None
        return Definition(
            match["environment"],
            parameters,
            body[0],
            match.start(),
            end[1],
            optional_argument,
            environment=True,
            end_code=end[0],
        )
    name = match["def"] or match["braced"] or match["bare"]
    delimited = match["def"] is not None and bool(_PARAMETER.sub("", match["parameters"]).strip())
    return Definition(name, parameters, body[0], match.start(), body[1], optional_argument, delimited=delimited)


def substituted(body: str, arguments: list[str]) -> str:
    """A body with each `#n` replaced by the n-th argument (one with no argument is left as written)."""

    def argument(found: re.Match[str]) -> str:
        number = int(found[1])
        return arguments[number - 1] if 0 < number <= len(arguments) else found[0]

    return _PARAMETER.sub(argument, body)
