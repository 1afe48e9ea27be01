"""judge_citation through the tool layer on fetched sources: a TLS loopback server stands in for arxiv.org
and a publisher, reached only through the explicit test opening (a check-types scope whose citation-support
has a fetch policy admitting 127.0.0.1). The installed default policy is never changed."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from citation_testkit import (
    ABSTRACT_HTML,
    PASSAGE,
    FakeResolver,
    LoopbackServer,
    guarded,
    loopback_policy,
    tls_contexts,
)

from cgx_checks.citation_support import CitationSupport
from cgx_core.audit.replay import replay
from cgx_core.base.digests import hex_of
from cgx_core.checks.installed import CheckTypeRegistry, check_types_scope, installed_check_types
from support import EXAMPLE, EXAMPLE_RECORDS, call, start_example

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
ARXIV = "https://arxiv.org/abs/2101.00001"  # the example's jones2021 names arXiv 2101.00001
UNTIED = "https://publisher.test/article/xyz"


@pytest.fixture
def opening(monkeypatch: pytest.MonkeyPatch, serve_tls: Callable[..., LoopbackServer]) -> Iterator[None]:
    server_context, client_context = tls_contexts(["arxiv.org", "publisher.test"])
    server = serve_tls(server_context)
    policy = loopback_policy(
        FakeResolver({"arxiv.org": ["127.0.0.1"], "publisher.test": ["127.0.0.1"]}),
        tls_context=client_context,
        https_port=server.port,
    )
    registry = CheckTypeRegistry()
    for item in installed_check_types():
        registry.providing(item.distribution, item.version)
        registry(CitationSupport(policy) if item.check_type.name == "citation-support" else item.check_type)
    with guarded(monkeypatch, {("127.0.0.1", server.port)}), check_types_scope(registry):
        yield


def judged(run: Path, source: str, passage: str = PASSAGE, supports: bool = True) -> dict[str, Any]:
    result = call(run, "judge_citation", node="s-03", entry="r-2", source=source, passage=passage, supports=supports)
    assert result["refused"] == [], result
    check: dict[str, Any] = result["checks"][0]
    return check


def started(run: Path, *, store_source: bool) -> Path:
    start_example(run, store_source=store_source)
    call(run, "classify", records=EXAMPLE_RECORDS)
    return run


def test_a_fetched_arxiv_source_is_tied_read_logged_stored_and_replayed(opening: None, tmp_path: Path) -> None:
    run = started(tmp_path / "run", store_source=True)
    check = judged(run, ARXIV)
    assert check["result"] == "passed", check
    assert "tied to 'jones2021' by arxiv" in check["detail"]
    line = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-1])
    read = line["read"][check["id"]]
    assert [hop["url"] for hop in read["hops"]] == [ARXIV]
    assert set(read["reading"]) >= {"bytes_digest", "text_digest", "start", "end"}
    stored = run / "sources" / hex_of(read["reading"]["bytes_digest"])
    assert stored.is_file()
    assert b"A Detector Study" in stored.read_bytes()
    report = replay(run, source=None, sources=None)  # replay reads the stored bytes; no network is open to it
    assert report.identical, report.body


def test_an_untied_page_is_an_error_listed_in_the_report(opening: None, tmp_path: Path) -> None:
    run = started(tmp_path / "run", store_source=False)
    check = judged(run, UNTIED)
    assert check["result"] == "error"
    assert check["detail"].startswith("source-untied: ")
    retry = judged(run, ARXIV, supports=False)  # an errored check may be followed by another
    assert retry["result"] == "failed"
    report = call(run, "finish_run")
    assert report["untied_citation_checks"] == 1
    body = json.loads((run / "report.json").read_bytes())
    assert body["untied_citation_checks"][0]["source"] == UNTIED
    assert {item["check"] for item in body["uncalibrated"]} == {check["id"], retry["id"]}


def test_a_run_that_did_not_store_its_sources_replays_with_sources_dir(opening: None, tmp_path: Path) -> None:
    run = started(tmp_path / "run", store_source=False)
    check = judged(run, ARXIV)
    assert not (run / "sources").exists()
    line = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-1])
    digest = line["read"][check["id"]]["reading"]["bytes_digest"]
    source = ["--source", str(EXAMPLE / "paper.tex")]
    missing = subprocess.run([CLI, "replay", str(run), *source], capture_output=True, text=True, check=False)
    assert missing.returncode == 2
    assert "pass --sources" in missing.stderr
    # the bytes, fetched again by the user and named by the hex of their digest
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / hex_of(digest)).write_bytes(ABSTRACT_HTML.encode())
    done = subprocess.run(
        [CLI, "replay", str(run), *source, "--sources", str(sources)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (sources / hex_of(digest)).write_bytes(b"other bytes")
    wrong = subprocess.run(
        [CLI, "replay", str(run), *source, "--sources", str(sources)], capture_output=True, text=True, check=False
    )
    assert wrong.returncode == 2
