"""The records an agent sends to `classify` and `add_premises`, as immutable values.

A record is the agent's whole say in the graph: it names nodes, types, clauses and phrases of the text,
and never a number the graph would take as a credence. These classes hold exactly the fields of the two
formats and nothing else, so a record that carries a `credence` (or any field the format does not have)
cannot even be built. They are built from JSON only through `cgx_core.assembler.converter`, which checks every JSON
type strictly and reports the path of every bad field; the validators here state the invariants of a
built record (a split has two clauses at least, a phrase is not blank) whatever built it.
"""

from __future__ import annotations

from typing import Any, NewType

import attrs
from credencegraph.rubric import normalise_text

NodeId = NewType("NodeId", str)
"""The id of a node of the run, such as `s-03`, `s-03a`, `e-1` or `a-2`: a non-empty string."""

TypeName = NewType("TypeName", str)
"""The name of a type the rubric declares: a non-empty string."""

Phrase = NewType("Phrase", str)
"""Text the agent copies from the document or writes itself: not blank once normalised."""

Form = NewType("Form", dict[str, Any])
"""A form: field name -> JSON value (finite numbers only). The rubric, not the record, says which fields
exist and credencegraph checks each value against the text."""


class FieldInvalid(ValueError):
    """A built record breaks an invariant of one of its fields.

    The converter turns it into a message with the field's JSON path, such as
    `needs at least 2 items, got 1 @ $.records[0].split`.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _min_items(minimum: int) -> Any:
    """A validator: the sequence has at least `minimum` items."""

    def check(_instance: object, attribute: attrs.Attribute[Any], value: tuple[object, ...]) -> None:
        if len(value) < minimum:
            noun = "item" if minimum == 1 else "items"
            raise FieldInvalid(attribute.name, f"needs at least {minimum} {noun}, got {len(value)}")

    return check


def _not_blank(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A validator: a string (or each string of a tuple) is not empty once normalised."""
    items = value if isinstance(value, tuple) else (value,)
    for index, item in enumerate(items):
        if isinstance(item, str) and not normalise_text(item):
            where = f"item {index} " if isinstance(value, tuple) else ""
            raise FieldInvalid(attribute.name, f"{where}must not be blank")


def _optional_not_blank(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A validator: an optional string, when given, is not blank."""
    if value is not None:
        _not_blank(instance, attribute, value)


@attrs.frozen
class ChildRecord:
    """The classification of one clause of a split chunk: `{type, form?, rests_on?, hedge?}`."""

    type: TypeName = attrs.field(validator=_not_blank)
    form: Form = attrs.field(factory=lambda: Form({}))
    rests_on: tuple[NodeId, ...] = attrs.field(default=(), validator=_not_blank)
    hedge: Phrase | None = attrs.field(default=None, validator=_optional_not_blank)


@attrs.frozen
class ClassifyRecord:
    """The classification of one whole chunk: `{node, type, form?, rests_on?, hedge?}`."""

    node: NodeId = attrs.field(validator=_not_blank)
    type: TypeName = attrs.field(validator=_not_blank)
    form: Form = attrs.field(factory=lambda: Form({}))
    rests_on: tuple[NodeId, ...] = attrs.field(default=(), validator=_not_blank)
    hedge: Phrase | None = attrs.field(default=None, validator=_optional_not_blank)

    def as_child(self) -> ChildRecord:
        """The typing part of the record, the same shape a split child has."""
        return ChildRecord(self.type, self.form, self.rests_on, self.hedge)


@attrs.frozen
class SplitRecord:
    """A chunk that makes several statements: `{node, split: [clauses], children: [ChildRecord, ...]}`.

    Each clause is verbatim text of the chunk and gets the child at the same position.
    """

    node: NodeId = attrs.field(validator=_not_blank)
    split: tuple[Phrase, ...] = attrs.field(validator=[_min_items(2), _not_blank])
    children: tuple[ChildRecord, ...] = attrs.field(validator=_min_items(1))


@attrs.frozen
class StatedAt:
    """A premise the document states: `{stated_at: chunk id}`."""

    stated_at: NodeId = attrs.field(validator=_not_blank)


@attrs.frozen
class Statement:
    """A premise the document leaves unsaid, written by the agent: `{statement: text}`."""

    statement: Phrase = attrs.field(validator=_not_blank)


@attrs.frozen
class PremiseRecord:
    """What else must be true for a conclusion to follow: `{conclusion, premises: [...]}`."""

    conclusion: NodeId = attrs.field(validator=_not_blank)
    premises: tuple[StatedAt | Statement, ...] = attrs.field(validator=_min_items(1))


AnyClassifyRecord = ClassifyRecord | SplitRecord
"""One record of a classify call."""

Premise = StatedAt | Statement
"""One premise of a premise record."""
