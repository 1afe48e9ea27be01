r"""The paper's boundary: the one place that decides whether a file may enter a run, and under what name.

Every file a run takes from the paper (the main file, each \input, the `.bbl`, each `.bib`, each cited copy)
goes through `PaperRoot.name_of`. A file is admitted when both its path as written (made absolute, `..`
folded) and its real path (every symbolic link followed) lie under the paper's root: the folder of the main
file unless start_run was given `root`, which may name that folder or any folder above it (a repository whose
paper reads `\input{../outputs/table.tex}`). An admitted file is named by its written path relative to the
root, so a stored copy of the paper (`source/`) has the layout the paper's `\input`s expect, and no local path
is ever recorded. Anything else is refused with `outside-root`, naming the file, who named it, where it lies
relative to the root, and which `root` would hold it, when one may.

A root never reaches private files. It may not be the file system's root, a home folder or a folder above
one, or a folder every user may write to (`root-refused`: `unsuitable_root`). A file reached through a hidden
(dot) file or folder below the root, by its path as written (`.x/../y` goes through `.x`) or by its real
path, is `hidden-file` whatever the root: that is where private files live (`.aws/credentials`, `.ssh/`,
`.git/config`). The outside-root refusal suggests a wider root only when it passes both rules; otherwise it
says the file is never read.

This module only decides; `documents` reads through it, and `read_watch` makes sure credencegraph's own
reader opens nothing it has not admitted. Code that needs more of the paper's files goes through it too: the
bytes already admitted are `Document.files` (each `DocumentFile` by name and data: read tables from these,
never from disk again), and a file not read yet is first named by `Document.root.name_of(path)`, which
refuses it when it lies outside (start_run's `.bib` hint passes over such a file rather than read it).
"""

from __future__ import annotations

import contextlib
import os
import stat
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
        unsuitable = unsuitable_root(boundary.real)
        if unsuitable is not None:
            raise CgxError(Code.ROOT_REFUSED, _root_refusal(boundary.label, unsuitable, given=root is not None))
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
        if not (written.is_relative_to(self.written) and real.is_relative_to(self.real)):
            raise CgxError(Code.OUTSIDE_ROOT, self._refusal(path, written, real, what, named_by))
        hidden = self.hidden_step(path)
        if hidden is not None:
            by = f" (named in {named_by})" if named_by else ""
            raise CgxError(
                Code.HIDDEN_FILE,
                f"{what}{by} is reached through '{hidden}', a hidden file or folder under the paper's root "
                f"'{self.label}': hidden files are where private files live, and none is ever read as part of a "
                "paper; remove the reference, or copy the file the paper needs, under a name without a leading "
                "dot, into the paper's folder",
            )
        relative = written.relative_to(self.written).as_posix()
        return PurePosixPath(relative).as_posix() if relative != "." else "."

    def hidden_step(self, path: Path) -> str | None:
        """The first hidden (dot) file or folder under the root that `path` goes through, relative to the root,
        or None: each step of the path as written (with the `..` before it folded, so `.x/../y` goes through
        `.x`), then its real path (a link that leads to a hidden file)."""
        unfolded = path if path.is_absolute() else Path.cwd() / path
        for end in range(1, len(unfolded.parts) + 1):
            step = Path(os.path.normpath(Path(*unfolded.parts[:end])))
            if step.name.startswith(".") and step != self.written and step.is_relative_to(self.written):
                return step.relative_to(self.written).as_posix()
        real = Path(os.path.realpath(path))
        return _hidden_part(real.relative_to(self.real)) if real.is_relative_to(self.real) else None

    def _refusal(self, path: Path, written: Path, real: Path, what: str, named_by: str | None) -> str:
        inside_by_name = written.is_relative_to(self.written)
        where = _relative(real, self.real)
        if inside_by_name:
            how = f"is a symbolic link (or lies in a linked folder) that leads to '{where}' from the root"
        else:
            how = f"is at '{where}' from the root"
        by = f" (named in {named_by})" if named_by else ""
        common = Path(os.path.commonpath([self.real, real]))
        wider = PaperRoot(common, common)
        hidden = wider.hidden_step(path) or _hidden_part(self.real.relative_to(common))
        unsuitable = unsuitable_root(common)
        if hidden is not None:
            fix = (
                f"it is reached through '{hidden.rsplit('/', 1)[-1]}', a hidden file or folder, where private files "
                "live: it is never read, whatever the root; remove the reference to it, or copy the file the paper "
                "needs into the paper's folder"
            )
        elif unsuitable is not None:
            fix = (
                f"a file outside every folder that may hold the paper is never read (the folder that holds both "
                f"{unsuitable}): remove the reference to it, or copy the file into the paper's folder"
            )
        else:
            levels = len(self.real.relative_to(common).parts)
            fix = (
                f"if the file belongs to the paper, pass start_run `root`: a folder that holds both the paper and "
                f"the file (here the folder {levels} level{'s' if levels != 1 else ''} above the root, "
                f"'{common.name}')"
            )
        return f"{what}{by} is outside the paper's root '{self.label}': it {how}; {fix}"


def unsuitable_root(real: Path) -> str | None:
    """Why the folder at `real` (every link followed) may not be a paper's root, or None when it may: under
    it, a paper could name private files that are no part of any paper."""
    if real == Path(real.anchor):
        return "is the file system's root"
    for home in home_folders():
        if home == real:
            return "is a home folder"
        if home.is_relative_to(real):
            return "holds home folders"
    try:
        mode = real.stat().st_mode
    except OSError:
        return None  # a folder that cannot be looked at is refused where it is read
    if mode & stat.S_IWOTH:
        return "may be written by every user (as /tmp may)"
    return None


def home_folders() -> tuple[Path, ...]:
    """The user's home folders, every link followed: `$HOME`, and the password database's for this user (they
    differ under `sudo` or a changed HOME). A folder above one (such as /home) holds other users' homes too."""
    homes = {os.path.expanduser("~")}
    with contextlib.suppress(ImportError, KeyError):  # not a POSIX system, or a user the database does not know
        import pwd

        homes.add(pwd.getpwuid(os.getuid()).pw_dir)
    return tuple(sorted({Path(os.path.realpath(home)) for home in homes if os.path.isabs(home)}))


def _root_refusal(label: str, unsuitable: str, *, given: bool) -> str:
    if given:
        return (
            f"start_run: the root '{label}' {unsuitable}: under it a paper could reach private files; give the "
            "paper's own project folder as `root` (the paper's folder, or the folder of its project that holds "
            "every file it names)"
        )
    return (
        f"start_run: the paper's folder '{label}' {unsuitable}, so it cannot be the paper's root: under it a paper "
        "could reach private files; move the paper and its files into a folder of their own"
    )


def _hidden_part(relative: Path) -> str | None:
    """The first hidden part of a relative path (as far as it), or None."""
    for end, part in enumerate(relative.parts, start=1):
        if part.startswith("."):
            return PurePosixPath(*relative.parts[:end]).as_posix()
    return None


def _relative(path: Path, start: Path) -> str:
    """`path` relative to `start`, with `..` as needed: where a refused file lies, without a local path."""
    return Path(os.path.relpath(path, start)).as_posix()
