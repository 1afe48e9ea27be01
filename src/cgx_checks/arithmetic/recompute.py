"""The recompute-numbers check, pure: an expression over the cited chunks' numerals against a reported one.

The agent proposes; this code decides. Every numeral of the expression must be a numeral of the cited
chunks (compared by exact value, sign ignored since a sign is an operator; a numeral with a unit must be
written with that unit), and the reported result must be a numeral those chunks report (compared by its
canonical written form, because its digits set the rounding). The expression is evaluated exactly and
compared with the relation the text writes before the result (`cgx_core.numbers.relations`):

* `=` (nothing written): within the rounding the reported digits imply, |value - expected| <= half_unit,
  so 350 is 350 +- 0.5 and 0.35 is 0.35 +- 0.005;
* `<`, `<=`, `>`, `>=`: the inequality, exactly ("less than 2%": value < 0.02);
* `~` (a hedge: "approximately 2 days"): |value - expected| <= tolerance * |expected|, with the relative
  tolerance the run's tolerance table declares for that phrase (the rubric author's, never the agent's).

With units, each numeral is converted to the base units exactly (pint, `units.py`) and the value is
compared in the reported unit. A counting unit the rubric declares (`counts`, "120 C") is read in the texts,
the expression and the result alike, and is a dimension of its own (`units.py`). A value that is irrational
(pi, sqrt(2), ln) is enclosed in exact rational bounds and decided at the lowest precision of
`interval.PRECISIONS` that decides it; that precision is recorded. An expression that is only the reported
numeral (`30` against `30`) recomputes nothing and is refused (`expression-is-result`).

Every problem of a proposal is named at once (`ProposalProblems`). The same inputs give the same
`Recomputation` and the same JSON, byte for byte, on every machine, which is what lets `verify` run the
check again from its recorded inputs. A plain `=` check without units writes exactly the record it wrote
before relations and units existed, so older runs verify unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

import attrs

from cgx_checks.arithmetic.cited import CitedTexts, read_cited, unit_doubts, where_written
from cgx_checks.arithmetic.constants import constants_json
from cgx_checks.arithmetic.decimals import decimal_text
from cgx_checks.arithmetic.evaluate import Measured, evaluate, evaluate_pair, measure, printed_numeral
from cgx_checks.arithmetic.grim import GRIM_ARGUMENTS, certificate
from cgx_checks.arithmetic.interval import PRECISIONS, Arithmetic, Interval, Undecided, exact
from cgx_checks.arithmetic.parse import literal_numeral, parse_expression
from cgx_checks.arithmetic.predicate_check import (
    PredicateCheck,
    Problem,
    brief,
    calendar_problems,
    counts_json,
    decide_predicate,
    license_problems,
    percentage_problems,
    physical_constants,
    precision_text,
    predicate_result,
    premises_fix,
    present,
    repeat_problems,
    rounding_problems,
)
from cgx_checks.arithmetic.predicates import CALENDAR, ROUNDINGS, agent_arguments, compare, is_truth
from cgx_checks.arithmetic.printed import (
    PVALUES,
    Printed,
    Range,
    decide_range,
    decision_error,
    middle,
    printed_arguments,
    printed_range,
    range_text,
)
from cgx_checks.arithmetic.relation_words import word_meaning
from cgx_checks.arithmetic.tree import (
    Call,
    Node,
    bind_rows,
    is_plain,
    literals,
    map_literals,
    render,
    table_rows,
    walk,
)
from cgx_checks.arithmetic.tree import Literal as LiteralNode
from cgx_checks.arithmetic.units import Dimension, dimension_text, library_version, unit_dimension, unit_scale
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import Numeral, Occurrence, Unit, fraction_text, read_quantity, read_text
from cgx_core.numbers.columns import unit_unknown
from cgx_core.numbers.counts import counting
from cgx_core.numbers.enumeration import without_labels
from cgx_core.numbers.relations import RELATIONS

type Outcome = Literal["passed", "failed"]

DECIMAL_DIGITS = 40
"""Significant digits of the decimals in a record."""

DETAIL_DIGITS = 20
"""Significant digits of the value in the one-line detail."""

_LISTED = 60  # numerals listed in a refusal before "and N more"
_WHERE = 5  # chunks named as writing a missing numeral


class ProposalProblems(CgxError):
    """Every problem of one proposal at once: `code` is the first one's, `codes` all of them in order, and
    `fixes` the fix each problem that has one of its own names (code, fix), in order."""

    def __init__(self, problems: Sequence[Problem], listing: str) -> None:
        self.codes = tuple(dict.fromkeys(problem[0] for problem in problems))
        self.fixes = tuple(dict.fromkeys((problem[0], problem[2]) for problem in problems if len(problem) == 3))
        super().__init__(problems[0][0], "; ".join(problem[1] for problem in problems) + "; " + listing)


@attrs.frozen
class Chunk:
    """A chunk of the run, searched for the numerals a proposal needs but does not cite."""

    id: str
    unit: str | None
    text: str


@attrs.frozen
class Recomputation:
    """What a recompute-numbers check computed and decided."""

    expression: str
    """The expression as parsed, written back canonically (single spaces, needed parentheses only)."""
    operands: tuple[str, ...]
    """The numerals of the expression, left to right, in canonical written form."""
    result: str
    """The reported numeral, in canonical written form (a numeral of the cited chunks)."""
    value: Fraction
    """The exact value of the expression (in the reported unit); for an irrational value, the middle of
    its enclosure at `precision` bits."""
    expected: Fraction
    """The exact value of the reported numeral."""
    half_unit: Fraction
    """Half of one unit of the reported numeral's last digit: the rounding it implies."""
    outcome: Outcome
    detail: str
    """One line for a person, e.g. `(6.2 - 2.2) / 0.01 + 1 = 401, reported 400 +- 0.5: failed`."""
    relation: str = "="
    """The relation the text writes before the result: = < <= > >= or ~ (a hedge)."""
    hedge: str | None = None
    """The hedge phrase, for `~`."""
    tolerance: Fraction | None = None
    """The relative tolerance the run's table declares for the hedge, for `~`."""
    unit: str | None = None
    """The reported unit (canonical), when the result has one; value and expected are in it."""
    precision: int | None = None
    """The bits of precision that decided an irrational value (None for an exact one)."""
    library: str | None = None
    """The units library and its version, when units were converted."""
    counts: tuple[tuple[str, str, int], ...] = ()
    """Each `rows(t-N)` and `items(s-N)` of the expression with its count (function, chunk, count), in order."""
    relations: tuple[tuple[str, str], ...] = ()
    """Each relation of a count()'s conditions with the word of the text it stands for."""
    constants: tuple[str, ...] = ()
    """The physical constants of the expression, by CODATA name (recorded with their values and source)."""
    dimensions: tuple[str, str] | None = None
    """For a failure by dimensions: the expression's dimension and the reported result's."""
    printed: tuple[Fraction, Fraction] | None = None
    """For a reported statistic that fails as written: the least and most values its printed numerals give."""
    decision_error: bool = False
    """Whether a failed p-value is a decision error (reported significant at .05 and not, or the reverse)."""

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (keys sorted, fractions as `p/q`, decimals as strings)."""
        record: dict[str, Any] = {
            "detail": self.detail,
            "expected": fraction_text(self.expected),
            "expected_decimal": decimal_text(self.expected, DECIMAL_DIGITS),
            "expression": self.expression,
            "half_unit": fraction_text(self.half_unit),
            "half_unit_decimal": decimal_text(self.half_unit, DECIMAL_DIGITS),
            "operands": list(self.operands),
            "outcome": self.outcome,
            "result": self.result,
            "value": fraction_text(self.value),
            "value_decimal": decimal_text(self.value, DECIMAL_DIGITS),
        }
        if self.hedge is not None and self.tolerance is not None:
            record |= {"hedge": self.hedge, "tolerance": fraction_text(self.tolerance)}
        dimensions, printed = self.dimensions, self.printed
        record |= counts_json(self.counts) | present(
            {
                "relation": None if self.relation == "=" else self.relation,
                "unit": self.unit,
                "precision_bits": self.precision,
                "units_library": self.library,
                "relations": dict(self.relations) or None,
                "constants": constants_json(self.constants) if self.constants else None,
                "dimensions": None if dimensions is None else {"expression": dimensions[0], "result": dimensions[1]},
                "printed_range": None if printed is None else [decimal_text(end, DECIMAL_DIGITS) for end in printed],
                "decision_error": self.decision_error or None,
            }
        )
        return dict(sorted(record.items()))


@attrs.frozen
class _Reported:
    """The reported result and how the text writes it."""

    numeral: Numeral
    unit: Unit | None
    relation: str
    hedge: str | None
    tolerance: Fraction | None


def recompute(
    expression: str,
    result: str,
    texts: Sequence[str],
    *,
    relation: str | None = None,
    tolerances: Mapping[str, Fraction] | None = None,
    chunks: Iterable[Chunk] = (),
    rows: Mapping[str, int] | None = None,
    columns: Sequence[str] = (),
    items: Mapping[str, int | None] | None = None,
    cols: Mapping[str, int | None] | None = None,
    counts: Mapping[str, str] | None = None,
    premised: bool = False,
    ids: Sequence[str] = (),
) -> Recomputation | PredicateCheck:
    """Run the check on an expression, the reported result and the texts of the chunks the proposal cites.

    `relation` is the one the agent names (None: the one the text writes, when it writes one);
    `tolerances` the run's table (hedge phrase -> relative tolerance); `chunks` every chunk of the run,
    searched to say which chunk writes a numeral the cited ones do not; `rows` the number of body rows of
    the table of each table row the proposal cites (for `rows(t-N)`); `columns` the texts of the cited table
    rows, whose cells are also read with the unit their column header names (`Recall (%): 78.4` is 78.4%);
    `items` the number of items each cited chunk enumerates (None: no enumeration found), for `items(s-N)`;
    `cols` the number of columns of the table of each cited table row (None: ingestion recorded none), for
    `cols(t-N)`; `counts` the counting units the rubric declares (spelling -> count name, `counting`): the
    texts, the expression and the result are all read with them, so "120 C" is 120 of the count C;
    `premised` whether the proposal carries premises (statements the agent reads into the paper): a relation
    the text does not write may then be used (`predicate_check.license_problems`); `ids` the chunk id of each
    text, so a failure against a table row names the chunks that write its numbers.

    A truth-valued expression (a comparison, all, any, within, sorted_desc, sorted_asc, is_max, is_min,
    same_order, is_<kind>) is a predicate: its `result` is the word the text states it with, and it passes
    when it holds (`predicate_check.py`).

    Raises CgxError when the check cannot be run: the expression or result does not parse
    (`expression-invalid`), is over a cap (`expression-too-large`, `exponent-too-large`,
    `exponent-not-whole`, `result-too-large`), divides by zero (`division-by-zero`), has units that do not
    combine (`unit-incompatible`, `unit-invalid`), or when the proposal does not rest on the text
    (`ProposalProblems`: `operand-not-in-text`, `relation-not-in-text`, `hedge-undeclared`,
    `unit-missing`, `expression-is-result`, all named at once).
    """
    known = {"rows": rows or {}, "items": items or {}, "cols": cols or {}}
    with counting(counts or {}):
        if not isinstance(expression, str) or not isinstance(result, str):
            raise CgxError(Code.EXPRESSION_INVALID, "the expression and the result must be strings")
        if relation is not None and relation not in RELATIONS:
            raise CgxError(Code.EXPRESSION_INVALID, f"the relation {relation!r} is not one of {', '.join(RELATIONS)}")
        tree = parse_expression(expression)
        operands = text_literals(tree)
        if isinstance(texts, str):  # a str is a Sequence[str] of its characters: always a caller's mistake
            raise CgxError(Code.INTERNAL_ERROR, "recompute takes a sequence of chunk texts, not one string")
        if not all(isinstance(text, str) for text in texts):
            raise CgxError(Code.EXPRESSION_INVALID, "the cited chunks' texts must be strings")
        if any(item.function == "items" for item in table_rows(tree)):
            texts = [without_labels(text) for text in texts]
        cited = read_cited(texts, columns, ids)
        written = cited.written
        occurrences = written + cited.header_read
        counted, problems = _counts(tree, known)
        problems += repeat_problems(tree, written) + percentage_problems(tree) + calendar_problems(tree, texts)
        problems += _integer_premise_problems(tree, premised)
        if is_truth(tree):
            problems[:0] = _operand_problems(operands, occurrences, chunks)
            if relation is not None:
                problems.append(
                    (
                        Code.EXPRESSION_INVALID,
                        "`relation` applies to a numeric result, not to a predicate",
                        "leave `relation` out: a predicate's relation is its result word",
                    )
                )
            meaning, result_problems = predicate_result(result, texts, tree, premised)
            problems += result_problems
            problems += license_problems(tree, meaning, texts, premised)[1]
            problems += rounding_problems(tree, None)
            if problems:
                raise ProposalProblems(problems, _listing(occurrences))
            assert meaning is not None
            checked = decide_predicate(
                bind_rows(tree, counted), _operand_texts(operands), result, meaning, _count_list(tree, counted)
            )
            return _named_where(checked, cited, operands, None)
        numeral, unit = read_quantity(result)
        relations, license = license_problems(tree, None, texts, premised)
        problems += license + rounding_problems(tree, numeral)
        reported = _check_against_texts(
            operands,
            numeral,
            unit,
            relation,
            dict(tolerances or {}),
            occurrences,
            chunks,
            cited,
            problems,
            premised,
            tests_numeral=_grim_test(render(tree)),
        )
        numeral = reported.numeral  # as the text writes it (a word is exact)
        _check_percent_columns(operands, numeral, cited.header_read)
        bound = bind_rows(tree, counted)
        decided = _decide(
            bound,
            operands,
            reported,
            tuple(sorted(relations.items())),
            lambda: unit_doubts(cited, operands, numeral, unit),
        )
        unknown = tuple(item for row in columns for item in unit_unknown(row))
        _check_unknown_columns(bound, operands, reported, unknown, decided.outcome)
        restated = _restated_operand(decided, operands, numeral, cited)
        if restated:
            raise ProposalProblems([(ArithmeticCode.EXPRESSION_IS_RESULT, restated)], _listing(occurrences))
        return _named_where(decided, cited, operands, numeral.written)


def _integer_premise_problems(tree: Node, premised: bool) -> list[Problem]:
    """grim() and grimmer() test a mean as one of integer data, which the text does not write: the proposal
    states it as a premise (an assumption for review), or the check is refused."""
    named = sorted({node.name for node in walk(tree) if isinstance(node, Call) and node.name in GRIM_ARGUMENTS})
    if premised or not named:
        return []
    return [
        (
            ArithmeticCode.PREMISE_MISSING,
            f"{' and '.join(named)} test{'s' if len(named) == 1 else ''} a mean of integer-valued data, which the "
            "text does not state",
            'add `{"premises": ["the ratings are whole numbers (a 1 to 7 scale)"]}`, saying why the data are integers',
        )
    ]


def _named_where[Checked: (Recomputation, PredicateCheck)](
    checked: Checked, cited: CitedTexts, operands: tuple[LiteralNode, ...], result: str | None
) -> Checked:
    """A failed check resting on a table row and another chunk, with the chunk of each number in its detail."""
    if checked.outcome != "failed":
        return checked
    where = where_written(cited, operands, result)
    if where is None:
        return checked
    return attrs.evolve(checked, detail=f"{checked.detail} (written: {where})")


def decide_recorded(
    expression: str,
    result: str,
    relation: str,
    tolerance: Fraction | None,
    rows: Mapping[str, int] | None = None,
    items: Mapping[str, int] | None = None,
    cols: Mapping[str, int] | None = None,
    counts: Mapping[str, str] | None = None,
) -> Recomputation | PredicateCheck:
    """The check decided again from recorded inputs alone, without the texts (for the same-observation key:
    the texts were checked when the proposal was prepared); `counts` the counting units the record names."""
    with counting(counts or {}):
        tree = parse_expression(expression)
        known = {"rows": dict(rows or {}), "items": dict(items or {}), "cols": dict(cols or {})}
        counted, problems = _counts(tree, known)
        if problems:
            raise CgxError(
                Code.INTERNAL_ERROR, "the record counts no chunk for a rows(), cols() or items() of its expression"
            )
        operands = text_literals(tree)
        bound = bind_rows(tree, counted)
        if is_truth(tree):
            meaning = word_meaning(result) or result
            return decide_predicate(bound, _operand_texts(operands), result, meaning, _count_list(tree, counted))
        numeral, unit = read_quantity(result)
        hedge = "recorded" if tolerance is not None else None
        return _decide(bound, operands, _Reported(numeral, unit, relation, hedge, tolerance), doubts=tuple)


def text_literals(tree: Node) -> tuple[LiteralNode, ...]:
    """The numerals of an expression the text must write: all but the n of round(x, n) and sig(x, n) and the
    parts of a date() or time() (whose date the text must write: `calendar_problems`)."""
    if not any(isinstance(node, Call) and node.name in _AGENTS for node in walk(tree)):
        return literals(tree)
    agents = agent_arguments(tree)
    return tuple(literal for literal in literals(tree) if id(literal) not in agents)


_AGENTS = ROUNDINGS | CALENDAR


def _counts(
    tree: Node, known: Mapping[str, Mapping[str, int | None]]
) -> tuple[dict[tuple[str, str], int], list[Problem]]:
    """The count of each rows(t-N), cols(t-N) and items(s-N) of the tree (`known`: by function, each cited
    chunk's count), and the problems of those the run cannot count: a row or chunk the proposal does not cite,
    a chunk with no enumeration, a table with no recorded column count."""
    counts: dict[tuple[str, str], int] = {}
    problems: list[Problem] = []
    for item in table_rows(tree):
        chunks = known[item.function]
        if item.row not in chunks:
            what = "chunk" if item.function == "items" else "table row"
            problems.append(
                (
                    ArithmeticCode.OPERAND_NOT_IN_TEXT,
                    f"{item.function}() counts in a chunk the proposal cites: {item.row} is not a {what} among the "
                    f"cited chunks (add the {what.split()[-1]} to `cites`)",
                )
            )
            continue
        total = chunks[item.row]
        if total is None:
            problems.append(_uncounted(item.function, item.row))
            continue
        counts[item.function, item.row] = total
    return counts, list(dict.fromkeys(problems))


def _uncounted(function: str, chunk: str) -> Problem:
    """The problem of a cited chunk the run has no count of: an enumeration not found, a table's columns
    not recorded."""
    if function == "items":
        return (
            ArithmeticCode.ENUMERATION_NOT_FOUND,
            f"{chunk} writes no enumeration items() can count ((a) (b), (i) (ii), (1) (2), \\item, first ... "
            "second), or two that disagree",
        )
    return (
        ArithmeticCode.COLUMNS_NOT_COUNTED,
        f"the run records no column count for the table of {chunk}: its column specification declares a column "
        "no row fills, it was read from a PDF, or the chunk is a clause rather than a whole row (cite the row); a "
        "row's text leaves empty cells out, so its columns are never counted from it",
    )


def _count_list(tree: Node, counts: Mapping[tuple[str, str], int]) -> tuple[tuple[str, str, int], ...]:
    return tuple(dict.fromkeys((item.function, item.row, counts[item.function, item.row]) for item in table_rows(tree)))


def _operand_texts(operands: tuple[LiteralNode, ...]) -> tuple[str, ...]:
    return tuple(literal_numeral(literal.text, literal.column).written for literal in operands)


def observation_key(recomputation: Recomputation | PredicateCheck) -> str:
    """A canonical key of what the check observed: the same thing computed from the same operands. Two
    checks with one key pass or fail together; two computations that merely agree in value (`12 * 25`
    and `600 / 2` against 300) are two observations, each resting on its own numbers of the paper.

    Only the exact value, the expected value and the rounding (and the unit, relation, tolerance, precision,
    constants and dimensions a check has) decide the outcome; the operands are added, so two proposals that
    write the same arithmetic differently (`750 * 2` and `2 * 750` against 1500) are one observation, and
    two that reach one value from other numbers are not."""
    if isinstance(recomputation, PredicateCheck):
        return f"predicate={recomputation.expression};holds={recomputation.holds};meaning={recomputation.meaning}"
    decided = (recomputation.value, recomputation.expected, recomputation.half_unit)
    key = "value={};expected={};half_unit={}".format(*map(fraction_text, decided))
    operands = sorted(fraction_text(abs(literal_numeral(text, 0).value)) for text in recomputation.operands)
    optional = {
        "operands": ",".join(operands),
        "counted": ",".join(sorted(f"{function}({row})" for function, row, _ in recomputation.counts)) or None,
        "unit": recomputation.unit,
        "relation": None if recomputation.relation == "=" else recomputation.relation,
        "tolerance": None if recomputation.tolerance is None else fraction_text(recomputation.tolerance),
        "precision": recomputation.precision,
        "constants": ",".join(recomputation.constants) or None,
        "dimensions": None if recomputation.dimensions is None else "|".join(recomputation.dimensions),
    }
    return key + "".join(f";{name}={value}" for name, value in present(optional).items())


# -- the proposal against the texts ---------------------------------------------------------------------


def _check_against_texts(
    operands: tuple[LiteralNode, ...],
    numeral: Numeral,
    unit: Unit | None,
    relation: str | None,
    tolerances: Mapping[str, Fraction],
    occurrences: tuple[Occurrence, ...],
    chunks: Iterable[Chunk],
    cited: CitedTexts,
    earlier: Sequence[Problem] = (),
    premised: bool = False,
    tests_numeral: bool = False,
) -> _Reported:
    """The reported result as the text writes it, or every problem of the proposal at once. An expression that
    `tests_numeral` (GRIM) takes the result among its operands by design, so it is no restatement."""
    problems = _operand_problems(operands, occurrences, chunks) + list(earlier)
    results = [
        item
        for item in occurrences
        if item.reported and item.numeral.written == numeral.written and (unit is None or item.unit == unit)
    ]
    if results and all(item.numeral.half_unit != numeral.half_unit for item in results):
        # The text's writing sets the rounding: "zero mean" is an exact 0 (a word writes no digit to round) even
        # when the agent writes `0`, and a `0` the text prints has its +- 0.5 even when the agent writes "zero".
        numeral = results[0].numeral
    reported = _Reported(numeral, unit, relation or "=", None, None)
    if not results:
        with_unit = f" with the unit {unit.written}" if unit is not None else ""
        problems.append(
            (
                ArithmeticCode.OPERAND_NOT_IN_TEXT,
                f"the result {numeral.written}{with_unit} is not written in the cited chunks' text (compared as "
                "written, since its digits set the rounding)",
            )
        )
    else:
        reported, relation_problems = _relation(numeral, unit, relation, tolerances, results, premised)
        problems.extend(relation_problems)
    problems.extend(_units_missing(operands, numeral, unit, occurrences))
    free = None if tests_numeral else _free_evidence(operands, numeral, cited)
    if free:
        problems.append((ArithmeticCode.EXPRESSION_IS_RESULT, free))
    if problems:
        raise ProposalProblems(problems, _listing(occurrences))
    return reported


def _operand_problems(
    operands: tuple[LiteralNode, ...], occurrences: tuple[Occurrence, ...], chunks: Iterable[Chunk]
) -> list[Problem]:
    """The numerals of the expression the cited chunks do not write, or not with the unit it gives them."""
    problems: list[Problem] = []
    missing: list[str] = []
    wrong_unit: list[str] = []
    for literal in operands:
        same = [item for item in occurrences if abs(item.numeral.value) == literal.magnitude]
        if not same:
            missing.append(literal.shown)
        elif literal.unit is not None and not any(item.unit == literal.unit for item in same):
            written = sorted({item.unit.written for item in same if item.unit is not None})
            how = f"with the unit {', '.join(written)}" if written else "without a unit"
            wrong_unit.append(f"{literal.shown} (the text writes {literal.text} {how})")
    missing = list(dict.fromkeys(missing))
    if missing:
        where = _where(missing, operands, chunks)
        problems.append(
            (
                ArithmeticCode.OPERAND_NOT_IN_TEXT,
                f"the numeral{'s' if len(missing) > 1 else ''} {', '.join(missing)} of the expression "
                f"{'are' if len(missing) > 1 else 'is'} not in the cited chunks' text (compared by exact value)"
                + where,
            )
        )
    if wrong_unit:
        problems.append(
            (
                ArithmeticCode.OPERAND_NOT_IN_TEXT,
                "the expression gives units the text does not write: " + ", ".join(wrong_unit),
            )
        )
    return problems


def _relation(
    numeral: Numeral,
    unit: Unit | None,
    relation: str | None,
    tolerances: Mapping[str, Fraction],
    results: list[Occurrence],
    premised: bool = False,
) -> tuple[_Reported, list[Problem]]:
    """The relation the result is compared with: the one the text writes before it (the agent's `relation`
    picks one when it writes several); with a premise, a relation the text does not write (but a hedge only
    with the text's phrase, whose tolerance the rubric declares)."""
    written = list(dict.fromkeys((item.relation, item.hedge) for item in results))
    relations = list(dict.fromkeys(item.relation for item in results))
    shown = ", ".join(_relation_text(name, hedge, numeral.written) for name, hedge in written)
    problem: Problem
    if relation is None:
        if len(relations) > 1:
            problem = (
                ArithmeticCode.RELATION_NOT_IN_TEXT,
                f"the cited chunks write the result as {shown}: give `relation` to say which one is checked",
                f"add `{json.dumps({'relation': relations[0]})}` (or another relation the text writes: "
                f"{', '.join(relations)})",
            )
            return _Reported(numeral, unit, relations[0], None, None), [problem]
        relation = relations[0]
    elif relation not in relations and (relation == "~" or not premised):
        problem = (
            ArithmeticCode.RELATION_NOT_IN_TEXT,
            f"the relation {relation!r} is not what the text writes: it writes {shown}",
            f"`{json.dumps({'relation': relations[0]})}` to check the relation the text writes"
            + (
                "; a hedge (~) takes its tolerance from the text's own phrase, which no premise can give"
                if relation == "~"
                else f", or add {premises_fix(relation)} to check {relation!r}, which the paper implies"
            ),
        )
        return _Reported(numeral, unit, relation, None, None), [problem]
    if relation != "~":
        return _Reported(numeral, unit, relation, None, None), []
    hedges = [hedge for name, hedge in written if name == "~" and hedge is not None]
    declared = [hedge for hedge in hedges if hedge in tolerances]
    if not declared:
        table = ", ".join(f"{phrase!r}" for phrase in sorted(tolerances)) or "none"
        problem = (
            ArithmeticCode.HEDGE_UNDECLARED,
            f"the text hedges the result with {', '.join(repr(hedge) for hedge in hedges)}, for which the run's "
            f"tolerance table declares no tolerance (it declares {table})",
        )
        return _Reported(numeral, unit, relation, hedges[0] if hedges else None, None), [problem]
    hedge = declared[0]
    return _Reported(numeral, unit, relation, hedge, tolerances[hedge]), []


def _relation_text(relation: str, hedge: str | None, written: str) -> str:
    if relation == "~":
        return f"'{hedge} {written}' (relation ~)"
    return f"'{written}' (relation =)" if relation == "=" else f"'{relation} {written}' (relation {relation})"


def _check_percent_columns(
    operands: tuple[LiteralNode, ...], numeral: Numeral, read_by_header: tuple[Occurrence, ...]
) -> None:
    """Refuse a percentage result computed from plain cells of a percent column (`Recall (%): 78.4`).

    78.4 against "78.4%" would compare 78.4 with 0.784 and fail a true claim: the cells must be written as
    the percentages their header makes them (78.4%), so both sides are on one scale."""
    if not numeral.written.endswith("%"):
        return
    percents = {item.numeral.value for item in read_by_header if item.numeral.written.endswith("%")}
    plain = [
        literal.text
        for literal in operands
        if not literal.text.endswith("%") and Fraction(literal.numerator, literal.denominator) / 100 in percents
    ]
    if plain:
        shown = ", ".join(dict.fromkeys(plain))
        raise ProposalProblems(
            [
                (
                    ArithmeticCode.UNIT_MISSING,
                    f"{shown} are cells of a column whose header gives % and the result {numeral.written} is a "
                    f"percentage: write them as percentages ({', '.join(f'{text}%' for text in dict.fromkeys(plain))}) "
                    "so the expression and the result are on one scale",
                )
            ],
            "the header's unit applies to every cell of its column",
        )


def _check_unknown_columns(
    tree: Node,
    operands: tuple[LiteralNode, ...],
    reported: _Reported,
    unknown: tuple[Occurrence, ...],
    outcome: str,
) -> None:
    """Refuse a percentage whose outcome depends on whether plain cells under a header naming no unit are
    percentages: `abs(93 - 94)` against "changed by 1%" passes if the column is in percent and fails if it
    is not, and only the paper can say which. The check is decided on both readings; when they agree (a
    relative change, `(95 - 90) / 90` against 5.6%, is the same on both) the unit does not matter."""
    if not reported.numeral.written.endswith("%"):
        return
    values = {abs(item.numeral.value) for item in unknown}
    cells = [
        literal
        for literal in operands
        if literal.unit is None and not literal.text.endswith("%") and literal.magnitude in values
    ]
    if not cells:
        return

    def as_percent(literal: LiteralNode) -> LiteralNode:
        if literal not in cells:
            return literal
        value = Fraction(literal.numerator, literal.denominator * 100)
        return literal._replace(text=literal.text + "%", numerator=value.numerator, denominator=value.denominator)

    other: str
    try:
        other = _decide(map_literals(tree, as_percent), operands, reported).outcome
    except CgxError:
        other = "error"
    if other == outcome:
        return
    shown = ", ".join(dict.fromkeys(literal.text for literal in cells))
    raise ProposalProblems(
        [
            (
                ArithmeticCode.UNIT_MISSING,
                f"{shown} {'are cells' if len(cells) > 1 else 'is a cell'} of a column whose header names no unit, "
                f"and the result {reported.numeral.written} is a percentage: the check is {outcome} if the cells are "
                f"plain numbers and {other} if they are percentages, so it is not decided; cite a chunk that "
                "writes the cells' unit, or check a claim that does not depend on it",
            )
        ],
        "a column's unit is read from every header row above it (`Probability (%) / original`)",
    )


def _units_missing(
    operands: tuple[LiteralNode, ...], numeral: Numeral, unit: Unit | None, occurrences: tuple[Occurrence, ...]
) -> list[Problem]:
    """A refusal when the text writes the unitless operands (and result) in different units."""
    units: dict[Unit, list[str]] = {}
    named: list[tuple[str, Fraction, bool]] = [
        (literal.text, literal.magnitude, False) for literal in operands if literal.unit is None
    ]
    if unit is None:
        named.append((numeral.written, numeral.value, True))
    for text, value, is_result in named:
        same = [
            item
            for item in occurrences
            if abs(item.numeral.value) == value and (not is_result or item.numeral.written == numeral.written)
        ]
        written = {item.unit for item in same}
        if same and None not in written and len(written) == 1:
            (only,) = written
            assert only is not None
            units.setdefault(only, []).append(f"{text} {only.written}")
    if len(units) < 2:
        return []
    listed = ", ".join(example for examples in units.values() for example in examples)
    return [
        (
            ArithmeticCode.UNIT_MISSING,
            f"the text writes these numbers in different units ({listed}), and the expression or result leaves "
            "the units out",
        )
    ]


def _free_evidence(operands: tuple[LiteralNode, ...], numeral: Numeral, cited: CitedTexts) -> str | None:
    """The refusal message when the expression only restates the reported numeral, as the chunk reporting it
    writes it. A restatement of a number another cited chunk writes is a real comparison (a sentence's 81.4
    against a table row's 81.4 passes, against its 81.3 fails): both outcomes are recordable."""
    # The result's number by value, and by its digits without a percent sign (93.2 against 93.2%).
    result = {abs(numeral.value), abs(numeral.value) * 100 if numeral.written.endswith("%") else abs(numeral.value)}
    values = set()
    for literal in operands:
        value = Fraction(literal.numerator, literal.denominator)
        values.add(value * 100 if literal.text.endswith("%") and value * 100 in result else value)
    restated = {abs(value) for value in values & result}
    if restated and values <= result | {Fraction(0), Fraction(1)} and not _written_apart(restated, numeral, cited):
        return (
            f"the expression only restates the result {numeral.written} (with 0 or 1 at most), and no cited chunk but "
            "the one reporting the result writes it, so it recomputes nothing (cite the chunk that writes the number "
            "apart from the result, such as a table row, to compare the two)"
        )
    return None


def _written_apart(values: set[Fraction], numeral: Numeral, cited: CitedTexts) -> bool:
    """Whether each of `values` is written in a cited chunk other than one that reports the result: then an
    expression resting on it compares two places of the paper, not one place with itself. A chunk is known by
    its id (by its text when the caller gives none), so a chunk cited twice is still one place."""
    names = cited.ids or cited.texts
    per_text = [(*found, *header) for found, header in zip(cited.read, cited.by_header, strict=True)]
    reporting = {
        names[index]
        for index, found in enumerate(per_text)
        if any(item.reported and item.numeral.written == numeral.written for item in found)
    }
    writing = [(names[index], {abs(item.numeral.value) for item in found}) for index, found in enumerate(per_text)]
    return all(any(value in written and reporting - {name} for name, written in writing) for value in values)


def _restated_operand(
    decided: Recomputation, operands: tuple[LiteralNode, ...], numeral: Numeral, cited: CitedTexts
) -> str | None:
    """The refusal message when the expression's value is one of its own operands, and that operand is the
    reported numeral, and no chunk but the one reporting the result writes it: `max(49, 50)` against the 50 of the
    sentence that writes both picks the result out of the text, whatever the function (max, abs, min, a
    product by 1), so it recomputes nothing."""
    value = abs(decided.value)
    if value != abs(numeral.value) or _grim_test(decided.expression):
        return None
    picked = [literal for literal in operands if literal.magnitude == value]
    if not picked or _written_apart({value}, numeral, cited):
        return None  # one chunk writes the operand, another reports the result: a real comparison
    return (
        f"the expression's value is its own operand {picked[0].text}, the reported result {numeral.written}, "
        "which no cited chunk but the one reporting the result writes: it picks the result out of the text and "
        "recomputes nothing (cite the chunk that writes the operand apart from the result, or recompute the "
        "result from other numbers)"
    )


def _grim_test(expression: str) -> bool:
    """Whether the expression is a GRIM or GRIMMER test, whose value is the printed mean or sd when it passes
    (the nearest achievable one): a test of the numeral, not the numeral picked out of the text."""
    return expression.startswith(("grim(", "grimmer("))


def _where(missing: list[str], operands: tuple[LiteralNode, ...], chunks: Iterable[Chunk]) -> str:
    """` (12 is written in s-45 (table-row), s-12)` for the missing numerals other chunks write. A constant (a
    small whole number, a power of ten) is written in many chunks about other things ("Figure 2"): those are
    named with a warning, never as chunks to add, since citing one would pass a relation the paper does not
    state."""
    chunks = tuple(chunks)
    if not chunks:
        return ""
    wanted = {literal.shown: literal.magnitude for literal in operands}
    found: list[str] = []
    values = {wanted[name] for name in missing if name in wanted}
    writers: dict[Fraction, list[str]] = {value: [] for value in values}
    for chunk in chunks:
        present = {abs(item.numeral.value) for item in read_text(chunk.text)} & values
        for value in present:
            label = chunk.id if not chunk.unit else f"{chunk.id} ({chunk.unit})"
            if len(writers[value]) < _WHERE:
                writers[value].append(label)
    distinctive = False
    for name in missing:
        needed = wanted.get(name)
        if needed is None or not writers.get(needed):
            found.append(f"{name} is written in no chunk of the run")
        elif _constant(name, needed):
            found.append(
                f"{name} is written in {', '.join(writers[needed])}, but cite one only where it states this {name}: "
                "a constant the text does not state for this relation cannot be an operand"
            )
        else:
            distinctive = True
            found.append(f"{name} is written in {', '.join(writers[needed])}")
    advice = ": add those chunks to `cites`" if distinctive else ""
    return f" ({'; '.join(found)}{advice})"


def _constant(written: str, value: Fraction) -> bool:
    """A number a paper writes about many things: a whole number up to 12, or a power of ten, written without a
    decimal point (a 9.0 is a measured value, as distinctive as a 50k)."""
    whole = value.denominator == 1 and "." not in written
    return whole and (value <= 12 or str(value.numerator).rstrip("0") == "1")


def _listing(occurrences: tuple[Occurrence, ...]) -> str:
    written = list(dict.fromkeys(item.numeral.written for item in occurrences))
    if not written:
        return "the cited chunks contain no numerals: cite the chunks that write the numbers"
    shown = ", ".join(written[:_LISTED])
    more = f" and {len(written) - _LISTED} more" if len(written) > _LISTED else ""
    return f"the cited chunks contain {shown}{more}"


# -- deciding --------------------------------------------------------------------------------------------


def _decide(
    tree: Node,
    operands: tuple[LiteralNode, ...],
    reported: _Reported,
    relations: tuple[tuple[str, str], ...] = (),
    doubts: Callable[[], Sequence[str]] | None = None,
) -> Recomputation:
    """Decide the check with its numerals as written; a reported statistic that fails so is decided again at
    the precision its numerals are printed with (`printed.py`), and a p-value that then still fails and
    crosses .05 is named a decision error. A check that passes as written records what it always did."""
    decided = _decide_as_written(tree, operands, reported, relations, doubts)
    if decided.outcome == "failed" and isinstance(tree, Call) and tree.name in GRIM_ARGUMENTS:
        return attrs.evolve(decided, detail=f"{decided.detail} ({_grim_certificate(tree)})")
    printed = printed_arguments(tree)
    if decided.outcome == "passed" or decided.dimensions is not None or not isinstance(tree, Call):
        return decided
    if not printed and tree.name not in PVALUES:
        return decided
    found = _printed_range(tree, printed, decided)
    if found is None:
        return decided
    outcome = decide_range(found, reported.relation, reported.numeral.value, band(reported)) if printed else "failed"
    if outcome is None:
        raise CgxError(
            ArithmeticCode.VALUE_UNDECIDED,
            f"the values of {decided.expression} over the printed rounding of its numerals reach the bound of the "
            f"reported {reported.numeral.written}: it cannot be decided",
        )
    notes = [f"at the printed precision, {range_text(printed, found)}"] if printed else []
    error = decision_error(tree.name, found, reported.relation, reported.numeral.value) if outcome == "failed" else None
    if error is not None:
        notes.append(error)
    if not notes:
        return decided
    head = decided.detail.rpartition(": ")[0]
    return attrs.evolve(
        decided,
        outcome=outcome,
        detail=f"{head}: {outcome} ({'; '.join(notes)})",
        printed=(middle(found.least), middle(found.most)) if printed else None,
        decision_error=error is not None,
    )


def _grim_certificate(tree: Call) -> str:
    """The achievable means (or standard deviations) nearest the printed one, for a failed GRIM (GRIMMER)."""
    mean, half = printed_numeral(tree, 0)
    counts = [int(evaluate(argument)) for argument in tree.arguments[1 if tree.name == "grim" else 2 :]]
    sd = printed_numeral(tree, 1)[0] if tree.name == "grimmer" else None
    return certificate(mean, half, counts[0], counts[1] if len(counts) > 1 else 1, sd)


def _printed_range(tree: Call, printed: tuple[Printed, ...], decided: Recomputation) -> Range | None:
    """The range of the call over its printed arguments at the lowest precision that decides it (the value as
    written when none is printed); None when a value of the printed rounding is outside a function's domain
    (the check then stands as decided with its numerals as written)."""
    if not printed:
        value = exact(decided.value) if decided.precision is None else measure(tree, decided.precision).value
        return Range(value, value)
    for bits in PRECISIONS:
        try:
            return printed_range(tree, printed, bits)
        except Undecided:
            continue
        except CgxError:
            return None
    return None


def _decide_as_written(
    tree: Node,
    operands: tuple[LiteralNode, ...],
    reported: _Reported,
    relations: tuple[tuple[str, str], ...] = (),
    doubts: Callable[[], Sequence[str]] | None = None,
) -> Recomputation:
    """Decide the check with every numeral exactly as written. `doubts` says why not every unit is the text's
    (`cited.unit_doubts`, asked only on a mismatch; None: not known):
    when there are none, an expression whose dimension is not the result's fails (the paper's error, with
    both dimensions); otherwise the proposal is refused (`unit-incompatible`), naming them."""
    numeral = reported.numeral
    rendered = render(tree)
    operand_texts = _operand_texts(operands)
    counted = tuple((item.function, item.row, item.total) for item in table_rows(tree) if item.total is not None)
    constants = physical_constants(tree)
    common = {
        "counts": tuple(dict.fromkeys(counted)),
        "relations": relations,
        "expression": rendered,
        "operands": operand_texts,
        "result": numeral.written,
        "expected": numeral.value,
        "half_unit": numeral.half_unit,
        "relation": reported.relation,
        "hedge": reported.hedge,
        "tolerance": reported.tolerance,
        "constants": constants,
    }
    if is_plain(tree) and reported.unit is None:
        numerator, denominator = evaluate_pair(tree)
        value = Fraction(numerator, denominator)
        outcome = _outcome(Interval(value, value), reported)
        assert outcome is not None  # an exact value is always decided
        detail = _detail(rendered, value, reported, outcome, None, None)
        return Recomputation(value=value, outcome=outcome, detail=detail, **common)  # type: ignore[arg-type]
    dimension = unit_dimension(reported.unit) if reported.unit is not None else ()
    used_units = reported.unit is not None or any(literal.unit is not None for literal in operands) or constants
    library = f"pint {library_version()}" if used_units else None
    unit_text = reported.unit.text if reported.unit is not None else None
    for bits in PRECISIONS:
        try:
            measured = measure(tree, bits)
        except Undecided:
            continue
        if measured.dimension != dimension:
            return _dimension_failure(rendered, measured, dimension, reported, doubts, bits, library, common)
        arithmetic = Arithmetic(bits)
        factor = unit_scale(reported.unit, arithmetic)[0] if reported.unit is not None else exact(Fraction(1))
        if factor.exact:
            enclosure = Interval(measured.value.lo / factor.lo, measured.value.hi / factor.lo)
        else:
            enclosure = arithmetic.div(measured.value, factor)
        outcome = _outcome(enclosure, reported)
        if outcome is None:
            continue
        precision = None if enclosure.exact else bits
        detail = _detail(rendered, middle(enclosure), reported, outcome, unit_text, precision)
        if reported.relation == "=" and _rounds(tree):
            detail = f"{detail.rpartition(': ')[0]} ({precision_text(numeral)}): {outcome}"
        return Recomputation(
            value=middle(enclosure),
            outcome=outcome,
            detail=detail,
            unit=unit_text,
            precision=precision,
            library=library,
            **common,  # type: ignore[arg-type]
        )
    if _coarse_dates(tree):
        raise CgxError(
            ArithmeticCode.VALUE_UNDECIDED,
            f"{rendered} uses a date written to a month or a year, which stands for every day in it: its value "
            f"spans more than the reported {numeral.written} admits, so it cannot be decided",
        )
    raise CgxError(
        ArithmeticCode.VALUE_UNDECIDED,
        f"the value of {rendered} lies within 2^-{PRECISIONS[-1]} of the bound of the reported {numeral.written}: "
        "it cannot be decided",
    )


def _dimension_failure(
    rendered: str,
    measured: Measured,
    dimension: Dimension,
    reported: _Reported,
    doubts: Callable[[], Sequence[str]] | None,
    bits: int,
    library: str | None,
    common: Mapping[str, Any],
) -> Recomputation:
    """The failure of an expression whose dimension is not the reported result's, when every unit is the
    text's and both sides have a dimension (the text writes the result with a unit, and the expression is not
    a plain number): the certificate is both dimensions (and the value in SI base units). Otherwise the
    refusal: a unit the agent gave or left out, or a unit the prose leaves implicit ("30 each")."""
    numeral = reported.numeral
    given = reported.unit.written if reported.unit is not None else "no unit"
    computed, written = dimension_text(measured.dimension), dimension_text(dimension)
    found = doubts() if doubts is not None else ()
    if doubts is None or found or not dimension or not measured.dimension:
        because = f": not every unit is the text's ({'; '.join(found)})" if found else ""
        raise CgxError(
            ArithmeticCode.UNIT_INCOMPATIBLE,
            f"the expression is {computed} and the result {numeral.written} has {given} ({written}){because}: "
            "write each numeral and the result with exactly the unit the text writes with it",
        )
    value = middle(measured.value)
    shown = brief(rendered)
    precision = None if measured.value.exact else bits
    approximate = "" if precision is None else f" (enclosed at {precision} bits)"
    detail = (
        f"{shown} is {computed} ({decimal_text(value, DETAIL_DIGITS)} in SI base units{approximate}), reported "
        f"{numeral.written} {given} is {written}: failed (the dimensions differ, with every unit as the text "
        "writes it)"
    )
    return Recomputation(
        value=value,
        outcome="failed",
        detail=detail,
        unit=reported.unit.text if reported.unit is not None else None,
        precision=precision,
        library=library,
        dimensions=(computed, written),
        **common,
    )


def _coarse_dates(tree: Node) -> bool:
    """Whether the expression has a date of a month or a year (an interval of days, not one instant)."""
    return any(isinstance(node, Call) and node.name == "date" and len(node.arguments) < 3 for node in walk(tree))


def _rounds(tree: Node) -> bool:
    """Whether the expression rounds (round, sig): its detail then says how precisely the result is written."""
    return any(isinstance(node, Call) and node.name in ROUNDINGS for node in walk(tree))


def band(reported: _Reported) -> tuple[Fraction, Fraction]:
    """The closed band a value must lie in for `=` and `~`."""
    expected = reported.numeral.value
    if reported.relation == "~" and reported.tolerance is not None:
        width = reported.tolerance * abs(expected)
    else:
        width = reported.numeral.half_unit
    return expected - width, expected + width


def _outcome(value: Interval, reported: _Reported) -> Outcome | None:
    """passed or failed, or None when the enclosure is too wide to tell."""
    expected = reported.numeral.value
    relation = reported.relation
    if relation in ("=", "~"):
        low, high = band(reported)
        if low <= value.lo and value.hi <= high:
            return "passed"
        if value.hi < low or value.lo > high:
            return "failed"
        return None
    try:
        return "passed" if compare(relation, value, exact(expected)) else "failed"
    except Undecided:
        return None


def _detail(
    rendered: str, value: Fraction, reported: _Reported, outcome: Outcome, unit: str | None, precision: int | None
) -> str:
    numeral = reported.numeral
    shown = brief(rendered)
    expected = decimal_text(numeral.value, DECIMAL_DIGITS)
    stated = numeral.written if numeral.written == expected else f"{numeral.written} = {expected}"
    in_unit = f" {unit}" if unit else ""
    approximate = "" if precision is None else f" (enclosed at {precision} bits)"
    computed = f"{shown} = {decimal_text(value, DETAIL_DIGITS)}{in_unit}{approximate}"
    if reported.relation == "=":
        exact = "0 (a number word is exact)"
        rounding = decimal_text(numeral.half_unit, DECIMAL_DIGITS) if numeral.half_unit else exact
        return f"{computed}, reported {stated}{in_unit} +- {rounding}: {outcome}"
    if reported.relation == "~" and reported.tolerance is not None:
        low, high = band(reported)
        percent = decimal_text(reported.tolerance * 100, DETAIL_DIGITS)
        return (
            f"{computed}, reported {reported.hedge} {stated}{in_unit} (within {percent}%: "
            f"{decimal_text(low, DETAIL_DIGITS)} to {decimal_text(high, DETAIL_DIGITS)}): {outcome}"
        )
    return f"{computed}, reported {reported.relation} {stated}{in_unit}: {outcome}"
