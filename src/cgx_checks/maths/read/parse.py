"""Parse one side of a maths step with the lark grammar in `maths.lark`, into the nodes of `tree`.

The grammar is loaded once (LALR) with a stateless Transformer passed to the parser, so nodes are built
while the parser reduces: no lark tree, no recursive transform. The caps on length and nesting are
checked before lark sees the text, a numeral's size as the lexer reads it (with its column), and the
tree's depth as soon as it exists, so nothing later can recurse too deep.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib.util import find_spec
from typing import cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from cgx_checks.grammar import check_nesting, terminal_text
from cgx_checks.maths.limits import MAX_DEPTH, MAX_NESTING, MAX_NUMERAL_EXPONENT, MAX_SIDE_CHARS
from cgx_checks.maths.read.names import identifier_name
from cgx_checks.maths.read.tree import (
    Bounds,
    Call,
    Comparison,
    Direction,
    Name,
    Negation,
    Node,
    Numeral,
    Power,
    Product,
    Sum,
    column_of,
)
from cgx_checks.maths.read.vocabulary import PERCENT
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import read_token

_TERMINAL_NAMES = {
    "NUMERAL": "a numeral",
    "NAME": "a name",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*' or '/'",
    "POWOP": "'^' or '**'",
    "RELOP": "a comparison (< <= > >=)",
    "DIRECTION": "'+' or '-'",
    "$END": "the end",
}


def parse_side(text: str, side: str = "expression") -> Node:
    """The tree of one side, or CgxError: `expression-invalid` (with the column), `expression-too-large`.

    `side` names the side in messages ("lhs", "rhs").
    """
    if len(text) > MAX_SIDE_CHARS:
        raise CgxError(
            Code.EXPRESSION_TOO_LARGE,
            f"{side} has {len(text)} characters; at most {MAX_SIDE_CHARS} are accepted",
        )
    if not text.strip():
        raise CgxError(Code.EXPRESSION_INVALID, f"{side} is empty; write an expression such as (x + 1)^2")
    check_nesting(text, MAX_NESTING, f"{side}: ")
    try:
        tree = cast("Node", side_parser().parse(text))
    except UnexpectedInput as error:
        raise CgxError(Code.EXPRESSION_INVALID, f"{side} {_describe(error, text)}") from None
    except CgxError as error:
        raise CgxError(error.code, f"{side}: {error.message}") from None
    if tree.depth > MAX_DEPTH:
        raise CgxError(
            Code.EXPRESSION_TOO_LARGE,
            f"{side} nests {tree.depth} levels deep (powers of powers, calls inside calls); at most {MAX_DEPTH}",
        )
    return tree


@functools.cache
def side_parser() -> Lark:
    """The LALR parser of `maths.lark`, built once; its `parse` returns a `tree.Node`."""
    return Lark.open_from_package(
        "cgx_checks.maths.read",
        "maths.lark",
        start="comparison",
        parser="lalr",
        lexer="basic",
        transformer=_Builder(),
        strict=find_spec("interegular") is not None,
    )


def numeral_value(text: str, column: int) -> Numeral:
    """A numeral token as a node with its exact value (read by the core's one numeral reader), or CgxError
    when it is over the caps."""
    value = read_token(text, column, max_exponent=MAX_NUMERAL_EXPONENT, exponent_code=Code.EXPRESSION_TOO_LARGE).value
    return Numeral(value, text, column)


class _Builder(Transformer[Token, Node]):
    """Builds tree nodes as the LALR parser reduces. Stateless: one instance serves every parse."""

    def NUMERAL(self, token: Token) -> Numeral:
        return numeral_value(str(token), token.column or 0)

    def numeral(self, children: list[Numeral]) -> Numeral:
        return children[0]

    def name(self, children: list[Token]) -> Name:
        return Name(_name_of(children[0]), children[0].column or 0)

    def call(self, children: list[Token | tuple[Node, ...]]) -> Call:
        token, arguments = children
        assert isinstance(token, Token) and isinstance(arguments, tuple)
        name = _name_of(token)
        if name == "Matrix" and len(arguments) == 1 and isinstance(arguments[0], Bounds):
            # sympy's Matrix([[a, b], [c, d]]): the rows are the list's items; a flat list is a column
            items = arguments[0].items
            arguments = (
                items
                if all(isinstance(row, Bounds) for row in items)
                else tuple(Bounds((item,), column_of(item), item.depth + 1) for item in items)
            )
        return Call(name, arguments, token.column or 0, 1 + max(node.depth for node in arguments))

    def arguments(self, children: list[Node]) -> tuple[Node, ...]:
        return tuple(children)

    def bounds(self, children: list[Node]) -> Bounds:
        items = tuple(_node(child) for child in children)
        return Bounds(items, column_of(items[0]), 1 + max(node.depth for node in items))

    listed = bounds  # sympy's list `[a, b]` (a Matrix's rows) reads as a tuple does

    def direction(self, children: list[Token]) -> Direction:
        return Direction(str(children[0])[1], children[0].column or 0)

    def comparison(self, children: list[Node | Token]) -> Comparison:
        operands = tuple(_node(child) for child in children[::2])
        operators = tuple(_RELATIONS[str(token)] for token in children[1::2])
        return Comparison(operands, operators, column_of(operands[0]), 1 + max(node.depth for node in operands))

    def sum(self, children: list[Node | Token]) -> Sum:
        terms: list[tuple[int, Node]] = [(1, _node(children[0]))]
        for index in range(1, len(children), 2):
            terms.append((-1 if str(children[index]) != "+" else 1, _node(children[index + 1])))
        return Sum(tuple(terms), 1 + max(node.depth for _, node in terms))

    def product(self, children: list[Node | Token]) -> Product:
        factors: list[tuple[int, Node]] = [(1, _node(children[0]))]
        for index in range(1, len(children), 2):
            factors.append((-1 if str(children[index]) == "/" else 1, _node(children[index + 1])))
        return Product(tuple(factors), 1 + max(node.depth for _, node in factors))

    def signed(self, children: list[Token | Node]) -> Node:
        sign, operand = children
        node = _node(operand)
        if str(sign) == "+":
            return node
        if isinstance(node, Negation):
            return node.operand
        return Negation(node, node.depth + 1)

    def power(self, children: list[Node | Token]) -> Power:
        base, operator, exponent = children
        assert isinstance(operator, Token)
        base_node, exponent_node = _node(base), _node(exponent)
        return Power(base_node, exponent_node, operator.column or 0, 1 + max(base_node.depth, exponent_node.depth))


_RELATIONS = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "\u2264": "<=", "\u2265": ">="}


def _name_of(token: Token) -> str:
    """A name token's sympy name (`λ` is lambda, `x'` is x_prime), or CgxError when it is not a name."""
    text = str(token)
    name = identifier_name(text)
    if name is None:
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"{text[:40]!r} at column {token.column} is not a name: a LaTeX command in a sympy-spelled side "
            "must be a letter such as \\lambda (write a LaTeX side in the latex field)",
        )
    return name


def _node(value: Node | Token | tuple[Node, ...]) -> Node:
    assert not isinstance(value, Token | tuple), value
    return value


def unexpected(
    error: UnexpectedInput, text: str, parser: Lark, names: Mapping[str, str], end: str
) -> tuple[str, int, list[str]]:
    """What a parse error met (a character, a token, or `end`), at which column, and the terminals that would
    have been accepted there, as a person reads them (both grammars word their errors so)."""
    column = error.column if isinstance(error.column, int) and error.column > 0 else len(text) + 1
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream if isinstance(error.pos_in_stream, int) else column - 1
        found = f"character {text[position : position + 1]!r}"
        expected = set(error.allowed or ())
    elif isinstance(error, UnexpectedToken) and error.token.type != "$END":
        found = f"{str(error.token)[:30]!r}"
        expected = set(error.expected or ())
    else:
        found = end
        expected = set(getattr(error, "expected", ()) or ())
        column = len(text) + 1
    return found, column, sorted({terminal_text(parser, names, name) for name in expected})


def _describe(error: UnexpectedInput, text: str) -> str:
    """What was found, at which column, and what would have been accepted, in one line."""
    found, column, names = unexpected(error, text, side_parser(), _TERMINAL_NAMES, "end of the expression")
    if found == "character '%'":
        return f"does not parse: unexpected '%' at column {column}. {PERCENT}"
    accepted = f"; expected {', '.join(names)}" if names else ""
    return (
        f"does not parse: unexpected {found} at column {column}{accepted}. Write numerals, declared symbols, "
        "I, pi, E, oo, + - * / ^, parentheses, calls such as cos(x) or Integral(f, (x, 0, 1)), and < <= > >= in "
        "a condition, with every product written with '*'"
    )
