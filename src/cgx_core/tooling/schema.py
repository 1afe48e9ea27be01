"""Pieces of JSON schema every tool shares: the run directory and who makes a changing call."""

from __future__ import annotations

from typing import Any


def _text(description: str, *, max_length: int, min_length: int = 0) -> dict[str, Any]:
    """A string argument: its length bounds and what it is."""
    bounds = {"minLength": min_length} if min_length else {}
    return {"type": "string", **bounds, "maxLength": max_length, "description": description}


RUN = _text("The run directory.", max_length=4096, min_length=1)
MODEL = _text("Your model id, as the harness reports it.", max_length=200, min_length=1)
AGENT = _text("Optional: your name, when agents share the run.", max_length=200, min_length=1)
NOTE = _text("Optional: logged, never read.", max_length=20000)
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
