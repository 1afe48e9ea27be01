"""What an agent reads about the classify and add_premises tools: their rules, an example, their schemas.

The tool registry hands these to MCP and the command line alike, so an agent that reads only a tool's
description writes a correct record. The schemas describe one record exactly (no field beyond the
format's, strings that are not blank, two clauses at least); tests prove that a record the schema
accepts is a record the converter accepts, and that each example record applies cleanly.

Each schema's `items` holds its record formats under `anyOf` and nothing else, on purpose: the tool
argument checker (`cgx_core.base.json_schema`) reads a subset of JSON Schema without `anyOf`, so it lets
every record through to the assembler, which refuses a bad one as `record-invalid` with the path of the
bad field and a fix, and applies the others. One bad record never costs the agent the whole call.
"""

from __future__ import annotations

import json
from typing import Any, Final

CLASSIFY_EXAMPLE: Final[dict[str, Any]] = {
    "node": "s-2",
    "split": ["The bias vanishes for long segments", "the estimator is likely consistent"],
    "children": [
        {"type": "result", "form": {"quantity": "The bias"}, "rests_on": ["s-1"]},
        {"type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-2a"], "hedge": "likely"},
    ],
}
"""The example record of CLASSIFY_DESCRIPTION (types and form fields of the example rubric)."""

PREMISES_EXAMPLE: Final[dict[str, Any]] = {
    "conclusion": "s-2b",
    "premises": [{"stated_at": "s-1"}, {"statement": "The noise is stationary over the observation."}],
}
"""The example record of PREMISES_DESCRIPTION."""

CLASSIFY_DESCRIPTION: Final = """\
Type the chunks, one record per chunk, in any order (a call's records are judged together, so one may \
rest on a node another types). A record is {"node", "type", "form"?, "rests_on"?, "hedge"?} or, for a \
chunk making several statements, {"node", "split": [verbatim clauses], "children": [{"type", "form"?, \
"rests_on"?, "hedge"?}, ...]}, one child per clause; no credence, base or strength (the rubric gives those).
- node: a chunk id as start_run lists it (s-03); a split chunk's clauses are s-03a, s-03b.
- type: a document type start_run lists; form: its fields, each value found in the node's own text \
(number: a JSON number, 0.008 for "0.8%"; quantity: {"value", "unit"}); required fields may wait until \
finish_run.
- rests_on: nodes of the types the node's type rests on. hedge: whole words of the node's text \
("suggests"), never a credence, read as the longest listed phrase it holds (unmapped_hedges: none).
- Classifying a typed node again returns it to unassigned first (refused once a check targets it).
A refused record comes back under "refused" with a code and a "fix": send it corrected.
Example record (the example rubric's types):
""" + json.dumps(CLASSIFY_EXAMPLE)

PREMISES_DESCRIPTION: Final = """\
Add the premises of conclusions (nodes of a type in the rubric's premises.for): what else must be true \
for each to follow? One record per conclusion, no credence, base or strength:
{"conclusion": "<node id>", "premises": [{"stated_at": "<chunk id>"} or {"statement": "<text>"}, ...]}
- stated_at: a chunk stating the premise, of a type the conclusion's type rests on.
- statement: a premise the paper leaves unsaid, one sentence: an analyst node a-N (an assumption); equal \
statements are one node. Beyond premises.max_per_conclusion they come back under "overflow": most \
important first.
A refused record comes back under "refused" with a code and a "fix".
Example record:
""" + json.dumps(PREMISES_EXAMPLE)

_ID: Final = {"type": "string", "minLength": 1, "pattern": r"\S", "description": "a node id such as s-03 or s-03a"}
_TEXT: Final = {"type": "string", "minLength": 1, "pattern": r"\S"}
_TYPING: Final[dict[str, Any]] = {
    "type": {**_TEXT, "description": "a document type start_run lists"},
    "form": {"type": "object", "description": "form fields of the type; each value found in the node's text"},
    "rests_on": {"type": "array", "items": _ID, "description": "ids of the nodes this one rests on"},
    "hedge": {**_TEXT, "description": "a phrase of the node's own text, as whole words"},
}
_CHILD: Final = {
    "type": "object",
    "properties": _TYPING,
    "required": ["type"],
    "additionalProperties": False,
}
_PLAIN_RECORD: Final = {
    "type": "object",
    "description": "the classification of one whole chunk",
    "properties": {"node": _ID, **_TYPING},
    "required": ["node", "type"],
    "additionalProperties": False,
}
_SPLIT_RECORD: Final = {
    "type": "object",
    "description": "a chunk that makes several statements, split into verbatim clauses with one typed child each",
    "properties": {
        "node": _ID,
        "split": {
            "type": "array",
            "minItems": 2,
            "items": {**_TEXT, "description": "a clause occurring exactly once in the chunk"},
        },
        "children": {"type": "array", "minItems": 1, "items": _CHILD, "description": "one per clause, in order"},
    },
    "required": ["node", "split", "children"],
    "additionalProperties": False,
}
_PREMISE: Final = {
    "anyOf": [
        {
            "type": "object",
            "properties": {"stated_at": {**_ID, "description": "the chunk that states the premise"}},
            "required": ["stated_at"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"statement": {**_TEXT, "description": "a premise the document leaves unsaid"}},
            "required": ["statement"],
            "additionalProperties": False,
        },
    ]
}
_PREMISE_RECORD: Final = {
    "type": "object",
    "description": "the premises of one conclusion",
    "properties": {
        "conclusion": {**_ID, "description": "a node whose type is in premises.for"},
        "premises": {"type": "array", "minItems": 1, "items": _PREMISE},
    },
    "required": ["conclusion", "premises"],
    "additionalProperties": False,
}

CLASSIFY_RECORDS_SCHEMA: Final[dict[str, Any]] = {
    "type": "array",
    "description": "one classify record per chunk; a bad record is refused on its own, with a fix",
    "items": {"anyOf": [_PLAIN_RECORD, _SPLIT_RECORD]},
}
"""The JSON schema of classify's `records` argument."""

PREMISE_RECORDS_SCHEMA: Final[dict[str, Any]] = {
    "type": "array",
    "description": "one premise record per conclusion; a bad record is refused on its own, with a fix",
    "items": {"anyOf": [_PREMISE_RECORD]},
}
"""The JSON schema of add_premises' `records` argument."""
