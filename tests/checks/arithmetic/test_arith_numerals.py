"""find_numerals and read_numeral: what a chunk's text contains, as exact decimals with their rounding."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_checks.arithmetic import Numeral, find_numerals, read_numeral
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers.limits import MAX_NUMERAL_DIGITS


def table(text: str) -> list[tuple[str, F, F]]:
    return [(numeral.written, numeral.value, numeral.half_unit) for numeral in find_numerals(text)]


# (text as credencegraph stores it, [(written, value, half_unit), ...] in order of first appearance)
EXAMPLES: list[tuple[str, list[tuple[str, F, F]]]] = [
    (r"$f_s=750$~Hz", [("750", F(750), F(1, 2))]),
    (
        r"$8 \cdot 10^{-3}$~mm",
        [
            ("8e-3", F(8, 1000), F(1, 2000)),
            ("8", F(8), F(1, 2)),
            ("10", F(10), F(1, 2)),
            ("-3", F(-3), F(1, 2)),
            ("1e-3", F(1, 1000), F(1, 2000)),
        ],
    ),
    (r"95\% of trials", [("95%", F(95, 100), F(1, 200)), ("95", F(95), F(1, 2))]),
    ("1,000 samples", [("1000", F(1000), F(1, 2))]),
    (r"$10\,000$ draws", [("10000", F(10000), F(1, 2))]),
    (r"\num{4096} steps", [("4096", F(4096), F(1, 2))]),
    (r"\SI{3.2}{\kilo\hertz}", [("3.2", F(32, 10), F(1, 20))]),
    ("\N{MINUS SIGN}0.3 and -4", [("-0.3", F(-3, 10), F(1, 20)), ("-4", F(-4), F(1, 2))]),
    (r"$H_0=67.4\pm0.5$", [("67.4", F(674, 10), F(1, 20)), ("0.5", F(1, 2), F(1, 20))]),
    ("2.5e-5", [("2.5e-5", F(25, 1_000_000), F(5, 10_000_000))]),
    (
        r"$N = 1.2 \times 10^{3}$",
        [
            ("1.2e3", F(1200), F(50)),
            ("1.2", F(12, 10), F(1, 20)),
            ("10", F(10), F(1, 2)),
            ("3", F(3), F(1, 2)),
            ("1e3", F(1000), F(500)),
        ],
    ),
    (
        "3 \N{MULTIPLICATION SIGN} 10^8 m/s",
        [
            ("3e8", F(3 * 10**8), F(5 * 10**7)),
            ("3", F(3), F(1, 2)),
            ("10", F(10), F(1, 2)),
            ("8", F(8), F(1, 2)),
            ("1e8", F(10**8), F(5 * 10**7)),
        ],
    ),
    (r"$10^{-3}$", [("1e-3", F(1, 1000), F(1, 2000)), ("10", F(10), F(1, 2)), ("-3", F(-3), F(1, 2))]),
    ("0.35 and 350", [("0.35", F(35, 100), F(1, 200)), ("350", F(350), F(1, 2))]),
    ("0.8%", [("0.8%", F(8, 1000), F(1, 2000)), ("0.8", F(8, 10), F(1, 20))]),
    ("1.2e3", [("1.2e3", F(1200), F(50))]),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES, ids=[text for text, _ in EXAMPLES])
def test_examples_of_the_issue(text: str, expected: list[tuple[str, F, F]]) -> None:
    assert table(text) == expected


@pytest.mark.parametrize(
    "text",
    ["v2", "$H_0$", "s-012", "$b_2$", "CIFAR-10", "ResNet-18 and COVID-19", "H2O", "version 1.2.3", r"\ref{fig:3}"],
)
def test_identifiers_and_names_are_not_numerals(text: str) -> None:
    assert find_numerals(text) == ()


def test_a_hyphen_after_a_letter_subtracts_inside_mathematics() -> None:
    assert [n.written for n in find_numerals("$T-1$ and $n - 2$")] == ["1", "2"]
    assert [n.written for n in find_numerals(r"\begin{equation} x_{T-1} = T-3 \end{equation}")] == ["1", "3"]


def test_binary_minus_between_numbers_is_not_a_sign() -> None:
    assert [n.written for n in find_numerals("pages 10-20, f(x)-1, [0]-7")] == ["10", "20", "1", "0", "7"]


def test_a_sign_after_a_brace_or_an_equals_sign_belongs_to_the_numeral() -> None:
    assert [n.written for n in find_numerals(r"$0.81^{+0.02}_{-0.03}$, $x=-3$")] == ["0.81", "0.02", "-0.03", "-3"]


def test_control_words_do_not_glue_digits() -> None:
    assert [n.written for n in find_numerals(r"$4.52\cdot10^{-5}$")][:2] == ["4.52e-5", "4.52"]
    assert [n.written for n in find_numerals(r"$\alpha2$ and $\pm0.5$")] == ["2", "0.5"]


def test_latex_spacing_inside_a_power_of_ten() -> None:
    assert find_numerals(r"$\rm RMSE = 16.3 \,\cdot\, 10^{-5}$")[0] == Numeral(
        "16.3e-5", F(163, 10**6), F(1, 2 * 10**6)
    )


def test_thousands_groups_need_exactly_three_digits() -> None:
    assert [n.written for n in find_numerals(r"$\{128, 64\}$ 0,100 1,50 1,234,567 1{,}000")] == [
        "128",
        "64",
        "0",
        "100",
        "1",
        "50",
        "1234567",
        "1000",
    ]


def test_siunitx_input_rules() -> None:
    text = r"\num{1 234,5} \SI{95}{\percent} \numrange{1}{10} \num{0.5 +- 0.1} \num{1.2e3} \qty{2d-3}{\metre}"
    assert [n.written for n in find_numerals(text)] == [
        "1234.5",
        "95%",
        "95",
        "1",
        "10",
        "0.5",
        "0.1",
        "1.2e3",
        "2e-3",
    ]


def test_each_numeral_once_in_order_of_first_appearance() -> None:
    assert [n.written for n in find_numerals("5 then 3 then 5.0 then 3")] == ["5", "3", "5.0"]


def test_trailing_zeros_keep_their_rounding_and_leading_zeros_go() -> None:
    assert table("0.50 and 007 and .5") == [
        ("0.50", F(1, 2), F(1, 200)),
        ("7", F(7), F(1, 2)),
        ("0.5", F(1, 2), F(1, 20)),
    ]


def test_non_ascii_digits_are_not_read() -> None:
    assert find_numerals("\N{ARABIC-INDIC DIGIT THREE} \N{FULLWIDTH DIGIT ONE}") == ()


def test_numerals_over_the_caps_are_not_read() -> None:
    long = "7" * (MAX_NUMERAL_DIGITS + 1)
    assert find_numerals(f"{long} and 12") == (Numeral("12", F(12), F(1, 2)),)
    assert [n.written for n in find_numerals("1e500 and 10^{-200}")] == ["10", "-200"]


def test_hostile_text_is_read_in_linear_time_without_huge_numbers() -> None:
    # Each piece once made the reader quadratic or built a huge number; none may (no timing asserted here:
    # a regression shows as a test that takes minutes).
    pieces = [
        "1" * 100_000,
        " $" * 1_000,
        r"\num{" * 20_000,
        r"\begin{equation}" * 20_000,
        r"\(" * 20_000,
        "e" + "9" * 5_000,
    ]
    assert find_numerals("".join(pieces)) == ()


def test_mathematics_delimiters() -> None:
    assert [n.written for n in find_numerals(r"\(T-1\) $$n-2$$ \[m-3\] \begin{align*} k-4 \end{align*}")] == [
        "1",
        "2",
        "3",
        "4",
    ]
    # An unclosed or escaped dollar opens no mathematics, so the hyphen joins a name.
    assert find_numerals("costs \\$5 for s-1") == (Numeral("5", F(5), F(1, 2)),)
    assert find_numerals("$ alone then s-1") == ()


def test_percent_with_space_and_with_a_power_of_ten() -> None:
    assert [n.written for n in find_numerals(r"12.5 \% and $1.2 \times 10^{1}\%$")][:3] == ["12.5%", "12.5", "1.2e1%"]


@pytest.mark.parametrize(
    ("text", "written", "value", "half_unit"),
    [
        ("350", "350", F(350), F(1, 2)),
        ("0.35", "0.35", F(35, 100), F(1, 200)),
        ("-4", "-4", F(-4), F(1, 2)),
        ("\N{MINUS SIGN}4", "-4", F(-4), F(1, 2)),
        ("+5", "5", F(5), F(1, 2)),
        ("0.8%", "0.8%", F(8, 1000), F(1, 2000)),
        ("1.2e3", "1.2e3", F(1200), F(50)),
        ("1.2E+03", "1.2e3", F(1200), F(50)),
        (" .5 ", "0.5", F(1, 2), F(1, 20)),
    ],
)
def test_read_numeral(text: str, written: str, value: F, half_unit: F) -> None:
    assert read_numeral(text) == Numeral(written, value, half_unit)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", Code.EXPRESSION_INVALID),
        ("3.5 kHz", Code.EXPRESSION_INVALID),
        ("one thousand and five", Code.EXPRESSION_INVALID),
        ("12-3", Code.EXPRESSION_INVALID),
        ("1e500", Code.EXPONENT_TOO_LARGE),
        ("1e" + "9" * 5000, Code.EXPRESSION_TOO_LARGE),
        ("9" * (MAX_NUMERAL_DIGITS + 1), Code.EXPRESSION_TOO_LARGE),
    ],
)
def test_read_numeral_refuses(text: str, code: Code) -> None:
    with pytest.raises(CgxError) as raised:
        read_numeral(text)
    assert raised.value.code == code


def test_numeral_json() -> None:
    assert read_numeral("0.8%").to_json() == {"half_unit": "1/2000", "value": "1/125", "written": "0.8%"}
