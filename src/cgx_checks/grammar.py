"""What both expression grammars share: the nesting cap applied before lark sees a text (a parser, and a
tree walk, must never meet 50,000 nested parentheses), and how a parse error names what was expected."""

from __future__ import annotations

from collections.abc import Mapping

from lark import Lark
from lark.lexer import PatternStr

from cgx_core.codes import Code
from cgx_core.errors import CgxError


def check_nesting(text: str, limit: int, where: str = "") -> None:
    """Refuse a text whose parentheses nest deeper than `limit`, naming the column."""
    if text.count("(") <= limit:
        return
    depth = 0
    for column, char in enumerate(text, start=1):
        if char == "(":
            depth += 1
            if depth > limit:
                raise CgxError(
                    Code.EXPRESSION_TOO_LARGE,
                    f"{where}the parentheses at column {column} nest deeper than {limit}; write the expression flatter",
                )
        elif char == ")":
            depth -= 1


def terminal_text(parser: Lark, names: Mapping[str, str], name: str) -> str:
    """A terminal of a grammar as a person reads it in 'expected ...': a known name, or its literal text."""
    if name in names:
        return names[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if isinstance(pattern, PatternStr) else name
