"""start_run: the run directory it writes, what it records, and every bad input it refuses."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from cgx_core.base.digests import bytes_digest
from cgx_core.testing import RUBRIC, write_tiny_paper
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_RUBRIC, tree


def start(
    run: Path, paper: Path = EXAMPLE / "paper.tex", rubric: Path = EXAMPLE_RUBRIC, **extra: Any
) -> dict[str, Any]:
    payload, _ = call_tool(
        "start_run", {"run": str(run), "paper": str(paper), "rubric": str(rubric), "model": "test-model", **extra}
    )
    return payload


def test_the_run_directory_has_exactly_the_specified_layout(tmp_path: Path) -> None:
    result = start(tmp_path / "run", cited=str(EXAMPLE / "cited"))
    assert "error" not in result, result
    files = sorted(tree(tmp_path / "run"))
    assert files == [
        ".lock",
        "calls.jsonl",
        "cited/jones2021.tex",
        "cited/smith2019.txt",
        "ingested.json",
        "manifest.json",
        "rubric.toml",
        "state.json",
        "tolerances.toml",
    ]
    assert (tmp_path / "run" / "rubric.toml").read_bytes() == EXAMPLE_RUBRIC.read_bytes()
    assert (tmp_path / "run" / "cited" / "smith2019.txt").read_bytes() == (
        EXAMPLE / "cited" / "smith2019.txt"
    ).read_bytes()


def test_the_manifest_names_every_file_by_name_and_digest(tmp_path: Path) -> None:
    start(tmp_path / "run", cited=str(EXAMPLE / "cited"))
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_bytes())
    assert manifest["format"] == "credencegraph-extract-run"
    assert manifest["version"] == 2
    assert len(manifest["run"]) == 16
    files = {item["name"]: item["digest"] for item in manifest["document"]["files"]}
    assert files == {
        "paper.tex": bytes_digest((EXAMPLE / "paper.tex").read_bytes()),
        "sections/method.tex": bytes_digest((EXAMPLE / "sections" / "method.tex").read_bytes()),
    }
    assert manifest["rubric"]["digest"] == bytes_digest(EXAMPLE_RUBRIC.read_bytes())
    assert manifest["rubric"]["name"] == "example-paper"
    assert {item["name"]: item["digest"] for item in manifest["cited"]} == {
        "jones2021.tex": bytes_digest((EXAMPLE / "cited" / "jones2021.tex").read_bytes()),
        "smith2019.txt": bytes_digest((EXAMPLE / "cited" / "smith2019.txt").read_bytes()),
    }
    assert manifest["ingested"] == bytes_digest((tmp_path / "run" / "ingested.json").read_bytes())
    assert manifest["bibliography"]["files"][0]["name"] == "refs.bib"
    assert set(manifest["versions"]) >= {"credencegraph-extract", "credencegraph", "python", "check_types"}


def test_no_local_path_is_recorded_anywhere_in_the_run(tmp_path: Path) -> None:
    start(tmp_path / "run", cited=str(EXAMPLE / "cited"), store_source=True)
    for name, data in tree(tmp_path / "run").items():
        text = data.decode("utf-8", "replace")
        assert str(tmp_path) not in text, name
        assert str(EXAMPLE.parent) not in text, name


def test_store_source_copies_every_file_of_the_paper_and_its_bibliography(tmp_path: Path) -> None:
    start(tmp_path / "run", store_source=True)
    stored = tree(tmp_path / "run" / "source")
    assert sorted(stored) == ["paper.tex", "refs.bib", "sections/method.tex"]
    assert stored["sections/method.tex"] == (EXAMPLE / "sections" / "method.tex").read_bytes()


def test_two_start_runs_of_the_same_inputs_give_identical_ingested_json(tmp_path: Path) -> None:
    start(tmp_path / "a")
    start(tmp_path / "b")
    assert (tmp_path / "a" / "ingested.json").read_bytes() == (tmp_path / "b" / "ingested.json").read_bytes()


def test_the_result_lists_chunks_types_hedges_and_checks(tmp_path: Path) -> None:
    result = start(tmp_path / "run")
    chunk = next(item for item in result["nodes"] if item.get("cites"))
    assert set(chunk) == {"id", "origin", "unit", "type", "text", "cites"}
    references = {item["id"]: item for item in result["nodes"] if item["unit"] == "reference"}
    assert [references[node]["key"] for node in chunk["cites"]] == ["smith2019"]
    types = {item["name"]: item for item in result["types"]}
    assert types["claim"]["rests_on"]["types"][0] == "result"
    assert types["claim"]["assess"] is True
    assert types["method"]["form"]["kind"]["values"] == ["test", "simulation", "dataset", "procedure"]
    assert "base" not in types["claim"]  # the agent never sees or gives a credence
    assert "suggests" in result["hedges"]
    assert {item["name"] for item in result["checks"]} == {
        "recompute-numbers",
        "rederive-maths",
        "rederive-maths-numeric",
        "citation-support",
        "human-review",  # a person's verdict, through review
    }
    assert [item["key"] for item in references.values()] == ["smith2019", "jones2021"]
    assert list(references.values())[1]["arxiv"] == "2101.00001"


def test_the_state_after_start_run_types_initial_units_with_their_base_and_marks_every_node(tmp_path: Path) -> None:
    from credencegraph.core import graph_from_dict

    result = start(tmp_path / "run")
    state = json.loads((tmp_path / "run" / "state.json").read_bytes())
    graph = graph_from_dict(state["graph"])
    equation = graph.nodes["e-1"]
    assert equation.kind == "equation"
    assert equation.base is not None
    assert all(node.attributes["extraction"] == {"run": result["run"], "tool": "start_run"} for node in graph)


def test_every_shared_paper_starts_a_run_with_cites_resolved_from_its_bib(papers: Path, tmp_path: Path) -> None:
    # Every cited key resolves: from the .bib (read with bibtexparser) wherever the paper has no .bbl, and
    # from mlrc's own .bbl, which is stale against its .bib for one entry (the result says which won).
    expected = {
        "farr-normal-normal/src/tex/ms.tex": {"from_bib": 4, "from_bbl": 0, "unresolved": 0},
        "hastings-powell-replication/article/article.tex": {"from_bib": 10, "from_bbl": 0, "unresolved": 0},
        "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/main.tex": {
            "from_bib": 0,
            "from_bbl": 11,
            "unresolved": 0,
        },
        "dynonet-paper/doc/paper/ms.tex": {"from_bib": 20, "from_bbl": 0, "unresolved": 0},
    }
    results = {}
    for number, (main, counts) in enumerate(expected.items()):
        run = tmp_path / f"run-{number}"
        result = start(run, paper=papers / main)
        assert "error" not in result, (main, result)
        bibliography = json.loads((run / "manifest.json").read_bytes())["bibliography"]
        found = {name: len(bibliography[name]) for name in ("from_bib", "from_bbl", "unresolved")}
        assert found == counts, main
        summary = result["bibliography"]
        assert (summary["from_bib"], summary["from_bbl"], summary["unresolved"]["total"]) == tuple(
            counts[name] for name in ("from_bib", "from_bbl", "unresolved")
        )
        state, _ = call_tool("get_state", {"run": str(run), "unit": "reference", "limit": 500})
        references = state["nodes"]
        assert len(references) == result["counts"]["by_unit"]["reference"]
        results[main.split("/")[0]] = (bibliography, references)
    stale = results["mlrc-warmstart-repro"][0]["disagreements"]
    assert [(item["key"], item["field"], item["won"]) for item in stale] == [("original-paper", "venue", "bbl")]
    farr = {item["key"]: item for item in results["farr-normal-normal"][1]}
    assert farr["Isi2019"]["arxiv"] == "1904.08011"
    assert farr["Isi2019"]["doi"] == "10.1103/PhysRevLett.123.121101"


# -- bad input: each refused with a stable code, nothing written --------------------------------------


def refused(tmp_path: Path, code: str, **arguments: Any) -> str:
    before = tree(tmp_path)
    payload, is_error = call_tool("start_run", {"run": str(tmp_path / "run"), "model": "m", **arguments})
    assert is_error, payload
    assert payload["error"]["code"] == code, payload
    assert not (tmp_path / "run").exists()
    assert tree(tmp_path) == before
    message: str = payload["error"]["message"]
    assert str(tmp_path) not in message
    return message


@pytest.fixture
def rubric(tmp_path: Path) -> Path:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    return path


def test_a_missing_paper_is_refused(tmp_path: Path, rubric: Path) -> None:
    refused(tmp_path, "paper-not-found", paper=str(tmp_path / "nothere.tex"), rubric=str(rubric))


def test_an_empty_paper_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "empty.tex").write_text("\\documentclass{article}\\begin{document}\\end{document}\n")
    refused(tmp_path, "paper-empty", paper=str(tmp_path / "empty.tex"), rubric=str(rubric))
    (tmp_path / "zero.tex").write_bytes(b"")
    refused(tmp_path, "paper-empty", paper=str(tmp_path / "zero.tex"), rubric=str(rubric))


def test_a_paper_that_is_not_utf8_is_refused_naming_the_file(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "latin1.tex").write_bytes("\\begin{document}Caf\xe9 au lait.\\end{document}".encode("latin-1"))
    message = refused(tmp_path, "paper-not-utf8", paper=str(tmp_path / "latin1.tex"), rubric=str(rubric))
    assert "latin1.tex" in message


def test_an_input_file_that_is_not_utf8_is_refused_naming_it(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "main.tex").write_text("\\begin{document}Hello there.\\input{part}\\end{document}")
    (tmp_path / "part.tex").write_bytes("Caf\xe9.".encode("latin-1"))
    assert "part.tex" in refused(tmp_path, "paper-not-utf8", paper=str(tmp_path / "main.tex"), rubric=str(rubric))


def test_a_missing_input_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "main.tex").write_text("\\begin{document}Hello there.\\input{nothere}\\end{document}")
    message = refused(tmp_path, "paper-not-found", paper=str(tmp_path / "main.tex"), rubric=str(rubric))
    assert "nothere" in message


def test_an_input_outside_the_papers_directory_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "paper").mkdir()
    (tmp_path / "secret.tex").write_text("A secret sentence.")
    (tmp_path / "paper" / "main.tex").write_text("\\begin{document}Hello there.\\input{../secret}\\end{document}")
    message = refused(tmp_path, "outside-root", paper=str(tmp_path / "paper" / "main.tex"), rubric=str(rubric))
    assert message.startswith("\\input{../secret} (named in main.tex) is outside the paper's root 'paper'")
    assert "pass start_run `root`" in message


def test_a_paper_that_inputs_itself_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "main.tex").write_text("\\begin{document}Hello there.\\input{main}\\end{document}")
    refused(tmp_path, "paper-invalid", paper=str(tmp_path / "main.tex"), rubric=str(rubric))


def test_a_pdf_that_is_not_one_is_refused(tmp_path: Path, rubric: Path) -> None:
    (tmp_path / "fake.pdf").write_bytes(b"this is not a PDF at all")
    refused(tmp_path, "paper-invalid", paper=str(tmp_path / "fake.pdf"), rubric=str(rubric))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n garbage that PDFium cannot open")
    refused(tmp_path, "paper-invalid", paper=str(tmp_path / "broken.pdf"), rubric=str(rubric))


def test_a_rubric_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    paper = write_tiny_paper(tmp_path / "paper")
    (tmp_path / "bad.toml").write_text("[rubric\nformat = 2")
    refused(tmp_path, "rubric-invalid", paper=str(paper), rubric=str(tmp_path / "bad.toml"))


def test_a_missing_rubric_is_refused(tmp_path: Path) -> None:
    paper = write_tiny_paper(tmp_path / "paper")
    message = refused(tmp_path, "rubric-not-found", paper=str(paper), rubric=str(tmp_path / "nothere.toml"))
    # An agent that named a shipped rubric ("paper") learns where the shipped ones are and how to copy one.
    assert "`credencegraph-extract rubrics paper --copy paper.toml`" in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("format = 2", "format = 3"), "not a known rubric format"),
        (('version = "1"', 'version = "1"\ncolour = "blue"'), "unknown keys"),
    ],
)
def test_a_rubric_of_an_unknown_format_or_with_unknown_keys_is_refused(
    tmp_path: Path, change: tuple[str, str], words: str
) -> None:
    paper = write_tiny_paper(tmp_path / "paper")
    (tmp_path / "r.toml").write_text(RUBRIC.replace(*change, 1))
    assert words in refused(tmp_path, "rubric-invalid", paper=str(paper), rubric=str(tmp_path / "r.toml"))


def test_a_rubric_with_a_supports_edge_rule_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    paper = write_tiny_paper(tmp_path / "paper")
    text = RUBRIC.replace('relation = "requires"\nstrength = "beta:9,1"', 'relation = "supports"\nstrength = 0.9')
    assert 'relation = "supports"' in text
    (tmp_path / "r.toml").write_text(text)
    message = refused(tmp_path, "rubric-supports", paper=str(paper), rubric=str(tmp_path / "r.toml"))
    assert "claim" in message


def test_a_run_directory_that_already_exists_is_refused_and_left_alone(tmp_path: Path, rubric: Path) -> None:
    paper = write_tiny_paper(tmp_path / "paper")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "keep.txt").write_text("mine")
    payload, is_error = call_tool(
        "start_run", {"run": str(tmp_path / "run"), "paper": str(paper), "rubric": str(rubric), "model": "m"}
    )
    assert is_error
    assert payload["error"]["code"] == "run-exists"
    assert (tmp_path / "run" / "keep.txt").read_text() == "mine"


def example_with_cited(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the example paper whose cited folder (under the paper's root) is empty."""
    paper = tmp_path / "paper"
    shutil.copytree(EXAMPLE, paper)
    shutil.rmtree(paper / "cited")
    (paper / "cited").mkdir()
    return paper / "paper.tex", paper / "cited"


def test_a_cited_copy_named_after_no_bibliography_key_is_refused(tmp_path: Path) -> None:
    paper, cited = example_with_cited(tmp_path)
    (cited / "nobody2020.txt").write_text("text")
    message = refused(tmp_path, "cited-invalid", paper=str(paper), rubric=str(EXAMPLE_RUBRIC), cited=str(cited))
    assert "smith2019" in message  # the message lists the keys it could have been


def test_a_cited_copy_with_another_suffix_or_a_link_is_refused(tmp_path: Path) -> None:
    paper, cited = example_with_cited(tmp_path)
    (cited / "smith2019.docx").write_text("text")
    arguments = {"paper": str(paper), "rubric": str(EXAMPLE_RUBRIC), "cited": str(cited)}
    refused(tmp_path, "cited-invalid", **arguments)
    (cited / "smith2019.docx").unlink()
    os.symlink("/etc/hostname", cited / "smith2019.txt")
    refused(tmp_path, "cited-invalid", **arguments)


def test_a_bibliography_that_is_not_utf8_is_refused(tmp_path: Path, rubric: Path) -> None:
    paper = write_tiny_paper(tmp_path / "paper")
    bib = tmp_path / "paper" / "refs.bib"
    bib.write_bytes("@article{a, title={Caf\xe9}}".encode("latin-1"))
    refused(tmp_path, "bibliography-invalid", paper=str(paper), rubric=str(rubric), bibliography=str(bib))


def test_the_bbl_credencegraph_reads_is_recorded_and_stored(papers: Path, tmp_path: Path) -> None:
    main = papers / "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/main.tex"
    start(tmp_path / "run", paper=main, store_source=True)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_bytes())
    names = [item["name"] for item in manifest["document"]["files"]]
    assert names[0] == "main.tex"
    assert {"main.bbl", "content.tex", "packages.tex", "figures/table1-lr.tex"} <= set(names)
    assert (tmp_path / "run" / "source" / "main.bbl").read_bytes() == (main.parent / "main.bbl").read_bytes()


def test_a_pdf_paper_starts_a_run_that_replays_identically(tmp_path: Path, rubric: Path) -> None:
    from cgx_core.audit.replay import replay
    from support import make_pdf

    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(make_pdf([["We measured 12 runs of 300 s each.", "The total is 3600 s of data."], ["More text."]]))
    result = start(tmp_path / "run", paper=pdf, rubric=rubric, store_source=True)
    assert result["document"]["format"] == "pdf"
    assert [node["id"] for node in result["nodes"]] == ["s-1", "s-2", "s-3"]
    assert replay(tmp_path / "run", source=None, sources=None).identical
