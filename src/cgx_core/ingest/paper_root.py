r"""The paper's boundary: the one place that decides whether a file may enter a run, and under what name.

Every file a run takes from the paper (the main file, each \input, the `.bbl`, each `.bib`, each cited copy)
goes through `PaperRoot.name_of`. A file is admitted when both its path as written (made absolute, `..`
folded) and its real path (every symbolic link followed) lie under the paper's root: the folder of the main
file unless start_run was given `root`, which may name that folder or any folder above it (a repository whose
paper reads `\input{../outputs/table.tex}`). An admitted file is named by its written path relative to the
root, so a stored copy of the paper (`source/`) has the layout the paper's `\input`s expect, and no local path
is ever recorded. Anything else is refused with `outside-root`, naming the file, who named it, where it lies
relative to the root, and that `root` widens the boundary.

This module only decides; `documents` reads through it, and `read_watch` makes sure credencegraph's own
reader opens nothing it has not admitted. Code that needs more of the paper's files goes through it too: the
bytes already admitted are `Document.files` (each `DocumentFile` by name and data: read tables from these,
never from disk again), and a file not read yet is first named by `Document.root.name_of(path)`, which
refuses it when it lies outside (start_run's `.bib` hint passes over such a file rather than read it).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError


@attrs.frozen
class PaperRoot:
    """The folder every file of a run's paper must lie under."""

    written: Path
    """The root as given, made absolute (symbolic links kept)."""
    real: Path
    """The root with every symbolic link followed."""

    @classmethod
    def for_paper(cls, paper: Path, root: Path | None = None) -> PaperRoot:
        """The root of `paper`: `root` when given (which must hold the paper), else the paper's folder."""
        folder = Path(os.path.abspath(paper)).parent if root is None else Path(os.path.abspath(root))
        if root is not None and not folder.is_dir():
            raise CgxError(
                Code.INVALID_ARGUMENTS,
                f"start_run: root '{folder.name}' is not a folder; give the paper's folder or a folder above it",
            )
        boundary = cls(folder, Path(os.path.realpath(folder)))
        if root is not None:
            boundary.name_of(paper, what="the paper", named_by=None)
        return boundary

    @property
    def label(self) -> str:
        """How messages name the root: its folder name, never its path."""
        return self.written.name or "/"

    def name_of(self, path: Path, *, what: str = "the file", named_by: str | None = None) -> str:
        """The name `path` is recorded under (relative to the root), or `outside-root`.

        `what` says what the file is ("\\input{../x}", "the bibliography 'refs.bib'") and `named_by` which
        file of the paper named it, so the refusal says which file, where, and what to do.
        """
        written = Path(os.path.abspath(path))
        real = Path(os.path.realpath(path))
        if written.is_relative_to(self.written) and real.is_relative_to(self.real):
            relative = written.relative_to(self.written).as_posix()
            return PurePosixPath(relative).as_posix() if relative != "." else "."
        raise CgxError(Code.OUTSIDE_ROOT, self._refusal(written, real, what, named_by))

    def _refusal(self, written: Path, real: Path, what: str, named_by: str | None) -> str:
        inside_by_name = written.is_relative_to(self.written)
        where = _relative(real, self.real)
        if inside_by_name:
            how = f"is a symbolic link (or lies in a linked folder) that leads to '{where}' from the root"
        else:
            how = f"is at '{where}' from the root"
        by = f" (named in {named_by})" if named_by else ""
        common = Path(os.path.commonpath([self.real, real]))
        if common == Path(common.anchor):
            fix = (
                "a file outside every folder that holds the paper is never read: remove the reference to it, "
                "or copy the file into the paper's folder"
            )
        else:
            levels = len(self.real.relative_to(common).parts)
            fix = (
                f"if the file belongs to the paper, pass start_run `root`: a folder that holds both the paper and "
                f"the file (here the folder {levels} level{'s' if levels != 1 else ''} above the root, "
                f"'{common.name}')"
            )
        return f"{what}{by} is outside the paper's root '{self.label}': it {how}; {fix}"


def _relative(path: Path, start: Path) -> str:
    """`path` relative to `start`, with `..` as needed: where a refused file lies, without a local path."""
    return Path(os.path.relpath(path, start)).as_posix()
