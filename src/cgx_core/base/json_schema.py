"""Checking JSON against a JSON schema, strictly and quickly: a tool's arguments, and a proposal's fields.

Both front ends hand a tool's arguments to this one checker, so a wrong type, an unknown or a missing
argument is the same `invalid-arguments` error through MCP and the command line; the check engine checks
each proposal's fields against its check type's schema with the same rules (`problems`). It reads the
subset of JSON Schema our schemas use (type, properties, required, additionalProperties, items, enum,
minimum, maximum, minLength, maxLength, minItems, maxItems). It is written here rather than imported because the
`tool` command must start fast (the `jsonschema` package takes about 180 ms to import) and because JSON
types are checked strictly: `true` is not an integer and `1.0` is not an integer.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from cgx_core.base.json_values import json_kind
from cgx_core.base.limits import MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_STRING
from cgx_core.codes import Code
from cgx_core.errors import CgxError

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
}


def _type_ok(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    return isinstance(value, _TYPES[name])


@attrs.frozen
class _Bound:
    """A lower and an upper bound of one kind of value (`minLength`/`maxLength` of a string, ...), with what a
    value below or above it must be, in words."""

    kinds: tuple[type, ...]
    measure: Callable[[Any], Any]
    low: str
    below: str
    high: str
    above: str

    def applies(self, value: Any) -> bool:
        return isinstance(value, self.kinds) and not isinstance(value, bool)

    def problems(self, value: Any, schema: Mapping[str, Any], path: str) -> list[str]:
        measured = self.measure(value)
        found = []
        if self.low in schema and measured < schema[self.low]:
            found.append(f"{path} must {self.below.format(schema[self.low])}")
        if self.high in schema and measured > schema[self.high]:
            found.append(f"{path} must {self.above.format(schema[self.high])}")
        return found


_BOUNDS: Final = (
    _Bound(
        (str,), len, "minLength", "not be shorter than {} characters", "maxLength", "not be longer than {} characters"
    ),
    _Bound((int, float), lambda number: number, "minimum", "be at least {}", "maximum", "be at most {}"),
    _Bound((list,), len, "minItems", "have at least {} items", "maxItems", "have at most {} items"),
)


def problems(value: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Every way `value` breaks `schema`, each with its JSON path."""
    found: list[str] = []
    wanted = schema.get("type")
    if wanted is not None:
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        if not any(_type_ok(value, name) for name in names):
            return [f"{path} must be {' or '.join(names)}, got {json_kind(value)}"]
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{path} must be one of {json.dumps(schema['enum'])}, got {json.dumps(value)}")
    for bound in _BOUNDS:
        if bound.applies(value):
            found.extend(bound.problems(value, schema, path))
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found.extend(problems(item, schema["items"], f"{path}[{index}]"))
    if isinstance(value, dict):
        properties: Mapping[str, Any] = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                found.append(f"{path}: the required argument '{name}' is missing")
        if schema.get("additionalProperties", True) is False:
            extra = sorted(set(value) - set(properties))
            if extra:
                found.append(f"{path}: unknown argument(s) {extra}; this takes {sorted(properties)}")
        for name, item in value.items():
            if name in properties:
                found.extend(problems(item, properties[name], f"{path}.{name}"))
    return found


MAX_INTEGER_BITS = 13_000
"""About 3,900 digits: Python refuses to write an integer of more than 4,300 digits back as text."""


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"


def json_problems(value: Any, path: str = "$") -> list[str]:
    """Every value that is not JSON one can write back, or that no call needs: NaN or an infinity (JSON has
    neither, though Python's parser reads 1e400 as one), a string or key holding a lone surrogate (no UTF-8 for
    it), an integer too large to print, a string longer than MAX_ARGUMENT_STRING characters (one accepted call
    could add 50 MB to the log), a value nested deeper than MAX_ARGUMENT_DEPTH (9,997 levels ran the converter
    out of stack). The schema check cannot see these inside values it does not describe, and any of them would
    break the log's canonical JSON or bloat it, so they are refused here, whatever the schema."""
    found: list[str] = []
    pending: list[tuple[Any, str, int]] = [(value, path, 0)]
    while pending:
        item, where, depth = pending.pop()
        if isinstance(item, (list, dict)) and depth >= MAX_ARGUMENT_DEPTH:
            found.append(f"{where} is nested deeper than {MAX_ARGUMENT_DEPTH} levels")
        elif isinstance(item, float) and not math.isfinite(item):
            found.append(f"{where} must be a finite number")
        elif isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > MAX_INTEGER_BITS:
            found.append(f"{where} is an integer too large to be a JSON number")
        elif isinstance(item, str) and not _encodable(item):
            found.append(f"{where} holds a lone surrogate, which is not text (no UTF-8 encodes it)")
        elif isinstance(item, str) and len(item) > MAX_ARGUMENT_STRING:
            found.append(f"{where} has {len(item)} characters; a string takes at most {MAX_ARGUMENT_STRING}")
        elif isinstance(item, list):
            pending.extend((element, f"{where}[{index}]", depth + 1) for index, element in enumerate(item))
        elif isinstance(item, dict):
            for key, element in item.items():
                if isinstance(key, str) and not _encodable(key):
                    found.append(f"{where} has a name holding a lone surrogate, which is not text")
                    continue
                if isinstance(key, str) and len(key) > MAX_ARGUMENT_STRING:
                    found.append(f"{where} has a name of {len(key)} characters (at most {MAX_ARGUMENT_STRING})")
                    continue
                pending.append((element, _key_path(where, str(key)), depth + 1))
    if not found:
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        if size > MAX_ARGUMENT_BYTES:
            found.append(f"{path}: the arguments take {size} bytes as JSON; a call takes at most {MAX_ARGUMENT_BYTES}")
    return sorted(found)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_arguments(tool: str, arguments: Any, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as a dict, or `invalid-arguments` naming every problem."""
    if not isinstance(arguments, dict):
        raise CgxError(
            Code.INVALID_ARGUMENTS, f"the arguments of {tool} must be a JSON object, got {json_kind(arguments)}"
        )
    found = json_problems(arguments) or problems(arguments, schema)
    if found:
        raise CgxError(Code.INVALID_ARGUMENTS, f"{tool}: " + "; ".join(found))
    return arguments


def parse_arguments(text: str, what: str = "--args") -> Any:
    """Arguments given as JSON text (the command line's `--args`, or a line of a batch)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, RecursionError) as error:
        raise CgxError(Code.INVALID_JSON, f"{what} is not JSON: {error}") from None
    except ValueError as error:
        raise CgxError(Code.INVALID_JSON, f"{what} is not JSON: {error}") from None


def _refuse_constant(name: str) -> Any:
    """NaN and Infinity are not JSON, though Python's parser takes them."""
    raise ValueError(f"{name} is not a JSON value")
