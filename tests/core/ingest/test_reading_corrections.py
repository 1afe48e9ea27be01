r"""What credencegraph's reader gets wrong and ingestion corrects (issues 37 and 39): initials are not sentence
ends while a sentence ending in an abbreviation-like word is still split, revtex's `\onlinecite` cites, and a
macro expanded without its optional argument keeps the space before what follows (`\partial r`)."""

from __future__ import annotations

from pathlib import Path

from cgx_core.ingest.documents import read_document


def chunks(tmp_path: Path, body: str, preamble: str = "") -> list[tuple[str, str, tuple[str, ...]]]:
    main = tmp_path / "main.tex"
    main.write_text(
        f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", encoding="utf-8"
    )
    return [(chunk.unit, chunk.text, chunk.cites) for chunk in read_document(main).chunks]


def sentences(tmp_path: Path, body: str) -> list[str]:
    return [text for unit, text, _ in chunks(tmp_path, body) if unit == "sentence"]


def test_initials_are_not_sentence_ends(tmp_path: Path) -> None:
    assert sentences(tmp_path, "The method follows A. Andrew. M. MacDonald and colleagues wrote it. Next one.") == [
        "The method follows A. Andrew. M. MacDonald and colleagues wrote it.",
        "Next one.",
    ]


def test_a_sentence_that_ends_with_an_abbreviation_like_word_is_still_split(tmp_path: Path) -> None:
    assert sentences(tmp_path, "We fit the model in R. GLIM code. Next we report the results.") == [
        "We fit the model in R. GLIM code.",
        "Next we report the results.",
    ]


def test_onlinecite_cites_like_cite(tmp_path: Path) -> None:
    found = chunks(tmp_path, "Prior work~\\onlinecite{smith2020, jones2021} found it.")
    assert found == [
        ("sentence", "Prior work~\\onlinecite{smith2020, jones2021} found it.", ("smith2020", "jones2021"))
    ]


def test_a_space_that_separates_a_macro_from_its_argument_is_kept(tmp_path: Path) -> None:
    preamble = "\\newcommand{\\D}[1][]{\\partial#1}\n\\newcommand{\\E}{\\partial}"
    found = chunks(tmp_path, "A flux $\\D r + \\E r + \\D[t] u$ here.", preamble)
    assert found == [("sentence", "A flux $\\partial r + \\partial r + \\partial t u$ here.", ())]
