"""`credencegraph-extract plugins [--rubric R]`: the installed check types, as JSON.

A person who installed a plugin wants to see it listed, with the distribution and version a run will
record for it; a person about to start a run wants to know which of the rubric's `[checks]` can run.
So the listing gives, for each installed check type, its name, distribution, version, proposing tool and
the type it stands in for, and with `--rubric` whether the rubric declares it, plus the check types the
rubric declares that no installed plugin provides (a proposal of one would be refused). A plugin that
cannot be registered is listed under `invalid` with why (and said on stderr, exit status 2); it never
stops the listing of the others.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.base.limits import MAX_RUBRIC_BYTES
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.tooling.output import result_text

if TYPE_CHECKING:
    from credencegraph.rubric import Rubric

    from cgx_core.checks.installed import CheckTypeRegistry


def read_rubric(path: Path) -> Rubric:
    """The rubric at `path`, checked as start_run checks it; our error when it cannot be read or used."""
    from cgx_core.graph.rubric import load_rubric_bytes

    if not path.is_file():
        raise CgxError(Code.RUBRIC_NOT_FOUND, f"the rubric '{path.name}' does not exist or is not a file")
    try:
        if path.stat().st_size > MAX_RUBRIC_BYTES:
            raise CgxError(Code.RUBRIC_INVALID, f"the rubric '{path.name}' is larger than {MAX_RUBRIC_BYTES} bytes")
        data = path.read_bytes()
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot read the rubric '{path.name}': {error.strerror}") from None
    return load_rubric_bytes(data, path.name)


def plugin_listing(registry: CheckTypeRegistry, rubric: Rubric | None) -> dict[str, Any]:
    """The listing: every installed check type by name; `declared` is null without a rubric."""
    declared = None if rubric is None else set(rubric.checks)
    listing: dict[str, Any] = {
        "check_types": [
            {**installed.to_json(), "declared": None if declared is None else installed.check_type.name in declared}
            for installed in registry
        ]
    }
    if rubric is not None:
        listing["not_installed"] = sorted(name for name in rubric.checks if registry.get(name) is None)
    if registry.invalid:
        listing["invalid"] = [plugin.to_json() for plugin in registry.invalid]
    return listing


def list_plugins(rubric: str | None) -> int:
    """Print the listing; on an error, one `error [<code>]: <message>` line on stderr and exit 2."""
    from cgx_core.checks.installed import installed_check_types

    loaded = None if rubric is None else read_rubric(Path(rubric))
    listing = plugin_listing(installed_check_types(), loaded)
    results().write(result_text(listing) + "\n")
    for plugin in listing.get("invalid", ()):  # listed, and said on stderr: the exit status says it too
        sys.stderr.write(f"error [plugin-invalid]: {plugin['message']}\n")
    return ExitCode.ERROR if listing.get("invalid") else ExitCode.OK
