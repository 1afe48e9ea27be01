r"""Issue 35's hard cases through the tools an agent calls: a paper written for the test (hard_cases/paper.tex)
plants each kind of error the issue found in real papers beside a true counterpart, and recompute-numbers
catches every error with a deterministic check (premised where the text does not write the relation) while
passing its counterpart; the run replays byte for byte and verify re-decides every check.

The errors: a release dated after the analyses that used it; a display cutoff above a value the table
displays; an estimate outside its own interval; "targets beyond 85% yield a higher share" against a table
where 100% yields less; one quantity with two values (a caption's 256 steps and the text's 128; a cap of 30%
and of 20%; 240 and 177 g/kWh; an SNR of 4.94 and 4.49); a length written with a velocity's unit; a frequency
in Hz that is mHz (with the speed of light); a load three orders above its neighbours'; a padded 8.530; a
threshold one of 22 rows misses, cited by a range."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import TOOLS, call_tool
from support import ROOT

PAPER = Path(__file__).parent / "hard_cases" / "paper.tex"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

SAME = "both numbers name the same quantity, so they should be equal"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    model = {"model": "test-model"} if TOOLS[tool].changes_run else {}
    payload, is_error = call_tool(tool, {**model, **arguments})
    assert not is_error, payload
    return payload


class Session:
    """A run on the hard-case paper: its chunks by the words they write, and proposals sent through run_checks."""

    def __init__(self, run: Path) -> None:
        self.run = run
        listed = call("get_state", run=str(run), limit=500)
        self.texts = {node["id"]: node.get("text") or "" for node in listed["nodes"]}

    def chunk(self, words: str) -> str:
        """The one chunk whose text writes these words."""
        found = [node for node, text in self.texts.items() if words in text]
        assert len(found) == 1, (words, found)
        return found[0]

    def propose(self, proposals: list[dict[str, Any]]) -> dict[str, Any]:
        return call("run_checks", run=str(self.run), proposals=proposals)


def proposal(target: str, cites: list[str], expression: str, result: str, *premises: str) -> dict[str, Any]:
    made: dict[str, Any] = {
        "type": "recompute-numbers",
        "target": target,
        "cites": cites,
        "expression": expression,
        "result": result,
    }
    if premises:
        made["premises"] = list(premises)
    return made


def cases(session: Session) -> dict[str, tuple[dict[str, Any], str]]:
    """Each case: its proposal and the result it must give."""
    s = session.chunk
    release, follow_up = s("run in November 2002"), s("run in May 2004")
    cutoff, original = s("changed from 0.749"), s("Under the original cutoff")
    shown = [s("North"), s("South"), s("East")]
    median, mean = s("median delay"), s("mean delay")
    beyond, target_85 = s("Targets beyond 85"), s("The 85\\% target")
    rows_70, rows_85, rows_100 = s("70\\%; Share"), s("85\\%; Share"), s("100\\%; Share")
    steps, caption = s("128 steps"), s("256 steps")
    cap, cap_again = s("cap excess sales at 30"), s("The 20\\% cap")
    intensity, intensity_again, polluting = s("240 g/kWh in the"), s("177 g/kWh in the"), s("the most polluting")
    snr_b1, snr_b2, row_b1, row_b2 = s("binary B1"), s("binary B2"), s("B1; SNR"), s("B2; SNR")
    plume, travel = s("spreads"), s("it travels")
    dispersion = s("dispersion length")
    frequency, millihertz = s("characteristic frequency"), s("Equivalently")
    loads = s("Ireland")
    accuracy, error, row_accuracy, row_error = (
        s("reproduced accuracy"),
        s("reproduced error"),
        s("Accuracy;"),
        s("Error;"),
    )
    exceeds, at_least = s("exceeds the 0.60"), s("at least 0.55")
    first_site, last_site = s("S1;"), s("S22;")
    stages, stage_row = s("second stage"), s("Stage 1 (h)")
    scores = [float(re.findall(r"Score: ([0-9.]+)", session.texts[f"t-{n:02d}"])[0]) for n in _site_rows(session)]
    site_values = [f"{value:.2f}" for value in scores]
    return {
        "release after the analyses": (
            proposal(
                release,
                [release],
                "date(2003, 6, 17) < date(2002, 11)",
                "before",
                "the analyses used this release, so it predates them",
            ),
            "failed",
        ),
        "release before the analyses": (
            proposal(
                follow_up,
                [follow_up],
                "date(2003, 6, 17) < date(2004, 5)",
                "before",
                "the analyses used this release, so it predates them",
            ),
            "passed",
        ),
        "cutoff above a displayed value": (
            proposal(
                cutoff,
                [cutoff, *shown],
                "all(0.750 >= 0.755, 0.812 >= 0.755, 0.903 >= 0.755)",
                "at least",
                "every value the table displays is at least the cutoff",
            ),
            "failed",
        ),
        "cutoff below every displayed value": (
            proposal(
                original,
                [original, *shown],
                "all(0.750 >= 0.749, 0.812 >= 0.749, 0.903 >= 0.749)",
                "at least",
                "every value the table displays is at least the cutoff",
            ),
            "passed",
        ),
        "estimate outside its interval": (
            proposal(
                median, [median], "within(42, 43, 62)", "within", "an estimate lies within its own confidence interval"
            ),
            "failed",
        ),
        "estimate inside its interval": (
            proposal(
                mean, [mean], "within(51, 44, 60)", "within", "an estimate lies within its own confidence interval"
            ),
            "passed",
        ),
        "a higher share that is lower": (
            proposal(beyond, [beyond, rows_85, rows_100], "89% > 91%", "higher"),
            "failed",
        ),
        "a higher share": (proposal(target_85, [target_85, rows_70, rows_85], "91% > 80%", "higher"), "passed"),
        "caption's steps against the text's": (
            proposal(caption, [caption, steps], "256 == 128", "the same", SAME),
            "failed",
        ),
        "caption's batch and the text's": (proposal(steps, [steps, caption], "64 == 64", "the same", SAME), "passed"),
        "cap of 30% and of 20%": (proposal(cap_again, [cap_again, cap], "20% == 30%", "the same", SAME), "failed"),
        "discount of 10% twice": (proposal(cap, [cap, cap_again], "10% == 10%", "the same", SAME), "passed"),
        "240 and 177 g/kWh": (
            proposal(intensity_again, [intensity_again, intensity], "177 g/kWh == 240 g/kWh", "the same", SAME),
            "failed",
        ),
        "the most polluting": (
            proposal(polluting, [polluting], "is_max(240 g/kWh, 177 g/kWh, 190 g/kWh)", "the most"),
            "passed",
        ),
        "SNR 4.94 and 4.49": (proposal(snr_b1, [snr_b1, row_b1], "4.94 == 4.49", "the same", SAME), "failed"),
        "SNR 7.21 twice": (proposal(snr_b2, [snr_b2, row_b2], "7.21 == 7.21", "the same", SAME), "passed"),
        "a length with a velocity's unit": (
            proposal(plume, [plume], "1.2e3 cm d^-1 * 9 d / 2", "5.4e3 cm d^-1"),
            "failed",
        ),
        "a length with a length's unit": (
            proposal(travel, [travel, plume], "1.2e3 cm d^-1 * 9 d", "1.08e4 cm"),
            "passed",
        ),
        "a square root of tau": (proposal(dispersion, [dispersion], "1.3e-7 m * sqrt(100)", "1.3e-6 m"), "passed"),
        "Hz that is mHz": (proposal(frequency, [frequency], "c / (2 * pi * 2.5e9 m)", "19.09 Hz"), "failed"),
        "mHz": (proposal(millihertz, [millihertz, frequency], "c / (2 * pi * 2.5e9 m)", "19.09 mHz"), "passed"),
        "220 GW beside 3.8 GW": (
            proposal(
                loads,
                [loads],
                "same_order(220 GW, 3.8 GW)",
                "of the order of",
                "a country's peak load is of the order of its neighbours' loads",
            ),
            "failed",
        ),
        "5.2 GW beside 3.8 GW": (
            proposal(
                loads,
                [loads],
                "same_order(5.2 GW, 3.8 GW)",
                "comparable",
                "a country's peak load is of the order of its neighbours' loads",
            ),
            "passed",
        ),
        "8.537 against a padded 8.530": (
            proposal(accuracy, [accuracy, row_accuracy], "round(8.537, 2) == 8.530", "identical"),
            "failed",
        ),
        "6.402 against a padded 6.400": (
            proposal(error, [error, row_error], "round(6.402, 2) == 6.400", "identical"),
            "passed",
        ),
        "a threshold one of 22 rows misses": (
            proposal(
                exceeds,
                [exceeds, f"{first_site}..{last_site}"],
                f"all({', '.join(f'{value} > 0.60' for value in site_values)})",
                "exceeds",
            ),
            "failed",
        ),
        "a bound all 22 rows meet": (
            proposal(
                at_least,
                [at_least, f"table({first_site})"],
                f"all({', '.join(f'{value} >= 0.55' for value in site_values)})",
                "at least",
            ),
            "passed",
        ),
        "stage durations": (proposal(stages, [stages, stage_row], "6.0 h - 2.5 h", "3.5 h"), "passed"),
    }


def _site_rows(session: Session) -> list[int]:
    first, last = session.chunk("S1;"), session.chunk("S22;")
    return list(range(int(first[2:]), int(last[2:]) + 1))


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Session, dict[str, dict[str, Any]]]]:
    """The run with every case proposed (twenty at a time), and each case's check record by name."""
    run = tmp_path_factory.mktemp("hard-cases") / "run"
    call("start_run", run=str(run), paper=str(PAPER), rubric=str(RUBRIC))
    session = Session(run)
    statements = [node for node in session.texts if node.startswith("s-")]
    call(
        "classify",
        run=str(run),
        records=[{"node": node, "type": "method", "form": {"kind": "procedure"}} for node in statements],
    )
    named = cases(session)
    records: dict[str, dict[str, Any]] = {}
    names = list(named)
    for start in range(0, len(names), 20):
        batch = names[start : start + 20]
        result = session.propose([named[name][0] for name in batch])
        assert not result.get("refused"), result["refused"]
        records.update(zip(batch, result["checks"], strict=True))
    yield session, {name: {**records[name], "expected": named[name][1]} for name in names}


def test_each_error_fails_and_its_counterpart_passes(checked: tuple[Session, dict[str, dict[str, Any]]]) -> None:
    _, records = checked
    outcomes = {name: record["result"] for name, record in records.items()}
    assert outcomes == {name: record["expected"] for name, record in records.items()}


def test_the_failures_carry_their_certificates(checked: tuple[Session, dict[str, dict[str, Any]]]) -> None:
    session, records = checked
    plume = records["a length with a velocity's unit"]["detail"]
    assert "is [length]" in plume and "is [length]/[time]" in plume and "the dimensions differ" in plume
    snr = records["SNR 4.94 and 4.49"]["detail"]
    assert f"4.94 in {session.chunk('binary B1')}" in snr and f"4.49 in {session.chunk('B1; SNR')}" in snr
    assert "speed_of_light / (2 * pi * 2.5e9 m) = 0.019085" in records["Hz that is mHz"]["detail"]
    assert "same_order(220 GW, 3.8 GW) is false" in records["220 GW beside 3.8 GW"]["detail"]


def test_a_range_and_a_table_are_recorded_expanded_and_premises_with_the_check(
    checked: tuple[Session, dict[str, dict[str, Any]]],
) -> None:
    session, _ = checked
    by_target = {check["target"]: check for check in _records(session.run)}
    rows = [f"t-{number:02d}" for number in _site_rows(session)]
    assert by_target[session.chunk("exceeds the 0.60")]["inputs"]["cites"][1:] == rows
    assert by_target[session.chunk("at least 0.55")]["inputs"]["cites"][1:] == rows
    premised = by_target[session.chunk("median delay")]["inputs"]
    assert premised["premises"] == ["an estimate lies within its own confidence interval"]
    assert "premises" not in by_target[session.chunk("second stage")]["inputs"]
    constants = by_target[session.chunk("characteristic frequency")]["inputs"]["constants"]
    assert constants["speed_of_light"]["value"] == "299792458/1"
    assert constants["speed_of_light"]["uncertainty"] == "0/1"
    assert "CODATA" in constants["speed_of_light"]["source"]


def test_the_run_replays_byte_for_byte_and_verify_re_decides_every_check(
    checked: tuple[Session, dict[str, dict[str, Any]]],
) -> None:
    session, records = checked
    verified = assert_run_verifies(session.run, source=PAPER)
    assert verified.rerun == verified.checks >= len(records)


def _records(run: Path) -> list[dict[str, Any]]:
    from cgx_core.run.layout import RunPaths
    from cgx_core.run.state import read_state_json

    graph = read_state_json(RunPaths(run).state)["graph"]
    return [dict(node["attributes"]["check"]) for node in graph["nodes"] if "check" in node["attributes"]]


# -- a refusal's fix is a path that works ----------------------------------------------------------------


def test_every_relation_refusal_names_a_fix_that_is_then_applied(tmp_path: Path) -> None:
    """Each relation-not-in-text refusal's fix names JSON to merge into the proposal (the premise to add, the
    word the text writes, the relation it writes): merged, the proposal is no longer refused."""
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(PAPER), rubric=str(RUBRIC))
    session = Session(run)
    s = session.chunk
    call(
        "classify",
        run=str(run),
        records=[
            {"node": node, "type": "method", "form": {"kind": "procedure"}}
            for node in session.texts
            if node.startswith("s-")
        ],
    )
    release, median, loads, steps = s("run in November 2002"), s("median delay"), s("Ireland"), s("128 steps")
    polluting, caption = s("the most polluting"), s("256 steps")
    refused_first = [
        proposal(release, [release], "date(2003, 6, 17) < date(2002, 11)", "before"),  # no word: a premise
        proposal(median, [median], "within(42, 43, 62)", "within"),
        proposal(loads, [loads], "same_order(220 GW, 3.8 GW)", "of the order of"),  # a scale: premised only
        proposal(steps, [steps, caption], "256 == 128", "the same"),
        proposal(polluting, [polluting], "is_max(240 g/kWh, 177 g/kWh, 190 g/kWh)", "maximum"),  # the text's word
        proposal(polluting, [polluting], "is_min(177 g/kWh, 240 g/kWh, 190 g/kWh)", "the most"),  # wrong relation
        proposal(median, [median], "any(42 < 43, 62 < 43)", "below"),  # any() the text does not write
        {**proposal(release, [release], "2003 - 2002", "2.1"), "relation": "<"},  # a relation the text does not write
    ]
    first = session.propose(refused_first)
    refusals = {item["proposal"]: item for item in first["refused"]}
    assert set(refusals) == set(range(len(refused_first))), first
    assert {item["code"] for item in refusals.values()} == {"relation-not-in-text"}
    second = session.propose([_applied(refused_first[index], refusals[index]["fix"]) for index in sorted(refusals)])
    assert not second.get("refused"), second["refused"]
    assert [check["result"] for check in second["checks"]] == [
        "failed",
        "failed",
        "failed",
        "failed",
        "passed",
        "passed",
        "passed",
        "failed",
    ]


def _applied(sent: dict[str, Any], fix: str) -> dict[str, Any]:
    """The proposal with the first JSON object the fix names (in backticks) merged into it."""
    found = re.search(r"`(\{.*?\})`", fix)
    assert found is not None, fix
    return {**sent, **json.loads(found[1])}
