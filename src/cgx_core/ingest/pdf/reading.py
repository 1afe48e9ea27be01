"""credencegraph's PDF reader, with the text of TeX's bitmap fonts read instead of lost, and without the
running heads, feet and page numbers (`running`).

pdfTeX sets a font it has only as a bitmap (a `.pk` font, when the Type 1 outline is not installed) as a
Type 3 font with no Unicode map. PDFium then flags every glyph of it as unmapped, and credencegraph's reader
turns each into U+FFFD: the whole prose of the dynonet paper's PDF was `��� ���`. The codes of those glyphs are
TeX's own text encoding (T1 or OT1), where the printable ASCII codes are the ASCII characters (letters,
digits, punctuation; not the ten where OT1 puts quotes, dashes and accents instead) and codes 27 to 31 are
the ligatures ff, fi, fl, ffi, ffl; pdfminer reads them the same way from the glyph names. So in a PDF whose
producer is TeX, and whose every font with unmapped glyphs reads as prose (`_reads_as_prose`: a bitmap
symbol font would turn the infinity sign into a `1`), an unmapped glyph with such a code is read as that
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
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.ingest.pdf.author_year import with_printed_references
from cgx_core.ingest.pdf.equations import rewritten
from cgx_core.ingest.pdf.furniture import furniture_lines
from cgx_core.ingest.pdf.hyphens import dehyphenated
from cgx_core.ingest.pdf.links import Link, read_links
from cgx_core.ingest.pdf.listings import listing_lines
from cgx_core.ingest.pdf.reference_list import PrintedList
from cgx_core.ingest.pdf.running import running_lines
from cgx_core.ingest.pdf.sections import PrintedHeading, printed_headings, without_heading_text
from cgx_core.ingest.pdf.superscripts import with_superscript_citations

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import PdfDocument

_TEX_LIGATURES = {27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl"}
_OT1_NOT_ASCII = frozenset(b'"<>\\^_{|}~')
"""Codes where TeX's OT1 text encoding differs from ASCII (quotes, inverted marks, dashes, accents): not read."""
_ASCII_IN_TEX = frozenset(range(0x21, 0x7F)) - _OT1_NOT_ASCII
_LOCK = threading.Lock()
_MOST_UNREAD = 0.3
"""A text font's unmapped glyphs are mostly codes TeX's encoding reads (accents and quotes are the rest)."""
_FEW_LETTERS = 5
_FEW_GLYPHS = 3
"""A font with fewer unmapped glyphs on a page (an accent, a page number) does not decide: too few to judge."""
_VOWELS = 0.2
"""Of a text font's letters, at least this share are vowels (English prose has about 38%)."""


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
    """credencegraph's chunks, one-line equations written as LaTeX (cgx_core.ingest.pdf.equations), a
    printed reference list and its citations added (cgx_core.ingest.pdf.author_year), words split at a
    line's end joined (cgx_core.ingest.pdf.hyphens), superscript citations added
    (cgx_core.ingest.pdf.superscripts), numbered headings cut from the sentences they were glued to
    (cgx_core.ingest.pdf.sections)."""
    superscript_citations: int = 0
    superscripts_left: tuple[str, ...] = ()
    """Each raised number in a sentence not read as a citation, with why (see superscripts)."""
    printed: PrintedList = attrs.field(factory=PrintedList)
    """The reference list read from its printed form when credencegraph read no `[n]` list (reference_list)."""
    furniture: tuple[str, ...] = ()
    """The sidebars, masthead and first-page imprint lines removed (cgx_core.ingest.pdf.furniture)."""
    listings: tuple[str, ...] = ()
    """The lines of file and folder listings removed (cgx_core.ingest.pdf.listings)."""
    headings: tuple[PrintedHeading, ...] = ()
    """The numbered section headings as printed (cgx_core.ingest.pdf.sections)."""
    links: tuple[Link, ...] = ()
    """The links to web addresses, where a reference list gives a DOI it does not print (cgx_core.ingest.pdf.links)."""


def _made_by_tex(document: Any) -> bool:
    metadata = document.get_metadata_dict()
    return any("tex" in metadata.get(name, "").lower() for name in ("Producer", "Creator"))


def _reads_as_prose(codes: Counter[int]) -> bool:
    """Whether a font's unmapped codes on a page, read by TeX's encoding, are a text font's: mostly codes it
    reads, and words with vowels. A symbol font's are not: most of CMSY's codes are below 32 (minus, times,
    bullet), and its letters are no words. A font with fewer than `_FEW_LETTERS` letters on a page (page
    numbers) is judged by the first rule alone, so a bitmap symbol font seen only as its `0x31` (the infinity
    sign) on every page would be read as `1`: a PDF TeX sets with bitmap maths fonts and no other symbol."""
    total = sum(codes.values())
    unread = sum(count for code, count in codes.items() if _tex_decoded(code) is None)
    letters = sum(count for code, count in codes.items() if chr(code).isalpha() and code in _ASCII_IN_TEX)
    vowels = sum(count for code, count in codes.items() if chr(code) in "aeiouAEIOU")
    if unread > _MOST_UNREAD * total:
        return False
    return letters < _FEW_LETTERS or vowels >= _VOWELS * letters


def _tex_bitmap_text(path: Path) -> bool:
    """Whether to read unmapped glyphs by TeX's encoding: the PDF was made by TeX, and every font with
    unmapped glyphs (counted page by page) reads as prose. One font that does not keeps the whole PDF as
    credencegraph reads it: a symbol read as a digit would be a false number."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError:
        return False  # credencegraph's reader refuses it next, with its own message
    with document:
        if not _made_by_tex(document):
            return False
        fonts: dict[tuple[int, int | None], Counter[int]] = defaultdict(Counter)
        for number in range(len(document)):
            page = document[number]
            textpage = page.get_textpage()
            raw = textpage.raw
            for index in range(pdfium_c.FPDFText_CountChars(raw)):
                if pdfium_c.FPDFText_HasUnicodeMapError(raw, index):
                    font = pdfium_c.FPDFTextObj_GetFont(pdfium_c.FPDFText_GetTextObject(raw, index))
                    fonts[(number, ctypes.cast(font, ctypes.c_void_p).value)][
                        pdfium_c.FPDFText_GetUnicode(raw, index)
                    ] += 1
            textpage.close()
            page.close()
    return all(_reads_as_prose(codes) for codes in fonts.values() if sum(codes.values()) >= _FEW_GLYPHS)


@contextmanager
def _without_page_furniture(removed: list[str], furniture: list[str], listings: list[str]) -> Iterator[None]:
    """Drop running heads, feet and page numbers (`removed`), sidebars, the masthead and the first page's
    imprint (`furniture`), and listings of files (`listings`), from the lines before credencegraph builds
    blocks from them (its `_blocks` receives the list its layout and result read next: see the module's
    docstring)."""
    import credencegraph.ingest.pdf as reader

    original: Callable[..., Any] = reader._blocks

    def blocks(lines: list[Any]) -> Any:
        running = running_lines(lines)
        extra = furniture_lines(lines) - running
        listed = listing_lines(lines) - running - extra
        removed.extend(lines[index].text for index in sorted(running))
        furniture.extend(lines[index].text for index in sorted(extra))
        listings.extend(lines[index].text for index in sorted(listed))
        dropped = running | extra | listed
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
    furniture: list[str] = []
    listings: list[str] = []
    tex = _tex_bitmap_text(path)
    with _LOCK, _without_page_furniture(removed, furniture, listings):
        if tex:
            with _tex_text(counter):
                analysis = analyse_pdf(path)
        else:
            analysis = analyse_pdf(path)
    unreadable = sum(line.text.count(REPLACEMENT) for line in analysis.lines)
    read = decoder(tex=tex)
    chunks, printed = with_printed_references(analysis, rewritten(path, analysis.chunks, read))
    numbers = frozenset(reference.number for reference in analysis.references) or printed.numbers
    superscripts = with_superscript_citations(path, numbers, dehyphenated(chunks, analysis.lines), read)
    headings = printed_headings(analysis.lines)
    return PdfReading(
        analysis,
        counter[0],
        unreadable,
        tuple(removed),
        tuple(without_heading_text(superscripts.chunks, headings)),
        superscripts.read,
        superscripts.left,
        printed,
        tuple(furniture),
        tuple(listings),
        headings,
        read_links(path),
    )
