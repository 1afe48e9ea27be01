"""The one converter that turns raw JSON into records, strictly, with the JSON path of every bad field.

It coerces nothing: a string is a JSON string, an integer a JSON integer (not a boolean, not 1.0), an
array a JSON array, an object a JSON object with no key the format does not have, and a form value any
finite JSON value. Every failure is reported with its path, such as `extra fields found (credence) @
$.records[2]`, so the agent can see which field of which record to change; every bad field is reported,
not only the first.

The reading follows cattrs' strict structuring and `transform_error` exactly (the same messages, the same
paths, in the same order: a class's fields in their order, then its unknown keys; an array's items in
theirs), and tests/core/assembler/test_converter_oracle.py holds it to a cattrs converter on generated
records. It is written out here because a cold `tool classify` imports it: cattrs' import and its code
generation for the record classes were about a seventh of such a call beyond credencegraph's own import. Each
record class's reading is built from its attrs fields the first time it is needed, so a tool pays only for
the classes it reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, get_args, get_type_hints

import attrs

from cgx_core.assembler.records import (
    AnyClassifyRecord,
    FieldInvalid,
    Form,
    NodeId,
    Phrase,
    Premise,
    SplitRecord,
    StatedAt,
    Statement,
    TypeName,
)
from cgx_core.base.json_values import json_kind
from cgx_core.codes import Code
from cgx_core.errors import CgxError

Reader = Callable[[object], Any]
"""Builds one value of a type from raw JSON, or raises `_Refused`."""


class _Refused(Exception):
    """A value could not be built: each problem as (the path below the value, what is wrong)."""

    def __init__(self, found: list[tuple[str, str]]) -> None:
        super().__init__(found)
        self.found = found


def _refuse(message: str) -> _Refused:
    return _Refused([("", message)])


def _strict[T](kind: type[T], wanted: str) -> Reader:
    """Exactly JSON values of `kind` (so `"1"` is not an integer and `true` not an integer either), refusing
    anything else as `expected <wanted>`."""

    def read(value: object) -> T:
        if type(value) is not kind:
            raise _refuse(f"expected {wanted}, got {json_kind(value)}")
        return value

    return read


_strict_str = _strict(str, "a string")


def _strict_float(value: object) -> float:
    if type(value) not in (int, float):
        raise _refuse(f"expected a number, got {json_kind(value)}")
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number):
        raise _refuse(f"expected a finite number, got {value!r}")
    return number


def _json_problem(value: object, where: str) -> str | None:
    """Why a value is not finite JSON, or None when it is."""
    if value is None or type(value) in (bool, int, str):
        return None
    if isinstance(value, float) and type(value) is float:
        return None if math.isfinite(value) else f"{where} is {value!r}, and a JSON number is finite"
    if isinstance(value, list) and type(value) is list:
        for index, item in enumerate(value):
            problem = _json_problem(item, f"{where}[{index}]")
            if problem is not None:
                return problem
        return None
    if isinstance(value, dict) and type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                return f"{where} has the key {key!r}, and a JSON object's keys are strings"
            problem = _json_problem(item, f"{where}.{key}")
            if problem is not None:
                return problem
        return None
    return f"{where} is {json_kind(value)}"


def _form(value: object) -> Form:
    if type(value) is not dict:
        raise _refuse(f"expected an object of form fields, got {json_kind(value)}")
    problem = _json_problem(value, "form")
    if problem is not None:
        raise _refuse(problem)
    return Form(dict(value))


def _present_phrase(value: object) -> Phrase:
    """An optional phrase is left out when absent; `null` is not a phrase (the schema says string)."""
    if value is None:
        raise _refuse("expected a string, got null (leave the field out instead)")
    return Phrase(_strict_str(value))


def _tuple(item: Reader) -> Reader:
    """Homogeneous tuples (`tuple[X, ...]`) from JSON arrays only: a string is not a tuple of characters."""

    def read(value: object) -> tuple[Any, ...]:
        if type(value) is not list:
            raise _refuse(f"expected an array, got {json_kind(value)}")
        items: list[Any] = []
        found: list[tuple[str, str]] = []
        for index, element in enumerate(value):
            try:
                items.append(item(element))
            except _Refused as refused:
                found.extend((f"[{index}]{below}", problem) for below, problem in refused.found)
            except RecursionError:
                found.append((f"[{index}]", "nested too deeply"))
        if found:
            raise _Refused(found)
        return tuple(items)

    return read


def _record(cls: type[Any]) -> Reader:
    """An attrs record class from a JSON object only: every field read (a missing required one reported),
    unknown keys refused, and a validator's failure given the path of its field."""
    hints = get_type_hints(cls)
    fields = [(field.name, field.default is attrs.NOTHING, reader(hints[field.name])) for field in attrs.fields(cls)]
    names = frozenset(name for name, _, _ in fields)

    def read(value: object) -> Any:
        if type(value) is not dict:
            raise _refuse(f"expected an object, got {json_kind(value)}")
        built: dict[str, Any] = {}
        found: list[tuple[str, str]] = []
        for name, required, read_field in fields:
            if name not in value:
                if required:
                    found.append((f".{name}", "required field missing"))
                continue
            try:
                built[name] = read_field(value[name])
            except _Refused as refused:
                found.extend((f".{name}{below}", problem) for below, problem in refused.found)
            except RecursionError:
                found.append((f".{name}", "nested too deeply"))
        unknown = set(value) - names
        if unknown:
            found.append(("", f"extra fields found ({', '.join(sorted(map(str, unknown)))})"))
        if found:
            raise _Refused(found)
        try:
            return cls(**built)
        except FieldInvalid as invalid:
            raise _Refused([(f".{invalid.field}" if invalid.field in names else "", invalid.message)]) from None

    return read


def _classify_record(value: object) -> Any:
    """A classify record is a split record when it has `split` or `children`, a plain one otherwise."""
    from cgx_core.assembler.records import ClassifyRecord

    if type(value) is not dict:
        raise _refuse(f"expected an object, got {json_kind(value)}")
    return reader(SplitRecord if "split" in value or "children" in value else ClassifyRecord)(value)


def _premise(value: object) -> Any:
    """A premise is `{"stated_at": id}` or `{"statement": text}`, told apart by its key."""
    if type(value) is not dict:
        raise _refuse(f'expected an object, {{"stated_at": id}} or {{"statement": text}}, got {json_kind(value)}')
    if "stated_at" in value:
        return reader(StatedAt)(value)
    if "statement" in value:
        return reader(Statement)(value)
    raise _refuse('a premise is {"stated_at": "<chunk id>"} or {"statement": "<text>"}')


_READERS: dict[object, Reader] = {
    str: _strict_str,
    int: _strict(int, "an integer"),
    bool: _strict(bool, "true or false"),
    float: _strict_float,
    NodeId: _strict_str,
    TypeName: _strict_str,
    Phrase: _strict_str,
    Phrase | None: _present_phrase,
    Form: _form,
    AnyClassifyRecord: _classify_record,
    Premise: _premise,
}
"""The reader of each type a record's field may have; those of tuples and record classes are added the
first time they are asked for."""


def reader(type_: Any) -> Reader:
    """The reader of `type_`: one of the above, a homogeneous tuple of one, or a record class."""
    found = _READERS.get(type_)
    if found is not None:
        return found
    args = get_args(type_)
    if getattr(type_, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis:
        made = _tuple(reader(args[0]))
    elif isinstance(type_, type) and attrs.has(type_):
        made = _record(type_)
    else:
        raise TypeError(f"no reader for {type_!r}: a record's field needs one")
    _READERS[type_] = made
    return made


def structure[T](value: object, cls: type[T] | Any, *, path: str = "$", code: Code = Code.RECORD_INVALID) -> T:
    """Build `cls` from a raw JSON value, or raise `CgxError(code, ...)` naming every bad field by its path.

    `cls` is a record class, one of the record unions (`AnyClassifyRecord`, `Premise`) or a JSON scalar
    type. Nothing else escapes: whatever the value, the result is a record or our error.
    """
    try:
        return reader(cls)(value)  # type: ignore[no-any-return]
    except _Refused as refused:
        found = refused.found
    except RecursionError:
        found = [("", "nested too deeply")]
    raise CgxError(code, "; ".join(f"{problem} @ {path}{below}" for below, problem in found))
