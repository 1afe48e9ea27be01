"""What a side would cost sympy, read off the parse tree before sympy builds anything, and what it is.

Each node gets a `Shape`: its degree, the exact value of a rational constant, the size of the numbers
sympy would compute and the number of terms its expansion would have. The degree of a power is the base's
degree times the exponent, so `x^10^10` is refused (`degree-too-large`) without computing 10^10 terms,
and `10^10^10` (`result-too-large`) without computing a number of ten billion digits. Names are resolved
here too: an undeclared symbol, a function outside the fixed set (with the nearest allowed name), a
literal division by zero, a misplaced bound or condition are refused with their column. Every estimate
errs on the large side. `read.step` shapes both sides of a step when it reads them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import (
    EXPAND_BITS,
    EXPAND_COMPLEX_DEGREE,
    EXPAND_RADICAND_BITS,
    EXPAND_TERMS,
    MAX_ARGUMENTS,
    MAX_DEGREE,
    MAX_DERIVATIVE_ORDER,
    MAX_MATRIX_POWER,
    MAX_MATRIX_SIZE,
    MAX_NAME_CHARS,
    MAX_NUMBER_BITS,
    MAX_RADICAND_BITS,
    SATURATE,
)
from cgx_checks.maths.read.encoding import Encoding
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
from cgx_checks.maths.read.vocabulary import CONSTANTS, FUNCTIONS, TRUTH_VALUES, nearest, resolve_function
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
    condition: bool = False
    """Whether it is a condition (a comparison, And, Or, Not, Eq, Ne, True, False), not a value."""
    calculus: bool = False
    """Whether it holds an Integral, Derivative, Limit, Sum or Product."""
    undefined: bool = False
    """Whether it calls a function the encoding declares (undefined: no number can be put in it)."""
    matrix: tuple[int, int] | None = None
    """Its rows and columns when it is a matrix (a side never is: it ends in det, trace or entry)."""
    growing: bool = False
    """Whether it applies factorial, gamma or binomial to a constant whose size the estimates do not know
    (factorial(floor(exp(100)))): sympy would compute it exactly, at a cost no estimate bounds, so such a
    step is never called small (the worker's budget bounds it)."""

    @property
    def step_degree(self) -> int:
        """The degree that counts against `limits.MAX_DEGREE`."""
        return max(self.degree, self.inner)


def free_names(node: Node) -> frozenset[str]:
    """The declared symbols a side depends on: those outside the variables a definite integral, a sum,
    a product or a limit binds."""
    match node:
        case Name():
            return frozenset() if node.constant else frozenset({node.name})
        case Numeral() | Direction():
            return frozenset()
        case Negation():
            return free_names(node.operand)
        case Sum():
            return frozenset().union(*(free_names(term) for _, term in node.terms))
        case Product():
            return frozenset().union(*(free_names(factor) for _, factor in node.factors))
        case Power():
            return free_names(node.base) | free_names(node.exponent)
        case Bounds():
            return frozenset().union(*(free_names(item) for item in node.items))
        case Comparison():
            return frozenset().union(*(free_names(operand) for operand in node.operands))
        case Call():
            if node.name in ("Limit", "Subs") and len(node.arguments) >= 3:
                variable = free_names(node.arguments[1])
                return (free_names(node.arguments[0]) - variable) | free_names(node.arguments[2])
            if node.name in ("Integral", "Sum", "Product"):
                names = free_names(node.arguments[0])
                for spec in node.arguments[1:]:
                    if isinstance(spec, Bounds) and len(spec.items) == 3:
                        names = (
                            (names - free_names(spec.items[0])) | free_names(spec.items[1]) | free_names(spec.items[2])
                        )
                    else:
                        names = names | free_names(spec)
                return names
            return frozenset().union(*(free_names(argument) for argument in node.arguments))


def shape_of(tree: Node, encoding: Encoding) -> Shape:
    """The structural estimates of a side under the encoding's declarations, or CgxError at the first
    cap it breaks, an undeclared name or a misplaced part (with its column)."""
    return _Shaper(encoding).shape(tree)


def small(shape: Shape) -> bool:
    """Whether a side is small enough to expand quickly (see `limits.EXPAND_TERMS` and the next caps)."""
    return (
        max(shape.terms, shape.inner_terms) <= EXPAND_TERMS
        and shape.bits <= EXPAND_BITS
        and shape.radicand_total <= EXPAND_RADICAND_BITS
        and shape.complex_parts <= EXPAND_COMPLEX_DEGREE
        and not shape.growing
    )


def _carried(shapes: Sequence[Shape]) -> dict[str, Any]:
    """What a node carries up from its parts whatever it is: the radicand bits added, the symbols, and
    whether any part calls log, splits into complex parts, uses calculus, may be undefined or grows."""
    return {
        "radicand_total": sum(shape.radicand_total for shape in shapes),
        "symbols": frozenset().union(*(shape.symbols for shape in shapes)),
        "has_log": any(shape.has_log for shape in shapes),
        "complex_parts": max(shape.complex_parts for shape in shapes),
        "calculus": any(shape.calculus for shape in shapes),
        "undefined": any(shape.undefined for shape in shapes),
        "growing": any(shape.growing for shape in shapes),
    }


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
                inner = self._value(self.shape(node.operand), column_of(node.operand), matrix=True)
                value = None if inner.value is None else -inner.value
                return attrs.evolve(inner, value=value)
            case Sum():
                shapes = [
                    self._signed(sign, self._value(self.shape(term), column_of(term), matrix=True))
                    for sign, term in node.terms
                ]
                sizes = {shape.matrix for shape in shapes}
                if len(sizes) > 1:
                    raise _invalid(
                        f"the sum at column {column_of(node)} adds terms of different sizes ({_sizes(sizes)})"
                    )
                return attrs.evolve(_sum(shapes), matrix=shapes[0].matrix)
            case Product():
                return self._product(node)
            case Power():
                base = self._value(self.shape(node.base), node.column, matrix=True)
                exponent = self._value(self.shape(node.exponent), node.column)
                if base.matrix is not None:
                    return _matrix_power(base, exponent, node.column)
                return _power(base, exponent, node.column)
            case Call():
                return self._call(node)
            case Comparison():
                shapes = [self._value(self.shape(operand), column_of(operand)) for operand in node.operands]
                return attrs.evolve(_sum(shapes), value=None, condition=True)
            case Bounds():
                raise _invalid(f"the bounds at column {node.column} belong in Integral, Sum or Product, as (x, a, b)")
            case Direction():
                raise _invalid(f"a direction ('+' or '-') at column {node.column} is the fourth argument of Limit only")

    @staticmethod
    def _value(shape: Shape, column: int, *, matrix: bool = False) -> Shape:
        if shape.condition:
            raise _invalid(
                f"the condition at column {column} is not a value: compare only values, and join conditions "
                "with And, Or and Not"
            )
        if shape.matrix is not None and not matrix:
            raise _invalid(
                f"the matrix at column {column} stands where a number must: take its det, trace or entry(M, i, j)"
            )
        return shape

    @staticmethod
    def _signed(sign: int, shape: Shape) -> Shape:
        return shape if sign > 0 or shape.value is None else attrs.evolve(shape, value=-shape.value)

    def _name(self, node: Name) -> Shape:
        if node.constant:
            return _atom(frozenset())
        if node.name in self.encoding.names:
            return _atom(frozenset({node.name}))
        aliases = dict(self.encoding.aliases)
        if node.name in CONSTANTS or aliases.get(node.name) in CONSTANTS:
            return _atom(frozenset())
        if node.name in TRUTH_VALUES:
            return attrs.evolve(_atom(frozenset()), condition=True, degree=0)
        if node.name in self.encoding.functions or resolve_function(aliases.get(node.name, node.name)):
            raise _invalid(f"{node.name} at column {node.column} is a function: call it, as in {node.name}(x)")
        declared = ", ".join(sorted(self.encoding.names)) or "none"
        raise CgxError(
            ExpressionCode.UNKNOWN_SYMBOL,
            f"{node.name[:MAX_NAME_CHARS]!r} at column {node.column} is not a declared symbol (declared, by sympy "
            f"name: {declared}) nor a constant ({', '.join(CONSTANTS)}); declare it in symbols",
        )

    def _product(self, node: Product) -> Shape:
        shapes = []
        size: tuple[int, int] | None = None
        for operator, factor in node.factors:
            shape = self._value(self.shape(factor), column_of(factor), matrix=operator > 0)
            if operator < 0 and shape.value == 0:
                raise CgxError(ExpressionCode.DIVISION_BY_ZERO, f"the divisor at column {column_of(factor)} is zero")
            if shape.matrix is not None:
                if size is not None and size[1] != shape.matrix[0]:
                    raise _invalid(
                        f"the product at column {column_of(factor)} multiplies a {_sizes({size})} matrix by a "
                        f"{_sizes({shape.matrix})} one"
                    )
                size = shape.matrix if size is None else (size[0], shape.matrix[1])
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
                ExpressionCode.RESULT_TOO_LARGE,
                f"the product at column {column_of(node)} takes roots of numerals of {radicands} bits in all, "
                f"which sympy would factor; at most {MAX_RADICAND_BITS}",
            )
        terms = 1
        for shape in multiplied:
            terms = min(terms * shape.terms, SATURATE)
        all_shapes = [shape for _, shape in shapes]
        if size is not None:  # each entry of a matrix product sums products along the inner sizes
            inner_sizes = math.prod(shape.matrix[0] for _, shape in shapes if shape.matrix is not None)
            terms = min(terms * inner_sizes, SATURATE)
        product = _checked(
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
                **_carried(all_shapes),
            ),
            column_of(node),
        )
        return attrs.evolve(product, matrix=size)

    def _call(self, node: Call) -> Shape:
        function = self.encoding.function(node.name)
        if function is None:
            raise self._unknown_function(node)
        kind, name = function
        if kind == "declared":
            if len(node.arguments) > MAX_ARGUMENTS:
                raise _invalid(
                    f"{node.name} at column {node.column} takes {len(node.arguments)} arguments; "
                    f"at most {MAX_ARGUMENTS}"
                )
            arguments = [self._value(self.shape(argument), column_of(argument)) for argument in node.arguments]
            return attrs.evolve(_call_shape(arguments, node.column, False), undefined=True)
        if node.name in self.encoding.names:
            raise _invalid(
                f"{node.name} at column {node.column} is a declared symbol and the vocabulary's function {name}: "
                f"write {node.name}*(...) for a product, or rename the symbol to call the function"
            )
        counts = FUNCTIONS[name].arities
        if len(node.arguments) not in counts:
            shown = " or ".join(str(count) for count in counts)
            raise _invalid(
                f"{node.name} at column {node.column} takes {shown} argument(s), not {len(node.arguments)}: "
                f"{FUNCTIONS[name].meaning}"
            )
        if FUNCTIONS[name].kind == "calculus":
            return self._calculus(name, node)
        if FUNCTIONS[name].kind == "condition":
            return self._logic(name, node)
        if FUNCTIONS[name].kind == "matrix":
            return self._matrix(name, node)
        arguments = [self._value(self.shape(argument), column_of(argument)) for argument in node.arguments]
        if name == "sqrt":
            return _power(arguments[0], _numeral(_HALF), node.column)
        if name == "exp":
            return _power(_atom(frozenset()), arguments[0], node.column)
        if name in _GROWING:
            return _growing(name, arguments, node.column)
        if name == "log" and len(arguments) == 2 and arguments[1].value == 1:
            raise CgxError(
                ExpressionCode.DIVISION_BY_ZERO,
                f"log at column {node.column} is to base 1, which divides by log(1) = 0",
            )
        return _call_shape(arguments, node.column, name in _COMPLEX_PARTS, name == "log")

    def _unknown_function(self, node: Call) -> CgxError:
        if node.name in self.encoding.names:
            return CgxError(
                ExpressionCode.UNKNOWN_FUNCTION,
                f"{node.name} at column {node.column} is a symbol, not a function: write {node.name}*(...) for a "
                "product, or declare a function in functions",
            )
        suggestion = nearest(node.name, [*FUNCTIONS, *self.encoding.functions])
        hint = f"; did you mean {suggestion}?" if suggestion else ""
        return CgxError(
            ExpressionCode.UNKNOWN_FUNCTION,
            f"{node.name[:MAX_NAME_CHARS]}() at column {node.column} is not a function of the vocabulary nor a "
            f"declared one{hint} (declare an undefined function such as Q(r) in functions)",
        )

    def _bound_variable(self, node: Node, what: str, column: int) -> None:
        if not isinstance(node, Name) or node.constant or node.name not in self.encoding.names:
            raise _invalid(f"the variable of {what} at column {column} must be a declared symbol")

    def _calculus(self, name: str, node: Call) -> Shape:
        column = node.column
        body = self._value(self.shape(node.arguments[0]), column_of(node.arguments[0]))
        shapes = [body]
        specs = node.arguments[1:]
        if name in ("Limit", "Subs"):
            self._bound_variable(specs[0], name, column)
            shapes.append(self._value(self.shape(specs[1]), column))
            if len(specs) == 3 and not isinstance(specs[2], Direction):
                raise _invalid(f"the fourth argument of Limit at column {column} is '+' or '-'")
            return attrs.evolve(_call_shape(shapes, column, False), calculus=True)
        order = 0
        index = 0
        while index < len(specs):
            spec = specs[index]
            if isinstance(spec, Bounds):
                if name == "Derivative":
                    if len(spec.items) != 2:
                        raise _invalid(f"a derivative's (x, n) at column {column} has two items")
                    self._bound_variable(spec.items[0], name, column)
                    order += self._order(spec.items[1], column)
                else:
                    if len(spec.items) != 3:
                        raise _invalid(
                            f"the bounds of {name} at column {column} are (x, a, b): the variable and two limits"
                        )
                    self._bound_variable(spec.items[0], name, column)
                    shapes.extend(self._value(self.shape(item), column) for item in spec.items[1:])
            elif isinstance(spec, Name) and name in ("Integral", "Derivative"):
                self._bound_variable(spec, name, column)
                if name == "Derivative":
                    if index + 1 < len(specs) and isinstance(specs[index + 1], Numeral):
                        order += self._order(specs[index + 1], column)
                        index += 1
                    else:
                        order += 1
            else:
                wanted = "(k, a, b)" if name in ("Sum", "Product") else "x or (x, a, b)"
                raise _invalid(f"{name} at column {column} takes {wanted} after its expression")
            index += 1
        if order > MAX_DERIVATIVE_ORDER:
            raise CgxError(
                Code.EXPRESSION_TOO_LARGE,
                f"the derivative at column {column} has order {order}; at most {MAX_DERIVATIVE_ORDER}",
            )
        return attrs.evolve(_call_shape(shapes, column, False), calculus=True)

    def _matrix(self, name: str, node: Call) -> Shape:
        """Matrix([[...], ...]) and what takes one: det, trace, transpose, inverse, entry(M, i, j)."""
        column = node.column
        if name == "Matrix":
            lines = [row.items if isinstance(row, Bounds) else (row,) for row in node.arguments]
            size = (len(lines), len(lines[0]))
            if any(len(row) != size[1] for row in lines) or max(size) > MAX_MATRIX_SIZE:
                raise _invalid(
                    f"the Matrix at column {column} has rows of different lengths or more than {MAX_MATRIX_SIZE} rows "
                    "or columns: write Matrix([[a, b], [c, d]])"
                )
            entries = [self._value(self.shape(item), column_of(item)) for row in lines for item in row]
            return attrs.evolve(_sum(entries), value=None, terms=max(entry.terms for entry in entries), matrix=size)
        matrix = self._value(self.shape(node.arguments[0]), column, matrix=True)
        if matrix.matrix is None:
            raise _invalid(f"{name} at column {column} takes a Matrix, not a number")
        rows, columns = matrix.matrix
        if name == "transpose":
            return attrs.evolve(matrix, matrix=(columns, rows))
        if name == "entry":
            indices = [self._value(self.shape(item), column).value for item in node.arguments[1:]]
            if not all(
                index is not None and index.denominator == 1 and 1 <= index <= bound
                for index, bound in zip(indices, (rows, columns), strict=True)
            ):
                raise _invalid(
                    f"entry at column {column} takes a row from 1 to {rows} and a column from 1 to {columns}"
                )
            return attrs.evolve(matrix, matrix=None)
        if rows != columns:
            raise _invalid(f"{name} at column {column} takes a square matrix")
        if name == "trace":
            return attrs.evolve(matrix, matrix=None, terms=min(matrix.terms * rows, SATURATE))
        expanded = _matrix_power(matrix, _numeral(Fraction(-1 if name == "inverse" else rows)), column)
        return attrs.evolve(expanded, matrix=matrix.matrix if name == "inverse" else None)

    @staticmethod
    def _order(node: Node, column: int) -> int:
        if not isinstance(node, Numeral) or node.value.denominator != 1 or node.value < 1:
            raise _invalid(f"a derivative's order at column {column} is a positive whole number")
        return min(int(node.value), MAX_DERIVATIVE_ORDER + 1)

    def _logic(self, name: str, node: Call) -> Shape:
        shapes = [self.shape(argument) for argument in node.arguments]
        if name in ("Eq", "Ne"):
            for shape, argument in zip(shapes, node.arguments, strict=True):
                self._value(shape, column_of(argument))
        else:
            for shape, argument in zip(shapes, node.arguments, strict=True):
                if not shape.condition:
                    raise _invalid(
                        f"{name} at column {node.column} joins conditions (comparisons such as x > 0); its argument "
                        f"at column {column_of(argument)} is a value"
                    )
        merged = _sum([attrs.evolve(shape, condition=False) for shape in shapes])
        return attrs.evolve(merged, value=None, condition=True)


_GROWING = frozenset({"factorial", "gamma", "binomial", "loggamma", "polygamma", "zeta"})
"""Functions sympy evaluates exactly at an integer, with a result as large as the integer makes it."""


def _growing(name: str, arguments: list[Shape], column: int) -> Shape:
    """The shape of factorial, gamma, binomial and the like: refused when an argument it knows is too large;
    with its exact value when sympy would compute one (factorial(5) is 120, so factorial(factorial(99)) is
    refused like factorial of any 156-digit number); `growing` when a constant argument's size is unknown."""
    _check_growth(name, arguments, column)
    shape = _call_shape(arguments, column, False)
    known = [argument.value for argument in arguments]
    value: Fraction | None = None
    if all(item is not None and item.denominator == 1 and item >= 0 for item in known):
        whole = [int(item) for item in known if item is not None]
        if name == "factorial":
            value = Fraction(math.factorial(whole[0]))
        elif name == "gamma" and whole[0] > 0:
            value = Fraction(math.factorial(whole[0] - 1))
        elif name == "binomial":
            value = Fraction(math.comb(whole[0], whole[1]))
    unknown = any(not argument.symbols and argument.value is None for argument in arguments)
    if value is not None:
        return attrs.evolve(_numeral(value), growing=shape.growing)
    return attrs.evolve(shape, growing=shape.growing or unknown)


def _check_growth(name: str, arguments: list[Shape], column: int) -> None:
    """Refuse factorial(10^300) and the like before sympy computes a number of 10^302 bits: an integer
    argument n of factorial or gamma makes about n*log2(n) bits, of binomial about n."""
    for shape in arguments:
        if shape.value is None or abs(shape.value) < 2:
            continue
        size = abs(shape.value)
        bits = size * max(size.numerator.bit_length() - size.denominator.bit_length(), 1)
        if bits > MAX_NUMBER_BITS:
            raise CgxError(
                ExpressionCode.RESULT_TOO_LARGE,
                f"{name} at column {column} of a number as large as {_shown(size)} would make sympy compute a "
                f"number of about {_shown(bits)} bits; at most {MAX_NUMBER_BITS}",
            )


def _shown(value: Fraction) -> str:
    """A large positive number to 3 digits, past a float's range too (`factorial(factorial(170))`'s bits)."""
    digits = len(str(value.numerator // value.denominator))
    if digits < 300:
        return f"{float(value):.3g}"
    return f"1e{digits - 1}"


def _call_shape(arguments: list[Shape], column: int, complex_part: bool, is_log: bool = False) -> Shape:
    """A call of a function: degree 1 itself, its arguments' sizes inside it; the argument of a complex part
    (`complex_part`) counts its degree against `EXPAND_COMPLEX_DEGREE`."""
    carried = _carried(arguments)
    carried["has_log"] = is_log or carried["has_log"]
    if complex_part:
        carried["complex_parts"] = max(carried["complex_parts"], *(shape.step_degree for shape in arguments))
    return _checked(
        Shape(
            degree=1,
            inner=max(max(shape.degree, shape.inner) for shape in arguments),
            value=None,
            bits=max(shape.bits for shape in arguments),
            radicands=0,
            terms=1,
            inner_terms=max(max(shape.terms, shape.inner_terms) for shape in arguments),
            **carried,
        ),
        column,
    )


def _matrix_power(base: Shape, exponent: Shape, column: int) -> Shape:
    """A square matrix to an integer power (-1 its inverse), or the estimate of an n x n determinant (the power
    n stands for it): each entry's degree and terms grow as the entries of a product of |power|, and an inverse's
    or a determinant's as n! products of n entries."""
    assert base.matrix is not None
    rows, columns = base.matrix
    power = exponent.value
    if rows != columns or power is None or power.denominator != 1 or not 0 < abs(power) <= MAX_MATRIX_POWER:
        raise _invalid(
            f"the power at column {column} raises a matrix: it must be square and the exponent a whole number "
            f"from -{MAX_MATRIX_POWER} to {MAX_MATRIX_POWER}, not 0 (-1 is its inverse)"
        )
    times = rows if power < 0 else int(power)
    terms = base.terms**times * (math.factorial(rows) if power < 0 else rows ** (times - 1))
    return _checked(
        attrs.evolve(
            base,
            degree=min(base.degree * times * (2 if power < 0 else 1), SATURATE),
            terms=min(terms, SATURATE),
            bits=min(base.bits * times, SATURATE),
        ),
        column,
    )


def _sizes(sizes: set[tuple[int, int] | None]) -> str:
    return ", ".join(sorted("a number" if size is None else f"{size[0]} x {size[1]}" for size in sizes))


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
            **_carried(shapes),
        ),
        None,
    )


def _power(base: Shape, exponent: Shape, column: int) -> Shape:
    """The shape of base^exponent, refusing before anything is computed when it would be too large.

    A shape with a value (a rational constant) carries nothing (no symbol, log, calculus...), so what a power
    of one carries is its base's."""
    if exponent.value is None:
        return _symbolic_power(base, exponent, column)
    power = exponent.value
    whole = -(-abs(power.numerator) // power.denominator)  # ceil(|power|)
    if base.value is not None:
        if base.value == 0 and power < 0:
            raise CgxError(
                ExpressionCode.DIVISION_BY_ZERO, f"the power at column {column} raises 0 to a negative exponent"
            )
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
                ExpressionCode.RESULT_TOO_LARGE,
                f"the root at column {column} is of a numeral of {base.bits} bits, which sympy would factor; "
                f"at most {MAX_RADICAND_BITS}",
            )
        return Shape(1, 0, None, bits, base.bits, 1, 1, base.bits, frozenset(), False)
    degree = min(base.degree * whole, SATURATE)
    if degree > MAX_DEGREE:
        raise CgxError(
            MathsCode.DEGREE_TOO_LARGE,
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
            **_carried([base, exponent]),
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
    exponent_bits = exponent.bits * multiplier if exponent.has_log else exponent.bits
    if not base.symbols:
        base_bits = base.bits * multiplier if base.value is not None else base.bits
        return _checked(
            Shape(
                degree=1,
                inner=inner,
                value=None,
                bits=max(base_bits, exponent_bits),
                radicands=0,
                terms=1,
                inner_terms=inner_terms,
                **_carried([base, exponent]),
            ),
            column,
        )
    degree = min(base.degree * multiplier, SATURATE)
    if degree > MAX_DEGREE:
        raise CgxError(
            MathsCode.DEGREE_TOO_LARGE,
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
            **_carried([base, exponent]),
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
            ExpressionCode.RESULT_TOO_LARGE,
            f"the expression{where} would make sympy compute a number of about {bits} bits; at most {MAX_NUMBER_BITS}",
        )


def _invalid(message: str) -> CgxError:
    return CgxError(Code.EXPRESSION_INVALID, message)
