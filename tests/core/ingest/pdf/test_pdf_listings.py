"""A listing of files and folders set in a typewriter font (a project's directory) is neither equations nor
sentences: its lines are removed before blocks are built, and counted in `document.limits`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pdf_maker import Text, placed_pdf

from cgx_core.ingest.documents import read_document
from cgx_core.ingest.pdf.limits import pdf_limits
from cgx_core.ingest.pdf.tables import read_pdf_tables

PROSE = [
    Text(72, 700, "The project's folder held the scripts and the data of three analyses, made months apart."),
    Text(72, 686, "Nobody had written down which of the folders held the analysis that the paper reported."),
]
LISTING = [
    Text(72, 660, "class_problems.txt", size=7, mono=True),
    Text(200, 660, "findTA.pl*", size=7, mono=True),
    Text(300, 660, "Randomness/", size=7, mono=True),
    Text(72, 651, "Converge/", size=7, mono=True),
    Text(200, 651, "mindGaps.pl*", size=7, mono=True),
    Text(300, 651, "Rawdata/", size=7, mono=True),
    Text(72, 642, "exploreSeq.pl*", size=7, mono=True),
]
AFTER = [
    Text(72, 620, "The method was implemented in a combination of R and C, and assembled as an R package."),
    Text(72, 606, "Its scripts were run again from the folder of the last analysis, which the paper reports."),
]


def read(tmp_path: Path, runs: list[Text]) -> tuple[list[Any], dict[str, Any]]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([runs]))
    document = read_document(path)
    assert document.pdf is not None
    limits = pdf_limits(document.pdf, read_pdf_tables(document.pdf.analysis, document.chunks), document.chunks)
    return list(document.chunks), limits


def test_a_listing_of_files_is_removed_and_counted(tmp_path: Path) -> None:
    chunks, limits = read(tmp_path, [*PROSE, *LISTING, *AFTER])
    assert [chunk.unit for chunk in chunks if chunk.unit == "equation"] == []
    texts = " ".join(chunk.text for chunk in chunks)
    assert "Randomness/" not in texts and "exploreSeq" not in texts
    assert any(chunk.text.startswith("The method was implemented") for chunk in chunks)
    assert limits["listing_lines_removed"] == 7


def test_one_name_alone_names_in_the_body_font_and_code_are_kept(tmp_path: Path) -> None:
    kept = [
        Text(72, 672, "Randomness/", size=7, mono=True),  # one name alone in its font on its page
        Text(72, 658, "Converge/ Rawdata/ Sims/", size=10),  # names, but in the body's font
        Text(72, 646, "x = y/2", size=7, mono=True),  # code, not names
        Text(72, 637, "return 1.5", size=7, mono=True),
    ]
    chunks, limits = read(tmp_path, [*PROSE, *kept, *AFTER])
    texts = " ".join(chunk.text for chunk in chunks)
    assert "Randomness/" in texts and "Converge/ Rawdata/ Sims/" in texts and "x = y/2" in texts
    assert limits["listing_lines_removed"] == 0
