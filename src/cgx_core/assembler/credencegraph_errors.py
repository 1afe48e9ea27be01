"""Which refusal code a credencegraph error is, read from its message.

credencegraph's errors carry no codes: `split_node` and `annotate_node` raise `ValidationError` with a
message (and `KeyError` for an unknown id, `CycleError` for a cycle). Each message below is verbatim from
credencegraph 0.4.1 (the guide lists them all); a test feeds every one of them through `code_of`, so a
new wording in a later 0.4.x release fails a test instead of being filed under the wrong code.
"""

from __future__ import annotations

import re
from enum import Enum, auto
from functools import cache
from typing import Final

from credencegraph.core import CycleError

from cgx_core.codes import Code


class Step(Enum):
    """The edit that raised: the same message means a different mistake in a different step."""

    SPLIT = auto()
    TYPE = auto()
    LINK = auto()
    PREMISE_LINK = auto()


_PATTERNS: Final[tuple[tuple[str, Code], ...]] = (
    (r"^type '.*' is not declared by rubric ", Code.UNKNOWN_TYPE),
    (r"^type '.*' allows origins \[.*\], and node '.*' is ", Code.ORIGIN_NOT_ALLOWED),
    (r"^only document nodes may be unassigned", Code.NOT_A_CHUNK),
    (r"^only document nodes carry a form", Code.NOT_A_CHUNK),
    (r"^node '.*' has no valid attributes\.origin", Code.NOT_A_CHUNK),
    (r"^node '.*' is not a document node; only a chunk", Code.NOT_A_CHUNK),
    (r"^node '.*' is a compound; annotate its children instead", Code.COMPOUND_NODE),
    (r"^clause .* occurs \d+ times in the text of '.*', not exactly once$", Code.CLAUSE_NOT_ONCE),
    (r"^node '.*' is a child of a compound", Code.SPLIT_INVALID),
    (r"^node '.*' carries .*, which a compound may not", Code.SPLIT_INVALID),
    (r"^node '.*' is an endpoint of relations a compound may not have", Code.SPLIT_INVALID),
    (r"^node '.*' needs a statement and exactly one source", Code.SPLIT_INVALID),
    (r"^split needs either clauses or fields", Code.SPLIT_INVALID),
    (r"^type '.*' of node '.*' has no edge rule, so it rests on nothing$", Code.RESTS_ON_NO_RULE),
    (r"^node '.*' has type '.*'; type '.*' rests on \[.*\]$", Code.RESTS_ON_TYPE),
    (r"^node '.*' has type '.*'; give it a declared type before", Code.UNKNOWN_TYPE),
    # Form messages last: "node 's-1': ..." prefixes every one of them.
    (r"is not a field of type '|is not a valid |the form must be an object", Code.FORM_INVALID),
    (
        r"no numeral in the text equals|is not a substring of the text|is not a token of the text|"
        r"the text does not reference equation",
        Code.FORM_NOT_IN_TEXT,
    ),
)


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], Code], ...]:
    """The patterns, compiled the first time a refusal needs them (a call that refuses nothing never does)."""
    return tuple((re.compile(pattern), code) for pattern, code in _PATTERNS)


_FALLBACK: Final[dict[Step, Code]] = {
    Step.SPLIT: Code.SPLIT_INVALID,
    Step.TYPE: Code.FORM_INVALID,
    Step.LINK: Code.RESTS_ON_TYPE,
    Step.PREMISE_LINK: Code.PREMISE_NOT_CHUNK,
}


def code_of(error: Exception, step: Step) -> Code:
    """The refusal code of an error credencegraph raised in `step`."""
    if isinstance(error, CycleError):
        return Code.CYCLE
    if isinstance(error, KeyError):
        return Code.RESTS_ON_UNKNOWN if step in (Step.LINK, Step.PREMISE_LINK) else Code.UNKNOWN_NODE
    message = str(error)
    for pattern, code in _compiled():
        if pattern.search(message):
            if code is Code.RESTS_ON_TYPE and step is Step.PREMISE_LINK:
                return Code.PREMISE_NOT_CHUNK
            return code
    return _FALLBACK[step]


def message_of(error: Exception) -> str:
    """The message of a credencegraph error as the agent should read it (a KeyError names only the id)."""
    if isinstance(error, KeyError):
        return f"no node {error.args[0]!r} in the graph" if error.args else "no such node"
    return str(error)
