"""Full runs of the shared papers, built through the tools as an agent builds them (`call_tool`), by one
deterministic rule for every paper (no paper is special-cased):

- every chunk is typed: an equation as `equation`, a table row as `data`, a sentence writing a numeral as a
  `result` resting on the latest method, equation or data before it; every fifth other sentence is a
  `method`, every 25th a `claim` resting on every result of the paper so far (the "taken together" shape,
  large fan-in); the last sentence is a claim on every result; the rest `context`;
- every result and claim gets analyst premises as agents write them: one statement shared by all of them,
  and one of three shared by a third each (the shape that carries one failure into claims nobody checked);
- every result whose text writes a, b and a + b or a * b gets that recompute-numbers check, and every
  result and claim a scripted reviewer's verdict (`review`, entered by the person), one in seven "fails".

Used by the inference benchmark (`bench_inference.py`) and its test; a refused record or proposal is
skipped, as an agent would move on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPERS = ROOT / "tests" / "papers"
MAIN_FILES = {
    "farr-normal-normal": "src/tex/ms.tex",
    "hastings-powell-replication": "article/article.tex",
    "mlrc-warmstart-repro": "2020/mohtashami2021reproducibility/openreview/main.tex",
    "dynonet-paper": "doc/paper/ms.tex",
    "mlrc-cgn-repro": "2021/bagad2022reproducibility/journal/article.tex",
}
ROOTS = {"mlrc-cgn-repro": "2021/bagad2022reproducibility"}
"""Papers whose main file reads files beside its folder: start_run's `root`, as its refusal says."""
MODEL = "benchmark-model"
SHARED_BY_ALL = "The paper's measurements and computations are free of systematic error."
SHARED_BY_A_THIRD = (
    "The implementation matches the procedure the text describes.",
    "The data are representative of the setting the conclusions are about.",
    "The reported numbers were transcribed correctly from the experiments.",
)
NUMERAL = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
BATCH = 20
NOT_DATA = ("sentence", "clause", "paragraph", "caption", "item", "footnote")


def _call(name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool(name, dict(arguments))
    if is_error:
        raise RuntimeError(f"{name} failed: {payload}")
    return payload


def _batches(items: Sequence[Any], size: int = BATCH) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _unassigned(run: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page = _call("get_state", {"run": str(run), "type": "unassigned", "start": start, "limit": 500})
        opening, closing = f"<data-{page['fence']['token']}>", f"</data-{page['fence']['token']}>"
        for node in page["nodes"]:
            if "text_cut" in node:  # past the page's size bound: the next page starts with it, text and all
                continue
            found.append({**node, "text": str(node["text"]).removeprefix(opening).removesuffix(closing)})
        start = page["next"]
    return found


def _records(chunks: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The classify records of every chunk; the results and the claims among them."""
    records: list[dict[str, Any]] = []
    results: list[str] = []
    claims: list[str] = []
    basis: str | None = None
    sentences = 0
    for position, chunk in enumerate(chunks):
        node, unit, text = chunk["id"], chunk.get("unit"), chunk["text"]
        if unit == "equation":
            records.append({"node": node, "type": "equation"})
            basis = node
        elif unit not in NOT_DATA and node.startswith("t-"):
            records.append({"node": node, "type": "data"})
            basis = node
        elif NUMERAL.search(text) and basis is not None:
            records.append({"node": node, "type": "result", "rests_on": [basis]})
            results.append(node)
        else:
            sentences += 1
            last = position == len(chunks) - 1
            if results and (last or sentences % 25 == 0):
                records.append(
                    {"node": node, "type": "claim", "form": {"shape": "universal"}, "rests_on": list(results)}
                )
                claims.append(node)
            elif basis is None or sentences % 5 == 0:
                records.append({"node": node, "type": "method", "form": {"kind": "procedure"}})
                basis = node
            else:
                records.append({"node": node, "type": "context"})
    return records, results, claims


def _premises(conclusions: Sequence[str]) -> list[dict[str, Any]]:
    return [
        {
            "conclusion": node,
            "premises": [{"statement": SHARED_BY_ALL}, {"statement": SHARED_BY_A_THIRD[index % 3]}],
        }
        for index, node in enumerate(conclusions)
    ]


def _proposals(results: Sequence[str], text_of: Mapping[str, str]) -> list[dict[str, Any]]:
    """A recompute-numbers proposal for each result whose numerals hold a sum or a product of two others."""
    proposals = []
    for node in results:
        numerals = list(dict.fromkeys(NUMERAL.findall(text_of[node])))
        values = {value: float(value) for value in numerals}
        found = next(
            (
                (f"{a} {sign} {b}", c)
                for a in numerals
                for b in numerals
                for sign, apply in (("+", float.__add__), ("*", float.__mul__))
                for c in numerals
                if len({a, b, c}) == 3 and values[a] > 1 and values[b] > 1 and apply(values[a], values[b]) == values[c]
            ),
            None,
        )
        if found is not None:
            proposals.append(
                {
                    "type": "recompute-numbers",
                    "target": node,
                    "cites": [node],
                    "expression": found[0],
                    "result": found[1],
                }
            )
    return proposals


def _review(run: Path, node: str, index: int) -> None:
    verdict = "fails" if index % 7 == 3 else "holds"
    _call(
        "review",
        {
            "run": str(run),
            "model": MODEL,
            "node": node,
            "verdict": verdict,
            "reviewer": "Benchmark Reviewer",
            "reason": f"scripted verdict {index} of the benchmark",
        },
    )


def build_full_run(paper: str, run: Path) -> dict[str, Any]:
    """A finished full run of `paper` at `run`; returns finish_run's result."""
    model = {"run": str(run), "model": MODEL}
    main = PAPERS / paper / MAIN_FILES[paper]
    root = {"root": str(PAPERS / paper / ROOTS[paper])} if paper in ROOTS else {}
    _call("start_run", {**model, "paper": str(main), "rubric": str(RUBRIC), "store_source": True, **root})
    chunks = _unassigned(run)
    records, results, claims = _records(chunks)
    for batch in _batches(records, 500):
        _call("classify", {**model, "records": list(batch)})
    for batch in _batches(_premises([*results, *claims]), 500):
        _call("add_premises", {**model, "records": list(batch)})
    text_of = {chunk["id"]: chunk["text"] for chunk in chunks}
    for batch in _batches(_proposals(results, text_of)):
        _call("run_checks", {**model, "proposals": list(batch)})
    for index, node in enumerate([*results, *claims]):
        _review(run, node, index)
    for node in _unassigned(run):  # what classify refused: typed as context, so finish_run's gate passes
        _call("classify", {**model, "records": [{"node": node["id"], "type": "context"}]})
    return _call("finish_run", model)
