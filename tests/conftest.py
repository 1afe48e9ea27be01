"""Fixtures shared by the whole suite. The plugin-author fixtures come from cgx_core.testing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from support import PAPERS

pytest_plugins = ["cgx_core.testing"]

settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False, database=None)
settings.load_profile(os.environ.get("CGX_HYPOTHESIS", "suite"))
"""The property tests draw the same examples on every run and keep no example database: a test may not pass
or fail by chance, nor by what an earlier run left in `.hypothesis/`. To hunt for new failures, run them with
`CGX_HYPOTHESIS=explore` (fresh random examples each run), and add what they find as a fixed case (the grammar
fuzz tests found the unit `(1 km h^-1)` and `factorial(-factorial(170))` so)."""

SLOW_PLACES = ("browser/", "fault/", "fuzz/", "e2e/", "cli/test_wheel.py", "cli/test_verify_at_scale.py")
"""Where the suite's long tests live (a real browser, crash torture, fuzzing, whole real papers through the
tools, building and installing the wheel, verify of many runs): marked `slow`, so that
`pytest -m "not slow"` is a first look of a few minutes and the full run still runs them."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        place = item.path.as_posix()
        if any(f"/tests/{slow}" in place for slow in SLOW_PLACES):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def papers() -> Path:
    """The real papers in tests/papers, in the repository: every clone runs the real-paper tests."""
    return PAPERS


@pytest.fixture(autouse=True, scope="session")
def session_audit_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The suite's own cache of the report's results, for what module fixtures run: never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("session-audit-cache")
        patch.setenv("CGX_AUDIT_CACHE", str(folder))
        yield folder


@pytest.fixture(autouse=True)
def audit_cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own cache of the report's replay and verify results (in the environment, so the commands a
    test runs use it too): no test reuses another's, or the user's."""
    folder = tmp_path_factory.mktemp("audit-cache")
    monkeypatch.setenv("CGX_AUDIT_CACHE", str(folder))
    return folder
