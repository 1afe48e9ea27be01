"""Building the plugin manager and the registry of installed check types.

One function builds the manager, in pluggy's order: the hook specifications, then every plugin of the
entry-point group, then `check_pending()`, so a misspelt hook is an error rather than a hook that never
runs. Plugins are loaded when a check type is needed, never at import time. Anything wrong with an
installed plugin (it does not import, it misspells a hook, two distributions provide one name) is our
`plugin-invalid` error naming the distribution, never pluggy's exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import metadata
from typing import Any

import attrs
import pluggy

from cgx_core import hookspecs
from cgx_core.checks.api import CheckType
from cgx_core.codes import Code
from cgx_core.errors import CgxError


@attrs.frozen
class Installed:
    """A registered check type, and the distribution that provides it."""

    check_type: CheckType
    distribution: str
    version: str

    def to_json(self) -> dict[str, object]:
        kind = self.check_type
        return {
            "name": kind.name,
            "distribution": self.distribution,
            "version": self.version,
            "tool": kind.tool,
            "fallback_for": kind.fallback_for,
        }


class CheckTypeRegistry:
    """The installed check types by name; a duplicate name is refused, naming both distributions."""

    def __init__(self) -> None:
        self._types: dict[str, Installed] = {}
        self._current: tuple[str, str] = ("unknown", "0")

    def providing(self, distribution: str, version: str) -> None:
        """Say which distribution the registrations that follow come from."""
        self._current = (distribution, version)

    def __call__(self, check_type: CheckType) -> None:
        if not isinstance(check_type, CheckType):
            raise CgxError(
                Code.PLUGIN_INVALID,
                f"{self._current[0]} registered {type(check_type).__name__}, which does not implement CheckType "
                "(see cgx_core.checks.api)",
            )
        earlier = self._types.get(check_type.name)
        if earlier is not None:
            raise CgxError(
                Code.PLUGIN_INVALID,
                f"check type '{check_type.name}' is registered by both {earlier.distribution} and {self._current[0]}; "
                "uninstall one of them",
            )
        self._types[check_type.name] = Installed(check_type, *self._current)

    def get(self, name: str) -> Installed | None:
        return self._types.get(name)

    def __iter__(self) -> Iterator[Installed]:
        return iter(sorted(self._types.values(), key=lambda item: item.check_type.name))

    def names(self) -> list[str]:
        return sorted(self._types)


@attrs.frozen
class EntryPoint:
    """One entry point of our group, and the distribution that declares it."""

    name: str
    module: str
    distribution: str


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_entry_points(group: str = hookspecs.ENTRY_POINT_GROUP) -> list[EntryPoint]:
    """The group's entry points, in the order pluggy loads them; two distributions declaring one name are
    refused here, naming both: pluggy would load the first and silently skip the other, so the registry's
    duplicate check would never see it. (One distribution found twice on the path is one, as for import.)"""
    found: list[EntryPoint] = []
    first: dict[str, str] = {}
    for dist in metadata.distributions():
        distribution = dist.metadata["name"]
        for point in dist.entry_points.select(group=group):
            earlier = first.get(point.name)
            if earlier is None:
                first[point.name] = distribution
                found.append(EntryPoint(point.name, point.module, distribution))
            elif _normalized(earlier) != _normalized(distribution):
                raise CgxError(
                    Code.PLUGIN_INVALID,
                    f"the entry point '{point.name}' of {group} is declared by both {earlier} and {distribution}; "
                    "uninstall one of them",
                )
    return found


def _label(manager: pluggy.PluginManager, plugin: object, points: list[EntryPoint]) -> str:
    module = getattr(plugin, "__name__", None)
    for point in points:
        if module is not None and point.module == module:
            return f"the plugin '{point.name}' of {point.distribution}"
    return f"the plugin '{manager.get_name(plugin) or module or type(plugin).__name__}'"


def hook_names() -> list[str]:
    """The hooks a plugin may implement: the specifications in `cgx_core.hookspecs`."""
    return sorted(name for name, value in vars(hookspecs).items() if hasattr(value, f"{hookspecs.PROJECT}_spec"))


def _reason(manager: pluggy.PluginManager, error: pluggy.PluginValidationError) -> str:
    """What is wrong with the plugin, on one line and without the repr (and local path) of its module."""
    unknown = [caller.name for caller in manager.get_hookcallers(error.plugin) or [] if not caller.has_spec()]
    if unknown:
        return f"it implements {unknown}, which is not a hook (the hooks are {hook_names()}); check the spelling"
    return " ".join(str(error).replace(repr(error.plugin), "").split())


def build_plugin_manager(extra_plugins: tuple[object, ...] = ()) -> pluggy.PluginManager:
    """The plugin manager: hookspecs, the entry-point group, any extra plugins, then check_pending().

    Raises `plugin-invalid` naming the plugin and its distribution when a plugin does not import, declares
    a hook implementation no specification has (a misspelt name, caught by check_pending) or takes an
    argument its hook does not give."""
    group = hookspecs.ENTRY_POINT_GROUP
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    points = declared_entry_points(group)
    try:
        manager.load_setuptools_entrypoints(group)
        for plugin in extra_plugins:
            manager.register(plugin)
        manager.check_pending()
    except pluggy.PluginValidationError as error:
        raise CgxError(
            Code.PLUGIN_INVALID, f"{_label(manager, error.plugin, points)} is invalid: {_reason(manager, error)}"
        ) from None
    except Exception as error:  # the plugin's own import failed: say which one, never a traceback
        failed = next((point for point in points if not manager.has_plugin(point.name)), None)
        where = f"the plugin '{failed.name}' of {failed.distribution}" if failed else f"a plugin of {group}"
        raise CgxError(Code.PLUGIN_INVALID, f"{where} cannot be loaded: {type(error).__name__}: {error}") from None
    return manager


def build_registry(manager: pluggy.PluginManager) -> CheckTypeRegistry:
    """Ask every plugin for its check types, remembering which distribution gave each."""
    registry = CheckTypeRegistry()
    distributions = {id(plugin): dist for plugin, dist in manager.list_plugin_distinfo()}
    for name, plugin in manager.list_name_plugin():
        dist = distributions.get(id(plugin))
        provider = dist.metadata["name"] if dist is not None else name or "unknown"
        registry.providing(provider, dist.version if dist is not None else "0")
        caller = manager.subset_hook_caller(
            "cgx_register_check_types",
            remove_plugins=[other for _, other in manager.list_name_plugin() if other is not plugin],
        )
        try:
            caller(register=registry)
        except CgxError:
            raise
        except Exception as error:  # a bug in the plugin's hook: name it rather than show its traceback
            raise CgxError(
                Code.PLUGIN_INVALID, f"{provider} failed in cgx_register_check_types: {type(error).__name__}: {error}"
            ) from None
    return registry


@cache
def _installed() -> CheckTypeRegistry:
    return build_registry(build_plugin_manager())


_scoped: ContextVar[CheckTypeRegistry | None] = ContextVar("cgx_check_types", default=None)


def installed_check_types() -> CheckTypeRegistry:
    """The check types the tools use: the installed ones (loaded once per process), or the registry a
    `check_types_scope` put in place."""
    return _scoped.get() or _installed()


def declared_type_for(tool: str, rubric_checks: Mapping[str, Any], default: str) -> str:
    """The check type a tool that proposes one type (judge_citation, review) proposes: the first the rubric
    declares whose installed plugin is proposed through `tool`, else `default` (the engine then says why it
    cannot run)."""
    registry = installed_check_types()
    for name in rubric_checks:
        installed = registry.get(name)
        if installed is not None and installed.check_type.tool == tool:
            return name
    return default


@contextmanager
def check_types_scope(registry: CheckTypeRegistry) -> Iterator[CheckTypeRegistry]:
    """Run the tools with these check types instead of the installed ones.

    For embedding the tools with configured check types, and the explicit opening through which tests
    give citation-support a fetch policy that admits their loopback server (the installed default is
    never weakened)."""
    token = _scoped.set(registry)
    try:
        yield registry
    finally:
        _scoped.reset(token)


def distribution_version(name: str) -> str:
    """The installed version of a distribution, or 'unknown'."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"
