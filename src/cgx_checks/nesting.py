"""The nesting cap both expression grammars apply before lark sees a text: a parser (and a tree walk)
must never meet 50,000 nested parentheses."""

from __future__ import annotations

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
