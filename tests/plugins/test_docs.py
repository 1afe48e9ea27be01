"""docs/plugins.md stays true to the code, as datasette keeps its plugin docs: every hook has a heading with
its exact signature and a test of its own, every member of the CheckType protocol is described, the page
names only the public modules, its listing is what `credencegraph-extract plugins` prints, its code passes
`mypy --strict`, and the tutorial's plugin, written from the page, is listed and passes its own tests."""

from __future__ import annotations

import ast
import inspect
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cgx_cli.plugins_reference import listing_block
from cgx_core import hookspecs
from cgx_core.checks.api import CheckType
from cgx_core.checks.installed import hook_names
from support import ROOT

DOC = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
HOOK_HEADING = re.compile(r"^### `(cgx_\w+)\((.*)\)(?: -> (.+))?`$", re.MULTILINE)
TITLED_BLOCK = re.compile(r'^```\w+ title="([^"]+)"\n(.*?)^```$', re.MULTILINE | re.DOTALL)
PUBLIC_MODULES = ("cgx_core.plugin_api", "cgx_core.testing")
BIN = Path(sys.executable).parent


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


def test_the_page_names_no_module_of_this_package_but_the_public_ones() -> None:
    """A plugin author who follows the page imports only what the deprecation policy covers (the comment that
    says how to regenerate the listing is for this repository's developers, and hidden from readers)."""
    shown = re.sub(r"<!--.*?-->", "", DOC, flags=re.DOTALL)
    named = set(re.findall(r"\bcgx_(?:core|checks|cli|mcp)\.\w+(?:\.\w+)*", shown))
    assert named
    assert {name for name in named if not name.startswith(PUBLIC_MODULES)} == set()


def test_the_listing_on_the_page_is_what_the_command_prints() -> None:
    """Regenerate it with `uv run python -m cgx_cli.plugins_reference docs/plugins.md`."""
    done = subprocess.run([str(BIN / "credencegraph-extract"), "plugins"], capture_output=True, text=True, check=True)
    assert listing_block(done.stdout) in DOC


def tutorial_files() -> dict[str, str]:
    """The tutorial's files, each a code block titled with its path."""
    return {title: body for title, body in TITLED_BLOCK.findall(DOC) if title != "listed"}


def write_tutorial_plugin(folder: Path) -> Path:
    """The tutorial's plugin folder, written from the page."""
    for name, text in tutorial_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_tutorials_files_are_the_ones_its_folder_lists_and_its_entry_point_is_the_real_group() -> None:
    assert set(tutorial_files()) == {
        "pyproject.toml",
        "src/cgx_grim/__init__.py",
        "tests/conftest.py",
        "tests/test_grim.py",
    }
    project = tomllib.loads(tutorial_files()["pyproject.toml"])["project"]
    assert project["entry-points"][hookspecs.ENTRY_POINT_GROUP] == {"grim": "cgx_grim"}


def test_the_pages_code_passes_mypy_strict_where_a_plugin_author_runs_it(tmp_path: Path) -> None:
    """The tutorial's plugin and the page's minimal check type, checked in the plugin's own folder (none of
    this repository's configuration), against the installed package as a plugin author's mypy sees it."""
    plugin = write_tutorial_plugin(tmp_path / "cgx-grim")
    [minimal] = [block for block in re.findall(r"^```python\n(.*?)^```$", DOC, re.MULTILINE | re.DOTALL)
                 if "class Minimal(CheckTypeBase)" in block]  # fmt: skip
    (plugin / "minimal.py").write_text(minimal, encoding="utf-8")
    done = subprocess.run(
        [str(BIN / "mypy"), "--strict", "--no-incremental", "--cache-dir", os.devnull, "src/cgx_grim", "minimal.py"],
        cwd=plugin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def install(plugin: Path, site: Path) -> None:
    """Install the plugin as an installer would, for the processes given `site` on PYTHONPATH: its package and
    a dist-info with the name, version and entry points of its pyproject.toml."""
    project = tomllib.loads((plugin / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [package] = (plugin / "src").iterdir()
    (site / package.name).mkdir(parents=True)
    for source in package.iterdir():
        (site / package.name / source.name).write_bytes(source.read_bytes())
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    points = [f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
              for group, entries in project["entry-points"].items()]  # fmt: skip
    (info / "entry_points.txt").write_text("".join(points))


@pytest.mark.slow
def test_the_tutorials_plugin_written_from_the_page_is_listed_and_passes_its_own_tests(tmp_path: Path) -> None:
    plugin = write_tutorial_plugin(tmp_path / "cgx-grim")
    install(plugin, tmp_path / "site")
    environment = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    listed = subprocess.run(
        [str(BIN / "credencegraph-extract"), "plugins"], capture_output=True, text=True, check=True, env=environment
    )
    [shown] = [body for title, body in TITLED_BLOCK.findall(DOC) if title == "listed"]
    grim = [item for item in json.loads(listed.stdout)["check_types"] if item["name"] == "grim"]
    assert grim == [json.loads(shown)]
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=plugin,
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-3000:]
    assert "2 passed" in tests.stdout


def test_every_example_plugins_tests_run_in_our_suite() -> None:
    testpaths = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["testpaths"]
    examples = sorted(path.relative_to(ROOT).as_posix() for path in ROOT.glob("examples/plugins/*/tests/"))
    assert examples
    assert set(examples) <= set(testpaths)
