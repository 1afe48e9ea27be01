r"""The import package's macros read like `\input` (cgx_core.ingest.imports): an imported file's prose is in the
run's chunks, located in its own file, with the `\input`s it makes resolved from its import folder first, and a
macro naming no file of the paper listed as not followed; through start_run, then replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cgx_core.audit.replay import replay
from cgx_core.errors import CgxError
from cgx_core.ingest.documents import read_document
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
MAIN = r"""\documentclass{article}
\usepackage{import}
\begin{document}
The main file opens the paper.
% \import{sections/}{old.tex}
\import{sections/}{results.tex}
\subimport*{sections/}{discussion.tex}
\end{document}
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder / "main.tex"


def sentences(main: Path) -> list[tuple[str, str]]:
    return [(chunk.text, chunk.locator) for chunk in read_document(main).chunks if chunk.unit == "sentence"]


def test_an_imported_file_is_read_where_it_stands_in_its_own_file(tmp_path: Path) -> None:
    main = write(
        tmp_path,
        {
            "main.tex": MAIN,
            "sections/results.tex": "The accuracy was 93.2\\% \\cite{key}.\n\\input{table}\n",
            # an \input of an imported file names a file of its import folder first
            "sections/table.tex": "The table lists 12 subjects.\n",
            "table.tex": "A file beside the main file that the import does not mean.\n",
            "sections/discussion.tex": "We discuss the results.\n",
        },
    )
    document = read_document(main)
    assert [(chunk.text, chunk.locator) for chunk in document.chunks if chunk.unit == "sentence"] == [
        ("The main file opens the paper.", "file=main.tex;lines=4-4"),
        ("The accuracy was 93.2\\% \\cite{key}.", "file=sections/results.tex;lines=1-1"),
        ("The table lists 12 subjects.", "file=sections/table.tex;lines=1-1"),
        ("We discuss the results.", "file=sections/discussion.tex;lines=1-1"),
    ]
    assert document.chunks[1].cites == ("key",)
    assert document.not_followed == ()  # the commented-out import is neither read nor listed
    assert [item.name for item in document.files] == [
        "main.tex",
        "sections/results.tex",
        "sections/table.tex",
        "sections/discussion.tex",
    ]
    assert document.body_files == ("sections/results.tex", "sections/table.tex", "sections/discussion.tex")


def test_a_subimport_reads_relative_to_the_importing_file_and_an_import_to_the_main_file(tmp_path: Path) -> None:
    main = write(
        tmp_path,
        {
            "main.tex": MAIN.replace("\\subimport*{sections/}{discussion.tex}\n", ""),
            "sections/results.tex": "Results first.\n\\subimport{parts/}{detail}\n\\import{appendix/}{extra}\n",
            "sections/parts/detail.tex": "A detail of the results.\n",
            "appendix/extra.tex": "An extra from the main file's folder.\n",
        },
    )
    assert [text for text, _ in sentences(main)] == [
        "The main file opens the paper.",
        "Results first.",
        "A detail of the results.",
        "An extra from the main file's folder.",
    ]


def test_an_import_naming_no_file_of_the_paper_is_listed_and_the_rest_is_read(tmp_path: Path) -> None:
    main = write(tmp_path, {"main.tex": MAIN, "sections/results.tex": "Results are read.\n"})
    document = read_document(main)
    assert [chunk.text for chunk in document.chunks][:2] == ["The main file opens the paper.", "Results are read."]
    assert document.not_followed == ("\\subimport{sections/}{discussion.tex} (in main.tex: no file of the paper)",)


def test_an_input_an_imported_file_makes_that_names_no_file_is_refused_as_anywhere(tmp_path: Path) -> None:
    main = write(
        tmp_path,
        {"main.tex": MAIN, "sections/results.tex": "\\input{gone}\n", "sections/discussion.tex": "Read.\n"},
    )
    with pytest.raises(CgxError) as refused:
        read_document(main)
    assert refused.value.code == "paper-not-found"
    assert "\\input{gone} (in sections/results.tex) names no file" in refused.value.message


def test_a_paper_read_through_imports_starts_replays_and_weighs_its_imported_body(tmp_path: Path) -> None:
    body = "".join(f"Sentence {number} of the results holds a claim worth reading.\n" for number in range(40))
    main = write(
        tmp_path / "paper",
        {
            "main.tex": MAIN.replace("\\subimport*{sections/}{discussion.tex}\n", ""),
            "sections/results.tex": body
            + "\\begin{table}\\caption{Subjects.}\\label{tab:s}\\begin{tabular}{lr}Name & Age\\\\\n"
            "Ann & 31\\\\\nBob & 40\\\\\n\\end{tabular}\\end{table}\n",
        },
    )
    run = tmp_path / "run"
    result, is_error = call_tool(
        "start_run", {"run": str(run), "model": "m", "paper": str(main), "rubric": str(RUBRIC)}
    )
    assert not is_error, result
    assert "not_followed" not in result["document"] and "limits" not in result["document"]
    state = json.loads((run / "state.json").read_bytes())
    nodes = {node["id"]: node for node in state["graph"]["nodes"]}
    assert sum(node["statement"].startswith("Sentence ") for node in nodes.values()) == 40
    caption = next(node for node in nodes.values() if node["statement"].startswith("Subjects."))
    rows = [node for node in nodes.values() if node["attributes"].get("unit") == "table-row"]
    assert [row["statement"].split("; ", 1)[1] for row in rows] == ["row Name; Age", "row Ann; 31", "row Bob; 40"]
    assert all(row["statement"].startswith(f"Table 1 \\ref{{tab:s}} (caption {caption['id']})") for row in rows)
    assert replay(run, source=main, sources=None).identical
