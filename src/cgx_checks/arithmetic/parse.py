"""Parse a recompute-numbers expression with the lark grammar in `arithmetic.lark`.

The grammar is loaded once (LALR) with a stateless Transformer passed to the parser, so the tree is built
while the parser reduces: no intermediate lark Tree, no recursive transform, nothing that a deep expression
could overflow. The caps on length and nesting are checked before lark sees the text; a numeral's size is
checked as the parser shifts it, with its column.

Speed: the parser is most of a check's time, so the lexer is a small one of our own (lark's documented
custom-lexer interface) that scans with one regex built from the grammar's terminals, ordered as lark's
basic lexer orders them, and makes tokens without lark's line bookkeeping (a column counts characters from
the start of the expression, newlines included).
`benchmarks/bench_arithmetic.py` measures the whole path against an `ast` evaluator.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.common import LexerConf
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState

from cgx_checks.arithmetic.constants import SAFE_ALIASES, physical_constant
from cgx_checks.arithmetic.estimates import ESTIMATE_ARGUMENTS
from cgx_checks.arithmetic.grim import GRIM_ARGUMENTS
from cgx_checks.arithmetic.limits import MAX_ARGUMENTS, MAX_EXPRESSION_CHARS, MAX_NESTING
from cgx_checks.arithmetic.predicates import (
    PREDICATE_FUNCTIONS,
    check_calendar_arguments,
    check_rounding_argument,
    check_truths,
)
from cgx_checks.arithmetic.pvalues import PVALUE_ARGUMENTS
from cgx_checks.arithmetic.tree import Binary, Call, Compare, Constant, Literal, Node, Rows, Unary
from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.grammar import check_nesting, terminal_text
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import Numeral, read_token
from cgx_core.numbers.units import read_unit

# Terminals lark names itself, shown to the agent as what they match.
_TERMINAL_NAMES = {
    "NUMERAL": "a numeral",
    "NAME": "a constant or function",
    "UNIT": "a unit",
    "ROW": "a chunk id (t-3, s-12)",
    "COMPARE": "a comparison (== != < <= > >=)",
    "_MINUS": "'-'",
    "$END": "the end",
}

CONSTANTS = {"pi": "pi", "\u03c0": "pi", "e": "e"}
"""The mathematical constants an expression may name (pi may be written as the Greek letter); the physical
ones are CODATA's (`constants.py`)."""

_SYMBOLS = ", ".join(sorted(SAFE_ALIASES, key=str.casefold))

FUNCTIONS: dict[str, range] = {"sqrt": range(1, 2), "cbrt": range(1, 2), "root": range(2, 3), "ln": range(1, 2)}
FUNCTIONS |= {"log": range(1, 3), "log10": range(1, 2), "log2": range(1, 2), "exp": range(1, 2), "abs": range(1, 2)}
FUNCTIONS |= {name: range(1, MAX_ARGUMENTS + 1) for name in ("mean", "median", "min", "max")}
FUNCTIONS |= {name: range(count, count + 1) for name, count in PVALUE_ARGUMENTS.items()}
FUNCTIONS |= {name: range(count, count + 1) for name, count in ESTIMATE_ARGUMENTS.items()}
FUNCTIONS |= GRIM_ARGUMENTS
FUNCTIONS |= PREDICATE_FUNCTIONS
"""The functions an expression may call, with the numbers of arguments each takes. mean, median, min and max
take any number of values (a table's column, the runs of an experiment), so the count of an average is
never a number the agent supplies; so do the predicates all, any, count, sorted_desc and sorted_asc."""

COUNTS = ("rows", "cols", "items")
"""The functions of a chunk id: the body rows and the columns of a cited row's table, the items a cited chunk
enumerates."""


def parse_expression(expression: str) -> Node:
    """The tree of an expression, or CgxError (`expression-invalid` with the column, `expression-too-large`,
    `exponent-too-large` for a numeral such as 1e500)."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CgxError(
            Code.EXPRESSION_TOO_LARGE,
            f"the expression has {len(expression)} characters; at most {MAX_EXPRESSION_CHARS} are accepted",
        )
    if not expression.strip():
        raise CgxError(Code.EXPRESSION_INVALID, "the expression is empty; write one such as (6.2 - 2.2) / 0.01 + 1")
    if expression.count("(") > MAX_NESTING:
        check_nesting(expression, MAX_NESTING)
    try:
        tree = cast(Node, expression_parser().parse(expression))
    except UnexpectedInput as error:
        raise CgxError(Code.EXPRESSION_INVALID, _describe(error, expression)) from None
    if _MAY_HOLD_TRUTHS.search(expression):
        check_truths(tree)
    return tree


# Only an expression with a comparison or a predicate's name can hold a truth value: the others skip the walk.
_MAY_HOLD_TRUTHS = re.compile("[<>=!\u2264\u2265\u2260]|all|any|count|within|sorted_|is_")


@functools.cache
def expression_parser() -> Lark:
    """The LALR parser of `arithmetic.lark`, built once; its `parse` returns a tree of `tree.Node`.

    `strict=True` makes any shift/reduce conflict in the grammar an error when the parser is built (lark
    otherwise resolves it silently as a shift). It needs the `interegular` extra only to check collisions
    between the terminals of lark's own lexers; ours tries the terminals in a fixed order instead.
    """
    return Lark.open_from_package(
        "cgx_checks.arithmetic",
        "arithmetic.lark",
        start="expression",
        parser="lalr",
        lexer=_Lexer,
        transformer=_Builder(),
        strict=True,
    )


_SUFFIXES = {"k": 3, "K": 3, "M": 6}


def literal_numeral(text: str, column: int) -> Numeral:
    """A numeral token of an expression (`1.2e3`, `95%`, `50k`) as the numeral reader's `Numeral`: one rule
    set for its value and written form. CgxError when it is over the caps."""
    body = text
    percent = body[-1] == "%"
    if percent:
        body = body[:-1]
    exponent: int | None = None
    if body[-1] in _SUFFIXES:
        exponent = _SUFFIXES[body[-1]]
        body = body[:-1]
    return read_token(body, column, exponent=exponent, percent=percent)


class _Lexer(Lexer):
    """Tokens of an expression from one regex over the grammar's terminals (lark's custom-lexer interface)."""

    __future_interface__ = 2

    def __init__(self, conf: LexerConf) -> None:
        # lark's basic lexer tries terminals in this order, first match wins; we do the same.
        terminals = sorted(
            conf.terminals,
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        self._match = re.compile(
            "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals if t.name != "UNIT")
        ).match
        self._ignore = frozenset(conf.ignore)

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text: str = lexer_state.text.text
        match = self._match
        ignore = self._ignore
        unit_ahead = _UNIT_AHEAD.match
        position = 0
        end = len(text)
        while position < end:
            found = match(text, position)
            if found is None:
                raise CgxError(
                    Code.EXPRESSION_INVALID,
                    f"the expression does not parse: unexpected character {text[position]!r} at column {position + 1}. "
                    + _ACCEPTED,
                )
            kind = cast(str, found.lastgroup)  # every alternative is a named group
            following = found.end()
            if kind not in ignore:
                yield Token(kind, text[position:following], position, 1, position + 1)
            position = following
            if kind == "NUMERAL" and unit_ahead(text, following):
                unit = read_unit(text, following)
                if unit is not None:
                    start = following + len(text[following:]) - len(text[following:].lstrip())
                    yield Token("UNIT", unit[0], start, 1, start + 1)  # the token's value is the Unit
                    position = unit[1]


# Whether a letter follows a numeral (after spaces): only then may a unit, and most numerals have none.
_UNIT_AHEAD = re.compile("[ \t\r\n]*[A-Za-z\u00b5\u03bc\u2126\u03a9]")


class _Builder(Transformer[Token, Node]):
    """Builds tree nodes as the LALR parser reduces. Stateless: one instance serves every parse.

    `add`, `sub`, `mul` and `div` get [left, operator token, right] (their rules keep tokens); `pow`, `neg`
    and `pos` get their operands only.
    """

    def NUMERAL(self, token: Token) -> Literal:
        value = literal_numeral(str(token), token.column or 0).value  # CgxError over the caps
        return Literal(str(token), value.numerator, value.denominator, token.column or 0)

    def add(self, children: list[Node]) -> Binary:
        return Binary("+", children[0], children[2])

    def sub(self, children: list[Node]) -> Binary:
        return Binary("-", children[0], children[2])

    def mul(self, children: list[Node]) -> Binary:
        return Binary("*", children[0], children[2])

    def div(self, children: list[Node]) -> Binary:
        return Binary("/", children[0], children[2])

    def pow(self, children: list[Node]) -> Binary:
        return Binary("**", children[0], children[1])

    def quantity(self, children: list[Any]) -> Literal:
        literal: Literal = children[0]
        return literal._replace(unit=children[1].value)

    def constant(self, children: list[Token]) -> Constant:
        name = str(children[0])
        if name in CONSTANTS:
            return Constant(CONSTANTS[name], children[0].column or 0)
        physical = physical_constant(name)
        if physical is not None:
            return Constant(physical.name, children[0].column or 0)
        hint = " (write * between a number and a name: 2 * pi)" if name == "pi" else ""
        raise CgxError(
            ExpressionCode.UNKNOWN_SYMBOL,
            f"the expression names {name!r} at column {children[0].column}, which is not a constant{hint}; "
            f"the constants are pi, e, the physical constants by CODATA name or symbol ({_SYMBOLS}), and the "
            f"functions {', '.join(sorted(FUNCTIONS))}",
        )

    def compare(self, children: list[Any]) -> Compare:
        left, token, right = children
        op = {"\u2264": "<=", "\u2265": ">=", "\u2260": "!="}.get(str(token), str(token))
        return Compare(op, left, right, token.column or 0)

    def arguments(self, children: list[Node]) -> tuple[Node, ...]:
        return tuple(children)

    def pow_constant(self, children: list[Any]) -> Binary:
        return Binary("**", self.constant([children[0]]), children[1])

    def pow_call(self, children: list[Any]) -> Binary:
        return Binary("**", self.call([children[0], children[1]]), children[2])

    def call(self, children: list[Any]) -> Call:
        name = str(children[0])
        arguments: tuple[Node, ...] = children[1]
        counts = FUNCTIONS.get(name)
        if name in COUNTS:
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{name} at column {children[0].column} takes one {_COUNT_MEANINGS[name]}",
            )
        if counts is None:
            raise CgxError(
                ExpressionCode.UNKNOWN_FUNCTION,
                f"the expression calls {name!r} at column {children[0].column}; the functions are "
                f"{', '.join(sorted(FUNCTIONS))} (log is the natural logarithm; log(x, b) takes a base)",
            )
        if len(arguments) not in counts:
            wanted = " or ".join(str(count) for count in counts) if len(counts) <= 2 else f"1 to {counts[-1]}"
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{name} at column {children[0].column} takes {wanted} argument(s), not {len(arguments)}",
            )
        call = Call(name, arguments, children[0].column or 0)
        if name in ("round", "sig"):
            check_rounding_argument(call)
        elif name in ("date", "time"):
            check_calendar_arguments(call)
        return call

    def rows(self, children: list[Token]) -> Rows:
        name, row = children
        if str(name) not in COUNTS:
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{name} at column {name.column} takes a number as its argument, not the "
                f"{'table row' if str(row).startswith('t-') else 'chunk'} {row}; only rows(t-N) and cols(t-N) take "
                "a row: the number of body rows or of columns of its table, and items(s-N) a chunk: the number of "
                "items it enumerates",
            )
        return Rows(str(row), name.column or 0, function=str(name))

    def neg(self, children: list[Node]) -> Unary:
        return Unary("-", children[0])

    def pos(self, children: list[Node]) -> Unary:
        return Unary("+", children[0])


_COUNT_MEANINGS = {
    "rows": "table row id as its argument, such as rows(t-3): the number of body rows of the table that holds it",
    "cols": "table row id as its argument, such as cols(t-3): the number of columns of the table that holds it",
    "items": "chunk id as its argument, such as items(s-12): the number of items the chunk enumerates",
}

_ACCEPTED = (
    "Only numerals (with the unit the text writes after them: 90 min, 4.1e-3 m/s), + - * / **, signs, "
    "parentheses, pi, e, physical constants (c, G, h, hbar, k_B or a CODATA name), the functions sqrt, cbrt, "
    "root, ln, log, log10, log2, exp, abs, mean, median, min, max, round, sig, date(y, m, d), time(h, m), the "
    "p-values p_z, p_z1, p_t, p_t1, p_r, p_chi2, p_F, rows(t-N), cols(t-N), items(s-N), and predicates (a "
    "comparison == != < <= > >=, all, any, count, within, sorted_desc, sorted_asc, is_max, is_min, same_order, "
    "is_<kind>) are accepted"
)


def _describe(error: UnexpectedInput, expression: str) -> str:
    """One line an agent can act on: what was found, at which column, and what would have been accepted."""
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        found = f"{str(error.token)!r} at column {error.column}"
    else:
        found = f"end of the expression at column {len(expression) + 1}"
    names = sorted(
        {terminal_text(expression_parser(), _TERMINAL_NAMES, name) for name in getattr(error, "expected", None) or ()}
    )
    accepted = f"; expected {', '.join(names)}" if names else ""
    if "a unit" in names and isinstance(error, UnexpectedToken) and str(error.token)[:1].isalpha():
        accepted += (
            f" ({str(error.token)!r} after a number is no unit the numeral reader knows: write the unit as the text "
            "does with a symbol or word it knows, such as s, min, h, d, m, km, L, Hz, GB, with at most one "
            "qualifier word before it, as in 10 GPU hours (docs/numbers.md lists them), or an operator between a "
            "number and a name, as in 2 * pi; a count such as 120 C or 30 cells is read only when the rubric's "
            "author declares it in the [counts] table of <rubric>.tolerances.toml)"
        )
    return f"the expression does not parse: unexpected {found}{accepted}. {_ACCEPTED}"
