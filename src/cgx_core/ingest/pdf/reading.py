"""credencegraph's PDF reader, with the text of TeX's bitmap fonts read instead of lost, and without the
running heads, feet and page numbers (`running`).

pdfTeX sets a font it has only as a bitmap (a `.pk` font, when the Type 1 outline is not installed) as a
Type 3 font with no Unicode map. PDFium then flags every glyph of it as unmapped, and credencegraph's reader
turns each into U+FFFD: the whole prose of the dynonet paper's PDF was `��� ���`. The codes of those glyphs are
TeX's own text encoding, where the printable ASCII codes are the ASCII characters (letters, digits,
punctuation; not the ten where OT1 puts quotes, dashes and accents instead) and codes 27 to 31 are the
ligatures ff, fi, fl, ffi, ffl; pdfminer reads them the same way
from the glyph names. So in a PDF whose producer is TeX, an unmapped glyph with such a code is read as that
character, and every other unmapped glyph stays U+FFFD. A PDF from any other producer is read exactly as
credencegraph reads it. How many glyphs were read so is counted and reported in start_run's
`document.limits`, since it is a reading of the font's encoding, not of the PDF's own Unicode.

The reading goes through credencegraph's one function that turns a code into text (`_text`), and the lines
go through the one that groups them into blocks (`_blocks`, which is given the list of every line the layout
then reads), each replaced for the length of the call under a lock (the ingestion runs in its own process,
one paper at a time; the lock keeps an in-process caller's threads apart too). credencegraph is pinned below
0.5, and the tests on the shared PDFs fail if either function changes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.ingest.pdf.author_year import with_author_year
from cgx_core.ingest.pdf.equations import rewritten
from cgx_core.ingest.pdf.running import running_lines

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import PdfDocument

_TEX_LIGATURES = {27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl"}
_OT1_NOT_ASCII = frozenset(b'"<>\\^_{|}~')
"""Codes where TeX's OT1 text encoding differs from ASCII (quotes, inverted marks, dashes, accents): not read."""
_ASCII_IN_TEX = frozenset(range(0x21, 0x7F)) - _OT1_NOT_ASCII
_LOCK = threading.Lock()


@attrs.frozen
class PdfReading:
    """A PDF as read: credencegraph's analysis, and how many glyphs were read by TeX's font encoding."""

    analysis: PdfDocument
    tex_encoded: int
    unreadable: int
    """Glyphs that are still U+FFFD (no Unicode, and no code TeX's encoding gives a character)."""
    running: tuple[str, ...] = ()
    """The running heads, feet and page numbers removed (cgx_core.ingest.pdf.running), as printed."""
    chunks: tuple[Chunk, ...] = ()
    """credencegraph's chunks, one-line equations written as LaTeX (cgx_core.ingest.pdf.equations), an
    author-year reference list and its citations added (cgx_core.ingest.pdf.author_year)."""


def _made_by_tex(path: Path) -> bool:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError:
        return False  # credencegraph's reader refuses it next, with its own message
    try:
        metadata = document.get_metadata_dict()
    finally:
        document.close()
    return any("tex" in metadata.get(name, "").lower() for name in ("Producer", "Creator"))


@contextmanager
def _without_running_lines(removed: list[str]) -> Iterator[None]:
    """Drop running heads, feet and page numbers from the lines before credencegraph builds blocks from them
    (its `_blocks` receives the list its layout and result read next: see the module's docstring)."""
    import credencegraph.ingest.pdf as reader

    original: Callable[..., Any] = reader._blocks

    def blocks(lines: list[Any]) -> Any:
        dropped = running_lines(lines)
        removed.extend(lines[index].text for index in sorted(dropped))
        lines[:] = [line for index, line in enumerate(lines) if index not in dropped]
        return original(lines)

    reader._blocks = blocks
    try:
        yield
    finally:
        reader._blocks = original


def _tex_decoded(code: int) -> str | None:
    """The text TeX's encoding gives an unmapped code, or None."""
    if code in _TEX_LIGATURES:
        return _TEX_LIGATURES[code]
    return chr(code) if code in _ASCII_IN_TEX else None


def decoder(*, tex: bool) -> Callable[[int, bool], str | None]:
    """A glyph's text from its code and whether PDFium could not map it: None when it has none."""

    def decode(code: int, unmapped: bool) -> str | None:
        if not unmapped:
            return chr(code)
        return _tex_decoded(code) if tex else None

    return decode


@contextmanager
def _tex_text(counter: list[int]) -> Iterator[None]:
    import credencegraph.ingest.pdf as reader

    original: Callable[..., str] = reader._text

    def text(code: int, *, unmapped: bool, hyphen: bool) -> str:
        decoded = _tex_decoded(code) if unmapped and not hyphen else None
        if decoded is not None:
            counter[0] += 1
            return decoded
        return original(code, unmapped=unmapped, hyphen=hyphen)

    reader._text = text
    try:
        yield
    finally:
        reader._text = original


def read_pdf_document(path: Path) -> PdfReading:
    """The analysis of the PDF at `path` (PdfError and FileNotFoundError as credencegraph raises them)."""
    from credencegraph.ingest.pdf import REPLACEMENT, analyse_pdf

    counter = [0]
    removed: list[str] = []
    tex = _made_by_tex(path)
    with _LOCK, _without_running_lines(removed):
        if tex:
            with _tex_text(counter):
                analysis = analyse_pdf(path)
        else:
            analysis = analyse_pdf(path)
    unreadable = sum(line.text.count(REPLACEMENT) for line in analysis.lines)
    chunks = with_author_year(analysis, rewritten(path, analysis.chunks, decoder(tex=tex)))
    return PdfReading(analysis, counter[0], unreadable, tuple(removed), tuple(chunks))
