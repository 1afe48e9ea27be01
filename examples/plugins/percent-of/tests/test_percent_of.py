"""percent-of, tested as a plugin author tests a check type: through credencegraph-extract's own tools on
a real run of the tiny paper `cgx_core.testing` ships, whose sentence s-8 reads "The error is below 1% in
961 realisations, that is 96% of them." and whose s-2 writes the 1000 realisations."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import metadata
from typing import Any

import pytest
from cgx_core.plugin_api import CheckTypeRegistry
from cgx_core.testing import StartedRun

from cgx_percent_of import PercentOf
from cgx_percent_of.percent import Comparison, compare, decimal_text

CHECKS = """
[checks.percent-of]
description = "Recompute a stated percentage from the counts the paper gives."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

# Every chunk of the tiny paper typed, so the run can be finished (and then verified).
RECORDS: list[dict[str, Any]] = [
    {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-8"], "hedge": "We show"},
    {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
    {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    {"node": "s-4", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-5", "type": "derivation"},
    {"node": "s-6", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-8"], "hedge": "likely"},
    {"node": "s-7", "type": "literature_claim"},
    {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
]


def percent_of(target: str = "s-8", **fields: Any) -> dict[str, Any]:
    proposal = {"type": "percent-of", "target": target, "cites": ["s-8", "s-2"], "part": "961", "whole": "1000"}
    return {**proposal, "percent": "96%", **fields}


@pytest.fixture
def run(cgx_run: Callable[..., StartedRun]) -> StartedRun:
    started = cgx_run(rubric_extra=CHECKS)
    assert started.call("classify", records=RECORDS)["refused"] == []
    return started


def test_the_installed_plugin_registers_percent_of(cgx_check_types: CheckTypeRegistry) -> None:
    """Installed, the plugin is found through its entry point, as credencegraph-extract's tools find it."""
    installed = cgx_check_types.get("percent-of")
    assert installed is not None
    assert isinstance(installed.check_type.plugin, PercentOf)
    assert (installed.distribution, installed.version) == ("cgx-percent-of", metadata.version("cgx-percent-of"))


def test_a_percentage_within_its_rounding_passes_and_records_this_plugin(run: StartedRun) -> None:
    result = run.call("run_checks", proposals=[percent_of()])
    assert result["refused"] == []
    [check] = result["checks"]
    assert (check["type"], check["target"], check["result"]) == ("percent-of", "s-8", "passed")
    assert check["detail"] == "961 / 1000 = 96.1%, written 96% (+- 0.5%): passed"
    record = run.node(check["id"])["attributes"]["check"]
    assert record["inputs"] == {
        "target": "s-8",
        "cites": ["s-8", "s-2"],
        "part": "961",
        "whole": "1000",
        "percent": "96%",
    }
    assert record["tool"]["plugin"] == {"distribution": "cgx-percent-of", "version": metadata.version("cgx-percent-of")}
    output = json.loads((run.path / "checks" / check["id"] / "output.json").read_bytes())
    assert output["output"]["ratio"] == "961/1000"


def test_a_percentage_the_counts_do_not_give_fails(run: StartedRun) -> None:
    [check] = run.call("run_checks", proposals=[percent_of(percent="1%")])["checks"]
    assert check["result"] == "failed"
    assert check["detail"] == "961 / 1000 = 96.1%, written 1% (+- 0.5%): failed"
    assert run.node(check["id"])["attributes"]["observed"] is False


def test_each_percentage_of_a_target_is_its_own_check_and_a_repeat_is_refused(run: StartedRun) -> None:
    first = run.call("run_checks", proposals=[percent_of(), percent_of(percent="1%")])
    assert [item["result"] for item in first["checks"]] == ["passed", "failed"]
    again = run.call("run_checks", proposals=[percent_of(part="961", whole="1000", percent="96")])
    assert [item["code"] for item in again["refused"]] == ["check-duplicate"]


REFUSALS = [
    ("whole not in the cited chunks", percent_of(cites=["s-8"]), "percent-not-in-text", "1000"),
    ("percentage written without %", percent_of(percent="961"), "percent-not-in-text", "96%"),
    ("not a numeral", percent_of(part="many"), "percent-not-a-numeral", "many"),
    ("whole of zero", percent_of(whole="0"), "percent-whole-zero", "zero"),
    ("cites no chunk", percent_of(cites=["s-8", "s-99"]), "percent-cites-unknown", "s-99"),
    ("extra field", percent_of(rounding="up"), "proposal-invalid", "rounding"),
]


@pytest.mark.parametrize(("case", "proposal", "code", "named"), REFUSALS, ids=[case for case, *_ in REFUSALS])
def test_a_proposal_that_cannot_run_is_refused_with_a_fix(
    run: StartedRun, case: str, proposal: dict[str, Any], code: str, named: str
) -> None:
    result = run.call("run_checks", proposals=[proposal])
    assert result["checks"] == []
    [refusal] = result["refused"]
    assert refusal["code"] == code
    assert named in refusal["message"]
    assert refusal["fix"]


def test_a_check_node_is_not_a_chunk_to_cite(run: StartedRun) -> None:
    [check] = run.call("run_checks", proposals=[percent_of()])["checks"]
    result = run.call("run_checks", proposals=[percent_of(target="s-3", cites=[check["id"], "s-2"], percent="1%")])
    assert [item["code"] for item in result["refused"]] == ["percent-cites-unknown"]


def test_a_finished_run_replays_and_verifies_by_re_running_the_check(run: StartedRun) -> None:
    run.call("run_checks", proposals=[percent_of(), percent_of(percent="1%")])
    finished = run.call("finish_run")
    assert "error" not in finished, finished
    verified = run.verify()  # replayed byte for byte, and every check re-run to the same outcome
    assert (verified.checks, verified.rerun) == (2, 2)


# -- the arithmetic, without a run ------------------------------------------------------------------


def compared(part: str, whole: str, percent: str) -> Comparison:
    comparison = compare(part, whole, percent)
    assert isinstance(comparison, Comparison), comparison
    return comparison


@pytest.mark.parametrize(
    ("part", "whole", "percent", "passed"),
    [
        ("961", "1000", "96%", True),
        ("955", "1000", "95%", True),  # on the edge of the rounding: a writer may round a half either way
        ("955", "1000", "95.0%", False),  # more digits written, a tighter tolerance
        ("956", "1000", "95%", False),
        ("1", "3", "33.3%", True),
        ("1", "3", "33.4%", False),
        ("1000", "4096", "24.4%", True),
        ("1000", "4096", "24.41%", True),
        ("1000", "4096", "24.42%", False),
        ("-5", "200", "-2.5%", True),
    ],
)
def test_the_ratio_is_compared_exactly_with_the_rounding_of_the_written_percentage(
    part: str, whole: str, percent: str, passed: bool
) -> None:
    assert compared(part, whole, percent).passed is passed


def test_one_ratio_against_one_percentage_is_one_observation() -> None:
    assert compared("961", "1000", "96%").observation_key() == compared("1922", "2000", "96").observation_key()
    assert compared("961", "1000", "96%").observation_key() != compared("961", "1000", "96.1%").observation_key()


def test_a_percentage_is_shown_exactly_or_marked_as_rounded() -> None:
    assert decimal_text(compared("961", "1000", "96%").ratio * 100) == "96.1"
    assert decimal_text(compared("1", "3", "33%").ratio * 100) == "about 33.3333"
    assert decimal_text(compared("-5", "200", "-2.5%").ratio * 100) == "-2.5"


def test_a_numeral_may_be_written_in_any_form_the_one_reader_reads(run: StartedRun) -> None:
    """The plugin reads what the agent writes with credencegraph-extract's one numeral reader: `1,000` is 1000."""
    [check] = run.call("run_checks", proposals=[percent_of(whole="1,000")])["checks"]
    assert check["result"] == "passed"
    assert check["detail"] == "961 / 1000 = 96.1%, written 96% (+- 0.5%): passed"
