"""docs/plugins.md stays true to the code, as datasette keeps its plugin docs: every hook has a heading with
its exact signature and a test of its own, every member of the CheckType protocol is described, and the
example plugin's tests run in our suite."""

from __future__ import annotations

import ast
import inspect
import re
import tomllib

import pytest

from cgx_core import hookspecs
from cgx_core.checks.api import CheckType
from cgx_core.checks.installed import hook_names
from support import ROOT

DOC = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
HOOK_HEADING = re.compile(r"^### `(cgx_\w+)\((.*)\)(?: -> (.+))?`$", re.MULTILINE)


def signature_of(name: str) -> str:
    """`name(arg: Type, ...) -> Return`, as written in the hookspec (annotations are strings there)."""
    function = getattr(hookspecs, name)
    signature = inspect.signature(function)
    arguments = ", ".join(f"{parameter.name}: {parameter.annotation}" for parameter in signature.parameters.values())
    return f"{name}({arguments}) -> {signature.return_annotation}"


def test_there_are_hooks_and_each_is_named_with_the_project_prefix() -> None:
    assert hook_names()
    assert all(name.startswith(f"{hookspecs.PROJECT}_") for name in hook_names())


@pytest.mark.parametrize("hook", hook_names())
def test_every_hook_is_documented_under_a_heading_with_its_exact_signature(hook: str) -> None:
    assert f"### `{signature_of(hook)}`" in DOC.splitlines()


def test_every_documented_hook_is_a_hook() -> None:
    documented = [match[1] for match in HOOK_HEADING.finditer(DOC)]
    assert sorted(documented) == hook_names()


@pytest.mark.parametrize("hook", hook_names())
def test_every_hook_has_a_test_of_its_own(hook: str) -> None:
    """A test named `test_hook_<hook>` in tests/plugins/ that calls it (datasette's rule)."""
    tests = {}
    for path in (ROOT / "tests" / "plugins").glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_hook_"):
                tests[node.name] = ast.unparse(node)
    body = tests.get(f"test_hook_{hook}")
    assert body is not None, f"no test_hook_{hook} in tests/plugins/"
    assert f".hook.{hook}(" in body, f"test_hook_{hook} does not call the hook"


def protocol_members() -> list[str]:
    methods = [name for name, value in vars(CheckType).items() if inspect.isfunction(value) and name[0] != "_"]
    return [*CheckType.__annotations__, *methods]


@pytest.mark.parametrize("member", protocol_members())
def test_every_member_of_the_check_type_protocol_is_described(member: str) -> None:
    assert re.search(rf"^\| `{member}[`(]", DOC, re.MULTILINE), f"docs/plugins.md has no table row for {member}"


def test_the_tutorial_shows_the_example_plugins_entry_point_and_the_real_group() -> None:
    example = tomllib.loads((ROOT / "examples" / "plugins" / "percent-of" / "pyproject.toml").read_text())
    [(name, module)] = example["project"]["entry-points"][hookspecs.ENTRY_POINT_GROUP].items()
    assert f'[project.entry-points."{hookspecs.ENTRY_POINT_GROUP}"]\n{name} = "{module}"' in DOC


def test_every_example_plugins_tests_run_in_our_suite() -> None:
    testpaths = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["testpaths"]
    examples = sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob("examples/plugins/*/tests/"))
    assert examples
    assert set(examples) <= set(testpaths)
