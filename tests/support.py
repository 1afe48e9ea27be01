"""Paths and helpers the tests share (importable because pyproject puts tests/ on pytest's pythonpath)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
"""The developers' scratch folder beside the repository: never needed by a test."""
PAPERS = ROOT / "tests" / "papers"
"""The real papers the tests read, each with its licence and SOURCE.txt (tests/papers/README.md): in the
repository, so any clone runs every real-paper test."""
EXAMPLE = ROOT / "examples" / "end-to-end" / "paper"
EXAMPLE_RUBRIC = ROOT / "examples" / "rubrics" / "example-paper.toml"


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by relative path, with its bytes."""
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def start_example(run: Path, *, store_source: bool = False, model: str = "test-model") -> dict[str, Any]:
    """Start a run on the example paper with its rubric and cited copies."""
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool(
        "start_run",
        {
            "run": str(run),
            "paper": str(EXAMPLE / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "cited": str(EXAMPLE / "cited"),
            "store_source": store_source,
            "model": model,
        },
    )
    assert not is_error, payload
    return payload


def call(run: Path, tool: str, model: str = "test-model", **arguments: Any) -> dict[str, Any]:
    """A changing call on a run, in process; returns the JSON result (or error)."""
    from cgx_core.tooling.registry import call_tool

    payload, _ = call_tool(tool, {"run": str(run), "model": model, **arguments})
    return payload


def start_paper(folder: Path, latex: str, rubric: Path, **arguments: Any) -> Path:
    """A run (`folder/run`) started in process on a one-file LaTeX paper written to `folder/paper/paper.tex`."""
    paper = folder / "paper" / "paper.tex"
    paper.parent.mkdir(parents=True)
    paper.write_text(latex, encoding="utf-8")
    run = folder / "run"
    started = call(run, "start_run", paper=str(paper), rubric=str(rubric), **arguments)
    assert "error" not in started, started
    return run


def person_review(run: Path, **arguments: Any) -> dict[str, Any]:
    """A review as the `review` command records one a person entered at a terminal (`by_person`), in process."""
    from cgx_core.tooling.registry import call_tool

    payload, _ = call_tool("review", {"run": str(run), "model": "person", **arguments}, by_person=True)
    return payload


# One classification of every chunk of the example paper, as an agent would send it.
EXAMPLE_RECORDS: list[dict[str, Any]] = [
    {"node": "s-01", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-14"], "hedge": "We show"},
    {"node": "s-02", "type": "literature_claim"},
    {"node": "s-03", "type": "literature_claim"},
    {"node": "s-04", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-03"], "hedge": "suggests"},
    {"node": "s-05", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-06", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-07", "type": "derivation", "form": {"equation": "eq:ratio"}},
    {"node": "s-08", "type": "derivation"},
    {"node": "s-09", "type": "derivation"},
    {"node": "s-10", "type": "derivation"},
    {"node": "s-11", "type": "assumption"},
    {"node": "s-12", "type": "result", "form": {"value": 3000}, "rests_on": ["s-05"]},
    {"node": "s-13", "type": "result", "form": {"value": 90000}, "rests_on": ["s-05"]},
    {"node": "s-14", "type": "result", "form": {"value": 0.015}, "rests_on": ["s-07", "s-06"]},
    {"node": "s-15", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-14"], "hedge": "may"},
]

EXAMPLE_PREMISES: list[dict[str, Any]] = [
    {"conclusion": "s-01", "premises": [{"statement": "The noise is white and stationary."}]},
    {"conclusion": "s-15", "premises": [{"statement": "The noise is white and stationary."}, {"stated_at": "s-11"}]},
]


def make_pdf(pages: Sequence[Sequence[str]]) -> bytes:
    """A valid PDF 1.4 with one Helvetica text line per string, one page per list (cross-reference offsets exact)."""
    count = len(pages)
    kids = " ".join(f"{4 + 2 * index} 0 R" for index in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for index, lines in enumerate(pages):
        operators = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            operators.append(f"({escaped}) Tj T*")
        operators.append("ET")
        stream = "\n".join(operators).encode("cp1252")
        objects.append(
            (
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * index} 0 R >>"
            ).encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


HOLD_LOCK = """
import sys, time
from pathlib import Path
from cgx_core.run.lock import RunLock
with RunLock(Path(sys.argv[1]) / ".lock", wait_seconds=1):
    print("held", flush=True)
    time.sleep(120)
"""


def start_lock_holder(run: Path) -> subprocess.Popen[str]:
    """Another process holding the run's lock (it has taken it when this returns); the caller kills it."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(run)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def listed_nodes(run: Path, **filters: Any) -> list[dict[str, Any]]:
    """Every node of a run as get_state lists them, page by page (as an agent reads them after start_run): a node
    past a page's size bound comes without its text (`text_cut`), and the next page starts with it."""
    from cgx_core.tooling.registry import call_tool

    nodes: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page, is_error = call_tool("get_state", {"run": str(run), "start": start, **filters})
        assert not is_error, page
        nodes.extend(node for node in page["nodes"] if "text_cut" not in node)  # cut: on the next page
        start = page["next"]
    return nodes


def nested_macros(folder: Path, levels: int) -> Path:
    r"""A paper whose one macro expands into 2**levels copies: \lb is \la\la, \lc is \lb\lb, ..."""
    folder.mkdir(parents=True)
    names = [f"l{chr(97 + level)}" for level in range(levels + 1)]
    defs = f"\\newcommand{{\\{names[0]}}}{{ab}}\n" + "".join(
        f"\\newcommand{{\\{name}}}{{\\{previous}\\{previous}}}\n" for previous, name in itertools.pairwise(names)
    )
    main = folder / "main.tex"
    body = f"\\begin{{document}}\nIt is \\{names[-1]}. Done.\n\\end{{document}}\n"
    main.write_text(f"\\documentclass{{article}}\n{defs}{body}")
    return main


def children_of(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
