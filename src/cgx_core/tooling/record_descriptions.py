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
Type the chunks of the paper. Send one record per chunk, in any order: the records of a call are \
applied in document order and judged together, so a record may rest on a node that another record of \
the same call types, even one further on in the document.

A record is {"node", "type", "form"?, "rests_on"?, "hedge"?}, or, for a chunk that makes several \
statements, {"node", "split": [clauses], "children": [{"type", "form"?, "rests_on"?, "hedge"?}, ...]} \
with one child per clause, in the same order. It has no other field: no credence, base or strength \
(the rubric gives those).
- node: a chunk id exactly as start_run lists it (ids are zero-padded: s-03 when there are ten or more \
sentences). The clauses of a split chunk s-03 are s-03a, s-03b, ...; a clause is classified with a plain \
record, after the split.
- type: one of the document types start_run lists.
- form: fields of that type, as start_run lists them; every value must be found in the node's own text. \
verbatim: copied exactly. number: a numeral the text writes, as a JSON number (0.008 for "0.8%", 1200 for \
"1,200"). quantity: {"value": <numeral>, "unit": "<unit as written>"}. eqref: the label of an equation \
the text references. enum: one of its values. Required fields may wait, but not past finish_run.
- rests_on: the ids of the nodes this one rests on, each of a type the node's type rests on (start_run \
lists them). A type that rests on nothing takes no rests_on. You may name a clause that a split record \
of the same call creates (s-03a).
- hedge: a phrase of the node's own text, as whole words, that qualifies how strongly it is asserted \
("suggests", "we show"). It never sets a credence; a phrase the rubric does not list sets nothing and is \
returned under unmapped_hedges.
- split: clauses copied verbatim from the chunk, each occurring exactly once in it, none overlapping. \
A split chunk is not split again.
- Classifying a typed node again first returns it to unassigned and drops what its earlier record \
rested on; it is refused while nodes that rest on it or premises it keeps would not accept the new type, \
and once a check targets the node.

Each record is applied whole or not at all. A refused record comes back under "refused" with a code, \
the message and a "fix" saying what to send instead: send the corrected record in another call.

Example record (types and fields of the example rubric; use those start_run lists):
""" + json.dumps(CLASSIFY_EXAMPLE)

PREMISES_DESCRIPTION: Final = """\
Add the premises of conclusions: for a node whose type is in the rubric's premises.for (start_run lists \
it), what else must be true for it to follow from what it rests on? Send one record per conclusion:
{"conclusion": "<node id>", "premises": [{"stated_at": "<chunk id>"} or {"statement": "<text>"}, ...]}
It has no other field: no credence, base or strength (the rubric gives those).
- stated_at: a chunk (or clause) of the document that states the premise, typed with a type the \
conclusion's type rests on. It becomes a requires relation from that chunk; naming one the conclusion \
already rests on adds nothing.
- statement: a premise the document leaves unsaid, as one sentence of your own. It becomes an analyst \
node a-1, a-2, ... (type assumption, no source) joined to the conclusion. Statements equal after \
whitespace normalisation are one node shared by every conclusion that names it: write a shared \
assumption the same way each time.
- A conclusion takes at most premises.max_per_conclusion statement premises in all; the ones beyond are \
not added and come back under "overflow", so put the most important first.

Each record is applied whole or not at all. A refused record comes back under "refused" with a code, \
the message and a "fix" saying what to send instead.

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
