"""Pieces of JSON schema every tool shares: the run directory and who makes a changing call."""

from __future__ import annotations

from typing import Any

RUN: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 4096,
    "description": "The run directory (every tool takes it; the server keeps no state of its own).",
}
MODEL: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "description": "The model making this call, exactly as the harness reports it (for example 'claude-opus-4-1').",
}
AGENT: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "description": "Optional: a name for one of several agents sharing the run.",
}
NOTE: dict[str, Any] = {
    "type": "string",
    "maxLength": 20000,
    "description": "Optional free text kept with the call in the log; never used in inference.",
}
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
