"""The parsed form of an arithmetic expression: a small immutable tree, and ways to read it back.

Parsing and evaluating are separate steps so a check can look at an expression (which numerals it uses,
how it reads) before computing anything. The nodes are named tuples: immutable, cheap to build while the
parser reduces, and compared by value. Every walk over a tree is iterative, so a deep tree (a long chain of
signs or operators, which the parenthesis cap does not bound) can never raise RecursionError.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import NamedTuple

from cgx_core.numbers.units import Unit


class Literal(NamedTuple):
    """A numeral of the expression, as written, with its exact value as a reduced fraction and the unit
    written after it (`90 min`), if any."""

    text: str
    numerator: int
    denominator: int
    column: int
    unit: Unit | None = None

    @property
    def magnitude(self) -> Fraction:
        """The value without its sign, which is an operator: what the cited text must write."""
        return abs(Fraction(self.numerator, self.denominator))

    @property
    def shown(self) -> str:
        """The numeral with the unit written after it (`90 min`)."""
        return self.text if self.unit is None else f"{self.text} {self.unit.written}"


class Unary(NamedTuple):
    """A sign applied to an operand: `op` is `-` or `+`."""

    op: str
    operand: Node


class Binary(NamedTuple):
    """An operation on two operands: `op` is one of `+ - * / **`."""

    op: str
    left: Node
    right: Node


class Constant(NamedTuple):
    """A mathematical constant: `pi` or `e` (never a number of the document)."""

    name: str
    column: int


class Call(NamedTuple):
    """A function of the fixed set (`sqrt`, `ln`, `mean`, `p_t`, `round`, `all`, `date`, ...: parse.FUNCTIONS)."""

    name: str
    arguments: tuple[Node, ...]
    column: int


class Rows(NamedTuple):
    """A count the run gives rather than a numeral the text writes: `rows(t-3)`, the body rows of the table
    that holds the row `t-3`; `cols(t-3)`, the columns that table prints; `items(s-12)`, the items the chunk
    `s-12` enumerates. `function` names which; `total` is None until the check binds it from the run."""

    row: str
    column: int
    total: int | None = None
    function: str = "rows"


class Compare(NamedTuple):
    """A comparison of two values (`8.53 == 8.53`, `0.7 >= 0.65`): a truth value, written at the top of an
    expression or as a condition of all(), any() or count(). `op` is one of `== != < <= > >=`."""

    op: str
    left: Node
    right: Node
    column: int


type Node = Literal | Unary | Binary | Constant | Call | Rows | Compare

# Binding strength of each form, loosest first, as in the grammar: sum, product, unary sign, power, atom.
_SUM, _PRODUCT, _UNARY, _POWER, _ATOM = range(1, 6)
_BINARY_LEVEL = {"+": _SUM, "-": _SUM, "*": _PRODUCT, "/": _PRODUCT, "**": _POWER}
# The weakest form each operand may be without parentheses: (left, right).
_OPERAND_LEVELS = {
    "+": (_SUM, _PRODUCT),
    "-": (_SUM, _PRODUCT),
    "*": (_PRODUCT, _UNARY),
    "/": (_PRODUCT, _UNARY),
    "**": (_ATOM, _UNARY),
}


def children(node: Node) -> tuple[Node, ...]:
    """The direct operands of a node, left to right."""
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary | Compare):
        return (node.left, node.right)
    if isinstance(node, Call):
        return node.arguments
    return ()


def signed(node: Node) -> tuple[int, Node]:
    """A node without the sign written before it, and that sign: `-2` is (-1, 2), `2` is (1, 2)."""
    if isinstance(node, Unary):
        return (-1 if node.op == "-" else 1), node.operand
    return 1, node


def literals(node: Node) -> tuple[Literal, ...]:
    """The numerals of an expression, left to right."""
    return tuple(item for item in walk(node) if isinstance(item, Literal))


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, the root first (iteratively: no tree is too deep)."""
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        yield item
        stack.extend(reversed(children(item)))


def table_rows(node: Node) -> tuple[Rows, ...]:
    """The `rows(...)` counts of an expression, left to right."""
    return tuple(item for item in walk(node) if isinstance(item, Rows))


def bind_rows(node: Node, counts: dict[tuple[str, str], int]) -> Node:
    """The tree with each `rows(t-N)` and `items(s-N)` given its count from `counts`
    ((function, chunk id) -> count)."""
    if not table_rows(node):
        return node
    return fold(
        node,
        lambda item: item._replace(total=counts[item.function, item.row]) if isinstance(item, Rows) else item,
        _rebuilt,
    )


def map_literals(node: Node, change: Callable[[Literal], Literal]) -> Node:
    """The tree with each numeral replaced by `change(numeral)` (to decide it on another reading of them)."""
    return fold(node, lambda item: change(item) if isinstance(item, Literal) else item, _rebuilt)


def _rebuilt(operation: Node, operands: list[Node]) -> Node:
    """An operation with new operands."""
    if isinstance(operation, Unary):
        return operation._replace(operand=operands[0])
    if isinstance(operation, Binary | Compare):
        return operation._replace(left=operands[0], right=operands[1])
    assert isinstance(operation, Call)
    return operation._replace(arguments=tuple(operands))


class _Combine(NamedTuple):
    """On fold's stack: combine the values of this operation's operands, now computed."""

    operation: Unary | Binary | Call | Compare


def fold[T](node: Node, leaf: Callable[[Node], T], combine: Callable[[Node, list[T]], T]) -> T:
    """The tree folded bottom-up without recursion (an expression may nest as deep as its limit allows):
    `leaf` gives each numeral's, constant's or row count's value, `combine` each operation's value from
    its operands' values, left to right. Evaluating and binding row counts are both folds."""
    values: list[T] = []
    stack: list[Node | _Combine] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, _Combine):
            count = len(children(item.operation))
            operands = values[len(values) - count :]
            del values[len(values) - count :]
            values.append(combine(item.operation, operands))
        elif isinstance(item, Unary | Binary | Call | Compare):
            stack.append(_Combine(item))
            stack.extend(reversed(children(item)))
        else:
            values.append(leaf(item))
    return values[0]


def is_plain(node: Node) -> bool:
    """Whether the expression is only numerals without units, + - * / **, signs and parentheses: the
    form evaluated exactly on the fast path."""
    return not any(
        isinstance(item, Constant | Call | Compare) or (isinstance(item, Literal) and item.unit is not None)
        for item in walk(node)
    )


def render(node: Node) -> str:
    """The expression written back with single spaces and only the parentheses its reading needs.

    Rendering the tree a parse gives and parsing the rendering gives the same tree, so the rendering is a
    faithful, canonical way to show an agent what was computed.
    """
    return fold(node, _rendered_leaf, _rendered)[0]


def _rendered_leaf(item: Node) -> tuple[str, int]:
    if isinstance(item, Literal):
        return item.shown, _ATOM
    if isinstance(item, Constant):
        return item.name, _ATOM
    assert isinstance(item, Rows)
    return f"{item.function}({item.row})", _ATOM


def _rendered(operation: Node, operands: list[tuple[str, int]]) -> tuple[str, int]:
    """An operation written from its operands' texts (each with the binding strength of its form)."""
    if isinstance(operation, Unary):
        text, level = operands[0]
        return operation.op + _wrap(text, level, _UNARY), _UNARY
    if isinstance(operation, Binary):
        (left_text, left_level), (right_text, right_level) = operands
        left_min, right_min = _OPERAND_LEVELS[operation.op]
        left, right = _wrap(left_text, left_level, left_min), _wrap(right_text, right_level, right_min)
        return f"{left} {operation.op} {right}", _BINARY_LEVEL[operation.op]
    if isinstance(operation, Compare):
        return f"{operands[0][0]} {operation.op} {operands[1][0]}", _SUM
    assert isinstance(operation, Call)
    return f"{operation.name}({', '.join(text for text, _ in operands)})", _ATOM


def _wrap(text: str, level: int, minimum: int) -> str:
    return text if level >= minimum else f"({text})"
