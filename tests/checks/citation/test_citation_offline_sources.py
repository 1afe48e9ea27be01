"""An offline sources folder: start_run is given the bytes a check would fetch, by URL (index.json), and
judge_citation reads them instead of the network, records that it did, and replay rebuilds the run offline."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from citation_testkit import LANDING_HTML, PASSAGE, guarded

from cgx_core.audit.replay import replay
from cgx_core.base.digests import bytes_digest, hex_of
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, call

DOI_URL = "https://doi.org/10.5555/jip.2019.012"  # smith2019 (r-1, cited by s-02)
ARXIV_URL = "https://arxiv.org/abs/2101.00001"  # jones2021 (r-2, cited by s-03)


def offline_folder(tmp_path: Path) -> Path:
    """An empty `offline` folder beside a copy of the example paper: the sources folder lies under the paper's
    root, as the cited works do."""
    paper = tmp_path / "paper"
    if not paper.exists():
        shutil.copytree(EXAMPLE, paper)
    folder = paper / "offline"
    folder.mkdir()
    return folder


def folder_with(tmp_path: Path, index: Any, files: dict[str, bytes]) -> Path:
    folder = offline_folder(tmp_path)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (folder / "index.json").write_text(json.dumps(index), encoding="utf-8")
    return folder


def start(run: Path, folder: Path, **extra: Any) -> tuple[dict[str, Any], bool]:
    return call_tool(
        "start_run",
        {
            "run": str(run),
            "paper": str(folder.parent / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "sources": str(folder),
            "model": "test-model",
            **extra,
        },
    )


@pytest.fixture
def landing(tmp_path: Path) -> Path:
    """A lab's archive: the DOI landing page named by its digest (as replay's --sources names files), an
    arXiv abstract named freely, and a page about a work this paper does not cite."""
    page = LANDING_HTML.encode()
    index = {
        DOI_URL: {"file": hex_of(bytes_digest(page)), "content_type": "text/html; charset=utf-8"},
        ARXIV_URL: {"file": "jones2021.txt"},
        "https://doi.org/10.1000/not-cited": {"file": "other.pdf"},
    }
    files = {
        hex_of(bytes_digest(page)): page,
        "jones2021.txt": b"An abstract that says nothing about the passage at all, in plain text.\n",
        "other.pdf": b"%PDF-1.4 not read",
    }
    return folder_with(tmp_path, index, files)


@pytest.mark.parametrize("supports", [True, False])
def test_an_offline_source_makes_a_doi_tied_check_pass_or_fail_with_no_network(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, landing: Path, supports: bool
) -> None:
    run = tmp_path / "run"
    started, is_error = start(run, landing)
    assert not is_error, started
    assert started["offline_sources"] == {"urls": {"total": 2, "first": [ARXIV_URL, DOI_URL]}, "ignored": 1}
    manifest = json.loads((run / "manifest.json").read_bytes())
    kept = {item["url"]: item for item in manifest["offline_sources"]["sources"]}
    assert (run / "sources" / hex_of(kept[DOI_URL]["digest"])).read_bytes() == LANDING_HTML.encode()
    assert kept[ARXIV_URL]["content_type"] == "text/plain"  # from the suffix
    call(run, "classify", records=EXAMPLE_RECORDS)
    with guarded(monkeypatch) as guard:  # the installed default policy; any connection fails the test
        result = call(
            run, "judge_citation", node="s-02", entry="r-1", source=DOI_URL, passage=PASSAGE, supports=supports
        )
        missing = call(
            run, "judge_citation", node="s-03", entry="r-2", source=ARXIV_URL, passage=PASSAGE, supports=True
        )
    assert guard.connects == [] and guard.lookups == []
    [check] = result["checks"]
    assert check["result"] == ("passed" if supports else "failed"), check
    assert "(read from the offline sources start_run was given), tied to 'smith2019' by doi" in check["detail"]
    assert missing["checks"][0]["detail"].startswith("passage-not-found: ")
    lines = (run / "calls.jsonl").read_bytes().splitlines()
    read = json.loads(lines[-2])["read"][check["id"]]
    assert read["offline"] == {"bytes_digest": kept[DOI_URL]["digest"], "content_type": "text/html; charset=utf-8"}
    assert "hops" not in read
    output = json.loads((run / "checks" / check["id"] / "output.json").read_bytes())
    assert output["read"]["offline"]["bytes_digest"] == kept[DOI_URL]["digest"]
    call(run, "finish_run")
    with guarded(monkeypatch) as guard:
        report = replay(run, source=EXAMPLE / "paper.tex", sources=None)
    assert report.identical, report.body
    assert guard.connects == []


def test_replay_refuses_an_offline_source_changed_in_the_run(tmp_path: Path, landing: Path) -> None:
    run = tmp_path / "run"
    start(run, landing)
    call(run, "classify", records=EXAMPLE_RECORDS)
    call(run, "judge_citation", node="s-02", entry="r-1", source=DOI_URL, passage=PASSAGE, supports=True)
    digest = bytes_digest(LANDING_HTML.encode())
    (run / "sources" / hex_of(digest)).write_bytes(b"<html>another page</html>")
    with pytest.raises(Exception) as caught:
        replay(run, source=EXAMPLE / "paper.tex", sources=None)
    # Every file of sources/ is named by its digest: the run at rest is checked before anything is replayed.
    assert getattr(caught.value, "code", None) == "tampered"
    assert f"sources/{hex_of(digest)}' is not the source its name's digest names" in str(caught.value)


def test_an_untied_url_is_not_read_from_the_offline_folder_either(tmp_path: Path) -> None:
    folder = folder_with(
        tmp_path,
        {"https://publisher.example/10.5555/jip.2019.012": {"file": "page.html"}},
        {"page.html": LANDING_HTML.encode()},
    )
    run = tmp_path / "run"
    started, is_error = start(run, folder)
    assert not is_error, started
    assert started["offline_sources"]["urls"]["first"] == ["https://publisher.example/10.5555/jip.2019.012"]
    call(run, "classify", records=EXAMPLE_RECORDS)
    result = call(
        run,
        "judge_citation",
        node="s-02",
        entry="r-1",
        source="https://publisher.example/10.5555/jip.2019.012",
        passage=PASSAGE,
        supports=True,
    )
    assert result["checks"][0]["detail"].startswith("source-untied: ")


@pytest.mark.parametrize(
    ("index", "files", "expected"),
    [
        (None, {}, "has no index.json"),
        ("[1, 2]", {}, "is not an object"),
        ("{not json", {}, "is not JSON"),
        ({DOI_URL: {"file": "../secret.html"}}, {}, "must name a file of the folder itself"),
        ({DOI_URL: {"file": "page.html", "size": 3}}, {"page.html": b"x"}, "unknown fields ['size']"),
        ({DOI_URL: "page.html"}, {}, 'an entry is {"file"'),
        ({"ftp://example.org/x": {"file": "x.txt"}}, {}, "is not an http(s) URL"),
        ({DOI_URL: {"file": "page.html", "content_type": "html please"}}, {"page.html": b"x"}, "is not a media type"),
        ({DOI_URL: {"file": "absent.html"}}, {}, "absent.html is not a regular file of the folder"),
        ({DOI_URL: {"file": "page.bin"}}, {"page.bin": b"x"}, "give the content_type of page.bin"),
    ],
)
def test_a_bad_offline_folder_is_refused_naming_the_problem_and_no_run_is_left(
    tmp_path: Path, index: Any, files: dict[str, bytes], expected: str
) -> None:
    folder = offline_folder(tmp_path)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    if index is not None:
        text = index if isinstance(index, str) else json.dumps(index)
        (folder / "index.json").write_text(text, encoding="utf-8")
    payload, is_error = start(tmp_path / "run", folder)
    assert is_error, payload
    assert payload["error"]["code"] == "sources-invalid"
    assert expected in payload["error"]["message"]
    assert not (tmp_path / "run").exists()


def test_an_offline_file_that_is_a_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, {DOI_URL: {"file": "page.html"}}, {})
    os.symlink("/etc/hostname", folder / "page.html")
    payload, is_error = start(tmp_path / "run", folder)
    assert is_error and payload["error"]["code"] == "sources-invalid"
    assert "page.html is not a regular file" in payload["error"]["message"]


@pytest.mark.parametrize("where", ["outside", "link"])
def test_an_offline_folder_outside_the_papers_root_is_refused_like_the_cited_works(tmp_path: Path, where: str) -> None:
    """The attack: `sources` was read from anywhere while `cited` was held to the paper's root."""
    folder = folder_with(tmp_path, {DOI_URL: {"file": "page.html"}}, {"page.html": b"<p>x</p>"})
    outside = tmp_path / "archive"
    folder.rename(outside)
    if where == "link":
        os.symlink(outside, folder)
    else:
        folder.mkdir()  # the paper's own folder, empty; the sources given are the outside ones
    paper = folder.parent / "paper.tex"
    payload, is_error = call_tool(
        "start_run",
        {
            "run": str(tmp_path / "run"),
            "paper": str(paper),
            "rubric": str(EXAMPLE_RUBRIC),
            "sources": str(outside if where == "outside" else folder),
            "model": "m",
        },
    )
    assert is_error and payload["error"]["code"] == "outside-root", payload
    message = payload["error"]["message"]
    assert message.startswith("the offline sources folder '")
    assert "outside the paper's root 'paper'" in message and str(tmp_path) not in message
    assert not (tmp_path / "run").exists()
