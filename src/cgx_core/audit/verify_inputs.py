"""Which runs verify reads: the paths given, the directory trees among them searched for runs, and the paths
listed in a `--from` file, one per line. Every source is read lazily, so a million runs are never a list.

A directory given that is not a run (it has no manifest.json) is searched for runs: every directory below it
with a manifest.json, in sorted order (the same order on every machine), not descending into a run and not
following symbolic links. A tree with no run in it is passed on as it is, so it is reported (`not-a-run`)
instead of silently verifying nothing. Lines of a `--from` file are taken as they are, without looking at
the disk here: on a cluster, the workers read the runs, not this process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from cgx_core.codes import Code
from cgx_core.errors import CgxError

MANIFEST = "manifest.json"


class RunSource:
    """The runs to verify, and how many there are when that is known without searching a tree."""

    def __init__(self, arguments: Sequence[str], listing: str | None) -> None:
        self.arguments = list(arguments)
        self.listing = Path(listing) if listing is not None else None
        self.trees = [argument for argument in self.arguments if _is_tree(argument)]
        self.listed = _count_lines(self.listing) if self.listing is not None else 0

    @property
    def total(self) -> int | None:
        """The number of runs, unless a tree has to be searched to know it."""
        return None if self.trees else len(self.arguments) + self.listed

    def __iter__(self) -> Iterator[str]:
        for argument in self.arguments:
            if argument in self.trees:
                yield from _search(argument)
            else:
                yield argument
        if self.listing is not None:
            yield from _listed(self.listing)


def _is_tree(argument: str) -> bool:
    return os.path.isdir(argument) and not os.path.lexists(os.path.join(argument, MANIFEST))


def _search(tree: str) -> Iterator[str]:
    """The runs below `tree`, depth first in sorted order (an unreadable folder holds no run this process can
    name, and a link is not followed)."""
    found = False
    for folder, directories, _ in os.walk(tree):
        directories[:] = sorted(name for name in directories if not os.path.islink(os.path.join(folder, name)))
        if folder != tree and os.path.lexists(os.path.join(folder, MANIFEST)):
            found = True
            directories.clear()
            yield folder
    if not found:
        yield tree


def _count_lines(listing: Path) -> int:
    """Check the whole list before any run is verified (a bad line found halfway would waste the work), and
    count its runs."""
    return sum(1 for _ in _listed(listing))


def _listed(listing: Path) -> Iterator[str]:
    try:
        with listing.open("rb") as lines:
            for number, raw in enumerate(lines, start=1):
                try:
                    line = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError:
                    raise CgxError(
                        Code.RUN_LIST_INVALID, f"'{listing}' line {number} is not UTF-8: write one run path a line"
                    ) from None
                if "\0" in line:
                    raise CgxError(
                        Code.RUN_LIST_INVALID, f"'{listing}' line {number} holds a NUL byte: it is not a path"
                    )
                if line.strip():
                    yield line
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot read the run list '{listing}': {error.strerror or error}") from None
