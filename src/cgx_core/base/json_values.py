"""Naming a value's JSON type in a message, one way everywhere (`a string`, `an array`, `null`, ...)."""

from __future__ import annotations

_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"),  # before int: a bool is an int to Python, never to JSON
    (int, "an integer"),
    (float, "a number"),
    (str, "a string"),
    (list, "an array"),
    (dict, "an object"),
)


def json_kind(value: object) -> str:
    """How a value reads as JSON, for messages."""
    if value is None:
        return "null"
    for kind, name in _KINDS:
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}, which is not JSON"
