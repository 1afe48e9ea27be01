"""The JSON schema of each tool's result: its MCP `outputSchema`, and what `tools` lists as `result`.

A client that knows the shape of a result can check it and read it without guessing; tests check every
result the example run and the real papers produce against these schemas (and the MCP SDK's client checks
every result it receives). The top level of each result is closed (`additionalProperties: false`), so a
key added to a result without its schema fails those tests; entries inside are open, so a plugin's detail
or a new field of a node does not.

An error result (`{"error": {"code", "message"}}`, with `isError` in MCP) carries the same JSON as its
structured content, and some clients (the MCP Inspector among them) check an error's structured content
against the output schema too; so each schema accepts either the tool's result or an error
(`anyOf` of the two sets of required keys).

Every schema uses only keywords strict clients read (no type arrays: a nullable value is an `anyOf` of
two types; no schema without a type), so `npx @modelcontextprotocol/inspector --cli --strict` finds
nothing to report.
"""

from __future__ import annotations

from typing import Any, Final

Json = dict[str, Any]


def _string(description: str = "") -> Json:
    return {"type": "string", **({"description": description} if description else {})}


def _integer(description: str = "") -> Json:
    return {"type": "integer", **({"description": description} if description else {})}


def _boolean(description: str = "") -> Json:
    return {"type": "boolean", **({"description": description} if description else {})}


def _array(items: Json, description: str = "") -> Json:
    return {"type": "array", "items": items, **({"description": description} if description else {})}


ERROR: Final[Json] = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "A stable code (docs/errors.md)."},
        "message": {"type": "string"},
    },
    "required": ["code", "message"],
    "description": "The call could not be made; the run is as it was.",
}


def _result(properties: Json, required: list[str], also: tuple[list[str], ...] = ()) -> Json:
    """A tool's result schema: its result (or another shape it may take, `also`), or an error (the shapes
    never share a key)."""
    return {
        "type": "object",
        "properties": {**properties, "error": ERROR},
        "additionalProperties": False,
        "anyOf": [{"required": required}, *({"required": keys} for keys in also), {"required": ["error"]}],
    }


def _object(properties: Json, required: list[str], description: str = "") -> Json:
    schema: Json = {"type": "object", "properties": properties, "required": required}
    if description:
        schema["description"] = description
    return schema


def _nullable(schema: Json) -> Json:
    return {"anyOf": [schema, {"type": "null"}]}


def _counts(description: str) -> Json:
    return {"type": "object", "additionalProperties": {"type": "integer"}, "description": description}


ANY: Final[Json] = {
    "anyOf": [{"type": kind} for kind in ("string", "number", "boolean", "object", "array", "null")],
    "description": "Any JSON value.",
}
CREDENCE: Final[Json] = {
    "anyOf": [
        {"type": "number"},
        {"type": "object", "properties": {"alpha": {"type": "number"}, "beta": {"type": "number"}}},
    ],
    "description": "A credence as credencegraph writes it: a number, or a Beta {alpha, beta}.",
}
FENCE: Final[Json] = _object(
    {"token": _string(), "meaning": _string()},
    ["token", "meaning"],
    "The token that fences every text quoted from the paper or a source in this result.",
)
RECOVERY: Final[Json] = {
    "type": "object",
    "description": (
        "What this call repaired before it ran: a torn last log line cut away, committed calls completed, a "
        "state.json that disagreed with the log rebuilt from it."
    ),
}
COMMITTED_BUT: Final[Json] = {
    "type": "string",
    "description": (
        "Present when the call was committed but the files derived from it could not be written (a full disk): "
        "the call was applied; never make it again."
    ),
}
FIRST: Final[Json] = _object(
    {"total": _integer("How many there are."), "first": _array(ANY, "The first few.")},
    ["total", "first"],
    "A list that grows with the paper, cut to its first few; the run's manifest.json holds it whole.",
)
PROBLEM: Final[Json] = _object(
    {
        "code": _string("A stable code (docs/errors.md)."),
        "message": _string("What is wrong."),
        "fix": _string("What to change."),
        "child": _integer("The child of a split record the problem is in."),
        "clause": _integer("The clause of a split record the problem is in."),
        "premise": _integer("The premise of a premise record the problem is in."),
    },
    ["code", "message", "fix"],
)
ALSO: Final[Json] = _array(PROBLEM, "The record's other problems, each with its own code and fix.")


def _refusal(item: str, description: str = "") -> Json:
    """A refused record or proposal (`item`): its position in the call, its node, its first problem, and `also`
    the others."""
    position = _integer(f"The {item}'s position in the call.")
    properties = {item: position, "node": _nullable(_string()), **PROBLEM["properties"], "also": ALSO}
    return _object(properties, [item, "node", "code", "message", "fix"], description)


RECORD_REFUSAL: Final[Json] = _refusal(
    "record", "A refused record: its first problem, and `also` the others. Apply every fix and send the record again."
)
NODE: Final[Json] = _object(
    {
        "id": _string(),
        "origin": _string("document, analyst or evidence."),
        "unit": _nullable(_string()),
        "type": _string(),
        "text": _nullable(_string("Fenced when it is the paper's.")),
        "text_cut": _integer(
            "In place of text, on a node past the page's size: its text's length (read it from `next`)."
        ),
        "key": _string("A reference's bibliography key."),
        "doi": _string(),
        "arxiv": _string(),
        "title": _string(),
        "first_author": _string("A reference's first author's family name."),
        "year": _string("A reference's year."),
        "numbered": _array(_string(), "An equation's or caption's printed number and labels: 'Equation 3 eq:loss'."),
        "form": {"type": "object"},
        "stated": _boolean(),
        "assessment": {"type": "object"},
        "check": {"type": "object"},
        **{name: _array(_string()) for name in ("rests_on", "clauses", "part_of", "cites", "checks", "premise_of")},
    },
    ["id", "type"],
)
PAGE: Final[Json] = {
    "total": _integer("How many nodes the listing has."),
    "start": _integer("The position of the page's first node."),
    "nodes": _array(NODE, "A page of nodes: at most `limit`; those past the result's size without their text."),
    "next": _nullable(_integer("The `start` of the next page, or null at the end.")),
}

START_RUN: Final[Json] = _result(
    {
        "run": _string("The run id."),
        "fence": FENCE,
        "document": _object(
            {
                "format": _string(),
                "files": FIRST,
                "not_followed": _object(
                    {"macros": _array(_string()), "message": _string()},
                    ["macros", "message"],
                    "File macros not followed (\\subfile, an \\import naming no file of the paper), and files a class "
                    "or package \\inputs that are missing or outside the root: their prose is not in the run's chunks.",
                ),
                "archive": _object(
                    {"name": _string(), "digest": _string(), "main": _string()},
                    ["name", "digest", "main"],
                    "The archive of sources the paper was read from, and its main file.",
                ),
                "limits": {
                    "type": "object",
                    "description": (
                        "A PDF only: what it could not give (figures, tables without rows, an unnumbered reference "
                        "list, unreadable glyphs), with a message to pass on. Prefer LaTeX sources when they exist."
                    ),
                },
            },
            ["format", "files"],
        ),
        "rubric": {"type": "object", "description": "The rubric's file name, digest, name and version."},
        "counts": _object(
            {
                "nodes": _integer(),
                "by_unit": _counts("Nodes by unit (sentence, equation, caption, footnote, reference, table-row)."),
                "untyped": _integer("Chunks left to classify."),
            },
            ["nodes", "by_unit", "untyped"],
        ),
        "bibliography": _object(
            {
                "files": FIRST,
                "cited_keys": _integer(),
                "from_bbl": _integer(),
                "from_bib": _integer(),
                "unresolved": FIRST,
                "disagreements": FIRST,
                "warnings": FIRST,
                "hint": {
                    "type": "object",
                    "description": "An unread .bib beside the paper that has unresolved keys, and how to pass it.",
                },
            },
            ["files", "cited_keys", "from_bbl", "from_bib", "unresolved", "disagreements", "warnings"],
        ),
        "cited": FIRST,
        "offline_sources": _object(
            {"urls": FIRST, "ignored": _integer("Index entries naming none of the paper's DOIs or arXiv ids.")},
            ["urls", "ignored"],
        ),
        "types": _array({"type": "object"}, "The types you may give, with their form fields and edge rules."),
        "hedges": _array(_string(), "The hedge phrases the rubric maps."),
        "count_units": _array(
            _array(_string()),
            'Present when the rubric declares counting units: each count\'s spellings ("120 C" is 120 of the count C '
            "in this run, to write as the text does: `120 C / 4 h`).",
        ),
        "premises": _nullable({"type": "object"}),
        "checks": _array(
            {"type": "object"},
            "The check types the rubric declares: targets, whether installed, the tool, and `proposal`, the "
            "JSON schema of a proposal.",
        ),
        **PAGE,
        "then": _string("What to do next, and how to read the nodes not listed here."),
        "shortened": _array(_string(), "What a very large rubric's listing left out, to keep the result small."),
        "proposals_elsewhere": _string("Which proposal schemas were too long to list here, and where to read them."),
        "replay": _string("What replay and report will need from outside the run (--source when it keeps no copy)."),
        "recovery": RECOVERY,
        "committed_but": COMMITTED_BUT,
    },
    ["run", "fence", "document", "rubric", "counts", "types", "hedges", "checks", "total", "nodes", "next", "then"],
)

AWAITING_REVIEW: Final[Json] = _object(
    {
        "total": _integer("How many items await a person's review."),
        "items": _array(
            _object(
                {
                    "node": _string("The node a review would cover."),
                    "check": _string("The check that awaits review (a failed or uncalibrated one)."),
                    "type": _string(),
                    "why": _array({"type": "string", "enum": ["failed", "uncalibrated", "unanchored"]}),
                    "conclusions": _array(_string(), "What an unanchored assumption is a premise of."),
                },
                ["node", "type", "why"],
            ),
            "The first 20 items.",
        ),
    },
    ["total", "items"],
    "What a person should review: failed checks, uncalibrated checks, the assumptions the agent added.",
)

GET_STATE: Final[Json] = _result(
    {
        "run": _string(),
        "fence": FENCE,
        "progress": {"type": "object", "description": "The counts an agent plans its next calls by."},
        **PAGE,
        "awaiting_review": AWAITING_REVIEW,
        "check_type": _object(
            {
                "name": _string(),
                "tool": _string(),
                "description": _string(),
                "fallback_for": _string(),
                "proposal": {"type": "object"},
                "limits": {"type": "object", "description": "Every limit a proposal meets, in words."},
            },
            ["name", "tool", "description", "limits"],
            "What `describe` returns for a check type: the full JSON schema of its proposal (none for a fallback), "
            "and its limits (per call, per field, per node, the types it targets in this run's rubric).",
        ),
        "tool": _object(
            {
                "name": _string(),
                "description": _string(),
                "arguments": {"type": "object"},
                "result": {"type": "object"},
                "limits": {"type": "object", "description": "The bound of each argument, in words."},
            },
            ["name", "description", "arguments", "result", "limits"],
            "What `describe` returns for a tool: its full argument and result schemas.",
        ),
        "start_run": {"type": "object", "description": "What `summary: all` returns: start_run's result again."},
        "summary": _object(
            {
                "part": _string(),
                "total": _integer(),
                "start": _integer(),
                "items": _array(ANY),
                "next": _nullable(_integer()),
            },
            ["part", "total", "start", "items", "next"],
            "What `summary: <part>` returns: a page of one list of start_run's summary, whole, or of the candidates.",
        ),
    },
    ["run", "fence", "progress", "total", "start", "nodes", "next", "awaiting_review"],
    also=(["check_type"], ["tool"], ["start_run"], ["summary"]),
)


def _records_result(properties: Json, listed: str) -> Json:
    """The result of a tool that applies records (classify, add_premises): what it applied, every record it
    refused, what else it lists (`listed`), and the recovery note of a call that completed a crashed one."""
    applied, rest = properties["applied"], {name: value for name, value in properties.items() if name != "applied"}
    return _result(
        {
            "applied": applied,
            "refused": _array(RECORD_REFUSAL),
            **rest,
            "recovery": RECOVERY,
            "committed_but": COMMITTED_BUT,
            "shortened": {
                "type": "object",
                "additionalProperties": _object(
                    {"shown": _integer(), "total": _integer(), "records": _array(_integer())},
                    ["shown", "total", "records"],
                ),
                "description": (
                    "Present when the result was cut to 20,000 characters: for each cut list, how many it shows of "
                    "how many, and the positions of the records left out. Every record was applied or refused."
                ),
            },
        },
        ["applied", "refused", listed],
    )


CLASSIFY: Final[Json] = _records_result(
    {
        "applied": _array(
            _object(
                {
                    "record": _integer(),
                    "node": _string(),
                    "type": _string(),
                    "children": _array({"type": "object"}),
                    "stated": CREDENCE,
                    "hedge": _string("The rubric's phrase a longer hedge was read as ('likely' in 'most likely')."),
                    "relations": _array(_string()),
                    "previous": _string(),
                    "dropped": _array(_string()),
                },
                ["record", "node", "type"],
            )
        ),
        "unmapped_hedges": _array(_object({"node": _string(), "phrase": _string()}, ["node", "phrase"])),
    },
    "unmapped_hedges",
)

ADD_PREMISES: Final[Json] = _records_result(
    {
        "applied": _array(
            _object(
                {"record": _integer(), "conclusion": _string(), "premises": _array({"type": "object"})},
                ["record", "conclusion", "premises"],
            )
        ),
        "overflow": _array(
            _object(
                {"record": _integer(), "conclusion": _string(), "statements": _array(_string())},
                ["conclusion", "statements"],
            )
        ),
    },
    "overflow",
)

CHECKS: Final[Json] = _result(
    {
        "checks": _array(
            _object(
                {
                    "proposal": _integer(),
                    "id": _string("The evidence node c-NNN."),
                    "type": _string(),
                    "target": _string(),
                    "result": {"type": "string", "enum": ["passed", "failed", "error"]},
                    "detail": _string(),
                    "fallback_for": _string("The check type this one stood in for when it erred."),
                    "notices": _array(
                        _object({"type": _string()}, ["type"]),
                        "Besides the result: a retraction; `computable`, the check to send instead of a judgement.",
                    ),
                },
                ["proposal", "id", "type", "target", "result", "detail"],
            ),
            "Each check that ran.",
        ),
        "refused": _array(_refusal("proposal"), "Each refused proposal: its first problem, and `also` the others."),
        "recovery": RECOVERY,
        "committed_but": COMMITTED_BUT,
    },
    ["checks", "refused"],
)

FINISH_RUN: Final[Json] = _result(
    {
        "finished": _boolean(),
        "graph": _string("The digest of graph.json."),
        "verdicts": _counts("Assessed nodes by verdict."),
        "untied_citation_checks": _integer(),
        "uncalibrated": _integer(),
        "review": _counts("How many of each thing a reviewer should look at next."),
        "references": _counts(
            "How many references a reference-resolves check found wrong (failed), could not resolve "
            "(unresolved), or found a retraction or expression of concern against (notices)."
        ),
        "credences": {
            "type": "object",
            "description": (
                "How many credences (before and after the observations) were had exactly ('exact') or "
                "estimated with a recorded 95% bound ('likelihood-weighting'), and how many nodes have none "
                "('missing', the first in 'missing_shown' with their reason and fix; report.json's credences "
                "has every entry)."
            ),
        },
        "files": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Digests by file."},
        "recovery": RECOVERY,
        "committed_but": COMMITTED_BUT,
    },
    ["finished", "graph", "verdicts", "untied_citation_checks", "uncalibrated", "review", "credences", "files"],
)
