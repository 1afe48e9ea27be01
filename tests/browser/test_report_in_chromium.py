"""The report page in a real browser (headless Chromium): what a person sees of the example run, of a run on
each shared paper and of a hostile paper, the filters and the keys, print, and the layout at two widths.

The screenshot tests assert layout properties that do not depend on fonts or anti-aliasing, so they cannot
flake: nothing overflows the viewport horizontally, the key elements are shown and lie inside it, the
toolbar stays at the top when scrolled, and the full-page PNG is as wide as the viewport. The PNGs are kept
in $CGX_SCREENSHOTS when it is set (CI keeps them for a person to look at).
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paper_scripts import SCRIPTS
from report_runs import PAPER_REVIEWS, finished_hostile, finished_paper

from cgx_core.report.html import html_report
from cgx_core.report.integrity import run_integrity
from cgx_core.report.model import build_report
from support import PAPERS, ROOT

EXAMPLE_RUN = ROOT / "examples" / "end-to-end" / "run"
WIDTHS = (1280, 390)
Open = Callable[..., Any]


def render(run: Path, target: Path) -> Path:
    """The report page of a finished run, replayed and verified as the report command does."""
    report = build_report(run, run_integrity(run, replay="run", verify="run"))
    target.write_text(html_report(report), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def example_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render(EXAMPLE_RUN, tmp_path_factory.mktemp("example") / "report.html")


@pytest.fixture(scope="module", params=sorted(SCRIPTS))
def paper_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    paper: str = request.param
    folder = tmp_path_factory.mktemp(paper)
    run = finished_paper(folder / "run", PAPERS, paper)
    return paper, run, render(run, folder / "report.html")


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    return render(finished_hostile(folder), folder / "report.html")


def clean(visit: Any) -> None:
    """Nothing logged, nothing thrown, and no request but the page itself."""
    assert visit.console == [], visit.console
    assert visit.errors == [], visit.errors
    assert visit.requests == [visit.url], visit.requests


def text_of(visit: Any, selector: str) -> str:
    text: str = visit.page.inner_text(selector)
    return text


def test_the_example_report_lists_its_failed_checks_with_their_inputs(visit: Open, example_page: Path) -> None:
    seen = visit(example_page)
    clean(seen)
    assert seen.visible("#failed .check-card") == ["check-c-001", "check-c-004"]
    card = text_of(seen, "#check-c-001")
    assert "12 * 300 = 3600, reported 3000 +- 0.5: failed" in card
    assert "We recorded 12 runs of 300 s each, 3000 s of data in total." in card
    assert "3600" in text_of(seen, "#check-c-001 .io")
    maths = text_of(seen, "#check-c-004")
    assert "1/(1 - gamma*T)" in maths and '{"T": "3/7", "gamma": "2.4"}' in maths and "e-4" in maths
    assert "Replay: byte-identical" in text_of(seen, "#replay-status")
    assert "Verify: 0 differences" in text_of(seen, "#verify-status")
    assert seen.page.locator("#s-12, #node-s-12 .verdict").first.inner_text() == "fails"


def test_the_filters_hide_what_a_person_asked_not_to_see(visit: Open, example_page: Path) -> None:
    seen = visit(example_page)
    everything = seen.visible("#paper .node")
    assert "node-s-02" in everything and len(everything) == 22
    seen.page.get_by_role("button", name="Only fails").click()
    assert seen.visible("#paper .node") == ["node-s-09", "node-s-12"]
    assert seen.page.get_attribute("text=Only fails", "aria-pressed") == "true"
    assert text_of(seen, "#filter-status") == "Showing 2 of 22 chunks (only fails)."
    seen.page.get_by_role("button", name="Only assumptions").click()
    assert seen.visible("#paper .node") == ["node-s-11"]
    assert seen.visible("#assumptions .node") == ["node-a-1", "node-a-2", "node-a-3"]
    seen.page.get_by_role("button", name="All nodes").click()
    assert seen.visible("#paper .node") == everything
    clean(seen)


def test_search_and_the_type_verdict_and_check_type_filters(visit: Open, example_page: Path, tmp_path: Path) -> None:
    seen = visit(example_page)
    page = seen.page
    page.fill("#find-text", "3000 s of data")
    assert seen.visible("#paper .node") == ["node-s-12"]
    assert text_of(seen, "#filter-status") == "Showing 1 of 22 chunks."
    page.fill("#find-text", "")
    page.select_option("#find-kind", "derivation")
    assert seen.visible("#paper .node") == ["node-s-07", "node-s-08", "node-s-09", "node-s-10"]
    page.select_option("#find-verdict", "fails")
    assert seen.visible("#paper .node") == ["node-s-09"]
    page.select_option("#find-kind", "")
    page.select_option("#find-verdict", "")
    page.select_option("#find-check", "recompute-numbers")
    assert seen.visible("#paper .node") == ["node-s-12", "node-s-13"]
    page.get_by_role("button", name="Only fails").click()  # the buttons apply on top of the finders
    assert seen.visible("#paper .node") == ["node-s-12"]
    why = text_of(seen, "#node-s-12 .credence-why")
    assert "Given its own checks alone: 0.129" in why and "Moved most by c-001 (-0.616)" in why
    page.locator("body").click()
    page.keyboard.press("Escape")  # clears the finders too
    assert len(seen.visible("#paper .node")) == 22
    page.locator("#node-s-12").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "credences.png"))
    keep = os.environ.get("CGX_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(keep) / "credences.png"))
    clean(seen)


def test_the_graph_view_links_each_conclusion_to_its_premises_and_checks(visit: Open, example_page: Path) -> None:
    seen = visit(example_page)
    page = seen.page
    entry = page.locator("#graph .g-node", has=page.locator('a[href="#node-s-12"]')).first
    assert "rests on s-05" in entry.inner_text() and "observed by c-001" in entry.inner_text()
    failed = entry.locator("a.g-check.r-failed")
    assert failed.inner_text() == "c-001"
    red = failed.evaluate("element => getComputedStyle(element).color")
    assert red == "rgb(207, 34, 46)"  # --fails
    failed.click()
    assert page.evaluate("location.hash") == "#check-c-001"
    clean(seen)


def test_the_keys_filter_and_move_from_assessed_node_to_assessed_node(visit: Open, example_page: Path) -> None:
    seen = visit(example_page)
    focused = "document.activeElement.id"
    seen.page.keyboard.press("Tab")  # the skip link is the first stop, for a keyboard user
    assert seen.page.evaluate("document.activeElement.getAttribute('href')") == "#paper"
    seen.page.keyboard.press("j")
    assert seen.page.evaluate(focused) == "node-s-01"
    seen.page.keyboard.press("j")
    assert seen.page.evaluate(focused) == "node-s-02"
    seen.page.keyboard.press("k")
    seen.page.keyboard.press("k")
    assert seen.page.evaluate(focused) == "node-s-15"  # round to the last one
    seen.page.keyboard.press("f")
    assert seen.visible("#paper .node") == ["node-s-09", "node-s-12"]
    seen.page.keyboard.press("j")
    assert seen.page.evaluate(focused) == "node-s-09"
    seen.page.keyboard.press("a")
    assert seen.visible("#paper .node") == ["node-s-11"]
    seen.page.keyboard.press("Escape")
    assert len(seen.visible("#paper .node")) == 22
    clean(seen)


def test_the_plot_has_one_mark_per_assessed_node_linking_to_it(visit: Open, example_page: Path) -> None:
    seen = visit(example_page)
    links = seen.page.eval_on_selector_all("#plot a.point", "items => items.map(item => item.getAttribute('href'))")
    assessed = seen.page.eval_on_selector_all("#paper .node[data-assessed]", "items => items.map(item => item.id)")
    # The assumptions the agent added are assessed too (the example's rubric): each mark links to its card.
    added = seen.page.eval_on_selector_all("#assumptions .assumption-card", "items => items.map(item => item.id)")
    assert sorted(links) == sorted(f"#{node}" for node in [*assessed, *added]) and len(links) == 16
    box = seen.page.locator("#plot svg").first.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 200


@pytest.mark.parametrize("width", WIDTHS)
def test_the_layout_at_two_widths(visit: Open, example_page: Path, width: int, tmp_path: Path) -> None:
    seen = visit(example_page, width=width)
    page = seen.page
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no horizontal overflow
    for selector in ("h1", "#replay-status", ".filters button >> nth=2", "#plot svg", "#check-c-001", "#identity"):
        element = page.locator(selector).first
        element.scroll_into_view_if_needed()
        assert element.is_visible(), selector
        box = element.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
    overflowing = page.eval_on_selector_all(
        "main *", f"items => items.filter(item => item.getBoundingClientRect().right > {width} + 0.5).length"
    )
    assert overflowing == 0
    page.locator("#identity").scroll_into_view_if_needed()
    assert page.locator(".toolbar").bounding_box()["y"] == 0  # the filters stay at hand
    folder = Path(os.environ.get("CGX_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    png = page.screenshot(path=str(folder / f"example-report-{width}.png"), full_page=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    shot_width, shot_height = struct.unpack(">II", png[16:24])
    assert shot_width == width and shot_height >= page.evaluate("document.documentElement.scrollHeight")
    clean(seen)


def test_printed_every_node_shows_and_the_toolbar_does_not(visit: Open, example_page: Path) -> None:
    seen = visit(example_page)
    seen.page.get_by_role("button", name="Only fails").click()
    seen.page.emulate_media(media="print")
    assert len(seen.visible("#paper .node")) == 22
    assert not seen.page.locator(".toolbar").is_visible()
    pdf = seen.page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    clean(seen)


def test_the_report_of_each_shared_paper_renders(visit: Open, paper_run: tuple[str, Path, Path]) -> None:
    paper, run, path = paper_run
    graph = json.loads((run / "graph.json").read_bytes())
    failed = [
        node["id"]
        for node in graph["nodes"]
        if node["attributes"].get("check", {}).get("result") == "failed"
        and node["attributes"]["extraction"]["tool"] != "review"
    ]
    assessed = [node["id"] for node in graph["nodes"] if "assessment" in node["attributes"]]
    fails = [
        node["id"] for node in graph["nodes"] if node["attributes"].get("assessment", {}).get("verdict") == "fails"
    ]
    holds = [
        node["id"] for node in graph["nodes"] if node["attributes"].get("assessment", {}).get("verdict") == "holds"
    ]
    seen = visit(path, width=1280)
    clean(seen)
    assert seen.visible("#failed .check-card") == [f"check-{check}" for check in failed]
    assert len(seen.visible("#paper .node")) == sum(
        1 for node in graph["nodes"] if node["attributes"].get("origin") == "document"
    )
    assert seen.page.locator("#plot a.point").count() == len(assessed)
    reviewed = PAPER_REVIEWS[paper]
    assert reviewed in fails and f"node-{reviewed}" in seen.visible("#paper .node")
    assert "A. Reviewer" in text_of(seen, "#reviews")
    seen.page.get_by_role("button", name="Only fails").click()
    shown = seen.visible("#paper .node, #assumptions .node")
    assert shown == [f"node-{node}" for node in fails]
    assert not any(f"node-{node}" in shown for node in holds)
    assert seen.page.evaluate("document.documentElement.scrollWidth") <= 1280
    if holds:  # the maths check that passed on the paper's own step
        seen.page.get_by_role("button", name="All nodes").click()
        assert f"node-{holds[0]}" in seen.visible("#paper .node, #assumptions .node")
    narrow = visit(path, width=WIDTHS[1])
    assert narrow.page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[1]  # long LaTeX wraps
    clean(narrow)


def test_a_paper_that_writes_script_runs_none_of_it(visit: Open, hostile_page: Path) -> None:
    seen = visit(hostile_page, width=WIDTHS[1])
    clean(seen)  # no CSP violation either: the script was text, never markup the policy had to stop
    assert seen.page.evaluate("typeof window.pwned") == "undefined"
    assert seen.page.locator("body").is_visible()  # the paper's </style><style>body{display:none} did not apply
    paper = text_of(seen, "#paper")
    assert "3000 s in total <script>window.pwned = 1;</script> of data." in paper
    assert '<img src=x onerror="window.pwned=2">' in paper
    assert "<b>Bold</b> claims" in paper
    citation = text_of(seen, "#failed")
    assert "described in full <script>window.pwned = 3;</script> and it works" in citation
    reviews = text_of(seen, "#reviews")
    assert (
        '<script>window.pwned = 4;</script> "Mallory"' in reviews
        and "</dd><script>window.pwned = 5;</script>" in reviews
    )
    assert seen.page.evaluate("document.querySelectorAll('script').length") == 1
    assert seen.page.evaluate("document.querySelectorAll('img, b, style').length") == 1  # only the page's own style
