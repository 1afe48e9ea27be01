"""The plugin manager and the registry: how installed plugins are found, and how a broken or clashing
plugin is refused with our `plugin-invalid` error naming its distribution, never pluggy's exception.

The clashes are real: a throwaway distribution is put on sys.path (see conftest.py), so the manager
finds it through importlib.metadata exactly as it finds a pip-installed plugin.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pluggy
import pytest
from cgx_percent_of import PercentOf

from cgx_core import hookspecs
from cgx_core.checks.installed import CheckTypeRegistry, build_plugin_manager, build_registry

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))

# A plugin module registering a check type named NAME: the built-in check type's class under another name.
RENAMED = """
from cgx_checks.recompute_numbers import RecomputeNumbers
from cgx_core.hookspecs import hookimpl

class Renamed(RecomputeNumbers):
    name = "{name}"

@hookimpl
def cgx_register_check_types(register):
    register(Renamed())
"""


def refused(**kind: Any) -> str:
    """The messages of the plugins left out (each a `plugin-invalid` naming it); the others are registered."""
    registry = build_registry(build_plugin_manager(**kind))
    assert registry.invalid, "the plugin was registered"
    assert {"recompute-numbers", "percent-of"} <= set(registry.names())  # the good plugins still work
    return " | ".join(item.message for item in registry.invalid)


def test_hook_cgx_register_check_types(cgx_plugin_manager: pluggy.PluginManager) -> None:
    """The hook, called as the tools call it (by keyword), asks every installed plugin for its types."""
    registry = CheckTypeRegistry()
    cgx_plugin_manager.hook.cgx_register_check_types(register=registry)
    assert {"citation-support", "percent-of", "recompute-numbers"} <= set(registry.names())
    built = {item.check_type.name: item for item in build_registry(cgx_plugin_manager)}
    assert (built["percent-of"].distribution, built["percent-of"].version) == (
        "cgx-percent-of",
        metadata.version("cgx-percent-of"),
    )
    for name in ("recompute-numbers", "citation-support"):  # built-ins are plugins like any other
        assert built[name].distribution == "credencegraph-extract"


def test_a_check_type_name_two_distributions_register_is_refused_naming_both(fake_distribution: Any) -> None:
    fake_distribution("cgx-rival", RENAMED.format(name="percent-of"), entry_point="rival-percent-of")
    message = refused()
    assert "'percent-of'" in message
    assert "cgx-rival" in message
    assert "cgx-percent-of" in message


def test_a_third_party_cannot_take_a_built_in_name(fake_distribution: Any) -> None:
    fake_distribution("cgx-impostor", RENAMED.format(name="recompute-numbers"))
    message = refused()
    assert "cgx-impostor" in message
    assert "credencegraph-extract" in message


def test_an_entry_point_name_two_distributions_declare_is_refused_naming_both(fake_distribution: Any) -> None:
    """pluggy would load the first and skip the second in silence; we refuse, naming both."""
    fake_distribution("cgx-twin", RENAMED.format(name="percent-of-twin"), entry_point="percent-of")
    message = refused()
    assert "'percent-of'" in message
    assert "cgx-twin" in message
    assert "cgx-percent-of" in message


def test_a_misspelt_hook_fails_at_check_pending_naming_the_distribution(fake_distribution: Any) -> None:
    fake_distribution(
        "cgx-misspelt",
        """
        from cgx_core.hookspecs import hookimpl

        @hookimpl
        def cgx_register_check_type(register):
            pass
        """,
    )
    message = refused()
    assert "cgx_register_check_type" in message
    assert "cgx-misspelt" in message
    assert "<module" not in message  # named by distribution, not by a repr with a local path


def test_a_misspelt_hook_of_a_plugin_registered_in_process_fails_too() -> None:
    class Misspelt:
        @hookspecs.hookimpl
        def cgx_register_checktypes(self, register: CheckTypeRegistry) -> None:
            raise AssertionError("never called")

    assert "cgx_register_checktypes" in refused(extra_plugins=(Misspelt(),))


def test_a_hook_asking_for_an_argument_the_hook_does_not_give_is_refused(fake_distribution: Any) -> None:
    fake_distribution(
        "cgx-greedy",
        """
        from cgx_core.hookspecs import hookimpl

        @hookimpl
        def cgx_register_check_types(register, colour):
            pass
        """,
    )
    message = refused()
    assert "colour" in message
    assert "cgx-greedy" in message


def test_a_plugin_that_does_not_import_is_refused_naming_it(fake_distribution: Any) -> None:
    fake_distribution("cgx-broken", "import a_module_that_is_not_installed_anywhere\n")
    message = refused()
    assert "cgx-broken" in message
    assert "a_module_that_is_not_installed_anywhere" in message


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("register(object())", "it has no 'name'"),
        ("raise RuntimeError('no luck')", "RuntimeError: no luck"),
    ],
)
def test_a_hook_that_registers_junk_or_raises_is_refused(fake_distribution: Any, body: str, words: str) -> None:
    fake_distribution(
        "cgx-junk",
        f"""
        from cgx_core.hookspecs import hookimpl

        @hookimpl
        def cgx_register_check_types(register):
            {body}
        """,
    )
    message = refused()
    assert words in message
    assert "cgx-junk" in message


def test_a_broken_plugin_is_listed_as_invalid_and_one_error_line_from_the_command_line(fake_distribution: Any) -> None:
    site = fake_distribution("cgx-impostor", RENAMED.format(name="recompute-numbers"))
    environment = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([CLI, "plugins"], capture_output=True, text=True, check=False, env=environment)
    assert done.returncode == 2
    listing = json.loads(done.stdout)  # the good plugins are still listed, the bad one under `invalid`
    assert "recompute-numbers" in [item["name"] for item in listing["check_types"]]
    [invalid] = listing["invalid"]
    assert invalid["distribution"] == "cgx-impostor"
    [line] = done.stderr.splitlines()
    assert line.startswith("error [plugin-invalid]: ")
    assert "cgx-impostor" in line


def test_the_console_script_lists_the_example_plugin_in_a_fresh_process() -> None:
    done = subprocess.run([CLI, "plugins"], capture_output=True, text=True, check=True)
    names = [item["name"] for item in json.loads(done.stdout)["check_types"]]
    assert "percent-of" in names


def test_adding_an_argument_to_a_hook_breaks_no_plugin() -> None:
    """The growth rule: hooks are called by keyword and an implementation takes only what it names, so a
    hook that grows an argument still calls today's plugins."""
    import cgx_percent_of

    project = pluggy.HookspecMarker(hookspecs.PROJECT)

    class GrownSpecs:
        @project
        def cgx_register_check_types(self, register: CheckTypeRegistry, options: dict[str, Any]) -> None:
            """The hook, with an argument added later."""

    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(GrownSpecs)
    manager.register(cgx_percent_of)
    manager.check_pending()
    registry = CheckTypeRegistry()
    manager.hook.cgx_register_check_types(register=registry, options={"strict": True})
    [installed] = list(registry)
    assert isinstance(installed.check_type.plugin, PercentOf)
