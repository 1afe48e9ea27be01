"""Installing a throwaway distribution for one test: a module and a dist-info directory on sys.path,
which is all importlib.metadata (and so pluggy's entry-point loading) looks at."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cgx_core.hookspecs import ENTRY_POINT_GROUP

FakeDistribution = Callable[..., Path]


def write_distribution(site: Path, distribution: str, module: str, source: str, entry_point: str) -> None:
    """Write `<module>.py` and `<distribution>-1.0.dist-info/` (METADATA, entry_points.txt) into `site`."""
    (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{distribution.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry_point} = {module}\n", encoding="utf-8")


@pytest.fixture
def fake_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDistribution]:
    """A factory: `fake_distribution(distribution, source, entry_point=...)` installs a plugin distribution
    whose module holds `source`, for this test only; returns the site directory (for PYTHONPATH)."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    modules: list[str] = []

    def install(distribution: str, source: str, entry_point: str | None = None) -> Path:
        module = f"{distribution.replace('-', '_')}_{len(modules)}_{tmp_path.name.replace('-', '_')}"
        modules.append(module)
        write_distribution(site, distribution, module, source, entry_point or distribution)
        return site

    yield install
    for module in modules:
        sys.modules.pop(module, None)
