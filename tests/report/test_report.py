"""The report's model and its three renderings, on real runs: the committed example, the example with reviews,
and a hostile paper. The browser tests (tests/browser) check what a person sees of the HTML."""

from __future__ import annotations

import json
import os
import pty
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from credencegraph.core import load
from credencegraph.inference import conditional, marginal
from credencegraph.semantics import compile_graph
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markupsafe import escape
from report_runs import checked_example, finished_hostile, ok, start_example_with

from cgx_core.errors import CgxError
from cgx_core.report.html import content_security_policy, html_report
from cgx_core.report.integrity import Integrity, not_run, run_integrity
from cgx_core.report.markdown import markdown_report, text_code, text_plain
from cgx_core.report.model import RunReport, build_report
from cgx_core.report.text import printable, text_report
from support import EXAMPLE_RECORDS, EXAMPLE_RUBRIC, ROOT, call, person_review

EXAMPLE_RUN = ROOT / "examples" / "end-to-end" / "run"
SKIPPED = Integrity(not_run("the test skips it"), not_run("the test skips it"))


@pytest.fixture(scope="module")
def example() -> RunReport:
    return build_report(EXAMPLE_RUN, run_integrity(EXAMPLE_RUN, replay="run", verify="run"))


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reviewed")
    run = checked_example(folder / "run", EXAMPLE_RUBRIC)
    ok(person_review(run, check="c-001", verdict="fails", reviewer="Ada", reason="3600, not 3000"))
    ok(person_review(run, node="a-1", verdict="holds", reviewer="Ada", reason="white noise is stated"))
    ok(call(run, "finish_run"))
    return run


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finished_hostile(tmp_path_factory.mktemp("hostile"))


def test_every_credence_is_credencegraphs_own_inference_on_the_finished_graph(example: RunReport) -> None:
    graph = load(EXAMPLE_RUN / "graph.json")
    network = compile_graph(graph)
    observed = {node.id: node.attributes["observed"] for node in graph if "observed" in node.attributes}
    assessed = [node for node in graph if "assessment" in node.attributes]
    assert [node.id for node in example.assessed] == [node.id for node in assessed]
    for entry in example.assessed:
        assert entry.credence is not None
        # finish_run's own engine (checks/inference.py), recorded to 6 places, agrees with credencegraph's.
        assert entry.credence.method == "exact" and entry.credence.bound is None
        assert entry.credence.before == pytest.approx(marginal(network, entry.id, draws=0).point, abs=5e-7)
        assert entry.credence.after == pytest.approx(conditional(network, entry.id, observed, draws=0).point, abs=5e-7)
    s12 = example.node("s-12")
    assert s12 is not None and s12.credence is not None and s12.credence.after < s12.credence.before


def test_the_example_report_holds_what_a_person_needs(example: RunReport) -> None:
    assert [check.id for check in example.failed_checks] == ["c-001", "c-004"]
    assert example.checks["c-004"].names == ("e-4",)  # the equation the maths step was read from
    assert example.checks["c-001"].output["value_decimal"] == "3600"
    assert example.verdicts == {"holds": 6, "fails": 2, "undetermined": 0, "not_assessed": 8}  # assumptions too
    assert [(item.node.id, item.conclusions, item.downstream) for item in example.assumptions] == [
        ("a-1", ("s-01", "s-15"), ("s-01", "s-15")),
        ("a-2", ("s-01",), ("s-01",)),
        ("a-3", ("s-14",), ("s-14", "s-01", "s-15")),
    ]
    assert [item["check"] for item in example.uncalibrated] == ["c-008", "c-009", "c-010"]
    assert [item.node for item in example.coverage.numerals] == ["s-01", "s-14"]
    assert [item.node for item in example.coverage.equations] == ["e-1"]
    assert (example.coverage.numeral_chunks, example.coverage.equation_chunks) == (4, 5)
    assert example.review_type == "human-review"  # the example's rubric declares reviews
    assert example.document_limits == () and example.limits_message is None  # a LaTeX run lost nothing to list
    identity = example.identity
    run_id = json.loads((EXAMPLE_RUN / "manifest.json").read_bytes())["run"]
    assert (identity.run, identity.rubric_name, identity.rubric_version) == (run_id, "example-paper", "0.1-example")
    assert identity.paper[0][0] == "paper.tex" and identity.paper[0][1].startswith("sha256:")
    assert identity.models == (("anthropic-claude", 10),)
    assert (example.integrity.replay.summary, example.integrity.verify.summary) == ("byte-identical", "0 differences")


def test_the_text_report_is_the_demos_summary(example: RunReport) -> None:
    text = text_report(example)
    assert "Replay: byte-identical. Verify: 0 differences." in text
    assert "c-001 recompute-numbers on s-12: 12 * 300 = 3600, reported 3000 +- 0.5: failed" in text
    assert "a-1: The noise is white and stationary over a run. (needed by s-01, s-15)" in text
    assert "Awaiting review (8):" in text
    where = shlex.quote(os.path.abspath(EXAMPLE_RUN))  # the run's path: a command works from any folder
    assert f"credencegraph-extract review {where} --check c-001 --verdict VERDICT --reviewer 'YOUR NAME'" in text
    assert f"credencegraph-extract review {where} --node a-1 --verdict VERDICT" in text
    assert (
        f"To replay it: credencegraph-extract replay {where}\nTo verify it: credencegraph-extract verify {where}"
        in text
    )
    assert "nodes of a type the rubric assesses, each with a verdict (" in text


def test_reviews_show_in_the_report_and_cover_what_awaited_them(reviewed: Path) -> None:
    report = build_report(reviewed, SKIPPED)
    [on_check, on_assumption] = report.reviews
    assert on_check.review is not None and on_check.review.check == "c-001" and on_check.review.agrees is True
    assert on_assumption.target == "a-1"
    assert report.review_type == "human-review"
    assert [(item["node"], item.get("check")) for item in report.awaiting] == [("s-09", "c-003")]
    a1 = report.node("a-1")
    assert a1 is not None and a1.verdict == "holds"
    text = text_report(report)
    assert "Reviews:" in text and "Reason: 3600, not 3000" in text
    page = html_report(report)
    assert 'id="check-c-004"' in page and "confirms it" in page
    assert f"credencegraph-extract review {shlex.quote(os.path.abspath(reviewed))} --node ID" in page


FAILED_IN_TEXT = re.compile(r"^  (c-\d+) (\S+) on (\S+): ", re.MULTILINE)
FAILED_IN_MARKDOWN = re.compile(r"^### (c-\d+) (\S+) on (\S+): failed$", re.MULTILINE)
FAILED_IN_HTML = re.compile(
    r'<article class="check-card v-fails" id="check-(c-\d+)">\s*<h3>c-\d+ <span class="kind">([^<]+)</span> on '
    r'<a [^>]*href="#node-([^"]+)"'
)


@pytest.mark.parametrize("made", ["example", "reviewed", "hostile"])
def test_report_json_lists_the_failed_checks_every_format_lists(made: str, request: pytest.FixtureRequest) -> None:
    """report.json's `failed_checks` (type, target, detail) are the checks the text, Markdown and HTML list as
    failed, in the same order; a person's review that fails a check is listed under the reviews, not here."""
    run = EXAMPLE_RUN if made == "example" else request.getfixturevalue(made)
    listed = json.loads((run / "report.json").read_bytes())["failed_checks"]
    report = build_report(run, SKIPPED)
    assert listed == [
        {"check": check.id, "type": check.type, "target": check.target, "detail": check.detail}
        for check in report.failed_checks
    ]
    assert listed, "each of these runs has a failed check"
    expected = [(item["check"], item["type"], item["target"]) for item in listed]
    text = text_report(report).split("Failed checks:", 1)[1].split("\n\n", 1)[0]
    assert FAILED_IN_TEXT.findall(text) == expected
    assert FAILED_IN_MARKDOWN.findall(markdown_report(report)) == expected
    assert FAILED_IN_HTML.findall(html_report(report)) == expected
    reviews = {check.id for check in report.reviews}
    assert not reviews & {item["check"] for item in listed}
    if made == "reviewed":  # Ada's review fails c-001: a failed check of the human-review type, kept apart
        assert [check.type for check in report.reviews] == ["human-review", "human-review"]


def test_a_run_that_is_not_finished_or_was_edited_is_refused(reviewed: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(reviewed, run)
    graph = json.loads((run / "graph.json").read_bytes())
    graph["nodes"][0]["statement"] = "An edited chunk."
    (run / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    with pytest.raises(CgxError) as edited:
        build_report(run, SKIPPED)
    assert edited.value.code == "tampered"
    ok(person_review(run, node="s-13", verdict="holds", reviewer="Grace", reason="r"))
    with pytest.raises(CgxError) as reopened:
        build_report(run, SKIPPED)
    assert reopened.value.code == "not-finished"
    assert "call finish_run first" in reopened.value.message


def test_the_report_is_the_same_bytes_every_time_and_names_no_local_path_but_the_runs(example: RunReport) -> None:
    """The run's own absolute path is in the commands a person copies (so they work from any folder: issue 37);
    no other path of this machine is."""
    again = build_report(EXAMPLE_RUN, example.integrity)
    assert html_report(example) == html_report(again)
    assert markdown_report(example) == markdown_report(again)
    for rendering in (html_report(example), markdown_report(example), text_report(example)):
        assert os.path.abspath(EXAMPLE_RUN) in rendering
        rest = rendering.replace(os.path.abspath(EXAMPLE_RUN), "RUN")
        assert str(ROOT) not in rest and "/tmp" not in rest


def test_the_page_is_self_contained_and_admits_only_its_own_style_and_script(example: RunReport) -> None:
    page = html_report(example)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:|data:)""", page)
    assert "@import" not in page and "url(" not in page
    assert " style=" not in page and not re.search(r"\son[a-z]+\s*=", page)  # no style attribute, no handler
    assert page.count("<script>") == 1 and page.count("<style>") == 1
    style = page.split("<style>")[1].split("</style>")[0]
    script = page.split("<script>")[1].split("</script>")[0]
    assert str(escape(content_security_policy(style, script))) in page  # as an attribute, escaped
    assert "default-src &#39;none&#39;" in page


def test_untrusted_text_is_escaped_in_every_rendering(hostile: Path) -> None:
    report = build_report(hostile, SKIPPED)
    page = html_report(report)
    assert "<script>window" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;window.pwned = 1;&lt;/script&gt;" in page
    assert "&lt;/style&gt;&lt;style&gt;body{display:none}&lt;/style&gt;" in page
    assert "described in full &lt;script&gt;window.pwned = 3;&lt;/script&gt;" in page  # the source's passage
    assert "&lt;script&gt;window.pwned = 4;&lt;/script&gt; &#34;Mallory&#34;" in page  # a reviewer's name
    assert page.count("<script>") == 1
    # Rendered by a CommonMark renderer with raw HTML allowed (as GitHub-like viewers do), nothing runs.
    rendered = MarkdownIt("commonmark").render(markdown_report(report))
    assert not re.search(r"<(script|img|style|b|a)\b", rendered)
    assert "&lt;script&gt;window.pwned = 1;&lt;/script&gt;" in rendered
    assert "described in full &lt;script&gt;window.pwned = 3;&lt;/script&gt;" in rendered
    assert "&lt;script&gt;window.pwned = 4;&lt;/script&gt; &quot;Mallory&quot;" in rendered


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("plain", "`plain`"),
        ("a `tick` here", "``a `tick` here``"),
        ("``double``", "``` ``double`` ```"),
        ("<script>x</script>", "`<script>x</script>`"),
        ("line\nbreak\x1b[31m", "`line break\\x1b[31m`"),
    ],
)
def test_a_code_span_holds_any_text_literally(text: str, span: str) -> None:
    assert text_code(text) == span


def test_plain_markdown_text_escapes_every_punctuation_character() -> None:
    assert text_plain("*a* [b](c) <d> #e") == r"\*a\* \[b\]\(c\) \<d\> \#e"


def test_the_terminal_text_escapes_control_characters() -> None:
    assert printable("a\x1b[2Jb\u202ec\n d") == "a\\x1b[2Jb\\u202ec d"


def test_report_json_and_graph_json_are_read_never_written(reviewed: Path) -> None:
    from support import tree

    before = tree(reviewed)
    report = build_report(reviewed, run_integrity(reviewed, replay="run", verify="run"))
    html_report(report)
    assert tree(reviewed) == before


def test_a_replay_that_cannot_run_is_reported_not_hidden(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example_with(run, EXAMPLE_RUBRIC, store_source=False)  # replay needs the paper: --source
    ok(call(run, "classify", records=EXAMPLE_RECORDS))
    ok(call(run, "finish_run"))
    integrity = run_integrity(run, replay="run", verify="skip")
    assert integrity.replay.status == "error"
    assert "pass --source" in integrity.replay.summary
    assert integrity.verify.summary == "not run: --no-verify was given"


def test_a_node_inference_cannot_answer_for_is_listed_with_its_reason_and_fix_not_a_crash() -> None:
    """Evidence of probability zero (a certain node whose perfect check failed): no credence can be had, and
    every wanted node is listed with the reason and what would fix it instead of failing."""
    from credencegraph.core import Graph, Node, Relation

    from cgx_core.checks.credences import credences

    assessed = {"origin": "document", "assessment": {"verdict": "fails"}}
    graph = Graph()
    graph.add_node(Node("s-1", base=1.0, attributes=assessed))
    graph.add_node(Node("s-2", base=0.5, attributes=assessed))
    graph.add_node(Node("s-3", attributes=assessed))
    graph.add_node(Node("c-001", kind="check", attributes={"origin": "evidence", "observed": False}))
    graph.add_relation(Relation("s-1-observes-c-001", "observes", "s-1", "c-001", sensitivity=1.0, false_pass=0.0))
    found = credences(graph)
    assert found["nodes"] == {}
    assert found["missing"]["s-1"]["reason"].startswith("ZeroProbabilityError")
    assert found["missing"]["s-3"]["reason"] == "it is not an inference variable (no base)"
    assert set(found["missing"]) == {"s-1", "s-2", "s-3"}
    assert all(item["fix"] for item in found["missing"].values())


@pytest.mark.parametrize(
    ("locator", "shown"),
    [
        ("file=paper.tex;lines=12-12", "paper.tex, line 12"),
        ("file=sections/method.tex;lines=3-5;chars=0-47", "sections/method.tex, lines 3-5"),
        ("page=2;bbox=72,700,540,712", "page 2"),
        ("something else", "something else"),
    ],
)
def test_a_locator_reads_as_a_place_in_the_paper(locator: str, shown: str) -> None:
    from cgx_core.report.html import where

    assert where(locator) == shown


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=80).filter(lambda text: printable(text).strip()))
def test_any_text_in_a_code_span_renders_as_exactly_that_text(text: str) -> None:
    import html

    rendered = MarkdownIt("commonmark").render(f"a {text_code(text)} b").strip()
    assert rendered.startswith("<p>a <code>") and rendered.endswith("</code> b</p>")
    inside = rendered.removeprefix("<p>a <code>").removesuffix("</code> b</p>")
    assert "<" not in inside and html.unescape(inside).strip() == printable(text).strip()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="ascii", exclude_categories=["Cc"]), min_size=1, max_size=80))
def test_any_plain_text_renders_as_exactly_that_text(text: str) -> None:
    import html

    rendered = MarkdownIt("commonmark").render(f"a {text_plain(text)} b").strip()
    assert rendered.startswith("<p>a ") and rendered.endswith(" b</p>")
    inside = rendered.removeprefix("<p>a ").removesuffix(" b</p>")
    assert "<" not in inside and html.unescape(inside) == " ".join(text.split())


def test_each_item_awaiting_review_carries_the_review_command_that_records_it(
    reviewed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command is shown in every format; copied unedited it records nothing (VERDICT is refused), and with
    the verdict, name and reason filled in, run from another folder than the run's, it records the review."""

    from cgx_cli.main import main
    from cgx_core.report.review_commands import review_command

    copy = tmp_path / "run"
    shutil.copytree(reviewed, copy)
    report = build_report(copy, Integrity(not_run("test"), not_run("test")))
    assert report.awaiting
    html, markdown, text = html_report(report), markdown_report(report), text_report(report)
    commands = [review_command(report.identity.directory, item) for item in report.awaiting]
    for command in commands:
        assert str(escape(command)) in html and command in text and text_code(command) in markdown
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    words = shlex.split(commands[0])
    assert words[:2] == ["credencegraph-extract", "review"]
    with pytest.raises(SystemExit):  # VERDICT is not a verdict: nothing is recorded
        main(words[1:])
    before = (copy / "calls.jsonl").read_bytes()
    filled = [
        {"VERDICT": "undetermined", "YOUR NAME": "Ada", "WHY": "not enough to say"}.get(word, word) for word in words
    ]
    # Run as the person copying it runs it: at a terminal (a pseudo-terminal's other end), from that folder.
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [str(Path(sys.executable).with_name(filled[0])), *filled[1:]],
            cwd=elsewhere,
            stdin=terminal,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert done.returncode == 0, done.stderr
    assert len((copy / "calls.jsonl").read_bytes()) > len(before)


def test_a_node_without_a_credence_says_why_and_the_fix_in_finish_runs_result_and_every_format() -> None:
    """finish_run's result counts it and shows its reason and fix; the formats share one sentence for it."""
    from credencegraph.core import Graph, Node

    from cgx_core.checks.credences import credences, credences_result
    from cgx_core.report.credences import Missing, reading

    graph = Graph()
    graph.add_node(Node("s-1", attributes={"origin": "document", "assessment": {"verdict": "fails"}}))
    result = credences_result(credences(graph))
    assert result["missing"] == 1 and result["missing_shown"]["s-1"]["fix"].startswith("type it")
    assert "fix" in result
    said = reading(None, Missing("it is not an inference variable (no base)", "type it"), "fails")
    assert said == ["No credence: it is not an inference variable (no base). To fix: type it."]


@pytest.mark.parametrize(
    ("before", "after", "decimals", "shown"),
    [
        (0.0696, 0.0684, 2, ("0.070", "0.068")),  # issue 37: printed "0.07 -> 0.07"
        (0.5, 0.5, 2, ("0.50", "0.50")),
        (0.123456, 0.123457, 3, ("0.123456", "0.123457")),
        (0.8, 0.941, 3, ("0.800", "0.941")),
        (0.1, 0.1 + 1e-12, 2, ("0.100000000", "0.100000000")),  # beyond nine places: written alike
    ],
)
def test_credences_are_written_with_the_digits_that_show_their_move(
    before: float, after: float, decimals: int, shown: tuple[str, str]
) -> None:
    from cgx_core.report.text import credence_pair

    assert credence_pair(before, after, decimals) == shown


def test_the_assessed_count_says_what_it_counts(example: RunReport) -> None:
    """ "94 assessed nodes" beside "69 not assessed" read as a contradiction: the count names its members."""
    from cgx_core.report.text import assessed_counts

    said = assessed_counts(example)
    total = sum(example.verdicts.values())
    assert said.startswith(f"{total} nodes of a type the rubric assesses, each with a verdict (")
    assert f"{example.verdicts['not_assessed']} not assessed" in said
    assert said in markdown_report(example) and said in text_report(example) and said in html_report(example)


def test_names_and_list_markers_are_not_numerals_left_unchecked() -> None:
    """ "LeNet-5" and a list marker "(1)" write digits that report no number (issue 37): coverage does not count
    them as numerals no check touched; the numbers beside them still count."""
    from credencegraph.core import Graph, Node

    from cgx_core.report.coverage import coverage

    graph = Graph()
    texts = {
        "s-1": "We train LeNet-5 and GPT-4 on the data.",
        "s-2": "We consider (1) the mean and (2) the variance, as in Eq. (3).",
        "s-3": "LeNet-5 reaches 99.1% accuracy.",
    }
    for node_id, text in texts.items():
        graph.add_node(Node(node_id, statement=text, attributes={"origin": "document", "unit": "sentence"}))
    found = coverage(graph)
    assert [(item.node, item.numerals) for item in found.numerals] == [("s-3", ("0.991", "99.1"))]
    assert found.numeral_chunks == 1
