r"""Ingestion reads a paper's sentences and front matter as a reader does: no sentence ends after "c.",
"ca.", "approx." and the other abbreviations, and the files a class loads itself (ReScience's
`metadata.tex`: the abstract, the dates) are chunks, read within the paper's root."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgx_core.audit.replay import replay
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.sentences import mend_sentences
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


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


METADATA = r"""\def \articleTITLE{[Re] A Replication of Something}
\def \dateRECEIVED{07 February 2020}
\def \codeURL{https://example.org/code}
\def \journalNAME{ReScience C}
\def \articleABSTRACT{We reproduce the model. It took c. 10 GPU hours in all.}
\newcommand{\articleKEYWORDS}{replication, ecology, chaos}
"""
ARTICLE = "\\documentclass{rescience}\n\\begin{document}\nThe body says 12 things.\n\\end{document}\n"


def class_paper(folder: Path, *, local_class: str | None = None, metadata: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "article.tex").write_text(ARTICLE, encoding="utf-8")
    if metadata:
        (folder / "metadata.tex").write_text(METADATA, encoding="utf-8")
    if local_class is not None:
        (folder / "rescience.cls").write_text(local_class, encoding="utf-8")
    return folder / "article.tex"


FRONT = [
    "\\articleTITLE: [Re] A Replication of Something",
    "\\dateRECEIVED: 07 February 2020",
    "\\articleABSTRACT: We reproduce the model.",
    "It took c. 10 GPU hours in all.",
    "\\articleKEYWORDS: replication, ecology, chaos",
    "The body says 12 things.",
]


def test_the_file_a_class_in_the_folder_inputs_gives_the_abstract_and_dates_as_chunks(tmp_path: Path) -> None:
    main = class_paper(tmp_path, local_class="\\ProvidesClass{rescience}\n\\input{metadata.tex}\n% \\input{other}\n")
    document = read_document(main)
    assert [chunk.text for chunk in document.chunks] == FRONT
    assert [item.name for item in document.files] == ["article.tex", "rescience.cls", "metadata.tex"]
    assert document.chunks[2].locator == "file=metadata.tex;lines=5-5"


def test_a_known_class_installed_with_tex_still_reads_its_metadata_file(tmp_path: Path) -> None:
    assert [chunk.text for chunk in read_document(class_paper(tmp_path)).chunks] == FRONT


def test_a_file_a_class_names_that_is_missing_or_outside_the_root_is_listed_as_not_followed(tmp_path: Path) -> None:
    missing = read_document(class_paper(tmp_path / "a", metadata=False))
    assert [chunk.text for chunk in missing.chunks] == ["The body says 12 things."]
    assert missing.not_followed == ("\\input{metadata.tex} (loaded by rescience.cls: no such file)",)
    (tmp_path / "secret.tex").write_text("\\def\\leak{Zanzibar marker from outside the root}\n", encoding="utf-8")
    outside = read_document(class_paper(tmp_path / "b", local_class="\\input{../secret.tex}\n"))
    assert all("Zanzibar" not in chunk.text for chunk in outside.chunks)
    assert outside.not_followed == ("\\input{../secret.tex} (loaded by rescience.cls: outside-root)",)


def test_a_rescience_paper_starts_with_its_abstract_and_replays(tmp_path: Path, papers: Path) -> None:
    main = papers / "hastings-powell-replication" / "article" / "article.tex"
    run = tmp_path / "run"
    arguments = {"run": str(run), "paper": str(main), "rubric": str(RUBRIC), "model": "m", "store_source": True}
    started, is_error = call_tool("start_run", arguments)
    assert not is_error, started
    texts = [node["text"] for node in call_tool("get_state", {"run": str(run), "limit": 40})[0]["nodes"]]
    assert any("\\articleABSTRACT: Hastings \\& Powell's model describing chaos" in text for text in texts)
    assert any("\\dateRECEIVED: 07 February 2020" in text for text in texts)
    assert "metadata.tex" in [item["name"] for item in started["document"]["files"]["first"]]
    assert replay(run, source=None, sources=None).identical


def test_a_class_file_that_links_outside_the_root_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "outside.cls").write_text("\\input{metadata.tex}\n", encoding="utf-8")
    main = class_paper(tmp_path / "paper")
    (tmp_path / "paper" / "rescience.cls").symlink_to(tmp_path / "outside.cls")
    document = read_document(main)
    assert [chunk.text for chunk in document.chunks] == ["The body says 12 things."]
    assert document.not_followed == ("rescience.cls (loaded by article.tex: outside-root)",)
