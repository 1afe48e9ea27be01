"""dimensions: the two sides of a step, and the terms of every sum in it, have one dimension.

A proposal writes a step as rederive-maths does (sympy spelling in `lhs` and `rhs`, or the paper's LaTeX in
`latex` with `split`, cited in `equations`) and gives, in `dimensions`, each symbol's unit or dimension as the
paper defines it (`{"r": "m", "\\Omega": "s^-1", "N": "1"}`; bound variables too, and a declared function's
value by the function's name), and in `constants` the physical constants it writes by their CODATA names or
symbols (`{"G": "G", "c": "speed_of_light"}`). The check reads the step with the maths check's readers, gives
every part its dimension by the rules of `cgx_checks.dimension.analysis`, and fails at the first place two
parts that must agree do not, naming both with their dimensions: `r \\Omega \\nabla\\varphi` written for a
velocity, a mass `g \\sqrt{N/2} \\xi` whose factors give another dimension. Units are read as recompute-numbers
reads them (the numeral reader's vocabulary and the same pint registry), constants from the CODATA table
(`cgx_core.numbers.constants`).

It decides from the declarations alone, so a failure is a proof that the step as written cannot hold for
quantities of the declared dimensions: the output records each declaration's dimension, each side's, and the
two parts that disagree, and verify derives them again. A dimension that depends on a symbol's value (`r^n`
with `n` a symbol and `r` a length) is an error (`dimension-undecided`), never a verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cgx_checks.common import error_outcome, refusal_of
from cgx_checks.dimension.codes import MEANINGS
from cgx_checks.expression_codes import MEANINGS as EXPRESSION_MEANINGS
from cgx_checks.maths.codes import MEANINGS as MATHS_MEANINGS
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.read.encoding import KEYS
from cgx_checks.rederive_maths import FIXES as MATHS_FIXES
from cgx_checks.rederive_maths import latex_problem, latex_slot, latex_texts
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

MAX_DECLARED: Final = 50
ENCODING_KEYS: Final = tuple(key for key in KEYS if key != "symbols")
_READ_CODES: Final = (
    MathsCode.LATEX_INVALID,
    MathsCode.LATEX_NOT_IN_TEXT,
    MathsCode.LATEX_AMBIGUOUS,
    MathsCode.DEGREE_TOO_LARGE,
    MathsCode.APPROXIMATION_NOT_NUMERIC,
)
FIXES: Final = {
    **MATHS_FIXES,
    "unknown-symbol": "give every symbol of the step, bound variables too, its unit in dimensions (1 for a pure "
    "number), or name it in constants",
    "unit-unknown": "write a unit (m, km/h, J s, kg m^2 s^-2), a dimension ([length]/[time]) or 1",
    "constant-unknown": "name a CODATA constant by its symbol (c, G, h, hbar, k_B) or give the symbol a unit in "
    "dimensions",
}

_NAMES: Final = {
    "type": "object",
    "additionalProperties": {"type": "string", "maxLength": 100},
    "maxProperties": MAX_DECLARED,
}
SCHEMA: Final[Mapping[str, Any]] = {
    "properties": {
        "equations": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
        "dimensions": {
            **_NAMES,
            "description": "Each symbol's unit as the paper defines it (bound ones too; a declared function's "
            "value): m, km/h, J s, [length], 1.",
            "examples": [{"r": "m", "\\Omega": "s^-1", "N": "1"}],
        },
        "constants": {**_NAMES, "description": "CODATA constants it writes.", "examples": [{"G": "G"}]},
        "lhs": {"type": "string", "description": "As rederive-maths' lhs (sympy spelling).", "examples": ["v"]},
        "rhs": {"type": "string", "description": "As rederive-maths' rhs.", "examples": ["r*Omega"]},
        "latex": {
            "type": "string",
            "description": "The paper's LaTeX, as rederive-maths reads it.",
            "examples": ["v = r \\Omega \\xi"],
        },
        "split": {"type": "integer", "minimum": 1, "description": "Which relation of latex (1)."},
        "functions": {"type": "array", "items": {"type": "string"}},
        "aliases": {"type": "object"},
        "function_argument": {"type": "string", "enum": ["factor", "product"]},
    },
    "required": ["dimensions"],
    "additionalProperties": False,
}


def _declared(raw: object, field: str) -> dict[str, str]:
    if not isinstance(raw, Mapping) or len(raw) > MAX_DECLARED:
        raise CgxError(
            Code.PROPOSAL_INVALID,
            f"{field} is not an object of at most {MAX_DECLARED} names, each with a string @ $.{field}",
        )
    for name, value in raw.items():
        if not isinstance(value, str) or not value.strip() or len(value) > 100:
            raise CgxError(Code.PROPOSAL_INVALID, f"{field}'s {str(name)[:40]!r} is not a non-empty string @ $.{field}")
    return {str(name): str(value) for name, value in raw.items()}


def _inputs(proposal: Mapping[str, Any]) -> dict[str, Any]:
    inputs: dict[str, Any] = {
        "target": str(proposal["target"]),
        "equations": [str(item) for item in proposal.get("equations") or []],
        "dimensions": _declared(proposal.get("dimensions"), "dimensions"),
    }
    if "constants" in proposal:
        inputs["constants"] = _declared(proposal["constants"], "constants")
    inputs.update({key: proposal[key] for key in ENCODING_KEYS if key in proposal})
    return inputs


class Dimensions(CheckTypeBase):
    """The check type."""

    name = "dimensions"
    tool: ProposingTool = "run_checks"
    description = (
        "Dimensional consistency of a step: its sides and the terms of each sum share one dimension, from each "
        "symbol's unit; written as for rederive-maths (lhs/rhs or latex, split, equations). Fails naming both parts."
    )
    proposal_schema = SCHEMA
    codes = define_codes(
        {
            **EXPRESSION_MEANINGS,
            **{str(code): MATHS_MEANINGS[code] for code in _READ_CODES},
            **MEANINGS,
        }
    )

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        try:
            inputs = _inputs(proposal)
            texts = latex_texts(run, inputs["equations"])
            if isinstance(texts, Refusal):
                return texts
            checked = _checked_step(inputs)
        except CgxError as error:
            return refusal_of(error, FIXES)
        if (problem := latex_problem(inputs.get("latex"), inputs["equations"], texts)) is not None:
            return problem
        return Prepared(inputs["target"], inputs, memo=checked)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return latex_slot(inputs)

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return self._decided(prepared.inputs, prepared.memo)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        texts = latex_texts(run, [str(item) for item in inputs.get("equations") or []])
        if isinstance(texts, Refusal):
            return Outcome("error", texts.message, code=str(texts.code))
        problem = latex_problem(inputs.get("latex"), list(inputs.get("equations") or []), texts)
        if problem is not None:
            return Outcome("error", problem.message, code=str(problem.code))
        return self._decided(inputs, None)

    def _decided(self, inputs: Mapping[str, Any], memo: Any) -> Outcome:
        from cgx_checks.dimension.decide import decide

        try:
            checked = memo if memo is not None else _checked_step(inputs)
            return decide(checked)
        except CgxError as error:
            return error_outcome(error)


def _checked_step(inputs: Mapping[str, Any]) -> Any:
    from cgx_checks.dimension.decide import read_step  # lark and pint: loaded when a proposal arrives

    return read_step(inputs)


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(Dimensions())
