"""dimensions: a formula whose sides, or whose terms of a sum, differ in dimension fails naming both parts, from
the units the agent declares (read as recompute-numbers reads units) and the CODATA constants; the failure is
recorded with what proves it, replays byte for byte and verifies; what it cannot read is refused with a fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_checks.dimension.decide import decide, read_step
from cgx_core.errors import CgxError
from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def decided(**step: Any) -> tuple[str, str, dict[str, Any]]:
    outcome = decide(read_step({"target": "s-1", "equations": [], **step}))
    return outcome.result, outcome.detail, dict(outcome.output)


# -- the errata that motivated the check --------------------------------------------------------------------


def test_a_velocity_written_r_omega_grad_phi_fails_naming_both_sides() -> None:
    units = {"v": "m/s", "r": "m", "Omega": "s^-1", "grad_phi": "m^-1"}
    result, detail, output = decided(dimensions=units, lhs="v", rhs="r*Omega*grad_phi")
    assert result == "failed"
    assert detail == (
        "the two sides must share one dimension, and v is [length]/[time] while r*Omega*grad_phi is 1/[time]"
    )
    assert output["mismatch"] == {
        "first": {"dimension": "[length]/[time]", "expression": "v"},
        "second": {"dimension": "1/[time]", "expression": "r*Omega*grad_phi"},
        "where": "the two sides",
    }
    assert output["declared"]["grad_phi"] == {"dimension": "1/[length]", "unit": "m^-1"}
    assert decided(dimensions=units, lhs="v", rhs="r*Omega")[0] == "passed"


def test_a_tensor_missing_its_factor_omega_c_squared_fails_in_its_sum() -> None:
    units = {"D": "m^2/s", "v": "m/s", "\\tau": "s", "\\omega_c": "s^-1"}
    right = r"D = \frac{v^2 \tau}{1 + \omega_c^2 \tau^2}"
    wrong = r"D = \frac{v^2 \tau}{1 + \tau^2}"
    assert decided(dimensions=units, latex=right)[0] == "passed"
    result, detail, output = decided(dimensions=units, latex=wrong)
    assert result == "failed"
    assert output["mismatch"]["where"] == "the terms of a sum in the rhs"
    assert "1 is dimensionless while tau^2 is [time]^2" in detail


def test_a_mass_g_sqrt_n_over_2_xi_with_the_wrong_dimension_fails() -> None:
    units = {"M": "kg", "g": "1", "N": "1", "\\xi": "m"}
    result, detail, _ = decided(dimensions=units, latex=r"M = g \sqrt{N/2} \xi")
    assert (result, detail) == (
        "failed",
        "the two sides must share one dimension, and M is [mass] while g*sqrt(N/2)*xi is [length]",
    )


# -- the rules ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "constants", "lhs", "rhs", "result"),
    [
        ({"E": "J", "m": "kg"}, {"c": "c"}, "E", "m*c^2", "passed"),
        ({"E": "J", "m": "kg"}, {"c": "speed_of_light"}, "E", "m*c", "failed"),
        ({"v": "km/h", "M": "kg", "r": "m"}, {"G": "G"}, "v", "sqrt(G*M/r)", "passed"),
        ({"v": "m s^-1", "M": "kg", "r": "m"}, {"G": "G"}, "v", "(G*M/r)^(3/2)", "failed"),
        ({"E": "eV", "T": "K"}, {"k_B": "k_B"}, "E", "3/2*k_B*T", "passed"),
        ({"x": "m", "t": "s", "a": "m/s^2"}, {}, "Derivative(x, t, 2)", "a", "passed"),
        ({"x": "m", "t": "s", "a": "m/s^2"}, {}, "Derivative(x, t)", "a", "failed"),
        ({"s": "m", "v": "m/s", "t": "s", "T": "s"}, {}, "s", "Integral(v, (t, 0, T))", "passed"),
        ({"s": "m", "v": "m/s", "t": "s", "T": "m"}, {}, "s", "Integral(v, (t, 0, T))", "failed"),
        ({"n": "m^-3", "x": "m", "L": "m"}, {}, "n", "exp(-x/L)/L^3", "passed"),
        ({"n": "m^-3", "x": "m", "L": "m"}, {}, "n", "exp(-x)/L^3", "failed"),
        ({"P": "W", "E": "J", "t": "s"}, {}, "P", "E/t + 0", "passed"),
        ({"rho": "[mass]/[length]^3", "m": "g", "V": "L"}, {}, "rho", "m/V", "passed"),
        ({"k": "1", "N": "1", "x": "m", "y": "m"}, {}, "x", "Sum(y/N, (k, 1, N))", "passed"),
        ({"p": "1", "x": "m", "y": "s"}, {}, "And(x > 0, y > 0)", "x > y", "failed"),
        ({"q": "C", "E": "V/m", "F": "N"}, {}, "F", "q*E", "passed"),
        ({"B": "T", "q": "C", "v": "m/s", "F": "N"}, {}, "F", "q*v*B", "passed"),
    ],
)
def test_the_rules_of_dimensional_analysis(
    units: dict[str, str], constants: dict[str, str], lhs: str, rhs: str, result: str
) -> None:
    assert decided(dimensions=units, constants=constants, lhs=lhs, rhs=rhs)[0] == result


def test_a_constant_is_recorded_with_its_unit_and_source() -> None:
    _, _, output = decided(dimensions={"E": "J", "m": "kg"}, constants={"c": "c"}, lhs="E", rhs="m*c^2")
    assert output["constants"]["c"]["constant"] == "speed_of_light"
    assert output["constants"]["c"]["unit"] == "m s^-1"
    assert "CODATA" in output["constants"]["c"]["source"]
    assert output["lhs"] == {"dimension": "[length]^2*[mass]/[time]^2", "expression": "E"}


@pytest.mark.parametrize(
    ("step", "code"),
    [
        ({"dimensions": {"x": "bananas per crate"}, "lhs": "x", "rhs": "2*x"}, "unit-unknown"),
        ({"dimensions": {"x": "m"}, "constants": {"c": "light"}, "lhs": "x", "rhs": "c"}, "constant-unknown"),
        ({"dimensions": {"x": "m"}, "lhs": "x", "rhs": "y"}, "unknown-symbol"),
        ({"dimensions": {"x": "m"}, "constants": {"x": "c"}, "lhs": "x", "rhs": "2*x"}, "proposal-invalid"),
        ({"dimensions": {"x": "m"}, "functions": ["f"], "lhs": "x", "rhs": "f(x)"}, "unknown-symbol"),
    ],
)
def test_what_the_check_cannot_read_is_refused(step: dict[str, Any], code: str) -> None:
    with pytest.raises(CgxError) as raised:
        read_step({"target": "s-1", "equations": [], **step})
    assert raised.value.code == code


def test_a_dimension_that_depends_on_a_value_is_undecided_not_a_verdict() -> None:
    with pytest.raises(CgxError) as raised:
        decided(dimensions={"r": "m", "n": "1", "A": "m"}, lhs="A", rhs="r^n")
    assert raised.value.code == "dimension-undecided"
    assert "r^n" not in raised.value.message or "not a number" in raised.value.message


# -- through the tools: recorded, replayed, verified ---------------------------------------------------------

PAPER = r"""\documentclass{article}
\begin{document}
The drift velocity of a particle at radius $r$ follows from the potential.
\begin{equation}
v = r \Omega \xi
\end{equation}
The diffusion coefficient is
\begin{equation}
D = \frac{v^2 \tau}{1 + \omega_c^2 \tau^2}
\end{equation}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"model": "test-model", **arguments})
    return payload


def test_a_dimension_error_fails_through_run_checks_replays_and_verifies(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    started = call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), store_source=True)
    equations = [chunk["id"] for chunk in started["nodes"] if chunk["unit"] == "equation"]
    assert equations == ["e-1", "e-2"]
    records: list[dict[str, Any]] = [
        {"node": chunk["id"], "type": "definition"} for chunk in started["nodes"] if chunk["unit"] == "sentence"
    ]
    records += [{"node": node, "type": "derivation", "rests_on": ["s-1"]} for node in equations]
    assert call("classify", run=str(run), records=records)["refused"] == []
    units = {"v": "m/s", "r": "m", "\\Omega": "1/s", "\\xi": "m^-1"}
    diffusion = {"D": "m^2/s", "v": "m/s", "\\tau": "s", "\\omega_c": "1/s"}
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "dimensions",
                "target": "e-1",
                "equations": ["e-1"],
                "dimensions": units,
                "latex": "v = r \\Omega \\xi",
            },
            {
                "type": "dimensions",
                "target": "e-2",
                "equations": ["e-2"],
                "dimensions": diffusion,
                "latex": "D = \\frac{v^2 \\tau}{1 + \\omega_c^2 \\tau^2}",
            },
        ],
    )
    assert result["refused"] == []
    assert [(check["target"], check["result"]) for check in result["checks"]] == [
        ("e-1", "failed"),
        ("e-2", "passed"),
    ]
    assert "v is [length]/[time] while r*Omega*xi is 1/[time]" in result["checks"][0]["detail"]
    refused = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "dimensions",
                "target": "e-1",
                "equations": ["e-1"],
                "dimensions": {"v": "parsecs^"},
                "lhs": "v",
                "rhs": "2*v",
            }
        ],
    )
    assert refused["refused"][0]["code"] == "unit-unknown" and refused["refused"][0]["fix"]
    finished = call("finish_run", run=str(run))
    assert "graph" in finished or (run / "graph.json").exists(), finished
    recorded = json.loads((run / "checks" / "c-001" / "output.json").read_text(encoding="utf-8"))
    assert recorded["output"]["mismatch"]["where"] == "the two sides"  # what proves the failure, recorded
    assert recorded["output"]["declared"]["\\xi"] == {"dimension": "1/[length]", "unit": "m^-1"}
    assert_run_verifies(run)
