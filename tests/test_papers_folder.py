"""The real papers live in the repository (tests/papers), each with its licence and source, so a clone with
nothing beside it runs every real-paper test; and no test reads the developers' scratch folder instead."""

from __future__ import annotations

from pathlib import Path

from support import PAPERS, ROOT

MOST_BYTES = 4_000_000
"""What the papers may weigh together: they travel with every clone."""
SCRATCH = ('"shared" / "papers"', "SHARED /", "../shared/papers")
"""The ways a test would name the scratch copy of the papers beside the repository."""


def test_every_paper_has_its_licence_and_source() -> None:
    folders = sorted(path for path in PAPERS.iterdir() if path.is_dir())
    assert len(folders) >= 5
    for folder in folders:
        assert (folder / "LICENSE").is_file(), folder.name
        source = (folder / "SOURCE.txt").read_text(encoding="utf-8")
        assert "github.com/" in source and "licen" in source.lower(), folder.name


def test_the_papers_stay_small() -> None:
    weight = sum(path.stat().st_size for path in PAPERS.rglob("*") if path.is_file())
    assert weight < MOST_BYTES, weight


def test_no_test_reads_the_shared_scratch_folder() -> None:
    readers = [
        path.relative_to(ROOT).as_posix()
        for folder in ("tests", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
        if path != Path(__file__) and any(way in path.read_text(encoding="utf-8") for way in SCRATCH)
    ]
    assert readers == []
