"""cgx-percent-of: an example check-type plugin for credencegraph-extract.

This module is the plugin: the entry point `percent-of = "cgx_percent_of"` of the group
`credencegraph_extract.checks` names it, and credencegraph-extract registers it with its plugin manager,
which finds the hook implementation below by its name. Nothing in credencegraph-extract names this
package; installing it is all it takes (see docs/plugins.md of credencegraph-extract).
"""

from __future__ import annotations

from cgx_core.plugin_api import CheckTypeRegistry, hookimpl

from cgx_percent_of.check import PercentOf

__all__ = ["PercentOf", "cgx_register_check_types"]


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    """Give credencegraph-extract the percent-of check type."""
    register(PercentOf())
