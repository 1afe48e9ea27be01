"""recompute-numbers: an arithmetic expression over numerals of the chunks a proposal cites, evaluated
exactly, against a reported numeral those chunks write (see cgx_checks.arithmetic)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgx_checks.common import cited_texts, error_outcome, inputs_list, refusal_of
from cgx_core.checks.api import Outcome, Prepared, ProposingTool, Refusal, RunView
from cgx_core.errors import CgxError
from cgx_core.hookspecs import hookimpl
from cgx_core.plugins import CheckTypeRegistry

FIXES = {
    "operand-not-in-text": (
        "use only numerals the cited chunks write (the message lists them); add to `cites` the chunk that writes "
        "a missing one"
    ),
    "expression-invalid": "write the expression with numerals, + - * / ** and parentheses only (no names, no units)",
    "expression-too-large": "split the computation into smaller checks",
    "exponent-too-large": "an exponent must be a whole number from -100 to 100",
    "exponent-not-whole": "an exponent must be a whole number from -100 to 100",
    "result-too-large": "the computation is too large to do exactly: check a smaller step",
    "division-by-zero": "the expression divides by zero: check how the paper computes this number",
    "unknown-node": "cite chunk ids of this run",
}


class RecomputeNumbers:
    """The check type."""

    name = "recompute-numbers"
    tool: ProposingTool = "run_checks"
    description = (
        "Recompute a number the target reports: an arithmetic expression over numerals the cited chunks write "
        "(+ - * / **, parentheses), evaluated exactly, against the reported result as written (its digits set the "
        'rounding: 350 is 350 +- 0.5). Example: {"type": "recompute-numbers", "target": "s-12", "cites": '
        '["s-12"], "expression": "12 * 300", "result": "3000"}'
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "cites": {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 20},
            "expression": {"type": "string", "minLength": 1, "maxLength": 2000},
            "result": {"type": "string", "minLength": 1, "maxLength": 100},
        },
        "required": ["expression", "result"],
        "additionalProperties": False,
    }
    fallback_for: str | None = None
    uses_model = False
    retry_after_error = False

    def _recompute(self, inputs: Mapping[str, Any], run: RunView) -> Any:
        from cgx_checks.arithmetic.recompute import recompute

        texts = cited_texts(run, str(inputs["target"]), inputs_list(inputs, "cites"))
        if isinstance(texts, Refusal):
            return texts
        return recompute(str(inputs["expression"]), str(inputs["result"]), texts)

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target = str(proposal["target"])
        inputs = {
            "target": target,
            "cites": list(proposal.get("cites") or [target]),
            "expression": proposal["expression"],
            "result": proposal["result"],
        }
        try:
            checked = self._recompute(inputs, run)
        except CgxError as error:
            return refusal_of(error, FIXES)
        if isinstance(checked, Refusal):
            return checked
        return Prepared(target, inputs)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return ""

    def observation_key(self, prepared: Prepared) -> str:
        """The exact value, the expected value and the rounding: all that decides the outcome."""
        from cgx_checks.arithmetic.evaluate import evaluate
        from cgx_checks.arithmetic.numerals import read_numeral
        from cgx_checks.arithmetic.parse import parse_expression
        from cgx_checks.arithmetic.recompute import observation_key_of

        value = evaluate(parse_expression(str(prepared.inputs["expression"])))
        reported = read_numeral(str(prepared.inputs["result"]))
        return observation_key_of(value, reported.value, reported.half_unit)

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._outcome(prepared.inputs, run)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        return self._outcome(inputs, run)

    def _outcome(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        try:
            checked = self._recompute(inputs, run)
        except CgxError as error:
            return error_outcome(error)
        if isinstance(checked, Refusal):
            return Outcome("error", checked.message, code=str(checked.code))
        return Outcome(checked.outcome, checked.detail, output=checked.to_json())


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(RecomputeNumbers())
