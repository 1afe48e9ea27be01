"""`credencegraph-extract report` and `credencegraph-extract review` as a person uses them, through the console
script."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from report_runs import checked_example, ok

from cgx_core.audit.replay import replay
from support import EXAMPLE_RUBRIC, ROOT, call, person_review, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
EXAMPLE_RUN = ROOT / "examples" / "end-to-end" / "run"


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command as an agent's shell runs it: no terminal (standard input is not a TTY)."""
    return subprocess.run([CLI, *argv], capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)


def at_terminal(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command as a person runs it: its standard input is a terminal (a pseudo-terminal's other end)."""
    controller, terminal = pty.openpty()
    try:
        return subprocess.run([CLI, *argv], capture_output=True, text=True, check=False, stdin=terminal)
    finally:
        os.close(terminal)
        os.close(controller)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("finished")
    run = checked_example(folder / "run", EXAMPLE_RUBRIC)
    ok(call(run, "finish_run"))
    return run


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(finished, target)
    return target


def test_report_prints_the_text_and_writes_the_page_and_the_markdown(tmp_path: Path) -> None:
    before = tree(EXAMPLE_RUN)
    done = cli("report", str(EXAMPLE_RUN), "--html", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "r.md"))
    assert done.returncode == 0, done.stderr
    assert "Replay: byte-identical. Verify: 0 differences." in done.stdout
    assert "c-004 rederive-maths on s-09" in done.stdout
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="check-c-001"' in page
    assert "## Failed checks" in (tmp_path / "r.md").read_text(encoding="utf-8")
    assert tree(EXAMPLE_RUN) == before  # the report writes nothing into the run
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.html", "r.md"]  # no temporary file left


def test_report_says_when_replay_and_verify_were_not_run(tmp_path: Path) -> None:
    done = cli("report", str(EXAMPLE_RUN), "--no-replay", "--no-verify", "--html", str(tmp_path / "r.html"))
    assert done.returncode == 0, done.stderr
    assert "Replay: not run: --no-replay was given. Verify: not run: --no-verify was given." in done.stdout
    assert "not run: --no-replay was given" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_report_exits_1_and_says_so_when_verify_finds_a_difference(run: Path, tmp_path: Path) -> None:
    output = run / "checks" / "c-002" / "output.json"
    output.write_bytes(output.read_bytes().replace(b"90000", b"90001"))
    done = cli("report", str(run), "--no-replay", "--html", str(tmp_path / "r.html"))
    assert done.returncode == 1
    assert "warning: verify: " in done.stderr
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "c-002 files: checks/c-002/ differs from the digest its record holds" in page


@pytest.mark.parametrize(
    ("setup", "code"),
    [("missing", "run-not-found"), ("unfinished", "not-finished")],
)
def test_report_refuses_what_is_not_a_finished_run(run: Path, tmp_path: Path, setup: str, code: str) -> None:
    target = tmp_path / "missing"
    if setup == "unfinished":
        ok(person_review(run, node="s-13", verdict="holds", reviewer="A", reason="r"))
        target = run
    html = tmp_path / "r.html"
    done = cli("report", str(target), "--html", str(html))
    assert done.returncode == 2
    assert done.stderr.startswith(f"error [{code}]: ") and done.stderr.count("\n") == 1
    assert not html.exists()


def test_review_by_a_person_is_logged_refinishes_the_run_and_shows_in_the_report(run: Path, tmp_path: Path) -> None:
    done = at_terminal(
        "review", str(run), "--node", "s-12", "--verdict", "fails", "--reviewer", "Ada Lovelace", "--reason",
        "12 runs of 300 s are 3600 s",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["review"]["checks"][0]["type"] == "human-review"
    assert out["finish_run"]["finished"] is True
    line = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-2])
    assert (line["tool"], line["model"], line["args"]["entered_by"]) == ("review", "person", "person")
    assert replay(run, source=None, sources=None).identical
    report = cli("report", str(run), "--html", str(tmp_path / "r.html"))
    assert report.returncode == 0, report.stderr
    assert "judged that s-12 fails. Reason: 12 runs of 300 s are 3600 s" in report.stdout
    assert "Ada Lovelace" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_review_entered_by_an_agent_names_its_model_and_no_finish_leaves_the_run_open(run: Path) -> None:
    done = cli(
        "review", str(run), "--check", "c-001", "--verdict", "holds", "--reviewer", "Ada", "--reason", "r",
        "--agent-model", "model-x", "--no-finish",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-1])
    assert (line["model"], line["args"]["entered_by"], line["args"]["check"]) == ("model-x", "agent", "c-001")
    assert "finish_run" not in json.loads(done.stdout)
    assert not (run / "graph.json").exists()


def test_a_refused_review_exits_2_with_the_fix_and_leaves_the_run_finished(run: Path) -> None:
    done = at_terminal("review", str(run), "--node", "s-05", "--verdict", "fails", "--reviewer", "A", "--reason", "r")
    assert done.returncode == 2
    assert done.stderr.startswith("error [check-not-assessed]: ") and "; checks go on nodes of" in done.stderr
    assert json.loads(done.stdout)["finish_run"]["finished"] is True  # the logged refusal reopened it
    assert cli("report", str(run), "--no-replay", "--no-verify").returncode == 0


def test_review_without_a_terminal_is_refused_unless_the_agent_names_its_model(run: Path, tmp_path: Path) -> None:
    """The attack: an agent runs `review` from its shell to pass its own verdict off as a person's."""
    before = tree(run)
    argv = ["review", str(run), "--node", "s-12", "--verdict", "holds", "--reviewer", "Ada Lovelace", "--reason", "r"]
    done = cli(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error [not-a-terminal]: ") and done.stderr.count("\n") == 1
    assert "--agent-model" in done.stderr
    assert tree(run) == before
    entered = cli(*argv, "--agent-model", "model-x")
    assert entered.returncode == 0, entered.stderr
    review = json.loads(entered.stdout)["review"]["checks"][0]
    assert review["detail"] == "Ada Lovelace (entered by an agent acting for the person) judged that s-12 holds"
    line = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-2])
    assert (line["tool"], line["model"], line["args"]["entered_by"]) == ("review", "model-x", "agent")
    report = cli("report", str(run), "--no-replay", "--markdown", str(tmp_path / "r.md"))
    assert report.returncode == 0, report.stderr
    markdown = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "by Ada Lovelace, entered by an agent acting for the person (`model-x`)" in markdown


@pytest.mark.parametrize(
    "argv",
    [
        ["--verdict", "fails", "--reviewer", "A", "--reason", "r"],
        ["--node", "s-12", "--check", "c-001", "--verdict", "fails", "--reviewer", "A", "--reason", "r"],
        ["--node", "s-12", "--verdict", "maybe", "--reviewer", "A", "--reason", "r"],
        ["--node", "s-12", "--verdict", "fails", "--reason", "r"],
    ],
)
def test_review_usage_errors_are_one_line_and_change_nothing(run: Path, argv: list[str]) -> None:
    before = tree(run)
    done = cli("review", str(run), *argv)
    assert done.returncode == 2
    assert done.stderr.startswith("error [usage]: ") and done.stderr.count("\n") == 1
    assert tree(run) == before


def test_a_page_that_cannot_be_written_is_an_io_error(tmp_path: Path) -> None:
    done = cli("report", str(EXAMPLE_RUN), "--no-replay", "--no-verify", "--html", str(tmp_path / "none" / "r.html"))
    assert done.returncode == 2
    assert done.stderr.startswith("error [io-error]: ") and done.stderr.count("\n") == 1
