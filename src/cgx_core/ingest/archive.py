r"""A paper's sources as an archive (`.tar.gz`, `.tgz`, `.tar`, `.zip`, or one gzipped `.tex`, as arXiv serves
them): unpacked safely into a fresh folder, its main file found, and read with that folder as the paper's root.

Unpacking refuses what could reach outside the folder or exhaust the machine, before anything is written:

* `archive-unsafe`: a member with an absolute path or a `..` part, a symbolic or hard link, a device or
  fifo (tarfile's `data` filter refuses the same; a zip is checked here by the same rule);
* `archive-too-large`: more than `MAX_ARCHIVE_MEMBERS` members, or more than `MAX_ARCHIVE_UNPACKED_BYTES`
  unpacked (counted while decompressing, not taken from the headers a zip bomb lies in), or an archive file
  over `MAX_ARCHIVE_BYTES`;
* `archive-invalid`: not an archive this reads, or a damaged one.

The main file is the `.tex` file that has `\documentclass` outside comments (arXiv's own rule); among several,
the one that also has `\begin{document}`, then the shallowest, then one named `ms`, `main`, `paper`,
`article` or after the archive, then by name: so the choice is the same on every machine. start_run's `main`
argument names it instead. None: `archive-no-main`. The archive's digest is recorded with the document;
its files are named relative to the unpacked folder, as a folder's are relative to its root.
"""

from __future__ import annotations

import gzip
import io
import re
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Protocol

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.base.limits import MAX_ARCHIVE_BYTES, MAX_ARCHIVE_MEMBERS, MAX_ARCHIVE_UNPACKED_BYTES
from cgx_core.codes import Code
from cgx_core.errors import CgxError

_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip", ".gz")
_GZIP = b"\x1f\x8b"
_ZIP = b"PK\x03\x04"
_ZIP_ENCRYPTED = 0x1
"""A zip member's general-purpose flag bit 0: the member is encrypted (zipfile reads it only with a password)."""
_DOCUMENTCLASS = re.compile(r"^[^%\n]*\\documentclass\b", re.MULTILINE)
_BEGIN_DOCUMENT = re.compile(r"^[^%\n]*\\begin\s*\{document\}", re.MULTILINE)
_USUAL_NAMES = ("ms", "main", "paper", "article")
_CHUNK = 1 << 16


@attrs.frozen
class Unpacked:
    """An archive unpacked: its name and digest, the folder it was unpacked into, and the main file there."""

    name: str
    digest: str
    folder: Path
    main: Path

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "digest": self.digest, "main": self.main.relative_to(self.folder).as_posix()}


def is_archive(path: Path) -> bool:
    """Whether start_run reads `path` as an archive of sources (by its name, or a gzip or zip header)."""
    if path.name.lower().endswith(_SUFFIXES):
        return True
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        head = handle.read(4)
    return head.startswith(_GZIP) or head == _ZIP


def unpack(path: Path, folder: Path, main: str | None = None) -> Unpacked:
    """Unpack the archive at `path` into the empty `folder` and find its main file (or take `main`)."""
    if not path.is_file():
        raise CgxError(Code.PAPER_NOT_FOUND, f"the archive '{path.name}' does not exist or is not a file")
    size = path.stat().st_size
    if size > MAX_ARCHIVE_BYTES:
        raise CgxError(Code.ARCHIVE_TOO_LARGE, f"'{path.name}' has {size} bytes; the limit is {MAX_ARCHIVE_BYTES}")
    data = path.read_bytes()
    budget = _Budget(path.name)
    try:
        if data.startswith(_ZIP) or path.name.lower().endswith(".zip"):
            _unzip(data, folder, budget)
        elif _is_tar(data):
            _untar(data, folder, budget)
        elif data.startswith(_GZIP):
            _gunzip_one(data, folder, path.name, budget)
        else:
            raise CgxError(Code.ARCHIVE_INVALID, f"'{path.name}' is not a .tar.gz, .tar, .zip or gzipped file")
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as error:
        # NotImplementedError: a zip member compressed by a method zipfile does not read
        raise CgxError(Code.ARCHIVE_INVALID, f"'{path.name}' cannot be unpacked: {type(error).__name__}") from None
    found = _chosen(folder, main, path.name) if main is not None else _main_file(folder, path.name)
    return Unpacked(path.name, bytes_digest(data), folder, found)


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Budget:
    """What unpacking may still write: members and bytes, counted as they are written."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.members = 0
        self.bytes = 0

    def member(self) -> None:
        self.members += 1
        if self.members > MAX_ARCHIVE_MEMBERS:
            raise CgxError(
                Code.ARCHIVE_TOO_LARGE,
                f"'{self.name}' has more than {MAX_ARCHIVE_MEMBERS} members; unpack it "
                "yourself and pass the main .tex file",
            )

    def copy(self, source: _Readable, target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("xb") as out:
            while block := source.read(_CHUNK):
                self.bytes += len(block)
                if self.bytes > MAX_ARCHIVE_UNPACKED_BYTES:
                    raise CgxError(
                        Code.ARCHIVE_TOO_LARGE,
                        f"'{self.name}' unpacks to more than {MAX_ARCHIVE_UNPACKED_BYTES} bytes (a compression "
                        "bomb, or far more than a paper's sources); pass the main .tex file of an unpacked copy",
                    )
                out.write(block)


def _safe_name(name: str, archive: str) -> PurePosixPath:
    """A member's name as a relative path with no `..`, or `archive-unsafe`."""
    posix = PurePosixPath(name.replace("\\", "/"))
    if posix.is_absolute() or ".." in posix.parts or re.match(r"^[A-Za-z]:", name):
        raise CgxError(
            Code.ARCHIVE_UNSAFE,
            f"'{archive}' has a member named '{name[:200]}', which would be written outside the folder it is "
            "unpacked into; this archive is not a paper's sources as arXiv serves them",
        )
    return PurePosixPath(*[part for part in posix.parts if part not in ("", ".")])


def _is_tar(data: bytes) -> bool:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*"):
            return True
    except (tarfile.TarError, EOFError, OSError):
        return False


def _untar(data: bytes, folder: Path, budget: _Budget) -> None:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        for member in _members(archive):
            budget.member()
            relative = _safe_name(member.name, budget.name)
            if member.isdir() or not relative.parts:
                continue
            if not member.isreg():
                kind = "link" if member.issym() or member.islnk() else "special file"
                raise CgxError(
                    Code.ARCHIVE_UNSAFE,
                    f"'{budget.name}' has a {kind}, '{member.name[:200]}': links and devices are not unpacked; "
                    "replace the link by the file it names and pack the sources again",
                )
            source = archive.extractfile(member)
            if source is None:  # a regular member always has content; tarfile returns None only for others
                continue
            with source:
                budget.copy(source, folder.joinpath(*relative.parts))


def _members(archive: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    """The members one at a time, so a tar of a million empty members stops at the count, not in memory."""
    while (member := archive.next()) is not None:
        yield member


def _unzip(data: bytes, folder: Path, budget: _Budget) -> None:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            budget.member()
            relative = _safe_name(info.filename, budget.name)
            if info.is_dir() or not relative.parts:
                continue
            if info.flag_bits & _ZIP_ENCRYPTED:
                raise CgxError(
                    Code.ARCHIVE_INVALID,
                    f"'{budget.name}' has an encrypted member, '{info.filename[:200]}'; pack the sources again "
                    "without a password",
                )
            mode = info.external_attr >> 16
            if mode and (mode & 0o170000) not in (0, 0o100000):  # a Unix link or special file stored in a zip
                raise CgxError(
                    Code.ARCHIVE_UNSAFE,
                    f"'{budget.name}' has a link or special file, '{info.filename[:200]}': links are not unpacked; "
                    "replace the link by the file it names and pack the sources again",
                )
            with archive.open(info) as source:
                budget.copy(source, folder.joinpath(*relative.parts))


def _gunzip_one(data: bytes, folder: Path, name: str, budget: _Budget) -> None:
    """arXiv serves a one-file paper as that file gzipped: it becomes `<name>.tex`."""
    stem = re.sub(r"(\.tex)?\.gz$", "", name, flags=re.IGNORECASE) or "paper"
    budget.member()
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as source:
        budget.copy(source, folder / f"{_safe_name(stem, name).name}.tex")


def _tex_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.tex") if path.is_file())


def _main_file(folder: Path, archive: str) -> Path:
    stem = re.sub(r"(\.tar)?\.(gz|tgz|zip|tar)$", "", archive, flags=re.IGNORECASE)
    candidates = []
    for path in _tex_files(folder):
        text = path.read_bytes()[: 1 << 20].decode("utf-8", "replace")
        if _DOCUMENTCLASS.search(text):
            depth = len(path.relative_to(folder).parts)
            usual = path.stem in (*_USUAL_NAMES, stem)
            name = path.relative_to(folder).as_posix()
            candidates.append((not _BEGIN_DOCUMENT.search(text), depth, not usual, name, path))
    if not candidates:
        names = [path.relative_to(folder).as_posix() for path in _tex_files(folder)][:10]
        raise CgxError(
            Code.ARCHIVE_NO_MAIN,
            f"'{archive}' has no .tex file with \\documentclass (its .tex files: {names or 'none'}); pass `main` "
            "with the archive's main file, or the main file of an unpacked copy as `paper`",
        )
    return min(candidates)[-1]


def _chosen(folder: Path, main: str, archive: str) -> Path:
    relative = _safe_name(main, archive)
    path = folder.joinpath(*relative.parts)
    if not relative.parts or not path.is_file():
        names = [item.relative_to(folder).as_posix() for item in _tex_files(folder)][:10]
        raise CgxError(
            Code.ARCHIVE_NO_MAIN, f"'{archive}' has no file '{main}' (main); its .tex files are {names or 'none'}"
        )
    return path
