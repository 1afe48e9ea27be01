"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject's `[tool.importlinter]`) pass,
and an import that goes the wrong way makes them fail, naming it.

The wrong-way imports are made in a copy of `src/` put first on the path, so the repository is never edited.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cgx_core.tooling.registry import TOOLS
from support import ROOT

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(source: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`lint-imports` with the project's contracts, over `source` (a copy of src/) or the repository's src/."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_layer_contract_is_kept() -> None:
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_contract_ignores_an_import_of_the_codes() -> None:
    """The codes are the floor every layer stands on: nothing of theirs may reach up, not even a command's main
    block (docs/errors.md is written by `python -m cgx_core.tooling.error_reference`)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    ignored = [rule for contract in contracts["contracts"] for rule in contract.get("ignore_imports", [])]
    assert not [rule for rule in ignored if rule.startswith("cgx_core.codes")], ignored


@pytest.mark.parametrize(
    ("module", "wrong_import", "contract", "named"),
    [
        (  # a lower layer reaching up: the graph room importing a tool
            "cgx_core/graph/nodes.py",
            "import cgx_core.tools.get_state",
            "cgx_core's layers",
            "cgx_core.graph.nodes -> cgx_core.tools.get_state",
        ),
        (  # two independent rooms of one layer
            "cgx_core/run/lock.py",
            "import cgx_core.ingest.documents",
            "cgx_core's layers",
            "cgx_core.run.lock -> cgx_core.ingest.documents",
        ),
        (  # the core importing a front end
            "cgx_core/checks/engine.py",
            "import cgx_cli.exit_codes",
            "The front ends over the check types over the core",
            "cgx_core.checks.engine -> cgx_cli.exit_codes",
        ),
        (  # a front end importing a built-in check type instead of going through the plugin registry
            "cgx_cli/verify_command.py",
            "import cgx_checks.arithmetic.parse",
            "The front ends reach a check type only through the plugin registry",
            "cgx_cli.verify_command -> cgx_checks.arithmetic.parse",
        ),
        (  # a built-in check type reaching into the engine instead of through cgx_core.plugin_api
            "cgx_checks/recompute_numbers.py",
            "import cgx_core.checks.engine",
            "only through cgx_core.plugin_api",
            "cgx_checks.recompute_numbers -> cgx_core.checks.engine",
        ),
        (  # a cycle between two rooms of the built-in check types (references already imports citation)
            "cgx_checks/citation/text.py",
            "import cgx_checks.references.identity",
            "No two rooms",
            "citation",
        ),
        (  # the sympy worker reaching the caller's side of the maths room
            "cgx_checks/maths/worker/decide.py",
            "import cgx_checks.maths.caller.decider",
            "The maths room's wings",
            "cgx_checks.maths.worker.decide -> cgx_checks.maths.caller.decider",
        ),
        (  # the caller's side importing a worker module (which imports sympy) instead of naming its task
            "cgx_checks/maths/caller/numeric.py",
            "import cgx_checks.maths.worker.comparison",
            "The maths room's wings",
            "cgx_checks.maths.caller.numeric -> cgx_checks.maths.worker.comparison",
        ),
        (  # reading a step reaching up into the worker (the cycle canonical_text once closed)
            "cgx_checks/maths/read/step.py",
            "import cgx_checks.maths.worker.observation",
            "The maths room's wings",
            "cgx_checks.maths.read.step -> cgx_checks.maths.worker.observation",
        ),
        (  # a cycle inside one wing of the maths room (step already imports shape)
            "cgx_checks/maths/read/shape.py",
            "import cgx_checks.maths.read.step",
            "No two rooms",
            "cgx_checks.maths.read",
        ),
    ],
)
def test_a_wrong_way_import_breaks_a_contract(
    tmp_path: Path, module: str, wrong_import: str, contract: str, named: str
) -> None:
    source = tmp_path / "src"
    shutil.copytree(ROOT / "src", source, ignore=shutil.ignore_patterns("__pycache__"))
    path = source / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{wrong_import}  # noqa\n", encoding="utf-8")
    done = lint_imports(source)
    assert done.returncode == 1, done.stdout + done.stderr
    broken = done.stdout.split("Broken contracts", 1)[1]
    assert contract in broken, done.stdout
    assert named in broken, done.stdout


def test_the_tools_package_holds_one_module_per_tool_and_nothing_else() -> None:
    """A newcomer finds a tool by its name: tools/<name>.py is the tool, and every other piece of the tools'
    machinery is in tooling/ (tools/reference.py is only the stable `python -m cgx_core.tools.reference`)."""
    modules = {path.stem for path in (ROOT / "src" / "cgx_core" / "tools").glob("*.py")}
    assert modules == set(TOOLS) | {"__init__", "reference"}
    assert all(tool.module == f"cgx_core.tools.{name}" for name, tool in TOOLS.items())
