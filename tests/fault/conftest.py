"""Fixtures of the fault tests: the reference run every crash is compared with, and the fork server.

The project runs pytest with `--import-mode=importlib`, where a test module cannot import a sibling
module; this folder is put on `sys.path` so the tests and the fork server share `crash_workload` and
`fork_server` (names chosen not to collide with any other test folder's helpers).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crash_workload import Reference, build_reference, pinned_run_id
from fork_server import ForkServer


@pytest.fixture(scope="session")
def crash_reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Reference]:
    """The workload run once without a crash, with a copy of the run after every call."""
    with pinned_run_id():
        yield build_reference(tmp_path_factory.mktemp("reference"))


@pytest.fixture
def pinned() -> Iterator[None]:
    """Every start_run in this process gives the pinned run id, so a crashed run can equal the reference."""
    with pinned_run_id():
        yield


@pytest.fixture(scope="session")
def fork_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    """A warmed-up process that forks one child per crash round (so a round costs a fork, not an import)."""
    here = Path(__file__).resolve().parent
    server = ForkServer.start("crash_workload", tmp_path_factory.mktemp("fork-server"), [here, here.parent])
    try:
        yield server
    finally:
        server.close()
