"""Parse a paper's LaTeX maths with the lark grammar in `latex.lark`, into the layout nodes below.

The grammar only groups the text: statements and their relations, sums of terms, terms of factors, each
factor an atom with its scripts. What the factors mean depends on the encoding's declarations (is `f(x)`
a call or f times x? where does an integral end?), so `latex_read` reads these nodes into the maths tree
afterwards. As for the sympy spelling, the parser is LALR with a stateless transformer, built once, and
the text's length and nesting are capped before lark sees it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from importlib.util import find_spec
from typing import Any, Final, cast

import attrs
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import MAX_LATEX_CHARS, MAX_NESTING
from cgx_checks.maths.read.parse import unexpected
from cgx_core.codes import Code
from cgx_core.errors import CgxError

RELATIONS: Final = {
    "=": "=",
    "<": "<",
    ">": ">",
    "<=": "<=",
    ">=": ">=",
    "\u2264": "<=",
    "\u2265": ">=",
    "\\le": "<=",
    "\\leq": "<=",
    "\\leqslant": "<=",
    "\\ge": ">=",
    "\\geq": ">=",
    "\\geqslant": ">=",
    "\\lt": "<",
    "\\gt": ">",
    "\\ne": "!=",
    "\\neq": "!=",
    "\u2260": "!=",
    "\\approx": "approx",
    "\u2248": "approx",
    "\\simeq": "approx",
    "\\approxeq": "approx",
    "\\equiv": "=",
    ":=": "=",
    "\\coloneqq": "=",
    "\\sim": "sim",
    "\\propto": "propto",
    "\\to": "to",
    "\\rightarrow": "to",
    "\u2192": "to",
}
"""Each relation as written, and what it is read as (`\\equiv` and `:=` as `=`; `\\simeq` as `\\approx`)."""

_TERMINAL_NAMES: Final = {
    "NUMBER": "a number",
    "LETTER": "a letter",
    "CMD": "a command",
    "SIGN": "'+' or '-'",
    "MULOP": "an operator",
    "REL": "a relation",
    "_SEP": "a separator",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LVERT": "an opening '|'",
    "RVERT": "a closing '|'",
    "$END": "the end",
}


@attrs.frozen
class LAtom:
    """A token that stands alone: a number, a letter, a command (`\\alpha`, `\\sin`, `\\infty`), `\\%`, or
    a big operator (`\\int`, `\\sum`, `\\prod`, `\\lim`)."""

    kind: str
    text: str
    column: int


@attrs.frozen
class LGroup:
    """What a pair of delimiters holds: brace, paren, bracket or absolute (|...|)."""

    kind: str
    statements: tuple[LStatement, ...]
    column: int


@attrs.frozen
class LBraced:
    """The braced argument of a command or script, `{...}`."""

    statements: tuple[LStatement, ...]
    column: int


type LArg = LBraced | LAtom


@attrs.frozen
class LFraction:
    numerator: LArg
    denominator: LArg
    column: int


@attrs.frozen
class LRoot:
    index: tuple[LStatement, ...] | None
    radicand: LArg
    column: int


@attrs.frozen
class LBinomial:
    top: LArg
    bottom: LArg
    column: int


@attrs.frozen
class LFont:
    """`\\mathrm{...}`, `\\operatorname{...}`, `\\mathbf{...}` and the like; `font` without the backslash."""

    font: str
    statements: tuple[LStatement, ...]
    column: int


@attrs.frozen
class LAccent:
    """`\\bar{x}`, `\\hat{\\mu}`, ...; `accent` without the backslash."""

    accent: str
    base: LArg
    column: int


@attrs.frozen
class LMatrix:
    """A matrix environment: `kind` is its letter (p, b, v for a determinant, or "" for `matrix`), `rows` its
    cells, each a part."""

    kind: str
    rows: tuple[tuple[LPart, ...], ...]
    column: int


type LNode = LAtom | LGroup | LFraction | LRoot | LBinomial | LFont | LAccent | LMatrix


@attrs.frozen
class LFactor:
    """An atom with its scripts: a sub- and a superscript, primes, factorial signs."""

    atom: LNode
    subscript: LArg | None
    superscript: LArg | None
    primes: int
    factorials: int
    column: int


@attrs.frozen
class LTerm:
    """Factors side by side; `operators[i]` is what stands between factor i and i + 1: None (nothing: a
    product, or a function and its argument), "*" or "/"."""

    factors: tuple[LFactor, ...]
    operators: tuple[str | None, ...]
    column: int


@attrs.frozen
class LPart:
    """Terms with their signs: `signs[i]` is "+", "-" or "pm" before term i ("+" when none is written)."""

    signs: tuple[str, ...]
    terms: tuple[LTerm, ...]
    column: int


@attrs.frozen
class LStatement:
    """Parts joined by relations (`RELATIONS`' readings); `continued` when it starts with a relation, as
    an align's next line does."""

    parts: tuple[LPart, ...]
    relations: tuple[str, ...]
    continued: bool
    column: int


def parse_latex(text: str, where: str = "latex") -> tuple[LStatement, ...]:
    """The statements of a LaTeX text, or CgxError `latex-invalid` (with the column) or `expression-too-large`."""
    if len(text) > MAX_LATEX_CHARS:
        raise CgxError(
            Code.EXPRESSION_TOO_LARGE, f"{where} has {len(text)} characters; at most {MAX_LATEX_CHARS} are accepted"
        )
    if not text.strip():
        raise CgxError(MathsCode.LATEX_INVALID, f"{where} is empty; copy the maths from the cited equation chunk")
    _check_nesting(text, where)
    try:
        statements = cast("tuple[LStatement, ...]", latex_parser().parse(text))
    except UnexpectedInput as error:
        raise CgxError(MathsCode.LATEX_INVALID, f"{where} {_describe(error, text)}") from None
    except CgxError as error:
        raise CgxError(error.code, f"{where}: {error.message}") from None
    return statements


@functools.cache
def latex_parser() -> Lark:
    """The LALR parser of `latex.lark`, built once; its `parse` returns a tuple of `LStatement`."""
    return Lark.open_from_package(
        "cgx_checks.maths.read",
        "latex.lark",
        start="statements",
        parser="lalr",
        lexer="basic",
        postlex=BarPairing(),  # after LayoutInMatrices, chained in BarPairing.process
        transformer=_Builder(),
        strict=find_spec("interegular") is not None,
    )


class BarPairing:
    """Tells an opening `|` from a closing one, as a reader does: a bar opens at the start, after an
    operator, a relation, a separator, an opening delimiter or a script, or when none is open; otherwise
    it closes the innermost open one. Stateless between texts (the state lives in `process`'s loop)."""

    always_accept = ("BAR", "AMP")
    _OPENS_AFTER = frozenset(
        {"SIGN", "MULOP", "REL", "_SEP", "LBRACE", "LPAR", "LSQB", "LVERT", "CARET", "UNDERSCORE", "FRAC", "SQRT"}
    )

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return self._paired(_in_matrices(stream))

    def _paired(self, stream: Iterator[Token]) -> Iterator[Token]:
        open_bars = 0
        previous: str | None = None
        for token in stream:
            if token.type == "BAR":
                if open_bars == 0 or previous is None or previous in self._OPENS_AFTER:
                    open_bars += 1
                    if open_bars > MAX_NESTING:
                        raise CgxError(
                            Code.EXPRESSION_TOO_LARGE,
                            f"the bars | at column {token.column} nest deeper than {MAX_NESTING}",
                        )
                    token = Token.new_borrow_pos("LVERT", str(token), token)
                else:
                    open_bars -= 1
                    token = Token.new_borrow_pos("RVERT", str(token), token)
            elif token.type == "LVERT":
                open_bars += 1
                if open_bars > MAX_NESTING:
                    raise CgxError(
                        Code.EXPRESSION_TOO_LARGE, f"the bars at column {token.column} nest deeper than {MAX_NESTING}"
                    )
            elif token.type == "RVERT":
                open_bars = max(open_bars - 1, 0)
            previous = token.type
            yield token


def _in_matrices(stream: Iterator[Token]) -> Iterator[Token]:
    """Inside a matrix environment, `&` separates cells (COLSEP) and `\\\\` rows (ROWSEP); outside, `&` is an
    align's alignment and carries no maths, so it is dropped."""
    depth = 0
    for token in stream:
        if token.type == "MATBEGIN":
            depth += 1
        elif token.type == "MATEND":
            depth = max(depth - 1, 0)
        elif token.type == "AMP":
            if depth:
                yield Token.new_borrow_pos("COLSEP", str(token), token)
            continue
        elif token.type == "_SEP" and depth and str(token) == "\\\\":
            yield Token.new_borrow_pos("ROWSEP", str(token), token)
            continue
        yield token


def _check_nesting(text: str, where: str) -> None:
    depth = 0
    for column, character in enumerate(text, start=1):
        if character in "({[":
            depth += 1
            if depth > MAX_NESTING:
                raise CgxError(
                    Code.EXPRESSION_TOO_LARGE,
                    f"{where}: the brackets at column {column} nest deeper than {MAX_NESTING}",
                )
        elif character in ")}]":
            depth -= 1


def _column(token: Token) -> int:
    return token.column or 0


class _Builder(Transformer[Token, Any]):
    """Builds layout nodes as the LALR parser reduces. Stateless: one instance serves every parse."""

    def statements(self, children: list[LStatement]) -> tuple[LStatement, ...]:
        return tuple(children)

    def matrix(self, children: list[Any]) -> LMatrix:
        begin = children[0]
        kind = str(begin)[len("\\begin{") : -len("matrix}")]
        rows = tuple(child for child in children if isinstance(child, tuple))
        return LMatrix(kind, rows, _column(begin))

    def matrix_row(self, children: list[Any]) -> tuple[LPart, ...]:
        return tuple(child for child in children if isinstance(child, LPart))

    def statement(self, children: list[Any]) -> LStatement:
        parts = tuple(children[::2])
        relations = tuple(RELATIONS[str(token)] for token in children[1::2])
        return LStatement(parts, relations, False, parts[0].column)

    def continued(self, children: list[Any]) -> LStatement:
        relations = tuple(RELATIONS[str(token)] for token in children[::2])
        parts = tuple(children[1::2])
        return LStatement(parts, relations, True, _column(children[0]))

    def part(self, children: list[Any]) -> LPart:
        signs: list[str] = []
        terms: list[LTerm] = []
        pending = "+"
        for child in children:
            if isinstance(child, Token):
                text = str(child)
                sign = "-" if text in ("-", "\u2212") else ("pm" if text in ("\\pm", "\\mp") else "+")
                pending = _combine(pending, sign)
            else:
                signs.append(pending)
                terms.append(child)
                pending = "+"
        return LPart(tuple(signs), tuple(terms), terms[0].column)

    def term(self, children: list[Any]) -> LTerm:
        factors: list[LFactor] = []
        operators: list[str | None] = []
        pending: str | None = None
        for child in children:
            if isinstance(child, Token):
                pending = "/" if str(child) in ("/", "\\div") else "*"
            else:
                if factors:
                    operators.append(pending)
                factors.append(child)
                pending = None
        return LTerm(tuple(factors), tuple(operators), factors[0].column)

    def factor(self, children: list[Any]) -> LFactor:
        atom = children[0]
        subscript: LArg | None = None
        superscript: LArg | None = None
        primes = factorials = 0
        for kind, value, column in children[1:]:
            if kind == "sub":
                if subscript is not None:
                    raise CgxError(MathsCode.LATEX_INVALID, f"a double subscript at column {column}")
                subscript = value
            elif kind == "sup":
                if superscript is not None:
                    raise CgxError(MathsCode.LATEX_INVALID, f"a double superscript at column {column}")
                superscript = value
            elif kind == "prime":
                primes += 1
            else:
                factorials += 1
        return LFactor(atom, subscript, superscript, primes, factorials, atom.column)

    def superscript(self, children: list[Any]) -> tuple[str, LArg, int]:
        return ("sup", children[1], _column(children[0]))

    def subscript(self, children: list[Any]) -> tuple[str, LArg, int]:
        return ("sub", children[1], _column(children[0]))

    def prime(self, children: list[Token]) -> tuple[str, None, int]:
        return ("prime", None, _column(children[0]))

    def factorial(self, children: list[Token]) -> tuple[str, None, int]:
        return ("factorial", None, _column(children[0]))

    def braced(self, children: list[Any]) -> LBraced:
        return LBraced(children[1], _column(children[0]))

    def single(self, children: list[Token]) -> LAtom:
        return _atom(children[0])

    number = letter = command = single

    def braced_sign(self, children: list[Token]) -> LAtom:
        return _atom(children[1])

    def percent(self, children: list[Token]) -> LAtom:
        return LAtom("percent", "\\%", _column(children[0]))

    def bigop(self, children: list[Token]) -> LAtom:
        return LAtom("bigop", str(children[0])[1:], _column(children[0]))

    def brace(self, children: list[Any]) -> LGroup:
        statements = children[1] if len(children) == 3 else ()
        return LGroup("brace", statements, _column(children[0]))

    def paren(self, children: list[Any]) -> LGroup:
        return LGroup("paren", children[1], _column(children[0]))

    def bracket(self, children: list[Any]) -> LGroup:
        return LGroup("bracket", children[1], _column(children[0]))

    def absolute(self, children: list[Any]) -> LGroup:
        return LGroup("absolute", children[1], _column(children[0]))

    def fraction(self, children: list[Any]) -> LFraction:
        return LFraction(children[1], children[2], _column(children[0]))

    def root(self, children: list[Any]) -> LRoot:
        index = children[2] if len(children) == 5 else None
        return LRoot(index, children[-1], _column(children[0]))

    def binomial(self, children: list[Any]) -> LBinomial:
        return LBinomial(children[1], children[2], _column(children[0]))

    def font(self, children: list[Any]) -> LFont:
        statements = children[2] if len(children) == 4 else ()
        return LFont(str(children[0])[1:], statements, _column(children[0]))

    def accent(self, children: list[Any]) -> LAccent:
        return LAccent(str(children[0])[1:], children[1], _column(children[0]))


def _combine(first: str, second: str) -> str:
    if "pm" in (first, second):
        return "pm"
    return "+" if first == second else "-"


def _atom(token: Token) -> LAtom:
    kind = {"NUMBER": "number", "LETTER": "letter", "CMD": "command", "SIGN": "sign"}[token.type]
    return LAtom(kind, str(token), _column(token))


def _describe(error: UnexpectedInput, text: str) -> str:
    """What was found, at which column, and what would have been accepted, in one line."""
    found, column, names = unexpected(error, text, latex_parser(), _TERMINAL_NAMES, "end of the text")
    accepted = f"; expected {', '.join(names[:8])}" if names else ""
    return f"does not parse as LaTeX maths: unexpected {found} at column {column}{accepted}"
