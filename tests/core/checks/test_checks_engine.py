"""run_checks and judge_citation through the tool layer: evidence nodes, the rules every check type
shares, and the citation check on the run's cited copies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.checks.engine import files_digest
from support import EXAMPLE_RECORDS, call, start_example, tree


@pytest.fixture
def run(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    start_example(root)
    assert call(root, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return root


def state(run: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run / "state.json").read_bytes())
    return data


def node(run: Path, node_id: str) -> dict[str, Any]:
    return next(item for item in state(run)["graph"]["nodes"] if item["id"] == node_id)


def recompute(target: str, expression: str, result: str, **extra: Any) -> dict[str, Any]:
    return {"type": "recompute-numbers", "target": target, "expression": expression, "result": result, **extra}


def test_a_wrong_number_the_paper_reports_is_caught_as_a_failed_check(run: Path) -> None:
    result = call(run, "run_checks", proposals=[recompute("s-12", "12 * 300", "3000")])
    assert result["refused"] == []
    [check] = result["checks"]
    assert check == {
        "proposal": 0,
        "id": "c-001",
        "type": "recompute-numbers",
        "target": "s-12",
        "result": "failed",
        "detail": "12 * 300 = 3600, reported 3000 +- 0.5: failed",
    }
    evidence = node(run, "c-001")
    assert evidence["kind"] == "recompute-numbers"
    assert evidence["statement"] == "recompute-numbers on s-12: failed"
    assert evidence["base"] is None
    attributes = evidence["attributes"]
    assert attributes["origin"] == "evidence"
    assert attributes["observed"] is False
    assert attributes["extraction"]["tool"] == "run_checks"
    record = attributes["check"]
    assert set(record) == {
        "type",
        "target",
        "artifact",
        "inputs",
        "result",
        "detail",
        "tool",
        "model",
        "log",
        "observation",
    }
    assert record["model"] is None
    assert record["inputs"] == {"target": "s-12", "cites": ["s-12"], "expression": "12 * 300", "result": "3000"}
    assert record["tool"]["plugin"]["distribution"] == "credencegraph-extract"
    files = tree(run / "checks" / "c-001")
    assert sorted(files) == ["inputs.json", "log.txt", "output.json"]
    assert record["log"] == {"path": "checks/c-001/", "digest": files_digest(files)}
    observes = [item for item in state(run)["graph"]["relations"] if item["target"] == "c-001"]
    assert observes == [
        {
            "id": "s-12-observes-c-001",
            "type": "observes",
            "source": "s-12",
            "target": "c-001",
            "strength": None,
            "attributes": {},
            "sensitivity": {"alpha": 19.0, "beta": 1.0},
            "false_pass": {"alpha": 1.0, "beta": 9.0},
        }
    ]


def test_a_right_number_passes_and_checks_are_numbered_in_the_order_run(run: Path) -> None:
    result = call(
        run,
        "run_checks",
        proposals=[recompute("s-13", "1200 * 75", "90000"), recompute("s-12", "12 * 300", "3000")],
    )
    assert [(item["id"], item["result"]) for item in result["checks"]] == [("c-001", "passed"), ("c-002", "failed")]
    assert node(run, "c-001")["attributes"]["observed"] is True


REFUSALS = [
    ("unknown type", {"type": "no-such-check", "target": "s-12"}, "check-type-unknown"),
    ("not an object", "recompute", "proposal-invalid"),
    ("no target", {"type": "recompute-numbers"}, "proposal-invalid"),
    ("unknown node", recompute("s-99", "12 * 300", "3000"), "unknown-node"),
    ("not assessed", recompute("s-05", "12 * 300", "3000"), "check-not-assessed"),
    ("wrong target type", recompute("s-01", "12 * 300", "3000"), "check-target-type"),
    ("extra field", recompute("s-12", "12 * 300", "3000", credence=0.9), "proposal-invalid"),
    ("missing field", {"type": "recompute-numbers", "target": "s-12", "expression": "1"}, "proposal-invalid"),
    ("operand not in text", recompute("s-12", "12 * 301", "3000"), "operand-not-in-text"),
    ("result not in text", recompute("s-12", "12 * 300", "3600"), "operand-not-in-text"),
    ("cites a non-chunk", recompute("s-12", "12 * 300", "3000", cites=["zz"]), "unknown-node"),
    ("division by zero", recompute("s-12", "12 / (300 - 300)", "3000"), "division-by-zero"),
    ("exponent too large", recompute("s-12", "12 ** 300", "3000"), "exponent-too-large"),
    ("wrong tool", {"type": "citation-support", "target": "s-02"}, "check-wrong-tool"),
]


@pytest.mark.parametrize(("case", "proposal", "code"), REFUSALS, ids=[case for case, _, _ in REFUSALS])
def test_a_proposal_that_cannot_run_is_refused_with_a_fix_and_changes_no_node(
    run: Path, case: str, proposal: Any, code: str
) -> None:
    before = state(run)["graph"]
    result = call(run, "run_checks", proposals=[proposal])
    assert result["checks"] == []
    [refusal] = result["refused"]
    assert refusal["code"] == code, refusal
    assert refusal["fix"]
    assert state(run)["graph"] == before
    assert state(run)["rejections"][-1]["code"] == code


def test_a_second_check_of_a_type_on_a_node_is_refused_checks_are_append_only(run: Path) -> None:
    call(run, "run_checks", proposals=[recompute("s-12", "12 * 300", "3000")])
    result = call(run, "run_checks", proposals=[recompute("s-12", "300 * 12", "3000")])
    assert result["refused"][0]["code"] == "check-duplicate"
    assert "c-001" in result["refused"][0]["message"]


def test_each_number_a_sentence_reports_takes_its_own_recompute_check(run: Path) -> None:
    """The slot of a recompute-numbers check is its reported result: '12 runs of 300 s, 3000 s in total' may
    have the total and the count checked, each once."""
    first = call(run, "run_checks", proposals=[recompute("s-12", "12 * 300", "3000")])
    second = call(run, "run_checks", proposals=[recompute("s-12", "3000 / 300", "12")])
    assert [check["result"] for check in first["checks"] + second["checks"]] == ["failed", "failed"]  # 3600, 10
    again = call(run, "run_checks", proposals=[recompute("s-12", "(3000) / (300)", "12")])
    assert [item["code"] for item in again["refused"]] == ["check-duplicate"]


def test_the_same_observation_on_another_target_is_refused_however_it_is_written(run: Path) -> None:
    call(run, "run_checks", proposals=[recompute("s-13", "1200 * 75", "90000", cites=["s-13"])])
    again = recompute("s-14", "75 * 1200", "90000", cites=["s-13", "s-14"])
    result = call(run, "run_checks", proposals=[again])
    assert result["refused"][0]["code"] == "check-same-observation"
    assert "c-001" in result["refused"][0]["message"]


def test_a_checked_node_cannot_be_classified_again(run: Path) -> None:
    call(run, "run_checks", proposals=[recompute("s-12", "12 * 300", "3000")])
    result = call(run, "classify", records=[{"node": "s-12", "type": "claim", "form": {"shape": "bound"}}])
    assert result["refused"][0]["code"] == "targeted-by-check"
    assert "c-001" in result["refused"][0]["fix"] + result["refused"][0]["message"]


def test_an_undeclared_check_type_is_refused(cgx_run: Any) -> None:
    started = cgx_run()  # the testing rubric declares no [checks]
    call(started.path, "classify", records=[{"node": "s-1", "type": "result", "rests_on": ["e-1"]}])
    result = call(started.path, "run_checks", proposals=[recompute("s-1", "1000", "1000")])
    assert result["refused"][0]["code"] == "check-type-undeclared"


# -- citation checks on the run's cited copies ---------------------------------------------------------

PASSAGE = "Damped oscillators describe many laboratory systems, from torsion pendula"


def judge(run: Path, **fields: Any) -> dict[str, Any]:
    arguments = {"node": "s-02", "entry": "r-1", "source": "smith2019.txt", "passage": PASSAGE, "supports": True}
    return call(run, "judge_citation", model="example-model-id", **{**arguments, **fields})


def test_a_citation_check_passes_as_judged_on_the_tied_cited_copy(run: Path) -> None:
    [check] = judge(run)["checks"]
    assert check["result"] == "passed"
    record = node(run, check["id"])["attributes"]["check"]
    assert record["model"] == "example-model-id"
    assert record["inputs"]["key"] == "smith2019"
    output = json.loads((run / "checks" / check["id"] / "output.json").read_bytes())
    reading = output["read"]["reading"]
    assert (reading["start"], reading["end"]) == (71, 144)  # where the passage is, across the line break


def test_a_citation_judged_not_to_support_fails_and_a_tex_copy_is_read(run: Path) -> None:
    passage = "the classical way to measure the damping of an oscillator"
    result = call(
        run,
        "judge_citation",
        node="s-03",
        entry="r-2",
        source="jones2021.tex",
        passage=passage,
        supports=False,
    )
    assert result["checks"][0]["result"] == "failed"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"source": "jones2021.tex"}, "source-untied"),  # the copy of another entry
        ({"source": "nothere.txt"}, "source-untied"),
        ({"passage": "This sentence is nowhere in the cited work at all."}, "passage-not-found"),
        ({"source": "https://127.0.0.1/paper.pdf"}, "source-untied"),  # never fetched: it cannot be tied
        ({"source": "file:///etc/passwd"}, "fetch-refused"),
    ],
)
def test_a_citation_on_an_untied_or_unfound_source_is_an_error_that_may_be_retried(
    run: Path, fields: dict[str, Any], code: str
) -> None:
    [check] = judge(run, **fields)["checks"]
    assert check["result"] == "error"
    assert check["detail"].startswith(f"{code}: ") or code in check["detail"]
    evidence = node(run, check["id"])["attributes"]
    assert "observed" not in evidence  # recorded, but moves no credence
    [retry] = judge(run)["checks"]  # one that erred may be followed by another on the same node and entry
    assert retry["result"] == "passed"
    assert judge(run)["refused"][0]["code"] == "check-duplicate"  # one that passed stays


def test_a_cited_copy_changed_after_start_run_gives_an_error(run: Path) -> None:
    (run / "cited" / "smith2019.txt").write_text(
        "Damped oscillators describe many laboratory systems, from torsion pendula."
    )
    [check] = judge(run)["checks"]
    assert check["result"] == "error"
    assert check["detail"].startswith("source-changed: ")


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"entry": "s-01"}, "not-a-reference"),
        ({"entry": "r-2"}, "proposal-invalid"),  # s-02 cites r-1 only
        ({"passage": "too short"}, "proposal-invalid"),
    ],
)
def test_a_citation_proposal_that_cannot_run_is_refused(run: Path, fields: dict[str, Any], code: str) -> None:
    result = judge(run, **fields)
    assert result["checks"] == []
    assert result["refused"][0]["code"] == code


def test_get_state_shows_forms_checks_and_assessments_as_plain_json(run: Path) -> None:
    call(run, "run_checks", proposals=[recompute("s-12", "12 * 300", "3000")])
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool("get_state", {"run": str(run), "nodes": ["s-12", "c-001", "s-01"]})
    assert not is_error, payload
    views = {view["id"]: view for view in payload["nodes"]}
    assert views["s-12"]["form"] == {"value": 3000}
    assert views["s-12"]["checks"] == ["c-001"]
    assert views["c-001"]["check"]["result"] == "failed"
    assert views["s-01"]["stated"] is True
    assert payload["progress"]["checks"] == {"recompute-numbers": {"failed": 1}}


# -- maths steps ----------------------------------------------------------------------------------------

SYMBOLS = {"gamma": ["positive"], "T": ["positive"]}


def maths(target: str, lhs: str, rhs: str, symbols: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"type": "rederive-maths", "target": target, "symbols": symbols or SYMBOLS, "lhs": lhs, "rhs": rhs}


def test_maths_steps_pass_fail_and_fall_back_to_the_numeric_check(run: Path) -> None:
    result = call(
        run,
        "run_checks",
        proposals=[
            maths("s-08", "(1 + gamma*T)^2", "1 + 2*gamma*T + gamma^2*T^2"),
            maths("s-09", "1/(1 - gamma*T)", "1 + gamma*T + gamma^2*T^2"),
            maths("s-10", "atan(omega*T) + atan(1/(omega*T))", "pi/2", {"omega": ["positive"], "T": ["positive"]}),
        ],
    )
    assert result["refused"] == []
    outcomes = [(check["id"], check["type"], check["target"], check["result"]) for check in result["checks"]]
    assert outcomes == [
        ("c-001", "rederive-maths", "s-08", "passed"),
        ("c-002", "rederive-maths", "s-09", "failed"),
        ("c-003", "rederive-maths", "s-10", "error"),
        ("c-004", "rederive-maths-numeric", "s-10", "passed"),
    ]
    assert result["checks"][3]["fallback_for"] == "rederive-maths"
    numeric = node(run, "c-004")["attributes"]["check"]
    output = json.loads((run / "checks" / "c-004" / "output.json").read_bytes())["output"]
    assert len(output["points"]) == 32
    assert isinstance(output["seed"], int)
    assert numeric["tool"]["libraries"]["sympy"]
    assert "observed" not in node(run, "c-003")["attributes"]
    assert node(run, "c-004")["attributes"]["observed"] is True


def test_the_same_maths_step_written_otherwise_on_another_target_is_one_observation(run: Path) -> None:
    call(run, "run_checks", proposals=[maths("s-08", "(1 + gamma*T)^2", "1 + 2*gamma*T + gamma^2*T^2")])
    again = maths("s-07", "T^2*gamma^2 + 2*T*gamma + 1", "(T*gamma + 1)**2")
    result = call(run, "run_checks", proposals=[again])
    assert result["refused"][0]["code"] == "check-same-observation"


@pytest.mark.parametrize(
    ("lhs", "rhs", "code"),
    [
        ("x^2000", "x", "degree-too-large"),
        ("gamma +", "1", "expression-invalid"),
        ("frobnicate(gamma)", "1", "unknown-function"),
        ("gamma*y", "1", "unknown-symbol"),
        ("gamma/0", "1", "division-by-zero"),
    ],
)
def test_a_maths_step_that_cannot_run_is_refused(run: Path, lhs: str, rhs: str, code: str) -> None:
    symbols = {"gamma": ["real"], "x": ["real"]}
    result = call(run, "run_checks", proposals=[maths("s-08", lhs, rhs, symbols)])
    assert result["refused"][0]["code"] == code, result


def test_the_numeric_fallback_is_never_proposed_directly(run: Path) -> None:
    proposal = {**maths("s-08", "gamma", "gamma"), "type": "rederive-maths-numeric"}
    result = call(run, "run_checks", proposals=[proposal])
    assert result["refused"][0]["code"] == "proposal-invalid"
    assert "rederive-maths" in result["refused"][0]["fix"]


def test_an_errored_maths_step_may_be_encoded_again_until_one_is_decided(run: Path) -> None:
    real = {"gamma": ["real"]}
    delta = maths("s-08", "DiracDelta(gamma)", "2*DiracDelta(gamma)", real)
    first = call(run, "run_checks", proposals=[delta])
    assert [(check["type"], check["result"]) for check in first["checks"]] == [
        ("rederive-maths", "error"),
        ("rederive-maths-numeric", "error"),  # a distribution: no numeric evidence
    ]
    assert "observed" not in node(run, "c-001")["attributes"]  # an error moves no credence
    same = call(run, "run_checks", proposals=[delta])
    assert [item["code"] for item in same["refused"]] == ["check-duplicate"]  # it would err again
    assert "another encoding" in same["refused"][0]["fix"]
    other = call(run, "run_checks", proposals=[maths("s-08", "(1 + gamma)^2", "1 + 2*gamma + gamma^2", real)])
    assert [(check["id"], check["result"]) for check in other["checks"]] == [("c-003", "passed")]
    decided = call(run, "run_checks", proposals=[maths("s-08", "(1 - gamma)^2", "1 - 2*gamma + gamma^2", real)])
    assert [item["code"] for item in decided["refused"]] == ["check-duplicate"]  # decided: append-only
