"""The review tool and the human-review check type: a person's verdict is a logged check, observed with the
rubric's credences, so it moves credence through inference; it replays byte for byte; and what awaits a
review is listed by get_state."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from credencegraph.core import graph_from_dict
from credencegraph.inference import conditional, marginal
from credencegraph.semantics import compile_graph
from report_runs import checked_example, ok, start_example_with

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from support import EXAMPLE_RUBRIC, call, person_review, tree

PERSON = {"reviewer": "Ada Lovelace"}


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reviews")
    return checked_example(folder / "run", EXAMPLE_RUBRIC)


@pytest.fixture
def run(checked: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(checked, target)
    return target


def graph_json(run: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run / "state.json").read_bytes())["graph"]
    return data


def node(run: Path, node_id: str) -> dict[str, Any]:
    return next(item for item in graph_json(run)["nodes"] if item["id"] == node_id)


def review(run: Path, **arguments: Any) -> dict[str, Any]:
    """A person's review (as the `review` command records it at a terminal)."""
    return person_review(run, **{**PERSON, "reason": "checked by hand", **arguments})


def agent_review(run: Path, **arguments: Any) -> dict[str, Any]:
    """A review through the tool: an agent's call, whatever it says."""
    return call(run, "review", **{**PERSON, "reason": "checked by hand", **arguments})


def credence_after(run: Path, node_id: str, *, leaving_out: str | None = None) -> float:
    """credencegraph's own inference: the node's credence given every observation (but one, if asked)."""
    graph = graph_from_dict(graph_json(run))
    observed = {item.id: item.attributes["observed"] for item in graph if "observed" in item.attributes}
    observed.pop(leaving_out or "", None)
    point: float = conditional(compile_graph(graph), node_id, observed, draws=0).point
    return point


def test_a_review_becomes_a_check_observed_with_the_rubrics_credences_and_moves_the_credence(run: Path) -> None:
    before = credence_after(run, "s-13")
    result = review(run, node="s-13", verdict="fails")
    [check] = result["checks"]
    assert (check["id"], check["type"], check["target"], check["result"]) == ("c-004", "human-review", "s-13", "failed")
    assert check["detail"] == "Ada Lovelace (entered by the person) judged that s-13 fails"
    evidence = node(run, "c-004")
    assert evidence["attributes"]["observed"] is False
    assert evidence["base"] is None  # a review sets no credence anywhere: it is an observation
    record = evidence["attributes"]["check"]
    assert record["inputs"] == {
        "target": "s-13",
        "verdict": "fails",
        "reviewer": "Ada Lovelace",
        "entered_by": "person",
        "reason": "checked by hand",
    }
    assert record["model"] is None
    relation = next(item for item in graph_json(run)["relations"] if item["id"] == "s-13-observes-c-004")
    assert (relation["sensitivity"], relation["false_pass"]) == (
        {"alpha": 9.0, "beta": 1.0},
        {"alpha": 1.0, "beta": 9.0},
    )
    assert node(run, "s-13")["base"] == {"alpha": 8.0, "beta": 2.0}  # the reviewed node's own base is untouched
    after = credence_after(run, "s-13")
    assert after < before - 0.3  # the person's "fails" outweighs the passing recomputation
    assert credence_after(run, "s-13", leaving_out="c-004") == pytest.approx(before)


def test_a_review_replays_byte_identically_and_verify_does_not_rerun_a_judgement(run: Path) -> None:
    ok(review(run, node="s-13", verdict="holds"))
    ok(agent_review(run, check="c-001", verdict="holds", reviewer="Grace Hopper", model="model-x"))
    ok(call(run, "finish_run"))
    ok(review(run, node="a-1", verdict="undetermined"))  # a review after finishing reopens the run
    ok(call(run, "finish_run"))
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body
    verdict = verify_run(run)
    assert verdict.error is None and verdict.differences == ()
    assert (verdict.checks, verdict.rerun) == (6, 3)  # the three reviews rest on a person's judgement


def test_a_review_of_a_check_is_a_verdict_on_its_target_in_view_of_the_check(run: Path) -> None:
    recorded = node(run, "c-001")["attributes"]["check"]
    result = agent_review(run, check="c-001", verdict="holds", reviewer="Grace Hopper", model="model-x")
    [check] = result["checks"]
    assert (check["target"], check["result"]) == ("s-12", "passed")
    assert check["detail"] == (
        "Grace Hopper (entered by an agent acting for the person) judged that s-12 holds, overriding c-001 "
        "(recompute-numbers: failed)"
    )
    inputs = node(run, check["id"])["attributes"]["check"]["inputs"]
    assert inputs["check"] == {"id": "c-001", "type": "recompute-numbers", "result": "failed"}
    assert inputs["model"] == "model-x"  # the agent that entered the person's verdict is named
    assert node(run, "c-001")["attributes"]["check"] == recorded  # the reviewed check stays as it was
    output = json.loads((run / "checks" / check["id"] / "output.json").read_bytes())["output"]
    assert output == {"verdict": "holds", "agrees_with_check": False}
    confirming = review(run, check="c-003", verdict="fails")["checks"][0]
    assert confirming["detail"].endswith("confirming c-003 (rederive-maths: failed)")


def test_one_reviewer_gives_one_decisive_verdict_per_node_and_another_reviewer_another(run: Path) -> None:
    ok(review(run, node="s-12", verdict="fails"))
    again = review(run, check="c-001", verdict="holds", reviewer="  ada   LOVELACE ")
    [refusal] = again["refused"]
    assert refusal["code"] == "check-duplicate"
    assert "one decisive verdict per node" in refusal["fix"]
    assert again["checks"] == []
    ok(review(run, node="s-12", verdict="holds", reviewer="Grace Hopper"))


def test_an_undetermined_review_moves_nothing_and_may_be_followed_by_a_decision(run: Path) -> None:
    before = credence_after(run, "s-13")
    [check] = review(run, node="s-13", verdict="undetermined")["checks"]
    assert check["result"] == "error"
    assert check["detail"].startswith("review-undetermined: Ada Lovelace (entered by the person) judged that s-13")
    assert "observed" not in node(run, check["id"])["attributes"]
    assert credence_after(run, "s-13") == pytest.approx(before)
    ok(review(run, node="s-13", verdict="holds"))


@pytest.mark.parametrize(
    ("arguments", "code", "fragment"),
    [
        ({"check": "c-099"}, "unknown-node", "'c-099' is not a check of this run"),
        ({"check": "s-12"}, "unknown-node", "'s-12' is not a check of this run"),
        ({"node": "s-05"}, "check-not-assessed", "which the rubric does not assess"),
        ({"node": "s-12", "reviewer": "   "}, "proposal-invalid", "reviewer must not be blank"),
        ({"node": "s-12", "reason": "   "}, "proposal-invalid", "reason must not be blank"),
        ({"node": "nope"}, "unknown-node", "no node 'nope'"),
    ],
)
def test_a_review_that_cannot_be_recorded_is_refused_with_a_fix(
    run: Path, arguments: dict[str, Any], code: str, fragment: str
) -> None:
    result = review(run, verdict="fails", **arguments)
    [refusal] = result["refused"]
    assert (refusal["code"], result["checks"]) == (code, [])
    assert fragment in refusal["message"] and refusal["fix"]


def test_a_review_of_a_review_is_refused(run: Path) -> None:
    [check] = review(run, node="s-12", verdict="fails")["checks"]
    [refusal] = review(run, check=check["id"], verdict="holds", reviewer="Grace Hopper")["refused"]
    assert refusal["message"] == f"'{check['id']}' is itself a review"


@pytest.mark.parametrize(
    "arguments",
    [{"node": "s-12", "check": "c-001"}, {}],
)
def test_neither_or_both_of_node_and_check_is_an_error_and_the_run_is_as_it_was(
    run: Path, arguments: dict[str, Any]
) -> None:
    files = tree(run)
    result = review(run, verdict="fails", **arguments)
    assert result["error"]["code"] == "invalid-arguments"
    assert "exactly one of 'node'" in result["error"]["message"]
    assert tree(run) == files


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"verdict": "true"}, "$.verdict must be one of"),
        ({"entered_by": "person"}, "unknown argument(s) ['entered_by']"),
        ({"reviewer": ""}, "$.reviewer must not be shorter than 1"),
        ({"reason": "x" * 5001}, "$.reason must not be longer than 5000"),
        ({"verdict": "fails", "credence": 0.9}, "unknown argument(s) ['credence']"),
    ],
)
def test_bad_arguments_are_refused_whole(run: Path, arguments: dict[str, Any], fragment: str) -> None:
    files = tree(run)
    result = call(run, "review", **{"node": "s-12", "verdict": "fails", "reason": "r", **PERSON, **arguments})
    assert result["error"]["code"] == "invalid-arguments"
    assert fragment in result["error"]["message"]
    assert tree(run) == files


def test_a_rubric_without_a_review_type_refuses_a_review_saying_so(tmp_path: Path) -> None:
    run = tmp_path / "run"
    rubric = tmp_path / "no-review.toml"
    declared = re.compile(r"\[checks\.human-review\]\n(?:[^\n]+\n)*")
    rubric.write_text(declared.sub("", EXAMPLE_RUBRIC.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    assert "[checks.human-review]" not in rubric.read_text(encoding="utf-8")
    start_example_with(run, rubric)
    ok(call(run, "classify", records=[{"node": "s-12", "type": "result", "form": {"value": 3000}}]))
    [refusal] = review(run, node="s-12", verdict="fails")["refused"]
    assert refusal["code"] == "check-type-undeclared"
    assert "[checks.human-review]" in refusal["fix"]


def test_a_review_is_not_a_check_the_agent_could_have_selected(run: Path) -> None:
    ok(call(run, "finish_run"))
    graph = graph_json(run)
    claim = next(item for item in graph["nodes"] if item["id"] == "s-01")
    assert claim["attributes"]["assessment"] == {"verdict": "not_assessed", "reason": "no v1 check applies"}
    assumption = next(item for item in graph["nodes"] if item["id"] == "a-1")
    assert assumption["attributes"]["assessment"]["reason"] == "no v1 check applies"


def awaiting(run: Path) -> dict[str, Any]:
    from cgx_core.tooling.registry import call_tool

    state, is_error = call_tool("get_state", {"run": str(run), "limit": 1})
    assert not is_error, state
    result: dict[str, Any] = state["awaiting_review"]
    return result


def test_get_state_lists_what_awaits_review_until_a_review_covers_it(run: Path) -> None:
    items = awaiting(run)["items"]
    assert [(item["node"], item.get("check"), item["why"]) for item in items] == [
        ("s-12", "c-001", ["failed"]),
        ("s-09", "c-003", ["failed"]),
        ("a-1", None, ["unanchored"]),
    ]
    assert items[2]["conclusions"] == ["s-01", "s-15"]
    ok(review(run, check="c-001", verdict="fails"))
    ok(review(run, node="a-1", verdict="holds"))
    assert [item["node"] for item in awaiting(run)["items"]] == ["s-09"]
    undecided = review(run, node="s-09", verdict="undetermined", reviewer="Grace Hopper")
    assert undecided["checks"][0]["result"] == "error"
    assert awaiting(run)["total"] == 1  # an undetermined review covers nothing


def test_a_review_made_before_a_check_failed_does_not_hide_that_check(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example_with(run, EXAMPLE_RUBRIC)
    ok(call(run, "classify", records=[{"node": "s-12", "type": "result", "form": {"value": 3000}}]))
    ok(review(run, node="s-12", verdict="holds"))
    ok(
        call(
            run,
            "run_checks",
            proposals=[{"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"}],
        )
    )
    items = awaiting(run)["items"]
    assert [(item["node"], item.get("check")) for item in items] == [("s-12", "c-002")]


def test_an_uncalibrated_citation_check_awaits_review(run: Path) -> None:
    result = call(
        run,
        "judge_citation",
        node="s-02",
        entry="r-1",
        source="smith2019.txt",
        passage="Damped oscillators describe many laboratory systems",
        supports=True,
        model="some-other-model",
    )
    [check] = ok(result)["checks"]
    item = next(item for item in awaiting(run)["items"] if item.get("check") == check["id"])
    assert item == {"node": "s-02", "check": check["id"], "type": "citation-support", "why": ["uncalibrated"]}


def test_the_review_type_is_a_plugin_registered_like_the_others() -> None:
    from importlib import metadata

    from cgx_core.checks.installed import installed_check_types

    points = {point.name: point.value for point in metadata.entry_points(group="credencegraph_extract.checks")}
    assert points["human-review"] == "cgx_checks.human_review"
    installed = installed_check_types().get("human-review")
    assert installed is not None and installed.check_type.tool == "review"
    assert installed.distribution == "credencegraph-extract"


def test_before_and_after_in_the_rubric_are_credencegraphs_own_marginals(run: Path) -> None:
    """The prior the report calls 'before' is credencegraph's marginal: a review changes only 'after'."""
    graph = graph_from_dict(graph_json(run))
    prior = marginal(compile_graph(graph), "s-13", draws=0).point
    ok(review(run, node="s-13", verdict="fails"))
    graph = graph_from_dict(graph_json(run))
    assert marginal(compile_graph(graph), "s-13", draws=0).point == pytest.approx(prior)


def test_reviews_and_the_awaiting_list_follow_their_published_result_schemas(run: Path) -> None:
    import jsonschema

    from cgx_core.tooling.registry import TOOLS, call_tool

    accepted = review(run, node="s-12", verdict="fails")
    refused = review(run, node="s-12", verdict="holds")
    for payload in (accepted, refused):
        jsonschema.validate(payload, TOOLS["review"].result)
    state, is_error = call_tool("get_state", {"run": str(run), "limit": 1})
    assert not is_error
    jsonschema.validate(state, TOOLS["get_state"].result)
    assert state["awaiting_review"]["total"] == 2


def test_only_a_review_can_be_made_as_a_persons_call(run: Path) -> None:
    from cgx_core.tooling.registry import call_tool

    files = tree(run)
    arguments = {"run": str(run), "model": "person", "records": [{"node": "s-09", "type": "assumption"}]}
    payload, is_error = call_tool("classify", arguments, by_person=True)
    assert is_error and payload["error"] == {
        "code": "invalid-arguments",
        "message": "classify is an agent's call; only a review is a person's",
    }
    assert tree(run) == files
