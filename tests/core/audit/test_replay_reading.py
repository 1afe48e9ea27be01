"""Replay reads the paper again while it applies the logged calls, and the reading still decides first."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

import cgx_core.audit.replay as replay_module
from cgx_core.audit.background import Background
from cgx_core.audit.replay import replay
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from support import EXAMPLE_RECORDS, call, start_example


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("replay-reading") / "run"
    start_example(run, store_source=True)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return run


@pytest.fixture
def copy(built: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(built, target)
    return target


def test_the_calls_are_applied_while_the_paper_is_read_again(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading waits until the calls have started: a replay that read first and applied after never
    gets there, and its reading fails."""
    applying = threading.Event()
    reingest, apply_calls = replay_module.reingest, replay_module._apply_calls

    def reading_after_the_calls_started(*args: Any) -> bytes:
        if not applying.wait(timeout=120):
            raise AssertionError("the calls were not applied while the paper was read")
        return reingest(*args)

    def applying_calls(*args: Any) -> Any:
        applying.set()
        return apply_calls(*args)

    monkeypatch.setattr(replay_module, "reingest", reading_after_the_calls_started)
    monkeypatch.setattr(replay_module, "_apply_calls", applying_calls)
    report = replay(copy, source=None, sources=None)
    assert report.identical, report.body


def test_a_refused_reading_comes_before_a_call_that_diverges(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: Any) -> bytes:
        raise CgxError(Code.SOURCE_MISMATCH, "the document's files are not those the run recorded")

    def diverged(*_: Any) -> Any:
        return replay_module.ReplayReport(False, {"diverged": 2, "tool": "classify", "how": "its graph differs"})

    monkeypatch.setattr(replay_module, "reingest", refused)
    monkeypatch.setattr(replay_module, "_apply_calls", diverged)
    with pytest.raises(CgxError) as raised:
        replay(copy, source=None, sources=None)
    assert raised.value.code == Code.SOURCE_MISMATCH


def test_a_call_that_raises_waits_for_the_reading_whose_divergence_is_the_answer(
    copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def other_graph(*_: Any) -> bytes:
        return b'{"nodes": []}\n'

    def broken(*_: Any) -> Any:
        raise ValueError("a call applied to the stored graph failed")

    monkeypatch.setattr(replay_module, "reingest", other_graph)
    monkeypatch.setattr(replay_module, "_apply_calls", broken)
    report = replay(copy, source=None, sources=None)
    assert not report.identical
    assert report.body["diverged"] == "ingest"


def test_an_ingested_graph_changed_after_its_digest_was_checked_is_not_built_on(
    copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ingested.json rewritten between the digest check and its reading: the calls are applied to the graph
    read again from the paper, and the replay is what it would have been."""
    ingested = copy / "ingested.json"
    original = ingested.read_bytes()
    problems = replay_module.digest_problems

    def checked_then_rewritten(*args: Any) -> list[str]:
        found = problems(*args)
        ingested.write_bytes(original.rstrip(b"\n") + b" \n")
        return found

    monkeypatch.setattr(replay_module, "digest_problems", checked_then_rewritten)
    report = replay(copy, source=None, sources=None)
    assert report.identical, report.body
    assert replay_module._stored_ingested(replay_module.Run(copy, _no_handler)) is None


def _no_handler(name: str) -> Any:
    raise AssertionError(f"no handler is needed here ({name})")


def test_background_returns_what_the_work_returned_and_raises_what_it_raised() -> None:
    assert Background(lambda: 42, "answer").result() == 42

    def failing() -> int:
        raise KeyError("missing")

    with pytest.raises(KeyError, match="missing"):
        Background(failing, "failing").result()
