"""The one numeral reader: every written form of a number, read to its exact value (the table of
docs/numbers.md), with the unit written after it and the relation written before it."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import Occurrence, find_numerals, read_numeral, read_quantity, read_text, read_unit
from cgx_core.numbers.relations import HEDGE_PHRASES, hedge_key


def reported(text: str) -> list[tuple[str, F, str | None, str, str | None]]:
    """(written, value, unit, relation, hedge) of each reported numeral, in the order written."""
    return [
        (item.numeral.written, item.numeral.value, item.unit.text if item.unit else None, item.relation, item.hedge)
        for item in read_text(text)
        if item.reported
    ]


# (form, text as a chunk stores it, the first reported numeral: (written, exact value, half_unit)); a number word
# writes no digit to round, so it is exact (half_unit 0)
FORMS: list[tuple[str, str, tuple[str, F, F]]] = [
    ("times", r"$4.1\times10^{-3}$", ("4.1e-3", F(41, 10_000), F(1, 20_000))),
    ("cdot", r"$4.1 \cdot 10^{-3}$", ("4.1e-3", F(41, 10_000), F(1, 20_000))),
    ("times with $ between the parts", r"4.1$\times$10$^{-3}$", ("4.1e-3", F(41, 10_000), F(1, 20_000))),
    ("unicode times", "4.1 \N{MULTIPLICATION SIGN} 10^-3", ("4.1e-3", F(41, 10_000), F(1, 20_000))),
    ("power of ten, text mode", "10$^4$", ("1e4", F(10_000), F(5_000))),
    ("power of ten, braced", "$10^{4}$", ("1e4", F(10_000), F(5_000))),
    ("e notation", "2.7e-9", ("2.7e-9", F(27, 10**10), F(5, 10**11))),
    ("siunitx num", r"\num{4096}", ("4096", F(4096), F(1, 2))),
    ("siunitx num with exponent", r"\num{1.2e3}", ("1.2e3", F(1200), F(50))),
    ("siunitx num with grouping", r"\num{12 345,6}", ("12345.6", F(123456, 10), F(1, 20))),
    ("siunitx SI", r"\SI{5}{\hour}", ("5", F(5), F(1, 2))),
    ("siunitx qty", r"\qty{2}{\day}", ("2", F(2), F(1, 2))),
    ("siunitx percent", r"\SI{95}{\percent}", ("95%", F(19, 20), F(1, 200))),
    ("thousands comma", "12,000", ("12000", F(12_000), F(1, 2))),
    ("thousands thin space", r"12\,000", ("12000", F(12_000), F(1, 2))),
    ("thousands braced comma", "12{,}000", ("12000", F(12_000), F(1, 2))),
    ("percent inside math, sign outside", r"$<2$\%", ("2%", F(1, 50), F(1, 200))),
    ("escaped percent", r"7\%", ("7%", F(7, 100), F(1, 200))),
    ("percent after a space", "7 %", ("7%", F(7, 100), F(1, 200))),
    ("the word percent", "7 percent", ("7%", F(7, 100), F(1, 200))),
    ("per cent", "7 per cent", ("7%", F(7, 100), F(1, 200))),
    ("hyphen minus", "-4", ("-4", F(-4), F(1, 2))),
    ("unicode minus", "\N{MINUS SIGN}4", ("-4", F(-4), F(1, 2))),
    ("plus sign", "+4", ("4", F(4), F(1, 2))),
    ("number word", "eleven runs", ("11", F(11), F(0))),
    ("number word, capitalised", "Four seeds", ("4", F(4), F(0))),
    ("compound number word", "twenty-four hours", ("24", F(24), F(0))),
    ("scaled number word", "two hundred samples", ("200", F(200), F(0))),
    ("half", "half of the data", ("0.5", F(1, 2), F(0))),
    ("thousand suffix", "50k images", ("50e3", F(50_000), F(500))),
    ("million suffix", "1.2M images", ("1.2e6", F(1_200_000), F(50_000))),
    ("million word", "12 million images", ("12e6", F(12_000_000), F(500_000))),
    ("leading dot", ".5", ("0.5", F(1, 2), F(1, 20))),
    ("trailing zeros", "0.50", ("0.50", F(1, 2), F(1, 200))),
]


# How an agent copies the number of a form whose text has more around it (a relation, a word after it).
AGENT_FORMS = {
    "percent inside math, sign outside": r"2\%",
    "number word": "eleven",
    "number word, capitalised": "Four",
    "compound number word": "twenty-four",
    "scaled number word": "two hundred",
    "half": "half",
    "thousand suffix": "50k",
    "million suffix": "1.2M",
    "million word": "12 million",
}


@pytest.mark.parametrize(("form", "text", "expected"), FORMS, ids=[form for form, _, _ in FORMS])
def test_each_written_form_is_read_to_its_exact_value(form: str, text: str, expected: tuple[str, F, F]) -> None:
    first = next(item.numeral for item in read_text(text) if item.reported)
    assert (first.written, first.value, first.half_unit) == expected
    # An agent may write the number the same way, and gets the same numeral.
    written = AGENT_FORMS.get(form, text)
    assert read_quantity(written)[0] == first


def test_two_of_the_issue_forms_in_one_sentence() -> None:
    assert reported(r"from 1 to 10$^k$ and then 1 to 10$^4$") == [
        ("1", F(1), None, "=", None),
        ("10", F(10), None, "=", None),
        ("1", F(1), None, "=", None),
        ("1e4", F(10_000), None, "=", None),
    ]


def test_a_range_up_to_a_power_of_ten_is_not_read_as_ten_and_the_exponent() -> None:
    text = "we vary the step from 1 to 10$^4$"
    assert [item.numeral.written for item in read_text(text) if item.reported] == ["1", "1e4"]
    # The parts stay numerals of the text (an operand may use them) but are never reported results.
    parts = [item.numeral.written for item in read_text(text) if not item.reported]
    assert parts == ["10", "4"]


def test_a_percent_with_a_relation_carries_it() -> None:
    assert reported(r"an error of $<2$\% and 7\%")[0] == ("2%", F(1, 50), None, "<", None)
    assert reported(r"an error of $<2$\% and 7\%")[2] == ("7%", F(7, 100), None, "=", None)


@pytest.mark.parametrize(
    ("text", "relation", "hedge"),
    [
        ("differ by less than 5%", "<", None),
        ("fewer than 5 runs", "<", None),
        (r"$x \leq 5$", "<=", None),
        ("at most 5", "<=", None),
        ("up to 5", "<=", None),
        ("within 5%", "<=", None),
        ("more than 5", ">", None),
        (r"$>5$", ">", None),
        ("at least 5", ">=", None),
        (r"$\geq 5$", ">=", None),
        ("approximately 5", "~", "approximately"),
        ("About 5", "~", "about"),
        ("roughly 5", "~", "roughly"),
        ("c. 5", "~", "c."),
        ("circa 5", "~", "circa"),
        (r"$\approx 5$", "~", "\N{ALMOST EQUAL TO}"),
        (r"$\sim$5", "~", "~"),
        ("& ~5 &", "=", None),  # an ASCII `~` is LaTeX's tie, printed as a space: no tilde to read
        ("~5", "=", None),
        (r"& {\textasciitilde}5 &", "~", "~"),  # a printed tilde
        (r"\textasciitilde 5", "~", "~"),
        ("takes approximately~5 hours", "~", "approximately"),
        ("bandwidth~5", "=", None),  # LaTeX's tie between a word and a number is a space
        ("5", "=", None),
        ("x = 5", "=", None),
    ],
)
def test_the_relation_written_before_a_numeral(text: str, relation: str, hedge: str | None) -> None:
    item = next(item for item in read_text(text) if item.numeral.written == "5")
    assert (item.relation, item.hedge) == (relation, hedge)


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("90 minutes", "minute"),
        ("20 h", "hour"),
        ("1 day", "day"),
        (r"4.1\times10^{-3} m/s", "meter/second"),
        (r"$375$~Hz", "hertz"),
        (r"$8 \cdot 10^{-3}$~mm", "millimeter"),
        (r"$5\,\mathrm{m\,s^{-1}}$", "meter/second"),
        (r"$5\,\mu$m", "micrometer"),
        (r"\SI{2}{\day}", "day"),
        (r"\qty{4.1e-3}{\metre\per\second}", "meter/second"),
        (r"\SI{3}{\kilo\metre\per\hour}", "kilometer/hour"),
        (r"\SI{9.81}{\metre\per\second\squared}", "meter/second^2"),
        (r"\SI{3}{\giga\byte}", "gigabyte"),
        ("16 GB", "gigabyte"),
        ("5 kHz", "kilohertz"),
        ("3 kilometres", "kilometer"),
        ("5 ms", "millisecond"),
        ("300 K", "kelvin"),
        ("750 Hz sampling", "hertz"),
        ("3 in parallel", None),  # "in" is not read as inches
        ("12 runs", None),
        ("5 at once", None),
        ("3 Fig", None),
        ("25 \N{DEGREE SIGN}C", None),  # an offset scale is never read
    ],
)
def test_the_unit_written_after_a_numeral(text: str, unit: str | None) -> None:
    first = next(item for item in read_text(text) if item.reported)
    assert (first.unit.text if first.unit else None) == unit


def test_a_unit_is_read_only_up_to_what_is_a_unit() -> None:
    found = read_unit("Hz / 2")
    assert found is not None and found[0].text == "hertz" and found[1] == 2
    assert read_unit("m / s then") is not None and read_unit("m / s then")[0].text == "meter/second"  # type: ignore[index]
    assert read_unit("sampling") is None


def test_identifiers_and_names_still_hold_no_numerals() -> None:
    for text in ["v2", "$H_0$", "s-012", "CIFAR-10", "ResNet-18", "H2O", "version 1.2.3", r"\ref{fig:3}", "someone"]:
        assert find_numerals(text) == (), text


def test_figure_panels_are_not_billions() -> None:
    assert [item.numeral.written for item in read_text("Figure 3B") if item.reported] == ["3"]


def test_every_hedge_phrase_is_recognised_before_a_numeral() -> None:
    for phrase in HEDGE_PHRASES:
        written = {"\N{ALMOST EQUAL TO}": r"$\approx", "\N{ASYMPTOTICALLY EQUAL TO}": r"$\simeq", "~": r"$\sim"}
        text = f"{written.get(phrase, phrase)} 12" + ("$" if phrase in written else "")
        item = next(item for item in read_text(text) if item.numeral.written == "12")
        assert (item.relation, item.hedge) == ("~", hedge_key(phrase)), text


@pytest.mark.parametrize(
    ("text", "written", "unit"),
    [
        ("2 days", "2", "day"),
        ("4.1e-3 m/s", "4.1e-3", "meter/second"),
        ("12,000", "12000", None),
        ("eleven", "11", None),
        ("30%", "30%", None),
        (r"4.1 \times 10^{-3}", "4.1e-3", None),
        (r"\num{1.2e3}", "1.2e3", None),
        (r"\SI{5}{\hour}", "5", "hour"),
        ("1.2E+03", "1.2e3", None),
    ],
)
def test_what_an_agent_writes_reads_with_the_same_rules(text: str, written: str, unit: str | None) -> None:
    numeral, found = read_quantity(text)
    assert numeral.written == written
    assert (found.text if found else None) == unit


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", Code.EXPRESSION_INVALID),
        ("many", Code.EXPRESSION_INVALID),
        ("2 days ago", Code.EXPRESSION_INVALID),
        ("2 furlongs", Code.EXPRESSION_INVALID),
        ("12-3", Code.EXPRESSION_INVALID),
        ("30% m", Code.EXPRESSION_INVALID),
        ("1e500", Code.EXPONENT_TOO_LARGE),
        ("9" * 61, Code.EXPRESSION_TOO_LARGE),
        ("1" * 300, Code.EXPRESSION_TOO_LARGE),
    ],
)
def test_what_is_not_one_numeral_is_refused(text: str, code: Code) -> None:
    with pytest.raises(CgxError) as raised:
        read_quantity(text)
    assert raised.value.code == code


def test_read_numeral_refuses_a_unit() -> None:
    with pytest.raises(CgxError) as raised:
        read_numeral("3.5 kHz")
    assert raised.value.code == Code.EXPRESSION_INVALID
    assert "unit" in raised.value.message


def test_occurrences_keep_every_place_a_numeral_is_written() -> None:
    items = read_text("5 runs, then at least 5 more")
    assert [(item.numeral.written, item.relation) for item in items] == [("5", "="), ("5", ">=")]
    assert all(isinstance(item, Occurrence) for item in items)


def test_hostile_text_is_read_in_bounded_time() -> None:
    # Each piece once made a reader quadratic or built a huge number; none may (no timing asserted: a
    # regression shows as a test that takes minutes).
    pieces = ["9" * 50_000, "$^" * 5_000, r"\qty{" * 10_000, "approximately " * 5_000, "twenty-" * 5_000]
    for piece in pieces:
        read_text(piece + " 5 m")


@pytest.mark.parametrize(
    ("text", "numerals"),
    [
        ("run for 10 000 time steps", ["10000"]),  # hastings
        ("between 9000 and 10 000, then", ["9000", "10000"]),
        ("between 10 000 and 20 000", ["10000", "20000"]),
        ("1 000 000 samples", ["1000000"]),
        ("250 000 steps", ["250000"]),
        ("10~000 steps", ["10000"]),
        ("10 000.5 s", ["10000.5"]),
        (r"10\ 000 and 12{\ }345", ["10000", "12345"]),
        ("12\u2009345 and 12\u202f345", ["12345", "12345"]),
        ("$12~345$ and $10 000$", ["12345", "10000"]),  # one formula: a tie groups, a space prints nothing
    ],
)
def test_a_space_or_tie_joins_the_groups_of_one_numeral(text: str, numerals: list[str]) -> None:
    assert [item.numeral.written for item in read_text(text) if item.reported] == numerals


@pytest.mark.parametrize(
    ("text", "numerals"),
    [
        ("sizes 64 128 256", ["64", "128", "256"]),  # a list: no later group starts with 0
        ("sizes 64 128", ["64", "128"]),
        ("64, 128 256", ["64", "128", "256"]),
        ("12 345 images", ["12", "345"]),  # as a list of sizes would write it: missed rather than misread
        ("Table 2 300 samples", ["2", "300"]),  # four digits
        ("Table~2 300 samples", ["2", "300"]),
        ("1 000", ["1", "0"]),
        ("In 2019 100 000 people", ["2019", "100", "0"]),  # a year before the groups: no one grouping
        ("on 5, 10 000 and 20 runs", ["5", "10", "0", "20"]),  # a digit group beside it across a comma
        ("10 000, 20 and 30", ["10", "0", "20", "30"]),
        ("10 000 2D images", ["10", "0", "2"]),
        ("0.5 100 000", ["0.5", "100", "0"]),
        ("$64, 128~256$", ["64", "128", "256"]),
        ("0 1 2 3 5 7 10 50 100 101", ["0", "1", "2", "3", "5", "7", "10", "50", "100", "101"]),
    ],
)
def test_a_space_or_tie_that_may_separate_a_list_leaves_the_numerals_apart(text: str, numerals: list[str]) -> None:
    assert [item.numeral.written for item in read_text(text) if item.reported] == numerals


def test_an_agent_writes_a_spaced_numeral_by_the_same_rules() -> None:
    assert read_quantity("10 000")[0].written == "10000"
    assert read_quantity("10 000 s")[0].written == "10000"
    with pytest.raises(CgxError):
        read_quantity("12 345")  # 12, then what is no unit
