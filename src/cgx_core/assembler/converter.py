"""The one converter that turns raw JSON into records, strictly, with the JSON path of every bad field.

It is cattrs' converter (as the project's design card names it), configured to coerce nothing: a string is a
JSON string, an integer a JSON integer (not a boolean, not 1.0), an array a JSON array, an object a JSON object
with no key the format does not have (`forbid_extra_keys`), and a form value any finite JSON value. Every
failure is reported with its path by `cattrs.transform_error`, such as `extra fields found (credence) @
$.records[2]`, so the agent can see which field of which record to change; every bad field is reported, not
only the first (`detailed_validation`).

cattrs' import and its code generation for the record classes cost a cold `tool classify` about 15 ms of CPU
(benchmarks/README.md, "The warm process, measured before it was retired"): a written-out copy of its strict
structuring stood in for it until then, and was retired as not worth its 244 lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, get_args

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn

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


class JsonTypeError(ValueError):
    """A value has the wrong JSON type, or is not JSON at all; the message says what was expected."""


def _strict[T](kind: type[T], wanted: str) -> Callable[[object, object], T]:
    """A structure hook that takes exactly JSON values of `kind` (so `"1"` is not an integer and `true` not
    an integer either), refusing anything else as `expected <wanted>`."""

    def hook(value: object, _type: object) -> T:
        if type(value) is not kind:
            raise JsonTypeError(f"expected {wanted}, got {json_kind(value)}")
        return value

    return hook


_strict_str = _strict(str, "a string")
_strict_int = _strict(int, "an integer")
_strict_bool = _strict(bool, "true or false")


def _strict_float(value: object, _type: object) -> float:
    if type(value) not in (int, float):
        raise JsonTypeError(f"expected a number, got {json_kind(value)}")
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number):
        raise JsonTypeError(f"expected a finite number, got {value!r}")
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


def _form(value: object, _type: object) -> Form:
    if type(value) is not dict:
        raise JsonTypeError(f"expected an object of form fields, got {json_kind(value)}")
    problem = _json_problem(value, "form")
    if problem is not None:
        raise JsonTypeError(problem)
    return Form(dict(value))


def _tuple_factory(converter: cattrs.Converter) -> Callable[[Any], Callable[[object, object], tuple[Any, ...]]]:
    """Homogeneous tuples (`tuple[X, ...]`) from JSON arrays only: a string is not a tuple of characters."""

    def factory(tuple_type: Any) -> Callable[[object, object], tuple[Any, ...]]:
        item_type = get_args(tuple_type)[0]
        item_hook = converter.get_structure_hook(item_type)

        def hook(value: object, _type: object) -> tuple[Any, ...]:
            if type(value) is not list:
                raise JsonTypeError(f"expected an array, got {json_kind(value)}")
            items: list[Any] = []
            errors: list[Exception] = []
            for index, item in enumerate(value):
                try:
                    items.append(item_hook(item, item_type))
                except Exception as error:
                    note = IterableValidationNote(f"Structuring {tuple_type} @ index {index}", index, item_type)
                    error.__notes__ = [*getattr(error, "__notes__", []), note]
                    errors.append(error)
            if errors:
                raise IterableValidationError(f"While structuring {tuple_type}", errors, tuple_type)
            return tuple(items)

        return hook

    return factory


def _is_homogeneous_tuple(type_: Any) -> bool:
    args = get_args(type_)
    return getattr(type_, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis


def _attrs_factory(converter: cattrs.Converter) -> Callable[[type[Any]], Callable[[object, object], Any]]:
    """attrs classes from JSON objects only, with unknown keys refused and validator failures given a path."""

    def factory(cls: type[Any]) -> Callable[[object, object], Any]:
        generated = make_dict_structure_fn(
            cls, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
        )

        def hook(value: object, _type: object) -> Any:
            if type(value) is not dict:
                raise JsonTypeError(f"expected an object, got {json_kind(value)}")
            try:
                return generated(value, cls)
            except ClassValidationError as error:
                # A validator's failure comes back without the field it concerns: give it its field,
                # so its message carries the field's path like every other failure.
                fields = attrs.fields_dict(cls)
                for inner in error.exceptions:
                    if isinstance(inner, FieldInvalid) and inner.field in fields:
                        note = AttributeValidationNote(
                            f"Structuring {cls.__name__}.{inner.field}", inner.field, fields[inner.field].type
                        )
                        inner.__notes__ = [note]
                raise

        return hook

    return factory


def _classify_record(converter: cattrs.Converter) -> Callable[[object, object], AnyClassifyRecord]:
    """A classify record is a split record when it has `split` or `children`, a plain one otherwise."""
    from cgx_core.assembler.records import ClassifyRecord

    def hook(value: object, _type: object) -> AnyClassifyRecord:
        if type(value) is not dict:
            raise JsonTypeError(f"expected an object, got {json_kind(value)}")
        if "split" in value or "children" in value:
            return converter.structure(value, SplitRecord)
        return converter.structure(value, ClassifyRecord)

    return hook


def _premise(converter: cattrs.Converter) -> Callable[[object, object], Premise]:
    """A premise is `{"stated_at": id}` or `{"statement": text}`, told apart by its key."""

    def hook(value: object, _type: object) -> Premise:
        if type(value) is not dict:
            raise JsonTypeError(
                f'expected an object, {{"stated_at": id}} or {{"statement": text}}, got {json_kind(value)}'
            )
        if "stated_at" in value:
            return converter.structure(value, StatedAt)
        if "statement" in value:
            return converter.structure(value, Statement)
        raise JsonTypeError('a premise is {"stated_at": "<chunk id>"} or {"statement": "<text>"}')

    return hook


def _present_phrase(value: object, _type: object) -> Phrase:
    """An optional phrase is left out when absent; `null` is not a phrase (the schema says string)."""
    if value is None:
        raise JsonTypeError("expected a string, got null (leave the field out instead)")
    return Phrase(_strict_str(value, str))


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(float, _strict_float)
    converter.register_structure_hook(bool, _strict_bool)
    for new_type in (NodeId, TypeName, Phrase):
        converter.register_structure_hook(new_type, _strict_str)
    converter.register_structure_hook(Phrase | None, _present_phrase)
    converter.register_structure_hook(Form, _form)
    converter.register_structure_hook_factory(_is_homogeneous_tuple, _tuple_factory(converter))
    converter.register_structure_hook_factory(attrs.has, _attrs_factory(converter))
    converter.register_structure_hook(AnyClassifyRecord, _classify_record(converter))
    converter.register_structure_hook(Premise, _premise(converter))
    return converter


CONVERTER: Final[cattrs.Converter] = _make_converter()


def _describe(error: BaseException, type_: type | None) -> str:
    """One failure in words: ours say what was expected, cattrs' are given their usual wording."""
    if isinstance(error, JsonTypeError | FieldInvalid):
        return str(error)
    if isinstance(error, ForbiddenExtraKeysError):
        return f"extra fields found ({', '.join(sorted(error.extra_fields))})"
    if isinstance(error, KeyError):
        return "required field missing"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return cattrs.v.format_exception(error, type_)


def problems(error: BaseException, path: str) -> list[str]:
    """Every failure inside a structuring error, each with its JSON path under `path`."""
    return cattrs.transform_error(error, path, _describe)


def structure[T](value: object, cls: type[T] | Any, *, path: str = "$", code: Code = Code.RECORD_INVALID) -> T:
    """Build `cls` from a raw JSON value, or raise `CgxError(code, ...)` naming every bad field by its path.

    `cls` is a record class or one of the record unions (`AnyClassifyRecord`, `Premise`). Nothing else
    escapes: whatever the value, the result is a record or our error.
    """
    try:
        return CONVERTER.structure(value, cls)  # type: ignore[no-any-return]
    except Exception as error:
        raise CgxError(code, "; ".join(problems(error, path))) from None
