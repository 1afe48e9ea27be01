r"""The candidate scan (cgx_core.tooling.candidates): the forms papers write a checkable statement in, each
read into the proposal that checks it, and the look-alikes it must leave alone."""

from __future__ import annotations

import pytest

from cgx_core.tooling.candidates import candidates


def proposals(text: str) -> list[tuple[str, str]]:
    return [(item["proposal"]["expression"], item["proposal"]["result"]) for item in candidates([("s-1", text)])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("t(28) = 2.20, p = .04", ("p_t(2.20, 28)", ".04")),
        ("$t_{28} = 2.20$, $p = .04$", ("p_t(2.20, 28)", ".04")),
        ("$t(28)=2.20, p=.04$", ("p_t(2.20, 28)", ".04")),
        ("t(27.5) = -2.20, p = .036", ("p_t(-2.20, 27.5)", ".036")),
        ("F(2, 57) = 3.15, p < .05", ("p_F(3.15, 2, 57)", ".05")),
        ("$F_{2,57} = 3.15$, $p<.05$", ("p_F(3.15, 2, 57)", ".05")),
        ("$\\chi^2(1) = 3.84$, $p = 0.050$", ("p_chi2(3.84, 1)", "0.050")),
        ("$\\chi^{2}(3, N = 1{,}204) = 8.2$, $p = .042$", ("p_chi2(8.2, 3)", ".042")),
        ("χ2(1) = 3.84, p = .05", ("p_chi2(3.84, 1)", ".05")),
        ("z = 1.96, p = .05", ("p_z(1.96)", ".05")),
        ("r(48) = .32, p < .001", ("p_r(.32, 48)", ".001")),
        ("r(48) = .32, $p \\leq .02$", ("p_r(.32, 48)", ".02")),
        ("\\textit{t}(28) = 2.20, \\textit{p} = .04", ("p_t(2.20, 28)", ".04")),
    ],
)
def test_a_reported_test_in_each_form_gives_its_p_value_proposal(text: str, expected: tuple[str, str]) -> None:
    assert proposals(text) == [expected]


def test_the_relation_the_text_writes_is_named_when_it_is_not_equality() -> None:
    (item,) = candidates([("s-4", "F(2, 57) = 3.15, p < .05")])
    assert item["proposal"] == {
        "type": "recompute-numbers",
        "target": "s-4",
        "cites": ["s-4"],
        "expression": "p_F(3.15, 2, 57)",
        "result": ".05",
        "relation": "<",
    }
    assert item["kind"] == "reported-test"
    assert "upper tail p-value of F(2, 57) = 3.15, against p < .05" in item["computes"]


@pytest.mark.parametrize(
    "text",
    [
        "t(28) = 2.20 with a small effect",  # no p
        "F(2) = 3.15, p = .05",  # an F needs two degrees of freedom
        "t = 2.20, p = .04",  # a t needs its degrees of freedom
        "the set(28) = 2.20, p = .04",  # a letter inside a word is no statistic
        "n.s.",
    ],
)
def test_a_look_alike_is_no_reported_test(text: str) -> None:
    assert [item for item in candidates([("s-1", text)]) if item["kind"] == "reported-test"] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("In all, 45 of 60 participants (75\\%) completed it.", [("45 / 60", "75%")]),
        ("1,204 of 12,000 records (10.0%) were flagged.", [("1204 / 12000", "10.0%")]),
        ("rose from 60 to 75 (a 25\\% increase)", [("(75 - 60) / 60", "25%")]),
        ("fell from 16.3 to 4.52 (a 72% reduction)", [("(16.3 - 4.52) / 16.3", "72%")]),
        ("from 25.4\\% to 93.2\\% (a 267\\% increase)", [("(93.2% - 25.4%) / 25.4%", "267%")]),
        ("We recruited 60 participants (28 women and 32 men).", [("28 + 32", "60")]),
        ("120 samples (40 soil, 40 water and 40 air)", [("40 + 40 + 40", "120")]),
    ],
)
def test_percentages_changes_and_totals(text: str, expected: list[tuple[str, str]]) -> None:
    assert proposals(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "60 participants (95% CI 50 to 70)",  # an interval, not parts
        "60 participants (aged 18 to 65)",  # a range, not a sum
        "60 runs (Table 2)",  # one number
        "3 of 4 (see above)",  # no percentage
    ],
)
def test_look_alikes_of_totals_and_percentages_are_left_alone(text: str) -> None:
    assert [item for item in candidates([("s-1", text)]) if item["kind"] in ("total", "percent-of")] == []


def test_a_change_between_percentages_is_no_candidate() -> None:
    """ "From 60% to 75% (a 15% increase)" usually means points: the relative change (25%) sent as it is would
    fail a true statement. Between plain numbers the change stays a candidate."""
    assert candidates([("s-1", "Accuracy rose from 60\\% to 75\\% (a 15\\% increase).")]) == []
    assert proposals("The error fell from 8.0 to 6.0 (a 25\\% decrease).") == [("(8.0 - 6.0) / 8.0", "25%")]


def test_an_interval_with_its_standard_error_its_p_value_or_alone() -> None:
    assert proposals("The effect was 1.20 (SE 0.30; 95% CI 0.61 to 1.79).") == [
        ("ci_low(1.20, 0.30, 95%)", "0.61"),
        ("ci_high(1.20, 0.30, 95%)", "1.79"),
    ]
    assert proposals("a difference of 0.40 (95% CI 0.10 to 0.70), p = .009") == [
        ("p_ci(0.40, 0.10, 0.70, 95%)", ".009")
    ]
    assert proposals("OR 2.10 (95% CI 1.32 to 3.34), p < .001") == [("p_ci_log(2.10, 1.32, 3.34, 95%)", ".001")]
    assert proposals("a hazard ratio of 0.80 [95% CI: 0.65, 0.98]") == [("ci_gmid(0.65, 0.98)", "0.80")]
    assert proposals("a mean difference of 4.2 (95% CI 1.1--7.3)") == [("ci_mid(1.1, 7.3)", "4.2")]


def test_a_mean_of_integer_data_with_its_n_gives_grim_and_grimmer_with_their_premise() -> None:
    (grim, grimmer) = candidates([("s-2", "Ratings on a 7-point scale (M = 3.47, SD = 1.12, n = 19).")])
    assert (grim["proposal"]["expression"], grimmer["proposal"]["expression"]) == (
        "grim(3.47, 19)",
        "grimmer(3.47, 1.12, 19)",
    )
    assert grim["proposal"]["premises"] == ["the values averaged are whole numbers (the text's 'Ratings')"]
    assert proposals("On the five-item scale scores averaged M = 2.50 (n = 12).") == [("grim(2.50, 12, 5)", "2.50")]


@pytest.mark.parametrize(
    "text",
    [
        "The temperature averaged M = 21.35 (n = 19).",  # nothing says the data are whole numbers
        "Ratings averaged M = 3.4 (n = 19).",  # 19 whole numbers reach every mean of one decimal
        "Ratings averaged M = 3.47.",  # no n
    ],
)
def test_a_mean_grim_cannot_test_is_left_alone(text: str) -> None:
    assert proposals(text) == []


def test_the_scan_is_the_same_list_every_time_in_document_order() -> None:
    chunks = [("s-1", "z = 1.96, p = .05"), ("s-2", "t(28) = 2.20, p = .04"), ("s-3", "45 of 60 (75%)")]
    first = candidates(chunks)
    assert first == candidates(chunks)
    assert [item["node"] for item in first] == ["s-1", "s-2", "s-3"]


SECTION = {"unit": "sentence", "numbered": [{"kind": "section", "number": "2"}]}


def across(*texts: str, attributes: dict[str, dict[str, object]] | None = None) -> list[tuple[str, str, str]]:
    """(kind, expression, result) of the candidates of chunks s-1, s-2, ... in one section."""
    chunks = [(f"s-{index}", text) for index, text in enumerate(texts, 1)]
    given = {node: SECTION for node, _ in chunks} | (attributes or {})
    return [
        (item["kind"], item["proposal"]["expression"], item["proposal"]["result"])
        for item in candidates(chunks, given)
        if item["kind"] in ("decision", "split-test", "enumeration", "table-rows", "same-quantity")
    ]


THRESHOLD = "Significance was set at $\\alpha = .05$."


def test_a_decision_without_a_p_is_checked_against_the_threshold_the_paper_sets() -> None:
    found = candidates(
        [("s-1", THRESHOLD), ("s-2", "The groups did not differ, t(72) = 1.12, n.s.")], {"s-1": SECTION, "s-2": SECTION}
    )
    (item,) = [item for item in found if item["kind"] == "decision"]
    assert item["proposal"] == {
        "type": "recompute-numbers",
        "target": "s-2",
        "cites": ["s-2", "s-1"],
        "expression": "p_t(1.12, 72)",
        "result": ".05",
        "relation": ">",
        "premises": ["the text's 'n.s.' states the decision at the threshold s-1 sets"],
    }
    assert across(THRESHOLD, "Scores were significantly higher, F(1, 40) = 5.10.") == [
        ("decision", "p_F(5.10, 1, 40)", ".05")
    ]


@pytest.mark.parametrize(
    "texts",
    [
        ("The groups did not differ, t(72) = 1.12, n.s.",),  # no threshold written: .05 is nowhere to cite
        (THRESHOLD, "The effect was marginally significant, t(110) = 1.70."),
        (THRESHOLD, "A was significant, t(30) = 2.60, but B was not significant."),  # which test is which
        (THRESHOLD, "A was significant, t(30) = 2.60, and B, t(30) = 1.10, n.s."),  # two tests
    ],
)
def test_a_decision_the_scan_cannot_pair_with_its_test_is_left_alone(texts: tuple[str, ...]) -> None:
    assert across(*texts) == []


def test_a_p_in_the_next_sentence_that_refers_to_the_test() -> None:
    assert across("Missed sessions fell, t(110) = 3.30.", "This difference was reliable, p = .001.") == [
        ("split-test", "p_t(3.30, 110)", ".001")
    ]
    # The next sentence speaks of something else, or is in another section, or writes its own test.
    assert (
        across("Waiting correlated with misses, r(110) = .21.", "The second arm showed a similar pattern, p = .04.")
        == []
    )
    assert across("Misses fell, t(110) = 3.30.", "This held, t(50) = 2.00, p = .05.") == []
    other = {"s-2": {"unit": "sentence", "numbered": [{"kind": "section", "number": "3"}]}}
    assert across("Misses fell, t(110) = 3.30.", "This difference was reliable, p = .001.", attributes=other) == []


def test_an_announced_enumeration_is_counted_with_items() -> None:
    assert across("Patients saw three conditions: (a) cue, (b) no cue and (c) mixed.") == [
        ("enumeration", "items(s-1)", "three")
    ]
    assert across("We report 4 outcomes: (a) visits, (b) calls, (c) pain and (d) cost.") == [
        ("enumeration", "items(s-1)", "4")
    ]
    assert across("Approaches fall into one of two categories: (i) interpretable models, and (ii) post hoc ones.") == [
        ("enumeration", "items(s-1)", "two")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Three conditions: (a) cue and (b) no cue, first alone and second paired.",  # ordinals count too
        "Two tasks: (a) reading, (c) writing.",  # not one run from (a)
        "In Fig. 2(a) and (b) we show three panels: (a) left, (b) middle, (c) right.",  # a label before the count
        "Three tasks: (1) reading, (2) writing and (3) speaking.",  # numbers: an equation's (3) is counted too
        "Two tasks: ($a$) reading and ($b$) writing.",  # items() reads the labels as ingested: none here
    ],
)
def test_an_enumeration_items_might_count_otherwise_is_left_alone(text: str) -> None:
    assert across(text) == []


def test_a_list_announced_without_labels_is_counted_with_items() -> None:
    assert across("Notes were checked by three assessors (a physiotherapist and a nurse).") == [
        ("enumeration", "items(s-1)", "three")
    ]
    assert across("Adherence was scored on four criteria: timeliness, completeness, accuracy and follow-up.") == [
        ("enumeration", "items(s-1)", "four")
    ]
    # A panel's label before the count is no label of the list (items() counts only a run from (a)).
    assert across("In Fig. 2(a) and (b) we show three panels: left, middle and right.") == [
        ("enumeration", "items(s-1)", "three")
    ]


def test_a_count_before_a_list_ingestion_recorded_is_counted_with_items() -> None:
    listed = {f"s-{index}": {**SECTION, "list": {"number": 1, "item": index - 1, "items": 3}} for index in (2, 3, 4)}
    items = ("MNIST.", "CIFAR-10.", "SVHN.")
    assert across("We evaluate on three datasets:", *items, attributes=listed) == [
        ("enumeration", "items(s-1)", "three")
    ]
    assert across("The two baselines are as follows:", *items, attributes=listed) == [
        ("enumeration", "items(s-1)", "two")
    ]
    assert across("We evaluate on three datasets:", *items) == []  # no list recorded: the lines were unclear
    assert across("We evaluate on three datasets.", *items, attributes=listed) == []  # nothing announced
    assert across("In Section 3 we list them:", *items, attributes=listed) == []  # a number, not a count


@pytest.mark.parametrize(
    "text",
    [
        "The three arms (38, 37 and 37 patients) were of similar size.",  # a breakdown by arm
        "Two baselines (ResNet and VGG) ran on two datasets (MNIST and SVHN).",  # which list does it count?
        "Three tasks: reading and writing, arithmetic, and drawing.",  # two items or three
        "Two tasks (a) reading and (b) writing were given in three blocks (morning and noon).",  # labels count
    ],
)
def test_a_list_items_might_count_otherwise_is_left_alone(text: str) -> None:
    assert "enumeration" not in {kind for kind, _, _ in across(text)}


def table(label: str, *rows: str) -> tuple[list[tuple[str, str]], dict[str, dict[str, object]]]:
    chunks = [(f"t-{index}", row) for index, row in enumerate(rows, 1)]
    attributes = {
        node: {"unit": "table-row", "table": {"kind": "table", "number": "1", "label": label}} for node, _ in chunks
    }
    return chunks, attributes


def test_a_count_of_a_table_s_rows_the_text_states() -> None:
    rows, attributes = table("tab:s", "row Clinic: North; Patients: 30", "row Clinic: South; Patients: 28")
    sentence = {"s-1": {**SECTION, "refs": [{"label": "tab:s", "kind": "table"}]}}
    found = candidates([("s-1", "Table~\\ref{tab:s} lists the 2 clinics."), *rows], {**attributes, **sentence})
    assert [
        (item["proposal"]["expression"], item["proposal"]["result"], item["proposal"]["cites"]) for item in found
    ] == [("rows(t-1)", "2", ["s-1", "t-1"])]
    totalled, attributes = table("tab:s", "row Arm: A; Patients: 30", "row Arm: Total; Patients: 58")
    assert candidates([("s-1", "Table~\\ref{tab:s} lists the 2 arms."), *totalled], {**attributes, **sentence}) == []
    headless, attributes = table("tab:s", "row Clinic; Patients", "row North; 30")  # its header read as a row
    assert candidates([("s-1", "Table~\\ref{tab:s} lists the 1 clinic."), *headless], {**attributes, **sentence}) == []


def test_a_sample_size_written_twice_is_compared_under_the_same_quantity_premise() -> None:
    found = candidates(
        [
            ("s-1", "In a trial of N = 120 outpatients, reminders helped."),
            ("s-2", "The sample comprised N = 112 adults."),
        ],
        {"s-1": SECTION, "s-2": SECTION},
    )
    (item,) = found
    assert item["proposal"] == {
        "type": "recompute-numbers",
        "target": "s-2",
        "cites": ["s-2", "s-1"],
        "expression": "120",
        "result": "112",
        "premises": ["the passages compared state the same quantity"],
    }


@pytest.mark.parametrize(
    "texts",
    [
        ("We randomised N = 120 outpatients.", "The analysed sample comprised N = 112 adults."),  # stages of a flow
        ("In Study 1, N = 120 adults took part.", "In Study 2, N = 112 adults took part."),  # two studies
        ("N = 120 adults took part.", "N = 112 adults answered.", "N = 100 adults returned."),  # three
        ("N = 120 adults took part.", "The groups differed, chi2(1, N = 112) = 4.20, p = .04."),  # a test's own N
    ],
)
def test_sample_sizes_that_may_differ_by_design_are_left_alone(texts: tuple[str, ...]) -> None:
    assert [kind for kind, _, _ in across(*texts)] == []


def test_grimmer_is_not_offered_for_a_mean_grim_fails() -> None:
    found = candidates([("s-1", "Ratings on a 5-point scale (M = 3.62, SD = 0.91, n = 38).")])
    assert [item["proposal"]["expression"] for item in found] == ["grim(3.62, 38)"]


def test_a_labelled_percentage_restated_from_the_abstract() -> None:
    abstract = {"unit": "sentence"}
    found = candidates(
        [
            ("s-1", "The classifier reached an accuracy of 93.2\\%."),
            ("s-2", "On held-out images, accuracy was 93.4\\%."),
        ],
        {"s-1": abstract, "s-2": SECTION},
    )
    assert [item["proposal"] for item in found] == [
        {
            "type": "recompute-numbers",
            "target": "s-2",
            "cites": ["s-2", "s-1"],
            "expression": "93.2%",
            "result": "93.4%",
            "premises": ["the passages compared state the same quantity"],
        }
    ]


@pytest.mark.parametrize(
    ("front", "body"),
    [
        ("Accuracy was 93.2%.", "On the validation split, accuracy was 90.1%."),  # another split
        ("Accuracy was 93.2%, against 90.1% for the baseline.", "Accuracy was 93.4%."),  # two percentages
        ("Accuracy was 93.2%.", "Accuracy was 93.4% in week 2."),  # a time
    ],
)
def test_labelled_percentages_that_may_differ_by_design_are_left_alone(front: str, body: str) -> None:
    assert candidates([("s-1", front), ("s-2", body)], {"s-1": {"unit": "sentence"}, "s-2": SECTION}) == []
    both_in_the_body = candidates(
        [("s-1", "Accuracy was 93.2%."), ("s-2", "Accuracy was 93.4%.")], {"s-1": SECTION, "s-2": SECTION}
    )
    assert both_in_the_body == []  # two results of the body: two runs, two models


def test_sample_sizes_counted_at_the_same_stage_are_compared() -> None:
    assert across("We randomised N = 120 adults.", "In all, we randomised N = 112 adults.") == [
        ("same-quantity", "120", "112")
    ]


@pytest.mark.parametrize(
    "texts",
    [
        (THRESHOLD, "With a Bonferroni correction, the effect was not significant, t(30) = 2.60."),  # another level
        (THRESHOLD, "The redshift was significant, z = 2.10."),  # a z writes no df: it may be any variable
        ("A power analysis required N = 120 adults.", "The sample comprised N = 112 adults."),  # planned
        ("Accuracy was 93.2%.", "The baseline's accuracy was 88.0%."),  # another system
    ],
)
def test_more_look_alikes_across_chunks_are_left_alone(texts: tuple[str, ...]) -> None:
    attributes = {"s-1": {"unit": "sentence"}} if texts[0].startswith("Accuracy") else {}
    assert across(*texts, attributes=attributes) == []


@pytest.mark.parametrize(
    "sentence",
    ["Table 2 shows the 5 best models.", "Table 2 lists the 3 parameters of each model."],
)
def test_a_count_of_part_of_a_table_is_left_alone(sentence: str) -> None:
    rows, attributes = table("tab:s", "row Model: A; Error: 3", "row Model: B; Error: 4")
    sentence_attributes = {"s-1": {**SECTION, "refs": [{"label": "tab:s", "kind": "table"}]}}
    assert candidates([("s-1", sentence), *rows], {**attributes, **sentence_attributes}) == []
