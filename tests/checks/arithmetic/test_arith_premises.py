"""What a premise licenses in recompute-numbers: with at least one, any relation of the grammar (order, equality,
within, the comparisons over a set is_max and is_min, and the scale check same_order) may be used whether or
not the cited text writes its word, and a numeric result's relation may be one the text does not write;
everything else stays strict. Without premises the rules, and the records, are exactly as before."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from typing import Any

import pytest

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic.predicate_check import PREMISED, PredicateCheck
from cgx_checks.arithmetic.recompute import ProposalProblems, Recomputation
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.errors import CgxError
from cgx_core.testing import TINY_RECORDS, StartedRun

RELEASE = "The analyses, run in November 2002, used version 2.1, released on 17 June 2003."


def refused(expression: str, result: str, texts: list[str], **options: Any) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts, **options)
    return raised.value


def predicate(expression: str, result: str, texts: list[str], **options: Any) -> PredicateCheck:
    checked = recompute(expression, result, texts, **options)
    assert isinstance(checked, PredicateCheck)
    return checked


@pytest.mark.parametrize(
    ("expression", "word", "outcome"),
    [
        ("date(2003, 6, 17) < date(2002, 11)", "before", "failed"),  # a release dated after the analyses
        ("date(2002, 11) > date(2003, 6, 17)", "after", "failed"),
        ("date(2003, 6, 17) != date(2002, 11)", "different", "passed"),
        ("within(2.1, 2002, 2003)", "within", "failed"),
        ("is_max(2003, 2002, 2.1)", "the most", "passed"),
        ("is_min(2.1, 2002, 2003)", "lowest", "passed"),
    ],
)
def test_a_premise_licenses_a_relation_the_text_does_not_write(expression: str, word: str, outcome: str) -> None:
    error = refused(expression, word, [RELEASE])
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert isinstance(error, ProposalProblems) and error.fixes  # each refusal names its own path
    checked = predicate(expression, word, [RELEASE], premised=True)
    assert checked.outcome == outcome


def test_the_result_word_must_still_name_the_relation_checked() -> None:
    # A premise licenses the relation, not a word that says another one: "identical" is not `<` (while "after"
    # is, read the other way round: b after a).
    error = refused("date(2003, 6, 17) < date(2002, 11)", "identical", [RELEASE], premised=True)
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert "is not what the result word writes" in error.message
    assert refused("date(2003, 6, 17) < date(2002, 11)", "sooner", [RELEASE], premised=True).code == (
        ArithmeticCode.RELATION_NOT_IN_TEXT
    )


def test_everything_but_the_relation_stays_strict_with_a_premise() -> None:
    # Numbers only from the text; no predicate by construction; a date at the precision the text writes.
    assert refused("date(2003, 6, 17) < date(2002, 12)", "before", [RELEASE], premised=True).code == (
        ArithmeticCode.OPERAND_NOT_IN_TEXT
    )
    assert refused("2.1 == 2.1", "identical", [RELEASE], premised=True).code == ArithmeticCode.EXPRESSION_IS_RESULT
    assert refused("2.2 < 2003", "below", [RELEASE], premised=True).code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert refused("2003 - 2002", "1", [RELEASE], premised=True).code == ArithmeticCode.OPERAND_NOT_IN_TEXT


def test_a_count_and_any_need_no_word_with_a_premise_and_record_that() -> None:
    text = "Of the scores 8.53, 7.12 and 6.41 against 8.50, 7.10 and 6.40, 3 rows moved."
    expression = "count(8.53 > 8.50, 7.12 > 7.10, 6.41 > 6.40)"
    assert refused(expression, "3", [text]).code == ArithmeticCode.RELATION_NOT_IN_TEXT
    counted = recompute(expression, "3", [text], premised=True)
    assert isinstance(counted, Recomputation)
    assert (counted.outcome, dict(counted.relations)) == ("passed", {">": PREMISED})
    assert predicate("any(8.53 < 8.50, 6.41 > 6.40)", "above", [text + " above"], premised=True).holds


def test_a_numeric_result_may_take_a_relation_the_text_does_not_write_but_not_a_hedge() -> None:
    text = "The error 0.8% was computed from 4 failures in 500 runs."
    error = refused("4 / 500", "0.8%", [text], relation="<")
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    bound = recompute("4 / 500", "0.8%", [text], relation="<=", premised=True)
    assert isinstance(bound, Recomputation) and (bound.relation, bound.outcome) == ("<=", "passed")
    hedged = refused("4 / 500", "0.8%", [text], relation="~", premised=True, tolerances={"~": F(1, 10)})
    assert hedged.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    assert "no premise can give" in dict(getattr(hedged, "fixes", ()))[ArithmeticCode.RELATION_NOT_IN_TEXT]


def test_same_order_is_a_premised_scale_check_within_a_factor_of_ten() -> None:
    text = "Ireland's peak load is 220 GW, beside Germany's 3.8 GW and France's 5.2 GW; 10 GW is the cap."
    error = refused("same_order(220 GW, 3.8 GW)", "of the order of", [text])
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT and "needs a premise" in error.message
    assert predicate("same_order(220 GW, 3.8 GW)", "of the order of", [text], premised=True).outcome == "failed"
    assert predicate("same_order(5.2 GW, 3.8 GW, 10 GW)", "comparable", [text], premised=True).outcome == "passed"
    # A factor of exactly 10 is of one order; magnitudes compare, so a sign does not matter.
    edge = "A load of 3.8 GW and 38 GW, and a flow of -38 GW."
    assert predicate("same_order(38 GW, 3.8 GW)", "comparable", [edge], premised=True).holds
    assert predicate("same_order(-38 GW, 3.8 GW)", "comparable", [edge], premised=True).holds
    with pytest.raises(CgxError) as raised:
        recompute("same_order(220 GW, 3.8 h)", "comparable", [text + " 3.8 h"], premised=True)
    assert raised.value.code == ArithmeticCode.UNIT_INCOMPATIBLE


def test_is_max_and_is_min_compare_a_value_with_every_other() -> None:
    text = "The baseline is the most polluting, at 240 g/kWh against 177 g/kWh and 250 g/kWh, the lowest 177 g/kWh."
    assert predicate("is_max(240 g/kWh, 177 g/kWh, 250 g/kWh)", "the most", [text]).outcome == "failed"
    assert predicate("is_min(177 g/kWh, 240 g/kWh, 250 g/kWh)", "lowest", [text]).outcome == "passed"
    # is_max(x, x) would compare a numeral with itself: a value used twice must be written twice.
    assert refused("is_max(240 g/kWh, 240 g/kWh)", "the most", [text]).code == ArithmeticCode.EXPRESSION_IS_RESULT


# -- through the plugin and the tools ---------------------------------------------------------------------

CHECKS = """
[checks.recompute-numbers]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""


def test_the_inputs_record_premises_only_when_the_proposal_has_them_and_verify_re_decides(
    cgx_run: Callable[..., StartedRun],
) -> None:
    run = cgx_run(rubric_extra=CHECKS)
    assert run.call("classify", records=TINY_RECORDS)["refused"] == []
    plain = {
        "type": "recompute-numbers",
        "target": "s-3",
        "cites": ["s-3", "s-2"],
        "expression": "4 s * 4096 Hz",
        "result": "16384",
    }
    premised = {
        "type": "recompute-numbers",
        "target": "s-8",
        "cites": ["s-8", "s-6"],
        "expression": "0.8% < 1%",
        "result": "below",
        "premises": ["the mean error lies below the error bound the paper states"],
    }
    # The text writes "below 1%": a premised `=` is recorded, so verify compares with `=`, not the text's `<`.
    equal = {
        "type": "recompute-numbers",
        "target": "s-8",
        "cites": ["s-8", "s-2"],
        "expression": "961 / 1000 / 96",
        "result": "1%",
        "relation": "=",
        "premises": ["the error rate the paper reports is the ratio it implies"],
    }
    result = run.call("run_checks", proposals=[plain, premised, equal])
    assert not result.get("refused"), result["refused"]
    records = {(check["target"], check["inputs"]["result"]): check for check in run.checks()}
    assert sorted(records["s-3", "16384"]["inputs"]) == ["cites", "expression", "result", "target"]
    assert records["s-8", "below"]["inputs"]["premises"] == premised["premises"]
    assert records["s-8", "1%"]["inputs"]["relation"] == "="
    outcomes = [records[key]["result"] for key in (("s-3", "16384"), ("s-8", "below"), ("s-8", "1%"))]
    assert outcomes == ["passed", "passed", "passed"]  # 1.001% is 1% as written, though not below it
    verified = run.verify()
    assert verified.rerun == verified.checks == 3


# -- each relation refusal's fix is a path that works -------------------------------------------------------

COUNTED = "Of the scores 8.53, 7.12 and 6.41 against 8.50, 7.10 and 6.40, 3 rows moved; 0.8% or at most 0.8%."


@pytest.mark.parametrize(
    ("expression", "result", "options"),
    [
        ("count(8.53 > 8.50, 7.12 > 7.10, 6.41 > 6.40)", "3", {}),  # a count's relation the text does not write
        ("8.53 > 8.50", "sooner", {}),  # a result that is no word of the vocabulary
        ("8.53 > 8.50", "above", {}),  # a word the text does not write
        ("8.53 > 8.50", "identical", {"texts": [COUNTED + " identical"]}),  # a word of another relation
        ("any(8.53 > 8.50, 6.41 < 6.40)", "above", {}),  # any() the text does not write
        ("same_order(8.53, 6.41)", "comparable", {}),  # a scale check
        ("8 / 1000", "0.8%", {}),  # the text writes the result with two relations
        ("8 / 1000", "0.8%", {"relation": "<"}),  # a relation the text does not write
    ],
)
def test_each_relation_refusals_fix_is_applied_and_then_accepted(
    expression: str, result: str, options: dict[str, Any]
) -> None:
    texts = options.pop("texts", [COUNTED + " 8 of 1000"])
    error = refused(expression, result, texts, **options)
    assert error.code == ArithmeticCode.RELATION_NOT_IN_TEXT
    # The refusal's fix joins each problem's, in order: the first path it names is applied.
    fixes = [fix for code, fix in getattr(error, "fixes", ()) if code == ArithmeticCode.RELATION_NOT_IN_TEXT]
    change = _first_json(fixes[0])
    applied = {
        "result": change.get("result", result),
        "relation": change.get("relation", options.get("relation")),
        "premised": "premises" in change,
    }
    assert recompute(expression, applied["result"], texts, relation=applied["relation"], premised=applied["premised"])


def _first_json(fix: str) -> dict[str, Any]:
    import json
    import re

    found = re.search(r"`(\{.*?\})`", fix)
    assert found is not None, fix
    change: dict[str, Any] = json.loads(found[1])
    return change
