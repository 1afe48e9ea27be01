"""A maths step read from its encoding: its two sides parsed, shaped and checked against every cap.

`parse_step` is the proposal-time check, in the caller's process: the sides come from `lhs`/`rhs`
(sympy spelling, `read.parse`) or from the paper's LaTeX (`read.latex`, `read.latex_read`), and each is
shaped (`read.shape`) and refused over a cap, building nothing of sympy. A step whose two sides are the
same as written is refused (`step-trivial`: its check could not fail), and a side that is a number the
paper reports (`2.4e-5`, or any number across `\\approx`) is marked, so that the decision compares the
other side with it to the rounding of its digits.

The `ParsedStep` is what crosses the pipe to the maths worker (pickled): the worker never parses, so
lark and the grammars are imported in the caller's process only (the readers are imported when a step
is read, not with this module).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.limits import MAX_DEGREE, MAX_DEPTH
from cgx_checks.maths.read.canonical import canonical_text
from cgx_checks.maths.read.encoding import Encoding, load_encoding
from cgx_checks.maths.read.shape import Shape, free_names, shape_of, small
from cgx_checks.maths.read.tree import Negation, Node, Numeral
from cgx_core.codes import Code
from cgx_core.errors import CgxError

type Relation = Literal["=", "approx"]


@attrs.frozen
class ParsedStep:
    """A maths step whose sides parsed and passed every structural cap; nothing of sympy built yet."""

    encoding: Encoding
    lhs: Node
    rhs: Node
    lhs_shape: Shape
    rhs_shape: Shape
    relation: Relation = "="
    """The relation the step asserts: equality, or \\approx (to the reported digits)."""
    reported: Literal["lhs", "rhs"] | None = None
    """The side that is a number the paper reports with limited digits, when the other side is a constant:
    the decision then allows the rounding of those digits (an approximate pass)."""

    @property
    def degree(self) -> int:
        """The step's structural degree (at most `limits.MAX_DEGREE`)."""
        return max(self.lhs_shape.step_degree, self.rhs_shape.step_degree)

    @property
    def symbols(self) -> frozenset[str]:
        """The declared symbols the two sides use."""
        return self.lhs_shape.symbols | self.rhs_shape.symbols

    @property
    def condition(self) -> bool:
        """Whether the sides are conditions, the step saying they hold for the same values."""
        return self.lhs_shape.condition

    @property
    def calculus(self) -> bool:
        """Whether a side holds an integral, derivative, limit, sum or product."""
        return self.lhs_shape.calculus or self.rhs_shape.calculus

    @property
    def undefined(self) -> bool:
        """Whether a side calls a declared (undefined) function."""
        return self.lhs_shape.undefined or self.rhs_shape.undefined


def parse_step(raw: object) -> ParsedStep:
    """Validate an encoding and read, parse and check both sides, or raise CgxError with a stable code.

    Codes: proposal-invalid (the JSON), expression-invalid (with the column), latex-invalid,
    latex-ambiguous, expression-too-large, unknown-symbol, unknown-function, division-by-zero,
    result-too-large, degree-too-large, step-trivial, approximation-not-numeric.
    """
    if isinstance(raw, ParsedStep):
        return raw
    encoding = load_encoding(raw)
    trees, relation = step_sides(encoding)
    shapes = {}
    for side, tree in trees.items():
        if tree.depth > MAX_DEPTH:
            raise CgxError(
                Code.EXPRESSION_TOO_LARGE,
                f"{side} nests {tree.depth} levels deep (powers of powers, calls inside calls); at most {MAX_DEPTH}",
            )
        try:
            shape = shape_of(tree, encoding)
        except CgxError as error:
            raise CgxError(error.code, f"{side}: {error.message}") from None
        if shape.step_degree > MAX_DEGREE:
            raise CgxError(MathsCode.DEGREE_TOO_LARGE, f"{side} has degree {shape.step_degree}; at most {MAX_DEGREE}")
        if shape.matrix is not None:
            raise CgxError(
                Code.EXPRESSION_INVALID,
                f"{side} is a {shape.matrix[0]} x {shape.matrix[1]} matrix; a step equates numbers: check its det, its "
                "trace, or each entry(M, i, j) as a step of its own",
            )
        shapes[side] = shape
    if shapes["lhs"].condition != shapes["rhs"].condition:
        condition, value = ("lhs", "rhs") if shapes["lhs"].condition else ("rhs", "lhs")
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"{condition} is a condition (it compares) and {value} a value; a step equates two values or says two "
            "conditions hold for the same values (write True for a condition that always holds)",
        )
    if canonical_text(trees["lhs"], encoding.names) == canonical_text(trees["rhs"], encoding.names):
        raise CgxError(
            MathsCode.STEP_TRIVIAL,
            "the two sides are the same expression as written, so the check could not fail and would be no evidence",
        )
    step = ParsedStep(encoding, trees["lhs"], trees["rhs"], shapes["lhs"], shapes["rhs"], relation)
    return attrs.evolve(step, reported=_reported(step))


def step_sides(encoding: Encoding) -> tuple[dict[str, Node], Relation]:
    """The trees of the two sides, from sympy spelling or the paper's LaTeX, and the relation between them."""
    from cgx_checks.maths.read.parse import parse_side  # lark: the caller's process only (the worker gets parsed steps)

    if encoding.latex is None:
        assert encoding.lhs is not None and encoding.rhs is not None
        return {"lhs": parse_side(encoding.lhs, "lhs"), "rhs": parse_side(encoding.rhs, "rhs")}, "="
    from cgx_checks.maths.read.latex_read import AmbiguousSlash

    try:
        return _latex_sides(encoding)
    except AmbiguousSlash as ambiguous:
        from cgx_checks.maths.read.spelling import spelled

        first, second = (spelled(reading, encoding.names) for reading in ambiguous.readings)
        raise CgxError(
            MathsCode.LATEX_AMBIGUOUS,
            f"a / followed by factors with no operator between them reads two ways, {first} or {second}, and the "
            "LaTeX does not say which; give this side in sympy spelling (lhs or rhs) as the paper means it",
        ) from None


def _latex_sides(encoding: Encoding) -> tuple[dict[str, Node], Relation]:
    """The sides of a step whose LaTeX gives both, or one beside lhs or rhs."""
    from cgx_checks.maths.read.latex import parse_latex
    from cgx_checks.maths.read.latex_read import Declarations, condition_of, layout_chains, read_chains, read_part
    from cgx_checks.maths.read.parse import parse_side

    declarations = Declarations(
        encoding.names, frozenset(encoding.functions), dict(encoding.aliases), encoding.function_argument
    )
    assert encoding.latex is not None
    statements = parse_latex(encoding.latex)
    if encoding.split is None:
        layout = layout_chains(statements)
        if any(chain.relations for chain in layout) and all(
            relation in ("=", "approx") for chain in layout for relation in chain.relations
        ):
            given = "lhs" if encoding.lhs is not None else "rhs"
            raise CgxError(
                MathsCode.LATEX_INVALID,
                f"latex is a relation (=), so it gives both sides: leave out {given} and give split (1 for its "
                "first relation); latex beside lhs or rhs is one side, a value or an inequality",
            )
        chains = read_chains(statements, declarations)
        if any(chain.relations for chain in chains):
            latex_side = condition_of(chains, 1)
        elif len(chains) == 1:
            latex_side = chains[0].parts[0]
        else:
            raise CgxError(MathsCode.LATEX_INVALID, "latex holds several values separated by commas; give one side")
        if encoding.lhs is not None:
            return {"lhs": parse_side(encoding.lhs, "lhs"), "rhs": latex_side}, "="
        assert encoding.rhs is not None
        return {"lhs": latex_side, "rhs": parse_side(encoding.rhs, "rhs")}, "="
    layout = layout_chains(statements)
    relations = [(chain, index) for chain in layout for index in range(len(chain.relations))]
    if encoding.split > len(relations):
        raise CgxError(
            Code.PROPOSAL_INVALID,
            f"the maths encoding is invalid: split is {encoding.split}, and latex has {len(relations)} "
            "relation(s) @ $.split",
        )
    chain, index = relations[encoding.split - 1]
    relation = chain.relations[index]
    if relation not in ("=", "approx"):
        shown = {"to": "\\to", "sim": "\\sim", "propto": "\\propto"}.get(relation, relation)
        raise CgxError(
            MathsCode.LATEX_INVALID,
            f"relation {encoding.split} of latex is {shown}, not = or \\approx: a step equates two sides; give an "
            "inequality as a condition side (latex without split) against True or the condition it claims",
        )
    sides = {"lhs": read_part(chain.parts[index], declarations), "rhs": read_part(chain.parts[index + 1], declarations)}
    return sides, "=" if relation == "=" else "approx"


def reported_numeral(node: Node) -> tuple[Fraction, str] | None:
    """The value and digits of a side that is a number as the paper writes it (`2.4e-5`, `-0.33`), or None."""
    if isinstance(node, Negation) and isinstance(node.operand, Numeral):
        return -node.operand.value, node.operand.text
    if isinstance(node, Numeral):
        return node.value, node.text
    return None


def _reported(step: ParsedStep) -> Literal["lhs", "rhs"] | None:
    """Which side is a reported number to be read with its rounding, if the step is approximate."""
    if step.condition:
        if step.relation == "approx":
            raise CgxError(MathsCode.APPROXIMATION_NOT_NUMERIC, "a condition cannot be approximate")
        return None
    found: list[tuple[Fraction, Literal["lhs", "rhs"]]] = []
    for side, node, other in (("lhs", step.lhs, step.rhs), ("rhs", step.rhs, step.lhs)):
        numeral = reported_numeral(node)
        if numeral is None or free_names(other):
            continue
        text = numeral[1]
        if step.relation == "=" and not any(mark in text for mark in ".eE"):
            continue  # an integer in an equality is exact
        found.append((half_unit(text, lenient=step.relation == "approx"), side))  # type: ignore[arg-type]
    if not found:
        if step.relation == "approx":
            raise CgxError(
                MathsCode.APPROXIMATION_NOT_NUMERIC,
                "an approximate step (\\approx) is checked against a number the paper reports, whose digits set the "
                "rounding; here neither side is such a number with the other a constant",
            )
        return None
    return max(found)[1]


def half_unit(text: str, *, lenient: bool = False) -> Fraction:
    """Half a unit of the last digit a numeral writes: 2.4e-5 is +- 5e-7, 0.330 is +- 0.0005, 12 is +- 0.5.

    `lenient` (an \\approx step) does not count an integer's trailing zeros (300 is +- 50), as a reader
    of "about 300" does not."""
    mantissa, _, exponent = text.lower().partition("e")
    scale = int(exponent) if exponent else 0
    whole, _, fraction = mantissa.partition(".")
    places = len(fraction)
    if lenient and not fraction:
        stripped = whole.rstrip("0")
        scale += len(whole) - len(stripped) if stripped else 0
    return Fraction(1, 2) * Fraction(10) ** (scale - places)


def expandable(step: ParsedStep) -> bool:
    """Whether both sides are small enough to expand quickly (see `limits.EXPAND_TERMS` and the next caps).

    `worker.observation` expands only such steps; `worker.decide` tries its witnesses before expanding a step
    that is not.
    """
    return all(small(shape) for shape in (step.lhs_shape, step.rhs_shape))
