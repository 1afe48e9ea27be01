"""The percent-of check type: a `CheckTypeBase` of `cgx_core.plugin_api`, and nothing more.

The engine does everything every check type shares (the rubric's declaration and targets, numbering
`c-NNN`, the evidence node, its files, duplicates); this class only reads a proposal, says which checks
are independent, and decides. It never reads the network or a model, so `rerun` is `run` and `verify`
can re-run every percent-of check of a finished run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgx_core.plugin_api import CheckTypeBase, Outcome, Prepared, ProposingTool, Refusal, RunView

from cgx_percent_of.percent import CODES, Comparison, compare, percent_form, written_problem

NUMERAL = {"type": "string", "minLength": 1, "maxLength": 100}


def cited_texts(run: RunView, cites: Sequence[str]) -> list[str] | Refusal:
    """The texts of the cited chunks. Only the document's own chunks count: a premise an agent wrote
    (origin `analyst`) or a check node would let the agent supply the very numbers it checks."""
    texts = []
    for node_id in cites:
        node = run.node(node_id)
        if node is None or node.text is None or node.attributes.get("origin") != "document":
            return Refusal(
                "percent-cites-unknown",
                f"cites names '{node_id}', which is not a chunk of the document",
                "cite the ids of the chunks that write the numbers (start_run and get_state list them)",
            )
        texts.append(node.text)
    return texts


class PercentOf(CheckTypeBase):
    """'X is P% of Y': part / whole against a percentage the cited chunks write."""

    name = "percent-of"
    tool: ProposingTool = "run_checks"
    description = (
        "Check a percentage the paper states ('X is P% of Y'): part / whole is computed exactly from numerals "
        "the cited chunks write (cites defaults to the target; 1,000 and 1000 are one number), and passes when it is "
        'within the rounding of the percentage as written (96% is 96 +- 0.5). Example: {"type": "percent-of", '
        '"target": "s-8", "cites": ["s-8", "s-2"], "part": "961", "whole": "1000", "percent": "96%"}'
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "cites": {"type": "array", "items": {"type": "string", "maxLength": 100}, "minItems": 1, "maxItems": 20},
            "part": NUMERAL,
            "whole": NUMERAL,
            "percent": NUMERAL,
        },
        "required": ["part", "whole", "percent"],
        "additionalProperties": False,
    }
    codes = CODES  # the other optional members (fallback_for, uses_model, ...) keep CheckTypeBase's defaults

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target = str(proposal["target"])
        inputs = {
            "target": target,
            "cites": list(proposal.get("cites") or [target]),
            "part": proposal["part"],
            "whole": proposal["whole"],
            "percent": proposal["percent"],
        }
        checked = self._checked(inputs, run)
        return checked if isinstance(checked, Refusal) else Prepared(target, inputs)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        """One check per percentage a target writes: a result that states 95% and 3% takes two."""
        return percent_form(str(inputs.get("percent", "")))

    def observation_key(self, prepared: Prepared) -> str:
        inputs = prepared.inputs
        comparison = compare(str(inputs["part"]), str(inputs["whole"]), str(inputs["percent"]))
        assert isinstance(comparison, Comparison), "prepare refused a proposal whose numerals do not read"
        return comparison.observation_key()

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._outcome(prepared.inputs, run)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        return self._outcome(inputs, run)

    def _checked(self, inputs: Mapping[str, Any], run: RunView) -> Comparison | Refusal:
        texts = cited_texts(run, [str(item) for item in inputs["cites"]])
        if isinstance(texts, Refusal):
            return texts
        comparison = compare(str(inputs["part"]), str(inputs["whole"]), str(inputs["percent"]))
        if isinstance(comparison, Refusal):
            return comparison
        return written_problem(comparison, texts) or comparison

    def _outcome(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        checked = self._checked(inputs, run)
        if isinstance(checked, Refusal):  # the run changed under recorded inputs: an error, never a verdict
            return Outcome("error", checked.message, code=str(checked.code))
        return Outcome("passed" if checked.passed else "failed", checked.detail(), output=checked.to_json())
