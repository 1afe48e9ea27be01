"""The reader of what an agent writes (a reported result, a grammar's numeral token), pinned at its edges: the
caps at exactly their limit and one past it, the codes and the role each refusal names, the forms an agent
copies from LaTeX (`12{,}000`), and number words read exact. A mutation run of `numbers/reader.py`
(benchmarks/README.md, "Mutation scores") found these edges unpinned."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_core.codes import Code
from cgx_core.numbers import find_numerals, read_numeral, read_quantity
from cgx_core.numbers.limits import MAX_EXPONENT, MAX_NUMERAL_DIGITS, MAX_RESULT_CHARS
from cgx_core.numbers.reader import NumeralError, read_token

# (what the agent writes, written form, exact value, half_unit, unit's text or None)
READ: list[tuple[str, str, F, F, str | None]] = [
    ("12{,}000", "12000", F(12_000), F(1, 2), None),
    ("$12{,}000$", "12000", F(12_000), F(1, 2), None),
    ("-4", "-4", F(-4), F(1, 2), None),
    ("0.8%", "0.8%", F(8, 1000), F(5, 10_000), None),
    ("eleven", "11", F(11), F(0), None),
    ("half", "0.5", F(1, 2), F(0), None),
    ("2 days", "2", F(2), F(1, 2), "days"),
    ("4.1e-3 m/s", "4.1e-3", F(41, 10_000), F(1, 20_000), "m/s"),
]


@pytest.mark.parametrize(("text", "written", "value", "half_unit", "unit"), READ, ids=[row[0] for row in READ])
def test_an_agents_numeral_reads_to_its_exact_value_rounding_and_unit(
    text: str, written: str, value: F, half_unit: F, unit: str | None
) -> None:
    numeral, read_unit = read_quantity(text)
    assert (numeral.written, numeral.value, numeral.half_unit) == (written, value, half_unit)
    assert (read_unit.written if read_unit else None) == unit


def _refusal(text: str, role: str = "operand") -> NumeralError:
    with pytest.raises(NumeralError) as caught:
        read_quantity(text, role)
    return caught.value


# (what the agent writes, the code, words the message must hold)
REFUSED: list[tuple[str, Code, tuple[str, ...]]] = [
    ("9" * (MAX_NUMERAL_DIGITS + 1), Code.EXPRESSION_TOO_LARGE, (f"{MAX_NUMERAL_DIGITS + 1} digits",)),
    ("1." + "5" * MAX_NUMERAL_DIGITS, Code.EXPRESSION_TOO_LARGE, (f"{MAX_NUMERAL_DIGITS + 1} digits",)),
    (f"1e{MAX_EXPONENT + 1}", Code.EXPONENT_TOO_LARGE, (f"above {MAX_EXPONENT}",)),
    (f"$10^{{-{MAX_EXPONENT + 1}}}$", Code.EXPONENT_TOO_LARGE, (f"above {MAX_EXPONENT}",)),
    (f"4.1 \\times 10^{{{MAX_EXPONENT + 1}}}", Code.EXPONENT_TOO_LARGE, (f"above {MAX_EXPONENT}",)),
    (f"4.1 \\times 10^{MAX_EXPONENT + 1}", Code.EXPONENT_TOO_LARGE, (f"above {MAX_EXPONENT}",)),
    (f"10^{MAX_EXPONENT + 1}", Code.EXPONENT_TOO_LARGE, (f"above {MAX_EXPONENT}",)),
    ("1" * (MAX_RESULT_CHARS + 1), Code.EXPRESSION_TOO_LARGE, (f"{MAX_RESULT_CHARS + 1} characters",)),
    ("twelve-ish", Code.EXPRESSION_INVALID, ("'twelve-ish'",)),
    ("about", Code.EXPRESSION_INVALID, ("is not one numeral", "'about'")),
    ("5 furlongs of rain", Code.EXPRESSION_INVALID, ("'furlongs of rain'", "does not read as a unit")),
    ("5% kg", Code.EXPRESSION_INVALID, ("ends with 'kg'", "does not read as a unit")),
]


@pytest.mark.parametrize(("text", "code", "words"), REFUSED, ids=[row[0][:20].replace("\\", "") for row in REFUSED])
def test_a_numeral_past_a_cap_or_not_one_numeral_is_refused_with_its_code_naming_the_role(
    text: str, code: Code, words: tuple[str, ...]
) -> None:
    refusal = _refusal(text, role="operand")
    assert refusal.code == code
    assert str(refusal).startswith("the operand "), str(refusal)
    for word in words:
        assert word in str(refusal)


AT_THE_CAPS: list[tuple[str, F]] = [
    ("9" * MAX_NUMERAL_DIGITS, F(10) ** MAX_NUMERAL_DIGITS - 1),
    (f"1e{MAX_EXPONENT}", F(10) ** MAX_EXPONENT),
    (f"$10^{{-{MAX_EXPONENT}}}$", F(1, 10**MAX_EXPONENT)),
    ("5" + " " * (MAX_RESULT_CHARS - 1), F(5)),
]


@pytest.mark.parametrize(("text", "value"), AT_THE_CAPS, ids=["digits", "exponent", "negative power", "characters"])
def test_a_numeral_at_exactly_a_cap_is_read(text: str, value: F) -> None:
    assert read_quantity(text)[0].value == value


def test_the_default_role_is_the_result_and_a_unit_on_a_bare_numeral_is_refused_naming_it() -> None:
    with pytest.raises(NumeralError) as caught:
        read_quantity("about")
    assert str(caught.value).startswith("the result ")
    with pytest.raises(NumeralError) as caught:
        read_numeral("2 days", "reported value")
    assert caught.value.code == Code.EXPRESSION_INVALID
    assert str(caught.value).startswith("the reported value '2 days' has a unit (days)")
    assert read_numeral("2").value == 2


# (token, keyword arguments, written, exact value)
TOKENS: list[tuple[str, dict[str, object], str, F]] = [
    ("350", {}, "350", F(350)),
    ("6.25", {}, "6.25", F(625, 100)),
    ("1.2e3", {}, "1.2e3", F(1200)),
    ("1.2E3", {}, "1.2e3", F(1200)),
    ("50", {"exponent": 3}, "50e3", F(50_000)),
    ("12", {"percent": True}, "12%", F(12, 100)),
    (f"1e{MAX_EXPONENT}", {}, f"1e{MAX_EXPONENT}", F(10) ** MAX_EXPONENT),
    ("9" * MAX_NUMERAL_DIGITS, {}, "9" * MAX_NUMERAL_DIGITS, F(10) ** MAX_NUMERAL_DIGITS - 1),
]


@pytest.mark.parametrize(("token", "options", "written", "value"), TOKENS, ids=[row[0][:12] for row in TOKENS])
def test_a_lexed_token_reads_as_the_reader_writes_it(
    token: str, options: dict[str, object], written: str, value: F
) -> None:
    numeral = read_token(token, 4, **options)  # type: ignore[arg-type]
    assert (numeral.written, numeral.value) == (written, value)


def test_a_lexed_token_past_its_caps_is_refused_with_the_callers_code_and_its_column() -> None:
    with pytest.raises(NumeralError) as caught:
        read_token(f"1e{MAX_EXPONENT + 1}", 7)
    assert caught.value.code == Code.EXPONENT_TOO_LARGE
    assert f"at column 7 has a power of ten above {MAX_EXPONENT}" in str(caught.value)
    with pytest.raises(NumeralError) as caught:
        read_token("1e6", 3, max_exponent=5, exponent_code=Code.EXPRESSION_TOO_LARGE)
    assert caught.value.code == Code.EXPRESSION_TOO_LARGE
    assert "above 5" in str(caught.value)
    assert read_token("1e5", 3, max_exponent=5).value == 10**5
    for token, digits in (
        ("9" * (MAX_NUMERAL_DIGITS + 1), MAX_NUMERAL_DIGITS + 1),
        ("1." + "2" * MAX_NUMERAL_DIGITS, MAX_NUMERAL_DIGITS + 1),
    ):
        with pytest.raises(NumeralError) as caught:
            read_token(token, 2)
        assert caught.value.code == Code.EXPRESSION_TOO_LARGE
        assert f"at column 2 has {digits} digits" in str(caught.value)


def test_an_iso_date_in_a_text_is_one_date_not_three_numerals() -> None:
    assert [numeral.written for numeral in find_numerals("On 2019-03-04 we ran 5 trials of 2019 steps.")] == [
        "5",
        "2019",
    ]
