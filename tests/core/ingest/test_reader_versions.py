"""Old runs after a reader changes (issue 40 item 7): a run records its readers' version; replay of a run made
before a change to what start_run reads reproduces it when the reading is the same, and otherwise fails with
`reader-changed`, naming both versions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.errors import CgxError
from cgx_core.ingest import documents
from cgx_core.ingest.paper import Ingested, IngestRequest, ingest_paper
from cgx_core.ingest.paper_macros import Expansion
from cgx_core.ingest.readers import READERS_VERSION
from cgx_core.tooling.registry import call_tool
from support import ROOT

HEP_TH = Path(__file__).parent / "papers" / "hep-th-macros" / "paper.tex"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def start(run: Path, **extra: Any) -> dict[str, Any]:
    arguments = {"run": str(run), "paper": str(HEP_TH), "rubric": str(RUBRIC), "model": "m", "store_source": True}
    payload, is_error = call_tool("start_run", {**arguments, **extra})
    assert not is_error, payload
    return payload


def test_a_run_records_its_readers_version_and_replays_when_the_reading_is_unchanged(tmp_path: Path) -> None:
    start(tmp_path / "run")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_bytes())
    assert manifest["versions"]["readers"] == READERS_VERSION == 6
    assert replay(tmp_path / "run", source=None, sources=None).identical


def test_a_run_read_by_the_readers_before_a_change_fails_replay_naming_both_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run is made as version 1 made it: without the environment macros expanded (in this process, the
    readers as they were), so credencegraph read the paper as one chunk; the loss accepted."""

    def old_reading(request: IngestRequest, budget: object) -> Ingested:
        with monkeypatch.context() as old:
            old.setattr(documents, "expand_paper_macros", lambda texts: Expansion(texts))
            return ingest_paper(request)

    with monkeypatch.context() as before:
        before.setattr("cgx_core.tools.start_run.ingest_bounded", old_reading)
        before.setattr("cgx_core.tools.start_run.READERS_VERSION", 1)
        started = start(tmp_path / "run", accept_incomplete=True)
    assert started["counts"]["nodes"] <= 2 and "unread" in started["document"]["limits"]
    with pytest.raises(CgxError) as refused:
        replay(tmp_path / "run", source=None, sources=None)
    assert refused.value.code == "reader-changed"
    assert "version 1 of credencegraph-extract's paper readers" in refused.value.message
    assert f"version {READERS_VERSION} reads its paper differently" in refused.value.message
