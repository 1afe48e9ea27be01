r"""The lists a paper writes, recorded on their chunks at start_run (cgx_core.ingest.lists), and counted by
`items()` for the chunk that announces one ("We evaluate on three datasets:" before an itemize): through the
tools, as an agent sends it, then replayed and verified."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.numbers.enumeration import list_after
from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import call_tool
from support import ROOT, start_paper

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def paper(body: str) -> str:
    return "\\documentclass{article}\n\\begin{document}\n\\section{Data}\n" + body + "\n\\end{document}\n"


FOUR_DATASETS = paper(
    """We evaluate on three datasets:
\\begin{itemize}
  \\item MNIST, handwritten digits.
  \\item CIFAR-10, small images. It has ten classes.
  \\item SVHN, house numbers.
  \\item ImageNet.
\\end{itemize}
Our two contributions are as follows:
\\begin{enumerate}
  \\item A method.
  \\item A proof:
  \\begin{itemize}
    \\item of the bound;
    \\item of the rate.
  \\end{itemize}
\\end{enumerate}"""
)


def chunks(run: Path) -> list[dict[str, Any]]:
    state = json.loads((run / "state.json").read_bytes())
    return [node for node in state["graph"]["nodes"] if node["attributes"].get("origin") == "document"]


def lists(run: Path) -> list[tuple[str, dict[str, int] | None]]:
    return [(node["statement"], node["attributes"].get("list")) for node in chunks(run)]


def check(run: Path, target: str, result: str) -> dict[str, Any]:
    """items(target) against `result`, sent as an agent sends it: the check, or the refusal."""
    classified, _ = call_tool(
        "classify",
        {"run": str(run), "model": "m", "records": [{"node": target, "type": "method", "form": {"kind": "procedure"}}]},
    )
    assert "error" not in classified, classified
    proposal = {"type": "recompute-numbers", "target": target, "expression": f"items({target})", "result": result}
    sent, _ = call_tool("run_checks", {"run": str(run), "model": "m", "proposals": [proposal]})
    assert "error" not in sent, sent
    return (sent["checks"] or sent["refused"])[0]  # type: ignore[no-any-return]


def test_each_chunk_of_a_list_records_its_list_and_item_and_a_nested_list_is_its_own(tmp_path: Path) -> None:
    run = start_paper(tmp_path, FOUR_DATASETS, RUBRIC)
    assert lists(run) == [
        ("We evaluate on three datasets:", None),
        ("MNIST, handwritten digits.", {"number": 1, "item": 1, "items": 4}),
        ("CIFAR-10, small images.", {"number": 1, "item": 2, "items": 4}),
        ("It has ten classes.", {"number": 1, "item": 2, "items": 4}),  # two sentences, one item
        ("SVHN, house numbers.", {"number": 1, "item": 3, "items": 4}),
        ("ImageNet.", {"number": 1, "item": 4, "items": 4}),
        ("Our two contributions are as follows:", None),
        ("A method.", {"number": 2, "item": 1, "items": 2}),
        ("A proof:", {"number": 2, "item": 2, "items": 2}),
        ("of the bound;", {"number": 3, "item": 1, "items": 2}),  # the inner list's items are not the outer's
        ("of the rate.", {"number": 3, "item": 2, "items": 2}),
    ]


@pytest.mark.parametrize(
    "body",
    [
        # Two items on one line: which chunk is which item cannot be read from lines.
        "Three kinds:\n\\begin{itemize}\n\\item A. \\item B.\n\\item C.\n\\end{itemize}",
        # A list begun after text on its line.
        "Three kinds: \\begin{itemize}\n\\item A.\n\\item B.\n\\item C.\n\\end{itemize}",
        # A list whose items stand in another file (items.tex).
        "Three kinds:\n\\begin{itemize}\n\\input{items}\n\\end{itemize}",
    ],
)
def test_a_list_whose_lines_do_not_tell_its_items_apart_records_nothing(tmp_path: Path, body: str) -> None:
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "items.tex").write_text("\\item A.\n\\item B.\n\\item C.\n", encoding="utf-8")
    (tmp_path / "paper" / "paper.tex").write_text(paper(body), encoding="utf-8")
    run = tmp_path / "run"
    started, _ = call_tool(
        "start_run",
        {"run": str(run), "model": "m", "paper": str(tmp_path / "paper" / "paper.tex"), "rubric": str(RUBRIC)},
    )
    assert "error" not in started, started
    assert [statement for statement, _ in lists(run)][-3:] == ["A.", "B.", "C."]
    assert all(written is None for _, written in lists(run))


def test_the_items_of_a_table_s_notes_inside_a_list_are_not_the_list_s(tmp_path: Path) -> None:
    body = (
        "Two kinds:\n\\begin{itemize}\n\\item A.\n\\begin{table}\\begin{tabular}{ll}a & b\\\\\\end{tabular}\n"
        "\\begin{tablenotes}\n\\item Note one.\n\\item Note two.\n\\end{tablenotes}\\end{table}\n\\item B.\n"
        "\\end{itemize}"
    )
    run = start_paper(tmp_path, paper(body), RUBRIC)
    assert {written["items"] for _, written in lists(run) if written is not None} == {2}


def test_a_count_of_the_list_a_chunk_announces_is_checked_replayed_and_verified(tmp_path: Path) -> None:
    run = start_paper(tmp_path, FOUR_DATASETS, RUBRIC)
    wrong = check(run, "s-01", "three")
    assert (wrong["result"], wrong["detail"]) == (
        "failed",
        "items(s-01) = 4, reported 3 +- 0 (a number word is exact): failed",
    )
    assert check(run, "s-07", "two")["result"] == "passed"  # the nested list is not counted with the outer
    assert check(run, "s-02", "four")["code"] == "enumeration-not-found"  # an item announces nothing
    records = [{"node": node["id"], "type": "method", "form": {"kind": "procedure"}} for node in chunks(run)]
    call_tool("classify", {"run": str(run), "model": "m", "records": records})
    verified = assert_run_verifies(run, source=run.parent / "paper" / "paper.tex")
    assert verified.rerun == verified.checks == 2


def test_a_list_with_an_item_no_chunk_holds_is_not_counted(tmp_path: Path) -> None:
    body = "We use three datasets:\n\\begin{itemize}\n\\item A.\n\\item\n\\item C.\n\\end{itemize}"
    run = start_paper(tmp_path, paper(body), RUBRIC)
    assert check(run, "s-1", "three")["code"] == "enumeration-not-found"


@pytest.mark.parametrize(
    "written",
    [{"number": 1, "item": 1, "items": "2"}, {"number": 1, "item": True, "items": 2}, [1, 1, 2], "list"],
)
def test_a_list_record_that_is_not_three_whole_numbers_counts_nothing(written: object) -> None:
    """A graph.json edited under verify: the recount gives none, and verify reports the difference."""
    chunks = [("s-1", "Two kinds:", {}), ("s-2", "A.", {"list": written}), ("s-3", "B.", {"list": written})]
    assert list_after(chunks, "s-1") is None
    good = {"number": 1, "item": 1, "items": 1}
    assert list_after([("s-1", "One kind:", {}), ("s-2", "A.", {"list": good})], "s-1") == 1
    assert list_after([("s-1", "One kind.", {}), ("s-2", "A.", {"list": good})], "s-1") is None  # no colon
