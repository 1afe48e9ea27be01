"""Fixtures of the boundary fuzzers: a started run to aim at, and the paths and names to draw from.

The project runs pytest with `--import-mode=importlib`, where a test module cannot import a sibling
module; this folder is put on `sys.path` for `fuzz_cases` and `cli_child`, and tests/fault for its
`fork_server` (names chosen not to collide with any other test folder's helpers).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fault"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fork_server import ForkServer
from fuzz_cases import Targets

from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, call, start_example

PASSAGES = (
    "Damped oscillators describe many laboratory systems, from torsion pendula",
    "Damped oscillators",
    "a passage the source does not hold",
)


@pytest.fixture(scope="session")
def fuzz_targets(tmp_path_factory: pytest.TempPathFactory) -> Targets:
    """A run started on the example and classified (so checks and judgements can be accepted), its pristine
    copy, and paths of every kind a run argument can name."""
    folder = tmp_path_factory.mktemp("fuzz")
    template = folder / "template"
    started = start_example(template)
    assert call(template, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(template, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    run = folder / "run"
    shutil.copytree(template, run)
    scratch = folder / "scratch"
    scratch.mkdir()
    plain = folder / "plain"
    plain.mkdir()
    (folder / "file.txt").write_text("not a run\n", encoding="utf-8")
    assert started["next"] is None, "the example's nodes fit start_run's first page"
    ids = [node["id"] for node in started["nodes"]]
    types = [item["name"] for item in started["types"]]
    fields = sorted({name for item in started["types"] for name in item.get("form", {})})
    return Targets(
        run=run,
        template=template,
        scratch=scratch,
        missing=folder / "missing",
        file=folder / "file.txt",
        plain_dir=plain,
        paper=EXAMPLE / "paper.tex",
        rubric=EXAMPLE_RUBRIC,
        cited=EXAMPLE / "cited",
        bibliography=EXAMPLE / "refs.bib",
        node_ids=(*ids, "a-1", "c-001", "s-01a"),
        types=(*types, "unassigned", "compound"),
        form_fields=(*fields, "shape", "value"),
        passages=PASSAGES,
        cited_names=("smith2019.txt", "jones2021.tex", "nobody.txt", "../paper.tex"),
    )


@pytest.fixture(scope="session")
def cli_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    """A warmed-up process that forks one `credencegraph-extract` command line per case."""
    here = Path(__file__).resolve().parent
    server = ForkServer.start("cli_child", tmp_path_factory.mktemp("cli-server"), [here, here.parent])
    try:
        yield server
    finally:
        server.close()
