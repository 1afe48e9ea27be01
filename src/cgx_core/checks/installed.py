"""Building the plugin manager and the registry of installed check types.

One function builds the manager, in pluggy's order: the hook specifications, then every plugin of the
entry-point group, then `check_pending()`, so a misspelt hook is an error rather than a hook that never
runs. Plugins are loaded when a check type is needed, never at import time. Anything wrong with an
installed plugin (it does not import, it misspells a hook, two distributions provide one name) is our
`plugin-invalid` error naming the distribution, never pluggy's exception.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import metadata
from typing import Any, Final

import attrs
import pluggy

from cgx_core import hookspecs
from cgx_core.checks.guard import OWN_DISTRIBUTION, GuardedCheckType, PluginWorker, Provider
from cgx_core.codes import Code
from cgx_core.errors import CgxError


@attrs.frozen
class Installed:
    """A registered check type (guarded: see `cgx_core.checks.guard`), and the distribution that provides it."""

    check_type: GuardedCheckType
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


@attrs.frozen
class InvalidPlugin:
    """An installed plugin that was not registered, and every reason why: it is left out, the others work."""

    plugin: str
    distribution: str
    message: str

    @classmethod
    def of(cls, provider: Provider, problem: str) -> InvalidPlugin:
        return cls(provider.label, provider.distribution, f"{provider.label} is invalid: {problem}")

    def to_json(self) -> dict[str, str]:
        return {"plugin": self.plugin, "distribution": self.distribution, "message": self.message}

    def error_line(self) -> str:
        return f"error [{Code.PLUGIN_INVALID}]: {self.message}"


class CheckTypeRegistry:
    """The installed check types by name, guarded, and the plugins that could not be registered.

    While `build_registry` asks one plugin for its check types (between `begin` and `end`), what it
    registers is checked and kept aside: a plugin with any problem (a bad attribute, a name another plugin
    has, a hook that raises or registers nothing) is left out whole, with every problem named; the other
    plugins are registered. Called outside `begin`/`end` (embedding, tests), a bad check type raises
    `plugin-invalid` at once."""

    def __init__(self) -> None:
        self._types: dict[str, Installed] = {}
        self._current = Provider("unknown", None, "unknown", "0")
        self._open = False
        self._staged: list[Installed] = []
        self._problems: list[str] = []
        self.invalid: list[InvalidPlugin] = []
        self.worker = PluginWorker()

    def providing(
        self, distribution: str, version: str, *, entry: str | None = None, module: str | None = None
    ) -> None:
        """Say which distribution the registrations that follow come from."""
        self._current = Provider(entry or distribution, module, distribution, version)

    def begin(self, provider: Provider) -> None:
        """Registrations until `end` come from one plugin, and are kept only if all of them are valid."""
        self._current, self._open, self._staged, self._problems = provider, True, [], []

    def fail(self, problem: str) -> None:
        """Something is wrong with the open plugin beyond what it registered (its hook raised)."""
        self._problems.append(problem)

    def end(self) -> None:
        self._open = False
        if not self._staged and not self._problems:
            self._problems.append(
                "it registers no check type: its cgx_register_check_types must call register(...) for each type"
            )
        if self._problems:
            self.invalid.append(InvalidPlugin.of(self._current, "; ".join(self._problems)))
        else:
            for installed in self._staged:
                self._types[installed.check_type.name] = installed

    def __call__(self, check_type: object) -> None:
        from cgx_core.checks.guard import OWN_DISTRIBUTION, GuardedCheckType, guarded

        provider = self._current
        plugin = check_type
        if isinstance(check_type, GuardedCheckType):  # an installed type registered again (embedding, tests)
            plugin = check_type.plugin
            provider = attrs.evolve(provider, entry=check_type.provider.entry, module=check_type.provider.module)
        isolated = provider.distribution != OWN_DISTRIBUTION and provider.module is not None
        made = guarded(plugin, provider, self.worker if isolated else None)
        problems = made if isinstance(made, list) else self._clash(made)
        if not problems:
            assert isinstance(made, GuardedCheckType)
            installed = Installed(made, provider.distribution, provider.version)
            (self._staged if self._open else []).append(installed)
            if not self._open:
                self._types[made.name] = installed
            return
        named = f"{type(plugin).__name__} ({getattr(made, 'name', None) or 'unnamed'})"
        if self._open:
            self._problems.extend(f"{named}: {problem}" for problem in problems)
            return
        raise CgxError(
            Code.PLUGIN_INVALID, f"{provider.label} registered {named}, which is invalid: {'; '.join(problems)}"
        )

    def _clash(self, made: GuardedCheckType) -> list[str]:
        earlier = self._types.get(made.name) or next(
            (item for item in self._staged if item.check_type.name == made.name), None
        )
        if earlier is None:
            return []
        return [
            f"check type '{made.name}' is registered by both {earlier.distribution} and "
            f"{self._current.distribution}; uninstall one of them"
        ]

    def check_fallbacks(self) -> None:
        """A fallback stands in for a type of its own distribution only: a plugin claiming to be the fallback
        of another's type would take over what happens when that type errs. Such a plugin is left out."""
        for name, installed in list(self._types.items()):
            target = installed.check_type.fallback_for
            if target is None:
                continue
            other = self._types.get(target)
            if other is None or other.distribution != installed.distribution:
                del self._types[name]
                provider = installed.check_type.provider
                owner = (
                    f"it belongs to {other.distribution}" if other is not None else "no installed plugin provides it"
                )
                self.invalid.append(
                    InvalidPlugin.of(
                        provider,
                        f"'{name}' claims to be the fallback for '{target}', and {owner}; "
                        "a fallback stands in for a type of its own distribution",
                    )
                )

    def get(self, name: str) -> Installed | None:
        return self._types.get(name)

    def __iter__(self) -> Iterator[Installed]:
        return iter(sorted(self._types.values(), key=lambda item: item.check_type.name))

    def names(self) -> list[str]:
        return sorted(self._types)

    def invalid_note(self) -> str:
        """What to add to a refusal of an unknown check type when a plugin could not be registered."""
        if not self.invalid:
            return ""
        return " (" + "; ".join(item.message for item in self.invalid)[:1_500] + ")"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def hook_names() -> list[str]:
    """The hooks a plugin may implement: the specifications in `cgx_core.hookspecs`."""
    return sorted(name for name, value in vars(hookspecs).items() if hasattr(value, f"{hookspecs.PROJECT}_spec"))


def _unknown_hooks(manager: pluggy.PluginManager, plugin: object) -> str | None:
    """The hooks `plugin` implements that no specification has (a misspelt name), or None."""
    unknown = [caller.name for caller in manager.get_hookcallers(plugin) or [] if not caller.has_spec()]
    if unknown:
        return f"it implements {unknown}, which is not a hook (the hooks are {hook_names()}); check the spelling"
    return None


def _reason(manager: pluggy.PluginManager, error: pluggy.PluginValidationError) -> str:
    """What is wrong with the plugin, on one line and without the repr (and local path) of its module."""
    unknown = _unknown_hooks(manager, error.plugin)
    return unknown or " ".join(str(error).replace(repr(error.plugin), "").split())


class CgxPluginManager(pluggy.PluginManager):
    """pluggy's manager, with who provides each plugin and the plugins that could not be loaded."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.providers: dict[int, Provider] = {}
        self.invalid: list[InvalidPlugin] = []


def build_plugin_manager(extra_plugins: tuple[object, ...] = ()) -> CgxPluginManager:
    """The plugin manager: hookspecs, then each plugin of the entry-point group (ours first, then the others
    by distribution), then any extra plugins, each checked as pluggy's `check_pending` would.

    A plugin that does not import (or exits while importing), implements a hook no specification has (a
    misspelt name), takes an argument its hook does not give, or implements no hook at all (a forgotten
    `@hookimpl`) is left out and listed in `manager.invalid` with `plugin-invalid`, naming the plugin and
    its distribution; the other plugins are loaded."""

    group = hookspecs.ENTRY_POINT_GROUP
    manager = CgxPluginManager()
    manager.add_hookspecs(hookspecs)
    found: list[tuple[Provider, metadata.EntryPoint]] = []
    first: dict[str, str] = {}
    # The entry points of the group, then the metadata of only the distributions that declare one (reading
    # every installed distribution's METADATA cost a third of a run_checks call). Ours first, then by name:
    # which of two clashing plugins is left out does not depend on sys.path's order.
    declaring: dict[str, tuple[str, str, list[metadata.EntryPoint]]] = {}
    for point in metadata.entry_points(group=group):
        dist = point.dist
        name = str(dist.metadata["name"] or "unknown") if dist is not None else "unknown"
        key = _normalized(name)
        if key not in declaring:
            declaring[key] = (name, str(dist.version) if dist is not None else "0", [])
        declaring[key][2].append(point)
    ordered = sorted(declaring.values(), key=lambda item: (item[0] != OWN_DISTRIBUTION, _normalized(item[0])))
    for distribution, version, points in ordered:
        for point in points:
            earlier = first.get(point.name)
            if earlier is None:
                first[point.name] = distribution
                found.append((Provider(point.name, point.module, distribution, version), point))
            elif _normalized(earlier) != _normalized(distribution):
                manager.invalid.append(
                    InvalidPlugin.of(
                        Provider(point.name, None, distribution, version),
                        f"the entry point '{point.name}' of {group} is declared by both {earlier} and {distribution}; "
                        "uninstall one of them",
                    )
                )
    found.sort(key=lambda item: (item[0].distribution != OWN_DISTRIBUTION, item[0].distribution, item[0].entry))
    for provider, point in found:
        began = time.perf_counter()
        try:
            plugin = point.load()
        except BaseException as error:  # its import failed, or exited: name it, never a traceback or an exit
            message = f"{provider.label} cannot be loaded: {type(error).__name__}: {error}"
            manager.invalid.append(InvalidPlugin(provider.label, provider.distribution, message[:2_000]))
            continue
        _warn_if_slow(provider, time.perf_counter() - began)
        _add(manager, plugin, provider, provider.entry)
    for plugin in extra_plugins:
        name = getattr(plugin, "__name__", None) or type(plugin).__name__
        _add(manager, plugin, Provider(name, None, name, "0"), None)
    return manager


SLOW_IMPORT_SECONDS: Final = 0.5
"""An import slower than this (wall time) is named on stderr: every command that lists check types waits for it."""


def _warn_if_slow(provider: Provider, seconds: float) -> None:
    """Name a plugin whose import took long, with its time, on stderr (never in a result: it is not
    deterministic), so that a slow start of every command (MCP's included) has a name."""
    # The built-ins' import time is this package's own to keep down (benchmarks/, figure g), not a user's.
    if seconds >= SLOW_IMPORT_SECONDS and provider.distribution != OWN_DISTRIBUTION:
        sys.stderr.write(
            f"warning: {provider.label} took {seconds:.1f} s to import; every command that lists check types "
            "waits for it (import its heavy modules inside its check code instead)\n"
        )


def _add(manager: CgxPluginManager, plugin: object, provider: Provider, name: str | None) -> None:
    """Register one plugin, and keep it only when every hook it implements is one of ours."""
    try:
        manager.register(plugin, name=name)
    except pluggy.PluginValidationError as error:
        manager.invalid.append(InvalidPlugin.of(provider, _reason(manager, error)))
        return
    except ValueError as error:  # one module named by two entry points
        manager.invalid.append(InvalidPlugin(provider.label, provider.distribution, f"{provider.label}: {error}"))
        return
    problem = _unknown_hooks(manager, plugin)
    if problem is None and not manager.get_hookcallers(plugin):
        problem = "it implements no hook: mark its cgx_register_check_types with @hookimpl (from cgx_core.plugin_api)"
    if problem is not None:
        manager.unregister(plugin)
        manager.invalid.append(InvalidPlugin.of(provider, problem))
        return
    manager.providers[id(plugin)] = provider


def build_registry(manager: pluggy.PluginManager) -> CheckTypeRegistry:
    """Ask every plugin for its check types, one plugin at a time, remembering which distribution gave
    each; a plugin whose hook raises (or exits) or registers anything invalid is left out whole and listed
    in `registry.invalid`, with the plugins the manager could not load."""
    registry = CheckTypeRegistry()
    registry.invalid.extend(getattr(manager, "invalid", ()))
    providers: dict[int, Provider] = getattr(manager, "providers", {})
    distributions = {id(plugin): dist for plugin, dist in manager.list_plugin_distinfo()}
    for name, plugin in manager.list_name_plugin():
        provider = providers.get(id(plugin))
        if provider is None:
            dist = distributions.get(id(plugin))
            distribution = dist.metadata["name"] if dist is not None else name or "unknown"
            provider = Provider(name or distribution, None, distribution, dist.version if dist is not None else "0")
        caller = manager.subset_hook_caller(
            "cgx_register_check_types",
            remove_plugins=[other for _, other in manager.list_name_plugin() if other is not plugin],
        )
        registry.begin(provider)
        try:
            caller(register=registry)
        except BaseException as error:  # a bug in the plugin's hook (or an exit): named, never a traceback
            registry.fail(f"its cgx_register_check_types raised {type(error).__name__}: {error}"[:1_000])
        registry.end()
    registry.check_fallbacks()
    return registry


@cache
def _installed() -> CheckTypeRegistry:
    return build_registry(build_plugin_manager())


_scoped: ContextVar[CheckTypeRegistry | None] = ContextVar("cgx_check_types", default=None)


def installed_check_types() -> CheckTypeRegistry:
    """The check types the tools use: the installed ones (loaded once per process), or the registry a
    `check_types_scope` put in place."""
    return _scoped.get() or _installed()


def warm_up_proposed(arguments: Mapping[str, Any]) -> None:
    """Let each installed check type a call's `proposals` name begin its slow set-up (`GuardedCheckType.warm_up`),
    once per type, before the call opens its run."""
    proposals = arguments.get("proposals")
    if not isinstance(proposals, list):
        return
    names = {proposal.get("type") for proposal in proposals if isinstance(proposal, Mapping)}
    registry = installed_check_types()
    for name in sorted(name for name in names if isinstance(name, str)):
        installed = registry.get(name)
        if installed is not None:
            installed.check_type.warm_up()


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
