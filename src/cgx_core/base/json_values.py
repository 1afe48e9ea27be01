"""Naming a value's JSON type in a message, one way everywhere (`a string`, `an array`, `null`, ...)."""

from __future__ import annotations


def json_kind(value: object) -> str:
    """How a value reads as JSON, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}, which is not JSON"
