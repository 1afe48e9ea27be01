"""rederive-maths and its numeric fallback, rederive-maths-numeric (see cgx_checks.maths).

A proposal encodes a step between equation chunks: two sides over declared symbols with sympy
assumptions, in sympy's spelling or as the paper's own LaTeX (which must occur in the cited equation
chunks). rederive-maths passes when sympy reduces lhs - rhs to 0, fails when it proves the two sides
differ (a nonzero constant, or an exact point where they differ), and errs otherwise. When it errs, the
engine runs rederive-maths-numeric on the same encoding: the two sides compared at 32 points drawn from a
generator seeded by the encoding, the seed and points recorded.

Reading a proposal uses lark only; sympy is imported in the maths worker process alone, which decides
the step and computes its observation key within a CPU-time budget recorded in the check's inputs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from importlib import metadata
from typing import TYPE_CHECKING, Any, Final

from cgx_checks.common import error_outcome, refusal_of
from cgx_checks.expression_codes import MEANINGS as EXPRESSION_MEANINGS
from cgx_checks.maths.codes import MEANINGS, MathsCode
from cgx_checks.maths.limits import DECIDE_BUDGET, NUMERIC_BUDGET, NUMERIC_CALCULUS_BUDGET
from cgx_checks.maths.read.encoding import KEYS
from cgx_checks.maths.read.schema import proposal_schema
from cgx_checks.maths.read.step import ParsedStep
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    RunView,
    define_codes,
    hookimpl,
)

if TYPE_CHECKING:
    from cgx_checks.maths.caller.decider import SymbolicDecider
    from cgx_checks.maths.caller.numeric import NumericOutcome
    from cgx_checks.maths.outcome import MathsOutcome

    _Decided = MathsOutcome | NumericOutcome

FIXES: Final = {
    "expression-invalid": "write each side in sympy spelling: numerals, declared symbols, + - * / ^, parentheses and "
    "the vocabulary's functions (the schema lists them), with explicit * for products",
    "expression-too-large": "check a smaller step",
    "unknown-symbol": "declare every symbol in `symbols`, with its assumptions (real, positive, integer, ...); a "
    "constant the paper names otherwise (j for I) goes in `aliases`",
    "unknown-function": "use a function of the vocabulary (the message names the nearest), or declare an undefined "
    "function in `functions`",
    "division-by-zero": "a side divides by a literal zero: encode the step as the paper writes it",
    "result-too-large": "an exponent or numeral is too large: check a smaller step",
    "degree-too-large": "a step of degree above 1000 is not checked: check a smaller step",
    "proposal-invalid": "symbols is an object {name: [assumptions]}; give lhs and rhs, or latex (with split), or "
    "latex and one of lhs or rhs",
    "unknown-node": "equations names equation chunks of this run (e-N)",
    "latex-invalid": "copy the LaTeX as the chunk writes it; a side the check cannot read (\\dots, O(...), a sum "
    "without bounds) can be given in sympy spelling in lhs or rhs instead",
    "latex-not-in-text": "copy latex from the cited equation chunks: a whole relation or side as it is written there "
    "(spacing and \\left/\\right may differ), and cite the chunk in equations",
    "latex-ambiguous": 'for a function without brackets, set function_argument to "factor" or "product"; for a / '
    "followed by factors, give that side in sympy spelling as the paper means it",
    "step-trivial": "check a step the paper derives (the next relation of the chain, split 2, ...), not an "
    "expression against itself",
    "approximation-not-numeric": "an \\approx step compares a reported number with an expression that evaluates to a "
    "number; check an approximation in symbols as the exact relation, or its Limit",
}


def budget_of(check: str, step: ParsedStep) -> float:
    """Seconds of CPU time a maths check may take, recorded in its inputs (`budget`) and used again by
    verify: the numeric check of a step with calculus gets more, for its quadratures."""
    if check == "rederive-maths":
        return DECIDE_BUDGET
    return NUMERIC_CALCULUS_BUDGET if step.calculus else NUMERIC_BUDGET


SCHEMA: Final[Mapping[str, Any]] = proposal_schema()


def _encoding(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {key: inputs[key] for key in KEYS if key in inputs}


def _libraries() -> dict[str, str]:
    return {"sympy": metadata.version("sympy"), "mpmath": metadata.version("mpmath")}


def _budget(inputs: Mapping[str, Any], default: float) -> float:
    recorded = inputs.get("budget")
    if isinstance(recorded, Mapping) and isinstance(recorded.get("cpu_seconds"), int | float):
        return float(recorded["cpu_seconds"])
    return default


def _error_or_stall(error: CgxError) -> Outcome:
    """An error check for an encoding the check cannot run; a worker the machine starved of CPU decided
    nothing, so that is not a check at all: the whole call is refused (`check-stalled`), nothing recorded."""
    if error.code == Code.CHECK_STALLED:
        raise error
    return error_outcome(error)


def latex_texts(run: RunView, equations: list[str]) -> list[str] | Refusal:
    """The texts of the cited equation chunks, or a refusal naming one that is not an equation chunk."""
    texts = []
    for node_id in equations:
        node = run.node(node_id)
        if node is None or node.unit != "equation":
            return Refusal(
                Code.UNKNOWN_NODE,
                f"equations names '{node_id}', which is not an equation chunk",
                FIXES["unknown-node"],
            )
        texts.append(node.text or "")
    return texts


def latex_problem(latex: str | None, equations: list[str], texts: list[str]) -> Refusal | None:
    """Why a step's LaTeX is not the cited chunks' own (refused: `latex-not-in-text`), or None."""
    if latex is None:
        return None
    from cgx_checks.maths.read.latex_source import occurs

    if not equations:
        return Refusal(
            MathsCode.LATEX_NOT_IN_TEXT,
            "latex must occur in the step's equation chunks, and equations names none",
            FIXES["latex-not-in-text"],
        )
    if not occurs(latex, texts):
        return Refusal(
            MathsCode.LATEX_NOT_IN_TEXT,
            f"latex is not a whole relation or side of {', '.join(equations)} as written there",
            FIXES["latex-not-in-text"],
        )
    return None


def latex_slot(inputs: Mapping[str, Any]) -> str:
    """The place in the paper a LaTeX step checks (its relation, or its side), so that the steps of one
    chain are separate checks of one target; "" for a step in sympy spelling (one per target)."""
    latex = inputs.get("latex")
    if not isinstance(latex, str):
        return ""
    from cgx_checks.maths.read.latex_source import normalise

    where = inputs.get("split") or ("lhs" if "rhs" in inputs else "rhs")
    return f"{normalise(latex)}#{where}"


class _Step(CheckTypeBase, ABC):
    """What both maths check types share: the proposal, its validation and its key. Each type says only
    which question it asks the maths worker (`_ask`)."""

    tool: ProposingTool = "run_checks"
    proposal_schema = SCHEMA
    codes = define_codes({**EXPRESSION_MEANINGS, **MEANINGS})
    name: str

    def warm_up(self) -> None:
        """Begin starting the shared maths worker (sympy's import) while the call opens its run."""
        from cgx_checks.maths.caller.worker_process import shared_worker

        shared_worker().start_soon()

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        from cgx_checks.maths.read.step import parse_step  # lark: read when a maths proposal arrives

        target = str(proposal["target"])
        equations = [str(item) for item in proposal.get("equations") or []]
        texts = latex_texts(run, equations)
        if isinstance(texts, Refusal):
            return texts
        inputs: dict[str, Any] = {"target": target, "equations": equations, **_encoding(proposal)}
        try:
            step = parse_step(_encoding(inputs))
        except CgxError as error:
            return refusal_of(error, FIXES)
        inputs["budget"] = {"cpu_seconds": budget_of(self.name, step)}
        if (refusal := latex_problem(step.encoding.latex, equations, texts)) is not None:
            return refusal
        # The parsed step is the memo: run reuses it, and skips re-checking the LaTeX prepare just checked.
        return Prepared(target, inputs, memo=step)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return latex_slot(inputs)

    def observation_key(self, prepared: Prepared) -> str:
        from cgx_checks.maths.caller.decider import shared_decider

        equations = [str(item) for item in prepared.inputs.get("equations") or []]
        return shared_decider().observation_key(_encoding(prepared.inputs), equations)

    def _recheck(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        """The LaTeX checked against the chunks again, as the run checked the proposal (for verify)."""
        latex = inputs.get("latex")
        if not isinstance(latex, str):
            return None
        equations = [str(item) for item in inputs.get("equations") or []]
        texts = latex_texts(run, equations)
        problem = texts if isinstance(texts, Refusal) else latex_problem(latex, equations, texts)
        return None if problem is None else Outcome("error", problem.message, code=str(problem.code))

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._checked(prepared.inputs, run, prepared.memo)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        return self._checked(inputs, run, None)

    def _checked(self, inputs: Mapping[str, Any], run: RunView, step: ParsedStep | None) -> Outcome:
        """The step re-checked against the run (unless `step` is prepare's parse of it in this very call),
        then decided in the maths worker (by `_ask`), with what the step reads as."""
        from cgx_checks.maths.caller.decider import shared_decider

        if step is None and (problem := self._recheck(inputs, run)) is not None:
            return problem
        try:
            outcome = self._ask(shared_decider(), _encoding(inputs), inputs)
            read = self._read(inputs, step)
        except CgxError as error:
            return _error_or_stall(error)
        return Outcome(
            outcome.result,
            outcome.detail,
            output={**outcome.to_json(), **read},
            code=outcome.code,
            libraries=_libraries(),
        )

    @abstractmethod
    def _ask(self, decider: SymbolicDecider, encoding: dict[str, Any], inputs: Mapping[str, Any]) -> _Decided:
        """This type's question to the maths worker."""

    @staticmethod
    def _read(inputs: Mapping[str, Any], step: ParsedStep | None) -> dict[str, Any]:
        """What the check read the step as: for a LaTeX step, each side in sympy spelling and the relation;
        for any step, the symbol names it renamed (`\\lambda` to lambda)."""
        from cgx_checks.maths.read.spelling import spelled
        from cgx_checks.maths.read.step import parse_step

        if step is None:
            step = parse_step(_encoding(inputs))
        if "latex" not in inputs:
            renamed = step.encoding.renamed()
            return {"read": {"names": renamed}} if renamed else {}
        declared = step.encoding.names
        return {
            "read": {
                "lhs": spelled(step.lhs, declared),
                "rhs": spelled(step.rhs, declared),
                "relation": step.relation,
                "names": step.encoding.renamed(),
            }
        }


class RederiveMaths(_Step):
    name = "rederive-maths"
    description = "A maths step (lhs = rhs, or the paper's latex): passes when sympy shows it, fails on a proof."

    def _ask(self, decider: SymbolicDecider, encoding: dict[str, Any], inputs: Mapping[str, Any]) -> _Decided:
        return decider.decide(encoding, budget=_budget(inputs, DECIDE_BUDGET))


class RederiveMathsNumeric(_Step):
    name = "rederive-maths-numeric"
    description = (
        "The numeric fallback of rederive-maths: the two sides compared at 32 points drawn in the symbols' domains "
        "(seeded by the encoding) to a relative tolerance of 1e-12; integrals, sums and limits evaluated "
        "numerically, a declared function replaced by a seeded test function."
    )
    fallback_for: str | None = "rederive-maths"

    def _ask(self, decider: SymbolicDecider, encoding: dict[str, Any], inputs: Mapping[str, Any]) -> _Decided:
        return decider.numeric_check(encoding, budget=_budget(inputs, NUMERIC_BUDGET))


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(RederiveMaths())
    register(RederiveMathsNumeric())
