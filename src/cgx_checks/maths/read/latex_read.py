"""Read the layout of a paper's LaTeX (`latex.parse_latex`) as the maths tree that sympy-spelled sides make.

What a LaTeX factor means depends on what the encoding declares, so it is decided here, with these rules:

* Letters side by side multiply (`2r` is 2*r), unless together they spell a declared name. A name is a
  letter, a Greek command, an accent or a font around one (`\\bar{x}`, `\\mathrm{obs}`), with its
  subscript and primes: `\\sigma_i`, `x_{\\mathrm{obs},i}` and `x'` are each one symbol (see `names`).
* `e` and `\\mathrm{e}` are Euler's number unless `e` is declared; `\\pi` is pi, `\\infty` is oo and
  `\\mathrm{i}` the imaginary unit; `aliases` names others (`{"j": "I"}`).
* A declared function followed by brackets is a call (`Q(r)`); with a subscript it is indexed
  (`a_{k+1}` is a(k + 1)); `Q'(r)` is its derivative. A vocabulary function (`\\cos`, `\\ln`,
  `\\operatorname{erf}`, `\\Gamma(...)`) takes its bracketed arguments, or else the one factor after it;
  when more factors follow that one (`\\cos\\beta q^{-1}`) the reading is ambiguous and the encoding's
  `function_argument` says which: "factor" (cos(beta)*q^-1) or "product" (cos(beta*q^-1)).
* `\\sum_{k=a}^{b}`, `\\prod_{k=a}^{b}` and `\\lim_{x \\to a}` (`a^+` from above) apply to the rest of
  their term; `\\int_a^b` to everything up to its differential `dx` (or `\\mathrm{d}x`), across `+` and `-`
  when the integrand is a sum; `\\frac{d}{dx}`, `\\frac{d^2 y}{dx^2}`, `\\frac{\\partial f}{\\partial x}`
  are derivatives (the function differentiated must be declared in `functions`).
* `2.4\\times10^{-5}` is one numeral, whose digits set the rounding of an approximate step; `5\\%` is 5/100.

Whatever cannot be read as one value (`\\dots`, `\\pm`, O(...), a sum with no bounds) is refused with a
code and a message that names the column, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Final

import attrs

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import MAX_DEPTH
from cgx_checks.maths.read.latex import (
    LAccent,
    LArg,
    LAtom,
    LBinomial,
    LBraced,
    LFactor,
    LFont,
    LFraction,
    LGroup,
    LMatrix,
    LNode,
    LPart,
    LRoot,
    LStatement,
    LTerm,
    parse_latex,
)
from cgx_checks.maths.read.names import ACCENTS, GREEK, LATEX_LETTERS, PLAIN_FONTS, compose
from cgx_checks.maths.read.parse import numeral_value
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
from cgx_checks.maths.read.vocabulary import CONSTANTS, FUNCTIONS, resolve_function
from cgx_core.codes import Code
from cgx_core.errors import CgxError

_LATEX_FUNCTIONS: Final[Mapping[str, str]] = {
    "max": "Max",
    "min": "Min",
    "sgn": "sign",
    "Re": "re",
    "Im": "im",
    "E_1": "E1",
    "erf": "erf",
    "erfc": "erfc",
    "tr": "trace",
    "Tr": "trace",
}
"""LaTeX function names that are not the vocabulary's own spelling."""

_CALL_ONLY: Final[Mapping[str, str]] = {"Gamma": "gamma", "delta": "DiracDelta", "Theta": "Heaviside", "zeta": "zeta"}
"""Letters that are a function when brackets follow and they are not declared: \\Gamma(x), \\delta(x)."""

_COMPARISONS: Final = frozenset({"<", "<=", ">", ">=", "=", "!="})

_UNREADABLE: Final[Mapping[str, str]] = {
    **{dots: f"\\{dots} stands for terms the paper does not write" for dots in ("dots", "cdots", "ldots", "vdots")},
    "langle": "\\langle ... \\rangle (an expectation or an inner product) is not a value the check can compute",
    "rangle": "\\langle ... \\rangle (an expectation or an inner product) is not a value the check can compute",
    "nabla": "\\nabla (a vector operator) is not a value the check can compute",
}


class AmbiguousSlash(Exception):
    """`a/b c` read two ways, as trees; the step's reader names both in sympy spelling (`read.step`)."""

    def __init__(self, first: Node, second: Node) -> None:
        super().__init__("a / followed by factors reads two ways")
        self.readings = (first, second)


@attrs.frozen
class Declarations:
    """What the encoding declares, by sympy name: what a LaTeX name may resolve to."""

    symbols: frozenset[str]
    functions: frozenset[str]
    aliases: Mapping[str, str]
    reading: str | None


@attrs.frozen
class Chain:
    """One statement: its parts (read) and the relations between them."""

    parts: tuple[Node, ...]
    relations: tuple[str, ...]


@attrs.frozen
class LayoutChain:
    """One statement, its parts not read yet (a step reads only the two parts it compares)."""

    parts: tuple[LPart, ...]
    relations: tuple[str, ...]


def layout_chains(statements: Sequence[LStatement]) -> list[LayoutChain]:
    """The statements as chains; a statement that starts with a relation (an align's next line, `&= c`)
    continues the one before it."""
    chains: list[LayoutChain] = []
    for statement in statements:
        if statement.continued:
            if not chains:
                raise _invalid(statement.column, "starts with a relation that follows nothing")
            last = chains.pop()
            chains.append(LayoutChain(last.parts + statement.parts, last.relations + statement.relations))
        else:
            chains.append(LayoutChain(statement.parts, statement.relations))
    return chains


def read_part(part: LPart, declarations: Declarations) -> Node:
    """One part of a chain read as maths."""
    return _Reader(declarations).part(part)


def read_chains(statements: Sequence[LStatement], declarations: Declarations) -> list[Chain]:
    """Every statement as a chain of read parts (see `layout_chains`)."""
    reader = _Reader(declarations)
    return [
        Chain(tuple(reader.part(part) for part in chain.parts), chain.relations) for chain in layout_chains(statements)
    ]


def condition_of(chains: Sequence[Chain], column: int) -> Node:
    """Statements read as one condition: each a chain of comparisons, all of which hold (lines of a system
    joined by `\\\\` or `,` hold together)."""
    conditions: list[Node] = []
    for chain in chains:
        if not chain.relations:
            raise _invalid(column, "a condition side must compare (< <= > >= = \\neq) in every statement")
        bad = [relation for relation in chain.relations if relation not in _COMPARISONS]
        if bad:
            raise _invalid(column, f"a condition compares with < <= > >= = \\neq, not {bad[0]}")
        conditions.append(_comparison(chain.parts, chain.relations))
    if len(conditions) == 1:
        return conditions[0]
    return Call("And", tuple(conditions), column, 1 + max(node.depth for node in conditions))


def _comparison(parts: tuple[Node, ...], relations: tuple[str, ...]) -> Comparison:
    return Comparison(parts, relations, column_of(parts[0]), 1 + max(node.depth for node in parts))


class _Reader:
    """Reads layout nodes as maths nodes under one encoding's declarations."""

    def __init__(self, declarations: Declarations) -> None:
        self.declared = declarations
        self.depth = 0

    # -- parts and terms ----------------------------------------------------------------------------

    def part(self, part: LPart) -> Node:
        signs, terms = self._merge_integrals(list(part.signs), list(part.terms))
        read: list[tuple[int, Node]] = []
        for sign, term in zip(signs, terms, strict=True):
            if sign == "pm":
                raise _invalid(
                    term.column,
                    "\\pm stands for two values; check each sign as its own step (give the sides in sympy spelling)",
                )
            read.append((-1 if sign == "-" else 1, self.term(term)))
        if len(read) == 1:
            single_sign, node = read[0]
            return node if single_sign > 0 else Negation(node, node.depth + 1)
        return Sum(tuple(read), 1 + max(node.depth for _, node in read))

    def term(self, term: LTerm) -> Node:
        """A term read as a product; reading nests (an integral's integrand is a term), so the nesting is
        capped here, before it could exhaust Python's stack."""
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise CgxError(
                    Code.EXPRESSION_TOO_LARGE,
                    f"the LaTeX nests more than {MAX_DEPTH} operators, functions or brackets deep at column "
                    f"{term.column}; write it flatter",
                )
            return self._term(term)
        finally:
            self.depth -= 1

    def _term(self, term: LTerm) -> Node:
        factors, operators = list(term.factors), list(term.operators)
        items: list[tuple[int, Node]] = []
        joined: list[bool] = []  # whether each item follows the one before with no operator written
        index = 0
        operator: str | None = None
        while index < len(factors):
            node, following = self._read_from(factors, operators, index)
            items.append((-1 if operator == "/" else 1, node))
            joined.append(bool(index) and operators[index - 1] is None)
            operator = operators[following - 1] if following < len(factors) else None
            index = following
        _check_slash(items, joined)
        return _product(items)

    def _merge_integrals(self, signs: list[str], terms: list[LTerm]) -> tuple[list[str], list[LTerm]]:
        """Join the terms of an integrand written as a sum (`\\int_0^1 x^2 + 1\\,dx`) into one term whose
        integrand is a bracketed sum, so that each integral meets its differential inside one term."""
        merged_signs: list[str] = []
        merged: list[LTerm] = []
        index = 0
        while index < len(terms):
            term = terms[index]
            if self._open_integrals(term.factors) > 0:
                end = index + 1
                while end < len(terms) and self._open_integrals(_joined(terms[index : end + 1])) > 0:
                    end += 1
                if end < len(terms):
                    term = self._integrand_sum(signs[index + 1 : end + 1], terms[index : end + 1])
                    merged_signs.append(signs[index])
                    merged.append(term)
                    index = end + 1
                    continue
            merged_signs.append(signs[index])
            merged.append(term)
            index += 1
        return merged_signs, merged

    def _open_integrals(self, factors: Sequence[LFactor]) -> int:
        opened = 0
        for position, factor in enumerate(factors):
            if _is_bigop(factor, "int"):
                opened += 1
            elif opened and self._differential_at(factors, position) is not None:
                opened -= 1
        return opened

    def _integrand_sum(self, signs: list[str], terms: list[LTerm]) -> LTerm:
        """Terms i..j of a sum whose integral opens in term i and closes in term j, as one term:
        prefix, the integral head, (rest of i + ... + the start of j), the differential, the rest of j."""
        first, last = terms[0], terms[-1]
        head = next(position for position, factor in enumerate(first.factors) if _is_bigop(factor, "int"))
        close = next(
            position
            for position in range(len(last.factors))
            if self._differential_at(last.factors, position) is not None
        )
        pieces: list[LTerm] = []
        rest = first.factors[head + 1 :]
        if rest:
            pieces.append(LTerm(rest, first.operators[head + 1 :], rest[0].column))
        pieces.extend(terms[1:-1])
        start = last.factors[:close]
        if not start or not rest:
            raise _invalid(first.column, "the integrand of the integral is written around a sign the check cannot read")
        pieces.append(LTerm(start, last.operators[: close - 1] if close else (), start[0].column))
        integrand = LPart(("+", *signs), tuple(pieces), pieces[0].column)
        bracket = LFactor(
            LGroup("paren", (LStatement((integrand,), (), False, integrand.column),), integrand.column),
            None,
            None,
            0,
            0,
            integrand.column,
        )
        factors = (*first.factors[: head + 1], bracket, *last.factors[close:])
        operators = (*first.operators[:head], None, None, *last.operators[close:])
        return LTerm(tuple(factors), tuple(operators), first.column)

    # -- one factor, or a factor that takes others (a function, an operator) -------------------------

    def _read_from(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int]:
        factor = factors[start]
        atom = factor.atom
        if isinstance(atom, LAtom) and atom.kind == "bigop":
            return self._big_operator(factors, operators, start)
        if isinstance(atom, LFraction) and (derivative := self._derivative_operator(atom)) is not None:
            variables, numerator = derivative
            if numerator is not None:
                return self._scripted(factor, _derivative(numerator, variables, atom.column)), start + 1
            body = self._rest(factors, operators, start + 1, atom.column, "the derivative")
            return _derivative(body, variables, atom.column), len(factors)
        for reader in (self._scientific, self._percent, self._application, self._letter_run):
            if (found := reader(factors, operators, start)) is not None:
                return found
        return self.factor(factor), start + 1

    def _rest(self, factors: list[LFactor], operators: list[str | None], start: int, column: int, what: str) -> Node:
        if start >= len(factors):
            raise _invalid(column, f"{what} at column {column} applies to nothing")
        if operators[start - 1] is not None:
            raise _invalid(column, f"{what} at column {column} is followed by an operator, not by what it applies to")
        rest = factors[start:]
        return self.term(LTerm(tuple(rest), tuple(operators[start:]), rest[0].column))

    def _scientific(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int] | None:
        """`2.4\\times10^{-5}` (or `\\cdot`): one numeral, written `2.4e-5`, whose digits are the paper's."""
        if start + 1 >= len(factors) or operators[start] != "*":
            return None
        mantissa, power = factors[start], factors[start + 1]
        if not (_plain(mantissa) and isinstance(mantissa.atom, LAtom) and mantissa.atom.kind == "number"):
            return None
        base = power.atom
        if not (isinstance(base, LAtom) and base.text == "10" and power.superscript is not None):
            return None
        if power.subscript is not None or power.primes or power.factorials:
            return None
        exponent = _integer_text(power.superscript)
        if exponent is None:
            return None
        text = f"{mantissa.atom.text}e{exponent}"
        value = numeral_value(text, mantissa.column)
        return Numeral(value.value, text, mantissa.column), start + 2

    def _percent(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int] | None:
        if start + 1 >= len(factors) or operators[start] is not None:
            return None
        number, sign = factors[start], factors[start + 1]
        if not (_plain(number) and isinstance(number.atom, LAtom) and number.atom.kind == "number"):
            return None
        if not (isinstance(sign.atom, LAtom) and sign.atom.kind == "percent"):
            return None
        value = numeral_value(number.atom.text, number.column)
        return Numeral(value.value / 100, f"{number.atom.text}e-2", number.column), start + 2

    def _letter_run(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int] | None:
        """Letters side by side that spell a declared name (`dt`, `Re` when declared), longest first."""
        end = start
        while (
            end < len(factors)
            and isinstance(factors[end].atom, LAtom)
            and factors[end].atom.kind == "letter"  # type: ignore[union-attr]
            and (end == start or operators[end - 1] is None)
        ):
            if end > start and not _plain(factors[end - 1]):
                break
            end += 1
        for stop in range(end, start + 1, -1):
            run = factors[start:stop]
            if any(not _plain(factor) for factor in run[:-1]):
                continue
            word = "".join(GREEK.get(factor.atom.text, factor.atom.text) for factor in run)  # type: ignore[union-attr]
            last = run[-1]
            name = compose(word, (), _subscript_names(last.subscript, last.column), last.primes)
            if name in self.declared.symbols or name in self.declared.functions:
                joined = LFactor(LFont("mathit", (), run[0].column), None, None, 0, 0, run[0].column)
                node = self._name_node(name, run[0].column)
                return self._powered(node, attrs.evolve(joined, superscript=last.superscript)), stop
        return None

    # -- functions ----------------------------------------------------------------------------------

    def _function_of(self, factor: LFactor, followed_by_bracket: bool) -> tuple[str, bool, str] | None:
        """The function a factor names, whether the encoding declares it, and what its subscript is: part
        of its name ("name", also when it has none), its arguments ("index": `a_{k+1}`), or a logarithm's
        base ("base": `\\log_2`). None when the factor is not a function."""
        atom = factor.atom
        word: str | None = None
        if isinstance(atom, LAtom) and atom.kind == "command":
            command = atom.text[1:]
            if command in _UNREADABLE:
                raise _invalid(atom.column, _UNREADABLE[command] + "; give the step in sympy spelling")
            word = command
        elif isinstance(atom, LFont) and atom.font in PLAIN_FONTS:
            word = _word(atom.statements)
        full = self._try_spelled(attrs.evolve(factor, primes=0))
        plain = self._try_spelled(attrs.evolve(factor, subscript=None, primes=0))
        if full is not None and full in self.declared.functions:
            return full, True, "name"
        if factor.subscript is not None and plain is not None and plain in self.declared.functions:
            return plain, True, "index"
        if full is not None and (full in self.declared.symbols or self._try_spelled(factor) in self.declared.symbols):
            return None
        if full is not None and full in self.declared.aliases:
            target = self.declared.aliases[full]
            return (target, False, "name") if target in FUNCTIONS else None
        if full is not None and full in _LATEX_FUNCTIONS and followed_by_bracket and factor.subscript is not None:
            return _LATEX_FUNCTIONS[full], False, "name"
        if word is not None:
            subscript = "base" if factor.subscript is not None else "name"
            if word in _LATEX_FUNCTIONS:
                return _LATEX_FUNCTIONS[word], False, subscript
            resolved = resolve_function(word)
            if resolved is not None and (FUNCTIONS[resolved].kind == "function" or resolved in ("det", "trace")):
                return resolved, False, subscript
            if followed_by_bracket and word in _CALL_ONLY and factor.subscript is None:
                return _CALL_ONLY[word], False, "name"
        return None

    def _try_spelled(self, factor: LFactor) -> str | None:
        try:
            return self._spelled(factor)
        except CgxError:
            return None

    def _application(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int] | None:
        head = factors[start]
        bracket = (
            start + 1 < len(factors)
            and operators[start] is None
            and isinstance(factors[start + 1].atom, LGroup)
            and factors[start + 1].atom.kind == "paren"  # type: ignore[union-attr]
        )
        found = self._function_of(head, bracket)
        if found is None:
            return None
        name, declared, subscript = found
        column = head.column
        if subscript == "index":
            assert head.subscript is not None
            if bracket or head.primes:
                raise _invalid(column, f"{name} at column {column} is indexed and called at once; write one")
            node: Node = _call(name, self._arguments(head.subscript, column), column)
            return self._powered(node, attrs.evolve(head, subscript=None)), start + 1
        if bracket:
            group = factors[start + 1]
            assert isinstance(group.atom, LGroup)
            arguments = tuple(self.value(statement, column) for statement in group.atom.statements)
            if head.primes:
                node = self._primed(name, arguments, head.primes, column)
            else:
                node = _call(name, self._with_base(name, head, subscript, arguments), column)
            node = self._scripted(group, node)
            return self._head_power(head, node), start + 2
        if declared:
            raise _invalid(column, f"{name} is a declared function: write its argument in brackets, {name}(...)")
        if start + 1 >= len(factors) or operators[start] is not None:
            raise _invalid(column, f"the function {name} at column {column} has no argument")
        argument_end = start + 2
        if argument_end < len(factors) and operators[argument_end - 1] is None:
            reading = self.declared.reading
            if reading is None:
                raise CgxError(
                    MathsCode.LATEX_AMBIGUOUS,
                    f"the function {name} at column {column} is written without brackets and more factors follow "
                    f"its argument, so it reads as {name}(a)*b or {name}(a*b); set function_argument to "
                    '"factor" or "product" to say which the paper means',
                )
            if reading == "product":
                while argument_end < len(factors) and operators[argument_end - 1] is None:
                    following = factors[argument_end]
                    if self._function_of(following, False) is not None or _is_bigop(following, None):
                        break
                    argument_end += 1
        argument = self.term(
            LTerm(tuple(factors[start + 1 : argument_end]), tuple(operators[start + 1 : argument_end - 1]), column)
        )
        node = _call(name, self._with_base(name, head, subscript, (argument,)), column)
        return self._head_power(head, node), argument_end

    def _with_base(self, name: str, head: LFactor, subscript: str, arguments: tuple[Node, ...]) -> tuple[Node, ...]:
        if subscript != "base":
            return arguments
        assert head.subscript is not None
        if name == "log" and len(arguments) == 1:
            return (arguments[0], self.arg(head.subscript))
        raise _invalid(head.column, f"the subscript of {name} at column {head.column} cannot be read")

    def _head_power(self, head: LFactor, node: Node) -> Node:
        """`\\sin^2 x` is sin(x)^2; `\\sin^{-1}` (an inverse or a reciprocal?) is refused."""
        if head.superscript is None:
            return node
        exponent = self.arg(head.superscript)
        if isinstance(exponent, Negation):
            raise _invalid(
                head.column,
                f"a function raised to a negative power at column {head.column} reads as an inverse or a "
                "reciprocal; give the step in sympy spelling",
            )
        return Power(node, exponent, head.column, 1 + max(node.depth, exponent.depth))

    def _primed(self, name: str, arguments: tuple[Node, ...], primes: int, column: int) -> Node:
        if len(arguments) != 1 or not isinstance(arguments[0], Name) or arguments[0].constant:
            raise _invalid(
                column,
                f"{name}' is read as the derivative of {name} in its one argument, which must be a declared symbol",
            )
        variable = arguments[0]
        return _derivative(_call(name, arguments, column), ((variable, primes),), column)

    def _arguments(self, subscript: LArg, column: int) -> tuple[Node, ...]:
        if isinstance(subscript, LBraced):
            return tuple(self.value(statement, column) for statement in subscript.statements)
        return (self.arg(subscript),)

    # -- big operators and derivatives ------------------------------------------------------------------

    def _big_operator(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int]:
        head = factors[start]
        assert isinstance(head.atom, LAtom)
        kind, column = head.atom.text, head.column
        if kind in ("sum", "prod"):
            variable, lower = self._index(head.subscript, column, kind)
            if head.superscript is None:
                raise _invalid(column, f"\\{kind} at column {column} has no upper bound; write \\{kind}_{{k=a}}^{{b}}")
            upper = self.arg(head.superscript)
            body = self._rest(factors, operators, start + 1, column, f"\\{kind}")
            bounds = Bounds((variable, lower, upper), column, 1 + max(variable.depth, lower.depth, upper.depth))
            return _call("Sum" if kind == "sum" else "Product", (body, bounds), column), len(factors)
        if kind == "lim":
            return self._limit(factors, operators, start)
        if kind == "int":
            return self._integral(factors, operators, start)
        raise _invalid(column, f"\\{kind} is not read by this check; give the step in sympy spelling")

    def _index(self, subscript: LArg | None, column: int, kind: str) -> tuple[Node, Node]:
        statements = subscript.statements if isinstance(subscript, LBraced) else ()
        if len(statements) != 1 or statements[0].relations != ("=",):
            raise _invalid(
                column,
                f"\\{kind} at column {column} does not give its bounds (\\{kind}_{{k=a}}^{{b}}), so it cannot be "
                "checked as written; give the step in sympy spelling with Sum(f, (k, a, b))",
            )
        variable = self._variable(statements[0].parts[0], f"the index of \\{kind}", column)
        return variable, self.part(statements[0].parts[1])

    def _variable(self, part: LPart, what: str, column: int) -> Name:
        variable = self.part(part)
        if not isinstance(variable, Name) or variable.constant:
            raise _invalid(column, f"{what} at column {column} must be a declared symbol")
        return variable

    def _limit(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int]:
        head = factors[start]
        column = head.column
        statements = head.subscript.statements if isinstance(head.subscript, LBraced) else ()
        if len(statements) != 1 or statements[0].relations != ("to",):
            raise _invalid(column, f"\\lim at column {column} must say where its variable tends: \\lim_{{x \\to a}}")
        variable = self._variable(statements[0].parts[0], "the variable of \\lim", column)
        point_part = statements[0].parts[1]
        direction: Direction | None = None
        last_term = point_part.terms[-1]
        last = last_term.factors[-1]
        if isinstance(last.superscript, LAtom) and last.superscript.kind == "sign":
            direction = Direction("-" if last.superscript.text in ("-", "\u2212") else "+", last.column)
            trimmed = attrs.evolve(last, superscript=None)
            last_term = attrs.evolve(last_term, factors=(*last_term.factors[:-1], trimmed))
            point_part = attrs.evolve(point_part, terms=(*point_part.terms[:-1], last_term))
        point = self.part(point_part)
        body = self._rest(factors, operators, start + 1, column, "\\lim")
        arguments: tuple[Node, ...] = (body, variable, point) + ((direction,) if direction is not None else ())
        return _call("Limit", arguments, column), len(factors)

    def _integral(self, factors: list[LFactor], operators: list[str | None], start: int) -> tuple[Node, int]:
        head = factors[start]
        column = head.column
        depth = 0
        close: int | None = None
        variable: Name | None = None
        for position in range(start + 1, len(factors)):
            if _is_bigop(factors[position], "int"):
                depth += 1
                continue
            found = self._differential_at(factors, position)
            if found is None:
                continue
            if depth:
                depth -= 1
                continue
            close, variable = position, found
            break
        if close is None or variable is None:
            raise _invalid(
                column, f"the integral at column {column} has no differential (dx, \\mathrm{{d}}x) after its integrand"
            )
        if close == start + 1:  # \int dx f(x): the differential first, the integrand after it
            if close + 2 < len(factors):
                integrand = self._rest(factors, operators, close + 2, column, "the integral")
            else:
                integrand = Numeral(Fraction(1), "1", column)
            end = len(factors)
        else:
            integrand = self.term(
                LTerm(tuple(factors[start + 1 : close]), tuple(operators[start + 1 : close - 1]), column)
            )
            end = close + 2
        if head.subscript is None and head.superscript is None:
            return _call("Integral", (integrand, variable), column), end
        if head.subscript is None or head.superscript is None:
            raise _invalid(column, f"the integral at column {column} has one bound; write both, \\int_a^b")
        lower, upper = self.arg(head.subscript), self.arg(head.superscript)
        bounds = Bounds((variable, lower, upper), column, 1 + max(lower.depth, upper.depth, 1))
        return _call("Integral", (integrand, bounds), column), end

    def _differential_at(self, factors: Sequence[LFactor], position: int) -> Name | None:
        """The variable of a differential `d x` (or `\\mathrm{d}x`) starting at `position`, if one does."""
        if position + 1 >= len(factors) or not _is_d(factors[position]):
            return None
        following = factors[position + 1]
        if following.superscript is not None:
            return None
        name = self._spelled(following)
        if name is None or name not in self.declared.symbols:
            return None
        return Name(name, following.column)

    def _derivative_operator(self, fraction: LFraction) -> tuple[tuple[tuple[Name, int], ...], Node | None] | None:
        """`\\frac{d}{dx}` (numerator None: it applies to what follows), `\\frac{dQ}{dr}`, `\\frac{\\partial^2
        f(x, y)}{\\partial x \\partial y}`: the variables with their orders, and what is differentiated."""
        numerator = _term_of(fraction.numerator)
        denominator = _term_of(fraction.denominator)
        if numerator is None or denominator is None or not numerator.factors:
            return None
        marker = numerator.factors[0]
        if not (_is_d(marker) or _is_partial(marker)) or marker.subscript is not None:
            return None
        variables: list[tuple[Name, int]] = []
        index = 0
        denominators = denominator.factors
        while index < len(denominators):
            if not (_is_d(denominators[index]) or _is_partial(denominators[index])) or index + 1 >= len(denominators):
                return None
            variable_factor = denominators[index + 1]
            name = self._spelled(attrs.evolve(variable_factor, superscript=None))
            if name is None or name not in self.declared.symbols:
                return None
            order = 1
            if variable_factor.superscript is not None:
                text = _integer_text(variable_factor.superscript)
                if text is None or int(text) < 1:
                    return None
                order = int(text)
            variables.append((Name(name, variable_factor.column), order))
            index += 2
        if not variables:
            return None
        total = sum(order for _, order in variables)
        if marker.superscript is not None:
            text = _integer_text(marker.superscript)
            if text is None or int(text) != total:
                raise _invalid(
                    fraction.column,
                    f"the derivative at column {fraction.column} has order {text} above and {total} below",
                )
        rest = numerator.factors[1:]
        if not rest:
            return tuple(variables), None
        if len(rest) == 1 and _plain(rest[0]):
            name = self._spelled(rest[0])
            if name is not None and name in self.declared.functions and len(variables) == 1:
                variable = variables[0][0]
                return tuple(variables), _call(name, (variable,), rest[0].column)
            if name is not None and name in self.declared.symbols:
                raise _invalid(
                    fraction.column,
                    f"{name} is a symbol, so its derivative would be 0: declare it in functions to differentiate it",
                )
        body = self.term(LTerm(tuple(rest), numerator.operators[1:], rest[0].column))
        return tuple(variables), body

    # -- single factors --------------------------------------------------------------------------------

    def factor(self, factor: LFactor) -> Node:
        atom = factor.atom
        if isinstance(atom, LFont) and atom.font == "mathcal" and _word(atom.statements) == "O":
            raise _invalid(
                atom.column,
                "O(...) is an order-of-magnitude term, not a value: a step that holds up to it cannot be "
                "checked as written; check its exact part in sympy spelling",
            )
        try:
            name = self._spelled(factor)
        except CgxError as error:  # an index expression: a symbol declared as written, or a sequence
            name = self._spelled(factor, indexed=True)
            if name is None or name not in self.declared.symbols:
                raise CgxError(
                    error.code, f"{error.message}, or declare the symbol as written (\\alpha_{{j-1}})"
                ) from None
        if name is not None:
            node = self._name_node(name, factor.column)
            return self._powered(node, attrs.evolve(factor, subscript=None, primes=0))
        if factor.subscript is not None:
            raise _invalid(factor.column, f"the subscript at column {factor.column} is not part of a name")
        if factor.primes:
            raise _invalid(factor.column, f"the prime at column {factor.column} is not part of a name or function")
        return self._scripted(factor, self.atom(atom))

    def _scripted(self, factor: LFactor, node: Node) -> Node:
        if factor.subscript is not None or factor.primes:
            raise _invalid(factor.column, f"the script at column {factor.column} cannot be read here")
        return self._powered(node, factor)

    def _powered(self, node: Node, factor: LFactor) -> Node:
        if factor.superscript is not None and self._transposed(factor.superscript):
            node = _call("transpose", (node,), factor.column)
        elif factor.superscript is not None:
            exponent = self.arg(factor.superscript)
            node = Power(node, exponent, factor.column, 1 + max(node.depth, exponent.depth))
        for _ in range(factor.factorials):
            node = _call("factorial", (node,), factor.column)
        return node

    def _transposed(self, superscript: LArg) -> bool:
        """Whether a superscript marks a transpose: `^\\top`, `^\\intercal`, or a T (`^T`, `^{\\mathsf{T}}`) that
        is no declared symbol."""
        term = _term_of(superscript)
        if term is None or len(term.factors) != 1 or term.factors[0].superscript or term.factors[0].subscript:
            return False
        atom = term.factors[0].atom
        if isinstance(atom, LAtom) and atom.text in ("\\top", "\\intercal"):
            return True
        letter = atom.text if isinstance(atom, LAtom) and atom.kind == "letter" else None
        if isinstance(atom, LFont) and atom.font in PLAIN_FONTS | {"mathsf"}:
            letter = _word(atom.statements)
        return letter == "T" and "T" not in self.declared.symbols

    def atom(self, atom: LNode) -> Node:
        match atom:
            case LMatrix():
                rows = tuple(tuple(self.part(cell) for cell in row) for row in atom.rows)
                matrix = _call(
                    "Matrix",
                    tuple(Bounds(row, column_of(row[0]), 1 + max(cell.depth for cell in row)) for row in rows),
                    atom.column,
                )
                if atom.kind == "v":
                    return _call("det", (matrix,), atom.column)
                if atom.kind not in ("", "p", "b", "B"):
                    raise _invalid(
                        atom.column, f"the {atom.kind}matrix at column {atom.column} is not read: write \\det"
                    )
                return matrix
            case LAtom(kind="number"):
                return numeral_value(atom.text, atom.column)
            case LAtom(kind="command"):
                return self._command(atom)
            case LAtom():
                raise _invalid(atom.column, f"{atom.text!r} at column {atom.column} cannot be read here")
            case LGroup(kind="absolute"):
                inner = self.value(_single(atom.statements, atom.column), atom.column)
                return _call("Abs", (inner,), atom.column)
            case LGroup():
                if atom.kind == "brace" and not atom.statements:
                    raise _invalid(atom.column, f"empty braces at column {atom.column}")
                return self.value(_single(atom.statements, atom.column), atom.column)
            case LFraction():
                top, bottom = self.arg(atom.numerator), self.arg(atom.denominator)
                return Product(((1, top), (-1, bottom)), 1 + max(top.depth, bottom.depth))
            case LRoot():
                radicand = self.arg(atom.radicand)
                if atom.index is None:
                    return _call("sqrt", (radicand,), atom.column)
                index = self.value(_single(atom.index, atom.column), atom.column)
                return _call("root", (radicand, index), atom.column)
            case LBinomial():
                return _call("binomial", (self.arg(atom.top), self.arg(atom.bottom)), atom.column)
            case LFont() | LAccent():
                raise _invalid(atom.column, f"the font or accent at column {atom.column} does not make a name")

    def _command(self, atom: LAtom) -> Node:
        command = atom.text[1:]
        if command == "infty":
            return Name("oo", atom.column, constant=True)
        if command in _UNREADABLE:
            raise _invalid(atom.column, _UNREADABLE[command] + "; give the step in sympy spelling")
        if command == "partial":
            raise _invalid(atom.column, "\\partial outside a derivative \\frac{\\partial f}{\\partial x}")
        raise _invalid(atom.column, f"\\{command} at column {atom.column} is not maths the check reads")

    def value(self, statement: LStatement, column: int) -> Node:
        """A statement that is one value (an argument, a bracket's content), or a comparison in a condition."""
        (layout,) = layout_chains((statement,))
        chain = Chain(tuple(self.part(part) for part in layout.parts), layout.relations)
        if not chain.relations:
            return chain.parts[0]
        return condition_of((chain,), column)

    def arg(self, arg: LArg) -> Node:
        if isinstance(arg, LBraced):
            return self.value(_single(arg.statements, arg.column), arg.column)
        if arg.kind == "sign":
            raise _invalid(arg.column, f"a sign alone at column {arg.column} is not a value")
        return self.factor(LFactor(arg, None, None, 0, 0, arg.column))

    # -- names -----------------------------------------------------------------------------------------

    def _spelled(self, factor: LFactor, *, indexed: bool = False) -> str | None:
        """The sympy name a factor spells, or None when it is not a name (see `names`); `indexed` reads a
        subscript that is an index expression as part of the name (`\\alpha_{j-1}` is alpha_j_minus_1)."""
        spelled = _base_and_accents(factor.atom)
        if spelled is None:
            return None
        base, accents = spelled
        subscripts = _subscript_names(factor.subscript, factor.column, indexed=indexed)
        return compose(base, accents, subscripts, factor.primes)

    def _name_node(self, name: str, column: int) -> Node:
        if name in self.declared.symbols:
            return Name(name, column)
        if name in self.declared.aliases:
            target = self.declared.aliases[name]
            if target in CONSTANTS:
                return Name(target, column, constant=True)
            raise _invalid(column, f"{name} stands for the function {target}: write its argument in brackets")
        if name in self.declared.functions:
            raise _invalid(column, f"{name} is a declared function: write its argument in brackets, {name}(...)")
        if name in ("e", "e_rm"):
            return Name("E", column, constant=True)
        if name == "pi":
            return Name("pi", column, constant=True)
        if name == "i_rm" or name == "j_rm":
            return Name("I", column, constant=True)
        declared = ", ".join(sorted(self.declared.symbols)) or "none"
        hint = f' (if {name} is the imaginary unit: aliases {{"{name}": "I"}})' if name in ("i", "j") else ""
        raise CgxError(
            ExpressionCode.UNKNOWN_SYMBOL,
            f"{name!r} at column {column} is not a declared symbol (declared, by sympy name: {declared}); "
            f"declare it in symbols, or name a constant in aliases{hint}",
        )


# -- helpers on layout nodes -----------------------------------------------------------------------------


def _product(items: Sequence[tuple[int, Node]]) -> Node:
    if len(items) == 1 and items[0][0] == 1:
        return items[0][1]
    return Product(tuple(items), 1 + max(node.depth for _, node in items))


def _check_slash(items: Sequence[tuple[int, Node]], joined: Sequence[bool]) -> None:
    """Refuse `a/b c` (and `a/bc` where bc is no declared name): a reader may take it as (a/b)*c or as
    a/(b*c), and the paper's LaTeX does not say which. `1/2 x`, a numeral over a numeral, is the fraction 1/2."""
    for position in range(1, len(items) - 1):
        if items[position][0] != -1 or not joined[position + 1]:
            continue
        if isinstance(items[position - 1][1], Numeral) and isinstance(items[position][1], Numeral):
            continue
        end = position + 1
        while end + 1 < len(items) and joined[end + 1]:
            end += 1
        grouped = [
            *items[:position],
            (-1, _product([(1, node) for _, node in items[position : end + 1]])),
            *items[end + 1 :],
        ]
        raise AmbiguousSlash(_product(items), _product(grouped))


def _invalid(column: int, message: str) -> CgxError:
    return CgxError(MathsCode.LATEX_INVALID, f"{message} (column {column})" if "column" not in message else message)


def _call(name: str, arguments: tuple[Node, ...], column: int) -> Call:
    return Call(name, arguments, column, 1 + max(node.depth for node in arguments))


def _derivative(body: Node, variables: Sequence[tuple[Name, int]], column: int) -> Call:
    arguments: list[Node] = [body]
    for variable, order in variables:
        arguments.append(variable)
        if order > 1:
            arguments.append(Numeral(Fraction(order), str(order), column))
    return _call("Derivative", tuple(arguments), column)


def _plain(factor: LFactor) -> bool:
    return factor.subscript is None and factor.superscript is None and not factor.primes and not factor.factorials


def _is_bigop(factor: LFactor, kind: str | None) -> bool:
    atom = factor.atom
    return isinstance(atom, LAtom) and atom.kind == "bigop" and (kind is None or atom.text == kind)


def _is_d(factor: LFactor) -> bool:
    """A differential's d: the letter d or an upright \\mathrm{d} (with an order as superscript at most)."""
    if factor.subscript is not None or factor.primes:
        return False
    atom = factor.atom
    if isinstance(atom, LAtom):
        return atom.kind == "letter" and atom.text == "d"
    return isinstance(atom, LFont) and atom.font in PLAIN_FONTS and _word(atom.statements) == "d"


def _is_partial(factor: LFactor) -> bool:
    return isinstance(factor.atom, LAtom) and factor.atom.kind == "command" and factor.atom.text == "\\partial"


def _lone_term(statements: Sequence[LStatement]) -> tuple[str, LTerm] | None:
    """The one term, with its sign, of statements that write one value of one term (`{-5}`, `{x y}`), or None."""
    if len(statements) != 1 or statements[0].relations or len(statements[0].parts) != 1:
        return None
    part = statements[0].parts[0]
    return (part.signs[0], part.terms[0]) if len(part.terms) == 1 else None


def _term_of(arg: LArg) -> LTerm | None:
    """An argument as one term written with no sign, or None."""
    if isinstance(arg, LAtom):
        return LTerm((LFactor(arg, None, None, 0, 0, arg.column),), (), arg.column)
    found = _lone_term(arg.statements)
    return found[1] if found is not None and found[0] == "+" else None


def _joined(terms: Sequence[LTerm]) -> tuple[LFactor, ...]:
    return tuple(factor for term in terms for factor in term.factors)


def _single(statements: tuple[LStatement, ...], column: int) -> LStatement:
    if len(statements) != 1:
        raise _invalid(column, f"the bracket at column {column} holds several values separated by commas")
    return statements[0]


def _integer_text(arg: LArg) -> str | None:
    """The text of an integer written as a script (`5`, `{-5}`, `{12}`), or None."""
    sign, term = "", _term_of(arg) if isinstance(arg, LAtom) else None
    if isinstance(arg, LBraced) and (found := _lone_term(arg.statements)) is not None:
        sign, term = "-" if found[0] == "-" else "", found[1]
    if term is None or len(term.factors) != 1 or not _plain(term.factors[0]):
        return None
    atom = term.factors[0].atom
    if not (isinstance(atom, LAtom) and atom.kind == "number" and atom.text.isdigit()):
        return None
    return sign + atom.text


def _word(statements: tuple[LStatement, ...]) -> str | None:
    """The letters (and digits) a font command holds, as one word (`\\mathrm{obs}` is obs), or None."""
    found = _lone_term(statements)
    if found is None or found[0] != "+":
        return None
    letters = []
    for factor in found[1].factors:
        atom = factor.atom
        if not _plain(factor) or not isinstance(atom, LAtom) or atom.kind not in ("letter", "number"):
            return None
        letters.append(atom.text)
    return "".join(letters)


def _base_and_accents(atom: LNode) -> tuple[str, tuple[str, ...]] | None:
    """The name and accent suffixes an atom spells (`\\hat{\\mu}` is mu with hat), or None."""
    if isinstance(atom, LAtom):
        if atom.kind == "letter":
            return GREEK.get(atom.text, atom.text), ()
        if atom.kind == "command" and atom.text[1:] in LATEX_LETTERS:
            return LATEX_LETTERS[atom.text[1:]], ()
        return None
    if isinstance(atom, LAccent):
        inner = atom.base if isinstance(atom.base, LAtom) else _only_atom(atom.base)
        found = _base_and_accents(inner) if inner is not None else None
        if found is None:
            return None
        return found[0], (*found[1], ACCENTS[atom.accent])
    if isinstance(atom, LFont):
        if atom.font in PLAIN_FONTS:
            word = _word(atom.statements)
            if word is None:
                return None
            if word in ("e", "i", "j", "d"):
                return word + "_rm", ()
            return word, ()
        if atom.font in ACCENTS:
            inner_atom = _only_atom(LBraced(atom.statements, atom.column))
            found = _base_and_accents(inner_atom) if inner_atom is not None else None
            if found is None:
                word = _word(atom.statements)
                return (word, (ACCENTS[atom.font],)) if word else None
            return found[0], (*found[1], ACCENTS[atom.font])
    return None


def _only_atom(braced: LBraced) -> LNode | None:
    term = _term_of(braced)
    if term is None or len(term.factors) != 1 or not _plain(term.factors[0]):
        return None
    return term.factors[0].atom


def _subscript_names(subscript: LArg | None, column: int, *, indexed: bool = False) -> tuple[str, ...]:
    """A subscript as parts of a name (`{\\mathrm{obs},i}` is obs and i; `{n_a}` is n_a), or () for none.

    A subscript that is not made of names and numbers (`x_{k+1}`) cannot be part of a name: it indexes a
    sequence, which the encoding declares as a function."""
    if subscript is None:
        return ()
    if isinstance(subscript, LAtom):
        found = _base_and_accents(subscript)
        if found is not None:
            return (compose(found[0], found[1], (), 0),)
        if subscript.kind == "number":
            return (subscript.text,)
        raise _invalid(column, f"the subscript at column {column} is not a name")
    names: list[str] = []
    for statement in subscript.statements:
        term = _term_of(LBraced((statement,), subscript.column))
        index = _index_words(statement) if indexed and term is None else None
        if index is not None:
            names.append(index)
            continue
        if term is None:
            raise CgxError(
                MathsCode.LATEX_INVALID,
                f"the subscript at column {column} is an expression: declare the sequence in functions to read "
                "x_{k+1} as x(k + 1)",
            )
        word: list[str] = []
        for factor in term.factors:
            found = _base_and_accents(factor.atom)
            if found is not None:
                word.append(compose(found[0], found[1], _subscript_names(factor.subscript, column), factor.primes))
            elif isinstance(factor.atom, LAtom) and factor.atom.kind == "number" and _plain(factor):
                word.append(factor.atom.text)
            else:
                raise _invalid(column, f"the subscript at column {column} is not a name")
        names.append("".join(word) if all(len(part) == 1 for part in word) else "_".join(word))
    return tuple(names)


def _index_words(statement: LStatement) -> str | None:
    """An index expression of letters and numbers (`j-1`, `2k+1`) as words of a name (`j_minus_1`,
    `2k_plus_1`), or None for anything else."""
    if statement.relations or len(statement.parts) != 1:
        return None
    part = statement.parts[0]
    words: list[str] = []
    for sign, term in zip(part.signs, part.terms, strict=True):
        if any(operator is not None for operator in term.operators) or not all(_plain(item) for item in term.factors):
            return None
        texts = [item.atom.text for item in term.factors if isinstance(item.atom, LAtom)]
        if len(texts) != len(term.factors) or any(text.startswith("\\") for text in texts):
            return None
        if words or sign != "+":
            words.append({"+": "plus", "-": "minus"}.get(sign, ""))
        words.append("".join(texts))
    return "_".join(word for word in words if word) if all(words) else None


def name_of(spelling: str) -> str | None:
    """The sympy name of a name written in LaTeX (`\\bar{x}`, `x_{\\mathrm{obs},i}`, `\\hat{\\mu}'`), or
    None when the text is not one name."""
    try:
        statements = parse_latex(spelling, "the name")
    except CgxError:
        return None
    found = _lone_term(statements)
    if found is None or found[0] != "+" or len(found[1].factors) != 1:
        return None
    factor = found[1].factors[0]
    if factor.superscript is not None or factor.factorials:
        return None
    try:
        return _Reader(Declarations(frozenset(), frozenset(), {}, None))._spelled(factor, indexed=True)
    except CgxError:
        return None
