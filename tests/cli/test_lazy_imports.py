"""The command line defers numpy and credencegraph's diagnostics until a command needs them: a classify
imports neither, and code that needs them gets the real modules, with the same results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, start_example

# What the console script does (cgx_cli.main.entry), then a report of what was imported.
SCRIPT = """
import json, sys
from cgx_cli.lazy_imports import install
install()
from cgx_cli.main import main
statuses = [main(command) for command in json.loads(sys.argv[1])]
print(json.dumps({
    "statuses": statuses,
    "numpy": "numpy._core" in sys.modules,
    "diagnostics": "credencegraph.diagnostics.claims" in sys.modules,
    "mcp": "mcp" in sys.modules or "anyio" in sys.modules,
    "maths": sorted({name.split(".")[0] for name in sys.modules} & {"sympy", "lark", "pint"}),
    "refusal-only": "difflib" in sys.modules,
    "listing-only": "cgx_core.tooling.result_schemas" in sys.modules,
    "check types": sorted(
        name for name in sys.modules if name.startswith("cgx_checks") or name == "cgx_core.checks.installed"
    ),
}), file=sys.stderr)
"""


def commands(run: Path, *calls: tuple[str, dict[str, object]]) -> list[list[str]]:
    def arguments(tool: str, args: dict[str, object]) -> str:
        return json.dumps(args if tool == "get_state" else {**args, "model": "m"})

    return [["tool", tool, "--run", str(run), "--args", arguments(tool, args)] for tool, args in calls]


def in_one_process(argv: list[list[str]]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(argv)], capture_output=True, text=True, check=False)
    report: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    return report


def test_start_run_and_classify_import_neither_numpy_nor_the_diagnostics_nor_mcp(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start = {"paper": str(EXAMPLE / "paper.tex"), "rubric": str(EXAMPLE_RUBRIC)}
    report = in_one_process(
        commands(run, ("start_run", start), ("classify", {"records": EXAMPLE_RECORDS}), ("get_state", {}))
    )
    assert {name: report[name] for name in ("statuses", "numpy", "diagnostics", "mcp")} == {
        "statuses": [0, 0, 0],
        "numpy": False,
        "diagnostics": False,
        "mcp": False,
    }


def test_a_cold_classify_imports_no_maths_library_and_no_check_type(tmp_path: Path) -> None:
    """A tool that needs no check type pays for none: neither sympy, lark nor pint, nor any check type's plugin
    or the discovery that loads them (the cold classify of benchmarks/bench_startup.py, figure g1)."""
    run = tmp_path / "run"
    start_example(run)
    report = in_one_process(commands(run, ("classify", {"records": EXAMPLE_RECORDS}), ("get_state", {})))
    assert report["statuses"] == [0, 0]
    assert (report["maths"], report["check types"], report["numpy"]) == ([], [], False)
    assert report["refusal-only"] is False  # difflib serves only a refusal's suggestion (none here)
    assert report["listing-only"] is False  # the tools' result schemas are read by a listing, never by a call


def test_a_run_checks_loads_the_check_types_the_classify_before_it_did_not(tmp_path: Path) -> None:
    """The pin above is not vacuous: the same report sees the plugins once a tool needs them."""
    run = tmp_path / "run"
    start_example(run)
    quick = {
        "type": "recompute-numbers",
        "target": "s-12",
        "cites": ["s-12"],
        "expression": "12 * 300",
        "result": "3600",
    }
    report = in_one_process(
        commands(
            run,
            ("classify", {"records": EXAMPLE_RECORDS}),
            ("run_checks", {"proposals": [quick]}),
        )
    )
    assert report["statuses"] == [0, 0]
    assert "cgx_core.checks.installed" in report["check types"]


def test_finish_run_gets_the_real_modules_when_it_infers_and_the_run_replays_identically(tmp_path: Path) -> None:
    from cgx_core.audit.replay import replay

    run = tmp_path / "run"
    start = {"paper": str(EXAMPLE / "paper.tex"), "rubric": str(EXAMPLE_RUBRIC), "store_source": True}
    report = in_one_process(
        commands(
            run,
            ("start_run", start),
            ("classify", {"records": EXAMPLE_RECORDS}),
            ("add_premises", {"records": EXAMPLE_PREMISES}),
            ("finish_run", {}),
        )
    )
    assert report["statuses"] == [0, 0, 0, 0]
    # Rebuilt in this process, where nothing was deferred: the same results and graph, byte for byte.
    assert replay(run, source=None, sources=None).identical


def test_deferred_modules_are_the_real_ones_when_used() -> None:
    script = """
from cgx_cli.lazy_imports import install
install()
import sys
import credencegraph.rubric
import numpy as np
assert "numpy._core" not in sys.modules
from credencegraph.diagnostics import diagnose
from credencegraph.semantics import cpt
assert "numpy._core" in sys.modules
assert isinstance(np.zeros(3), np.ndarray) and float(np.linalg.norm(np.ones(4))) == 2.0
import numpy
assert numpy is sys.modules["numpy"] and cpt.np.ndarray is numpy.ndarray
print(callable(diagnose))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr


MATHS_STEP = {
    "type": "rederive-maths",
    "target": "s-08",
    "symbols": {"x": ["real"]},
    "lhs": "(1 + x)^2",
    "rhs": "1 + 2*x + x^2",
}


def test_a_run_checks_of_a_maths_step_imports_no_sympy_in_the_calling_process(tmp_path: Path) -> None:
    """sympy is the maths worker's alone (figure g2): the caller reads the step with lark and sends it over;
    the check is decided all the same."""
    run = tmp_path / "run"
    start_example(run)
    report = in_one_process(
        commands(run, ("classify", {"records": EXAMPLE_RECORDS}), ("run_checks", {"proposals": [MATHS_STEP]}))
    )
    assert report["statuses"] == [0, 0]
    assert report["maths"] == ["lark"]  # the step's grammar, in the caller; sympy and pint nowhere here
    output = json.loads((run / "checks" / "c-001" / "output.json").read_text(encoding="utf-8"))
    assert (output["result"], output["detail"]) == ("passed", "sympy reduces lhs - rhs to 0 (expand)")


def test_listing_and_loading_the_plugins_imports_no_grammar_library(tmp_path: Path) -> None:
    """`plugins` and `tools` (as the MCP server's start) load every check type, and neither lark (so no
    grammar is built) nor sympy or pint comes with them: each is imported by the first check that needs it."""
    report = in_one_process([["plugins"], ["tools"], ["tools", "run_checks"]])
    assert report["statuses"] == [0, 0, 0]
    assert report["listing-only"] is True  # the same report sees the result schemas once a listing shows one
    assert "cgx_checks.recompute_numbers" in report["check types"]  # the plugins were loaded
    assert "cgx_checks.rederive_maths" in report["check types"]
    assert report["maths"] == []
    assert "cgx_checks.arithmetic.parse" not in report["check types"]
