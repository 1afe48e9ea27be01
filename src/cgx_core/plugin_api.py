"""The public API for check-type plugins: the one module a plugin imports.

Everything a plugin needs is here, and nothing else of this package is promised to a plugin: every other
module is private and may move or change between releases. What is here follows the deprecation policy
of docs/plugins.md: a member is never removed or changed in meaning without a release that deprecates it
first (and keeps it working), and `API_VERSION` says which version of this surface a plugin is built on.

- `hookimpl`: the marker of a hook implementation (`@hookimpl def cgx_register_check_types(register)`);
- `CheckType`: the protocol a check type implements: exactly the members registration requires (`name`,
  `tool`, `description`, `proposal_schema`, `prepare`, `run`); every other member is optional and defaulted,
  so a member added later never rejects an existing plugin; `CheckTypeBase`: a base class with every
  optional member written out at its default (since 1.1);
  `CheckTypeRegistry`: the `register` a hook is given;
- the records: `Prepared`, `Refusal`, `Outcome` (what a check type returns), `RunView` and `NodeView` (what
  it may read of the run), `OfflineSource`, and the literal types `Result`, `ProposingTool`, `Mode`;
- the numeral reader, the same one every built-in check uses: `read_numeral`, `read_quantity`,
  `find_numerals`, `read_text`, `Numeral`, `fraction_text`, and `NumeralError` (what the reader raises: a
  `CgxError` of its own class since 1.1, so catching it catches nothing else); `counting` (since 1.2): read
  within `with counting(run.count_units()):` so the counting units the rubric declares ("120 C") are read;
- codes: a plugin owns its codes (`codes = define_codes({...})` on its check type, each code with its
  meaning); `define_codes` checks them (kebab-case, one line each) when the plugin is imported;
- call control for long work: `checkpoint`, `progress`, `stopping`, `Cancelled`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from cgx_core.checks.api import (
    CheckType,
    CheckTypeBase,
    Mode,
    NodeView,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    Result,
    RunView,
)
from cgx_core.checks.installed import CheckTypeRegistry
from cgx_core.checks.plugin_values import codes_problems
from cgx_core.hookspecs import hookimpl
from cgx_core.ingest.offline_sources import OfflineSource
from cgx_core.numbers import (
    Numeral,
    NumeralError,
    find_numerals,
    fraction_text,
    read_numeral,
    read_quantity,
    read_text,
)
from cgx_core.numbers.counts import counting
from cgx_core.run.call_control import Cancelled, checkpoint, progress, stopping

API_VERSION: Final = (1, 3)
"""The version of this surface: the major number changes only when a deprecated member is removed."""

__all__ = [
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


def define_codes(codes: Mapping[str, str]) -> Mapping[str, str]:
    """A check type's own codes, each with its meaning (one line a person reads), checked now.

    Give the result to the check type as `codes`: a refusal or an error outcome may then use them, and
    `credencegraph-extract plugins` and docs list them with their meanings. Raises ValueError naming every
    code that is not kebab-case or has no meaning."""
    found = codes_problems(codes)
    if found:
        raise ValueError("; ".join(found))
    return dict(codes)
