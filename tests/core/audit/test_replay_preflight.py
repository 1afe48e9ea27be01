"""Replay, and the report that replays, fail before any work when what they need lies outside the run and is
not given (issue 37): the first words of the error say what to pass, and no call was applied, no paper read.

What is observed is what was (not) done, never a time: the functions that would read the paper and apply
the calls are replaced by ones that fail the test if called.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import cgx_core.audit.replay as replay_module
from cgx_core.audit.replay import replay
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.report.integrity import run_integrity
from support import EXAMPLE, EXAMPLE_RECORDS, call, start_example

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


@pytest.fixture(scope="module")
def unstored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run made without store_source (the default)."""
    run = tmp_path_factory.mktemp("preflight") / "run"
    start_example(run)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(run, "finish_run").get("finished") is True
    return run


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the paper, or applying a call, fails the test: the refusal must come first."""

    def forbidden(*_: Any, **__: Any) -> Any:
        raise AssertionError("replay worked before it checked what it needs")

    monkeypatch.setattr(replay_module, "reingest", forbidden)
    monkeypatch.setattr(replay_module, "_apply_calls", forbidden)
    monkeypatch.setattr(replay_module, "Background", forbidden)


def refusal(run: Path, **given: Any) -> CgxError:
    with pytest.raises(CgxError) as raised:
        replay(run, source=given.get("source"), sources=given.get("sources"))
    return raised.value


def test_a_run_that_did_not_store_its_paper_says_to_pass_source_before_any_work(unstored: Path, no_work: None) -> None:
    error = refusal(unstored)
    assert error.code == Code.SOURCE_NEEDED
    assert error.message.startswith("pass --source with the paper paper.tex (sha256:")


def test_a_source_with_another_digest_is_refused_before_any_work(unstored: Path, no_work: None, tmp_path: Path) -> None:
    other = tmp_path / "paper"
    shutil.copytree(EXAMPLE, other)
    (other / "paper.tex").write_text((other / "paper.tex").read_text() + "\n% edited\n")
    error = refusal(unstored, source=other / "paper.tex")
    assert error.code == Code.SOURCE_MISMATCH
    assert error.message.startswith("pass --source with the paper the run read (paper.tex, sha256:")
    assert "its file paper.tex (sha256:" in error.message and "has another digest" in error.message
    (other / "refs.bib").unlink()
    (other / "paper.tex").write_bytes((EXAMPLE / "paper.tex").read_bytes())
    assert "its file refs.bib (sha256:" in refusal(unstored, source=other / "paper.tex").message


def test_a_source_that_is_not_a_file_and_a_sources_folder_that_is_not_one(
    unstored: Path, no_work: None, tmp_path: Path
) -> None:
    error = refusal(unstored, source=tmp_path / "nowhere.tex")
    assert (error.code, error.message.split(":")[0]) == (Code.SOURCE_NEEDED, "pass --source with the paper paper.tex")
    error = refusal(unstored, source=EXAMPLE / "paper.tex", sources=tmp_path / "nowhere")
    assert error.code == Code.SOURCE_NEEDED and error.message.startswith("pass --sources DIR, a folder")


def test_fetched_bytes_the_run_did_not_store_are_asked_for_before_any_work(
    unstored: Path, no_work: None, tmp_path: Path
) -> None:
    """A logged reading of a fetched source (its bytes not kept): --sources is asked for at once."""
    run = tmp_path / "run"
    shutil.copytree(unstored, run)
    entries = replay_module.log.scan(run / "calls.jsonl", 0, 1, None).entries
    digest = "sha256:" + "ab" * 32
    patched = (*entries, _entry_reading(entries[-1], digest))
    with pytest.raises(CgxError) as raised:
        replay_module.preflight(replay_module.Run(run, _never), patched, EXAMPLE / "paper.tex", None)
    assert raised.value.code == Code.SOURCE_NEEDED
    assert raised.value.message.startswith("pass --sources DIR holding the bytes of 1 fetched sources")
    assert digest in raised.value.message
    folder = tmp_path / "sources"
    folder.mkdir()
    with pytest.raises(CgxError, match="not in the folder given"):
        replay_module.preflight(replay_module.Run(run, _never), patched, EXAMPLE / "paper.tex", folder)


def _entry_reading(entry: Any, digest: str) -> Any:
    read = {"c-009": {"source": "https://arxiv.org/abs/1", "reading": {"kind": "txt", "bytes_digest": digest}}}
    return attrs.evolve(entry, line=attrs.evolve(entry.line, read=read))


def _never(name: str) -> Any:
    raise AssertionError(f"no handler is needed ({name})")


def test_the_report_of_such_a_run_says_what_to_pass_and_replays_nothing(unstored: Path, no_work: None) -> None:
    integrity = run_integrity(unstored, replay="run", verify="skip")
    assert integrity.replay.status == "error"
    assert integrity.replay.summary.startswith("error [source-needed]: pass --source with the paper paper.tex")


def test_the_report_command_still_writes_the_page_saying_what_it_could_not_replay(
    unstored: Path, tmp_path: Path
) -> None:
    page = tmp_path / "report.html"
    done = subprocess.run(
        [CLI, "report", str(unstored), "--html", str(page), "--no-verify"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "CGX_AUDIT_CACHE": str(tmp_path / "cache")},
    )
    assert done.returncode == 1, done.stderr
    assert "warning: replay: error [source-needed]: pass --source with the paper paper.tex" in done.stderr
    assert "pass --source with the paper paper.tex" in page.read_text(encoding="utf-8")
    assert "Replay: error [source-needed]: pass --source" in done.stdout


def test_replay_given_the_source_still_replays(unstored: Path) -> None:
    report = replay(unstored, source=EXAMPLE / "paper.tex", sources=None)
    assert report.identical, json.dumps(report.body)
