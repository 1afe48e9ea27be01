"""rederive-maths and its numeric fallback, rederive-maths-numeric (see cgx_checks.maths).

A proposal encodes a step between equation chunks as two sides over declared symbols with sympy
assumptions. rederive-maths passes when sympy reduces lhs - rhs to 0, fails when it proves the two sides
differ (a nonzero constant, or an exact point where they differ), and errs otherwise. When it errs, the
engine runs rederive-maths-numeric on the same encoding: the two sides compared at 32 points drawn from a
generator seeded by the encoding, the seed and points recorded. sympy is imported only when a maths
proposal arrives, and its symbolic work runs in a worker process with a time and memory budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import metadata
from typing import Any

from cgx_checks.common import error_outcome, refusal_of
from cgx_core.checks.api import Outcome, Prepared, ProposingTool, Refusal, RunView
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.hookspecs import hookimpl
from cgx_core.plugins import CheckTypeRegistry

FIXES = {
    "expression-invalid": "write each side with numerals, declared symbols, + - * / ^, parentheses and the listed "
    "functions (sin, cos, exp, log, sqrt, ...), with explicit * for products",
    "expression-too-large": "check a smaller step",
    "unknown-symbol": "declare every symbol in `symbols`, with its assumptions (real, positive, integer, ...)",
    "unknown-function": "use only the listed functions",
    "division-by-zero": "a side divides by a literal zero: encode the step as the paper writes it",
    "result-too-large": "an exponent or numeral is too large: check a smaller step",
    "degree-too-large": "a step of degree above 1000 is not checked: check a smaller step",
    "proposal-invalid": "symbols is an object {name: [assumptions]}, lhs and rhs are strings",
    "unknown-node": "equations names equation chunks of this run (e-N)",
}

SCHEMA: Mapping[str, Any] = {
    "properties": {
        "equations": {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 20},
        "symbols": {"type": "object"},
        "lhs": {"type": "string", "minLength": 1, "maxLength": 5000},
        "rhs": {"type": "string", "minLength": 1, "maxLength": 5000},
    },
    "required": ["symbols", "lhs", "rhs"],
    "additionalProperties": False,
}


def _encoding(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {"symbols": inputs["symbols"], "lhs": inputs["lhs"], "rhs": inputs["rhs"]}


def _libraries() -> dict[str, str]:
    return {"sympy": metadata.version("sympy"), "mpmath": metadata.version("mpmath")}


class _Step:
    """What both maths check types share: the proposal, its validation and its key."""

    tool: ProposingTool = "run_checks"
    proposal_schema = SCHEMA
    uses_model = False
    retry_after_error = False

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        from cgx_checks.maths.structure import parse_step

        target = str(proposal["target"])
        equations = [str(item) for item in proposal.get("equations") or []]
        for node_id in equations:
            node = run.node(node_id)
            if node is None or node.unit != "equation":
                return Refusal(
                    Code.UNKNOWN_NODE,
                    f"equations names '{node_id}', which is not an equation chunk",
                    FIXES["unknown-node"],
                )
        inputs = {"target": target, "equations": equations, **_encoding(proposal)}
        try:
            parse_step(_encoding(inputs))
        except CgxError as error:
            return refusal_of(error, FIXES)
        return Prepared(target, inputs)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return ""

    def observation_key(self, prepared: Prepared) -> str:
        from cgx_checks.maths.observation import observation_key

        return str(observation_key(_encoding(prepared.inputs)))


class RederiveMaths(_Step):
    name = "rederive-maths"
    description = (
        "Re-derive a maths step symbolically: the step encoded as lhs and rhs over declared symbols with "
        "assumptions; passes when sympy reduces lhs - rhs to 0, fails when it proves they differ. Example: "
        '{"type": "rederive-maths", "target": "s-08", "equations": ["e-3"], "symbols": {"x": ["real"]}, '
        '"lhs": "(1 + x)^2", "rhs": "1 + 2*x + x^2"}'
    )
    fallback_for: str | None = None

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._decide(prepared.inputs)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        return self._decide(inputs)

    def _decide(self, inputs: Mapping[str, Any]) -> Outcome:
        from cgx_checks.maths.decide import shared_decider

        try:
            outcome = shared_decider().decide(_encoding(inputs))
        except CgxError as error:
            return error_outcome(error)
        return Outcome(
            outcome.result, outcome.detail, output=outcome.to_json(), code=outcome.code, libraries=_libraries()
        )


class RederiveMathsNumeric(_Step):
    name = "rederive-maths-numeric"
    description = (
        "The numeric fallback of rederive-maths: the two sides compared at 32 points drawn in the symbols' domains "
        "(seeded by the encoding) to a relative tolerance of 1e-12."
    )
    fallback_for: str | None = "rederive-maths"

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._compare(prepared.inputs)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        return self._compare(inputs)

    def _compare(self, inputs: Mapping[str, Any]) -> Outcome:
        from cgx_checks.maths.decide import shared_decider

        try:
            outcome = shared_decider().numeric_check(_encoding(inputs))
        except CgxError as error:
            return error_outcome(error)
        return Outcome(
            outcome.result, outcome.detail, output=outcome.to_json(), code=outcome.code, libraries=_libraries()
        )


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(RederiveMaths())
    register(RederiveMathsNumeric())
