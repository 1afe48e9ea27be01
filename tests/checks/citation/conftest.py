"""Fixtures for the citation core's tests: the loopback HTTP(S) servers of `citation_testkit`.

The project runs pytest with `--import-mode=importlib`, where a test module cannot import a sibling
module; this folder is put on `sys.path` so the tests share one helper module, `citation_testkit`
(a name chosen not to collide with any other test folder's).
"""

from __future__ import annotations

import ssl
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from citation_testkit import LoopbackServer, Served, serve


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    """A plain HTTP loopback server."""
    yield from serve(None)


@pytest.fixture
def serve_tls() -> Iterator[Callable[..., LoopbackServer]]:
    """Start an HTTPS loopback server with a given server context (and port); stopped after the test."""
    running: list[Iterator[LoopbackServer]] = []

    def start(context: ssl.SSLContext, port: int = 0, extra: dict[str, Served] | None = None) -> LoopbackServer:
        generator = serve(context, port, extra)
        running.append(generator)
        return next(generator)

    yield start
    for generator in running:
        for _ in generator:
            pass
