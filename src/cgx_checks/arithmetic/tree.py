"""The parsed form of an arithmetic expression: a small immutable tree, and ways to read it back.

Parsing and evaluating are separate steps so a check can look at an expression (which numerals it uses,
how it reads) before computing anything. The nodes are named tuples: immutable, cheap to build while the
parser reduces, and compared by value. Every walk over a tree is iterative, so a deep tree (a long chain of
signs or operators, which the parenthesis cap does not bound) can never raise RecursionError.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


def literals(node: Node) -> tuple[Literal, ...]:
    """The numerals of an expression, left to right."""
    found: list[Literal] = []
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Literal):
            found.append(item)
        else:
            stack.extend(reversed(children(item)))
    return tuple(found)


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, the root first (iteratively: no tree is too deep)."""
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        yield item
        stack.extend(reversed(children(item)))


def table_rows(node: Node) -> tuple[Rows, ...]:
    """The `rows(...)` counts of an expression, left to right."""
    found: list[Rows] = []
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Rows):
            found.append(item)
        else:
            stack.extend(reversed(children(item)))
    return tuple(found)


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
    stack: list[Node] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Literal):
            if item.unit is not None:
                return False
        elif isinstance(item, Constant | Call | Compare):
            return False
        else:
            stack.extend(children(item))
    return True


def render(node: Node) -> str:
    """The expression written back with single spaces and only the parentheses its reading needs.

    Rendering the tree a parse gives and parsing the rendering gives the same tree, so the rendering is a
    faithful, canonical way to show an agent what was computed.
    """
    done: list[tuple[str, int]] = []
    stack: list[Node | tuple[Node]] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Literal):
            done.append((item.text if item.unit is None else f"{item.text} {item.unit.written}", _ATOM))
        elif isinstance(item, Constant):
            done.append((item.name, _ATOM))
        elif isinstance(item, Rows):
            done.append((f"{item.function}({item.row})", _ATOM))
        elif isinstance(item, Unary | Binary | Call | Compare):
            stack.append((item,))
            stack.extend(reversed(children(item)))
        else:
            operation = item[0]
            if isinstance(operation, Unary):
                text, level = done.pop()
                done.append((operation.op + _wrap(text, level, _UNARY), _UNARY))
            elif isinstance(operation, Binary):
                right_text, right_level = done.pop()
                left_text, left_level = done.pop()
                left_min, right_min = _OPERAND_LEVELS[operation.op]
                left = _wrap(left_text, left_level, left_min)
                right = _wrap(right_text, right_level, right_min)
                done.append((f"{left} {operation.op} {right}", _BINARY_LEVEL[operation.op]))
            elif isinstance(operation, Compare):
                right_text, _ = done.pop()
                left_text, _ = done.pop()
                done.append((f"{left_text} {operation.op} {right_text}", _SUM))
            elif isinstance(operation, Call):
                count = len(operation.arguments)
                arguments = [text for text, _ in done[len(done) - count :]] if count else []
                del done[len(done) - count :]
                done.append((f"{operation.name}({', '.join(arguments)})", _ATOM))
    return done[0][0]


def _wrap(text: str, level: int, minimum: int) -> str:
    return text if level >= minimum else f"({text})"
