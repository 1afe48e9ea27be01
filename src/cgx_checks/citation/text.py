"""The text of a source, extracted from its bytes the same way every time.

A citation check searches this text for the agent's passage, and replay extracts it again from the
recorded bytes and compares digests, so extraction must be a pure function of the bytes (and, for
a fetched text page, the charset its server declared): no encoding guesses, no network, no clock.

* `.txt`: UTF-8 (a BOM is dropped), or the charset the server declared for a fetched page.
* `.tex`: UTF-8, turned into text by pylatexenc's `LatexNodes2Text`, so `\\emph{x}` reads `x`.
  Character ranges are into that text, not into the LaTeX.
* `.pdf`: pypdfium2, page by page, from memory. Pages are joined by a form feed, and `pages`
  records each page's character range so a passage can be placed on its page.
* HTML: BeautifulSoup with the standard library's `html.parser` (no optional parser whose presence
  could change the result); `script`, `style` and `template` are dropped and block elements are
  separated by line breaks so words of adjacent paragraphs do not run together. The bytes are
  decoded as UTF-8 unless the server declared another charset; a `<meta charset>` is not read,
  because guessing from the content is what makes extraction differ between machines.
"""

from __future__ import annotations

import codecs
from typing import Final, Literal, get_args

import attrs

from cgx_checks.citation.codes import CitationCode
from cgx_core.errors import CgxError

type Kind = Literal["txt", "tex", "pdf", "html"]
KINDS: Final[tuple[Kind, ...]] = get_args(Kind.__value__)

PAGE_SEPARATOR: Final = "\f"

_KIND_OF_TYPE: Final[dict[str, Kind]] = {
    "text/plain": "txt",
    "text/x-tex": "tex",
    "text/x-latex": "tex",
    "application/x-tex": "tex",
    "application/x-latex": "tex",
    "application/pdf": "pdf",
    "text/html": "html",
    "application/xhtml+xml": "html",
}
_KIND_OF_SUFFIX: Final[dict[str, Kind]] = {
    ".txt": "txt",
    ".tex": "tex",
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
}
_DROPPED_TAGS: Final = ("script", "style", "template")
_BLOCK_TAGS: Final = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "br",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "ul",
    ]
)


@attrs.frozen
class SourceText:
    """The extracted text, and for a PDF the character range `[start, end)` of each page in it."""

    text: str
    pages: tuple[tuple[int, int], ...] = ()

    def page_of(self, offset: int) -> int | None:
        """The 1-based page holding character `offset`, or None for a source without pages."""
        for number, (start, end) in enumerate(self.pages, start=1):
            if start <= offset < end:
                return number
        return None


def media_type(header: str | None) -> tuple[str, str | None]:
    """A Content-Type header's media type (lower-case, no parameters) and its charset parameter, if any."""
    if header is None:
        return "", None
    media, *params = header.split(";")
    charset = None
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            charset = value.strip().strip('"').lower() or None
    return media.strip().lower(), charset


def kind_for(content_type_or_filename: str) -> Kind:
    """The kind of a source from its media type (`text/html; charset=...`) or its file name (`key.pdf`)."""
    value = content_type_or_filename.strip()
    media = value.split(";", 1)[0].strip().lower()
    if media in _KIND_OF_TYPE:
        return _KIND_OF_TYPE[media]
    lowered = value.lower()
    for suffix, kind in _KIND_OF_SUFFIX.items():
        if lowered.endswith(suffix):
            return kind
    raise CgxError(
        CitationCode.SOURCE_UNREADABLE,
        f"{value!r} is not a kind of source the tool reads (text, LaTeX, PDF or HTML)",
    )


def _decode(data: bytes, charset: str | None, what: str) -> str:
    name = "utf-8" if charset is None else charset
    try:
        codec = codecs.lookup(name)
    except LookupError as exc:
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"the {what} declares an unknown charset {charset!r}") from exc
    if codec.name == "utf-8" and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode(codec.name)
    except LookupError as exc:  # a bytes-to-bytes or str-to-str codec such as rot13 or hex
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"the {what} declares {charset!r}: not a text encoding") from exc
    except UnicodeDecodeError as exc:
        raise CgxError(
            CitationCode.SOURCE_UNREADABLE,
            f"the {what} is not valid {codec.name} at byte {exc.start}; the tool reads UTF-8 text",
        ) from exc


# pylatexenc, PDFium and BeautifulSoup are imported by the kind that needs them, never by a check that reads
# a text file: importing all three costs more than reading most sources.


def _tex_text(data: bytes) -> str:
    from pylatexenc.latex2text import LatexNodes2Text

    latex = _decode(data, None, "LaTeX source")
    try:
        return str(LatexNodes2Text().latex_to_text(latex))
    except Exception as exc:  # pylatexenc on hostile input: any failure is an unreadable source
        raise CgxError(
            CitationCode.SOURCE_UNREADABLE, f"pylatexenc cannot read the LaTeX source: {type(exc).__name__}"
        ) from exc


def _pdf_text(data: bytes) -> SourceText:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(data)
    except Exception as exc:  # PdfiumError and friends: the bytes are not a PDF PDFium opens
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"PDFium cannot open the PDF: {exc}") from exc
    try:
        texts: list[str] = []
        for index in range(len(document)):
            page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    texts.append(str(textpage.get_text_range()))
                finally:
                    textpage.close()
            finally:
                page.close()
    except CgxError:
        raise
    except Exception as exc:
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"PDFium cannot read the PDF's text: {exc}") from exc
    finally:
        document.close()
    pages: list[tuple[int, int]] = []
    offset = 0
    for number, page_text in enumerate(texts):
        if number:
            offset += len(PAGE_SEPARATOR)
        pages.append((offset, offset + len(page_text)))
        offset += len(page_text)
    return SourceText(text=PAGE_SEPARATOR.join(texts), pages=tuple(pages))


def _html_text(data: bytes, charset: str | None) -> str:
    from bs4 import BeautifulSoup
    from bs4.element import Comment, Declaration, Doctype, NavigableString, ProcessingInstruction, Tag

    not_text = (Comment, Declaration, Doctype, ProcessingInstruction)
    markup = _decode(data, charset, "HTML page")
    try:
        soup = BeautifulSoup(markup, "html.parser")
        for dropped in soup.find_all(_DROPPED_TAGS):
            dropped.decompose()
        parts: list[str] = []
        for node in soup.descendants:
            if isinstance(node, Tag):
                if node.name in _BLOCK_TAGS:
                    parts.append("\n")
            elif isinstance(node, NavigableString) and not isinstance(node, not_text):
                parts.append(str(node))
                parent = node.parent
                if parent is not None and parent.name in _BLOCK_TAGS and node.next_sibling is None:
                    parts.append("\n")
    except CgxError:
        raise
    except Exception as exc:  # html.parser on hostile markup: any failure is an unreadable source
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"the HTML page cannot be parsed: {type(exc).__name__}") from exc
    return "".join(parts)


def extract_text(data: bytes, kind: Kind, *, charset: str | None = None) -> SourceText:
    """The text of a source's bytes; `charset` is the one a server declared for a fetched txt or HTML page.

    Raises `source-unreadable` for bytes that are not valid in their encoding, a PDF PDFium cannot
    open, or a source with no text at all (a scanned PDF without a text layer, an empty page).
    """
    if kind == "txt":
        source = SourceText(text=_decode(data, charset, "text file"))
    elif kind == "tex":
        source = SourceText(text=_tex_text(data))
    elif kind == "pdf":
        source = _pdf_text(data)
    elif kind == "html":
        source = SourceText(text=_html_text(data, charset))
    else:
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"{kind!r} is not a kind of source (one of {', '.join(KINDS)})")
    if not source.text.strip():
        raise CgxError(CitationCode.SOURCE_UNREADABLE, f"no text could be extracted from the {kind} source")
    return source
