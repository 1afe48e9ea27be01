"""Whether a LaTeX relation or side is the paper's own: it must occur in a cited equation chunk, whole.

The agent copies `latex` from an equation chunk, so that the step checked is what the paper writes and
not a rewriting that could silently differ. Both texts are compared after removing what carries no maths
(whitespace, alignment `&`, `\\left`/`\\right` and delimiter sizes, spacing commands, `\\label{...}`,
`\\nonumber`), and the match must be whole: it starts where the chunk's maths, a line, a relation or a
`,`/`;` does and ends where the chunk's maths, a line, a relation or punctuation does, so that `s^2 + V`
cannot be picked out of `\\frac{N}{s^2 + V}`, nor `A = B` out of `A = B - C`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

_TOKEN: Final = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.DOTALL)
_LAYOUT: Final = frozenset(
    {
        "\\left",
        "\\right",
        "\\middle",
        "\\big",
        "\\Big",
        "\\bigg",
        "\\Bigg",
        "\\bigl",
        "\\bigr",
        "\\Bigl",
        "\\Bigr",
        "\\biggl",
        "\\biggr",
        "\\Biggl",
        "\\Biggr",
        "\\bigm",
        "\\Bigm",
        "\\displaystyle",
        "\\textstyle",
        "\\scriptstyle",
        "\\limits",
        "\\nolimits",
        "\\nonumber",
        "\\notag",
        "\\,",
        "\\;",
        "\\:",
        "\\!",
        "\\ ",
        "&",
        "~",
    }
)
_BREAKS: Final = frozenset({"\\quad", "\\qquad", "\\[", "\\]", "$"})
_WITH_ARGUMENT: Final = frozenset(
    {"\\label", "\\tag", "\\begin", "\\end", "\\text", "\\mbox", "\\textrm", "\\intertext"}
)
"""Commands whose braced argument is not maths: each, with its argument, separates statements."""

BREAK: Final = "\x00"
"""What a line break, an environment or a text aside becomes in a normalised text: a boundary."""

RELATIONS: Final = (
    "=",
    "<",
    ">",
    ":=",
    "\u2264",
    "\u2265",
    "\u2248",
    "\u2260",
    "\\le",
    "\\leq",
    "\\ge",
    "\\geq",
    "\\lt",
    "\\gt",
    "\\ne",
    "\\neq",
    "\\approx",
    "\\simeq",
    "\\approxeq",
    "\\equiv",
    "\\sim",
    "\\propto",
    "\\to",
    "\\rightarrow",
    "\\leqslant",
    "\\geqslant",
    "\\coloneqq",
)
_BEFORE: Final = (*RELATIONS, BREAK, ",", ";", "\\\\")
_AFTER: Final = (*RELATIONS, BREAK, ",", ";", ".", "\\\\")


def normalise(text: str) -> str:
    """LaTeX without what carries no maths, in one spelling: no whitespace but one space where a control
    word meets a letter (`\\beta q`), layout dropped, breaks (environments, `\\quad`, text asides) marked."""
    out: list[str] = []
    tokens = _TOKEN.findall(text)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.isspace() or token in _LAYOUT:
            continue
        if token in _WITH_ARGUMENT:
            index = _skip_argument(tokens, index)
            out.append(BREAK)
            continue
        if token in _BREAKS:
            out.append(BREAK)
            continue
        if out and token[:1].isalpha() and _is_control_word(out[-1]):
            out.append(" ")
        out.append(token)
    return "".join(out)


def occurs(latex: str, texts: Iterable[str]) -> bool:
    """Whether `latex` occurs whole in one of the texts (see the module's docstring)."""
    wanted = normalise(latex).strip(BREAK + ",;.")
    if not wanted:
        return False
    for text in texts:
        chunk = BREAK + normalise(text) + BREAK
        start = chunk.find(wanted)
        while start >= 0:
            end = start + len(wanted)
            if chunk[:start].endswith(_BEFORE) and _bounded_after(chunk[end:]):
                return True
            start = chunk.find(wanted, start + 1)
    return False


def _bounded_after(after: str) -> bool:
    if not after.startswith(_AFTER):
        return False
    for relation in RELATIONS:  # `\le` must not be the start of `\left`
        if relation.startswith("\\") and after.startswith(relation):
            following = after[len(relation) : len(relation) + 1]
            return not following.isalpha()
    return True


def _is_control_word(token: str) -> bool:
    return len(token) > 1 and token[0] == "\\" and token[1:].isalpha()


def _skip_argument(tokens: list[str], index: int) -> int:
    """The index after a command's braced argument (and an optional `[...]` one), or `index` if none."""
    while index < len(tokens) and tokens[index].isspace():
        index += 1
    for opening, closing in (("[", "]"), ("{", "}")):
        if index < len(tokens) and tokens[index] == opening:
            depth = 0
            while index < len(tokens):
                if tokens[index] == opening:
                    depth += 1
                elif tokens[index] == closing:
                    depth -= 1
                    if depth == 0:
                        index += 1
                        break
                index += 1
        while index < len(tokens) and tokens[index].isspace():
            index += 1
    return index
