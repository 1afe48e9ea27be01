"""PDFs made for the hard cases: text placed where a test says, in Helvetica (bold on request), raised on request."""

from __future__ import annotations

from collections.abc import Sequence

import attrs


@attrs.frozen
class Text:
    """One run of text at (x, y) in points, `size` points high, raised `rise` points (a superscript)."""

    x: float
    y: float
    text: str
    size: float = 10.0
    bold: bool = False
    rise: float = 0.0
    mono: bool = False
    """Set in Courier, a typewriter font, as code and file names are."""
    after: tuple[tuple[str, float, float], ...] = ()
    """Runs set right after this one, on from where it ends, each as (text, size, rise): `before` then a
    raised `12` glued to it, as a journal prints a superscript citation."""


@attrs.frozen
class Link:
    """A link annotation to `uri` over the rectangle (left, bottom, right, top) in points, as a journal's
    PDF links an entry's journal reference to its DOI."""

    box: tuple[float, float, float, float]
    uri: str


def placed_pdf(pages: Sequence[Sequence[Text]], links: Sequence[Sequence[Link]] = ()) -> bytes:
    """A valid PDF 1.4 (cross-reference offsets exact) with each run of text where it is placed, and on each
    page the links `links` gives it."""
    count = len(pages)
    annotations: list[bytes] = []
    page_annotations: list[str] = []
    for index in range(count):
        numbers = []
        for link in links[index] if index < len(links) else ():
            numbers.append(f"{5 + 2 * count + len(annotations)} 0 R")
            rect = " ".join(str(value) for value in link.box)
            action = f"<< /S /URI /URI ({link.uri}) >>"
            annotations.append(f"<< /Type /Annot /Subtype /Link /Rect [{rect}] /Border [0 0 0] /A {action} >>".encode())
        page_annotations.append(f" /Annots [{' '.join(numbers)}]" if numbers else "")
    kids = " ".join(f"{5 + 2 * index} 0 R" for index in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    ]
    typewriter = ""  # Courier, only in a PDF that sets a run in it (every other PDF keeps its bytes)
    if any(run.mono for runs in pages for run in runs):
        typewriter = f" /F3 {5 + 2 * count + len(annotations)} 0 R"
    for index, runs in enumerate(pages):
        operators = []
        for run in runs:
            escaped = run.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            font = "/F3" if run.mono else "/F2" if run.bold else "/F1"
            shown = f"{font} {run.size} Tf {run.rise} Ts ({escaped}) Tj"
            for text, size, rise in run.after:
                piece = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                shown += f" {font} {size} Tf {rise} Ts ({piece}) Tj"
            operators.append(f"BT {run.x} {run.y} Td {shown} ET")
        stream = "\n".join(operators).encode("cp1252")
        objects.append(
            (
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                f"/Resources << /Font << /F1 3 0 R /F2 4 0 R{typewriter} >> >> /Contents {6 + 2 * index} 0 R"
                f"{page_annotations[index]} >>"
            ).encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.extend(annotations)
    if typewriter:
        objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def unmapped_pdf(codes: bytes, producer: str = "pdfTeX-1.40.24") -> bytes:
    """A one-line PDF whose font maps every code to a glyph name with no Unicode (`/g65`), as a bitmap font
    TeX sets has none: PDFium flags each glyph as unmapped and reports its code. `producer` is the Info's."""
    names = " ".join(f"/g{code}" for code in range(256))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [0 {names}] >> >>".encode(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
        b"/Contents 5 0 R >>",
    ]
    escaped = codes.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    stream = b"BT /F1 12 Tf 72 700 Td (" + escaped + b") Tj ET"
    objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(f"<< /Producer ({producer}) >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        len(objects),
        xref,
    )
    return bytes(out)
