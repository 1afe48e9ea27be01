r"""A paper's own macros that its readers would misread, expanded before any reader sees the text.

Two kinds (the rules for what a definition is are `latex_text`'s, shared by every reader):

* **Macros that open or close an environment.** credencegraph 0.4.1's reader (pylatexenc under it) reads
  `\def\beqn{\begin{eqnarray}}` in a preamble as an `eqnarray` that begins there and runs to the next
  `\end{eqnarray}`: the `document` environment is never found and a whole paper becomes one or two chunks
  (docs/credencegraph-upstream.md has the minimal case). hep-th papers define their displays that way (`\beq ...
  \eeq`, `\bea ... \eea`), with `\def`, `\newcommand` or `\newenvironment`. Each definition whose body opens or
  closes an environment without closing or opening it again is blanked out, and every use is replaced by its
  body, as TeX expands it.
* **Presentational macros**: a body that only places and styles its arguments, such as a unit
  (`\newcommand{\unit}[1]{\,\mathrm{#1}}`) or a wrapper a referee's changes are marked with
  (`\newcommand{\referee}[1]{#1}`, `{\color{blue}#1}`). credencegraph expands them as text, leaving
  `\ensuremath{{\,\mathrm{m}}}` in every chunk with a unit, and reads a wrapper's argument as one group, so an
  equation inside `\referee{...}` is no equation chunk and its label is known to no chunk. A use is replaced by
  its arguments with the spacing kept as a space (`1.5\unit{m}` reads `1.5 m`); the definition stays, for any
  use written otherwise.

Lines never move: a removed definition becomes spaces, an environment macro's replacement puts its line breaks
at the end, a presentational macro's arguments keep theirs, so every locator, numbered line and table line stays
where the paper has it. Every reader (credencegraph's, the numbering's, the tables') reads the text so prepared;
a paper without such a macro is read byte for byte as it is.

A definition this module cannot expand (an optional argument with a default) is named in `Expansion.skipped`,
so that a refusal for a paper read short can say why (cgx_core.ingest.accounting).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import attrs

from cgx_core.ingest.latex_text import Braces, Definition, definitions, substituted, uncommented

_ENVIRONMENT: Final = re.compile(r"\\(begin|end)\s*\{\s*([^{}\s]+)\s*\}")
_SPACING: Final = re.compile(r"\\[,;:! ]|\\(?:thinspace|enspace|quad|xspace)(?![A-Za-z@])|~")
_STYLE: Final = re.compile(
    r"\\(?:ensuremath|mathrm|textrm|text|mbox|rm|textup|textnormal|relax)(?![A-Za-z@])"
    r"|\\(?:textcolor|color)\s*\{[^{}]*\}|[{}]"
)
_ONLY_ARGUMENTS: Final = re.compile(r"(?:\s*#\d)+\s*")
_PAPER_SUFFIXES: Final = (".tex", ".ltx", ".latex")
"""The paper's own files: a class or package (`.cls`, `.sty`) defines its macros for TeX's full expansion,
and a `.bbl` is read apart; neither is rewritten, nor are its definitions taken."""
_MAX_DEPTH: Final = 8
"""How deep one such macro may use another (`\\def\\bea{\\beqn}`); deeper uses stay as written."""


@attrs.frozen
class Expansion:
    """The paper's texts as every reader reads them, and what was expanded or could not be."""

    texts: Mapping[str, str]
    expanded: tuple[str, ...] = ()
    """The environment macros expanded (`\\beqn`, `{beq}` for an environment), in the order they are defined."""
    skipped: tuple[str, ...] = ()
    """Definitions that open or close an environment but take an optional argument: left as written."""


@attrs.frozen
class _Macros:
    """What is expanded: environment macros by name, environments, presentational macros (with plain bodies)."""

    macros: Mapping[str, Definition]
    environments: Mapping[str, Definition]
    presentational: Mapping[str, Definition]
    uses: re.Pattern[str]


def expand_paper_macros(texts: Mapping[str, str]) -> Expansion:
    """The texts (by file name, in reading order) with every paper macro its readers would misread expanded where
    it is used (an environment macro's definition blanked; lines kept); the same texts when there is none."""
    paper = {name for name in texts if name.endswith(_PAPER_SUFFIXES)} | set(list(texts)[:1])  # the main file too
    macros: dict[str, Definition] = {}
    environments: dict[str, Definition] = {}
    presentational: dict[str, Definition] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    skipped: list[str] = []
    for name, text in texts.items():
        if name not in paper:
            continue
        for definition in definitions(uncommented(text)):
            if definition.delimited:
                continue
            if not _opens_or_closes(definition):
                plain = _plain(definition)
                if plain is not None:
                    presentational[definition.name] = attrs.evolve(definition, body=plain)
                continue
            if definition.optional:
                skipped.append(f"{definition.label} ({name})")
                continue
            (environments if definition.environment else macros)[definition.name] = definition
            presentational.pop(definition.name, None)
            spans.setdefault(name, []).append((definition.start, definition.end))
    if not macros and not environments and not presentational:
        return Expansion(texts, skipped=tuple(skipped))
    found = _Macros(macros, environments, presentational, _uses_pattern(macros, environments, presentational))
    prepared = {
        name: _expand(_blanked(text, spans.get(name, [])), found, 0) if name in paper else text
        for name, text in texts.items()
    }
    expanded = [f"\\{name}" for name in macros] + [f"{{{name}}}" for name in environments]
    return Expansion(prepared, tuple(expanded), tuple(skipped))


def _opens_or_closes(definition: Definition) -> bool:
    """Whether a body leaves an environment open or closes one it did not open (pylatexenc misreads it)."""
    return not (_balanced(definition.body) and _balanced(definition.end_code))


def _plain(definition: Definition) -> str | None:
    """A presentational macro's body as plain text (`\\,\\mathrm{#1}` is ` #1`), or None for any other macro."""
    if definition.environment or definition.optional or not definition.parameters:
        return None
    plain = _STYLE.sub("", _SPACING.sub(" ", definition.body))
    if _ONLY_ARGUMENTS.fullmatch(plain) is None:
        return None
    return re.sub(r"\s+", " ", plain)


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


def _uses_pattern(*named: Mapping[str, Definition]) -> re.Pattern[str]:
    macros, environments, presentational = named
    alternatives = []
    for group, found in (("macro", macros), ("presentational", presentational)):
        if found:
            names = "|".join(re.escape(name) for name in sorted(found, key=len, reverse=True))
            alternatives.append(rf"\\(?P<{group}>{names})(?![A-Za-z@])")
    if environments:
        names = "|".join(re.escape(name) for name in sorted(environments, key=len, reverse=True))
        alternatives.append(rf"\\(?P<side>begin|end)\s*\{{\s*(?P<environment>{names})\s*\}}")
    return re.compile("|".join(alternatives))


def _expand(text: str, found: _Macros, depth: int) -> str:
    """Every use in `text` replaced by its body (arguments substituted), lines kept."""
    pieces: list[str] = []
    cursor = 0
    braces = Braces(text)
    for match in found.uses.finditer(text):
        if match.start() < cursor:
            continue
        named = match.groupdict()
        if named.get("environment") is not None:
            macro = found.environments[named["environment"]]
            body = macro.body if named["side"] == "begin" else macro.end_code
        else:
            name = named.get("macro") or named["presentational"]
            macro = found.macros.get(name) or found.presentational[name]
            body = macro.body
        end, arguments = match.end(), []
        if macro.parameters and (not macro.environment or named["side"] == "begin"):
            for _ in range(macro.parameters):
                argument = braces.group(end)
                if argument is None:
                    break
                arguments.append(argument[0])
                end = argument[1]
            if len(arguments) < macro.parameters:
                continue  # not used as defined: left as written
        replaced = text[match.start() : end]
        expanded = substituted(body, arguments)
        if depth < _MAX_DEPTH:
            expanded = _expand(expanded, found, depth + 1)
        if named.get("presentational") is not None:
            pieces += [text[cursor : match.start()], expanded, "\n" * (replaced.count("\n") - expanded.count("\n"))]
            cursor = end
            continue
        expanded = expanded.replace("\n", " ")
        if named.get("macro") is not None and not arguments and text[end : end + 1].isalpha():
            expanded += " "  # TeX ends a control word at the letter after it; the body may end in a letter
        pieces += [text[cursor : match.start()], expanded, "\n" * replaced.count("\n")]
        cursor = end
    return "".join([*pieces, text[cursor:]])
