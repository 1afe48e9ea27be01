"""`credencegraph-extract report` reuses what an earlier report's replay and verify proved of the same run with
the same code, says so, and never lets a kept result speak for a run that changed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from cgx_core.report import audit_cache
from cgx_core.report.html import html_report
from cgx_core.report.integrity import Audit, run_integrity
from cgx_core.report.model import build_report
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, ROOT, call, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
EXAMPLE_RUN = ROOT / "examples" / "end-to-end" / "run"
FRESH = "Replay: byte-identical. Verify: 0 differences."
REUSED_REPLAY = (
    "Replay: byte-identical (reused from an earlier report of the same files and code; --replay runs it again)."
)
REUSED_VERIFY = (
    "Verify: 0 differences (reused from an earlier report of the same files and code; --verify runs it again)."
)


def report(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, "report", *argv], capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)


def integrity_line(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout.splitlines()[1]


@pytest.fixture
def run(tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(EXAMPLE_RUN, target)
    return target


def test_a_second_report_reuses_both_says_so_and_writes_nothing_into_the_run(
    run: Path, audit_cache_folder: Path, tmp_path: Path
) -> None:
    before = tree(run)
    first = report(str(run))
    assert first.returncode == 0, first.stderr
    assert integrity_line(first) == FRESH
    assert len(list(audit_cache_folder.iterdir())) == 2  # one replay, one verify: kept outside the run
    second = report(str(run), "--html", str(tmp_path / "r.html"))
    assert second.returncode == 0, second.stderr
    assert integrity_line(second) == f"{REUSED_REPLAY} {REUSED_VERIFY}"
    assert "reused from an earlier report" in (tmp_path / "r.html").read_text(encoding="utf-8")
    assert tree(run) == before


def test_the_replay_and_verify_commands_proofs_are_what_a_later_report_reuses(
    paper_and_run: tuple[Path, Path], audit_cache_folder: Path
) -> None:
    """An agent that replays and verifies, then reports, pays for each once: the report reuses what the two
    commands proved of the same files and code (a run that stored no source, replayed from --source)."""
    paper, run = paper_and_run
    replayed = subprocess.run([CLI, "replay", str(run), "--source", str(paper)], capture_output=True, check=False)
    verified = subprocess.run([CLI, "verify", str(run)], capture_output=True, check=False)
    assert (replayed.returncode, verified.returncode) == (0, 0), (replayed.stderr, verified.stderr)
    assert len(list(audit_cache_folder.iterdir())) == 2
    assert integrity_line(report(str(run), "--source", str(paper))) == f"{REUSED_REPLAY} {REUSED_VERIFY}"
    (paper.parent / "sections" / "extra.tex").write_text("More text.\n", encoding="utf-8")
    assert integrity_line(report(str(run), "--source", str(paper))) == f"Replay: byte-identical. {REUSED_VERIFY}"


def test_replay_and_verify_force_a_new_audit_and_no_still_skips(run: Path) -> None:
    assert integrity_line(report(str(run))) == FRESH
    assert integrity_line(report(str(run), "--replay")) == f"Replay: byte-identical. {REUSED_VERIFY}"
    assert integrity_line(report(str(run), "--verify")) == f"{REUSED_REPLAY} Verify: 0 differences."
    skipped = report(str(run), "--no-replay", "--verify")
    assert integrity_line(skipped) == "Replay: not run: --no-replay was given. Verify: 0 differences."
    both = report(str(run), "--replay", "--no-replay")
    assert both.returncode == 2 and both.stderr.startswith("error [usage]: ")


@pytest.mark.parametrize("change", ["a file added", "a check's output edited", "the log edited"])
def test_any_change_of_a_run_file_audits_again_and_a_tampered_run_never_passes(run: Path, change: str) -> None:
    assert report(str(run)).returncode == 0
    if change == "a file added":
        (run / "notes.txt").write_text("a note\n", encoding="utf-8")
    elif change == "a check's output edited":
        output = run / "checks" / "c-002" / "output.json"
        output.write_bytes(output.read_bytes().replace(b"90000", b"90001"))
    else:
        log = run / "calls.jsonl"
        log.write_bytes(log.read_bytes().replace(b"anthropic-claude", b"anthropic-claudf", 1))
    again = report(str(run))
    assert "reused" not in again.stdout
    if change == "a file added":  # audited again, and a file the log does not account for is named
        assert integrity_line(again) == (
            "Replay: error [tampered]: 'run/notes.txt' is no file of the run. "
            "Verify: error [tampered]: 'run/notes.txt' is no file of the run."
        )
    else:  # differences found (1) or a refusal (2) may come again; a pass kept for the run as it was never does
        for done in (again, report(str(run))):
            assert done.returncode in (1, 2) and "Verify: 0 differences" not in done.stdout, done.stdout


def test_a_change_of_the_code_audits_again(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A development install keeps its version while its code changes: the key holds the code's digest."""
    assert run_integrity(run, replay="reuse", verify="reuse").verify.summary == "0 differences"
    assert "reused" in run_integrity(run, replay="reuse", verify="reuse").verify.summary
    monkeypatch.setattr(audit_cache, "code_digest", lambda: "sha256:" + "0" * 64)
    changed = run_integrity(run, replay="reuse", verify="reuse")
    assert (changed.replay.summary, changed.verify.summary) == ("byte-identical", "0 differences")


def test_the_code_digest_covers_every_source_file_of_the_core_and_the_check_types() -> None:
    import cgx_checks
    import cgx_core

    described = audit_cache.described_code()
    for package in (cgx_core, cgx_checks):
        folder = Path(package.__file__).parent
        files = {name for name, _ in described["files"][package.__name__]}
        assert f"{package.__name__}/report/audit_cache.py" in files or package is cgx_checks
        assert {f"{package.__name__}/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*.py")} <= files
    assert described["libraries"]["sympy"] != "not installed"


def test_a_run_holding_a_link_is_never_reused(run: Path, audit_cache_folder: Path) -> None:
    (run / "link").symlink_to(run / "graph.json")
    assert audit_cache.run_digest(run) is None
    for _ in range(2):  # audited each time, and the link, which no call made, is named
        assert run_integrity(run, replay="skip", verify="reuse").verify.summary == (
            "error [tampered]: 'run/link' is no file of the run"
        )
    assert list(audit_cache_folder.iterdir()) == []


@pytest.fixture(scope="module")
def unstored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of the example paper that did not store its source: replay needs --source."""
    folder = tmp_path_factory.mktemp("unstored")
    shutil.copytree(EXAMPLE, folder / "paper")
    run = folder / "run"
    call_tool(
        "start_run",
        {
            "run": str(run),
            "paper": str(folder / "paper" / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "cited": str(folder / "paper" / "cited"),
            "model": "test-model",
        },
    )
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(run, "finish_run").get("finished") is True
    return folder


@pytest.fixture
def paper_and_run(unstored: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of `unstored`: the paper's folder (`paper/paper.tex` beside `paper/sections/`) and the run."""
    shutil.copytree(unstored, tmp_path / "copy")
    return tmp_path / "copy" / "paper" / "paper.tex", tmp_path / "copy" / "run"


def audits(run: Path, source: Path | None = None, sources: Path | None = None) -> tuple[Audit, Audit]:
    found = run_integrity(run, replay="reuse", verify="reuse", source=source, sources=sources)
    return found.replay, found.verify


def test_a_replay_given_the_source_is_reused_and_says_what_a_fresh_one_says(
    paper_and_run: tuple[Path, Path], audit_cache_folder: Path
) -> None:
    """A run that stored no source (the default) is replayed from --source: kept under the source's digest."""
    paper, run = paper_and_run
    without = run_integrity(run, replay="reuse", verify="skip").replay
    assert without.summary.startswith("error [source-needed]: ")  # an error is never kept
    fresh = audits(run, paper)
    assert fresh[0].summary == "byte-identical"
    reused = audits(run, paper)
    suffix = " (reused from an earlier report of the same files and code; --{} runs it again)"
    for kind, first, again in zip(("replay", "verify"), fresh, reused, strict=True):
        assert again == attrs.evolve(first, summary=first.summary + suffix.format(kind))
    assert len(list(audit_cache_folder.iterdir())) == 2
    pages = {}  # the whole page, its replay run and reused: the same but for the sentence that says so
    for choice in ("run", "reuse"):
        found = run_integrity(run, replay=choice, verify="skip", source=paper)  # type: ignore[arg-type]
        pages[choice] = html_report(build_report(run, found, source=paper)).replace(suffix.format("replay"), "")
    assert pages["run"] == pages["reuse"]


@pytest.mark.parametrize(
    "change", ["a file beside the paper added", "a file the paper reads edited", "the same paper moved"]
)
def test_a_changed_source_is_replayed_again(paper_and_run: tuple[Path, Path], change: str) -> None:
    paper, run = paper_and_run
    assert audits(run, paper)[0].summary == "byte-identical"
    if change == "a file beside the paper added":  # an \\input that found nothing could find it now
        (paper.parent / "sections" / "extra.tex").write_text("More text.\n", encoding="utf-8")
        assert audits(run, paper)[0].summary == "byte-identical"  # replayed again: nothing it reads changed
    elif change == "a file the paper reads edited":
        method = paper.parent / "sections" / "method.tex"
        before = method.read_bytes()
        method.write_bytes(before + b"%\n")
        assert audits(run, paper)[0].summary.startswith("error [source-mismatch]: ")
        method.write_bytes(before)  # the folder as it was: its kept result is found again
    else:
        moved = paper.parent.parent / "elsewhere"
        paper.parent.rename(moved)  # the key holds the folder's files, not where it lies
        assert "reused" in audits(run, moved / "paper.tex")[0].summary
        return
    assert "reused" in audits(run, paper)[0].summary


def test_a_changed_sources_folder_or_code_is_replayed_again(
    paper_and_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paper, run = paper_and_run
    folder = tmp_path / "fetched"
    folder.mkdir()
    assert audits(run, paper, folder)[0].summary == "byte-identical"
    assert "reused" in audits(run, paper, folder)[0].summary
    (folder / "note.txt").write_text("another file\n", encoding="utf-8")
    assert audits(run, paper, folder)[0].summary == "byte-identical"
    monkeypatch.setattr(audit_cache, "code_digest", lambda: "sha256:" + "0" * 64)
    assert audits(run, paper, folder)[0].summary == "byte-identical"


def test_a_paper_folder_holding_a_link_or_too_many_files_is_never_kept(
    paper_and_run: tuple[Path, Path], audit_cache_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paper, run = paper_and_run
    (paper.parent / "link").symlink_to(paper)
    for _ in range(2):
        assert audits(run, paper)[0].summary == "byte-identical"
    (paper.parent / "link").unlink()
    monkeypatch.setattr(audit_cache, "TREE_FILES", 3)  # paper.tex, refs.bib, cited/ and sections/ hold more
    assert audits(run, paper)[0].summary == "byte-identical"
    assert audits(run, paper)[0].summary == "byte-identical"
    assert len(list(audit_cache_folder.iterdir())) == 1  # the verify alone: it reads nothing outside the run


def test_a_cache_folder_inside_the_run_is_not_used(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report writes nothing into a run, and a run must not carry results in for its own report."""
    before = tree(run)
    monkeypatch.setenv("CGX_AUDIT_CACHE", str(run / "checks"))
    for _ in range(2):
        assert integrity_line(report(str(run))) == FRESH
    assert tree(run) == before


def test_an_unreadable_or_edited_kept_entry_is_audited_again(run: Path, audit_cache_folder: Path) -> None:
    assert run_integrity(run, replay="skip", verify="reuse").verify.summary == "0 differences"
    (kept,) = audit_cache_folder.iterdir()
    for broken in (b"{", b'{"format": 1}', kept.read_bytes().replace(b'"passed"', b'"error"')):
        kept.write_bytes(broken)
        assert run_integrity(run, replay="skip", verify="reuse").verify.summary == "0 differences"


def test_the_cache_folder_follows_the_environment(run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CGX_AUDIT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert audit_cache.cache_folder(run) == tmp_path / "xdg" / "credencegraph-extract" / "audits"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # invalid by the XDG specification: ignored
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert audit_cache.cache_folder(run) == tmp_path / "home" / ".cache" / "credencegraph-extract" / "audits"
    monkeypatch.setenv("CGX_AUDIT_CACHE", str(run))
    assert audit_cache.cache_folder(run) is None
