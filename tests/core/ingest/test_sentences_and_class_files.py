r"""Ingestion reads a paper's sentences and front matter as a reader does: no sentence ends after "c.",
"ca.", "approx." and the other abbreviations, and the files a class loads itself (ReScience's
`metadata.tex`: the abstract, the dates) are chunks, read within the paper's root."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgx_core.ingest.documents import read_document
from cgx_core.ingest.sentences import mend_sentences


def sentences(tmp_path: Path, body: str) -> list[str]:
    main = tmp_path / "main.tex"
    main.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", encoding="utf-8")
    return [chunk.text for chunk in read_document(main).chunks if chunk.unit == "sentence"]


@pytest.mark.parametrize(
    "sentence",
    [
        "The model reached c. 9\\% of the sites.",
        "Training took ca. 10 GPU hours in all.",
        "Each run used approx. 4 GB of memory.",
        "Some methods, e.g. ResNet, were slower.",
        "This holds, i.e. Alice wins.",
        "The map (cf. Fig. 3) shows it.",
        "As Eq. 4 shows, the sum converges.",
        "The model reached c.~$9$\\% of the sites.",
    ],
)
def test_no_sentence_ends_after_an_abbreviation(tmp_path: Path, sentence: str) -> None:
    assert sentences(tmp_path, f"First sentence here. {sentence} Last one.") == [
        "First sentence here.",
        sentence,
        "Last one.",
    ]


def test_a_sentence_that_ends_with_a_variable_named_c_still_ends(tmp_path: Path) -> None:
    assert sentences(tmp_path, "The constants are a, b and c. The next one is d.") == [
        "The constants are a, b and c.",
        "The next one is d.",
    ]


def test_mended_chunks_keep_their_lines_and_citations_in_order() -> None:
    from credencegraph.ingest import Chunk

    first = Chunk("sentence", "It took approx.", "file=a.tex;lines=3-3", ("x",))
    second = Chunk("sentence", "4 days \\cite{y}.", "file=a.tex;lines=4-5", ("y", "x"))
    last = Chunk("sentence", "Done approx.", "file=a.tex;lines=6-6")
    other = Chunk("sentence", "5 more.", "file=b.tex;lines=1-1")  # another file: no sentence spans two files
    assert mend_sentences([first, second, last, other]) == (
        Chunk("sentence", "It took approx. 4 days \\cite{y}.", "file=a.tex;lines=3-5", ("x", "y")),
        last,
        other,
    )
