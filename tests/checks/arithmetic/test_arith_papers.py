"""recompute-numbers on real papers: chunk text from credencegraph's own LaTeX reader.

The papers live in tests/papers (support.PAPERS), each with its licence and source.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from credencegraph.ingest.latex import read_latex

from cgx_checks.arithmetic import evaluate, find_numerals, parse_expression, read_text, recompute
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.errors import CgxError
from support import PAPERS

DYNONET = "dynonet-paper/doc/paper/ms.tex"
HASTINGS = "hastings-powell-replication/article/article.tex"
MLRC = "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/main.tex"


@functools.cache
def _chunk_texts(main: str) -> tuple[str, ...]:
    path = PAPERS / main
    return tuple(chunk.text for chunk in read_latex(path))


def chunk(main: str, fragment: str) -> str:
    """The text of the one chunk of a paper that contains `fragment`."""
    found = [text for text in _chunk_texts(main) if fragment in text]
    assert len(found) == 1, f"{len(found)} chunks of {main} contain {fragment!r}"
    return found[0]


def refusal(expression: str, result: str, texts: list[str]) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts)
    assert raised.value.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    return raised.value


# -- dynonet: sampling at 750 Hz, noise bandwidth 375 Hz ----------------------------------------------------


def test_dynonet_numerals() -> None:
    sampling = chunk(DYNONET, "f_s=750")
    noise = chunk(DYNONET, "bandwidth $375$")
    rmse = chunk(DYNONET, r"RMSE of $4.52\cdot10^{-5}$")
    assert [n.written for n in find_numerals(sampling)] == ["750"]
    assert [n.written for n in find_numerals(noise)] == ["375", "8e-3", "8", "10", "-3", "1e-3"]
    assert [n.written for n in find_numerals(rmse)][:4] == ["93.2%", "93.2", "4.52e-5", "4.52"]
    assert find_numerals(rmse)[2].value == Fraction(452, 10**7)


def test_dynonet_half_the_sampling_frequency_needs_a_chunk_that_writes_2() -> None:
    sampling = chunk(DYNONET, "f_s=750")
    noise = chunk(DYNONET, "bandwidth $375$")
    error = refusal("750 / 2", "375", [sampling, noise])
    assert error.message.startswith("the numeral 2 of the expression is not in the cited chunks' text")
    assert error.message.endswith("the cited chunks contain 750, 375, 8e-3, 8, 10, -3, 1e-3")
    # The learning-rate sentence writes 2 (in 2 \cdot 10^{-3}); citing it too makes the check runnable.
    learning_rate = chunk(DYNONET, r"\lambda=2\cdot 10^{-3}")
    check = recompute("750 / 2", "375", [sampling, noise, learning_rate])
    assert check.outcome == "passed"
    assert check.detail == "750 / 2 = 375, reported 375 +- 0.5: passed"


def test_dynonet_rmse_ratio_is_exact() -> None:
    rmse = chunk(DYNONET, r"RMSE of $4.52\cdot10^{-5}$")
    nfir = chunk(DYNONET, r"16.3 \,\cdot\, 10^{-5}")
    check = recompute("16.3e-5 / 4.52e-5", "4.52e-5", [rmse, nfir])
    assert check.value == Fraction(1630, 452)
    assert check.outcome == "failed"


# -- hastings-powell: b1 from 2.2 to 6.2 in steps of 0.01 --------------------------------------------------


def test_hastings_powell_steps_evaluate_to_exactly_401() -> None:
    sentence = chunk(HASTINGS, "from 2.2 to 6.2 in steps of 0.01")
    assert [n.written for n in find_numerals(sentence)] == ["2.2", "6.2", "0.01"]  # b_1 is a name
    assert evaluate(parse_expression("(6.2 - 2.2) / 0.01 + 1")) == 401
    # The paper never writes the count, nor the 1 the count needs: the check cannot be run on this chunk.
    error = refusal("(6.2 - 2.2) / 0.01 + 1", "401", [sentence])
    assert error.message == (
        "the numeral 1 of the expression is not in the cited chunks' text (compared by exact value); "
        "the result 401 is not written in the cited chunks' text (compared as written, since its digits set "
        "the rounding); the cited chunks contain 2.2, 6.2, 0.01"
    )


def test_hastings_powell_ten_thousand_written_with_a_space_is_one_numeral() -> None:
    # "between 0 and 10 000, then kept the last 1000 ... between 9000 and 10 000": 10 000 - 9000 is the 1000 kept.
    sentence = chunk(HASTINGS, "between 9000 and 10 000")
    assert [n.written for n in find_numerals(sentence)][:4] == ["1", "0", "10000", "1000"]
    assert recompute("10000 - 9000", "1000", [sentence]).outcome == "passed"
    assert recompute("10000 / 9000", "1000", [sentence]).outcome == "failed"


# -- mlrc: 3 learning rates x 4 batch sizes ----------------------------------------------------------------


def test_mlrc_grid_numerals() -> None:
    grid = chunk(MLRC, r"$\{0.1, 0.01, 0.001\}$")
    assert [n.written for n in find_numerals(grid)] == ["0.1", "0.01", "0.001", "128", "64", "32", "16"]
    half = chunk(MLRC, r"over 50\% of the CIFAR-10 dataset")
    assert [n.written for n in find_numerals(half)] == ["50%", "50"]  # CIFAR-10 is a name


def test_mlrc_three_times_four_is_not_written_so_it_is_refused() -> None:
    grid = chunk(MLRC, r"$\{0.1, 0.01, 0.001\}$")
    error = refusal("3 * 4", "12", [grid])
    assert error.message.startswith("the numerals 3, 4 of the expression are not in the cited chunks' text")
    assert "the result 12 is not written" in error.message
    assert error.message.endswith("the cited chunks contain 0.1, 0.01, 0.001, 128, 64, 32, 16")


def test_mlrc_checks_on_the_grid_values() -> None:
    grid = chunk(MLRC, r"$\{0.1, 0.01, 0.001\}$")
    assert recompute("128 / 64 * 16", "32", [grid]).outcome == "passed"
    assert recompute("0.1 * 0.1", "0.01", [grid]).outcome == "passed"
    wrong = recompute("0.1 * 0.01", "0.01", [grid])
    assert wrong.outcome == "failed"
    assert wrong.detail == "0.1 * 0.01 = 0.001, reported 0.01 +- 0.005: failed"
    error = refusal("128 * 0.1", "12.8", [grid])
    assert error.message.startswith("the result 12.8 is not written")


# -- units, relations and table rows on the real papers ------------------------------------------------------

CGN_RESULTS = "mlrc-cgn-repro/2021/bagad2022reproducibility/openreview/sections/results.tex"
CGN_METHODOLOGY = "mlrc-cgn-repro/2021/bagad2022reproducibility/openreview/sections/methodology.tex"


def test_dynonet_half_the_sampling_frequency_with_units() -> None:
    sampling = chunk(DYNONET, "f_s=750")
    noise = chunk(DYNONET, "bandwidth $375$")
    learning_rate = chunk(DYNONET, r"\lambda=2\cdot 10^{-3}")
    check = recompute("750 Hz / 2", "375 Hz", [sampling, noise, learning_rate])
    assert (check.outcome, check.unit) == ("passed", "hertz")
    assert check.detail == "750 Hz / 2 = 375 hertz, reported 375 hertz +- 0.5: passed"
    in_khz = recompute("750 Hz / 2", "375 Hz", [sampling, noise, learning_rate])
    assert in_khz.value == 375


def test_dynonet_rmse_ratio_with_its_units() -> None:
    rmse = chunk(DYNONET, r"RMSE of $4.52\cdot10^{-5}$")
    nfir = chunk(DYNONET, r"16.3 \,\cdot\, 10^{-5}")
    occurrences = [item for item in read_text(rmse) if item.numeral.written == "4.52e-5"]
    assert occurrences[0].unit is not None and occurrences[0].unit.text == "millimeter"
    check = recompute("16.3e-5 mm / 4.52e-5 mm", "4.52e-5", [rmse, nfir])
    assert check.outcome == "failed"  # a ratio is not the RMSE itself: the value is 3.6..., not 4.52e-5


def _table_row(path: str, label: str) -> str:
    """A table row of a paper's source as the tables engineer's row chunks keep it: its cells verbatim."""
    source = PAPERS / path
    [line] = [line for line in source.read_text(encoding="utf-8").splitlines() if label in line and "&" in line]
    return line


def test_cgn_dataset_table_totals_in_thousands_and_millions() -> None:
    mnist = _table_row(CGN_METHODOLOGY, "& C-MNIST")
    assert recompute("50k + 10k", "60k", [mnist]).outcome == "passed"
    imagenet = _table_row(CGN_METHODOLOGY, "& IN-1k")
    # 1M train + 100k test is 1.1M, while the row's total says 1.2M (+- 0.05M): a reader's catch.
    check = recompute("1M + 100k", "1.2M", [imagenet])
    assert (check.outcome, check.value) == ("failed", 1_100_000)


def test_cgn_approximate_counts_are_hedged_by_a_printed_tilde_not_by_a_tie() -> None:
    # IN-mini's row writes `& ~35k & ~4k & ~39k &`: LaTeX prints each `~` as a space, so the printed row states
    # 35k, 4k and 39k exactly (a hedge would have widened 39k to +- 10%). IN-9's `$\sim$45k` prints a tilde.
    mini = _table_row(CGN_METHODOLOGY, "& IN-mini")
    check = recompute("35k + 4k", "39k", [mini], tolerances={"~": Fraction(1, 10)})
    assert (check.outcome, check.relation, check.hedge) == ("passed", "=", None)
    assert recompute("35k + 4k + 1000", "39k", [mini], tolerances={"~": Fraction(1, 10)}).outcome == "failed"  # 40k
    nine = _table_row(CGN_METHODOLOGY, "& IN-9 variants")
    check = recompute("45k + 4k", "50k", [nine], tolerances={"~": Fraction(1, 10)})
    assert (check.outcome, check.relation) == ("passed", "~")


def test_cgn_training_time_relations() -> None:
    def first(fragment: str) -> tuple[str, str, str | None]:
        item = next(item for item in read_text(chunk(CGN_RESULTS, fragment)) if item.reported)
        return item.numeral.written, item.relation, item.unit.text if item.unit else None

    assert first("from scratch within 12 hours") == ("12", "<=", "hour")
    assert first("training time exceeded 200 hours") == ("200", ">", "hour")
    assert first("decrease the training time to approximately 20 hours") == ("20", "~", "hour")
