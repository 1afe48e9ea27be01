"""What a side would cost sympy, read off the parse tree before sympy builds anything.

Each node gets a `Shape`: its degree, the exact value of a rational constant, the size of the numbers
sympy would compute and the number of terms its expansion would have. The degree of a power is the base's
degree times the exponent, so `x^10^10` is refused (`degree-too-large`) without computing 10^10 terms,
and `10^10^10` (`result-too-large`) without computing a number of ten billion digits. Names are resolved
here too: an undeclared symbol, a function outside the fixed set, a literal division by zero are refused
with their column. Every estimate errs on the large side.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from cgx_checks.maths.encoding import Encoding, load_encoding
from cgx_checks.maths.limits import (
    EXPAND_BITS,
    EXPAND_COMPLEX_DEGREE,
    EXPAND_RADICAND_BITS,
    EXPAND_TERMS,
    MAX_DEGREE,
    MAX_NAME_CHARS,
    MAX_NUMBER_BITS,
    MAX_RADICAND_BITS,
    SATURATE,
)
from cgx_checks.maths.parse import parse_side
from cgx_checks.maths.tree import Call, Name, Negation, Node, Numeral, Power, Product, Sum, column_of
from cgx_checks.maths.vocabulary import CONSTANTS, FUNCTIONS
from cgx_core.codes import Code
from cgx_core.errors import CgxError

_HALF = Fraction(1, 2)
_COMPLEX_PARTS = frozenset({"re", "im", "arg", "Abs", "sign", "conjugate"})


@attrs.frozen
class Shape:
    """The structural estimates of one node (every count saturates at `limits.SATURATE`)."""

    degree: int
    """Its degree as a polynomial in its symbols, constants and calls (a call counts 1)."""
    inner: int
    """The largest degree inside it: in a call's arguments or a non-constant exponent."""
    value: Fraction | None
    """Its exact value when it is a rational constant, else None."""
    bits: int
    """An upper bound on the bit size of the numbers sympy builds for it, expanded or not."""
    radicands: int
    """The bits of the numerals under roots that sympy may merge into one radicand here."""
    terms: int
    """The number of terms of its expansion."""
    inner_terms: int
    """The largest number of terms of an expansion inside it (a call's argument, a root's base)."""
    radicand_total: int
    """The bits of every numeral under a root anywhere in it, added up."""
    symbols: frozenset[str]
    """The declared symbols it uses."""
    has_log: bool
    """Whether it calls log (exp(n*log(b)) is b^n to sympy, a number as large as n makes it)."""
    complex_parts: int = 0
    """The largest degree of an argument of re, im, arg, Abs, sign or conjugate, which sympy splits
    into real and imaginary parts by expanding it (re((x+I)**300) takes seconds)."""

    @property
    def step_degree(self) -> int:
        """The degree that counts against `limits.MAX_DEGREE`."""
        return max(self.degree, self.inner)


@attrs.frozen
class ParsedStep:
    """A maths step whose sides parsed and passed every structural cap; nothing of sympy built yet."""

    encoding: Encoding
    lhs: Node
    rhs: Node
    lhs_shape: Shape
    rhs_shape: Shape

    @property
    def degree(self) -> int:
        """The step's structural degree (at most `limits.MAX_DEGREE`)."""
        return max(self.lhs_shape.step_degree, self.rhs_shape.step_degree)

    @property
    def symbols(self) -> frozenset[str]:
        """The declared symbols the two sides use."""
        return self.lhs_shape.symbols | self.rhs_shape.symbols


def parse_step(raw: object) -> ParsedStep:
    """Validate an encoding and parse and check both sides, or raise CgxError with a stable code.

    Codes: proposal-invalid (the JSON), expression-invalid (with the column), expression-too-large,
    unknown-symbol, unknown-function, division-by-zero, result-too-large, degree-too-large.
    """
    encoding = load_encoding(raw)
    trees = {}
    shapes = {}
    for side, text in (("lhs", encoding.lhs), ("rhs", encoding.rhs)):
        tree = parse_side(text, side)
        try:
            shape = _Shaper(encoding).shape(tree)
        except CgxError as error:
            raise CgxError(error.code, f"{side}: {error.message}") from None
        if shape.step_degree > MAX_DEGREE:
            raise CgxError(Code.DEGREE_TOO_LARGE, f"{side} has degree {shape.step_degree}; at most {MAX_DEGREE}")
        trees[side], shapes[side] = tree, shape
    step = ParsedStep(encoding, trees["lhs"], trees["rhs"], shapes["lhs"], shapes["rhs"])
    if step.degree > MAX_DEGREE:
        raise CgxError(Code.DEGREE_TOO_LARGE, f"the step has degree {step.degree}; at most {MAX_DEGREE}")
    return step


def expandable(step: ParsedStep) -> bool:
    """Whether both sides are small enough to expand quickly (see `limits.EXPAND_TERMS` and the next caps).

    `observation_key` expands only such steps, in the caller's process; `decide` tries its witnesses
    before expanding a step that is not.
    """
    return all(_small(shape) for shape in (step.lhs_shape, step.rhs_shape))


def _small(shape: Shape) -> bool:
    return (
        max(shape.terms, shape.inner_terms) <= EXPAND_TERMS
        and shape.bits <= EXPAND_BITS
        and shape.radicand_total <= EXPAND_RADICAND_BITS
        and shape.complex_parts <= EXPAND_COMPLEX_DEGREE
    )


@attrs.frozen
class _Shaper:
    encoding: Encoding

    def shape(self, node: Node) -> Shape:
        match node:
            case Numeral():
                return _numeral(node.value)
            case Name():
                return self._name(node)
            case Negation():
                inner = self.shape(node.operand)
                value = None if inner.value is None else -inner.value
                return attrs.evolve(inner, value=value)
            case Sum():
                return _sum([self._signed(sign, self.shape(term)) for sign, term in node.terms])
            case Product():
                return self._product(node)
            case Power():
                return _power(self.shape(node.base), self.shape(node.exponent), node.column)
            case Call():
                return self._call(node)

    @staticmethod
    def _signed(sign: int, shape: Shape) -> Shape:
        return shape if sign > 0 or shape.value is None else attrs.evolve(shape, value=-shape.value)

    def _name(self, node: Name) -> Shape:
        if node.name in self.encoding.names:
            return _atom(frozenset({node.name}))
        if node.name in CONSTANTS:
            return _atom(frozenset())
        if node.name in FUNCTIONS:
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{node.name} at column {node.column} is a function: call it, as in {node.name}(x)",
            )
        declared = ", ".join(sorted(self.encoding.names)) or "none"
        raise CgxError(
            Code.UNKNOWN_SYMBOL,
            f"{node.name[:MAX_NAME_CHARS]!r} at column {node.column} is not a declared symbol (declared: {declared}) "
            f"nor a constant ({', '.join(CONSTANTS)}); declare it in symbols",
        )

    def _product(self, node: Product) -> Shape:
        shapes = []
        for operator, factor in node.factors:
            shape = self.shape(factor)
            if operator < 0 and shape.value == 0:
                raise CgxError(Code.DIVISION_BY_ZERO, f"the divisor at column {column_of(factor)} is zero")
            shapes.append((operator, shape))
        _check_bits(sum(shape.bits for _, shape in shapes), column_of(node))
        value: Fraction | None = Fraction(1)
        for operator, shape in shapes:
            value = None if value is None or shape.value is None else value * shape.value**operator
        multiplied = [shape for operator, shape in shapes if operator > 0]
        divisors = [shape for operator, shape in shapes if operator < 0]
        radicands = sum(shape.radicands for _, shape in shapes)
        if radicands > MAX_RADICAND_BITS:
            raise CgxError(
                Code.RESULT_TOO_LARGE,
                f"the product at column {column_of(node)} takes roots of numerals of {radicands} bits in all, "
                f"which sympy would factor; at most {MAX_RADICAND_BITS}",
            )
        terms = 1
        for shape in multiplied:
            terms = min(terms * shape.terms, SATURATE)
        all_shapes = [shape for _, shape in shapes]
        return _checked(
            Shape(
                degree=min(sum(shape.degree for shape in all_shapes), SATURATE),
                inner=max(shape.inner for shape in all_shapes),
                value=value,
                bits=sum(shape.bits for shape in all_shapes),
                radicands=radicands,
                terms=terms,
                inner_terms=max(
                    [shape.inner_terms for shape in all_shapes] + [shape.terms for shape in divisors],
                ),
                radicand_total=sum(shape.radicand_total for shape in all_shapes),
                symbols=frozenset().union(*(shape.symbols for shape in all_shapes)),
                has_log=any(shape.has_log for shape in all_shapes),
                complex_parts=max(shape.complex_parts for shape in all_shapes),
            ),
            column_of(node),
        )

    def _call(self, node: Call) -> Shape:
        if node.name not in FUNCTIONS:
            if node.name in self.encoding.names:
                raise CgxError(
                    Code.UNKNOWN_FUNCTION,
                    f"{node.name} at column {node.column} is a symbol, not a function: "
                    f"write {node.name}*(...) for a product",
                )
            raise CgxError(
                Code.UNKNOWN_FUNCTION,
                f"{node.name[:MAX_NAME_CHARS]}() at column {node.column} is not one of the functions "
                f"{', '.join(FUNCTIONS)}",
            )
        if len(node.arguments) not in FUNCTIONS[node.name]:
            counts = " or ".join(str(count) for count in FUNCTIONS[node.name])
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{node.name} at column {node.column} takes {counts} argument(s), not {len(node.arguments)}",
            )
        arguments = [self.shape(argument) for argument in node.arguments]
        if node.name == "sqrt":
            return _power(arguments[0], _numeral(_HALF), node.column)
        if node.name == "exp":
            return _power(_atom(frozenset()), arguments[0], node.column)
        if node.name == "log" and len(arguments) == 2 and arguments[1].value == 1:
            raise CgxError(
                Code.DIVISION_BY_ZERO, f"log at column {node.column} is to base 1, which divides by log(1) = 0"
            )
        return _checked(
            Shape(
                degree=1,
                inner=max(max(shape.degree, shape.inner) for shape in arguments),
                value=None,
                bits=max(shape.bits for shape in arguments),
                radicands=0,
                terms=1,
                inner_terms=max(max(shape.terms, shape.inner_terms) for shape in arguments),
                radicand_total=sum(shape.radicand_total for shape in arguments),
                symbols=frozenset().union(*(shape.symbols for shape in arguments)),
                has_log=node.name == "log" or any(shape.has_log for shape in arguments),
                complex_parts=max(
                    max(shape.complex_parts, shape.step_degree if node.name in _COMPLEX_PARTS else 0)
                    for shape in arguments
                ),
            ),
            node.column,
        )


def _numeral(value: Fraction) -> Shape:
    bits = max(value.numerator.bit_length(), value.denominator.bit_length(), 1)
    return Shape(0, 0, value, bits, 0, 1, 1, 0, frozenset(), False)


def _atom(symbols: frozenset[str]) -> Shape:
    """A symbol or a constant (I, pi, E): degree 1, so its powers count against the degree cap."""
    return Shape(1, 0, None, 0, 0, 1, 1, 0, symbols, False)


def _sum(shapes: list[Shape]) -> Shape:
    value: Fraction | None = Fraction(0)
    for shape in shapes:
        value = None if value is None or shape.value is None else value + shape.value
    bits = max(shape.bits for shape in shapes) + len(shapes).bit_length()
    if value is not None:  # the denominators of a sum of fractions multiply: measure the value itself
        bits = max(bits, _numeral(value).bits)
    return _checked(
        Shape(
            degree=max(shape.degree for shape in shapes),
            inner=max(shape.inner for shape in shapes),
            value=value,
            bits=bits,
            radicands=max(shape.radicands for shape in shapes),
            terms=min(sum(shape.terms for shape in shapes), SATURATE),
            inner_terms=max(shape.inner_terms for shape in shapes),
            radicand_total=sum(shape.radicand_total for shape in shapes),
            symbols=frozenset().union(*(shape.symbols for shape in shapes)),
            has_log=any(shape.has_log for shape in shapes),
            complex_parts=max(shape.complex_parts for shape in shapes),
        ),
        None,
    )


def _power(base: Shape, exponent: Shape, column: int) -> Shape:
    """The shape of base^exponent, refusing before anything is computed when it would be too large."""
    symbols = base.symbols | exponent.symbols
    has_log = base.has_log or exponent.has_log
    if exponent.value is None:
        return _symbolic_power(base, exponent, column)
    power = exponent.value
    whole = -(-abs(power.numerator) // power.denominator)  # ceil(|power|)
    if base.value is not None:
        if base.value == 0 and power < 0:
            raise CgxError(Code.DIVISION_BY_ZERO, f"the power at column {column} raises 0 to a negative exponent")
        if abs(base.value) <= 1 and base.value.denominator == 1 and power.denominator == 1:
            # 0, 1 and -1 to an integer power: no number grows, however large the exponent.
            value = base.value ** (power.numerator % 2 or (2 if power.numerator else 0))
            return attrs.evolve(_numeral(value), bits=max(base.bits, exponent.bits))
        bits = base.bits * max(whole, 1)
        _check_bits(bits, column)
        if power.denominator == 1:
            value = base.value**power.numerator if power.numerator >= 0 else 1 / base.value**-power.numerator
            return attrs.evolve(_numeral(value), bits=max(bits, 1))
        if base.bits > MAX_RADICAND_BITS:
            raise CgxError(
                Code.RESULT_TOO_LARGE,
                f"the root at column {column} is of a numeral of {base.bits} bits, which sympy would factor; "
                f"at most {MAX_RADICAND_BITS}",
            )
        return Shape(1, 0, None, bits, base.bits, 1, 1, base.bits, symbols, has_log)
    degree = min(base.degree * whole, SATURATE)
    if degree > MAX_DEGREE:
        raise CgxError(
            Code.DEGREE_TOO_LARGE,
            f"the power at column {column} has degree {base.degree} x {whole}; at most {MAX_DEGREE}",
        )
    integer = power.denominator == 1
    return _checked(
        Shape(
            degree=degree,
            inner=base.inner,
            value=None,
            bits=base.bits * max(whole, 1) + exponent.bits,
            radicands=base.radicands,
            terms=_multinomial(base.terms, abs(power.numerator)) if integer else 1,
            inner_terms=base.inner_terms if integer else max(base.inner_terms, base.terms),
            radicand_total=base.radicand_total,
            symbols=symbols,
            has_log=has_log,
            complex_parts=base.complex_parts,
        ),
        column,
    )


def _symbolic_power(base: Shape, exponent: Shape, column: int) -> Shape:
    """base^exponent for an exponent that is not a rational constant (x^y, E^(I*b), exp(n*log(2))).

    sympy splits a sum in the exponent (b^(y+n) is b^y * b^n) and turns exp(n*log(b)) into b^n, so the
    numbers in the exponent, as large as 2^bits, can become a degree or a number's size.
    """
    multiplier = 1 + 2 ** min(exponent.bits, 62)
    inner = max(base.inner, exponent.degree, exponent.inner)
    inner_terms = max(base.inner_terms, exponent.terms, exponent.inner_terms)
    symbols = base.symbols | exponent.symbols
    has_log = base.has_log or exponent.has_log
    exponent_bits = exponent.bits * multiplier if exponent.has_log else exponent.bits
    if not base.symbols:
        base_bits = base.bits * multiplier if base.value is not None else base.bits
        return _checked(
            Shape(
                1,
                inner,
                None,
                max(base_bits, exponent_bits),
                0,
                1,
                inner_terms,
                base.radicand_total + exponent.radicand_total,
                symbols,
                has_log,
                max(base.complex_parts, exponent.complex_parts),
            ),
            column,
        )
    degree = min(base.degree * multiplier, SATURATE)
    if degree > MAX_DEGREE:
        raise CgxError(
            Code.DEGREE_TOO_LARGE,
            f"the power at column {column} has an exponent that may reach {multiplier - 1}, "
            f"so degree up to {degree}; at most {MAX_DEGREE}",
        )
    return _checked(
        Shape(
            degree=degree,
            inner=inner,
            value=None,
            bits=max(base.bits * multiplier, exponent_bits),
            radicands=base.radicands,
            terms=_multinomial(base.terms, multiplier - 1) if base.terms > 1 else 1,
            inner_terms=inner_terms,
            radicand_total=base.radicand_total + exponent.radicand_total,
            symbols=symbols,
            has_log=has_log,
            complex_parts=max(base.complex_parts, exponent.complex_parts),
        ),
        column,
    )


def _multinomial(terms: int, power: int) -> int:
    """The number of terms of (t_1 + ... + t_terms)^power expanded: C(terms + power - 1, power), saturated."""
    if terms <= 1 or power == 0:
        return 1
    count = 1
    for index in range(1, power + 1):
        count = count * (terms + index - 1) // index
        if count >= SATURATE:
            return SATURATE
    return count


def _checked(shape: Shape, column: int | None) -> Shape:
    _check_bits(shape.bits, column)
    return shape


def _check_bits(bits: int, column: int | None) -> None:
    if bits > MAX_NUMBER_BITS:
        where = f" at column {column}" if column else ""
        raise CgxError(
            Code.RESULT_TOO_LARGE,
            f"the expression{where} would make sympy compute a number of about {bits} bits; at most {MAX_NUMBER_BITS}",
        )
