"""The names of the files of a run: one place, so no module spells a file name twice."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RUN_FORMAT = "credencegraph-extract-run"
RUN_VERSION = 2
STATE_FORMAT = "credencegraph-extract-state"


@dataclass(frozen=True)
class RunPaths:
    """Every file of a run, relative to its directory."""

    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / "manifest.json"

    @property
    def log(self) -> Path:
        return self.root / "calls.jsonl"

    @property
    def state(self) -> Path:
        return self.root / "state.json"

    @property
    def ingested(self) -> Path:
        return self.root / "ingested.json"

    @property
    def rubric(self) -> Path:
        return self.root / "rubric.toml"

    @property
    def tolerances(self) -> Path:
        """The hedge tolerances the run uses: a byte copy of the rubric's companion, or of the default."""
        return self.root / "tolerances.toml"

    @property
    def cited(self) -> Path:
        return self.root / "cited"

    @property
    def checks(self) -> Path:
        return self.root / "checks"

    @property
    def source(self) -> Path:
        return self.root / "source"

    @property
    def sources(self) -> Path:
        return self.root / "sources"

    @property
    def graph(self) -> Path:
        return self.root / "graph.json"

    @property
    def rejections(self) -> Path:
        return self.root / "rejections.json"

    @property
    def report(self) -> Path:
        return self.root / "report.json"

    @property
    def lock(self) -> Path:
        """The lock file: created once and never deleted, so every process locks the same inode."""
        return self.root / ".lock"

    @property
    def finished_files(self) -> tuple[Path, ...]:
        """The files that exist only while the run is finished."""
        return (self.graph, self.rejections, self.report)
