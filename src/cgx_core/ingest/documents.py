r"""Reading a paper: its files, named relative to the paper's root, and its chunks from credencegraph's readers.

credencegraph's `read_latex` follows `\input` and `\include` but does not say which files it read. A run
records the digest of every one of them (going beyond the specification's main-file-only caveat), so this
module finds them itself by scanning the uncommented text, resolving names as credencegraph does: relative to
the main file's folder, trying the name and then the name with `.tex`. Every file, the `.bbl` and each `.bib`
included, is admitted by the paper's boundary (`paper_root`: under the root, symbolic links followed), read
here once, checked for size and UTF-8, and named by its path relative to the root. While credencegraph then
reads the paper, `read_watch` refuses any file it opens that the scan did not admit, so a file the scan
missed (an `\input` hidden behind `\verb`, a braceless `\input .`) never enters the run unrecorded.
Files read with the import package's `\import{dir}{file}` (and `\subimport`, relative to the importing file)
are read and recorded too, and credencegraph's reader is given them as `\input`s (cgx_core.ingest.imports); one
that is missing or outside the root is not read, and start_run lists its macro in `document.not_followed`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.base.limits import MAX_BIBLIOGRAPHY_BYTES, MAX_CHUNKS, MAX_INPUT_FILES, MAX_LATEX_BYTES, MAX_PDF_BYTES
from cgx_core.codes import Code
from cgx_core.errors import CgxError, utf8_text
from cgx_core.ingest.accounting import Accounting, account
from cgx_core.ingest.class_files import KNOWN_INPUTS, front_matter, inputs_of, loaded_classes
from cgx_core.ingest.imports import IMPORT_MACRO, ImportsAsInputs
from cgx_core.ingest.latex_text import PaperFiles, uncommented
from cgx_core.ingest.paper_macros import expand_paper_macros
from cgx_core.ingest.paper_root import PaperRoot
from cgx_core.ingest.sentences import mend_sentences

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

    from cgx_core.ingest.pdf.reading import PdfReading

_INPUT_MACROS = frozenset({"input", "include"})
_BIB_MACROS = frozenset({"bibliography", "addbibresource", "addglobalbib"})
_FILE_MACRO = re.compile(
    r"\\(?P<macro>input|include|bibliography|addbibresource|addglobalbib|printbibliography)\b"
    r"\s*(?:\[[^\]]*\]\s*)?(?:\{(?P<argument>[^{}]*)\})?"
)
_UNFOLLOWED = re.compile(r"\\(?P<macro>subfile)\*?\s*(?P<arguments>\{[^{}]*\})")
"""The subfiles package's macro, which no reader follows: its file's prose is not in the run's chunks, and
start_run says so (as it does for an import naming no file of the paper)."""
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{\s*document\s*\}")
_DEFINED_BIB = re.compile(r"\\(?:def\s*\\[A-Za-z@]+|(?:re)?newcommand\*?\s*\{?\\[A-Za-z@]+\}?)\s*\{([^{}]+\.bib)\}")


@attrs.frozen
class DocumentFile:
    """One file of the paper, named relative to the paper's root."""

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
    """The .bib files the paper names that exist, as paths relative to the root (already admitted by it)."""
    not_followed: tuple[str, ...] = ()
    """Macros naming files no reader follows (`\\subfile{..}`, an `\\import` naming no file of the paper), as
    written, with the file of the paper that holds them: the text of those files is not in the run."""
    root: PaperRoot | None = attrs.field(default=None, eq=False, repr=False)
    pdf: PdfReading | None = attrs.field(default=None, eq=False, repr=False)
    """A PDF's lines, captions and references as credencegraph's reader found them (its tables are read
    from them: cgx_core.ingest.pdf)."""
    texts: Mapping[str, str] = attrs.field(
        default=attrs.Factory(lambda self: _texts_of(self.format, self.files), takes_self=True), eq=False, repr=False
    )
    """A LaTeX paper's texts by name as every reader reads them (cgx_core.ingest.paper_macros)."""
    body_files: tuple[str, ...] = ()
    """The files the body of a LaTeX paper inputs (with `\\input` or `\\include`), in reading order."""
    skipped_macros: tuple[str, ...] = ()
    """The paper's macros that credencegraph's reader takes for environments that never close (paper_macros)."""

    def accounting(self, also_covered: Iterable[str] = ()) -> Accounting | None:
        """How much of a LaTeX paper's body its chunks cover (cgx_core.ingest.accounting), the lines of
        `also_covered` (its table rows) counted as covered; None for a PDF."""
        if self.format != "latex":
            return None
        return account(self.texts, self.main.name, self.body_files, self.chunks, self.skipped_macros, also_covered)

    @property
    def main(self) -> DocumentFile:
        return self.files[0]


def _texts_of(format: str, files: tuple[DocumentFile, ...]) -> dict[str, str]:
    """A LaTeX paper's files as text, unprepared (for a document built from files alone)."""
    return {item.name: item.data.decode("utf-8") for item in files} if format == "latex" else {}


def _is_pdf(path: Path, head: bytes) -> bool:
    return path.suffix.lower() == ".pdf" or head.startswith(b"%PDF-")


def read_document(path: Path, root: Path | None = None) -> Document:
    """Read the paper at `path` (a LaTeX main file or a PDF), every file of it under `root` (by default the
    paper's folder)."""
    if not path.exists():
        raise CgxError(Code.PAPER_NOT_FOUND, f"the paper '{path.name}' does not exist")
    if not path.is_file():
        raise CgxError(Code.PAPER_INVALID, f"the paper '{path.name}' is not a file")
    boundary = PaperRoot.for_paper(path, root)
    boundary.name_of(path, what=f"the paper '{path.name}'")
    size = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(8)
    if _is_pdf(path, head):
        if size > MAX_PDF_BYTES:
            raise CgxError(Code.PAPER_TOO_LARGE, f"'{path.name}' has {size} bytes; the limit is {MAX_PDF_BYTES}")
        return _read_pdf(path, boundary)
    if size > MAX_LATEX_BYTES:
        raise CgxError(Code.PAPER_TOO_LARGE, f"'{path.name}' has {size} bytes; the limit is {MAX_LATEX_BYTES}")
    return _read_latex(path, boundary)


def read_bibliography(boundary: PaperRoot, path: Path, *, what: str, named_by: str | None = None) -> DocumentFile:
    """A `.bib` file, admitted by the boundary and bounded in size."""
    name = boundary.name_of(path, what=what, named_by=named_by)
    if not path.is_file():
        raise CgxError(Code.BIBLIOGRAPHY_INVALID, f"{what} does not exist or is not a file")
    if path.stat().st_size > MAX_BIBLIOGRAPHY_BYTES:
        raise CgxError(Code.BIBLIOGRAPHY_INVALID, f"{what} is larger than {MAX_BIBLIOGRAPHY_BYTES} bytes")
    return DocumentFile(name, path.read_bytes())


def _read_pdf(path: Path, boundary: PaperRoot) -> Document:
    from credencegraph.ingest.pdf import PdfError
    from pypdfium2 import PdfiumError

    from cgx_core.ingest.pdf.reading import read_pdf_document

    data = path.read_bytes()
    if not data.startswith(b"%PDF-"):
        raise CgxError(Code.PAPER_INVALID, f"'{path.name}' is named .pdf but is not a PDF (no %PDF- header)")
    try:
        reading = read_pdf_document(path)
    except (PdfError, PdfiumError) as error:  # PDFium's own refusal too: a page tree that contains itself
        reason = _strip_paths(str(error), path)
        raise CgxError(Code.PAPER_INVALID, f"'{path.name}' cannot be read as a PDF: {reason}") from None
    name = boundary.name_of(path, what=f"the paper '{path.name}'")
    document = Document("pdf", (DocumentFile(name, data),), reading.chunks, (), root=boundary, pdf=reading)
    return _checked(document, path)


class _LatexFiles:
    """The files a LaTeX paper is made of, found by walking its \\input and \\include macros."""

    def __init__(self, main: Path, boundary: PaperRoot) -> None:
        self.boundary = boundary
        self.folder = Path(os.path.abspath(main)).parent  # where credencegraph resolves every \input
        self.main = main
        self.files: dict[str, DocumentFile] = {}
        self.paths: dict[str, str] = {}
        """Each admitted file by the absolute path (as written, `..` folded) credencegraph will open it by."""
        self.order: list[str] = []
        self.total = 0
        self.body: list[str] = []
        """The files the body reads (with \\input, \\include or an import; not those of the preamble)."""
        self.bib_names: list[tuple[str, str]] = []
        self.prints_bibliography = False
        self.not_followed: list[str] = []

    def read(self, path: Path, *, what: str, named_by: str | None) -> str:
        name = self.boundary.name_of(path, what=what, named_by=named_by)
        if name in self.files:
            return self.files[name].data.decode("utf-8")
        if len(self.files) >= MAX_INPUT_FILES:
            raise CgxError(Code.PAPER_TOO_LARGE, f"the paper inputs more than {MAX_INPUT_FILES} files")
        data = path.read_bytes()
        self.total += len(data)
        if self.total > MAX_LATEX_BYTES:
            raise CgxError(Code.PAPER_TOO_LARGE, f"the paper's files pass {MAX_LATEX_BYTES} bytes in all")
        text = utf8_text(data, Code.PAPER_NOT_UTF8, f"'{name}'", "convert it, e.g. with iconv")
        self.files[name] = DocumentFile(name, data)
        self.paths[os.path.abspath(path)] = name
        self.order.append(name)
        return text

    def resolve(self, argument: str, named_by: str) -> Path:
        """The file an \\input names, found as credencegraph finds it (pathlib's joining included, so
        `\\input .` names the folder itself, then `<folder>.tex` beside it)."""
        what = _input_label(argument)
        candidate = self.folder / argument.strip()
        candidates = (
            [candidate] if candidate.suffix == ".tex" else [candidate, candidate.with_name(candidate.name + ".tex")]
        )
        for path in candidates:
            self.boundary.name_of(path, what=what, named_by=named_by)  # refuse a path outside before looking
            if path.is_file():
                return path
        tried = ", ".join(self.boundary.name_of(path) for path in candidates)
        raise CgxError(Code.PAPER_NOT_FOUND, f"{what} (in {named_by}) names no file: tried {tried}")

    def walk(
        self,
        path: Path,
        stack: tuple[str, ...] = (),
        what: str = "",
        named_by: str | None = None,
        imported: Path | None = None,
        in_body: bool = False,
    ) -> None:
        """Read a file and, in the order they appear in its uncommented text, the files it inputs.

        A scan of the text rather than a second LaTeX parse: finding the macros that name files needs no
        more, and parsing every file twice cost 40% of credencegraph's own reading. What the scan misses, the
        read watch catches. `imported` is the folder of the `\\import` a file was read through."""
        name = self.boundary.name_of(path, what=what or f"the paper '{path.name}'", named_by=named_by)
        if name in stack:
            raise CgxError(Code.PAPER_INVALID, f"the document inputs itself: {' -> '.join((*stack, name))}")
        text = uncommented(self.read(path, what=what or f"the paper '{path.name}'", named_by=named_by))
        found = sorted([*_FILE_MACRO.finditer(text), *IMPORT_MACRO.finditer(text)], key=lambda match: match.start())
        document = _BEGIN_DOCUMENT.search(text) if not stack else None
        body_from = document.end() if document is not None else 0
        if in_body and name not in self.body:
            self.body.append(name)
        for match in found:
            reads_body = (in_body or not stack) and match.start() >= body_from
            if match.re is IMPORT_MACRO:
                self.walk_import(match, path, (*stack, name), reads_body)
                continue
            macro, argument = match.group("macro"), match.group("argument")
            if macro in _INPUT_MACROS and argument is not None and imported is not None:
                self.walk_imported(Path(argument.strip()), imported, (*stack, name), in_body=reads_body)
            elif macro in _INPUT_MACROS and argument is not None:
                self.walk(
                    self.resolve(argument, name),
                    (*stack, name),
                    _input_label(argument),
                    name,
                    in_body=reads_body,
                )
            elif macro in _BIB_MACROS and argument is not None:
                self.bib_names.extend((part.strip(), name) for part in argument.split(","))
            if macro == "bibliography":
                self.add_bbl(name)  # credencegraph reads <main>.bbl where the paper says \bibliography
            if macro in ("printbibliography", "bibliography"):
                self.prints_bibliography = True
        self.bib_names.extend((found, name) for found in _DEFINED_BIB.findall(text))
        self.not_followed.extend(
            f"\\{match.group('macro')}{''.join(match.group('arguments').split())} (in {name})"
            for match in _UNFOLLOWED.finditer(text)
        )

    def walk_classes(self) -> list[Chunk]:
        """The front matter of the files the main file's classes and packages input themselves (see
        `class_files`); a file that cannot be read within the root is listed as not followed."""
        main = self.order[0]
        chunks: list[Chunk] = []
        for name, extension in loaded_classes(uncommented(self.files[main].data.decode("utf-8"))):
            loaded = f"{name}{extension}"
            for argument in self.class_inputs(name, loaded, main):
                path = self.folder / argument
                label = _input_label(argument)
                try:
                    file = self.boundary.name_of(path, what=label, named_by=loaded)
                    if file in self.files:  # the document inputs it too: credencegraph reads it
                        continue
                    if not path.is_file():
                        self.not_followed.append(f"{label} (loaded by {loaded}: no such file)")
                        continue
                    text = self.read(path, what=label, named_by=loaded)
                except CgxError as error:
                    self.not_followed.append(f"{label} (loaded by {loaded}: {error.code})")
                    continue
                chunks.extend(front_matter(file, uncommented(text)))
        return chunks

    def class_inputs(self, name: str, loaded: str, main: str) -> list[str]:
        """The files a class or package inputs: from its file in the paper's folder, read within the root,
        else what `KNOWN_INPUTS` says its published source inputs."""
        local = self.folder / loaded
        try:
            self.boundary.name_of(local, what=f"the class '{loaded}'", named_by=main)
            if local.is_file():
                return inputs_of(uncommented(self.read(local, what=f"the class '{loaded}'", named_by=main)))
        except CgxError as error:
            self.not_followed.append(f"{loaded} (loaded by {main}: {error.code})")
            return []
        return list(KNOWN_INPUTS.get(name, ())) if loaded.endswith(".cls") else []

    def walk_import(self, match: re.Match[str], path: Path, stack: tuple[str, ...], in_body: bool) -> None:
        r"""An `\import{dir}{file}` (the import package; `\subimport` is relative to the importing file).

        The file is read, recorded and digested like any other, and credencegraph's reader follows it as an
        `\input` (cgx_core.ingest.imports). A file that is missing or outside the root is not read, and is no
        error: start_run lists the macro in `document.not_followed`."""
        macro, directory, file = match.group("macro"), match.group("directory").strip(), match.group("file").strip()
        base = Path(os.path.abspath(path)).parent if macro.startswith("sub") else self.folder
        folder = Path(os.path.normpath(base / directory))
        if not self.walk_imported(folder / file, folder, stack, relative=False, in_body=in_body):
            self.not_followed.append(f"\\{macro}{{{directory}}}{{{file}}} (in {stack[-1]}: no file of the paper)")

    def walk_imported(
        self, argument: Path, folder: Path, stack: tuple[str, ...], *, relative: bool = True, in_body: bool = False
    ) -> bool:
        """A file an imported file names: relative to its import folder, then to the main file's folder (an
        `\\input` naming neither is refused, as anywhere in the paper); whether one was found."""
        candidates = [folder / argument, argument] if relative else [argument]
        for candidate in candidates:
            try:
                path = self.resolve(str(candidate), stack[-1])
            except CgxError:
                if relative and candidate is argument:
                    raise
                continue
            self.walk(path, stack, _input_label(str(argument)), stack[-1], imported=folder, in_body=in_body)
            return True
        return False

    def add_bbl(self, named_by: str) -> None:
        bbl = self.main.with_suffix(".bbl")
        if bbl.is_file():
            self.read(bbl, what=f"the bibliography '{bbl.name}'", named_by=named_by)

    def admits(self, path: Path) -> bool:
        """Whether credencegraph may open `path`: only a file the scan read."""
        return os.path.abspath(path) in self.paths

    def bibliographies(self) -> tuple[str, ...]:
        found: list[str] = []
        for raw, named_by in self.bib_names:
            if "\\" in raw or not raw:
                continue
            candidate = self.folder / (raw if raw.endswith(".bib") else raw + ".bib")
            label = f".../{Path(raw).name}" if os.path.isabs(raw) else raw
            name = self.boundary.name_of(candidate, what=f"the bibliography '{label}'", named_by=named_by)
            if candidate.is_file() and name not in found:
                found.append(name)
        if not found and self.prints_bibliography:
            # The paper prints a bibliography whose .bib it does not name (a class file adds it, as
            # ReScience's does): the .bib files beside the main file are the ones LaTeX would find.
            beside = sorted(
                path for path in self.folder.glob("*.bib") if path.is_file() and not path.name.startswith(".")
            )
            found = [self.boundary.name_of(path, what=f"the bibliography '{path.name}'") for path in beside]
        return tuple(found)


def _input_label(argument: str) -> str:
    """How a message names an \\input: as the paper wrote it, but an absolute path by its file name only
    (a message never carries a local path)."""
    written = argument.strip()
    return f"\\input{{.../{Path(written).name}}}" if os.path.isabs(written) else f"\\input{{{written}}}"


def _read_latex(main: Path, boundary: PaperRoot) -> Document:
    from credencegraph.ingest.latex import LatexError

    from cgx_core.ingest.read_watch import UnadmittedRead, watch

    files = _LatexFiles(main, boundary)
    files.walk(main)
    front = files.walk_classes()
    expansion = expand_paper_macros({name: files.files[name].data.decode("utf-8") for name in files.order})
    try:
        with watch(files.admits) as reading:
            chunks = _read_prepared(main, files, expansion.texts)
    except UnadmittedRead as refused:
        raise _unadmitted(files, refused.path) from None
    except FileNotFoundError as error:
        raise CgxError(Code.PAPER_NOT_FOUND, _strip_paths(str(error), main)) from None
    except LatexError as error:
        raise CgxError(Code.PAPER_INVALID, _strip_paths(str(error), main)) from None
    except UnicodeDecodeError as error:
        raise CgxError(Code.PAPER_NOT_UTF8, f"a file of the paper is not UTF-8 (byte {error.start})") from None
    except RecursionError:
        raise CgxError(Code.PAPER_INVALID, "the paper nests macros or groups too deeply to read") from None
    if reading.refused:  # refused inside the reader, and the reader went on: the run is refused all the same
        raise _unadmitted(files, reading.refused[0])
    ordered = tuple(files.files[name] for name in files.order)
    mended = mend_sentences([*front, *chunks])
    document = Document(
        "latex",
        ordered,
        mended,
        files.bibliographies(),
        root=boundary,
        not_followed=tuple(files.not_followed),
        texts=expansion.texts,
        body_files=tuple(files.body),
        skipped_macros=tuple(expansion.skipped),
    )
    return _checked(document, main)


def _read_prepared(main: Path, files: _LatexFiles, texts: Mapping[str, str]) -> list[Chunk]:
    """credencegraph's `read_latex`, step for step, each admitted file's text given as every reader of this
    package reads it (`paper_macros`) instead of opened again (`latex_reader`), its imports written as the
    `\\input`s credencegraph follows (`imports`)."""
    from cgx_core.ingest.latex_reader import PaperReader

    imports = ImportsAsInputs(PaperFiles(texts, files.order[0]))

    def text_of(path: Path) -> str | None:
        name = files.paths.get(os.path.abspath(path))
        return None if name is None else imports.text(name, texts[name])

    return PaperReader(main, text_of).chunks_of_main()


def _unadmitted(files: _LatexFiles, path: Path) -> CgxError:
    """credencegraph's reader opened a file the scan did not admit: outside the root, or hidden from the scan."""
    try:
        name = files.boundary.name_of(path, what=f"a file credencegraph's LaTeX reader opened ('{path.name}')")
    except CgxError as outside:
        return outside
    return CgxError(
        Code.PAPER_INVALID,
        f"credencegraph's LaTeX reader opened '{name}', which the scan of the paper's \\input and \\bibliography "
        "macros did not find (an \\input hidden from it, for example behind \\verb or without braces): its text "
        "would enter the run unrecorded. Write the \\input plainly, as \\input{file}, or remove it",
    )


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
