"""docs/plugins.md's listing of `credencegraph-extract plugins`, generated so that it is never stale:
`uv run python -m cgx_cli.plugins_reference docs/plugins.md` rewrites the block between its two markers
with what the command prints in this environment (the development one, where the example plugin
percent-of is installed), and tests/plugins/test_docs.py keeps the page equal to what the command prints.

The command prints one line; the page shows one check type a line, and nothing else changed, so joining the
block's lines gives back the command's own line.
"""

from __future__ import annotations

import sys
from pathlib import Path

BEGIN = "<!-- the listing below is generated: uv run python -m cgx_cli.plugins_reference docs/plugins.md -->"
END = "<!-- end of the generated listing -->"
_ITEM = '},{"name":'
_INDENT = " " * len('{"check_types":[')


def listing_block(printed: str) -> str:
    """The page's block for the line `credencegraph-extract plugins` printed: the command and its output,
    wrapped before each check type."""
    wrapped = printed.strip().replace(_ITEM, "},\n" + _INDENT + '{"name":')
    return f"{BEGIN}\n```console\n$ credencegraph-extract plugins\n{wrapped}\n```\n{END}"


def printed_listing() -> str:
    """What `credencegraph-extract plugins` prints in this process's environment."""
    from cgx_cli.plugins_command import plugin_listing
    from cgx_core.checks.installed import installed_check_types
    from cgx_core.tooling.output import result_text

    return result_text(plugin_listing(installed_check_types(), None))


def with_listing(page: str, printed: str) -> str:
    """`page` with the block between the markers replaced by the listing of `printed`."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ValueError("the page has no listing block: put the two markers where the listing goes")
    return page[:start] + listing_block(printed) + page[end + len(END) :]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python -m cgx_cli.plugins_reference docs/plugins.md\n")
        return 2
    path = Path(argv[0])
    path.write_text(with_listing(path.read_text(encoding="utf-8"), printed_listing()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
