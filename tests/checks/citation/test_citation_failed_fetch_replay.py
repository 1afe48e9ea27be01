"""A citation check whose fetch failed (no network, a 404, a timeout) is recorded with its error, and replay
reproduces that error byte for byte from the log, with no network: a run made offline replays.

The run is made with the network unreachable the way a machine without one sees it: every name lookup
fails (`socket.gaierror`), under a guard that fails the test on any connection or system lookup. Replay then
runs under the same guard with the installed (default) check types: it never reaches the network either.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from citation_testkit import (
    PASSAGE,
    FakeResolver,
    LoopbackServer,
    citation_policy,
    guarded,
    loopback_policy,
    tls_contexts,
)

from cgx_checks.citation.fetch import FetchPolicy
from cgx_core.audit.replay import replay
from support import EXAMPLE, EXAMPLE_RECORDS, call, start_example

DOI_URL = "https://doi.org/10.5555/jip.2019.012"  # smith2019's DOI (r-1, cited by s-02)
ARXIV_URL = "https://arxiv.org/abs/2101.00001"  # jones2021's arXiv id (r-2, cited by s-03)


def offline_resolver(host: str) -> list[str]:
    """What a machine without network answers for every name."""
    raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")


def judged(run: Path, node: str, entry: str, source: str) -> dict[str, Any]:
    result = call(run, "judge_citation", node=node, entry=entry, source=source, passage=PASSAGE, supports=True)
    assert result.get("refused") == [], result
    check: dict[str, Any] = result["checks"][0]
    return check


def started(run: Path, *, store_source: bool = False) -> Path:
    start_example(run, store_source=store_source)
    call(run, "classify", records=EXAMPLE_RECORDS)
    return run


def last_read(run: Path) -> Any:
    return json.loads((run / "calls.jsonl").read_bytes().splitlines()[-1])["read"]


def replayed_offline(monkeypatch: pytest.MonkeyPatch, run: Path) -> None:
    """Replay with the installed check types (no opening) under a guard that refuses every connection."""
    with guarded(monkeypatch) as guard:
        report = replay(run, source=EXAMPLE / "paper.tex", sources=None)
    assert report.identical, report.body
    assert guard.connects == [] and guard.lookups == []


def test_a_run_made_offline_replays_byte_identical_offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = started(tmp_path / "run")
    with guarded(monkeypatch) as guard, citation_policy(FetchPolicy(resolver=offline_resolver)):
        doi = judged(run, "s-02", "r-1", DOI_URL)
        arxiv = judged(run, "s-03", "r-2", ARXIV_URL)
    assert guard.connects == [] and guard.lookups == []
    for check in (doi, arxiv):
        assert check["result"] == "error"
        assert check["detail"].startswith("fetch-failed: cannot resolve"), check
    read = last_read(run)[arxiv["id"]]
    assert read["source"] == ARXIV_URL
    assert read["error"]["code"] == "fetch-failed"
    assert call(run, "finish_run")["finished"] is True
    replayed_offline(monkeypatch, run)


def test_a_fetch_past_its_deadline_replays_as_recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = started(tmp_path / "run")
    policy = loopback_policy(FakeResolver({"doi.org": ["127.0.0.1"]}), deadline=1e-9)
    with guarded(monkeypatch), citation_policy(policy):
        check = judged(run, "s-02", "r-1", DOI_URL)
    assert check["detail"].startswith("fetch-timeout: "), check
    replayed_offline(monkeypatch, run)


def test_a_404_replays_as_recorded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, serve_tls: Callable[..., LoopbackServer]
) -> None:
    server_context, client_context = tls_contexts(["doi.org"])
    server = serve_tls(server_context)
    run = started(tmp_path / "run", store_source=True)
    policy = loopback_policy(
        FakeResolver({"doi.org": ["127.0.0.1"]}), tls_context=client_context, https_port=server.port
    )
    with guarded(monkeypatch, {("127.0.0.1", server.port)}), citation_policy(policy):
        check = judged(run, "s-02", "r-1", DOI_URL)
    assert check["detail"] == f"fetch-failed: {DOI_URL} answered HTTP status 404", check
    read = last_read(run)[check["id"]]
    assert [hop["url"] for hop in read["hops"]] == [DOI_URL]
    assert read["hops"][0]["status"] == 404
    replayed_offline(monkeypatch, run)


def test_replay_refuses_a_recorded_failure_the_log_was_edited_to_claim(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The recorded error is the check's detail: an edited message no longer gives the logged result digest."""
    run = started(tmp_path / "run")
    with guarded(monkeypatch), citation_policy(FetchPolicy(resolver=offline_resolver)):
        check = judged(run, "s-02", "r-1", DOI_URL)
    log = run / "calls.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    line = json.loads(lines[-1])
    line["read"][check["id"]]["error"]["message"] = "something else"
    lines[-1] = json.dumps(line, separators=(",", ":")).encode() + b"\n"
    log.write_bytes(b"".join(lines))
    report = replay(run, source=EXAMPLE / "paper.tex", sources=None)
    assert not report.identical
    assert report.body["diverged"] == line["seq"]
