"""start_run's result fits an agent's context whatever the paper: a summary and a first page under
MAX_RESULT_CHARS, the rest of the nodes from get_state pages, each page under the same bound."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cgx_core.tooling.output import result_text
from cgx_core.tooling.paging import MAX_RESULT_CHARS
from cgx_core.tooling.registry import TOOLS, call_tool
from support import EXAMPLE_RUBRIC

PAPER_RUBRIC = EXAMPLE_RUBRIC.with_name("paper.toml")
MAINS = {
    "farr-normal-normal": "src/tex/ms.tex",
    "hastings-powell-replication": "article/article.tex",
    "mlrc-warmstart-repro": "2020/mohtashami2021reproducibility/openreview/main.tex",
    "dynonet-paper": "doc/paper/ms.tex",
    "mlrc-cgn-repro": "2021/bagad2022reproducibility/journal/article.tex",
}


def start(run: Path, paper: Path, rubric: Path = PAPER_RUBRIC, **extra: Any) -> dict[str, Any]:
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(rubric), "model": "m", **extra}
    payload, is_error = call_tool("start_run", arguments)
    assert not is_error, payload
    return payload


def every_node_by_paging(run: Path, started: dict[str, Any]) -> list[str]:
    """The ids start_run lists, then every get_state page from its `next`, each page checked for size."""
    seen = [node["id"] for node in started["nodes"]]
    start = started["next"]
    while start is not None:
        page, is_error = call_tool("get_state", {"run": str(run), "start": start})
        assert not is_error, page
        assert page["nodes"], "a page holds one node at least"
        # A node longer than the bound comes alone (its text is never cut); any other page is under it.
        assert (
            len(result_text(page)) <= MAX_RESULT_CHARS or len([node for node in page["nodes"] if "text" in node]) == 1
        )
        seen.extend(node["id"] for node in page["nodes"] if "text" in node)  # the rest come again from `next`
        start = page["next"]
    return seen


def every_node_by_offsets(run: Path, limit: int) -> list[str]:
    """The ids of get_state's pages at fixed offsets (0, limit, 2 * limit, ...), whole or without their text:
    paging by offset skips none (issue 37)."""
    seen: list[str] = []
    while True:
        page, is_error = call_tool("get_state", {"run": str(run), "start": len(seen), "limit": limit})
        assert not is_error, page
        assert len(page["nodes"]) == min(limit, page["total"] - len(seen))
        seen.extend(node["id"] for node in page["nodes"])
        if len(seen) >= page["total"]:
            return seen


def state_ids(run: Path) -> list[str]:
    return [node["id"] for node in json.loads((run / "state.json").read_bytes())["graph"]["nodes"]]


def synthetic_paper(folder: Path, sentences: int) -> Path:
    """A LaTeX paper of `sentences` sentence chunks in paragraphs, with equations and a citation."""
    lines = [r"\documentclass{article}", r"\begin{document}"]
    for start in range(0, sentences, 10):
        paragraph = [
            f"Measurement {number} of the series gave {number * 3} counts in {number % 7 + 1} s."
            for number in range(start + 1, min(start + 11, sentences + 1))
        ]
        if start % 200 == 0:
            paragraph[-1] = paragraph[-1][:-1] + r" as shown before~\cite{smith2019}."
            lines += ["", r"\begin{equation}", f"x_{{{start}}} = {start} y", r"\end{equation}"]
        lines += ["", " ".join(paragraph)]
    lines += [
        r"\begin{thebibliography}{1}",
        r"\bibitem{smith2019} A. Smith, Counting things (2019).",
        r"\end{thebibliography}",
        r"\end{document}",
    ]
    folder.mkdir(parents=True, exist_ok=True)
    main = folder / "paper.tex"
    main.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return main


def test_start_run_on_every_shared_paper_is_under_the_bound_and_get_state_pages_reach_every_node(
    papers: Path, tmp_path: Path
) -> None:
    arguments = TOOLS["start_run"].input_schema()["properties"]
    started_any = 0
    for number, (folder, main) in enumerate(MAINS.items()):
        run = tmp_path / f"run-{number}"
        # A paper that reads files beside its main file's folder needs the paper's root, where start_run takes one.
        extra = {"root": str(papers / folder)} if "root" in arguments else {}
        payload, is_error = call_tool(
            "start_run",
            {"run": str(run), "paper": str(papers / folder / main), "rubric": str(PAPER_RUBRIC), "model": "m", **extra},
        )
        if is_error:
            assert folder == "mlrc-cgn-repro" and "root" not in arguments, payload
            continue
        started_any += 1
        assert len(result_text(payload)) <= MAX_RESULT_CHARS, folder
        assert payload["counts"]["nodes"] == payload["total"] == len(state_ids(run))
        assert payload["nodes"], "the first page lists nodes"
        assert every_node_by_paging(run, payload) == state_ids(run)
        assert every_node_by_offsets(run, 50) == state_ids(run)
        for item in payload["checks"]:  # each schema is listed, or named where to read it
            elsewhere = item["name"] in payload.get("proposals_elsewhere", "")
            assert item["installed"] is False or "proposal" in item or item["fallback_for"] or elsewhere, item
    assert started_any >= 4


def test_a_2000_chunk_paper_starts_under_the_bound_and_pages_through_every_node(tmp_path: Path) -> None:
    run = tmp_path / "run"
    started = start(run, synthetic_paper(tmp_path / "paper", 2000))
    assert len(result_text(started)) <= MAX_RESULT_CHARS
    assert started["counts"]["by_unit"]["sentence"] >= 2000
    assert started["counts"]["untyped"] >= 2000
    assert 0 < len(started["nodes"]) < started["total"]
    assert every_node_by_paging(run, started) == state_ids(run)


def test_a_chunk_longer_than_the_bound_is_left_to_get_state_which_lists_it_alone(tmp_path: Path) -> None:
    words = " ".join(f"word{number}" for number in range(4000))  # one sentence of about 36,000 characters
    paper = tmp_path / "paper.tex"
    paper.write_text(
        "\\documentclass{article}\n\\begin{document}\n" + words + ".\n\nA short one.\n\\end{document}\n",
        encoding="utf-8",
    )
    run = tmp_path / "run"
    started = start(run, paper)
    assert len(result_text(started)) <= MAX_RESULT_CHARS
    assert (started["nodes"], started["next"]) == ([], 0)
    page, _ = call_tool("get_state", {"run": str(run), "start": 0})
    assert [node["id"] for node in page["nodes"] if "text" in node] == ["s-1"]
    assert [node["id"] for node in page["nodes"] if "text_cut" in node] == ["s-2"] and page["next"] == 1
    assert every_node_by_paging(run, started) == state_ids(run)


def test_a_huge_rubric_is_shortened_and_says_what_it_left_out(tmp_path: Path) -> None:
    extra = "".join(
        f'\n[types.extra{number}]\ndescription = "{"A type that asserts nothing in particular. " * 12}"\n'
        f'base = "beta:9,1"\n'
        for number in range(400)
    )
    rubric = tmp_path / "huge.toml"
    rubric.write_text(PAPER_RUBRIC.read_text(encoding="utf-8") + extra, encoding="utf-8")
    started = start(tmp_path / "run", synthetic_paper(tmp_path / "paper", 50), rubric=rubric)
    assert len(result_text(started)) <= MAX_RESULT_CHARS
    notes = started["shortened"]
    assert "types: the descriptions" in notes
    assert any(note.startswith("types: ") and " of " in note for note in notes)
    assert started["nodes"], "the shortened listing leaves room for a page"


def test_long_unresolved_cite_keys_are_cut_and_the_bound_holds(tmp_path: Path) -> None:
    keys = [f"key{number}" + "x" * 400 for number in range(60)]
    body = " ".join(f"Claim {number} holds~\\cite{{{key}}}." for number, key in enumerate(keys))
    paper = tmp_path / "paper.tex"
    paper.write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8")
    started = start(tmp_path / "run", paper)
    assert len(result_text(started)) <= MAX_RESULT_CHARS
    unresolved = started["bibliography"]["unresolved"]
    assert unresolved["total"] == 60
    assert all(len(key) <= 200 and key.endswith("...") for key in unresolved["first"])
    # get_state gives the whole list back, a page at a time, each key whole (issue 37)
    seen: list[str] = []
    start_at: int | None = 0
    while start_at is not None:
        page, is_error = call_tool(
            "get_state", {"run": str(tmp_path / "run"), "summary": "bibliography.unresolved", "start": start_at}
        )
        assert not is_error and len(result_text(page)) <= MAX_RESULT_CHARS, page
        seen += page["summary"]["items"]
        start_at = page["summary"]["next"]
    assert seen == sorted(keys)  # the manifest keeps them sorted


def test_get_state_gives_start_runs_summary_back_whole_and_each_of_its_lists(tmp_path: Path) -> None:
    """A client that lost start_run's result (its harness failed reading it) continues from get_state: the very
    result again, and every list it cut to its first few, whole (issue 37)."""
    run = tmp_path / "run"
    started = start(run, synthetic_paper(tmp_path / "paper", 40), rubric=PAPER_RUBRIC)
    assert started["replay"].startswith("the run keeps paper.tex's digest, not the paper (store_source false)")
    call_tool("classify", {"run": str(run), "model": "m", "records": [{"node": "s-01", "type": "context"}]})
    again, is_error = call_tool("get_state", {"run": str(run), "summary": "all"})
    assert not is_error, again
    assert again == {"run": started["run"], "start_run": started}  # after a call too: the result of call 1
    for part, expected in (("types", len(started["types"])), ("hedges", len(started["hedges"]))):
        page, _ = call_tool("get_state", {"run": str(run), "summary": part, "limit": 500})
        assert page["summary"]["total"] == expected and page["summary"]["next"] is None
    checks, _ = call_tool("get_state", {"run": str(run), "summary": "checks", "limit": 1})
    assert checks["summary"]["total"] == len(started["checks"]) and checks["summary"]["next"] == 1
    assert checks["summary"]["items"][0] == started["checks"][0]  # with its proposal schema, as start_run showed it
    stored = start(tmp_path / "stored", synthetic_paper(tmp_path / "paper2", 5), store_source=True)
    assert stored["replay"] == "the run keeps a copy of paper.tex: replay and report need no --source"


@pytest.mark.parametrize("limit", [1, 7, 50, 500])
def test_get_state_pages_hold_at_most_limit_nodes_and_stay_under_the_bound(tmp_path: Path, limit: int) -> None:
    run = tmp_path / "run"
    start(run, synthetic_paper(tmp_path / "paper", 600))
    seen: list[str] = []
    start_at: int | None = 0
    while start_at is not None:
        page, _ = call_tool("get_state", {"run": str(run), "start": start_at, "limit": limit})
        if "error" in page:  # more nodes than even their ids fit: refused, with a smaller limit that fits
            assert page["error"]["code"] == "invalid-arguments", page
            fitting = int(re.search(r"ask limit=(\d+)$", page["error"]["message"]).group(1))  # type: ignore[union-attr]
            assert fitting < limit
            limit = fitting
            continue
        assert len(page["nodes"]) <= limit
        assert len(result_text(page)) <= MAX_RESULT_CHARS
        seen.extend(node["id"] for node in page["nodes"] if "text" in node)
        start_at = page["next"]
    assert seen == state_ids(run)


class Reworded:
    """An installed check type whose proposal schema says more than it did: a plugin's new release."""

    MEMBERS = (
        "name", "tool", "description", "fallback_for", "uses_model", "retry_after_error",
        "prepare", "slot_of", "observation_key", "run", "rerun",
    )  # fmt: skip

    def __init__(self, original: Any, padding: int) -> None:
        for member in self.MEMBERS:  # as attributes of its own: the protocol is checked without __getattr__
            setattr(self, member, getattr(original, member))
        schema = dict(original.proposal_schema)
        schema["description"] = "Reworded. " + "More words. " * padding
        self.proposal_schema = schema


def reworded_registry(padding: int) -> Any:
    from cgx_core.checks.installed import CheckTypeRegistry, installed_check_types

    registry = CheckTypeRegistry()
    for item in installed_check_types():
        registry.providing(item.distribution, item.version)
        registry(Reworded(item.check_type, padding))  # type: ignore[arg-type]
    return registry


def test_proposal_schemas_are_shown_but_a_plugin_that_rewords_them_does_not_make_a_run_diverge(
    tmp_path: Path,
) -> None:
    from cgx_core.audit.replay import replay
    from cgx_core.checks.installed import check_types_scope
    from support import start_example

    started = start_example(tmp_path / "run", store_source=True)
    assert all("proposal" in item for item in started["checks"] if item["installed"] and not item["fallback_for"])
    with check_types_scope(reworded_registry(20)):
        assert replay(tmp_path / "run", source=None, sources=None).identical


def test_proposal_schemas_too_long_for_their_room_are_named_with_where_to_read_them(tmp_path: Path) -> None:
    from cgx_core.checks.installed import check_types_scope

    with check_types_scope(reworded_registry(400)):
        started = start(tmp_path / "run", synthetic_paper(tmp_path / "paper", 300))
    assert len(result_text(started)) <= MAX_RESULT_CHARS
    assert "too long to list here" in started["proposals_elsewhere"]
    assert started["nodes"]
