"""reference-resolves through the tool layer: a TLS loopback server stands in for doi.org, Crossref, DataCite
and arXiv's API (recorded-format responses, never the real network), reached only through the explicit test
opening. The check passes, fails naming the field, reports a retraction, errs when unreachable, and replay
and verify decide it again offline from the responses the run keeps."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import pytest
from citation_testkit import FakeResolver, LoopbackServer, Served, guarded, loopback_policy, tls_contexts
from registry_testkit import HOSTS, arxiv_feed, arxiv_routes, crossref, doi_routes, unregistered

from cgx_checks.citation.fetch import FetchPolicy
from cgx_checks.citation_support import CitationSupport
from cgx_checks.reference_resolves import ReferenceResolves
from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.checks.installed import CheckTypeRegistry, check_types_scope, installed_check_types
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, call, listed_nodes

SMITH_DOI = "10.5555/jip.2019.012"  # r-1, smith2019: Smith, Jane; "Damped oscillators in the laboratory"; 2019
JONES_ARXIV = "2101.00001"  # r-2, jones2021: Jones, Alex; "The logarithmic decrement revisited"; 2021

REFERENCE_RUBRIC = (
    EXAMPLE_RUBRIC.read_text(encoding="utf-8").replace(
        '[types.reference]\ndescription = "A bibliography entry (r-N). Not an inference variable: no base."',
        '[types.reference]\ndescription = "A bibliography entry (r-N): the work it names."\nassess = true\n'
        'base = "beta:19,1"',
    )
    + """
[checks.reference-resolves]
description = "Resolve the entry's DOI and arXiv id and compare title, first author and year."
targets = ["reference"]
sensitivity = "beta:19,1"
false_pass = "beta:1,19"
models = []
"""
)


def smith(*, title: str = "Damped oscillators in the laboratory", year: int = 2019, **extra: Any) -> dict[str, Served]:
    record = crossref(SMITH_DOI, title, [("Jane", "Smith"), ("Wei", "Lee")], issued=(year, 3), **extra)
    return doi_routes(SMITH_DOI, "Crossref", record)


def jones(*, title: str = "The logarithmic decrement revisited") -> dict[str, Served]:
    feed = arxiv_feed(JONES_ARXIV, 1, title, ["Alex Jones"], "2021-01-04T10:00:00Z", "2021-01-04T10:00:00Z")
    return arxiv_routes(JONES_ARXIV, feed)


@contextmanager
def types_with(policy: FetchPolicy) -> Iterator[None]:
    registry = CheckTypeRegistry()
    for item in installed_check_types():
        registry.providing(item.distribution, item.version)
        kind = item.check_type
        if kind.name == "reference-resolves":
            kind = ReferenceResolves(policy)
        elif kind.name == "citation-support":
            kind = CitationSupport(policy)
        registry(kind)
    with check_types_scope(registry):
        yield


Online = Callable[[dict[str, Served]], Any]


@attrs.frozen
class Opening:
    """The loopback server standing in for the registries, and the test-only policy that reaches it."""

    server: LoopbackServer
    policy: FetchPolicy


@pytest.fixture
def online(monkeypatch: pytest.MonkeyPatch, serve_tls: Callable[..., LoopbackServer]) -> Iterator[Online]:
    """online(routes): a context in which the registries answer `routes` from a TLS server on loopback."""
    server_context, client_context = tls_contexts(HOSTS)

    @contextmanager
    def opened(routes: dict[str, Served]) -> Iterator[Opening]:
        server = serve_tls(server_context, 0, routes)
        resolver = FakeResolver({host: ["127.0.0.1"] for host in HOSTS})
        policy = loopback_policy(resolver, tls_context=client_context, https_port=server.port)
        with guarded(monkeypatch, {("127.0.0.1", server.port)}), types_with(policy):
            yield Opening(server, policy)

    yield opened


def started(tmp_path: Path, rubric_text: str = REFERENCE_RUBRIC, *, store_source: bool = False) -> Path:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(rubric_text, encoding="utf-8")
    run = tmp_path / "run"
    payload, is_error = call_tool(
        "start_run",
        {
            "run": str(run),
            "paper": str(EXAMPLE / "paper.tex"),
            "rubric": str(rubric),
            "store_source": store_source,
            "model": "test-model",
        },
    )
    assert not is_error, payload
    references = listed_nodes(run, unit="reference")
    assert [(item["id"], item.get("first_author"), item.get("year")) for item in references] == [
        ("r-1", "Smith", "2019"),
        ("r-2", "Jones", "2021"),
    ]
    call(run, "classify", records=EXAMPLE_RECORDS)
    return run


def resolved(run: Path, *targets: str) -> list[dict[str, Any]]:
    result = call(run, "run_checks", proposals=[{"type": "reference-resolves", "target": target} for target in targets])
    assert result["refused"] == [], result
    checks: list[dict[str, Any]] = result["checks"]
    return checks


def replayed_offline(monkeypatch: pytest.MonkeyPatch, run: Path) -> None:
    with guarded(monkeypatch) as guard:
        report = replay(run, source=EXAMPLE / "paper.tex", sources=None)
    assert report.identical, report.body
    assert guard.connects == [] and guard.lookups == []


def test_entries_that_resolve_as_they_say_pass_and_replay_and_verify_offline(
    online: Online, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = started(tmp_path)
    with online({**smith(), **jones()}) as opening:
        checks = resolved(run, "r-1", "r-2")
    assert [check["result"] for check in checks] == ["passed", "passed"], checks
    assert checks[0]["detail"] == (
        "r-1's entry resolves as it says: Crossref records 'Damped oscillators in the laboratory' by Smith (2019)"
    )
    assert "arXiv records 'The logarithmic decrement revisited' by Alex Jones (2021)" in checks[1]["detail"]
    assert [path for path, _, _ in opening.server.requests] == [
        f"/ra/{SMITH_DOI}",
        f"/works/{SMITH_DOI}",
        f"/api/query?id_list={JONES_ARXIV}",
    ]
    read = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-1])["read"]
    steps = read[checks[0]["id"]]["steps"]
    assert [step["url"] for step in steps] == [
        f"https://doi.org/ra/{SMITH_DOI}",
        f"https://api.crossref.org/works/{SMITH_DOI}",
    ]
    for step in steps:  # the responses are kept even without store_source: replay and verify need no network
        assert (run / "sources" / step["bytes_digest"].removeprefix("sha256:")).is_file()
    finished = call(run, "finish_run")
    assert finished["finished"] is True, finished  # credencegraph's check_graph passed (assessed, rubric credences)
    assert finished["references"] == {"failed": 0, "unresolved": 0, "notices": 0}
    graph = json.loads((run / "graph.json").read_bytes())
    verdicts = {
        node["id"]: node["attributes"].get("assessment") for node in graph["nodes"] if node["id"] in ("r-1", "r-2")
    }
    assert verdicts == {"r-1": {"verdict": "holds"}, "r-2": {"verdict": "holds"}}
    replayed_offline(monkeypatch, run)
    with guarded(monkeypatch) as guard:
        verdict = verify_run(run)
    assert guard.connects == []
    assert verdict.differences == () and verdict.rerun >= 2, verdict


def test_a_wrong_title_or_year_fails_naming_the_field(
    online: Online, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = started(tmp_path)
    with online({**smith(title="Damped oscillators in the field", year=2018), **jones(title="Another paper")}):
        checks = resolved(run, "r-1", "r-2")
    assert [check["result"] for check in checks] == ["failed", "failed"]
    assert checks[0]["detail"] == (
        "the title differs: the entry says 'Damped oscillators in the laboratory', Crossref records 'Damped "
        "oscillators in the field'; the year differs: the entry says '2019', Crossref records '2018'"
    )
    assert checks[1]["detail"].startswith("the title differs: the entry says 'The logarithmic decrement revisited'")
    output = json.loads((run / "checks" / checks[0]["id"] / "output.json").read_bytes())["output"]
    assert [diff["field"] for diff in output["differences"]] == ["title", "year"]
    call(run, "finish_run")
    body = json.loads((run / "report.json").read_bytes())
    assert [(item["target"], item["key"]) for item in body["references"]["failed"]] == [
        ("r-1", "smith2019"),
        ("r-2", "jones2021"),
    ]
    graph = json.loads((run / "graph.json").read_bytes())
    assert next(node for node in graph["nodes"] if node["id"] == "r-1")["attributes"]["assessment"] == {
        "verdict": "fails"
    }
    replayed_offline(monkeypatch, run)
    assert verify_run(run).differences == ()


def test_a_doi_that_is_not_registered_fails(online: Online, tmp_path: Path) -> None:
    run = started(tmp_path)
    routes = {f"/ra/{SMITH_DOI}": Served(headers={"Content-Type": "application/json"}, body=unregistered(SMITH_DOI))}
    with online(routes):
        [check] = resolved(run, "r-1")
    assert check["result"] == "failed"
    assert check["detail"] == f"the doi {SMITH_DOI} resolves to nothing: doi.org says 'DOI does not exist'"


def test_a_retraction_the_metadata_records_is_reported(
    online: Online, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = started(tmp_path)
    retraction = {
        "updated": {"date-parts": [[2021, 3, 4]]},
        "DOI": "10.5555/jip.2021.001",
        "type": "retraction",
        "source": "retraction-watch",
        "label": "Retraction",
    }
    with online(smith(updated_by=[retraction])):
        [check] = resolved(run, "r-1")
    assert check["result"] == "passed"  # the entry names the work it says; the work is retracted
    assert check["detail"].endswith("; NOTE: retraction (10.5555/jip.2021.001) in 2021 recorded by Crossref")
    finished = call(run, "finish_run")
    assert finished["references"]["notices"] == 1
    body = json.loads((run / "report.json").read_bytes())
    assert body["references"]["notices"] == [
        {
            "check": check["id"],
            "check_type": "reference-resolves",
            "type": "retraction",
            "target": "r-1",
            "key": "smith2019",
            "via": "Crossref",
            "doi": "10.5555/jip.2021.001",
            "date": "2021",
            "source": "retraction-watch",
        }
    ]
    graph = json.loads((run / "graph.json").read_bytes())
    record = next(node for node in graph["nodes"] if node["id"] == check["id"])["attributes"]["check"]
    assert record["notices"][0]["type"] == "retraction"
    replayed_offline(monkeypatch, run)


def test_an_unreachable_registry_is_an_error_that_replays_and_may_be_retried(
    online: Online, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = started(tmp_path)

    def offline(host: str) -> list[str]:
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    with pytest.MonkeyPatch.context() as patch, guarded(patch) as guard, types_with(FetchPolicy(resolver=offline)):
        [check] = resolved(run, "r-1")
    assert guard.connects == []
    assert check["result"] == "error"
    assert check["detail"].startswith("fetch-failed: cannot resolve 'doi.org'")
    with online(smith()):
        [again] = resolved(run, "r-1")  # an error moves no credence, and another check may follow
    assert again["result"] == "passed", again
    call(run, "finish_run")
    body = json.loads((run / "report.json").read_bytes())
    assert [item["check"] for item in body["references"]["unresolved"]] == [check["id"]]
    replayed_offline(monkeypatch, run)


def test_a_doi_of_another_agency_is_an_error(online: Online, tmp_path: Path) -> None:
    run = started(tmp_path)
    with online(doi_routes(SMITH_DOI, "mEDRA", None)):
        [check] = resolved(run, "r-1")
    assert check["detail"] == (
        f"registry-unsupported: {SMITH_DOI} is registered with mEDRA: only Crossref's and DataCite's metadata "
        "(and arXiv's) is read"
    )


def test_a_garbled_answer_is_an_error_not_a_guess(online: Online, tmp_path: Path) -> None:
    run = started(tmp_path)
    routes = {
        **doi_routes(SMITH_DOI, "Crossref", None),
        f"/works/{SMITH_DOI}": Served(headers={"Content-Type": "application/json"}, body=b'{"status": "ok"}'),
    }
    with online(routes):
        [check] = resolved(run, "r-1")
    assert check["detail"].startswith("metadata-unreadable: Crossref's record of 10.5555/jip.2019.012: ")


def test_verify_reports_a_stored_response_changed_after_the_run(online: Online, tmp_path: Path) -> None:
    run = started(tmp_path)
    with online(smith()):
        [check] = resolved(run, "r-1")
    call(run, "finish_run")
    step = json.loads((run / "checks" / check["id"] / "output.json").read_bytes())["read"]["steps"][1]
    (run / "sources" / step["bytes_digest"].removeprefix("sha256:")).write_bytes(b'{"status": "ok"}')
    verdict = verify_run(run)
    # Every file of sources/ is named by its digest: the run at rest is refused before any check is re-run.
    assert verdict.error is not None and verdict.error["code"] == "tampered", verdict
    assert f"sources/{step['bytes_digest'].removeprefix('sha256:')}' is not the source" in verdict.error["message"]


def test_proposals_that_cannot_run_are_refused_with_a_fix(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = call(
        run,
        "run_checks",
        proposals=[
            {"type": "reference-resolves", "target": "s-02"},  # not a reference (its type is not a target)
            {"type": "reference-resolves", "target": "r-1", "doi": "10.1/x"},  # a field the type does not take
        ],
    )
    assert [item["code"] for item in result["refused"]] == ["check-target-type", "proposal-invalid"]


def test_a_rubric_whose_reference_type_has_no_base_is_refused_before_the_check_runs(tmp_path: Path) -> None:
    without_base = REFERENCE_RUBRIC.replace('assess = true\nbase = "beta:19,1"', "assess = true")
    run = started(tmp_path, without_base)
    result = call(run, "run_checks", proposals=[{"type": "reference-resolves", "target": "r-1"}])
    [refusal] = result["refused"]
    assert refusal["code"] == "check-target-no-base"
    assert "give [types.reference] a base" in refusal["fix"]
    assert result["checks"] == []


# -- the shared papers' bibliographies ------------------------------------------------------------------

BIBS = {
    "farr": "farr-normal-normal/src/tex/bib.bib",
    "hastings": "hastings-powell-replication/article/bibliography.bib",
    "warmstart": "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/literature.bib",
}


@pytest.mark.parametrize(
    ("bib", "key", "vias"),
    [
        ("farr", "Isi2019", ["Crossref", "arXiv"]),  # DOI 10.1103/PhysRevLett.123.121101, arXiv 1904.08011
        ("farr", "Isi2022", ["Crossref", "arXiv"]),  # arXiv 2204.10742
        ("hastings", "hastings1991", ["Crossref"]),  # DOI 10.2307/1940591
        ("hastings", "bezanson2017", ["Crossref"]),  # DOI 10.1137/141000671
        ("warmstart", "he_deep_2016", ["Crossref"]),  # DOI 10.1109/CVPR.2016.90
        ("warmstart", "rumelhart_learning_1986", ["Crossref"]),  # DOI 10.1038/323533a0
        ("warmstart", "kingma_adam:_2015", ["arXiv"]),  # arXiv 1412.6980 (ICLR 2015; versions 2014-2017)
    ],
)
def test_the_shared_papers_references_resolve_as_their_entries_say(
    online: Online, papers: Path, bib: str, key: str, vias: list[str]
) -> None:
    from credencegraph.core import Graph
    from registry_testkit import REAL

    from cgx_checks.reference_resolves import decide
    from cgx_checks.references.steps import LiveSteps
    from cgx_core.checks.view import GraphRunView
    from cgx_core.ingest.bibliography import read_bib

    entries, _ = read_bib("refs.bib", (papers / BIBS[bib]).read_bytes())
    entry = entries[key]
    inputs = {"target": "r-1", "key": key, "text": entry.text, **entry.attributes()}
    with online(REAL) as opening:
        outcome = decide(inputs, LiveSteps(GraphRunView(Graph(), "live"), opening.policy))
    assert outcome.result == "passed", outcome.detail
    assert [record["via"] for record in outcome.output["resolved"]] == vias


def test_a_real_paper_with_resolved_references_finishes_and_replays(
    online: Online, monkeypatch: pytest.MonkeyPatch, papers: Path, tmp_path: Path
) -> None:
    """hastings-powell-replication, with the example rubric that assesses references: two references are
    resolved, every other chunk typed, and the finished graph passes credencegraph's check."""
    from registry_testkit import REAL

    rubric = tmp_path / "rubric.toml"
    rubric.write_text(REFERENCE_RUBRIC, encoding="utf-8")
    run = tmp_path / "run"
    paper = papers / "hastings-powell-replication" / "article" / "article.tex"
    started, is_error = call_tool(
        "start_run", {"run": str(run), "paper": str(paper), "rubric": str(rubric), "model": "test-model"}
    )
    assert not is_error, started
    by_key = {item["key"]: item["id"] for item in listed_nodes(run, unit="reference")}
    untyped = [chunk["id"] for chunk in listed_nodes(run, type="unassigned")]
    classified = call(run, "classify", records=[{"node": node, "type": "assumption"} for node in untyped])
    assert classified["refused"] == [], classified["refused"][:3]
    with online(REAL):
        checks = resolved(run, by_key["hastings1991"], by_key["bezanson2017"])
    assert [check["result"] for check in checks] == ["passed", "passed"], checks
    finished = call(run, "finish_run")
    assert finished.get("finished") is True, finished
    review = json.loads((run / "report.json").read_bytes())["review"]
    # a reference's year is no number to check; the references left unresolved are listed apart
    assert not any(node.startswith("r-") for node in review["unchecked_numbers_or_equations"])
    assert review["unchecked_references"] == sorted(
        set(by_key.values()) - {by_key["hastings1991"], by_key["bezanson2017"]}
    )
    with guarded(monkeypatch) as guard:
        report = replay(run, source=paper, sources=None)
        verdict = verify_run(run)
    assert report.identical, report.body
    assert verdict.differences == ()
    assert guard.connects == []
