r"""Reading a paper: its files, named relative to the main file, and its chunks from credencegraph's readers.

credencegraph's `read_latex` follows `\input` and `\include` but does not say which files it read. A run
records the digest of every one of them (going beyond the specification's main-file-only caveat), so this
module finds them itself with the same LaTeX parser (pylatexenc), resolving names as credencegraph does:
relative to the main file's directory, trying the name and then the name with `.tex`. Every file is read
here once, checked for size and UTF-8, and named by its path relative to the main file's directory; an
`\input` that leaves that directory is refused, so no path outside the paper is ever read or recorded.
Files read with the import package's `\import{dir}{file}` (and `\subimport`, relative to the importing file)
are read and recorded too: credencegraph does not read them, but their tables become chunks (cgx_core.tables);
one that is missing or outside the paper is not read.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Literal

import attrs

from cgx_core.codes import Code
from cgx_core.digests import bytes_digest
from cgx_core.errors import CgxError
from cgx_core.limits import MAX_CHUNKS, MAX_INPUT_FILES, MAX_LATEX_BYTES, MAX_PDF_BYTES

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

_INPUT_MACROS = frozenset({"input", "include"})
_BIB_MACROS = frozenset({"bibliography", "addbibresource", "addglobalbib"})
_FILE_MACRO = re.compile(
    r"\\(?P<macro>input|include|bibliography|addbibresource|addglobalbib|printbibliography)\b"
    r"\s*(?:\[[^\]]*\]\s*)?(?:\{(?P<argument>[^{}]*)\})?"
)
_IMPORT_MACRO = re.compile(
    r"\\(?P<macro>(?:sub)?import|(?:sub)?(?:input|include)from)\*?\s*"
    r"\{(?P<directory>[^{}]*)\}\s*\{(?P<file>[^{}]*)\}"
)
_DEFINED_BIB = re.compile(r"\\(?:def\s*\\[A-Za-z@]+|(?:re)?newcommand\*?\s*\{?\\[A-Za-z@]+\}?)\s*\{([^{}]+\.bib)\}")


@attrs.frozen
class DocumentFile:
    """One file of the paper, named relative to the main file's directory."""

    name: str
    data: bytes = attrs.field(repr=False)

    @property
    def digest(self) -> str:
        return bytes_digest(self.data)

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "digest": self.digest}


@attrs.frozen
class Document:
    """A paper as read: its format, its files (the main one first) and its chunks."""

    format: Literal["latex", "pdf"]
    files: tuple[DocumentFile, ...]
    chunks: tuple[Chunk, ...]
    bibliographies: tuple[str, ...]
    """The .bib files the paper names, relative to the main file's directory, that exist."""

    @property
    def main(self) -> DocumentFile:
        return self.files[0]


def _is_pdf(path: Path, head: bytes) -> bool:
    return path.suffix.lower() == ".pdf" or head.startswith(b"%PDF-")


def read_document(path: Path) -> Document:
    """Read the paper at `path` (a LaTeX main file or a PDF)."""
    if not path.exists():
        raise CgxError(Code.PAPER_NOT_FOUND, f"the paper '{path.name}' does not exist")
    if not path.is_file():
        raise CgxError(Code.PAPER_INVALID, f"the paper '{path.name}' is not a file")
    size = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(8)
    if _is_pdf(path, head):
        if size > MAX_PDF_BYTES:
            raise CgxError(Code.PAPER_TOO_LARGE, f"'{path.name}' has {size} bytes; the limit is {MAX_PDF_BYTES}")
        return _read_pdf(path)
    if size > MAX_LATEX_BYTES:
        raise CgxError(Code.PAPER_TOO_LARGE, f"'{path.name}' has {size} bytes; the limit is {MAX_LATEX_BYTES}")
    return _read_latex(path)


def _read_pdf(path: Path) -> Document:
    from credencegraph.ingest.pdf import PdfError, read_pdf

    data = path.read_bytes()
    if not data.startswith(b"%PDF-"):
        raise CgxError(Code.PAPER_INVALID, f"'{path.name}' is named .pdf but is not a PDF (no %PDF- header)")
    try:
        chunks = read_pdf(path)
    except PdfError as error:
        reason = _strip_paths(str(error), path)
        raise CgxError(Code.PAPER_INVALID, f"'{path.name}' cannot be read as a PDF: {reason}") from None
    return _checked(Document("pdf", (DocumentFile(path.name, data),), tuple(chunks), ()), path)


class _LatexFiles:
    """The files a LaTeX paper is made of, found by walking its \\input and \\include macros."""

    def __init__(self, main: Path) -> None:
        self.root = main.parent.resolve()
        self.main = main
        self.files: dict[str, DocumentFile] = {}
        self.order: list[str] = []
        self.total = 0
        self.bib_names: list[str] = []
        self.prints_bibliography = False

    def name_of(self, path: Path) -> str:
        resolved = path.resolve()
        if not resolved.is_relative_to(self.root):
            raise CgxError(Code.PAPER_INVALID, f"'{path.name}' is outside the paper's directory; it is not read")
        return PurePosixPath(resolved.relative_to(self.root).as_posix()).as_posix()

    def read(self, path: Path) -> str:
        name = self.name_of(path)
        if name in self.files:
            return self.files[name].data.decode("utf-8")
        if len(self.files) >= MAX_INPUT_FILES:
            raise CgxError(Code.PAPER_TOO_LARGE, f"the paper inputs more than {MAX_INPUT_FILES} files")
        data = path.read_bytes()
        self.total += len(data)
        if self.total > MAX_LATEX_BYTES:
            raise CgxError(Code.PAPER_TOO_LARGE, f"the paper's files pass {MAX_LATEX_BYTES} bytes in all")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise CgxError(
                Code.PAPER_NOT_UTF8, f"'{name}' is not UTF-8 (byte {error.start}); convert it, e.g. with iconv"
            ) from None
        self.files[name] = DocumentFile(name, data)
        self.order.append(name)
        return text

    def resolve(self, argument: str) -> Path:
        candidate = self.root / argument.strip()
        candidates = (
            [candidate] if candidate.suffix == ".tex" else [candidate, candidate.with_name(candidate.name + ".tex")]
        )
        for path in candidates:
            self.name_of(path)  # refuse a path outside the paper before looking at it
            if path.is_file():
                return path
        tried = ", ".join(self.name_of(path) for path in candidates)
        raise CgxError(Code.PAPER_NOT_FOUND, f"\\input{{{argument.strip()}}} names no file: tried {tried}")

    def walk(self, path: Path, stack: tuple[str, ...] = (), imported: str | None = None) -> None:
        """Read a file and, in the order they appear in its uncommented text, the files it inputs.

        A scan of the text rather than a second LaTeX parse: finding the macros that name files needs no
        more, and parsing every file twice cost 40% of credencegraph's own reading."""
        name = self.name_of(path)
        if name in stack:
            raise CgxError(Code.PAPER_INVALID, f"the document inputs itself: {' -> '.join((*stack, name))}")
        text = _uncommented(self.read(path))
        found = sorted([*_FILE_MACRO.finditer(text), *_IMPORT_MACRO.finditer(text)], key=lambda match: match.start())
        for match in found:
            if match.re is _IMPORT_MACRO:
                self.walk_import(match, name, (*stack, name))
                continue
            macro, argument = match.group("macro"), match.group("argument")
            if macro in _INPUT_MACROS and argument is not None and imported is not None:
                self.walk_imported(argument, imported, (*stack, name))
            elif macro in _INPUT_MACROS and argument is not None:
                self.walk(self.resolve(argument), (*stack, name))
            elif macro in _BIB_MACROS and argument is not None:
                self.bib_names.extend(part.strip() for part in argument.split(","))
            if macro == "bibliography":
                self.add_bbl()  # credencegraph reads <main>.bbl where the paper says \bibliography
            if macro in ("printbibliography", "bibliography"):
                self.prints_bibliography = True
        self.bib_names.extend(_DEFINED_BIB.findall(text))

    def walk_import(self, match: re.Match[str], name: str, stack: tuple[str, ...]) -> None:
        r"""An `\import{dir}{file}` (the import package; `\subimport` is relative to the importing file).

        credencegraph does not read imported files, but their tables are chunks (cgx_core.tables), so the
        files are read, recorded and digested like any other. A file that is missing or outside the paper is
        not read, and is no error: nothing credencegraph reads depends on it."""
        base = posixpath.dirname(name) if match.group("macro").startswith("sub") else ""
        folder = posixpath.join(base, match.group("directory").strip())
        self.walk_imported(posixpath.join(folder, match.group("file").strip()), folder, stack, relative=False)

    def walk_imported(self, argument: str, folder: str, stack: tuple[str, ...], *, relative: bool = True) -> None:
        """A file an imported file names: relative to its import folder, then to the main file's directory."""
        candidates = [posixpath.join(folder, argument), argument] if relative else [argument]
        for candidate in candidates:
            try:
                path = self.resolve(candidate)
            except CgxError:
                continue
            self.walk(path, stack, imported=folder)
            return

    def add_bbl(self) -> None:
        bbl = self.main.with_suffix(".bbl")
        if bbl.is_file():
            self.read(bbl)

    def bibliographies(self) -> tuple[str, ...]:
        found: list[str] = []
        for raw in self.bib_names:
            if "\\" in raw or not raw:
                continue
            candidate = self.root / (raw if raw.endswith(".bib") else raw + ".bib")
            try:
                name = self.name_of(candidate)
            except CgxError:
                continue
            if candidate.is_file() and name not in found:
                found.append(name)
        if not found and self.prints_bibliography:
            # The paper prints a bibliography whose .bib it does not name (a class file adds it, as
            # ReScience's does): the .bib files beside the main file are the ones LaTeX would find.
            found = sorted(path.name for path in self.root.glob("*.bib") if path.is_file())
        return tuple(found)


def _uncommented(text: str) -> str:
    return re.sub(r"(?<!\\)%.*", "", text)


def _read_latex(main: Path) -> Document:
    from credencegraph.ingest.latex import LatexError, read_latex

    files = _LatexFiles(main)
    files.walk(main)
    try:
        chunks = read_latex(main)
    except FileNotFoundError as error:
        raise CgxError(Code.PAPER_NOT_FOUND, _strip_paths(str(error), main)) from None
    except LatexError as error:
        raise CgxError(Code.PAPER_INVALID, _strip_paths(str(error), main)) from None
    except UnicodeDecodeError as error:
        raise CgxError(Code.PAPER_NOT_UTF8, f"a file of the paper is not UTF-8 (byte {error.start})") from None
    except RecursionError:
        raise CgxError(Code.PAPER_INVALID, "the paper nests macros or groups too deeply to read") from None
    ordered = tuple(files.files[name] for name in files.order)
    return _checked(Document("latex", ordered, tuple(chunks), files.bibliographies()), main)


def _checked(document: Document, path: Path) -> Document:
    if not document.chunks:
        raise CgxError(Code.PAPER_EMPTY, f"'{path.name}' has no text to ingest (no chunks)")
    if len(document.chunks) > MAX_CHUNKS:
        raise CgxError(
            Code.PAPER_TOO_LARGE, f"'{path.name}' has {len(document.chunks)} chunks; the limit is {MAX_CHUNKS}"
        )
    return document


def _strip_paths(message: str, main: Path) -> str:
    """A library message with the paper's directory removed, so no local path reaches a result."""
    root = str(main.parent.resolve())
    return message.replace(root + "/", "").replace(str(main.parent) + "/", "").replace(root, ".")
