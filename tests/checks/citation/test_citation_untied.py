"""A URL that cannot be tied to the bibliography entry is never fetched: judge_citation decides the tie from
the URL and the entry first, and an untied URL ends `source-untied` with no name looked up and no connection
made (the tool makes no request to a host an agent names), and report.json counts it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citation_testkit import PASSAGE, FakeResolver, citation_policy, guarded, loopback_policy

from cgx_core.audit.replay import replay
from support import EXAMPLE, EXAMPLE_RECORDS, call, start_example

UNTIED = [
    ("s-02", "r-1", "https://publisher.test/article/jip.2019.012"),  # a page on another host
    ("s-02", "r-1", "https://doi.org/10.5555/jip.2019.012/full"),  # the entry's DOI URL with a suffix
    ("s-02", "r-1", "https://doi.org/10.5555/other"),  # another DOI
    ("s-03", "r-2", "https://arxiv.org/abs/2101.00002"),  # another arXiv paper
    ("s-03", "r-2", "https://arxiv.org/abs/2101.00001v3"),  # a version the entry does not name
    ("s-03", "r-2", "http://127.0.0.1:8080/latest/meta-data/"),  # the machine's own network
]


def test_an_untied_url_ends_source_untied_with_no_connection(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run)
    call(run, "classify", records=EXAMPLE_RECORDS)
    resolver = FakeResolver({"publisher.test": ["127.0.0.1"], "doi.org": ["127.0.0.1"], "arxiv.org": ["127.0.0.1"]})
    checks = []
    with guarded(monkeypatch) as guard, citation_policy(loopback_policy(resolver)):
        for node, entry, url in UNTIED:
            result = call(run, "judge_citation", node=node, entry=entry, source=url, passage=PASSAGE, supports=True)
            assert result["refused"] == [], result
            checks.append(result["checks"][0])
    assert resolver.calls == [] and guard.connects == [] and guard.lookups == []
    assert [check["result"] for check in checks] == ["error"] * len(UNTIED)
    assert all(check["detail"].startswith("source-untied: ") for check in checks), checks
    assert checks[0]["detail"].endswith("so it was not fetched: give one of ['https://doi.org/10.5555/jip.2019.012']")
    assert "'https://arxiv.org/abs/2101.00001'" in checks[3]["detail"]  # the URLs the entry does tie
    lines = (run / "calls.jsonl").read_bytes().splitlines()[-len(UNTIED) :]
    assert all(json.loads(line)["read"] is None for line in lines)  # nothing was read: replay decides it again
    finished = call(run, "finish_run")
    assert finished["untied_citation_checks"] == len(UNTIED)
    body = json.loads((run / "report.json").read_bytes())
    assert [item["source"] for item in body["untied_citation_checks"]] == [url for _, _, url in UNTIED]
    with guarded(monkeypatch) as guard:
        report = replay(run, source=EXAMPLE / "paper.tex", sources=None)
    assert report.identical, report.body
    assert guard.connects == []
