r"""A paper's own macros that open or close an environment, expanded before any reader sees the text.

credencegraph 0.4.1's reader (pylatexenc under it) reads `\def\beqn{\begin{eqnarray}}` in a preamble as an
`eqnarray` that begins there and runs to the next `\end{eqnarray}`: the `document` environment is never found
and a whole paper becomes one or two chunks (docs/credencegraph-upstream.md has the minimal case). hep-th
papers define their displays that way (`\beq ... \eeq`, `\bea ... \eea`), with `\def`, `\newcommand` or
`\newenvironment`. So before the paper is read, each definition whose body opens or closes an environment
without closing or opening it again (`\def`, `\newcommand`, `\renewcommand`, `\providecommand`, with or without
`#1` parameters given in braces; `\newenvironment` whose begin or end code does so) is blanked out, and every
use is replaced by its body, as TeX expands it. Lines never move: a removed definition becomes spaces, a
replacement's line breaks become spaces and the lines it replaced are kept as empty lines, so every locator,
numbered line and table line stays where the paper has it. Every reader (credencegraph's, the numbering's,
the tables') reads the text so prepared; a paper without such a macro is read byte for byte as it is.

A definition this module cannot expand (an optional argument with a default) is named in `Expansion.skipped`,
so that a refusal for a paper read short can say why (cgx_core.ingest.accounting).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import attrs

_DEFINITION: Final = re.compile(
    r"\\(?:[egx]?def\s*\\(?P<def>[A-Za-z@]+)\s*(?P<parameters>(?:#\d\s*)*)(?=\{)"
    r"|(?:(?:re)?newcommand|providecommand|DeclareRobustCommand)\*?\s*"
    r"(?:\{\s*\\(?P<braced>[A-Za-z@]+)\s*\}|\\(?P<bare>[A-Za-z@]+))"
    r"|(?:re)?newenvironment\*?\s*\{\s*(?P<environment>[^{}\s]+)\s*\})"
)
_COUNT: Final = re.compile(r"\s*\[\s*(\d)\s*\]")
_DEFAULT: Final = re.compile(r"\s*\[")
_ENVIRONMENT: Final = re.compile(r"\\(begin|end)\s*\{\s*([^{}\s]+)\s*\}")
_PARAMETER: Final = re.compile(r"#(\d)")
_COMMENT: Final = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")
_PAPER_SUFFIXES: Final = (".tex", ".ltx", ".latex")
"""The paper's own files: a class or package (`.cls`, `.sty`) defines its macros for TeX's full expansion,
and a `.bbl` is read apart; neither is rewritten, nor are its definitions taken."""
_MAX_DEPTH: Final = 8
"""How deep one such macro may use another (`\\def\\bea{\\beqn}`); deeper uses stay as written."""


@attrs.frozen
class Macro:
    """A macro (or an environment, `environment` true) whose body opens or closes an environment."""

    name: str
    parameters: int
    body: str
    end: str = ""
    """An environment's end code."""
    environment: bool = False


@attrs.frozen
class Expansion:
    """The paper's texts as every reader reads them, and what was expanded or could not be."""

    texts: Mapping[str, str]
    expanded: tuple[str, ...] = ()
    """The macros expanded (`\\beqn`, `{beq}` for an environment), in the order they are defined."""
    skipped: tuple[str, ...] = ()
    """Definitions that open or close an environment but take an optional argument: left as written."""


def expand_environment_macros(texts: Mapping[str, str]) -> Expansion:
    """The texts (by file name, in reading order) with every paper macro that opens or closes an environment
    expanded where it is used and its definition blanked (lines kept); the same texts when there is none."""
    if not any("\\begin" in text or "\\end" in text for text in texts.values()):
        return Expansion(texts)
    macros: dict[str, Macro] = {}
    environments: dict[str, Macro] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    skipped: list[str] = []
    paper = {name for name in texts if name.endswith(_PAPER_SUFFIXES)} | set(list(texts)[:1])  # the main file too
    for name, text in texts.items():
        if name not in paper:
            continue
        uncommented = _COMMENT.sub(lambda match: match[1] + " " * (len(match[0]) - len(match[1])), text)
        for match in _DEFINITION.finditer(uncommented):
            found = _definition(uncommented, match)
            if found is None:
                continue
            macro, end, optional = found
            label = f"{{{macro.name}}}" if macro.environment else f"\\{macro.name}"
            if optional:
                skipped.append(f"{label} ({name})")
                continue
            (environments if macro.environment else macros)[macro.name] = macro
            spans.setdefault(name, []).append((match.start(), end))
    if not macros and not environments:
        return Expansion(texts, skipped=tuple(skipped))
    uses = _uses_pattern(macros, environments)
    prepared = {
        name: _expand(_blanked(text, spans.get(name, [])), uses, macros, environments, 0) if name in paper else text
        for name, text in texts.items()
    }
    expanded = [f"\\{name}" for name in macros] + [f"{{{name}}}" for name in environments]
    return Expansion(prepared, tuple(expanded), tuple(skipped))


def _definition(text: str, match: re.Match[str]) -> tuple[Macro, int, bool] | None:
    """The macro a definition defines, where the definition ends, and whether it takes an optional
    argument; None when its body opens and closes environments in balance (pylatexenc reads it well)."""
    position = match.end()
    optional = False
    if match["def"] is not None:
        parameters = len(_PARAMETER.findall(match["parameters"]))
    else:
        count = _COUNT.match(text, position)
        parameters = int(count[1]) if count is not None else 0
        position = count.end() if count is not None else position
        default = _DEFAULT.match(text, position)
        if default is not None and parameters:
            optional = True
            closing = text.find("]", default.end())
            position = closing + 1 if closing >= 0 else position
    body = group(text, position)
    if body is None:
        return None
    if match["environment"] is not None:
        end = group(text, body[1])
        if end is None or (_balanced(body[0]) and _balanced(end[0])):
            return None
        return Macro(match["environment"], parameters, body[0], end[0], environment=True), end[1], optional
    if _balanced(body[0]):
        return None
    name = match["def"] or match["braced"] or match["bare"]
    return Macro(name, parameters, body[0]), body[1], optional


def group(text: str, position: int) -> tuple[str, int] | None:
    """The `{...}` group starting at `position` (after spaces): its content and the position after it."""
    index = position
    while index < len(text) and text[index] in " \t\n":
        index += 1
    if index >= len(text) or text[index] != "{":
        return None
    depth = 0
    cursor = index
    while cursor < len(text):
        char = text[cursor]
        if char == "\\":
            cursor += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[index + 1 : cursor], cursor + 1
        cursor += 1
    return None


def _balanced(body: str) -> bool:
    """Whether a body closes every environment it opens, and opens every one it closes."""
    opened: list[str] = []
    for match in _ENVIRONMENT.finditer(body):
        if match[1] == "begin":
            opened.append(match[2])
        elif not opened or opened.pop() != match[2]:
            return False
    return not opened


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with each span replaced by spaces, its line breaks kept."""
    if not spans:
        return text
    pieces: list[str] = []
    cursor = 0
    for start, end in spans:
        pieces += [text[cursor:start], re.sub(r"[^\n]", " ", text[start:end])]
        cursor = end
    return "".join([*pieces, text[cursor:]])


def _uses_pattern(macros: Mapping[str, Macro], environments: Mapping[str, Macro]) -> re.Pattern[str]:
    alternatives = []
    if macros:
        names = "|".join(re.escape(name) for name in sorted(macros, key=len, reverse=True))
        alternatives.append(rf"\\(?P<macro>{names})(?![A-Za-z@])")
    if environments:
        names = "|".join(re.escape(name) for name in sorted(environments, key=len, reverse=True))
        alternatives.append(rf"\\(?P<side>begin|end)\s*\{{\s*(?P<environment>{names})\s*\}}")
    return re.compile("|".join(alternatives))


def _expand(
    text: str,
    uses: re.Pattern[str],
    macros: Mapping[str, Macro],
    environments: Mapping[str, Macro],
    depth: int,
) -> str:
    """Every use in `text` replaced by its body (arguments substituted), lines kept."""
    pieces: list[str] = []
    cursor = 0
    for match in uses.finditer(text):
        if match.start() < cursor:
            continue
        named = match.groupdict()
        if named.get("macro") is not None:
            macro, body = macros[match["macro"]], macros[match["macro"]].body
        else:
            macro = environments[named["environment"]]
            body = macro.body if named["side"] == "begin" else macro.end
        end, arguments = match.end(), []
        if macro.parameters and (not macro.environment or named["side"] == "begin"):
            for _ in range(macro.parameters):
                argument = group(text, end)
                if argument is None:
                    break
                arguments.append(argument[0])
                end = argument[1]
            if len(arguments) < macro.parameters:
                continue  # not used as defined: left as written
        replaced = text[match.start() : end]
        expanded = _substituted(body, arguments)
        if depth < _MAX_DEPTH:
            expanded = _expand(expanded, uses, macros, environments, depth + 1)
        expanded = expanded.replace("\n", " ")
        if named.get("macro") is not None and not arguments and text[end : end + 1].isalpha():
            expanded += " "  # TeX ends a control word at the letter after it; the body may end in a letter
        pieces += [text[cursor : match.start()], expanded, "\n" * replaced.count("\n")]
        cursor = end
    return "".join([*pieces, text[cursor:]])


def _substituted(body: str, arguments: list[str]) -> str:
    """The body with each `#n` replaced by the n-th argument (one with no argument is left as written)."""

    def argument(found: re.Match[str]) -> str:
        number = int(found[1])
        return arguments[number - 1] if 0 < number <= len(arguments) else found[0]

    return _PARAMETER.sub(argument, body)
