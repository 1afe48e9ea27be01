"""`credencegraph-extract report` reuses what an earlier report's replay and verify proved of the same run with
the same code, says so, and never lets a kept result speak for a run that changed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cgx_core.report import audit_cache
from cgx_core.report.integrity import run_integrity
from support import ROOT, tree

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


def test_a_replay_from_outside_the_run_and_a_run_holding_a_link_are_never_reused(
    run: Path, audit_cache_folder: Path
) -> None:
    source = run / "source" / "paper.tex"
    assert source.is_file()
    for _ in range(2):
        outside = run_integrity(run, replay="reuse", verify="skip", source=source)
        assert outside.replay.summary == "byte-identical"  # --source: the replay read more than the run
    assert list(audit_cache_folder.iterdir()) == []
    (run / "link").symlink_to(run / "graph.json")
    assert audit_cache.run_digest(run) is None
    for _ in range(2):  # audited each time, and the link, which no call made, is named
        assert run_integrity(run, replay="skip", verify="reuse").verify.summary == (
            "error [tampered]: 'run/link' is no file of the run"
        )
    assert list(audit_cache_folder.iterdir()) == []


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
