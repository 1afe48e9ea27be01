"""Building the plugin manager and the registry of installed check types.

One function builds the manager, in pluggy's order: the hook specifications, then every plugin of the
entry-point group, then `check_pending()`, so a misspelt hook is an error rather than a hook that never
runs. Plugins are loaded when a check type is needed, never at import time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import metadata

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
                Code.INTERNAL_ERROR,
                f"{self._current[0]} registered {check_type!r}, which does not implement CheckType",
            )
        earlier = self._types.get(check_type.name)
        if earlier is not None:
            raise CgxError(
                Code.INTERNAL_ERROR,
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


def build_plugin_manager(extra_plugins: tuple[object, ...] = ()) -> pluggy.PluginManager:
    """The plugin manager: hookspecs, the entry-point group, any extra plugins, then check_pending()."""
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    manager.load_setuptools_entrypoints(hookspecs.ENTRY_POINT_GROUP)
    for plugin in extra_plugins:
        manager.register(plugin)
    manager.check_pending()
    return manager


def build_registry(manager: pluggy.PluginManager) -> CheckTypeRegistry:
    """Ask every plugin for its check types, remembering which distribution gave each."""
    registry = CheckTypeRegistry()
    distributions = {id(plugin): dist for plugin, dist in manager.list_plugin_distinfo()}
    for name, plugin in manager.list_name_plugin():
        dist = distributions.get(id(plugin))
        if dist is not None:
            registry.providing(dist.metadata["name"], dist.version)
        else:
            registry.providing(name or "unknown", "0")
        caller = manager.subset_hook_caller(
            "cgx_register_check_types",
            remove_plugins=[other for _, other in manager.list_name_plugin() if other is not plugin],
        )
        caller(register=registry)
    return registry


@cache
def _installed() -> CheckTypeRegistry:
    return build_registry(build_plugin_manager())


_scoped: ContextVar[CheckTypeRegistry | None] = ContextVar("cgx_check_types", default=None)


def installed_check_types() -> CheckTypeRegistry:
    """The check types the tools use: the installed ones (loaded once per process), or the registry a
    `check_types_scope` put in place."""
    return _scoped.get() or _installed()


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
