"""The new forms through run_checks on a real run: a determinant's mutant fails with its certificate, a printed
constant's step passes within its precision (the interval recorded), two conditions end in error (never a
sampled pass), an ambiguous slash is refused naming both readings; the run replays byte for byte and verify
derives every certificate again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPER = r"""\documentclass{article}
\begin{document}
The determinant of the Vandermonde matrix is a product of differences.
\begin{equation}
\det\begin{pmatrix} 1 & x & x^2 \\ 1 & y & y^2 \\ 1 & z & z^2 \end{pmatrix} = (y - x)(z - x)(z + y)
\end{equation}
The noise grows as the square root of the time.
\begin{equation}
\frac{\sqrt{5}}{\sqrt{3}} \times 10^{-7} \sqrt{\tau} = 1.3\times10^{-7}\sqrt{\tau}
\end{equation}
The stationary point satisfies both conditions.
\begin{equation}
S = S_z/q\Omega
\end{equation}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"model": "test-model", **arguments})
    return payload


def test_new_certificates_replay_and_verify(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    started = call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), store_source=True)
    equations = [chunk["id"] for chunk in started["nodes"] if chunk["unit"] == "equation"]
    assert equations == ["e-1", "e-2", "e-3"]
    records: list[dict[str, Any]] = [
        {"node": chunk["id"], "type": "definition"} for chunk in started["nodes"] if chunk["unit"] == "sentence"
    ]
    records += [{"node": node, "type": "derivation", "rests_on": ["s-1"]} for node in equations]
    assert call("classify", run=str(run), records=records)["refused"] == []
    real = ["real"]
    vandermonde = r"\det\begin{pmatrix} 1 & x & x^2 \\ 1 & y & y^2 \\ 1 & z & z^2 \end{pmatrix} = (y - x)(z - x)(z + y)"
    noise = r"\frac{\sqrt{5}}{\sqrt{3}} \times 10^{-7} \sqrt{\tau} = 1.3\times10^{-7}\sqrt{\tau}"
    proposals = [
        {
            "type": "rederive-maths",
            "target": "e-1",
            "equations": ["e-1"],
            "symbols": {"x": real, "y": real, "z": real},
            "latex": vandermonde,
        },
        {
            "type": "rederive-maths",
            "target": "e-2",
            "equations": ["e-2"],
            "symbols": {"\\tau": ["positive"]},
            "latex": noise,
        },
        {
            "type": "rederive-maths",
            "target": "s-3",
            "symbols": {name: real for name in ("a", "b", "c", "d")},
            "lhs": "And(Eq(a, b^2 + 1/7), Eq(c, d^3))",
            "rhs": "And(Eq(a, b^2 + 1/11), Eq(c, d^3))",
        },
        {
            "type": "rederive-maths",
            "target": "e-3",
            "equations": ["e-3"],
            "symbols": {"S": real, "S_z": real, "q": real, "\\Omega": real},
            "latex": r"S = S_z/q\Omega",
        },
    ]
    records_s3 = call("classify", run=str(run), records=[{"node": "s-3", "type": "derivation", "rests_on": ["s-1"]}])
    assert records_s3["refused"] == [], records_s3
    result = call("run_checks", run=str(run), proposals=proposals)
    [refused] = result["refused"]
    assert refused["code"] == "latex-ambiguous" and "S_z/q*Omega or S_z/(q*Omega)" in refused["message"]
    outcomes = {check["target"]: (check["type"], check["result"]) for check in result["checks"]}
    assert outcomes["e-1"] == ("rederive-maths", "failed")
    assert outcomes["e-2"] == ("rederive-maths", "passed")
    condition = [check for check in result["checks"] if check["target"] == "s-3"]
    assert [check["result"] for check in condition] == ["error", "error"]  # symbolic, then the numeric fallback
    assert all(len(check["detail"]) < 1000 for check in result["checks"])
    by_target = {}
    for directory in sorted((run / "checks").iterdir()):
        recorded = json.loads((directory / "output.json").read_text(encoding="utf-8"))
        inputs = json.loads((directory / "inputs.json").read_text(encoding="utf-8"))
        by_target.setdefault(inputs["target"], []).append(recorded)
    determinant = by_target["e-1"][0]["output"]
    assert determinant["certificate"]["digits"] == "exact" and determinant["witness"]
    assert by_target["e-2"][0]["output"]["approximate"] == {
        "reported": "1.3e-7",
        "tolerance": "5e-9",
        "value": "1.29099444873581e-7",
    }
    assert by_target["s-3"][1]["code"] == "numeric-condition"
    call("finish_run", run=str(run))
    assert_run_verifies(run)
