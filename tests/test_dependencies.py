"""Every distribution our code imports is declared in pyproject.toml: one that only arrives because a
dependency happens to need it today (pypdfium2 through credencegraph's extra, numpy, mpmath through sympy)
disappears from a user's install the day that dependency stops needing it."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from support import ROOT

OUR_PACKAGES = {"cgx_core", "cgx_checks", "cgx_mcp", "cgx_cli"}


def _imported_modules() -> set[str]:
    """The top-level modules src/ imports (absolute imports, wherever they stand: lazy imports count)."""
    found: set[str] = set()
    for path in (ROOT / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found - OUR_PACKAGES - set(sys.stdlib_module_names)


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"].values()
    requirements = [*project["dependencies"], *(requirement for extra in extras for requirement in extra)]
    return {_normalised(re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]) for requirement in requirements}


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_imported_distribution_is_declared() -> None:
    distributions = packages_distributions()
    imported = {module: [_normalised(name) for name in distributions[module]] for module in _imported_modules()}
    assert "pypdfium2" in imported and "pylatexenc" in imported  # the check sees lazy imports too
    missing = {module: names for module, names in imported.items() if not set(names) & _declared()}
    assert missing == {}
