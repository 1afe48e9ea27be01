"""`calibrate`: a rubric fitted on labelled runs of the tiny paper (one true as written, one with a planted
error and its key), its values as beta posteriors from the counts, the same bytes from the same runs, and the
scores before and after; the command as a person runs it, with its errors."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from cgx_core.calibration.calibrate import calibrate
from cgx_core.calibration.labels import load_run, read_key
from cgx_core.errors import CgxError
from cgx_core.testing import RUBRIC, TINY_PAPER, TINY_RECORDS, StartedRun

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
CHECKS = """
[checks.recompute-numbers]
targets = ["result", "claim"]
sensitivity = "beta:17,3"
false_pass = "beta:3,17"
models = []

[checks.human-review]
targets = ["result", "claim", "assumption"]
sensitivity = "beta:9,1"
false_pass = "beta:1,9"
models = []
"""
SAMPLES = {"type": "recompute-numbers", "target": "s-3", "cites": ["s-2", "s-3"], "expression": "4096 Hz * 4 s"}
SHARE = {
    "type": "recompute-numbers",
    "target": "s-8",
    "cites": ["s-2", "s-8"],
    "expression": "961 / 1000",
    "result": "96%",
}


def finished_run(cgx_run: Callable[..., StartedRun], tmp_path: Path, name: str, samples: str) -> Path:
    """A finished run of the tiny paper whose sample count reads `samples` (16384 is right)."""
    paper = tmp_path / name / "paper.tex"
    paper.parent.mkdir(parents=True)
    paper.write_text(TINY_PAPER.replace("16384 samples", f"{samples} samples"), encoding="utf-8")
    run = cgx_run(rubric_extra=CHECKS, paper=paper)
    assert run.call("classify", records=TINY_RECORDS)["refused"] == []
    result = run.call("run_checks", proposals=[{**SAMPLES, "result": samples}, SHARE])
    assert result["refused"] == [], result
    assert "error" not in run.call("finish_run")
    return run.path


@pytest.fixture
def labelled(cgx_run: Callable[..., StartedRun], tmp_path: Path) -> dict[str, Path]:
    runs = {
        "true": finished_run(cgx_run, tmp_path, "true", "16384"),
        "planted": finished_run(cgx_run, tmp_path, "planted", "16385"),
        "held": finished_run(cgx_run, tmp_path, "held", "16386"),
    }
    keys = {"true": "false = []\n", "planted": 'paper = "tiny"\nfalse = ["s-3"]\n', "held": 'false = ["s-3"]\n'}
    for name, text in keys.items():
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    return {**runs, **{f"{name}-key": tmp_path / f"{name}.toml" for name in keys}}


def rubric_text() -> str:
    return RUBRIC + CHECKS


def test_the_fit_is_the_beta_posterior_of_the_counts_and_the_same_runs_give_the_same_bytes(
    labelled: dict[str, Path],
) -> None:
    runs = [
        load_run(labelled["true"], read_key(labelled["true-key"])),
        load_run(labelled["planted"], read_key(labelled["planted-key"])),
        load_run(labelled["held"], read_key(labelled["held-key"]), held_out=True),
    ]
    made = calibrate(runs, rubric_text(), version="2", on=datetime.date(2026, 12, 6))
    again = calibrate(list(reversed(runs)), rubric_text(), version="2", on=datetime.date(2026, 12, 6))
    assert made.rubric == again.rubric and made.to_json() == again.to_json()
    # 3 passes on true nodes (16384 and twice 96%), 1 failure on the planted false node; held out is not counted
    assert made.counts.to_json()["checks"]["recompute-numbers"] == {
        "on_true": {"passed": 3, "failed": 0},
        "on_false": {"passed": 0, "failed": 1},
    }
    written = tomllib.loads(made.rubric)
    assert written["checks"]["recompute-numbers"]["sensitivity"] == "beta:4,1"
    assert written["checks"]["recompute-numbers"]["false_pass"] == "beta:1,2"
    assert written["rubric"]["version"] == "2"
    calibration = written["calibration"]
    assert (calibration["status"], calibration["scoring"], calibration["date"]) == (
        "calibrated",
        "brier",
        datetime.date(2026, 12, 6),
    )
    fitted_on = ", ".join(sorted((labelled["true"].name, labelled["planted"].name)))
    assert calibration["against"] == (
        f"2 labelled runs of 2 papers ({fitted_on}): 20 labelled nodes (1 false), 4 checks; "
        f"held out: {labelled['held'].name}"
    )
    # the human-review type saw nothing: it keeps the rubric's values, and says so
    assert written["checks"]["human-review"]["sensitivity"] == "beta:9,1"
    assert made.fitted.kept["checks.human-review"] == "no labelled observation"
    # the comments and layout of the rubric are kept
    assert made.rubric.startswith("[rubric]\nformat = 2\n")
    # a result resting on a method that holds: counted for the result's base
    assert written["types"]["result"]["base"] == "beta:4,2"
    assert set(made.scores) == {"in_sample", "leave_one_run_out", "leave_one_paper_out", "held_out"}
    held = made.scores["held_out"]
    assert held["after"].count == held["before"].count > 0
    assert held["after"].brier < held["before"].brier


def test_a_key_that_names_no_node_of_the_run_or_a_field_it_lacks_is_refused(
    labelled: dict[str, Path], tmp_path: Path
) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('false = ["s-99"]\n', encoding="utf-8")
    with pytest.raises(CgxError) as named:
        load_run(labelled["true"], read_key(wrong))
    assert named.value.code == "key-invalid" and "s-99" in named.value.message
    wrong.write_text('flase = ["s-3"]\n', encoding="utf-8")
    with pytest.raises(CgxError) as field:
        read_key(wrong)
    assert field.value.code == "key-invalid" and "flase" in field.value.message


def test_the_command_writes_the_rubric_and_prints_the_scores(labelled: dict[str, Path], tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(rubric_text(), encoding="utf-8")
    out, report = tmp_path / "calibrated.toml", tmp_path / "calibration.json"
    argv = [
        CLI,
        "calibrate",
        f"{labelled['true']}={labelled['true-key']}",
        f"{labelled['planted']}={labelled['planted-key']}",
        f"{labelled['held']}={labelled['held-key']}",
        "--held-out",
        str(labelled["held"]),
        "--rubric",
        str(rubric),
        "--out",
        str(out),
        "--version",
        "2",
        "--date",
        "2026-12-06",
        "--json",
        str(report),
    ]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "recompute-numbers: sensitivity beta:4,1" in done.stdout
    assert "held out" in done.stdout and f"wrote {out}" in done.stdout
    assert tomllib.loads(out.read_text())["calibration"]["status"] == "calibrated"
    assert json.loads(report.read_bytes())["scores"]["held_out"]["after"]["nodes"] > 0
    unfinished = subprocess.run([*argv[:2], str(tmp_path), *argv[5:]], capture_output=True, text=True, check=False)
    assert unfinished.returncode == 2
    assert unfinished.stderr.startswith("error [not-finished]:"), unfinished.stderr
    bad_date = subprocess.run([*argv[:-3], "2026-13-01", *argv[-2:]], capture_output=True, text=True, check=False)
    assert bad_date.returncode == 2 and "error [calibration-invalid]" in bad_date.stderr


def test_a_rests_on_strength_is_fitted_from_nodes_with_one_false_parent_and_kept_with_too_few() -> None:
    from cgx_core.calibration.counts import Counts, Tally
    from cgx_core.calibration.fit import fit
    from cgx_core.calibration.rubric_file import calibrated_rubric
    from cgx_core.graph.rubric import load_rubric_bytes

    rubric = load_rubric_bytes(rubric_text().encode("utf-8"), "rubric.toml")
    counts = Counts(bases={"result": Tally(18, 0)}, propagation={"result": Tally(2, 6)})
    fitted = fit(counts, rubric)
    # the base is beta(19, 1), mean 0.95; with one false parent 3/10 hold: 0.3 = 0.95 * (1 - s), s = 0.68
    assert fitted.strengths == {"result": "0.68"}
    written = calibrated_rubric(rubric_text(), fitted, version="2", against="x", on=datetime.date(2026, 12, 6))
    assert tomllib.loads(written)["types"]["result"]["rests_on"]["strength"] == 0.68
    few = fit(Counts(bases={"result": Tally(18, 0)}, propagation={"result": Tally(1, 3)}), rubric)
    assert few.strengths == {}
    assert few.kept["types.result.rests_on.strength"] == "4 labelled nodes with one false parent"
