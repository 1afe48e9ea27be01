"""verify over many runs: the process pool and a Dask LocalCluster give the same bytes, runs come from lists
and trees, a journal follows the work and resumes it after a kill, and a worker that dies is retried or the
run reported. Every cluster here is started by the command itself, on the loopback interface only."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.base.digests import file_digest
from cgx_core.run.finished import derived_json
from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC, ROOT, call

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
EXAMPLE_RUN = ROOT / "examples" / "end-to-end" / "run"
# Dask's own config, read from the environment: a quick refusal of an address nothing listens on.
QUICK_CONNECT = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}


def cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *argv], capture_output=True, text=True, check=False, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of the example paper with two arithmetic checks and a citation check (cheap to verify);
    beside it, `other-rubric`: the same run made with a rubric of the same name and version but other values."""
    folder = tmp_path_factory.mktemp("template")
    rubric = folder / "rubric.toml"
    rubric.write_text(EXAMPLE_RUBRIC.read_text().replace('"likely" = 0.7', '"likely" = 0.75'))
    finished_example(folder / "other-rubric", rubric)
    return finished_example(folder / "run", EXAMPLE_RUBRIC)


def finished_example(run: Path, rubric: Path) -> Path:
    arguments = {"paper": str(EXAMPLE / "paper.tex"), "rubric": str(rubric), "cited": str(EXAMPLE / "cited")}
    assert "error" not in call(run, "start_run", **arguments)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(run, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    proposals = [
        {"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"},
        {"type": "recompute-numbers", "target": "s-13", "expression": "1200 * 75", "result": "90000"},
    ]
    assert call(run, "run_checks", proposals=proposals)["refused"] == []
    assert call(run, "finish_run").get("finished") is True
    return run


def _rewrite_json(path: Path, change: Any) -> None:
    data = json.loads(path.read_bytes())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _reseal(run: Path) -> None:
    """Record graph.json's digest in the manifest again, as if the run had been made so (in its own bytes)."""
    manifest = json.loads((run / "manifest.json").read_bytes())
    manifest["finished"]["files"]["graph.json"] = file_digest(run / "graph.json")
    (run / "manifest.json").write_bytes(derived_json(manifest))


def kind(number: int) -> str:
    """What run `number` of a set is: mostly clean copies, and among them runs with differences, refused runs
    (missing, tampered, unfinished), a run made with another plugin version (a note) and runs of one rubric
    version with other values (a warning)."""
    for modulus, remainder, name in [
        (211, 13, "missing"),
        (97, 5, "edited"),
        (101, 7, "tampered"),
        (149, 9, "unfinished"),
        (251, 11, "older-plugin"),
        (307, 17, "other-rubric"),
    ]:
        if number % modulus == remainder:
            return name
    return "clean"


def make_set(template: Path, folder: Path, count: int) -> list[str]:
    """`count` runs, each as `kind` says."""
    folder.mkdir(parents=True)
    runs = []
    for number in range(count):
        run = folder / f"run-{number:04d}"
        runs.append(str(run))
        what = kind(number)
        if what == "missing":
            continue
        shutil.copytree(template.parent / "other-rubric" if what == "other-rubric" else template, run)
        if what == "edited":
            log = run / "checks" / "c-001" / "log.txt"
            log.write_text(log.read_text() + "edited")
        elif what == "tampered":
            (run / "graph.json").write_text((run / "graph.json").read_text() + " ")
        elif what == "unfinished":
            (run / "graph.json").unlink()
        elif what == "older-plugin":
            _rewrite_json(
                run / "graph.json",
                lambda graph: [
                    node["attributes"]["check"]["tool"]["plugin"].update({"version": "0.0.1"})
                    for node in graph["nodes"]
                    if node["id"] == "c-002"
                ],
            )
            _reseal(run)
    return runs


@pytest.fixture(scope="module")
def thousand(template: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return make_set(template, tmp_path_factory.mktemp("set") / "runs", 1000)


def test_the_example_run_gives_the_same_json_on_a_local_cluster_as_in_process() -> None:
    pool = cli("verify", str(EXAMPLE_RUN), "--json")
    cluster = cli("verify", str(EXAMPLE_RUN), "--json", "--scheduler", "local", "--jobs", "1")
    assert pool.returncode == cluster.returncode == 0, pool.stderr + cluster.stderr
    assert cluster.stdout == pool.stdout
    # Progress only (stderr is no terminal): a run's line, and, for the one run verified in this process, a
    # line before each of its checks (a cluster's worker re-runs them out of sight).
    assert cluster.stderr == "verify: 1/1 runs\n"
    checks = pool.stderr.splitlines()[:-1]
    assert pool.stderr.endswith("\nverify: 1/1 runs\n") and len(checks) == 10, pool.stderr
    assert checks[0].startswith("verify: check 1/10: c-001 (") and checks[-1].startswith("verify: check 10/10: ")
    [result] = json.loads(pool.stdout)["results"]  # a clean run is listed too
    assert (result["checks"], result["rerun"], result["differences"], result["error"]) == (10, 7, [], None)


def test_1000_runs_give_the_same_bytes_and_exit_code_from_the_pool_and_a_local_cluster(
    thousand: list[str], tmp_path: Path
) -> None:
    pool = cli("verify", *thousand, "--jobs", "2", "--json", "--jsonl", str(tmp_path / "pool.jsonl"))
    cluster = cli(
        "verify", *thousand, "--scheduler", "local", "--jobs", "2", "--json", "--jsonl", str(tmp_path / "dask.jsonl")
    )
    assert pool.returncode == cluster.returncode == 2  # refused runs are errors
    assert cluster.stdout == pool.stdout
    assert cluster.stderr == pool.stderr
    summary = json.loads(pool.stdout)
    results = summary["results"]
    assert [result["path"] for result in results] == thousand  # every run, in the order given
    codes = {result["error"]["code"] for result in results if result["error"]}
    assert codes == {"run-not-found", "tampered", "not-finished"}
    kinds = [kind(number) for number in range(1000)]
    refused = sum(1 for what in kinds if what in ("missing", "tampered", "unfinished"))
    assert summary["errors"] == sum(1 for result in results if result["error"]) == refused
    # An older plugin's version is written into graph.json after the run finished, so verify also sees that
    # graph.json no longer matches the log's finish: those runs carry a difference besides their note.
    with_differences = kinds.count("edited") + kinds.count("older-plugin")
    assert sum(1 for result in results if result["differences"]) == with_differences
    assert sum(1 for result in results if result["notes"]) == kinds.count("older-plugin")
    [warning] = summary["warnings"]
    assert warning.startswith("warning: rubric example-paper 0.1-example has different files: sha256:")
    assert "and " in warning and " more runs" in warning  # the clean copies are counted, not all listed
    assert "note: " in pool.stderr and "error [tampered]: " in pool.stderr
    # the journals hold the same lines, each run once, in the order each engine finished them
    journals = [(tmp_path / name).read_text().splitlines() for name in ("pool.jsonl", "dask.jsonl")]
    assert sorted(journals[0]) == sorted(journals[1])
    assert sorted(json.loads(line)["path"] for line in journals[0]) == sorted(thousand)


def test_a_list_a_tree_and_the_arguments_name_the_same_runs(template: Path, tmp_path: Path) -> None:
    runs = make_set(template, tmp_path / "tree" / "batch-a", 14) + make_set(template, tmp_path / "tree" / "b", 9)
    # a run deeper down, and a folder without runs beside them
    nested = tmp_path / "tree" / "c" / "deeper" / "run"
    shutil.copytree(template, nested)
    (tmp_path / "tree" / "empty" / "nothing").mkdir(parents=True)
    found = [*sorted(path for path in runs if Path(path).exists()), str(nested)]
    listing = tmp_path / "runs.txt"
    listing.write_text("\n".join(found) + "\n\n")
    by_arguments = cli("verify", *found, "--jobs", "2", "--json")
    by_list = cli("verify", "--from", str(listing), "--jobs", "2", "--json")
    by_tree = cli("verify", str(tmp_path / "tree"), "--jobs", "2", "--json")
    assert by_arguments.returncode == 2, by_arguments.stderr
    assert by_list.stdout == by_tree.stdout == by_arguments.stdout
    assert [result["path"] for result in json.loads(by_tree.stdout)["results"]] == found


def test_a_tree_without_runs_is_reported_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "empty" / "inner").mkdir(parents=True)
    done = cli("verify", str(tmp_path / "empty"), "--json")
    assert done.returncode == 2
    [result] = json.loads(done.stdout)["results"]
    assert result["error"]["code"] == "not-a-run"


def _journal_paths(journal: Path) -> list[str]:
    return [json.loads(line)["path"] for line in journal.read_text().splitlines()]


@pytest.mark.parametrize("engine", [["--jobs", "2"], ["--scheduler", "local", "--jobs", "2"]], ids=["pool", "dask"])
def test_a_set_verified_in_two_halves_around_a_killed_process_gives_the_same_total(
    template: Path, tmp_path: Path, engine: list[str]
) -> None:
    runs = make_set(template, tmp_path / "runs", 400)
    listing = tmp_path / "runs.txt"
    listing.write_text("\n".join(runs) + "\n")
    journal = tmp_path / "journal.jsonl"
    whole = cli("verify", "--from", str(listing), "--json", "--jobs", "2")

    command = [CLI, "verify", "--from", str(listing), "--json", "--jsonl", str(journal), *engine]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while first.poll() is None and len(_lines(journal)) < 100:
            time.sleep(0.05)
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the command and every worker it started, mid-set
        first.wait()
    recorded = len(_lines(journal))
    assert 100 <= recorded < len(runs), "the first half was not interrupted"

    second = cli("verify", "--from", str(listing), "--json", "--jsonl", str(journal), "--resume", str(journal), *engine)
    assert second.returncode == whole.returncode == 2
    assert second.stdout == whole.stdout  # the same total and the same results, byte for byte
    assert second.stderr == whole.stderr
    paths = _journal_paths(journal)
    assert sorted(paths) == sorted(runs)  # every run recorded exactly once: none verified twice, none lost


def _lines(journal: Path) -> list[bytes]:
    try:
        return [line for line in journal.read_bytes().split(b"\n")[:-1] if line]
    except FileNotFoundError:
        return []


def test_resume_skips_only_runs_recorded_with_the_versions_installed_now(template: Path, tmp_path: Path) -> None:
    runs = make_set(template, tmp_path / "runs", 6)
    journal = tmp_path / "journal.jsonl"
    full = cli("verify", *runs, "--json", "--jsonl", str(journal))
    lines = {json.loads(line)["path"]: line for line in journal.read_text().splitlines()}
    assert sorted(lines) == runs
    entries = {path: json.loads(line) for path, line in lines.items()}
    assert all(entry["versions"]["credencegraph-extract"] for entry in entries.values())
    # an older package verified run 1; a worker died on run 2; run 3's line was cut by a kill
    entries[runs[1]]["versions"]["credencegraph-extract"] = "0.0.1"
    entries[runs[1]]["checks"] = 999  # what an older verify said is not kept
    entries[runs[2]].update(
        error={"code": "worker-died", "message": "died"}, checks=0, rerun=0, rubric={}, run="", differences=[]
    )
    kept = [json.dumps(entries[path], separators=(",", ":")) for path in runs if path != runs[3]]
    journal.write_text("\n".join(kept) + "\n" + lines[runs[3]][:40])
    again = cli("verify", *runs, "--json", "--jsonl", str(journal), "--resume", str(journal))
    assert again.returncode == full.returncode
    assert again.stdout == full.stdout
    after = journal.read_text().splitlines()
    assert after[:5] == kept  # appended to, after cutting the partial line
    assert sorted(json.loads(line)["path"] for line in after[5:]) == [runs[1], runs[2], runs[3]]


def test_a_journal_is_never_overwritten_and_a_bad_one_is_refused_naming_its_line(
    template: Path, tmp_path: Path
) -> None:
    runs = make_set(template, tmp_path / "runs", 2)
    journal = tmp_path / "journal.jsonl"
    assert cli("verify", *runs, "--jsonl", str(journal)).returncode == 0
    before = journal.read_bytes()
    done = cli("verify", *runs, "--jsonl", str(journal))
    assert done.returncode == 2
    assert done.stderr.startswith("error [journal-exists]: ")
    assert "--resume" in done.stderr
    assert journal.read_bytes() == before
    lines = before.decode().splitlines()
    broken = json.loads(lines[1])
    broken["checks"] = "3"
    broken["extra"] = 1
    del broken["versions"]
    journal.write_text(lines[0] + "\n" + json.dumps(broken) + "\n")
    done = cli("verify", *runs, "--jsonl", str(journal), "--resume", str(journal))
    assert done.returncode == 2
    assert done.stderr.startswith("error [journal-invalid]: 'journal.jsonl' line 2 is not a verify result (")
    for problem in ("missing field 'versions'", "unknown field 'extra'", "field 'checks' has the wrong type"):
        assert problem in done.stderr
    (tmp_path / "not-json.jsonl").write_text("{\n")
    done = cli("verify", *runs, "--resume", str(tmp_path / "not-json.jsonl"))
    assert done.stderr.startswith("error [journal-invalid]: 'not-json.jsonl' line 1 is not JSON")


def test_a_missing_resume_file_is_a_first_session(template: Path, tmp_path: Path) -> None:
    runs = make_set(template, tmp_path / "runs", 2)
    journal = tmp_path / "journal.jsonl"
    done = cli("verify", *runs, "--jsonl", str(journal), "--resume", str(journal))
    assert done.returncode == 0, done.stderr
    assert sorted(_journal_paths(journal)) == runs


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "give the runs to verify"),
        (["run", "--jobs", "0"], "--jobs must be at least 1"),
        (["run", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"], "a cluster at an address has its own"),
    ],
)
def test_usage_errors(argv: list[str], message: str) -> None:
    done = cli("verify", *argv)
    assert done.returncode == 2
    assert done.stderr.startswith("error [usage]: ")
    assert message in done.stderr
    assert done.stdout == ""


def test_bad_run_lists_are_refused_before_any_run_is_verified(tmp_path: Path) -> None:
    listing = tmp_path / "runs.txt"
    listing.write_bytes(b"runs/a\nruns/\xff\n")
    done = cli("verify", "--from", str(listing))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error [run-list-invalid]: '{listing}' line 2 is not UTF-8: write one run path a line\n"
    done = cli("verify", "--from", str(tmp_path / "absent.txt"))
    assert done.stderr.startswith("error [io-error]: cannot read the run list")


def test_an_unreachable_scheduler_is_one_error_line(tmp_path: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))  # a port of the test's own, bound and never listening: a connection is refused
        with_nothing_listening = f"tcp://127.0.0.1:{held.getsockname()[1]}"
        done = cli("verify", str(EXAMPLE_RUN), "--scheduler", with_nothing_listening, env=QUICK_CONNECT)
    assert done.returncode == 2
    assert done.stderr.startswith("error [scheduler-unavailable]: cannot reach the Dask scheduler at ")
    assert done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_without_the_dask_extra_the_scheduler_option_says_what_to_install(tmp_path: Path) -> None:
    blocked = tmp_path / "site" / "distributed"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('not installed in this test')\n")
    done = cli("verify", str(EXAMPLE_RUN), "--scheduler", "local", env={"PYTHONPATH": str(tmp_path / "site")})
    assert done.returncode == 2
    assert done.stderr.startswith("error [extra-missing]: ")
    assert "credencegraph-extract[dask]" in done.stderr


# -- a worker killed mid-run ------------------------------------------------------------------------------


class Killer:
    """Blocks one run's verification mid-run and kills the worker doing it, `kills` times, then lets it through.

    The run's manifest.json is a FIFO that this test keeps open for reading and writing, so a worker that
    opens it waits in its read, holding it open; the test finds that worker among the command's processes and
    kills it. After `kills` kills it writes the real manifest and closes its end, so the reader gets the bytes
    and an end of file, then opens the FIFO again for the next reader."""

    def __init__(self, run: Path, kills: int) -> None:
        self.manifest = run / "manifest.json"
        self.content = self.manifest.read_bytes()
        self.manifest.unlink()
        os.mkfifo(self.manifest)
        self.kills = kills
        self.killed: list[int] = []
        self.served = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def start(self, command: subprocess.Popen[str]) -> None:
        self.command = command
        self._thread.start()

    def _serve(self) -> None:
        end = os.open(self.manifest, os.O_RDWR)  # a writer is always there: no reader sees an early end of file
        try:
            while not self._stop.is_set():
                pid = self._holder()
                if pid is None:
                    time.sleep(0.02)
                    continue
                if len(self.killed) < self.kills:
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)
                else:
                    os.write(end, self.content)
                    os.close(end)
                    self.served += 1
                    end = -1
                while self._holder() == pid and not self._stop.is_set():
                    time.sleep(0.01)  # dead, or done reading
                if end == -1:
                    end = os.open(self.manifest, os.O_RDWR)
        finally:
            if end != -1:
                os.close(end)

    def _holder(self) -> int | None:
        """The process below the command that has the FIFO open."""
        target = str(self.manifest)
        for pid in _descendants(self.command.pid):
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                        return pid
                except OSError:
                    continue
        return None

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def _descendants(root: int) -> Iterator[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    stack = list(children.get(root, []))
    while stack:
        pid = stack.pop()
        yield pid
        stack.extend(children.get(pid, []))


ENGINES: dict[str, tuple[list[str], dict[str, str]]] = {
    "pool": (["--jobs", "2"], {}),
    "dask": (["--scheduler", "local", "--jobs", "2"], {}),  # Dask's own retries: allowed-failures 3
}


def _run_with_killer(
    runs: list[str], killer: Killer, engine: str, allowed_failures: str | None = None
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    options, env = ENGINES[engine]
    if allowed_failures is not None:
        env = {**env, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": allowed_failures}
    command = subprocess.Popen(
        [CLI, "verify", *runs, "--json", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    killer.start(command)
    try:
        stdout, stderr = command.communicate(timeout=240)
    finally:
        killer.stop()
        if command.poll() is None:
            command.kill()
    done = subprocess.CompletedProcess(command.args, command.returncode, stdout, stderr)
    return done, json.loads(stdout) if stdout else {}


@pytest.mark.parametrize("engine", ["pool", "dask"])
def test_a_worker_killed_mid_run_is_retried_and_the_result_is_as_if_nothing_happened(
    template: Path, tmp_path: Path, engine: str
) -> None:
    runs = make_set(template, tmp_path / "runs", 8)
    clean = cli("verify", *runs, "--json")
    killer = Killer(Path(runs[3]), kills=1)
    done, _ = _run_with_killer(runs, killer, engine)
    assert killer.killed and killer.served >= 1
    assert done.returncode == clean.returncode, done.stderr
    assert done.stdout == clean.stdout
    assert done.stderr == clean.stderr


@pytest.mark.parametrize("engine", ["pool", "dask"])
def test_a_run_that_keeps_killing_its_worker_is_reported_and_the_others_verified(
    template: Path, tmp_path: Path, engine: str
) -> None:
    runs = make_set(template, tmp_path / "runs", 8)
    clean = json.loads(cli("verify", *runs, "--json").stdout)
    killer = Killer(Path(runs[3]), kills=1000)
    # no retry by Dask here (one kill to give up, one more alone): each kill is a worker the nanny restarts,
    # which a loaded machine makes slow; the retry itself is the test above's
    done, summary = _run_with_killer(runs, killer, engine, allowed_failures="0")
    assert done.returncode == 2
    assert summary, f"no summary after {len(killer.killed)} kills: {done.stderr}"
    assert [result["path"] for result in summary["results"]] == runs
    for index, (result, expected) in enumerate(zip(summary["results"], clean["results"], strict=True)):
        if index != 3:
            assert result == expected
    assert summary["results"][3]["error"]["code"] == "worker-died"
    assert f"error [worker-died]: {runs[3]}: the process verifying the run died" in done.stderr
    assert "Traceback" not in done.stderr


# -- the summary, streamed --------------------------------------------------------------------------------


def test_the_streamed_summary_is_the_bytes_of_the_whole_object_and_the_warning_counts_what_it_does_not_name() -> None:
    import io

    from cgx_cli.verify_summary import Tally
    from cgx_core.audit.verify import RunVerdict
    from cgx_core.tooling.output import result_text

    def verdict(number: int, digest: str) -> RunVerdict:
        rubric = {"name": "r", "version": "1", "digest": digest}
        return RunVerdict(f"id{number}", f"runs/é{number}", rubric, 3, 2, ("c-001 result: x",) * (number % 2), None)

    verdicts = [verdict(number, "sha256:a") for number in range(12)] + [verdict(12, "sha256:b")]
    verdicts.append(RunVerdict("", "runs/gone", {}, 0, 0, (), {"code": "run-not-found", "message": "no run"}))
    tally = Tally()
    for item in verdicts:
        tally.add(item)
    warnings = tally.warnings()
    out = io.StringIO()
    tally.write_json(out, warnings)
    tally.close()
    whole = {
        "runs": 14,
        "checks": 39,
        "rerun": 26,
        "differences": 6,
        "errors": 1,
        "warnings": warnings,
        "results": [item.to_json() for item in verdicts],
    }
    assert out.getvalue() == result_text(whole) + "\n"
    shown = ", ".join(f"runs/é{number}" for number in range(10))
    assert warnings == [
        f"warning: rubric r 1 has different files: sha256:a in {shown} and 2 more runs; sha256:b in runs/é12"
    ]


def _raises_on_bad(path: Path) -> Any:
    from cgx_core.audit.verify import verify_run
    from cgx_core.errors import CgxError

    if path.name == "bad":
        raise ZeroDivisionError("a plugin's bug")
    if path.name == "refused":
        from cgx_core.codes import Code

        raise CgxError(Code.PLUGIN_INVALID, "a plugin cannot be loaded")
    return verify_run(path)


def test_a_run_whose_verification_raises_is_that_runs_error_and_the_others_are_verified(
    template: Path, tmp_path: Path
) -> None:
    from cgx_core.audit.verify_dispatch import dispatch
    from cgx_core.audit.verify_engines import InProcessEngine

    runs = make_set(template, tmp_path / "runs", 3)
    for name in ("bad", "refused"):
        shutil.copytree(template, tmp_path / name)
    given = [runs[0], str(tmp_path / "bad"), runs[1], str(tmp_path / "refused"), runs[2]]
    results = [item.verdict for item in dispatch(given, InProcessEngine(), batch_size=2, verify=_raises_on_bad)]
    assert [result.path for result in results] == given
    assert [result.error["code"] if result.error else None for result in results] == [
        None,
        "internal-error",
        None,
        "plugin-invalid",
        None,
    ]
    assert results[1].error is not None
    assert "raised ZeroDivisionError: a plugin's bug" in results[1].error["message"]
    assert results[0].rerun == 2


def _peak_memory(listing: Path) -> tuple[int, int]:
    """Run verify in process over the listed runs; its exit status and peak resident memory (kB). A small
    launcher starts it, since a child's peak counts what it shared with its parent before it became verify
    (this test process, which is large)."""
    launcher = (
        "import resource, subprocess, sys; "
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    command = [CLI, "verify", "--from", str(listing), "--jobs", "1", "--json"]
    done = subprocess.run([sys.executable, "-c", launcher, *command], capture_output=True, text=True, check=True)
    status, peak = done.stdout.split()
    return int(status), int(peak)


def test_memory_stays_flat_in_the_number_of_runs(tmp_path: Path) -> None:
    """100,000 runs (paths where no run is: each a quick run-not-found verdict of about 300 bytes) take no more
    memory than 10,000: the verdicts wait in a spool file, not in a list (which would hold about 30 MB more)."""
    sizes = {}
    for count in (10_000, 100_000):
        listing = tmp_path / f"runs-{count}.txt"
        listing.write_text(
            "".join(f"{tmp_path}/archive/year-{number % 7}/run-{number:06d}\n" for number in range(count))
        )
        status, peak = _peak_memory(listing)
        assert status == 2  # every run is missing: an error each
        sizes[count] = peak
    assert sizes[100_000] - sizes[10_000] < 8_000, sizes


def test_a_local_cluster_left_without_workers_stops_verify_instead_of_waiting_for_ever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cgx_core.audit import verify_dask
    from cgx_core.errors import CgxError

    monkeypatch.setattr(verify_dask, "NO_WORKERS_SECONDS", 1.0)
    engine = verify_dask.DaskEngine("local", 1)
    try:
        engine.check()  # a worker: nothing to say
        engine._cluster.scale(0)  # as if its workers had died and could not be restarted
        deadline = time.monotonic() + 60
        with pytest.raises(CgxError) as raised:
            while time.monotonic() < deadline:
                engine.check()
                time.sleep(0.2)
        assert raised.value.code == "engine-failed"
        assert "no worker for 1 s" in raised.value.message
    finally:
        engine.close()
