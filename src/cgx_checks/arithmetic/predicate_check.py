"""The rules that keep a predicate, a count of conditions or a rounding from passing by construction, and
the record of a predicate check.

* A comparison or predicate stands for a relation the cited text writes in words or symbols
  (`relation_words.py`): a predicate's `result` is that word ("identical"), a count's conditions each need
  one. An agent cannot weaken "identical" into `>=`, nor "every" into any() without the text's "any".
* A comparison may not compare a numeral with itself: a value on both sides of one comparison (or twice
  in one within() or sorted_desc()) must be written that many times in the cited text, so `0.65 >= 0.65`
  over a threshold written once is refused.
* round(x, n) and sig(x, n) may not round more coarsely than the numeral they are compared with (the
  reported result, or the numeral on the other side of a comparison): rounding 8.46 to one decimal to pass
  "8.50" is refused. A rounding compared with neither is refused too, since nothing bounds it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

import attrs

from cgx_checks.arithmetic.evaluate import measure
from cgx_checks.arithmetic.interval import PRECISIONS, Undecided
from cgx_checks.arithmetic.parse import literal_numeral
from cgx_checks.arithmetic.predicates import CALENDAR, ROUNDINGS, is_truth, rounding_places, rounding_unit
from cgx_checks.arithmetic.relation_words import MIRRORED, RELATION_WORDS, word_meaning, writes, written_words
from cgx_checks.arithmetic.tree import Call, Compare, Constant, Node, Unary, children, literals, render, walk
from cgx_checks.arithmetic.tree import Literal as LiteralNode
from cgx_checks.arithmetic.units import library_version
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import Numeral, Occurrence, fraction_text
from cgx_core.numbers.dates import WrittenDate, WrittenTime, read_dates, read_times

type Outcome = Literal["passed", "failed"]
type Problem = tuple[str, str]

_DETAIL_EXPRESSION = 200


@attrs.frozen
class PredicateCheck:
    """What a recompute-numbers check of a truth value decided: the predicate holds or not, and the word
    of the text it stands for."""

    expression: str
    operands: tuple[str, ...]
    result: str
    """The word of the text the predicate stands for ("identical"), as the vocabulary spells it."""
    meaning: str
    """The relation or kind that word writes (`==`, `within`, `is_probability`)."""
    holds: bool
    outcome: Outcome
    detail: str
    counts: tuple[tuple[str, str, int], ...] = ()
    precision: int | None = None
    library: str | None = None
    relation: str = "="
    hedge: str | None = None
    tolerance: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "detail": self.detail,
            "expression": self.expression,
            "holds": self.holds,
            "operands": list(self.operands),
            "outcome": self.outcome,
            "relations": {self.meaning: self.result},
            "result": self.result,
            **counts_json(self.counts),
        }
        if self.precision is not None:
            record["precision_bits"] = self.precision
        if self.library is not None:
            record["units_library"] = self.library
        return dict(sorted(record.items()))


def counts_json(counts: Sequence[tuple[str, str, int]]) -> dict[str, dict[str, int]]:
    """`{"rows": {"t-3": 6}, "items": {"s-12": 4}}`: each count of the run an expression uses, by function."""
    record: dict[str, dict[str, int]] = {}
    for function, chunk, total in counts:
        record.setdefault(function, {})[chunk] = total
    return record


def predicate_result(result: str, texts: Sequence[str]) -> tuple[str | None, list[Problem]]:
    """The meaning of a predicate's `result` word, or the problems with it."""
    meaning = word_meaning(result)
    if meaning is None or meaning == "any":
        return None, [
            (
                ArithmeticCode.RELATION_NOT_IN_TEXT,
                f"the result {result!r} of a predicate must be the word the text states it with, one of the "
                "documented vocabulary ('identical', 'below', 'at least', 'within', 'decreasing', "
                "'probability', ...)",
            )
        ]
    if not writes(texts, result):
        return meaning, [
            (ArithmeticCode.RELATION_NOT_IN_TEXT, f"the cited chunks do not write {result!r}: cite the chunk that does")
        ]
    return meaning, []


def license_problems(tree: Node, meaning: str | None, texts: Sequence[str]) -> tuple[dict[str, str], list[Problem]]:
    """The word each comparison and predicate of the expression stands for, or the problems: under a
    predicate's result word every relation must be that word's; in a count each needs a word of the text."""
    leaves = _truth_leaves(tree)
    if not leaves:
        return {}, []
    written = written_words(texts)
    relations: dict[str, str] = {}
    problems: list[Problem] = []
    for leaf, needs_any in leaves:
        if needs_any and "any" not in written:
            problems.append(
                (
                    ArithmeticCode.RELATION_NOT_IN_TEXT,
                    "any() holds when one condition holds: the cited chunks write no word for it ('any', 'some', "
                    "'at least one', 'one of'); use all() for a statement about every value",
                )
            )
        relation = leaf.op if isinstance(leaf, Compare) else leaf.name
        candidates = {relation, MIRRORED.get(relation, relation)}
        if meaning is not None:
            if meaning not in candidates:
                problems.append(
                    (
                        ArithmeticCode.RELATION_NOT_IN_TEXT,
                        f"{_named(leaf)} is not what the result word writes ({meaning}): write the relation the "
                        "text states",
                    )
                )
            continue
        found = [written[name] for name in sorted(candidates) if name in written]
        if found:
            relations.setdefault(relation, found[0])
        else:
            words = ", ".join(repr(word) for word in RELATION_WORDS.get(relation, ())[:4])
            problems.append(
                (
                    ArithmeticCode.RELATION_NOT_IN_TEXT,
                    f"{_named(leaf)} stands for a relation the cited chunks do not write (such as {words})",
                )
            )
    return relations, list(dict.fromkeys(problems))


def repeat_problems(tree: Node, occurrences: Sequence[Occurrence]) -> list[Problem]:
    """A comparison, within() or sorted_*() that uses one written numeral twice (compares it with itself)."""
    written = Counter(abs(item.numeral.value) for item in occurrences if item.reported)
    problems: list[Problem] = []
    for node in walk(tree):
        if not (isinstance(node, Compare) or (isinstance(node, Call) and node.name in _ORDERED)):
            continue
        used = Counter(
            abs(Fraction(literal.numerator, literal.denominator))
            for literal in (_literal(child) for child in children(node))
            if literal is not None
        )
        if any(count > 1 and 0 < written[value] < count for value, count in used.items()):
            problems.append(
                (
                    ArithmeticCode.EXPRESSION_IS_RESULT,
                    f"{_named(node)} compares a numeral with itself ({render(node)}): each side must be a "
                    "numeral the text writes separately (a value used twice must be written twice)",
                )
            )
    return list(dict.fromkeys(problems))


def calendar_problems(tree: Node, texts: Sequence[str]) -> list[Problem]:
    """A date() or time() the cited chunks do not write, at the precision the expression gives it (date(2003,
    6) is "June 2003", not "17 June 2003")."""
    calls = [node for node in walk(tree) if isinstance(node, Call) and node.name in CALENDAR]
    if not calls:
        return []
    dates = {item.text for text in texts for item in read_dates(text)}
    times = {item.text for text in texts for item in read_times(text)}
    missing: list[str] = []
    for call in calls:
        parts = [argument.numerator for argument in call.arguments if isinstance(argument, LiteralNode)]
        if call.name == "date":
            written = WrittenDate(*parts).text
            if written not in dates:
                missing.append(f"{render(call)} ({written})")
        elif WrittenTime(*parts).text not in times:
            missing.append(f"{render(call)} ({WrittenTime(*parts).text})")
    if not missing:
        return []
    listed = ", ".join(sorted(dates | times)[:20]) or "none"
    return [
        (
            ArithmeticCode.OPERAND_NOT_IN_TEXT,
            f"the cited chunks do not write {', '.join(missing)} at that precision (they write the dates and times "
            f"{listed})",
        )
    ]


def percentage_problems(tree: Node) -> list[Problem]:
    """is_percentage() of a numeral written without its %: 45 would be read as 4500%, a false failure."""
    plain = [
        literal.text
        for node in walk(tree)
        if isinstance(node, Call) and node.name == "is_percentage"
        for literal in literals(node)
        if not literal.text.endswith("%")
    ]
    if not plain:
        return []
    return [
        (
            ArithmeticCode.UNIT_MISSING,
            f"is_percentage() takes percentages written with their % ({', '.join(f'{text}%' for text in plain)}), "
            "since a plain number is a fraction (45 is 4500%)",
        )
    ]


def rounding_problems(tree: Node, result: Numeral | None) -> list[Problem]:
    """round or sig coarser than the numeral it is compared with, or compared with none."""
    problems: list[Problem] = []
    parents: dict[int, Node] = {}
    for node in walk(tree):
        for child in children(node):
            parents[id(child)] = node
    for node in walk(tree):
        if not (isinstance(node, Call) and node.name in ROUNDINGS):
            continue
        parent = parents.get(id(node))
        against: Numeral | None = None
        if parent is None:
            against = result
        elif isinstance(parent, Compare):
            other = _literal(parent.right if parent.left is node else parent.left)
            against = None if other is None else literal_numeral(other.text, other.column)
        if against is None:
            problems.append(
                (
                    ArithmeticCode.ROUNDING_TOO_COARSE,
                    f"{render(node)} is compared with no numeral, so nothing bounds its rounding: make it the whole "
                    "expression (against the reported result) or one side of a comparison with a numeral",
                )
            )
            continue
        unit = rounding_unit(node.name, _value(node.arguments[0]), rounding_places(node))
        if unit > 2 * against.half_unit:
            problems.append(
                (
                    ArithmeticCode.ROUNDING_TOO_COARSE,
                    f"{render(node)} rounds to units of {fraction_text(unit)}, coarser than {against.written} is "
                    f"written ({precision_text(against)}): round to that numeral's own precision",
                )
            )
    return problems


def precision_text(numeral: Numeral) -> str:
    """How precisely a numeral is written: `2 decimals, 3 significant digits`."""
    mantissa, _, exponent = numeral.written.rstrip("%").lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    decimals = len(fraction) - (int(exponent) if exponent else 0)
    significant = len((whole + fraction).lstrip("0")) or 1
    return f"{decimals} decimal{'' if decimals == 1 else 's'}, {significant} significant digit" + (
        "" if significant == 1 else "s"
    )


def decide_predicate(
    tree: Node, operands: tuple[str, ...], result: str, meaning: str, counts: tuple[tuple[str, str, int], ...]
) -> PredicateCheck:
    """Evaluate a truth-valued expression at the lowest precision that decides it."""
    rendered = render(tree)
    for bits in PRECISIONS:
        try:
            measured = measure(tree, bits)
        except Undecided:
            continue
        holds = measured.value.lo == 1
        outcome: Outcome = "passed" if holds else "failed"
        shown = rendered if len(rendered) <= _DETAIL_EXPRESSION else rendered[:_DETAIL_EXPRESSION] + "..."
        detail = f"{shown} is {'true' if holds else 'false'}; the text writes {result!r} ({meaning}): {outcome}"
        exact_only = bits == PRECISIONS[0] and not _irrational(tree)
        used_units = any(literal.unit is not None for literal in literals(tree))
        return PredicateCheck(
            expression=rendered,
            operands=operands,
            result=" ".join(result.split()).casefold(),
            meaning=meaning,
            holds=holds,
            outcome=outcome,
            detail=detail,
            counts=counts,
            precision=None if exact_only else bits,
            library=f"pint {library_version()}" if used_units else None,
        )
    raise CgxError(ArithmeticCode.VALUE_UNDECIDED, f"{rendered}: a comparison lies too close to call at any precision")


def observation_key_of_predicate(check: PredicateCheck) -> str:
    return f"predicate={check.expression};holds={check.holds};meaning={check.meaning}"


_ORDERED = frozenset({"within", "sorted_desc", "sorted_asc"})


def _truth_leaves(tree: Node) -> list[tuple[Compare | Call, bool]]:
    """The comparisons and predicates (other than all, any) of the expression, each with whether it is
    under an any()."""
    leaves: list[tuple[Compare | Call, bool]] = []
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, under_any = stack.pop()
        if isinstance(node, Call) and node.name in ("all", "any", "count"):
            stack.extend((child, under_any or node.name == "any") for child in reversed(node.arguments))
        elif isinstance(node, Compare | Call) and is_truth(node):
            leaves.append((node, under_any))
        else:
            stack.extend((child, under_any) for child in children(node))
    return leaves


def _literal(node: Node) -> LiteralNode | None:
    if isinstance(node, Unary):
        node = node.operand
    return node if isinstance(node, LiteralNode) else None


def _value(node: Node) -> Fraction:
    """The value of a rounding's argument, closely enough to say which digit it keeps."""
    try:
        return measure(node, PRECISIONS[0]).value.lo
    except Undecided:
        raise CgxError(Code.INTERNAL_ERROR, f"{render(node)} could not be enclosed") from None


def _irrational(tree: Node) -> bool:
    return any(
        isinstance(node, Constant) or (isinstance(node, Call) and node.name not in _RATIONAL) for node in walk(tree)
    )


_RATIONAL = frozenset(
    {
        "all",
        "any",
        "count",
        "within",
        "sorted_desc",
        "sorted_asc",
        "round",
        "sig",
        "abs",
        "mean",
        "median",
        "min",
        "max",
        "is_probability",
        "is_proportion",
        "is_percentage",
        "is_pvalue",
        "is_count",
        "is_variance",
        "is_sd",
        "is_correlation",
        "is_condition_number",
    }
)


def _named(node: Node) -> str:
    if isinstance(node, Compare):
        return f"the comparison {render(node.left)} {node.op} {render(node.right)}"
    return f"{getattr(node, 'name', '')}()"
