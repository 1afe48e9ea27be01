"""A real browser for the report page: Debian's Chromium, driven by Playwright.

Playwright's own browser download cannot reach this machine's network, so the distribution's Chromium is
used (`apt-get install -y chromium`; .ci/run installs it). Its background services (updates, sync,
safe browsing) are switched off: they would try the network, which is closed here and must not be
touched by a report. Each session gets a fresh profile.

Where no Chromium exists the tests skip, saying so; where CI has installed one (CGX_REQUIRE_BROWSER=1),
its absence or a launch failure is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def chromium() -> str | None:
    """The Chromium to drive: $CGX_CHROMIUM, else the distribution's."""
    named = os.environ.get("CGX_CHROMIUM")
    if named:
        return named
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return found or next((path for path in CANDIDATES if Path(path).is_file()), None)


def _unavailable(reason: str) -> None:
    if os.environ.get("CGX_REQUIRE_BROWSER") == "1":
        pytest.fail(f"CGX_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(f"{reason}: install Debian's chromium package (apt-get install -y chromium), as .ci/run does")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium context with a fresh profile, shared by a module's tests (each opens its own pages), and
    closed after them."""
    executable = chromium()
    if executable is None:
        _unavailable("no Chromium is installed")
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (uv sync --group dev)")
    with sync_playwright() as driver:
        try:
            context = driver.chromium.launch_persistent_context(
                str(tmp_path_factory.mktemp("chromium-profile")),
                executable_path=executable,
                args=FLAGS,
                headless=True,
            )
        except Error as error:
            _unavailable(f"Chromium at {executable} does not start: {error.message.splitlines()[0]}")
        try:
            yield context
        finally:
            context.close()


@attrs.define
class Visit:
    """A page of the report opened in the browser, with everything it logged and every request it made."""

    page: Any
    url: str
    console: list[tuple[str, str]] = attrs.field(factory=list)
    errors: list[str] = attrs.field(factory=list)
    requests: list[str] = attrs.field(factory=list)

    def visible(self, selector: str) -> list[str]:
        """The ids of the elements matching `selector` that are shown."""
        found: list[str] = self.page.eval_on_selector_all(
            selector, "items => items.filter(item => item.getClientRects().length > 0).map(item => item.id)"
        )
        return found


@pytest.fixture
def visit(browser: Any) -> Iterator[Any]:
    """Open a report file at a width; every page opened is closed after the test."""
    pages: list[Any] = []

    def open_page(path: Path, width: int = 1280, height: int = 900) -> Visit:
        page = browser.new_page()
        pages.append(page)
        page.set_viewport_size({"width": width, "height": height})
        seen = Visit(page, path.resolve().as_uri())
        page.on("console", lambda message: seen.console.append((message.type, message.text)))
        page.on("pageerror", lambda error: seen.errors.append(str(error)))
        page.on("request", lambda request: seen.requests.append(request.url))
        page.goto(seen.url, wait_until="load")
        return seen

    yield open_page
    for page in pages:
        page.close()
