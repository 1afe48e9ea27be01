"""The synthetic paper and runs the benchmarks share, built once per benchmark run through the same tool
layer an agent uses (`call_tool`), from a seeded generator (same seed, same paper, same runs).

The paper is LaTeX in sections of paragraphs whose sentences come in threes: a method ("We ran trial N
with a fixed procedure on K machines.") then two results that write their own arithmetic ("Trial N used
A batches of B samples, C samples in all."), so every result can take a recompute-numbers check on
numbers the paper writes. One result in ten states its product off by one, so some checks fail.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parents[1]
RUBRIC = ROOT / "examples" / "rubrics" / "example-paper.toml"
PAPERS = ROOT / "tests" / "papers"
MODEL = "benchmark-model"
SEED = 20260101
SENTENCES_PER_PARAGRAPH = 9


@dataclass(frozen=True)
class Sentence:
    """One sentence of the synthetic paper: a method, or a result with the arithmetic it writes."""

    role: str
    text: str
    factors: tuple[int, int] = (0, 0)
    written: int = 0

    @property
    def proposal_fields(self) -> dict[str, str]:
        """A recompute-numbers proposal's expression and result, from the numbers the sentence writes."""
        return {"expression": f"{self.factors[0]} * {self.factors[1]}", "result": str(self.written)}


def sentences(count: int, seed: int = SEED, methods_every: int = 3) -> list[Sentence]:
    """`count` sentences, a method every `methods_every` (the results between rest on it); every product is
    distinct, so no two checks are the same observation."""
    rng = random.Random(seed)
    found: list[Sentence] = []
    products: set[int] = set()
    for index in range(count):
        number = index + 1
        if index % methods_every == 0:
            found.append(
                Sentence("method", f"We ran trial {number} with a fixed procedure on {rng.randrange(2, 90)} machines.")
            )
            continue
        while True:
            a, b = rng.randrange(2, 999), rng.randrange(2, 999)
            if a * b not in products:
                break
        products.add(a * b)
        written = a * b + (1 if index % 10 == 5 else 0)
        text = f"Trial {number} used {a} batches of {b} samples, {written} samples in all."
        found.append(Sentence("result", text, (a, b), written))
    return found


def write_paper(folder: Path, chunks: int, seed: int = SEED, methods_every: int = 3) -> tuple[Path, list[Sentence]]:
    """Write a LaTeX paper of exactly `chunks` sentence chunks; returns its main file and its sentences."""
    body = sentences(chunks, seed, methods_every)
    lines = [r"\documentclass{article}", r"\begin{document}"]
    for start in range(0, len(body), SENTENCES_PER_PARAGRAPH):
        if start % (SENTENCES_PER_PARAGRAPH * 4) == 0:
            lines.append(rf"\section{{Part {start // (SENTENCES_PER_PARAGRAPH * 4) + 1}}}")
        lines.extend([" ".join(item.text for item in body[start : start + SENTENCES_PER_PARAGRAPH]), ""])
    lines.append(r"\end{document}")
    folder.mkdir(parents=True, exist_ok=True)
    main = folder / "paper.tex"
    main.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return main, body


def tool(name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A tool call that must succeed: a failure here is a broken benchmark, not a figure."""
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool(name, dict(arguments))
    if is_error:
        raise RuntimeError(f"{name} failed: {payload}")
    return payload


@dataclass(frozen=True)
class Paper:
    """A synthetic paper on disk, with its chunk ids in document order."""

    main: Path
    body: list[Sentence]

    def start(self, run: Path) -> list[str]:
        """Start a run on the paper; returns the chunk ids, checked against the sentences written."""
        tool("start_run", {"run": str(run), "paper": str(self.main), "rubric": str(RUBRIC), "model": MODEL})
        chunks: list[dict[str, Any]] = []
        start: int | None = 0
        while start is not None:  # start_run lists a first page; get_state the rest, page by page
            page = tool("get_state", {"run": str(run), "unit": "sentence", "start": start, "limit": 300})
            chunks.extend(node for node in page["nodes"] if "text_cut" not in node)  # cut: on the next page
            start = page["next"]
        token = page["fence"]["token"]
        opening, closing = f"<data-{token}>", f"</data-{token}>"
        texts = [chunk["text"].removeprefix(opening).removesuffix(closing) for chunk in chunks]
        if texts != [item.text for item in self.body]:
            raise RuntimeError("the paper did not ingest into one chunk per sentence")
        return [chunk["id"] for chunk in chunks]

    def record(self, ids: Sequence[str], index: int) -> dict[str, Any]:
        """The classify record of chunk `index`: a method, or a result resting on its trial's method."""
        item = self.body[index]
        if item.role == "method":
            return {"node": ids[index], "type": "method", "form": {"kind": "procedure"}}
        return {
            "node": ids[index],
            "type": "result",
            "form": {"value": item.written},
            "rests_on": [ids[self.method_of(index)]],
        }

    def annotation(self, ids: Sequence[str], index: int) -> dict[str, Any]:
        """The same edit as `record`, as keyword arguments of credencegraph's `annotate_node`."""
        item = self.body[index]
        if item.role == "method":
            return {"node_type": "method", "settings": {"kind": "procedure"}}
        return {"node_type": "result", "settings": {"value": item.written}, "rests_on": [ids[self.method_of(index)]]}

    def method_of(self, index: int) -> int:
        """The method a result rests on: the last one before it."""
        while self.body[index].role != "method":
            index -= 1
        return index

    def proposal(self, ids: Sequence[str], index: int) -> dict[str, Any]:
        return {"type": "recompute-numbers", "target": ids[index], **self.body[index].proposal_fields}

    @property
    def results(self) -> list[int]:
        return [index for index, item in enumerate(self.body) if item.role == "result"]

    @property
    def methods(self) -> list[int]:
        return [index for index, item in enumerate(self.body) if item.role == "method"]


CLASSIFY_MOST: Final = 500
"""The most records one classify call takes (its schema's `maxItems`)."""


def schedule(paper: Paper, ids: Sequence[str], calls: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The calls after start_run of a long run: classify calls typing every chunk (500 records a call at the
    most), then four classify calls of one record (a method typed again, in turn) for each run_checks call of
    one proposal (the results in order), `calls` in all. After the typing every call is of the same kind early
    and late in the log."""
    typing = range(0, len(ids), CLASSIFY_MOST)
    for first in typing:
        yield (
            "classify",
            {"records": [paper.record(ids, index) for index in range(first, min(first + CLASSIFY_MOST, len(ids)))]},
        )
    methods = paper.methods
    results = iter(paper.results)
    for index in range(calls - len(typing)):
        if index % 5 == 4:
            yield "run_checks", {"proposals": [paper.proposal(ids, next(results))]}
        else:
            yield "classify", {"records": [paper.record(ids, methods[(index - index // 5) % len(methods)])]}


class Workspace:
    """The papers and runs several benchmarks use, each built the first time one asks for it."""

    def __init__(self, root: Path, *, quick: bool) -> None:
        self.root = root
        self.quick = quick
        self._runs = itertools.count()

    @cached_property
    def paper(self) -> Paper:
        """The 300-chunk paper."""
        return Paper(*write_paper(self.root / "paper-300", 300))

    @cached_property
    def small_paper(self) -> Paper:
        """A 30-chunk paper (10 methods, 20 results) for the runs verify reads a thousand times."""
        return Paper(*write_paper(self.root / "paper-30", 30, seed=SEED + 1))

    def typed_run(self, chunks: int) -> tuple[Paper, Path, list[str]]:
        """A run on a paper of `chunks` sentences, every chunk typed (500 records a call, the most a call takes)."""
        paper = Paper(*write_paper(self.root / f"paper-{chunks}", chunks))
        run = self.root / f"typed-{chunks}"
        ids = paper.start(run)
        for first in range(0, len(ids), 500):
            records = [paper.record(ids, index) for index in range(first, min(first + 500, len(ids)))]
            tool("classify", {"run": str(run), "records": records, "model": MODEL})
        return paper, run, ids

    def classified_run(self) -> tuple[Path, list[str]]:
        """A fresh run on the 300-chunk paper, just started."""
        run = self.root / f"run-{next(self._runs):03d}"
        return run, self.paper.start(run)

    @cached_property
    def finished_run(self) -> Path:
        """A finished run on the 300-chunk paper: every chunk typed in one call, 20 checks, finished."""
        paper = self.paper
        run, ids = self.classified_run()
        base = {"run": str(run), "model": MODEL}
        tool("classify", {**base, "records": [paper.record(ids, index) for index in range(len(ids))]})
        tool("run_checks", {**base, "proposals": [paper.proposal(ids, index) for index in paper.results[:20]]})
        tool("finish_run", base)
        return run

    @cached_property
    def verify_template(self) -> Path:
        """A finished run with 20 recompute-numbers checks: every chunk typed in one call, then 20 checks."""
        paper = self.small_paper
        run = self.root / "verify-template"
        ids = paper.start(run)
        base = {"run": str(run), "model": MODEL}
        tool("classify", {**base, "records": [paper.record(ids, index) for index in range(len(ids))]})
        proposals = [paper.proposal(ids, index) for index in paper.results]
        result = tool("run_checks", {**base, "proposals": proposals})
        if result["refused"] or len(result["checks"]) != 20:
            raise RuntimeError(f"the verify template did not get its 20 checks: {result['refused']}")
        tool("finish_run", base)
        return run

    def verify_copies(self, count: int) -> list[Path]:
        """`count` copies of the finished template (verify does not care that they share a run id)."""
        folder = self.root / "verify-copies"
        folder.mkdir(exist_ok=True)
        copies = sorted(folder.iterdir())
        for index in range(len(copies), count):
            target = folder / f"run-{index:04d}"
            shutil.copytree(self.verify_template, target)
            copies.append(target)
        return copies[:count]

    def verify_links(self, count: int) -> list[Path]:
        """`count` copies of the finished template made of hard links (verify only reads them): ten thousand
        runs in seconds, in the temporary directory."""
        folder = self.root / "verify-links"
        folder.mkdir(exist_ok=True)
        links = sorted(folder.iterdir())
        for index in range(len(links), count):
            target = folder / f"run-{index:05d}"
            shutil.copytree(self.verify_template, target, copy_function=os.link)
            links.append(target)
        return links[:count]
