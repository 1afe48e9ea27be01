"""The paper's boundary: every file a run takes from the paper lies under its root, symbolic links followed,
whatever hides it from the scan; a sibling-folder layout works with `root`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.testing import RUBRIC
from cgx_core.tooling.registry import call_tool
from support import tree

MARKER = "Zanzibar-marker sentence from outside the paper."
BODY = "We measured 12 runs of 300 s each, 3600 s in all."


@pytest.fixture
def rubric(tmp_path: Path) -> Path:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    return path


def latex(body: str) -> str:
    return f"\\documentclass{{article}}\n\\begin{{document}}\n{BODY}\n{body}\n\\end{{document}}\n"


def start(tmp_path: Path, rubric: Path, paper: Path, **extra: Any) -> tuple[dict[str, Any], bool]:
    return call_tool(
        "start_run",
        {"run": str(tmp_path / "run"), "paper": str(paper), "rubric": str(rubric), "model": "m", **extra},
    )


def refused(tmp_path: Path, rubric: Path, paper: Path, code: str, **extra: Any) -> str:
    before = tree(tmp_path)
    payload, is_error = start(tmp_path, rubric, paper, **extra)
    assert is_error, payload
    assert payload["error"]["code"] == code, payload
    assert not (tmp_path / "run").exists()
    assert tree(tmp_path) == before
    message: str = payload["error"]["message"]
    assert MARKER not in message
    assert str(tmp_path) not in message
    return message


def test_an_input_hidden_from_the_scan_behind_verb_never_reads_a_file_outside(tmp_path: Path, rubric: Path) -> None:
    # The scan strips `%...` as a comment, so it never sees this \input; credencegraph's parser reads \verb|%|
    # as verbatim and follows the \input. Before the boundary watched credencegraph's reads, the secret's text
    # became a chunk of the run and of start_run's result.
    secret = tmp_path / "secret.tex"
    secret.write_text(MARKER)
    (tmp_path / "paper").mkdir()
    main = tmp_path / "paper" / "main.tex"
    main.write_text(latex(f"\\verb|%|\\input{{{secret}}}"))
    message = refused(tmp_path, rubric, main, "outside-root")
    assert "'secret.tex'" in message
    assert "outside the paper's root 'paper'" in message


@pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="needs /etc/passwd")
def test_verb_hidden_input_of_etc_passwd_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "paper").mkdir()
    main = tmp_path / "paper" / "main.tex"
    main.write_text(latex("\\verb|%|\\input{/etc/passwd}"))
    message = refused(tmp_path, rubric, main, "outside-root")
    assert "passwd" in message
    assert "root:" not in message
    assert "a file outside every folder that may hold the paper is never read" in message
    assert "(the folder that holds both is the file system's root)" in message


def test_input_dot_would_read_the_file_beside_the_papers_folder(tmp_path: Path, rubric: Path) -> None:
    # pathlib folds `paper/.` into `paper`, so `\input .` tries the folder, then `paper.tex` beside it.
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper.tex").write_text(MARKER)
    main = tmp_path / "paper" / "main.tex"
    for written in ("\\input .", "\\input{.}"):
        main.write_text(latex(written))
        message = refused(tmp_path, rubric, main, "outside-root")
        assert "'../paper.tex'" in message or "'paper.tex'" in message


def test_an_input_hidden_from_the_scan_inside_the_root_is_refused_too(tmp_path: Path, rubric: Path) -> None:
    # Inside the root, but not among the files the scan found: its digest would be missing from the manifest.
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "part.tex").write_text(MARKER)
    main = tmp_path / "paper" / "main.tex"
    main.write_text(latex("\\verb|%|\\input{part}"))
    message = refused(tmp_path, rubric, main, "paper-invalid")
    assert "opened 'part.tex', which the scan" in message


@pytest.mark.parametrize("named", [True, False])
def test_a_bib_that_is_a_symbolic_link_outside_the_folder_is_refused(tmp_path: Path, rubric: Path, named: bool) -> None:
    (tmp_path / "elsewhere.bib").write_text("@article{k, title={" + MARKER + "}}\n")
    (tmp_path / "paper").mkdir()
    os.symlink(tmp_path / "elsewhere.bib", tmp_path / "paper" / "refs.bib")
    main = tmp_path / "paper" / "main.tex"
    # named by \bibliography, or found beside a paper that prints a bibliography it does not name
    main.write_text(latex("See \\cite{k}.\n" + ("\\bibliography{refs}" if named else "\\printbibliography")))
    message = refused(tmp_path, rubric, main, "outside-root")
    assert message.startswith("the bibliography 'refs")
    assert "is a symbolic link (or lies in a linked folder) that leads to '../elsewhere.bib' from the root" in message


def test_a_bibliography_argument_or_cited_folder_outside_the_root_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "paper").mkdir()
    main = tmp_path / "paper" / "main.tex"
    main.write_text(latex("See \\cite{k}."))
    (tmp_path / "refs.bib").write_text("@article{k, title={A title}}\n")
    refused(tmp_path, rubric, main, "outside-root", bibliography=str(tmp_path / "refs.bib"))
    (tmp_path / "cited").mkdir()
    refused(tmp_path, rubric, main, "outside-root", cited=str(tmp_path / "cited"))
    os.symlink(tmp_path / "cited", tmp_path / "paper" / "cited")
    message = refused(tmp_path, rubric, main, "outside-root", cited=str(tmp_path / "paper" / "cited"))
    assert message.startswith("the cited works folder 'cited' is outside the paper's root 'paper'")


def sibling_layout(tmp_path: Path) -> Path:
    """A replication repository: the paper in paper/, a generated table in outputs/."""
    repo = tmp_path / "repo"
    (repo / "paper").mkdir(parents=True)
    (repo / "outputs").mkdir()
    (repo / "outputs" / "table.tex").write_text("The estimate is 0.42 with 95 percent coverage.\n")
    (repo / "paper" / "refs.bib").write_text("@article{k, title={A cited work}, year={2020}}\n")
    main = repo / "paper" / "main.tex"
    main.write_text(latex("As \\cite{k} found.\n\\input{../outputs/table.tex}\n\\bibliography{refs}"))
    return main


def test_a_sibling_folder_layout_is_refused_with_a_fix_and_works_with_root(tmp_path: Path, rubric: Path) -> None:
    main = sibling_layout(tmp_path)
    message = refused(tmp_path, rubric, main, "outside-root")
    assert message.startswith("\\input{../outputs/table.tex} (named in main.tex) is outside the paper's root 'paper'")
    assert "it is at '../outputs/table.tex' from the root" in message
    assert "pass start_run `root`" in message and "1 level above the root, 'repo'" in message

    result, is_error = start(tmp_path, rubric, main, root=str(tmp_path / "repo"), store_source=True)
    assert not is_error, result
    names = [item["name"] for item in result["document"]["files"]["first"]]
    assert names == ["paper/main.tex", "outputs/table.tex"]
    assert [item["name"] for item in result["bibliography"]["files"]["first"]] == ["paper/refs.bib"]
    page, _ = call_tool("get_state", {"run": str(tmp_path / "run"), "limit": 500})
    assert any("0.42" in node["text"] for node in page["nodes"])
    assert sorted(tree(tmp_path / "run" / "source")) == ["outputs/table.tex", "paper/main.tex", "paper/refs.bib"]
    assert replay(tmp_path / "run", source=None, sources=None).identical  # from the stored copy
    assert replay(tmp_path / "run", source=main, sources=None).identical  # from the paper, its root found again
    logged = (tmp_path / "run" / "calls.jsonl").read_text()
    assert str(tmp_path) not in logged and "repo" not in json.loads(logged.splitlines()[0])["args"]


def test_root_must_hold_the_paper_and_be_a_folder(tmp_path: Path, rubric: Path) -> None:
    main = sibling_layout(tmp_path)
    (tmp_path / "other").mkdir()
    message = refused(tmp_path, rubric, main, "outside-root", root=str(tmp_path / "other"))
    assert message.startswith("the paper is outside the paper's root 'other'")
    refused(tmp_path, rubric, main, "invalid-arguments", root=str(main))


def test_the_shared_paper_that_reads_a_sibling_folder_starts_with_root(
    papers: Path, tmp_path: Path, rubric: Path
) -> None:
    folder = papers / "mlrc-cgn-repro" / "2021" / "bagad2022reproducibility"
    main = folder / "journal" / "article.tex"
    payload, is_error = start(tmp_path, rubric, main)
    assert is_error and payload["error"]["code"] == "outside-root"
    assert payload["error"]["message"].startswith("\\input{../openreview/packages.tex} (named in article.tex)")
    result, is_error = start(tmp_path, rubric, main, root=str(folder))
    assert not is_error, result
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_bytes())
    names = [item["name"] for item in manifest["document"]["files"]]
    assert names[0] == "journal/article.tex"
    assert {"openreview/content.tex", "openreview/appendix.tex", "journal/header.tex"} <= set(names)
    # its six sections come through \import (the commented-out one is not read): each is read, none left out
    sections = ["summary", "introduction", "cgn", "methodology", "results", "discussion"]
    assert [name for name in names if name.startswith("openreview/sections/")] == [
        f"openreview/sections/{section}.tex" for section in sections
    ]
    assert "not_followed" not in result["document"]
    state = json.loads((tmp_path / "run" / "state.json").read_bytes())
    located = {source["locator"].split(";")[0] for node in state["graph"]["nodes"] for source in node["sources"]}
    assert {f"file=../openreview/sections/{section}.tex" for section in sections} <= located
    assert replay(tmp_path / "run", source=main, sources=None).identical
