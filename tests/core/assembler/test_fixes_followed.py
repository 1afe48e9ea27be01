"""Every fix leads to a call that works (issue 37): each refusal of test_fixes_table's table is provoked, its
fix is read and followed as an agent would (the names, types, phrases and numerals the fix gives are taken from
its words, never from this file), and the corrected record is sent again. It must be applied, or refused only
for what the agent alone can give (a type of its choosing, a node it must classify first, its own words).

`FOLLOW` holds, for every row of that table, how the fix is followed: a function of (records, fix) giving the
records to send, and what is expected of them. A row without an entry fails `test_every_row_is_followed`, so
a new refusal gets its way forward with its row. Where the fix asks for the agent's own content (a clause to
split at, a statement), the follower writes it and says so with `agent(...)`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from credencegraph.core import Graph
from credencegraph.rubric import Rubric
from test_fixes_table import TABLE, graphs, rubrics  # noqa: F401 (the fixtures the rows name)

from cgx_core.assembler import add_premises, classify
from cgx_core.codes import Code

RUN = "run-1"
Records = list[Any]
Follow = Callable[[Records, str], Records]

APPLIED: frozenset[str] = frozenset()
"""Nothing refused: the corrected records were all applied."""


def agent(value: Any) -> Any:
    """The agent's own content where the fix asks for it (a clause, a statement, a chosen type): marked so a
    reader sees it is not taken from the fix."""
    return value


def quoted(fix: str) -> list[str]:
    """Every 'quoted' phrase of a fix, in order."""
    return re.findall(r"'([^']*)'", fix)


def listed_ids(fix: str) -> list[str]:
    """The node ids a fix names ("s-2 (method)", "name one of its clauses s-5a and s-5b"), in order."""
    return re.findall(r"\b([a-z]-\d+[a-z]?)\b", fix)


def after(fix: str, words: str) -> str:
    """The text of the fix that follows `words`."""
    return fix.split(words, 1)[1]


def with_field(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**copy.deepcopy(record), **fields}


def without(record: dict[str, Any], *names: str) -> dict[str, Any]:
    return {key: value for key, value in copy.deepcopy(record).items() if key not in names}


def leave_out_and_rename(records: Records, fix: str) -> Records:
    """ "leave out 'credence'", "'rest_on' is not a field: did you mean 'rests_on'?", at any depth."""
    dropped = re.findall(r"leave out '([^']+)'", fix)
    renamed = dict(re.findall(r"'([^']+)' is not a field: did you mean '([^']+)'\?", fix))

    def mend(value: Any) -> Any:
        if isinstance(value, dict):
            return {renamed.get(key, key): mend(item) for key, item in value.items() if key not in dropped}
        if isinstance(value, list):
            return [mend(item) for item in value]
        return value

    return [mend(record) for record in records]


def rested_on_instead(records: Records, fix: str) -> Records:
    """Replace the refused rests_on id by the first id the fix names after its type list."""
    record = records[0]
    named = listed_ids(fix.split("near", 1)[-1]) if "near" in fix else listed_ids(fix)
    candidates = [node for node in named if node not in (record["node"], *record.get("rests_on", ()))]
    return [with_field(record, rests_on=[candidates[0]])]


def rests_on_left_out(records: Records, fix: str) -> Records:
    """ "leave s-6 out of its own rests_on" / "s-1 already rests on s-7: leave s-1 out of rests_on"."""
    gone = re.search(r"leave (\S+) out of", fix)
    assert gone is not None
    mended = copy.deepcopy(records)
    for record in mended:
        for holder in [record, *record.get("children", [])]:
            if gone[1] in holder.get("rests_on", []):
                holder["rests_on"] = [node for node in holder["rests_on"] if node != gone[1]]
    return mended


def premise_instead(records: Records, fix: str) -> Records:
    record = records[0]
    named = [node for node in listed_ids(fix.split("near", 1)[-1]) if node != record["conclusion"]]
    return [with_field(record, premises=[{"stated_at": named[0]}])]


FOLLOW: dict[str, tuple[Follow, frozenset[str]]] = {
    "credence field and a misspelt field": (leave_out_and_rename, frozenset({Code.RESTS_ON_TYPE})),
    "a base in a premise": (leave_out_and_rename, APPLIED),
    "unpadded id": (
        lambda records, fix: [with_field(records[0], node=re.findall(r"did you mean (\S+)\?", fix)[0])],
        APPLIED,
    ),
    "no such chunk": (lambda records, fix: [with_field(records[0], node=listed_ids(fix)[1])], APPLIED),
    "a check node": (lambda records, fix: [with_field(records[0], node=agent("s-7"))], APPLIED),
    "resting on an analyst premise": (
        lambda records, fix: [without(records[0], "rests_on")],  # and a premise of s-6 by its statement: add_premises
        APPLIED,
    ),
    "resting on a split chunk": (lambda records, fix: [with_field(records[0], rests_on=[listed_ids(fix)[1]])], APPLIED),
    "a clause id of an unsplit chunk": (
        lambda records, fix: [
            {
                "node": re.findall(r"split record for (\S+)", fix)[0],
                "split": agent(["The bias vanishes for long segments", "the estimator is likely consistent"]),
                "children": [{"type": "claim"}, {"type": "claim"}],
            }
        ],
        APPLIED,
    ),
    "a type in the wrong case": (lambda records, fix: [with_field(records[0], type=quoted(fix)[0])], APPLIED),
    "a check type for a chunk": (
        lambda records, fix: [
            with_field(records[0], type=agent(next(t for t in quoted(after(fix, "one of")) if t == "method")))
        ],
        APPLIED,
    ),
    "a bad enum and an undeclared field": (
        lambda records, fix: [with_field(records[0], form={"kind": quoted(after(fix, "one of"))[0]})],
        APPLIED,
    ),
    "a number written as a string": (
        lambda records, fix: [with_field(records[0], form={"value": int(re.findall(r"\[(\d+)", fix)[0])})],
        APPLIED,
    ),
    "a number and a phrase the text lacks": (
        lambda records, fix: [
            with_field(
                records[0],
                form={
                    "value": int(re.findall(r"\[(\d+)", fix)[0]),
                    "quantity": quoted(after(fix, "closest phrase"))[0],
                },
            )
        ],
        APPLIED,
    ),
    "an equation the text does not reference": (
        lambda records, fix: [with_field(records[0], form={"equation": quoted(after(fix, "equations"))[0]})],
        APPLIED,
    ),
    "a clause that occurs twice": (
        lambda records, fix: [with_field(records[0], split=[quoted(fix)[1], records[0]["split"][1]])],
        APPLIED,
    ),
    "a clause that does not occur": (
        lambda records, fix: [
            with_field(records[0], split=[records[0]["split"][0], quoted(after(fix, "closest phrase"))[0]])
        ],
        APPLIED,
    ),
    "fewer children than clauses": (
        lambda records, fix: [with_field(records[0], children=[*records[0]["children"], agent({"type": "claim"})])],
        APPLIED,
    ),
    "a chunk split again": (
        lambda records, fix: [
            {"node": node, "type": agent(kind)}
            for node, kind in zip(re.findall(r"classify (\S+) and (\S+)", fix)[0], ("result", "claim"), strict=True)
        ],
        APPLIED,
    ),
    "a clause split": (lambda records, fix: [{"node": records[0]["node"], "type": agent("result")}], APPLIED),
    "a chunk others rest on": (
        lambda records, fix: [
            {"node": re.findall(r"or classify (\S+) whole", fix)[0], "type": "method", "form": {"kind": "simulation"}}
        ],
        APPLIED,
    ),
    "overlapping clauses": (
        lambda records, fix: [
            with_field(
                records[0],
                split=agent(["The bias vanishes for long segments", "so the estimator is likely consistent"]),
            )
        ],
        APPLIED,
    ),
    "a clause cut inside a word": (
        lambda records, fix: [with_field(records[0], split=[quoted(after(fix, "such as"))[0], records[0]["split"][1]])],
        APPLIED,
    ),
    "a split chunk classified whole": (
        lambda records, fix: [with_field(records[0], node=listed_ids(after(fix, "split into"))[1])],
        APPLIED,
    ),
    "a split chunk as a conclusion": (
        lambda records, fix: [with_field(records[0], conclusion=listed_ids(after(fix, "split into"))[1])],
        APPLIED,
    ),
    "resting on a clause of an unsplit chunk": (
        lambda records, fix: [with_field(records[0], rests_on=[re.findall(r"or name (\S+) itself", fix)[0]])],
        frozenset({Code.RESTS_ON_TYPE}),  # s-2 is untyped in this graph: the agent classifies it first
    ),
    "resting on a reference": (rested_on_instead, APPLIED),
    "resting on an untyped chunk": (rested_on_instead, APPLIED),
    "a derivation resting on something": (lambda records, fix: [without(records[0], "rests_on")], APPLIED),
    "a stated premise of a derivation": (
        lambda records, fix: [with_field(records[0], premises=[{"statement": agent("The expansion converges.")}])],
        APPLIED,
    ),
    "resting on itself": (rests_on_left_out, APPLIED),
    "a clause resting on itself": (rests_on_left_out, APPLIED),
    "two claims resting on each other": (rests_on_left_out, APPLIED),
    "a premise that rests on its conclusion": (
        lambda records, fix: [with_field(records[0], premises=[{"statement": agent("The noise is white.")}])],
        APPLIED,  # the one premise left out: the agent gives another, its own words
    ),
    "a hedge the text does not contain": (
        lambda records, fix: [with_field(records[0], hedge=quoted(after(fix, "in the text are"))[0])],
        APPLIED,
    ),
    "a hedge in a text with no listed phrase": (
        lambda records, fix: [with_field(records[0], hedge=quoted(after(fix, "closest phrase"))[0])],
        APPLIED,
    ),
    "a checked node classified again": (lambda records, fix: [], APPLIED),  # it keeps its type: nothing to send
    "two records for one node": (lambda records, fix: records[:1], APPLIED),
    "a clause typed twice in one call": (
        lambda records, fix: [
            record for record in records if record["node"] != re.findall(r"types its clause (\S+): leave", fix)[0]
        ],
        APPLIED,
    ),
    "two premise records for one conclusion": (lambda records, fix: records[:1], APPLIED),
    "premises without a [premises] table": (lambda records, fix: [], APPLIED),  # this run takes none
    "premises of a method": (
        lambda records, fix: [with_field(records[0], conclusion=listed_ids(after(fix, "near"))[1])],
        APPLIED,
    ),
    "premises of an untyped chunk": (
        lambda records, fix: [with_field(records[0], conclusion=listed_ids(after(fix, "near"))[1])],
        APPLIED,
    ),
    "a reference as a stated premise": (premise_instead, APPLIED),
    "a split chunk as a stated premise": (
        lambda records, fix: [with_field(records[0], premises=[{"stated_at": listed_ids(after(fix, "clauses"))[0]}])],
        APPLIED,
    ),
    "an untyped chunk as a stated premise": (
        lambda records, fix: [with_field(records[0], premises=[{"statement": agent("The simulation is faithful.")}])],
        APPLIED,
    ),
    "a statement premise without an analyst assumption type": (
        lambda records, fix: (
            [with_field(records[0], premises=[{"stated_at": agent("s-2")}])] if "stated_at only" in fix else []
        ),
        APPLIED,
    ),
    "a method others rest on classified as a claim": (
        lambda records, fix: [
            {"node": records[0]["node"], "type": quoted(after(fix, "one of"))[1], "form": agent({"kind": "simulation"})}
        ],
        APPLIED,
    ),
    "a conclusion with premises classified as a method": (
        lambda records, fix: [
            {"node": records[0]["node"], "type": quoted(after(fix, "one of"))[1], "form": agent({"shape": "universal"})}
        ],
        APPLIED,
    ),
}


def test_every_row_is_followed() -> None:
    assert {row[0] for row in TABLE} == set(FOLLOW)


@pytest.mark.parametrize("row", TABLE, ids=[row[0] for row in TABLE])
def test_a_fix_followed_leads_to_a_call_that_works(
    graphs: dict[str, Graph],  # noqa: F811
    rubrics: dict[str, Rubric],  # noqa: F811
    row: tuple[Any, ...],
) -> None:
    name, code, tool, graph, rubric_name, records, _, _ = row
    call = classify if tool == "classify" else add_premises
    refused = call(graphs[graph], rubrics[rubric_name], records, run_id=RUN).result["refused"]
    fix = next(entry["fix"] for entry in refused if entry["code"] == code)
    follow, left = FOLLOW[name]
    corrected = follow(records, fix)
    if not corrected:
        return  # the fix says there is nothing to send (a check keeps its node's type; no premises taken)
    outcome = call(graphs[graph], rubrics[rubric_name], corrected, run_id=RUN).result
    problems = {problem["code"] for entry in outcome["refused"] for problem in [entry, *entry.get("also", [])]}
    assert problems <= left, (name, fix, corrected, outcome["refused"])
    assert problems or len(outcome["applied"]) == len(corrected)
