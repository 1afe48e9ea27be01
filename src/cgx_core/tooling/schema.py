"""Pieces of JSON schema every tool shares: the run directory and who makes a changing call, and the one rule
the schema cannot say about the free strings a call is logged and printed with."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, Final


def text(description: str, *, max_length: int, min_length: int = 0) -> dict[str, Any]:
    """A string argument: its length bounds and what it is."""
    bounds = {"minLength": min_length} if min_length else {}
    return {"type": "string", **bounds, "maxLength": max_length, "description": description}


RUN = text("The run directory.", max_length=4096, min_length=1)
MODEL = text("Your model id, as the harness reports it.", max_length=200, min_length=1)
AGENT = text("Optional: your name, when agents share the run.", max_length=200, min_length=1)
NOTE = text("Optional: logged, never read.", max_length=20000)
CALLER_FIELDS = ("model", "agent", "note")


def changing(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """The argument schema of a tool that changes the run: its own arguments plus run, model, agent, note."""
    return {
        "type": "object",
        "properties": {"run": RUN, **properties, "model": MODEL, "agent": AGENT, "note": NOTE},
        "required": ["run", *required, "model"],
        "additionalProperties": False,
    }


def reading(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """The argument schema of a tool that only reads the run."""
    return {
        "type": "object",
        "properties": {"run": RUN, **properties},
        "required": ["run", *required],
        "additionalProperties": False,
    }


NAMES: Final = ("model", "agent", "reviewer")
"""Free strings that name someone, printed on one line (the log, the report, the command line)."""
TEXTS: Final = ("note", "reason")
"""Free strings of prose: a newline or a tab is text, no other control character is."""
_HIDDEN: Final = frozenset({"Cc", "Cf", "Zl", "Zp"})


def free_string_problems(args: Mapping[str, Any]) -> list[str]:
    """Every control character in a call's free strings: in a name any control or format character (a terminal
    escape, a bidirectional override, a line break would make a printed name say something else), in a text any
    control character but a newline or a tab."""
    found = []
    for name in (*NAMES, *TEXTS):
        value = args.get(name)
        if not isinstance(value, str):
            continue
        for char in value:
            hidden = unicodedata.category(char) in _HIDDEN if name in NAMES else unicodedata.category(char) == "Cc"
            if hidden and (name in NAMES or char not in "\n\t"):
                found.append(f"$.{name} holds the control character U+{ord(char):04X}; it must be printable text")
                break
    return found
