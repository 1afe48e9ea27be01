"""The hooks a plugin implements. Markers are named after this project: `cgx`.

Hooks are called with keyword arguments, so adding an argument to a hook breaks no plugin (an
implementation takes only the arguments it names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from cgx_core.checks.installed import CheckTypeRegistry

PROJECT = "cgx"
ENTRY_POINT_GROUP = "credencegraph_extract.checks"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    """Register the check types this plugin provides: call `register(check_type)` once for each.

    A check type is an object implementing `cgx_core.checks.api.CheckType`. A name another installed
    plugin already registered is refused, naming both distributions.
    """
