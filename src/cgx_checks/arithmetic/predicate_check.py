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

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal

import attrs

from cgx_checks.arithmetic.constants import MATHEMATICAL, constants_json
from cgx_checks.arithmetic.evaluate import measure
from cgx_checks.arithmetic.interval import PRECISIONS, Undecided
from cgx_checks.arithmetic.parse import literal_numeral
from cgx_checks.arithmetic.predicates import (
    CALENDAR,
    ROUNDINGS,
    TRUTH_FUNCTIONS,
    is_truth,
    rounding_places,
    rounding_unit,
)
from cgx_checks.arithmetic.relation_words import (
    MIRRORED,
    PREFERENCE,
    PREFERRED_RELATIONS,
    RELATION_WORDS,
    example_word,
    word_meaning,
    writes,
    written_words,
)
from cgx_checks.arithmetic.tree import Call, Compare, Constant, Node, children, literals, render, signed, walk
from cgx_checks.arithmetic.tree import Literal as LiteralNode
from cgx_checks.arithmetic.units import library_version
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import Numeral, Occurrence, fraction_text
from cgx_core.numbers.dates import WrittenDate, WrittenTime, read_dates, read_times

type Outcome = Literal["passed", "failed"]
type Problem = tuple[str, str] | tuple[str, str, str]
"""A problem of a proposal: its code, its message and, when it has one of its own, its fix."""

_DETAIL_EXPRESSION = 200  # characters of the expression quoted in a detail


def brief(rendered: str) -> str:
    """An expression as a detail quotes it: cut after its first `_DETAIL_EXPRESSION` characters."""
    return rendered if len(rendered) <= _DETAIL_EXPRESSION else rendered[:_DETAIL_EXPRESSION] + "..."


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
    constants: tuple[str, ...] = ()
    """The physical constants of the expression, by CODATA name."""

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
            **present(
                {
                    "precision_bits": self.precision,
                    "units_library": self.library,
                    "constants": constants_json(self.constants) if self.constants else None,
                }
            ),
        }
        return dict(sorted(record.items()))


def present(record: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of a record that a check has (not None): one that lacks a unit, a hedge or constants leaves
    them out, so it records what a check without them always did."""
    return {key: value for key, value in record.items() if value is not None}


def physical_constants(tree: Node) -> tuple[str, ...]:
    """The physical constants of an expression by CODATA name, sorted (pi and e are mathematics): recorded with
    their values and source."""
    return tuple(sorted({node.name for node in walk(tree) if isinstance(node, Constant)} - MATHEMATICAL))


def counts_json(counts: Sequence[tuple[str, str, int]]) -> dict[str, dict[str, int]]:
    """`{"rows": {"t-3": 6}, "items": {"s-12": 4}}`: each count of the run an expression uses, by function."""
    record: dict[str, dict[str, int]] = {}
    for function, chunk, total in counts:
        record.setdefault(function, {})[chunk] = total
    return record


def predicate_result(
    result: str, texts: Sequence[str], tree: Node, premised: bool = False
) -> tuple[str | None, list[Problem]]:
    """The meaning of a predicate's `result` word, or the problems with it. With a premise, the word must
    still name the relation checked, but the cited chunks need not write it."""
    meaning = word_meaning(result)
    if meaning is None or meaning == "any":
        return None, [
            (
                ArithmeticCode.RELATION_NOT_IN_TEXT,
                f"the result {result!r} of a predicate must be the word the text states it with, one of the "
                "documented vocabulary ('identical', 'below', 'at least', 'within', 'decreasing', "
                "'probability', ...)",
                _word_fix(_relation_of(tree), texts, premised),
            )
        ]
    if meaning == PREFERENCE and not premised:
        return meaning, [
            (
                ArithmeticCode.RELATION_NOT_IN_TEXT,
                f"{result!r} ranks without saying which way the numbers go (an error is better lower, an accuracy "
                "higher): it stands for an order only with a premise that says which way is better",
                f"add {premises_fix(PREFERENCE)}, keeping the result {result!r}",
            )
        ]
    if not premised and not writes(texts, result):
        return meaning, [
            (
                ArithmeticCode.RELATION_NOT_IN_TEXT,
                f"the cited chunks do not write {result!r}: cite the chunk that does",
                _word_fix(meaning, texts, premised, kept=result),
            )
        ]
    return meaning, []


def license_problems(
    tree: Node, meaning: str | None, texts: Sequence[str], premised: bool = False
) -> tuple[dict[str, str], list[Problem]]:
    """The word each comparison and predicate of the expression stands for, or the problems: under a
    predicate's result word every relation must be that word's; in a count each needs a word of the text,
    unless the check carries a premise (its relation is then recorded as `premised`). same_order() is a
    scale check no text states exactly: it needs a premise."""
    leaves = _truth_leaves(tree)
    if not leaves:
        return {}, []
    written = written_words(texts)
    relations: dict[str, str] = {}
    problems: list[Problem] = []
    for leaf, needs_any in leaves:
        if needs_any and "any" not in written and not premised:
            problems.append(
                (
                    ArithmeticCode.RELATION_NOT_IN_TEXT,
                    "any() holds when one condition holds: the cited chunks write no word for it ('any', 'some', "
                    "'at least one', 'one of'); use all() for a statement about every value",
                    f"add {premises_fix('any')} when the paper implies it of one value without writing 'any', or "
                    "use all() for a statement about every value",
                )
            )
        relation = leaf.op if isinstance(leaf, Compare) else leaf.name
        if relation == "same_order" and not premised:
            problems.append(
                (
                    ArithmeticCode.RELATION_NOT_IN_TEXT,
                    "same_order() checks a scale (within a factor of 10), which no text states exactly: it needs a "
                    "premise saying why the values should be of one order",
                    f"add {premises_fix('same_order')}",
                )
            )
        candidates = {relation, MIRRORED.get(relation, relation)}
        if meaning == PREFERENCE and relation in PREFERRED_RELATIONS:
            continue  # premised (predicate_result): the premise says which way the order goes
        if meaning is not None:
            if meaning not in candidates:
                problems.append(
                    (
                        ArithmeticCode.RELATION_NOT_IN_TEXT,
                        f"{_named(leaf)} is not what the result word writes ({meaning}): write the relation the "
                        "text states",
                        f"write the relation the word {example_word(meaning)!r} names ({meaning}), or make the "
                        f"result the word of {relation}: {_word_fix(relation, texts, premised)}",
                    )
                )
            continue
        found = [written[name] for name in sorted(candidates) if name in written]
        if found:
            relations.setdefault(relation, found[0])
        elif premised:
            relations.setdefault(relation, PREMISED)
        else:
            words = ", ".join(repr(word) for word in RELATION_WORDS.get(relation, ())[:4])
            problems.append(
                (
                    ArithmeticCode.RELATION_NOT_IN_TEXT,
                    f"{_named(leaf)} stands for a relation the cited chunks do not write (such as {words})",
                    f"cite a chunk that writes {example_word(relation)!r} (or another word for {relation}), or add "
                    f"{premises_fix(relation)}",
                )
            )
    return relations, list(dict.fromkeys(problems))


PREMISED: Final = "premised"
"""The word recorded for a relation a count of conditions uses on a premise, not on a word of the text."""

EXAMPLE_PREMISES: Final[dict[str, str]] = {
    "==": "the caption's steps and the text's steps are the same quantity",
    "!=": "the settings the text compares should give different values",
    "<": "the analyses used this release, so it predates them",
    "<=": "every value the table displays is at most the stated bound",
    ">": "targets beyond the threshold yield a higher share than the threshold itself",
    ">=": "every value the table displays is at least the cutoff",
    "within": "an estimate lies within its own confidence interval",
    "sorted_desc": "the text's trend holds across every listed value",
    "sorted_asc": "the text's trend holds across every listed value",
    "is_max": "the value the text singles out is the largest of those listed",
    "is_min": "the value the text singles out is the smallest of those listed",
    "same_order": "a load is of the order of the paper's other loads",
    "any": "the text's claim holds for some listed value",
    PREFERENCE: "a lower error is better, so the method the text calls worse has the higher error",
}
"""An example premise for each relation, shown in a fix: a statement the agent reads into the paper (a relation,
an identification or a bound, never a number)."""


def premises_fix(relation: str) -> str:
    """`{"premises": [...]}` with an example premise for the relation, as a fix names it."""
    example = EXAMPLE_PREMISES.get(relation, "the paper implies this relation of the values compared")
    return f"`{json.dumps({'premises': [example]})}` ({_PREMISE_NOTE})"


_PREMISE_NOTE = (
    "an example: state what this paper implies and does not write, in your own words; a premise states a relation, "
    "an identification or a bound, never a number"
)


def _word_fix(relation: str | None, texts: Sequence[str], premised: bool, kept: str | None = None) -> str:
    """The fix of a predicate's result word: the word of the relation the cited chunks write; else a premise,
    keeping the result when it is already a word of the relation (`kept`) or naming one."""
    if relation is None:
        return "write the result as a word of the vocabulary for the relation checked (docs/numbers.md)"
    words = written_words(texts)
    written = words.get(relation) or words.get(MIRRORED.get(relation, relation))
    if written is not None:
        return f"`{json.dumps({'result': written})}` (the word the cited chunks write for {relation})"
    example = EXAMPLE_PREMISES.get(relation, "the paper implies this relation of the values compared")
    change: dict[str, Any] = (
        {} if kept is not None and word_meaning(kept) == relation else {"result": example_word(relation)}
    )
    if not premised:
        change["premises"] = [example]
    return f"`{json.dumps(change)}` ({_PREMISE_NOTE}), or cite a chunk that writes a word for {relation}"


def _relation_of(tree: Node) -> str | None:
    """The relation a predicate's first comparison or predicate stands for (`<`, `within`), if any."""
    leaves = _truth_leaves(tree)
    if not leaves:
        return None
    leaf = leaves[0][0]
    return leaf.op if isinstance(leaf, Compare) else leaf.name


def repeat_problems(tree: Node, occurrences: Sequence[Occurrence]) -> list[Problem]:
    """A comparison, within() or sorted_*() that uses one written numeral twice (compares it with itself)."""
    written = Counter(abs(item.numeral.value) for item in occurrences if item.reported)
    problems: list[Problem] = []
    for node in walk(tree):
        if not (isinstance(node, Compare) or (isinstance(node, Call) and node.name in _ORDERED)):
            continue
        used = Counter(
            literal.magnitude for literal in (_literal(child) for child in children(node)) if literal is not None
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
        if unit > 2 * unpadded_half_unit(against):
            problems.append(
                (
                    ArithmeticCode.ROUNDING_TOO_COARSE,
                    f"{render(node)} rounds to units of {fraction_text(unit)}, coarser than {against.written} is "
                    f"written ({precision_text(against)}): round to that numeral's own precision",
                )
            )
    return problems


def precision_text(numeral: Numeral) -> str:
    """How precisely a numeral is written: `2 decimals, 3 significant digits`, and for one whose decimals end
    in zeros (8.530) the decimals without them (`3 decimals, 4 significant digits; 2 decimals without its
    padded zero`)."""
    mantissa, _, exponent = numeral.written.rstrip("%").lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    decimals = len(fraction) - (int(exponent) if exponent else 0)
    significant = len((whole + fraction).lstrip("0")) or 1
    text = f"{_plural(decimals, 'decimal')}, {_plural(significant, 'significant digit')}"
    padded = len(fraction) - len(fraction.rstrip("0"))
    if padded:
        text += f"; {_plural(decimals - padded, 'decimal')} without its padded zero{'' if padded == 1 else 's'}"
    return text


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def unpadded_half_unit(numeral: Numeral) -> Fraction:
    """Half a unit of the numeral's last decimal that is not a padded zero: a table printing 8.53 as 8.530
    states 8.53, so a rounding to 2 decimals may be compared with it (never one coarser than 8.53)."""
    mantissa = numeral.written.rstrip("%").partition("e")[0]
    fraction = mantissa.partition(".")[2]
    padded = len(fraction) - len(fraction.rstrip("0"))
    return numeral.half_unit * Fraction(10) ** padded


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
        shown = brief(rendered)
        named = "an order whose direction the premises state" if meaning == PREFERENCE else meaning
        detail = f"{shown} is {'true' if holds else 'false'}; the text writes {result!r} ({named}): {outcome}"
        exact_only = bits == PRECISIONS[0] and not _irrational(tree)
        constants = physical_constants(tree)
        used_units = any(literal.unit is not None for literal in literals(tree)) or bool(constants)
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
            constants=constants,
        )
    raise CgxError(ArithmeticCode.VALUE_UNDECIDED, f"{rendered}: a comparison lies too close to call at any precision")


_ORDERED = frozenset({"within", "sorted_desc", "sorted_asc", "is_max", "is_min", "same_order"})


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
    literal = signed(node)[1]
    return literal if isinstance(literal, LiteralNode) else None


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


_RATIONAL = frozenset({*TRUTH_FUNCTIONS, "count", *ROUNDINGS, "abs", "mean", "median", "min", "max"})
"""The functions whose value is rational when their arguments are: a check of them alone is exact."""


def _named(node: Node) -> str:
    if isinstance(node, Compare):
        return f"the comparison {render(node.left)} {node.op} {render(node.right)}"
    return f"{getattr(node, 'name', '')}()"
