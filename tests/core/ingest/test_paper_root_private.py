"""The paper's root never reaches private files: it is never the file system's root, a home folder (or one
above it) or a folder every user may write, a file reached through a hidden (dot) file or folder is never
read, and the outside-root refusal never suggests a root that would break either rule."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from cgx_core.testing import RUBRIC
from cgx_core.tooling.registry import call_tool
from support import tree

SECRET = "aws_secret_access_key = Zanzibar-marker-secret"
BODY = "We measured 12 runs of 300 s each, 3600 s in all."


def latex(body: str = "") -> str:
    return f"\\documentclass{{article}}\n\\begin{{document}}\n{BODY}\n{body}\n\\end{{document}}\n"


@pytest.fixture
def rubric(tmp_path: Path) -> Path:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder (`$HOME`) holding cloud credentials and a project whose paper names them."""
    folder = tmp_path / "home"
    (folder / ".aws").mkdir(parents=True)
    (folder / ".aws" / "credentials").write_text(SECRET)
    (folder / "project" / "paper").mkdir(parents=True)
    (folder / "project" / "paper" / "main.tex").write_text(latex("\\input{../../.aws/credentials}"))
    monkeypatch.setenv("HOME", str(folder))
    return folder


def start(tmp_path: Path, rubric: Path, paper: Path, **extra: Any) -> tuple[dict[str, Any], bool]:
    arguments = {"run": str(tmp_path / "run"), "paper": str(paper), "rubric": str(rubric), "model": "m", **extra}
    return call_tool("start_run", arguments)


def refused(tmp_path: Path, rubric: Path, paper: Path, code: str, **extra: Any) -> str:
    """The start_run is refused with `code`, wrote nothing, and its message carries no secret and no local path."""
    before = tree(tmp_path)
    payload, is_error = start(tmp_path, rubric, paper, **extra)
    assert is_error, payload
    assert payload["error"]["code"] == code, payload
    assert tree(tmp_path) == before and not (tmp_path / "run").exists()
    message: str = payload["error"]["message"]
    assert "Zanzibar" not in message and str(tmp_path) not in message
    return message


def test_the_fix_for_a_paper_that_names_credentials_suggests_no_root(home: Path, tmp_path: Path, rubric: Path) -> None:
    """The attack: the fix said to pass the home folder as `root`, and doing so read the credentials into the
    start_run result, ingested.json and state.json."""
    message = refused(tmp_path, rubric, home / "project" / "paper" / "main.tex", "outside-root")
    assert message.startswith("\\input{../../.aws/credentials} (named in main.tex) is outside the paper's root")
    assert "reached through '.aws', a hidden file or folder" in message and "never read, whatever the root" in message
    assert "pass start_run `root`" not in message


def test_a_home_folder_or_one_above_it_is_refused_as_root(home: Path, tmp_path: Path, rubric: Path) -> None:
    paper = home / "project" / "paper" / "main.tex"
    message = refused(tmp_path, rubric, paper, "root-refused", root=str(home))
    assert message.startswith("start_run: the root 'home' is a home folder: under it a paper could reach private")
    assert "give the paper's own project folder as `root`" in message
    assert "holds home folders" in refused(tmp_path, rubric, paper, "root-refused", root=str(tmp_path))
    os.symlink(home, tmp_path / "link-to-home")
    linked = tmp_path / "link-to-home" / "project" / "paper" / "main.tex"
    assert "is a home folder" in refused(tmp_path, rubric, linked, "root-refused", root=str(tmp_path / "link-to-home"))


def test_the_file_systems_root_is_refused_as_root_even_through_a_link(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "paper").mkdir()
    paper = tmp_path / "paper" / "main.tex"
    paper.write_text(latex())
    assert "is the file system's root" in refused(tmp_path, rubric, paper, "root-refused", root="/")
    os.symlink("/", tmp_path / "slash")
    through_link = tmp_path / "slash" / paper.relative_to("/")
    message = refused(tmp_path, rubric, through_link, "root-refused", root=str(tmp_path / "slash"))
    assert message.startswith("start_run: the root 'slash' is the file system's root")


def test_a_folder_every_user_may_write_is_refused_as_root_or_as_the_papers_folder(tmp_path: Path, rubric: Path) -> None:
    shared = tmp_path / "shared"
    (shared / "paper").mkdir(parents=True)
    shared.chmod(0o1777)  # as /tmp is: anyone may put a file there for a paper to name
    paper = shared / "paper" / "main.tex"
    paper.write_text(latex())
    assert "may be written by every user" in refused(tmp_path, rubric, paper, "root-refused", root=str(shared))
    beside = shared / "main.tex"
    beside.write_text(latex())
    message = refused(tmp_path, rubric, beside, "root-refused")
    assert message.startswith("start_run: the paper's folder 'shared' may be written by every user")
    assert "move the paper and its files into a folder of their own" in message
    result, is_error = start(tmp_path, rubric, paper)  # its own folder, below the shared one, is a root
    assert not is_error, result


def test_a_file_reached_through_a_hidden_folder_under_the_root_is_never_read(tmp_path: Path, rubric: Path) -> None:
    project = tmp_path / "work" / "project"
    (project / "paper").mkdir(parents=True)
    (tmp_path / "work" / ".secrets").mkdir()
    (tmp_path / "work" / ".secrets" / "key.tex").write_text(SECRET)
    paper = project / "paper" / "main.tex"
    paper.write_text(latex("\\input{../../.secrets/key.tex}"))
    message = refused(tmp_path, rubric, paper, "outside-root")
    assert "reached through '.secrets'" in message and "pass start_run `root`" not in message
    message = refused(tmp_path, rubric, paper, "hidden-file", root=str(tmp_path / "work"))
    assert message.startswith(
        "\\input{../../.secrets/key.tex} (named in project/paper/main.tex) is reached through '.secrets'"
    )
    assert "remove the reference, or copy the file the paper needs" in message
    # a hidden file beside the paper, and the paper itself in a hidden folder of the root, are refused too
    (project / "paper" / ".notes.tex").write_text(SECRET)
    paper.write_text(latex("\\input{.notes}"))
    assert "reached through 'paper/.notes'" in refused(tmp_path, rubric, paper, "hidden-file", root=str(project))
    (project / ".drafts").mkdir()
    draft = project / ".drafts" / "main.tex"
    draft.write_text(latex())
    message = refused(tmp_path, rubric, draft, "hidden-file", root=str(project))
    assert message.startswith("the paper is reached through '.drafts'")


def test_a_file_outside_reached_with_dots_through_a_linked_dot_folder_is_never_read(
    tmp_path: Path, rubric: Path
) -> None:
    # `.cache/../secret.tex` folds to the paper's own folder by name, but the system follows `.cache` first.
    (tmp_path / "outside" / "deep").mkdir(parents=True)
    (tmp_path / "outside" / "secret.tex").write_text(SECRET)
    (tmp_path / "paper").mkdir()
    os.symlink(tmp_path / "outside" / "deep", tmp_path / "paper" / ".cache")
    paper = tmp_path / "paper" / "main.tex"
    paper.write_text(latex("\\input{.cache/../secret.tex}"))
    message = refused(tmp_path, rubric, paper, "outside-root")
    assert "leads to '../outside/secret.tex' from the root" in message
    assert "reached through '.cache'" in message and "pass start_run `root`" not in message
    assert "through 'paper/.cache'" in refused(tmp_path, rubric, paper, "hidden-file", root=str(tmp_path))


def test_a_project_below_a_hidden_folder_still_starts_and_a_hidden_bib_beside_it_is_not_read(
    tmp_path: Path, rubric: Path
) -> None:
    project = tmp_path / ".cache" / "project"  # hidden above the root: none of the paper's paths goes through it
    (project / "paper").mkdir(parents=True)
    (project / "outputs").mkdir()
    (project / "outputs" / "table.tex").write_text("The estimate is 0.42.\n")
    (project / "paper" / ".private.bib").write_text("@article{k, title={" + SECRET + "}}\n")
    paper = project / "paper" / "main.tex"
    paper.write_text(latex("As \\cite{k} found.\n\\input{../outputs/table.tex}\n\\printbibliography"))
    message = refused(tmp_path, rubric, paper, "outside-root")
    assert "pass start_run `root`" in message and "1 level above the root, 'project'" in message
    result, is_error = start(tmp_path, rubric, paper, root=str(project))
    assert not is_error, result
    assert [item["name"] for item in result["document"]["files"]["first"]] == ["paper/main.tex", "outputs/table.tex"]
    assert result["bibliography"]["files"]["total"] == 0
    assert "Zanzibar" not in (tmp_path / "run" / "ingested.json").read_text()
