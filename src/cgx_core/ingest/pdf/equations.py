r"""A PDF's one-line display equations written as the LaTeX the maths check reads, from the glyphs' fonts and
positions.

credencegraph's reader gives an equation's text as its glyphs in a row, so `a_1^2` came out `a12` and
`q^{-1}` came out `q` minus `1`: copied into a check, that is other mathematics than the paper's, and a check of it
could fail where the paper is right. Each glyph of a PDF carries its font size and baseline, so a script is
seen: a glyph smaller than `_SCRIPT_SIZE` of the equation's size is a superscript when its baseline is
raised by `_RAISED` of that size, a subscript when lowered by `_LOWERED`. The equation is then written

* scripts as `^{...}` and `_{...}`, a run of them in one group (`a_{1}^{2}`);
* Unicode maths as LaTeX: Greek letters as `\alpha`, the minus sign as `-`, the middle dot as `\cdot`, the
  multiplication sign as `\times`, and `\le`, `\sum`, `\int`, `\sqrt`, `\partial`, `\in`, ... (`_COMMANDS`);
* a function name set upright (`sin`, `cos`, `exp`, `log`, `tanh`, ...) as its command, `\cos`.

Only an equation whose main-size glyphs stand on one baseline is rewritten: a fraction or a matrix, set on
several, keeps credencegraph's text, which the maths check's LaTeX route refuses as not the paper's text
rather than read a stacked fraction as a product. So does an equation with a glyph that has no Unicode.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from cgx_core.ingest.pdf.boxes import Box, centre_in, first_box

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

_SCRIPT_SIZE = 0.85
_RAISED = 0.15
_LOWERED = 0.05
_SAME_BASELINE = 0.3
_NUMBER_GAP = 3.0
_EQUATION_NUMBER = re.compile(r"\([A-Z]?\d+[a-z]?\)")
_UPRIGHT = re.compile(r"CMR|CMBX|Roman|Regu|Medi", re.IGNORECASE)
_FUNCTIONS = frozenset(
    {"sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "exp", "log", "ln", "max", "min", "arg"}
    | {"arcsin", "arccos", "arctan", "det", "lim", "sup", "inf"}
)
_CAPITALS = frozenset({"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega"})


def _greek() -> dict[str, str]:
    """Each Greek letter LaTeX has a command for, by its Unicode name (`lamda` is LaTeX's `lambda`; final
    sigma and omicron have none)."""
    out: dict[str, str] = {}
    for code in [*range(0x391, 0x3AA), *range(0x3B1, 0x3CA)]:
        words = unicodedata.name(chr(code), "").split()
        name = words[-1].lower().replace("lamda", "lambda") if words else ""
        if words and words[1] == "CAPITAL":
            name = name.capitalize()
        if name and name not in ("omicron", "final") and (words[1] == "SMALL" or name in _CAPITALS):
            out[chr(code)] = name
    out["\N{GREEK LUNATE EPSILON SYMBOL}"] = "epsilon"
    out["\N{GREEK THETA SYMBOL}"] = "vartheta"
    out["\N{GREEK PHI SYMBOL}"] = "phi"
    return out


_SYMBOLS = {
    "\N{MINUS SIGN}": "-", "\N{MIDDLE DOT}": "\\cdot", "\N{DOT OPERATOR}": "\\cdot",
    "\N{MULTIPLICATION SIGN}": "\\times", "\N{LESS-THAN OR EQUAL TO}": "\\le",
    "\N{GREATER-THAN OR EQUAL TO}": "\\ge", "\N{NOT EQUAL TO}": "\\ne", "\N{ALMOST EQUAL TO}": "\\approx",
    "\N{INFINITY}": "\\infty", "\N{PARTIAL DIFFERENTIAL}": "\\partial", "\N{N-ARY SUMMATION}": "\\sum",
    "\N{INTEGRAL}": "\\int", "\N{SQUARE ROOT}": "\\sqrt", "\N{ELEMENT OF}": "\\in",
    "\N{PLUS-MINUS SIGN}": "\\pm", "\N{RIGHTWARDS ARROW}": "\\to", "\N{ASTERISK OPERATOR}": "*",
    "\N{STAR OPERATOR}": "\\star", "\N{NABLA}": "\\nabla",
}  # fmt: skip
_LIGATURES = frozenset("\ufb00\ufb01\ufb02\ufb03\ufb04")
_ATTACHES = re.compile(r"(?:[A-Za-z0-9)\]}|]|\\[A-Za-z]+)$")
"""What a script may follow: a letter, digit, closing bracket or command (`x_{1}`, `(a+b)^{2}`, `\\alpha_{i}`)."""
_COMMANDS = {**{char: "\\" + name for char, name in _greek().items()}, **_SYMBOLS}


@attrs.frozen
class Glyph:
    text: str
    x: float
    baseline: float
    size: float
    upright: bool


def page_glyphs(page: object, decode: Callable[[int, bool], str | None]) -> list[tuple[Box, Glyph | None]]:
    """Every glyph of a page with its box, read once; None for a glyph with no Unicode."""
    import pypdfium2.raw as pdfium_c

    textpage = page.get_textpage()  # type: ignore[attr-defined]
    raw = textpage.raw
    buffer = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    found: list[tuple[Box, Glyph | None]] = []
    try:
        for index in range(pdfium_c.FPDFText_CountChars(raw)):
            code = pdfium_c.FPDFText_GetUnicode(raw, index)
            unmapped = bool(pdfium_c.FPDFText_HasUnicodeMapError(raw, index))
            if pdfium_c.FPDFText_IsGenerated(raw, index) or (not unmapped and (chr(code).isspace() or code < 0x20)):
                continue
            box = textpage.get_charbox(index)
            text = decode(code, unmapped)
            if text is None:
                found.append((box, None))
                continue
            text = unicodedata.normalize("NFKC", text) if text in _LIGATURES else text
            x, y = ctypes.c_double(), ctypes.c_double()
            pdfium_c.FPDFText_GetCharOrigin(raw, index, ctypes.byref(x), ctypes.byref(y))
            pdfium_c.FPDFText_GetFontInfo(raw, index, buffer, len(buffer), ctypes.byref(flags))
            font = buffer.value.decode("utf-8", "replace")
            size = float(pdfium_c.FPDFText_GetFontSize(raw, index))
            found.append((box, Glyph(text, x.value, y.value, size, bool(_UPRIGHT.search(font)))))
    finally:
        textpage.close()
    return found


def pages_glyphs(
    path: Path, numbers: Iterable[int] | None, decode: Callable[[int, bool], str | None]
) -> Iterator[tuple[int, list[tuple[Box, Glyph | None]], float]]:
    """Each page's number (from 1), glyphs and height, for the pages `numbers` names (None: every page)."""
    import pypdfium2 as pdfium

    with pdfium.PdfDocument(path) as document:
        for number in range(1, len(document) + 1) if numbers is None else numbers:
            page = document[number - 1]
            try:
                yield number, page_glyphs(page, decode), page.get_height()
            finally:
                page.close()


def _in_region(page: Sequence[tuple[Box, Glyph | None]], region: Box) -> list[Glyph] | None:
    """The glyphs whose box's centre is in `region`, or None when one of them has no Unicode."""
    found: list[Glyph] = []
    for box, glyph in page:
        if centre_in(box, region, slack=1.0):
            if glyph is None:
                return None
            found.append(glyph)
    return found


def _latex(glyphs: Sequence[Glyph], labels: Sequence[str]) -> str | None:
    """The equation's LaTeX without its printed numbers, or None when its main-size glyphs stand on more than
    one baseline or a script follows no base."""
    if not glyphs:
        return None
    try:
        text = _written(glyphs)
    except _Unattached:
        return None
    if text is None:
        return None
    for label in labels:
        text = re.sub(rf"\s*\({re.escape(label)}\)\s*$", "", text)
    return text


def _written(glyphs: Sequence[Glyph]) -> str | None:
    size = Counter(round(glyph.size, 1) for glyph in glyphs).most_common(1)[0][0]
    main = [glyph for glyph in glyphs if glyph.size >= _SCRIPT_SIZE * size]
    base = main[0].baseline
    if any(abs(glyph.baseline - base) > _SAME_BASELINE * size for glyph in main):
        return None
    pieces: list[tuple[str, str]] = []  # (kind, text): kind is "", "^" or "_"
    run: list[Glyph] = []
    for glyph in _without_number(sorted(glyphs, key=lambda item: item.x), size):
        kind = ""
        if glyph.size < _SCRIPT_SIZE * size:
            if glyph.baseline > base + _RAISED * size:
                kind = "^"
            elif glyph.baseline < base - _LOWERED * size:
                kind = "_"
        if kind == "" and glyph.upright and glyph.text.isalpha():
            run.append(glyph)
            continue
        _flush(run, pieces)
        run = []
        _add(pieces, kind, _COMMANDS.get(glyph.text, glyph.text))
    _flush(run, pieces)
    return _joined(pieces)


def _without_number(glyphs: list[Glyph], size: float) -> list[Glyph]:
    """The glyphs without an equation number `(n)` set apart at the right (`_NUMBER_GAP` sizes or more)."""
    for cut in range(len(glyphs) - 1, 0, -1):
        if glyphs[cut].x - glyphs[cut - 1].x >= _NUMBER_GAP * size:
            tail = "".join(glyph.text for glyph in glyphs[cut:])
            return glyphs[:cut] if _EQUATION_NUMBER.fullmatch(tail) else glyphs
    return glyphs


def _flush(run: list[Glyph], pieces: list[tuple[str, str]]) -> None:
    """Upright letters: a function's name as its command, other letters as they are."""
    word = "".join(glyph.text for glyph in run)
    if word:
        _add(pieces, "", f"\\{word}" if word in _FUNCTIONS else word)


class _Unattached(Exception):
    """A script that follows no base (a small fraction's numerator read as a superscript): not rewritten."""


def _add(pieces: list[tuple[str, str]], kind: str, text: str) -> None:
    if pieces and pieces[-1][0] == kind and kind:
        pieces[-1] = (kind, pieces[-1][1] + _spaced(pieces[-1][1], text))
        return
    if kind and not (pieces and (pieces[-1][0] or _ATTACHES.search(pieces[-1][1]))):
        raise _Unattached
    pieces.append((kind, text))


def _spaced(before: str, text: str) -> str:
    """`text` after `before`, with a space where a command would otherwise run into a letter."""
    return f" {text}" if re.search(r"\\[A-Za-z]+$", before) and text[:1].isalpha() else text


def _joined(pieces: Sequence[tuple[str, str]]) -> str:
    out = ""
    for kind, text in pieces:
        out += f"{kind}{{{text}}}" if kind else _spaced(out, text)
    return " ".join(re.sub(r"\s*([=<>])\s*", r" \1 ", out).split())


def rewritten(path: Path, chunks: Sequence[Chunk], decode: Callable[[int, bool], str | None]) -> list[Chunk]:
    """The chunks with each one-line equation's text written as LaTeX (see the module's docstring); each page
    with equations is read once."""
    import dataclasses

    by_page: dict[int, list[tuple[int, Box]]] = {}
    for index, chunk in enumerate(chunks):
        located = first_box(chunk.locator) if chunk.unit == "equation" and ";page=" not in chunk.locator else None
        if located is not None:
            by_page.setdefault(located[0], []).append((index, located[1]))
    out = list(chunks)
    if not by_page:
        return out
    for number, glyphs, _ in pages_glyphs(path, sorted(by_page), decode):
        for index, region in by_page[number]:
            found = _in_region(glyphs, region)
            text = _latex(found, chunks[index].labels) if found is not None else None
            if text:
                out[index] = dataclasses.replace(chunks[index], text=text)
    return out
