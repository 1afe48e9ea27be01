"""Fault containment: a third-party check type that does everything wrong, installed the way a user installs
one (a module and its `.dist-info` with an entry point of `credencegraph_extract.checks`, on sys.path; see
conftest.py), never kills a call, a server or a run.

Each fault gives an `error` check or a refusal naming the plugin and its version, the call's other proposal
still runs, the exception's message is in the check's log, and the run can be finished, replayed and
verified. Bad registrations leave the plugin out, listed with why, and every other plugin keeps working.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.base import limits
from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.testing import TINY_RECORDS, StartedRun

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
LABEL = "the plugin 'cgx-faulty' of cgx-faulty 1.0"

CHECKS = """
[checks.faulty]
description = "A check type that fails on purpose, when its proposal's n is 'bad'."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

RECORDS = TINY_RECORDS

# The plugin: `METHOD` misbehaves with `ACT` on a proposal whose n is "bad"; `RETURN` is what run returns then.
FAULTY = """
import os, sys, time
from cgx_core.plugin_api import Outcome, Prepared, hookimpl

METHOD = {method!r}
ACT = {act!r}


def act():
    if ACT == "raise":
        raise RuntimeError("boom in the plugin at 0x7f00deadbeef")
    if ACT == "exit":
        sys.exit(3)
    if ACT == "os-exit":
        os._exit(4)
    if ACT == "interrupt":
        raise KeyboardInterrupt
    if ACT == "sleep":
        time.sleep(3600)
    if ACT == "loop":
        while True:
            pass


class Faulty:
    name = "faulty"
    tool = "run_checks"
    description = "A check type that fails on purpose."
    proposal_schema = {{"properties": {{"n": {{"type": "string"}}}}, "additionalProperties": False}}

    def _maybe(self, method, inputs):
        if METHOD == method and inputs.get("n") == "bad":
            act()

    def prepare(self, proposal, run):
        self._maybe("prepare", proposal)
        target = "s-3" if METHOD == "target" and proposal.get("n") == "bad" else proposal["target"]
        return Prepared(target, {{"target": proposal["target"], "n": proposal.get("n", "")}})

    def slot_of(self, inputs):
        self._maybe("slot_of", inputs)
        return inputs.get("n", "")

    def observation_key(self, prepared):
        self._maybe("observation_key", prepared.inputs)
        return prepared.inputs["target"] + ":" + prepared.inputs["n"]

    def run(self, prepared, run, *, model):
        self._maybe("run", prepared.inputs)
        if METHOD == "return" and prepared.inputs["n"] == "bad":
            return {returned}
        return Outcome("passed", "n is " + prepared.inputs["n"])

    def rerun(self, inputs, run):
        self._maybe("rerun", inputs)
        return self.run(Prepared(inputs["target"], inputs), run, model=None)


@hookimpl
def cgx_register_check_types(register):
    register(Faulty())
"""


@pytest.fixture
def faulty(fake_distribution: Any, cgx_run: Callable[..., StartedRun]) -> Iterator[Callable[..., StartedRun]]:
    """A factory: install cgx-faulty with a fault, and start a run with every chunk typed."""
    scopes: list[Any] = []

    def start(method: str, act: str = "", returned: str = "None") -> StartedRun:
        fake_distribution("cgx-faulty", FAULTY.format(method=method, act=act, returned=returned))
        registry = build_registry(build_plugin_manager())
        assert registry.invalid == [], registry.invalid
        scope = check_types_scope(registry)
        scope.__enter__()
        scopes.append((scope, registry))
        run = cgx_run(rubric_extra=CHECKS)
        assert run.call("classify", records=RECORDS)["refused"] == []
        return run

    yield start
    for scope, registry in scopes:
        scope.__exit__(None, None, None)
        registry.worker.close()


def propose(run: StartedRun) -> dict[str, Any]:
    """The bad proposal and a good one, in one call."""
    result = run.call(
        "run_checks",
        proposals=[{"type": "faulty", "target": "s-8", "n": "bad"}, {"type": "faulty", "target": "s-3", "n": "good"}],
    )
    assert "error" not in result, result
    good = [check for check in result["checks"] if check["proposal"] == 1]
    assert [(check["target"], check["result"]) for check in good] == [("s-3", "passed")]  # the other one ran
    return result


def assert_usable(run: StartedRun) -> None:
    """The run is finished and replays byte for byte; verify re-runs the checks, the plugin's fault again
    being an error naming it (never a traceback or a difference)."""
    assert "error" not in run.call("finish_run")
    assert replay(run.path, source=run.paper, sources=None).identical
    verdict = verify_run(run.path)
    assert verdict.differences == (), verdict
    assert verdict.error is None or LABEL in verdict.error["message"], verdict


def error_check(run: StartedRun, result: dict[str, Any]) -> tuple[dict[str, Any], str]:
    [check] = [check for check in result["checks"] if check["proposal"] == 0]
    assert check["result"] == "error", check
    assert LABEL in check["detail"]
    log = (run.path / "checks" / check["id"] / "log.txt").read_text(encoding="utf-8")
    return check, log


@pytest.mark.parametrize(
    ("act", "said"),
    [
        ("raise", "RuntimeError: boom in the plugin"),
        ("exit", "SystemExit: 3"),
        ("interrupt", "KeyboardInterrupt"),
        ("os-exit", "ended its process in run (exit status 4)"),
    ],
)
def test_a_plugin_that_raises_or_exits_in_run_gives_an_error_check_naming_it(
    faulty: Callable[..., StartedRun], act: str, said: str
) -> None:
    run = faulty("run", act)
    result = propose(run)
    check, log = error_check(run, result)
    assert check["detail"].startswith("plugin-failed: ")
    assert said in check["detail"] and said in log  # the author reads what went wrong in the check's log
    assert "0x7f00deadbeef" not in log + check["detail"]  # no address: the log is the same bytes on replay
    assert str(run.path.parent) not in log  # nor a local path
    assert_usable(run)


@pytest.mark.parametrize(
    ("returned", "said"),
    [
        ('Outcome("maybe", "perhaps")', "Outcome.result must be one of"),
        ('Outcome("passed", "x", output={"v": float("nan")})', "Outcome.output.v is nan"),
        ('Outcome("passed", "x", output={"v": float("inf")})', "Outcome.output.v is inf"),
        ('Outcome("passed", "x", output={"v": {1, 2}})', "not a value a check type may return"),
        ('Outcome("passed", "x", output={"v": 10**5000})', "integer of more than"),
        ('Outcome("passed", "x", log="y" * (5 * 1024 * 1024))', "Outcome.log is more than"),
        ('Outcome("passed", "two\\nlines")', "Outcome.detail spans lines"),
        ('Outcome("passed", "d" * 10_000)', "Outcome.detail is 10000 characters"),
        ('Outcome("error", "x", code="Not A Code")', "Outcome.code must be a kebab-case code"),
        ('Outcome("passed", "x", read={"at": float("nan")})', "Outcome.read.at is nan"),
        ('Outcome("passed", "x", sources={"sha256:0": b"abc"})', "which is not their digest"),
        ('Outcome("passed", "x", notices=[{"no": "type"}])', "must be an object with a string 'type'"),
        ('"passed"', "run must return an Outcome, got 'passed'"),
    ],
)
def test_a_plugin_returning_a_bad_value_gives_an_error_check_and_nothing_bad_is_written(
    faulty: Callable[..., StartedRun], returned: str, said: str
) -> None:
    run = faulty("return", returned=returned)
    result = propose(run)
    check, log = error_check(run, result)
    assert said in check["detail"] or said in log, (check, log[:500])
    output = json.loads((run.path / "checks" / check["id"] / "output.json").read_bytes())
    assert output["result"] == "error" and output["code"] == "plugin-failed"
    assert_usable(run)  # never `graph-incomplete` for ever


@pytest.mark.parametrize("method", ["prepare", "slot_of", "observation_key"])
def test_a_plugin_failing_before_its_check_runs_refuses_that_proposal_alone(
    faulty: Callable[..., StartedRun], method: str
) -> None:
    run = faulty(method, "raise")
    result = propose(run)
    [refusal] = result["refused"]
    assert refusal["proposal"] == 0 and refusal["code"] == "plugin-failed"
    assert LABEL in refusal["message"] and method in refusal["message"]
    assert "boom in the plugin" in refusal["message"] and refusal["fix"]
    assert_usable(run)


def test_a_check_attached_to_another_node_than_proposed_is_refused(faulty: Callable[..., StartedRun]) -> None:
    run = faulty("target")
    result = propose(run)
    [refusal] = result["refused"]
    assert refusal["code"] == "plugin-failed" and LABEL in refusal["message"]
    assert "attached the check to 's-3', not the proposed target 's-8'" in refusal["message"]
    assert [check["target"] for check in result["checks"]] == ["s-3"]


def test_a_plugin_that_loops_runs_out_of_its_cpu_budget(
    faulty: Callable[..., StartedRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "PLUGIN_CPU_SECONDS", 1)
    run = faulty("run", "loop")
    result = propose(run)
    check, _ = error_check(run, result)
    assert check["detail"].startswith("plugin-over-budget: ")
    assert "1 s of CPU time" in check["detail"]
    state = json.loads((run.path / "state.json").read_bytes())
    [node] = [item for item in state["graph"]["nodes"] if item["id"] == check["id"]]
    assert node["attributes"]["check"]["tool"]["budget"]["cpu_seconds"] == 1  # the budget is recorded


def test_a_plugin_that_sleeps_is_stopped_and_its_proposal_refused(
    faulty: Callable[..., StartedRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sleeping uses no CPU, so the wall-clock backstop stops it; the wall clock decides no check's result,
    so the proposal is refused (nothing recorded) and the run's lock is released."""
    monkeypatch.setenv(limits.PLUGIN_STALL_ENV, "2")
    run = faulty("run", "sleep")
    result = propose(run)
    [refusal] = result["refused"]
    assert refusal["code"] == "check-stalled" and LABEL in refusal["message"]
    assert "error" not in run.call("get_state")  # the lock was released


def test_the_stall_budget_is_set_by_its_environment_variable_and_named_in_the_refusal(
    faulty: Callable[..., StartedRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(limits.PLUGIN_STALL_ENV, "1.5")
    run = faulty("run", "sleep")
    [refusal] = propose(run)["refused"]
    assert (
        refusal["code"] == "check-stalled"
        and "stopped after 1.5 s (CGX_PLUGIN_STALL_SECONDS sets it)" in (refusal["message"])
    )
    assert limits.plugin_stall_seconds(60) == 1.5
    monkeypatch.setenv(limits.PLUGIN_STALL_ENV, "soon")
    assert limits.plugin_stall_seconds(60) == 1920


def test_verify_reports_a_plugin_whose_rerun_raises_and_verifies_the_other_checks(
    faulty: Callable[..., StartedRun],
) -> None:
    run = faulty("rerun", "raise")
    propose(run)
    assert "error" not in run.call("finish_run")
    verdict = verify_run(run.path)
    assert verdict.error is not None and verdict.error["code"] == "plugin-failed"
    assert LABEL in verdict.error["message"] and "rerun" in verdict.error["message"]
    assert verdict.rerun == 1  # the good check was re-run all the same


# -- registration ---------------------------------------------------------------------------------------------

BAD_REGISTRATION = """
from cgx_core.plugin_api import Outcome, Prepared, hookimpl


class Bad:
    name = {name}
    tool = {tool}
    description = "A bad registration."
    proposal_schema = {schema}
    fallback_for = {fallback}
    codes = {codes}
    another_source_codes = {another}

    def prepare(self, proposal, run):
        return Prepared(proposal["target"], {{}})

    def run(self, prepared, run, *, model):
        return Outcome("passed", "fine")


{marker}
def cgx_register_check_types(register):
    register(Bad())
"""


def registration(**changes: str) -> str:
    values = {
        "name": '"bad"',
        "tool": '"run_checks"',
        "schema": '{"properties": {}}',
        "fallback": "None",
        "codes": '{"bad-source": "The source is not the work cited."}',
        "another": "frozenset()",
        "marker": "@hookimpl",
    }
    return BAD_REGISTRATION.format(**{**values, **changes})


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"tool": '"run_check"'}, "its tool must be one of ['run_checks', 'judge_citation', 'review']"),
        ({"name": '""'}, "its name must be a non-empty string"),
        ({"name": "42"}, "its name must be a non-empty string, got 42"),
        ({"schema": '{"properties": {"n": {"type": "strnig"}}}'}, "properties.n.type must be one JSON type name"),
        ({"schema": '{"properties": {}, "required": ["n"]}'}, "requires 'n', which it does not declare"),
        ({"schema": '"not a schema"'}, "its proposal_schema must be a JSON object"),
        ({"fallback": '"recompute-numbers"'}, "claims to be the fallback for 'recompute-numbers'"),
        ({"marker": ""}, "it implements no hook: mark its cgx_register_check_types with @hookimpl"),
        # "try another source" must be one of its own codes: the core knows no check type's codes.
        ({"another": '{"source-untied"}'}, "its another_source_codes names 'source-untied', which is not one of"),
        ({"another": '"bad-source"'}, "its another_source_codes must be a set of its codes"),
    ],
)
def test_a_bad_registration_leaves_the_plugin_out_naming_it(
    fake_distribution: Any, changes: dict[str, str], said: str
) -> None:
    site = fake_distribution("cgx-faulty", registration(**changes))
    registry = build_registry(build_plugin_manager())
    [invalid] = registry.invalid
    assert invalid.distribution == "cgx-faulty" and LABEL in invalid.message
    assert said in invalid.message, invalid.message
    assert "bad" not in registry.names()
    assert {"recompute-numbers", "percent-of"} <= set(registry.names())  # the others keep working
    # `plugins` lists the others, and the bad one under `invalid`, with exit status 2: never a traceback.
    environment = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([CLI, "plugins"], capture_output=True, text=True, check=False, env=environment)
    assert done.returncode == 2, done.stderr
    listing = json.loads(done.stdout)
    assert [item["distribution"] for item in listing["invalid"]] == ["cgx-faulty"]
    assert done.stderr.startswith("error [plugin-invalid]: ") and "Traceback" not in done.stderr


def test_a_plugin_that_exits_while_registering_is_left_out(fake_distribution: Any) -> None:
    fake_distribution(
        "cgx-faulty",
        textwrap.dedent(
            """
            import sys
            from cgx_core.plugin_api import hookimpl

            @hookimpl
            def cgx_register_check_types(register):
                sys.exit(1)
            """
        ),
    )
    registry = build_registry(build_plugin_manager())
    [invalid] = registry.invalid
    assert "raised SystemExit" in invalid.message and LABEL in invalid.message


def test_a_proposal_of_a_type_an_invalid_plugin_would_provide_is_refused_naming_it(
    fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    fake_distribution("cgx-faulty", registration(tool='"run_check"'))
    with check_types_scope(build_registry(build_plugin_manager())):
        run = cgx_run(rubric_extra=CHECKS)
        result = run.call("run_checks", proposals=[{"type": "faulty", "target": "s-8"}])
    [refusal] = result["refused"]
    assert refusal["code"] == "check-type-unknown" and LABEL in refusal["message"]


def test_verify_exits_2_for_an_invalid_plugin_and_verifies_the_runs(
    fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    run = cgx_run()
    assert run.call("classify", records=RECORDS)["refused"] == []
    assert "error" not in run.call("finish_run")
    site = fake_distribution("cgx-faulty", registration(name="42"))
    environment = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([CLI, "verify", str(run.path)], capture_output=True, text=True, check=False, env=environment)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "verified 1 of 1 runs" in done.stdout
    assert "error [plugin-invalid]: " in done.stderr and "cgx-faulty" in done.stderr
    assert "Traceback" not in done.stderr


def test_verify_stops_a_stalled_re_run_at_its_check_deadline_and_logs_progress_without_a_terminal(
    faulty: Callable[..., StartedRun], tmp_path: Path
) -> None:
    run = faulty("rerun", "sleep")
    propose(run)
    assert "error" not in run.call("finish_run")
    environment = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}  # where `faulty` installed the plugin
    done = subprocess.run(
        [CLI, "verify", "--check-deadline", "1.5", str(run.path)],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "stopped after 1.5 s" in done.stdout + done.stderr and LABEL in done.stdout + done.stderr
    assert "verify: 1/1 runs\n" in done.stderr  # stderr is no terminal here: a plain line, not a bar
    bad = subprocess.run([CLI, "verify", "--check-deadline", "0", str(run.path)], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error [usage]: --check-deadline must be a positive")
