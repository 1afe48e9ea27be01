"""finish_run, replay and verify: a graph that anyone can rebuild and re-check, and every edit detected."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from credencegraph.core import load
from credencegraph.rubric import check_graph, load_rubric

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.run.finished import derived_json
from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, call, start_example

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
CREDENCEGRAPH = str(Path(sys.executable).with_name("credencegraph"))
PASSAGE = "Damped oscillators describe many laboratory systems, from torsion pendula"


def build(run: Path, *, store_source: bool = True, finish: bool = True) -> Path:
    start_example(run, store_source=store_source)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(run, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    proposals = [
        {"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"},
        {"type": "recompute-numbers", "target": "s-13", "expression": "1200 * 75", "result": "90000"},
    ]
    assert call(run, "run_checks", proposals=proposals)["refused"] == []
    judged = call(
        run, "judge_citation", node="s-02", entry="r-1", source="smith2019.txt", passage=PASSAGE, supports=True
    )
    assert judged["checks"][0]["result"] == "passed"
    if finish:
        result = call(run, "finish_run")
        assert result.get("finished") is True, result
    return run


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("finished") / "run")


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(finished, target)
    return target


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *argv], capture_output=True, text=True, check=False)


def node(graph_path: Path, node_id: str) -> Any:
    return load(graph_path).nodes[node_id]


# -- finish_run ---------------------------------------------------------------------------------------


def test_finish_run_derives_every_verdict_from_the_checks(finished: Path) -> None:
    graph = load(finished / "graph.json")
    assert graph.nodes["s-12"].attributes["assessment"] == {"verdict": "fails"}
    assert graph.nodes["s-13"].attributes["assessment"] == {"verdict": "holds"}
    assert graph.nodes["s-02"].attributes["assessment"] == {"verdict": "holds"}
    # a literature claim could take a citation check, but none was proposed
    assert graph.nodes["s-03"].attributes["assessment"] == {"verdict": "not_assessed", "reason": "not selected"}
    # no installed check type targets claims in this rubric
    assert graph.nodes["s-01"].attributes["assessment"] == {"verdict": "not_assessed", "reason": "no v1 check applies"}


def test_the_finished_graph_passes_credencegraphs_check_in_process_and_through_its_cli(finished: Path) -> None:
    rubric = load_rubric(finished / "rubric.toml")
    assert check_graph(load(finished / "graph.json"), rubric, "assessed", rubric_credences=True) == []
    done = subprocess.run(
        [
            CREDENCEGRAPH,
            "check",
            str(finished / "graph.json"),
            "--rubric",
            str(finished / "rubric.toml"),
            "--level",
            "assessed",
            "--rubric-credences",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_report_and_rejections_say_what_a_reviewer_needs(finished: Path) -> None:
    report = json.loads((finished / "report.json").read_bytes())
    assert report["verdicts"] == {"fails": 1, "holds": 2, "not_assessed": 11}  # the assumptions are assessed
    assert report["uncalibrated"] == [
        {"check": "c-003", "type": "citation-support", "model": "test-model", "fitted_with": ["example-model-id"]}
    ]
    assert report["review"]["analyst_assumptions"] == [
        {"node": "a-1", "statement": "The noise is white and stationary.", "conclusions": ["s-01", "s-15"]}
    ]
    assert "s-14" in report["review"]["unchecked_numbers_or_equations"]
    assert report["coverage"]["untyped"] == []
    rejections = json.loads((finished / "rejections.json").read_bytes())
    assert rejections["rejections"] == []
    manifest = json.loads((finished / "manifest.json").read_bytes())
    assert set(manifest["finished"]["files"]) == {"graph.json", "rejections.json", "report.json"}


def test_the_finished_files_exist_only_while_the_run_is_finished(copy: Path) -> None:
    call(copy, "run_checks", proposals=[{"type": "nope", "target": "s-01"}])  # refused whole: still finished
    assert (copy / "graph.json").exists()
    review = call(copy, "review", node="s-13", verdict="holds", reviewer="Ada", reason="recomputed it")
    assert review["checks"], review  # a review check was added: the graph changed
    assert not (copy / "graph.json").exists()
    assert not (copy / "report.json").exists()
    assert "finished" not in json.loads((copy / "manifest.json").read_bytes())
    result = call(copy, "finish_run")
    assert result["finished"] is True
    rejections = json.loads((copy / "rejections.json").read_bytes())["rejections"]
    assert [(item["seq"], item["tool"], item["code"]) for item in rejections] == [
        (7, "run_checks", "check-type-unknown")
    ]


def test_finish_run_refuses_a_graph_with_untyped_chunks_and_leaves_the_run_as_it_was(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run)
    before = (run / "calls.jsonl").read_bytes()
    result = call(run, "finish_run")
    assert result["error"]["code"] == "graph-incomplete"
    assert "untyped" in result["error"]["message"]
    assert (run / "calls.jsonl").read_bytes() == before
    assert not (run / "graph.json").exists()


# -- replay -------------------------------------------------------------------------------------------


def test_replay_of_a_run_that_stored_its_source_is_byte_identical(finished: Path) -> None:
    report = replay(finished, source=None, sources=None)
    assert report.identical, report.body
    done = cli("replay", str(finished))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["identical"] is True


def test_replay_of_a_run_without_its_source_needs_and_checks_source(tmp_path: Path) -> None:
    run = build(tmp_path / "run", store_source=False)
    missing = cli("replay", str(run))
    assert missing.returncode == 2
    assert missing.stderr.startswith("error [source-needed]: pass --source with the paper paper.tex (sha256:")
    assert cli("replay", str(run), "--source", str(EXAMPLE / "paper.tex")).returncode == 0
    other = tmp_path / "other"
    shutil.copytree(EXAMPLE, other)
    (other / "sections" / "method.tex").write_text((other / "sections" / "method.tex").read_text() + "\nMore.\n")
    changed = cli("replay", str(run), "--source", str(other / "paper.tex"))
    assert changed.returncode == 2
    assert changed.stderr.startswith("error [source-mismatch]: pass --source with the paper the run read")
    assert "its file sections/method.tex (sha256:" in changed.stderr


def test_replay_reports_the_first_call_that_diverges(copy: Path) -> None:
    lines = (copy / "calls.jsonl").read_bytes().splitlines(keepends=True)
    entry = json.loads(lines[3])
    entry["args"]["proposals"][0]["expression"] = "12 * 250"  # rewrite call 4, and re-chain what follows
    from cgx_core.base.digests import bytes_digest
    from cgx_core.run.log import LogLine

    rebuilt = [*lines[:3]]
    previous = bytes_digest(lines[2].rstrip(b"\n"))
    for data in [entry, *[json.loads(line) for line in lines[4:]]]:
        line = LogLine.from_json({**data, "prev": previous}).to_bytes()
        rebuilt.append(line + b"\n")
        previous = bytes_digest(line)
    (copy / "calls.jsonl").write_bytes(b"".join(rebuilt))
    done = cli("replay", str(copy))
    assert done.returncode == 1
    body = json.loads(done.stdout)
    assert body["diverged"] == 4
    assert body["tool"] == "run_checks"


@pytest.mark.parametrize("line", [1, 2])
def test_a_rewritten_or_deleted_earlier_log_line_is_detected(copy: Path, line: int) -> None:
    lines = (copy / "calls.jsonl").read_bytes().splitlines(keepends=True)
    if line == 1:
        lines[1] = lines[1].replace(b'"model":"test-model"', b'"model":"test-modeL"')
    else:
        del lines[2]
    (copy / "calls.jsonl").write_bytes(b"".join(lines))
    done = cli("replay", str(copy))
    assert done.returncode == 2
    assert "error [run-corrupt]" in done.stderr
    assert "does not follow call" in done.stderr


# -- verify ---------------------------------------------------------------------------------------------


def test_verify_re_runs_every_deterministic_check_and_finds_nothing_to_report(finished: Path) -> None:
    verdict = verify_run(finished)
    assert verdict.error is None
    assert (verdict.checks, verdict.rerun, verdict.differences) == (3, 2, ())
    done = cli("verify", str(finished), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert (summary["runs"], summary["checks"], summary["rerun"], summary["differences"]) == (1, 3, 2, 0)
    # The check not re-run is named, with why (issue 37: "62 of 63 checks" named none).
    skipped = "c-003 citation-support: rests on a model's judgement (test-model), which verify does not make again"
    assert verdict.not_rerun == (skipped,) and summary["results"][0]["not_rerun"] == [skipped]
    text = cli("verify", str(finished))
    assert f"{finished}: not re-run: {skipped}\n" in text.stdout
    # stderr is no terminal: a plain line before each check re-runs (naming it, so a stall names its check).
    graph = json.loads((finished / "graph.json").read_bytes())
    kinds = {item["id"]: item["kind"] for item in graph["nodes"] if item["id"].startswith("c-")}
    expected = [f"verify: check {n}/3: c-00{n} ({kinds[f'c-00{n}']})" for n in (1, 2, 3)]
    assert done.stderr.splitlines() == [*expected, "verify: 1/1 runs"], done.stderr


def test_verify_without_a_terminal_says_at_most_21_lines_of_a_run_of_a_thousand_checks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cgx_cli.verify_command import _check_line

    for done in range(1000):
        _check_line(done, 1000, f"c-{done + 1:04d} (recompute-numbers)")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 21
    assert lines[0] == "verify: check 1/1000: c-0001 (recompute-numbers)"
    assert lines[1] == "verify: check 50/1000: c-0050 (recompute-numbers)"
    assert lines[-1] == "verify: check 1000/1000: c-1000 (recompute-numbers)"


def edit_manifest(path: Path, change: Any) -> None:
    """An edit of manifest.json, written in the bytes this package writes (a forger who knows the format)."""
    data = json.loads(path.read_bytes())
    change(data)
    path.write_bytes(derived_json(data))


def test_an_edited_check_record_is_reported_even_when_its_files_were_left_alone(copy: Path) -> None:
    from credencegraph.core import dump

    graph = load(copy / "graph.json")
    import dataclasses

    node_ = graph.nodes["c-001"]
    record = dict(node_.attributes["check"])
    record["result"] = "passed"
    attributes = {**node_.attributes, "check": record, "observed": True}
    from cgx_core.graph.edit import replace_nodes

    dump(replace_nodes(graph, {"c-001": dataclasses.replace(node_, attributes=attributes)}), copy / "graph.json")
    edit_manifest(
        copy / "manifest.json",
        lambda m: m["finished"]["files"].update(
            {"graph.json": __import__("cgx_core.base.digests").base.digests.file_digest(copy / "graph.json")}
        ),
    )
    done = cli("verify", str(copy))
    assert done.returncode == 1
    # graph.json's digest in the manifest was adjusted, but the log's finish recorded the graph it left
    assert "graph.json: its graph is not the one the log's finish_run recorded (the graph was edited)" in done.stdout
    assert "c-001 result: the record says passed, output.json says failed" in done.stdout
    assert "c-001 result: recorded passed, re-run failed" in done.stdout


def test_an_edited_file_under_checks_is_reported(copy: Path) -> None:
    log = copy / "checks" / "c-002" / "log.txt"
    log.write_text(log.read_text() + "x")
    done = cli("verify", str(copy))
    assert done.returncode == 1
    assert "c-002 files: checks/c-002/ differs from the digest its record holds" in done.stdout


@pytest.mark.parametrize("name", ["graph.json", "rubric.toml"])
def test_a_run_whose_graph_or_rubric_differs_from_the_manifest_is_refused(copy: Path, name: str) -> None:
    path = copy / name
    data = bytearray(path.read_bytes())
    data[-2] = ord(" ") if data[-2] != ord(" ") else ord("\t")  # a single-byte edit
    path.write_bytes(bytes(data))
    done = cli("verify", str(copy))
    assert done.returncode == 2
    assert f"error [tampered]: {copy}: '{copy.name}/{name}' differs from the digest in its manifest" in done.stderr


def test_verify_warns_when_one_rubric_name_and_version_has_two_digests(copy: Path, tmp_path: Path) -> None:
    # Another run, started with an edited copy of the rubric that keeps its name and version (editing the run's
    # own copy, its digest adjusted, is an edit of what start_run recorded: `tampered`).
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(EXAMPLE_RUBRIC.read_text().replace('"likely" = 0.7', '"likely" = 0.75'))
    other = tmp_path / "other"
    arguments = {"paper": str(EXAMPLE / "paper.tex"), "rubric": str(rubric), "cited": str(EXAMPLE / "cited")}
    assert "error" not in call(other, "start_run", **arguments)
    assert call(other, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(other, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    assert call(other, "finish_run")["finished"] is True
    done = cli("verify", str(copy), str(other), "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning: rubric example-paper 0.1-example has different files" in done.stderr


def test_verify_of_an_unfinished_run_is_an_error(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run)
    done = cli("verify", str(run))
    assert done.returncode == 2
    assert "error [not-finished]" in done.stderr
    assert f"error [not-finished]: {run}: pass a finished run: call finish_run on 'run' first" in done.stderr


def test_verify_over_200_runs_in_parallel_prints_a_json_summary(finished: Path, tmp_path: Path) -> None:
    runs = []
    for number in range(200):
        target = tmp_path / f"run-{number:03d}"
        shutil.copytree(finished, target)
        runs.append(str(target))
    log = Path(runs[7]) / "checks" / "c-001" / "log.txt"
    log.write_text(log.read_text() + "edited")
    done = cli("verify", *runs, "--jobs", "2", "--json")
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["runs"], summary["checks"], summary["rerun"], summary["errors"]) == (200, 600, 400, 0)
    assert [result["path"] for result in summary["results"]] == runs  # every run, clean ones too, in order
    [result] = [result for result in summary["results"] if result["differences"]]
    assert result["path"] == runs[7]
    assert result["differences"] == [
        "c-001 files: checks/c-001/ differs from the digest its record holds",
        "c-001 files: the re-run would write other files than checks/c-001/ holds",
    ]
    # stderr is no terminal: no bar to redraw, but plain progress lines every 5% of the runs, the last at the end
    lines = done.stderr.splitlines()
    assert lines[0] == "verify: 1/200 runs" and lines[-1] == "verify: 200/200 runs" and len(lines) == 21, lines


def test_verify_notes_a_check_re_run_by_another_plugin_version(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The run was made with this package's plugins; verify re-runs with a newer release of them.
    import attrs

    import cgx_core.audit.verify
    from cgx_core.checks.installed import CheckTypeRegistry, installed_check_types

    newer = CheckTypeRegistry()
    for installed in installed_check_types():
        newer.providing(installed.distribution, "9.9.9")
        newer(attrs.evolve(installed).check_type)
    monkeypatch.setattr(cgx_core.audit.verify, "installed_check_types", lambda: newer)
    verdict = verify_run(copy)
    assert verdict.error is None and verdict.differences == (), verdict
    assert any(
        note.startswith("c-002: made with credencegraph-extract ")
        and note.endswith("re-run with credencegraph-extract 9.9.9")
        for note in verdict.notes
    ), verdict.notes
