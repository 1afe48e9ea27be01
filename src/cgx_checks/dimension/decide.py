"""A dimensions proposal read into a step with every name's dimension, and decided (see `cgx_checks.dimensions`).

The step is read by the maths check's readers with each declared name as a symbol of no assumption (a
dimension says nothing of sign or kind), so what it reads is exactly what rederive-maths would read. The
output records what the verdict rests on: each declaration's dimension, each constant's unit and source,
each side's dimension and, for a failure, the two parts that disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import metadata
from typing import Any, Final

import attrs

from cgx_checks.dimension.analysis import analyse, fits_text
from cgx_checks.dimension.declared import Dimension, dimension_of_unit, dimension_text, named_constant
from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.read.encoding import KEYS, load_encoding
from cgx_checks.maths.read.shape import shape_of
from cgx_checks.maths.read.spelling import spelled
from cgx_checks.maths.read.step import step_sides
from cgx_checks.maths.read.tree import Node
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.plugin_api import Outcome

ENCODING_KEYS: Final = tuple(key for key in KEYS if key != "symbols")
"""The fields of a proposal that write the step, as a maths encoding does (its symbols come from `dimensions`
and `constants`)."""


@attrs.frozen
class CheckedStep:
    """A step read, with the dimension of every name it may use, and the declarations as recorded."""

    lhs: Node
    rhs: Node
    relation: str
    declared: frozenset[str]
    symbols: Mapping[str, Dimension]
    functions: Mapping[str, Dimension]
    record: Mapping[str, Any]


def read_step(inputs: Mapping[str, Any]) -> CheckedStep:
    """The step of a proposal's inputs, read and checked, or CgxError (the maths readers' codes, `unit-unknown`,
    `constant-unknown`)."""
    dimensions: Mapping[str, str] = inputs["dimensions"]
    constants: Mapping[str, str] = inputs.get("constants") or {}
    functions = {str(name) for name in inputs.get("functions") or []}
    for name in constants:
        if name in dimensions:
            raise CgxError(
                Code.PROPOSAL_INVALID, f"{name!r} has a unit and is named a constant; give one @ $.constants"
            )
    symbols: dict[str, list[str]] = {name: [] for name in (*dimensions, *constants) if name not in functions}
    raw = {key: inputs[key] for key in ENCODING_KEYS if inputs.get(key) is not None}
    try:
        encoding = load_encoding({"symbols": symbols, **raw})
        trees, relation = step_sides(encoding)
        for side, tree in trees.items():
            try:
                shape_of(tree, encoding)
            except CgxError as error:
                raise CgxError(error.code, f"{side}: {error.message}") from None
    except CgxError as error:  # the maths readers name their own field; here a symbol is declared by its unit
        message = error.message.replace("@ $.symbols", "@ $.dimensions").replace("maths encoding", "proposal")
        raise CgxError(error.code, message.replace("declare it in symbols", "give its unit in dimensions")) from None
    sympy_name = dict(encoding.spellings)
    symbol_dimensions: dict[str, Dimension] = {}
    function_dimensions: dict[str, Dimension] = {}
    declared: dict[str, Any] = {}
    for written, unit in sorted(dimensions.items()):
        try:
            dimension = dimension_of_unit(unit)
        except CgxError as error:
            raise CgxError(error.code, f"{error.message} @ $.dimensions.{written[:40]}") from None
        name = sympy_name.get(written, written)
        (function_dimensions if name in encoding.functions else symbol_dimensions)[name] = dimension
        declared[written] = {"dimension": dimension_text(dimension), "unit": unit}
    missing = sorted(set(encoding.functions) - set(function_dimensions))
    if missing:
        raise CgxError(
            ExpressionCode.UNKNOWN_SYMBOL, f"the function {missing[0]} has no unit in dimensions: give its value's unit"
        )
    named: dict[str, Any] = {}
    for written, name in sorted(constants.items()):
        found = named_constant(name)
        dimension = dimension_of_unit(found.unit)
        symbol_dimensions[sympy_name.get(written, written)] = dimension
        named[written] = {
            "constant": found.name,
            "dimension": dimension_text(dimension),
            "source": found.source,
            "unit": found.unit,
        }
    record = {"constants": named, "declared": declared}
    return CheckedStep(
        trees["lhs"],
        trees["rhs"],
        relation,
        encoding.names,
        symbol_dimensions,
        function_dimensions,
        record,
    )


def decide(step: CheckedStep) -> Outcome:
    """The verdict: passed when every part that must agree does, failed at the first that does not, with
    what shows it; CgxError `dimension-undecided` where a dimension depends on a value."""
    found = analyse(step.lhs, step.rhs, step.declared, step.symbols, step.functions)
    libraries = {"pint": metadata.version("pint")}
    if step.record["constants"]:
        libraries["scipy"] = metadata.version("scipy")
    sides = {
        "lhs": {"dimension": fits_text(found.lhs), "expression": spelled(step.lhs, step.declared)},
        "rhs": {"dimension": fits_text(found.rhs), "expression": spelled(step.rhs, step.declared)},
    }
    output = {**step.record, **sides, "mismatch": None if found.mismatch is None else found.mismatch.to_json()}
    if found.mismatch is None:
        shown = fits_text(found.lhs if found.lhs is not None else found.rhs)
        detail = f"both sides have the dimension {shown}, and so do the terms of every sum in them"
        return Outcome("passed", detail, output=output, libraries=libraries)
    mismatch = found.mismatch
    first, second = mismatch.first, mismatch.second
    if second.dimension == "dimensionless" and second.expression == "a pure number":
        detail = f"{mismatch.where} must be a pure number, and {first.expression} is {first.dimension}"
    else:
        detail = (
            f"{mismatch.where} must share one dimension, and {first.expression} is {first.dimension} while "
            f"{second.expression} is {second.dimension}"
        )
    return Outcome("failed", detail, output=output, libraries=libraries)
