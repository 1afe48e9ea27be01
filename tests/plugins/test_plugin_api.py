"""The public surface a plugin is written against: `cgx_core.plugin_api` (and `cgx_core.testing`).

Its members and version are pinned here, so a change to the surface is a deliberate edit of this file that
the deprecation policy of docs/plugins.md governs; the `CheckType` protocol requires exactly what
registration requires, so a minimal plugin on `CheckTypeBase` passes `mypy --strict` and registers with
every optional member defaulted.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cgx_core import plugin_api
from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.errors import CgxError
from cgx_core.testing import StartedRun
from support import ROOT

MINIMAL = Path(__file__).with_name("minimal_check_type.py")
MYPY = str(Path(sys.executable).with_name("mypy"))

PUBLIC = [
    "API_VERSION",
    "Cancelled",
    "CheckType",
    "CheckTypeBase",
    "CheckTypeRegistry",
    "Mode",
    "NodeView",
    "Numeral",
    "NumeralError",
    "OfflineSource",
    "Outcome",
    "Prepared",
    "ProposingTool",
    "Refusal",
    "Result",
    "RunView",
    "checkpoint",
    "counting",
    "define_codes",
    "find_numerals",
    "fraction_text",
    "hookimpl",
    "progress",
    "read_numeral",
    "read_quantity",
    "read_text",
    "stopping",
]


def test_the_public_surface_and_its_version_are_pinned() -> None:
    """Adding a member raises the minor version; removing one needs a deprecation first (docs/plugins.md)."""
    assert plugin_api.__all__ == PUBLIC
    assert plugin_api.API_VERSION == (1, 3)
    assert all(hasattr(plugin_api, name) for name in PUBLIC)


def test_the_protocol_requires_exactly_what_registration_requires() -> None:
    """The protocol's members are the ones `guard.guarded` refuses a plugin without; the rest are defaulted."""
    required = {name for name in dir(plugin_api.CheckType) if not name.startswith("_")}
    required |= set(plugin_api.CheckType.__annotations__)
    assert required == {"name", "tool", "description", "proposal_schema", "prepare", "run"}


def mypy_strict(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MYPY, "--strict", "--no-incremental", "--cache-dir", "/dev/null", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_minimal_plugin_on_the_base_class_passes_mypy_strict() -> None:
    done = mypy_strict(MINIMAL)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_sees_a_plugin_that_lacks_a_required_method(tmp_path: Path) -> None:
    """The protocol is not vacuous: without `run`, the minimal plugin no longer type-checks as a CheckType."""
    source = MINIMAL.read_text(encoding="utf-8")
    start = source.index("    def run(")
    broken = source[:start] + source[source.index("\n\n\ncheck_type", start) :]
    path = tmp_path / "broken_check_type.py"
    path.write_text(broken, encoding="utf-8")
    done = mypy_strict(path)
    assert done.returncode == 1
    assert "check_type" in done.stdout and "run" in done.stdout


def test_a_minimal_plugin_registers_with_the_defaults_and_runs(
    fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    fake_distribution("cgx-minimal", MINIMAL.read_text(encoding="utf-8"))
    registry = build_registry(build_plugin_manager())
    assert registry.invalid == [], registry.invalid
    installed = registry.get("minimal")
    assert installed is not None and installed.distribution == "cgx-minimal"
    guarded = installed.check_type
    assert (guarded.fallback_for, guarded.uses_model, guarded.retry_after_error) == (None, False, False)
    assert (dict(guarded.codes), guarded.another_source_codes) == ({}, frozenset())
    try:
        with check_types_scope(registry):
            run = cgx_run(
                rubric_extra='[checks.minimal]\ntargets = ["result"]\nsensitivity = "beta:19,1"\n'
                'false_pass = "beta:1,9"\nmodels = []\n'
            )
            records = [
                {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
                {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
            ]
            assert run.call("classify", records=records)["refused"] == []
            [check] = run.call("run_checks", proposals=[{"type": "minimal", "target": "s-8"}])["checks"]
            assert check["result"] == "passed"
            again = run.call("run_checks", proposals=[{"type": "minimal", "target": "s-8"}])
            assert [item["code"] for item in again["refused"]] == ["check-duplicate"]  # slot "" by default
    finally:
        registry.worker.close()


def test_numeral_error_is_its_own_class() -> None:
    """Catching NumeralError catches what the reader raises and nothing else of the core's."""
    with pytest.raises(plugin_api.NumeralError) as raised:
        plugin_api.read_numeral("many")
    assert raised.value.code == "expression-invalid"
    assert issubclass(plugin_api.NumeralError, CgxError) and plugin_api.NumeralError is not CgxError
    assert not isinstance(CgxError("tampered", "x"), plugin_api.NumeralError)


PUBLIC_MODULES = {"cgx_core.plugin_api", "cgx_core.testing"}


def cgx_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0] in {"cgx_core", "cgx_checks", "cgx_cli", "cgx_mcp"}}


def test_the_example_plugin_and_its_tests_import_only_public_modules() -> None:
    plugin = ROOT / "examples" / "plugins" / "percent-of"
    files = sorted(plugin.rglob("*.py"))
    assert files
    private = {str(path.relative_to(plugin)): cgx_imports(path) - PUBLIC_MODULES for path in files}
    assert {path: names for path, names in private.items() if names} == {}
