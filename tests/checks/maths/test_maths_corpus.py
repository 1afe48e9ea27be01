"""The soundness corpus (tests/checks/maths/corpus): rederive-maths, with its numeric fallback, never
fails a true identity and never passes a false one. An `error` is allowed (it moves no credence); its
rate is the benchmark's (benchmarks/bench_corpus.py).

Each identity is decided as run_checks decides it, in the maths worker within the check's own CPU-time
budgets (`corpus.verdict`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

import corpus

TRUE = corpus.load_true()
FALSE = corpus.load_false()


@pytest.fixture(scope="module")
def checker() -> Iterator[SymbolicDecider]:
    """A decider with the check's own budgets (not the maths suite's shorter one)."""
    with SymbolicDecider() as shared:
        yield shared


def test_the_corpus_is_large_enough_and_each_mutant_is_one_of_its_source() -> None:
    assert len(TRUE) >= 300 and len(FALSE) >= 300
    by_line = {identity.line: identity for identity in TRUE}
    for mutant in FALSE:
        source = by_line[mutant.line]
        assert mutant in list(corpus.mutants(source)), mutant
    assert {mutant.change for mutant in FALSE} == set(corpus.OPERATORS)


def test_the_mutants_are_generated_deterministically() -> None:
    first = [list(corpus.mutants(identity))[:3] for identity in TRUE[:40]]
    assert first == [list(corpus.mutants(identity))[:3] for identity in TRUE[:40]]


def test_a_mutant_no_certificate_shows_false_is_left_out(checker: SymbolicDecider) -> None:
    # A distribution is 0 at every drawn point: DiracDelta(3*x) cannot be shown unequal to DiracDelta(x)/2.
    false_distribution = corpus.Identity(0, "", {"x": ["real"]}, "DiracDelta(x)/2", "DiracDelta(3*x)")
    assert not corpus.certified_false(false_distribution, checker.worker)
    assert corpus.certified_false(corpus.Identity(0, "", {"x": ["real"]}, "sin(x)^2", "1 + cos(x)^2"), checker.worker)


SHARDS = 4
"""The two long walks are cut in shards, so that a parallel run (pytest-xdist) shares them between its workers."""


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_true_identity_fails(checker: SymbolicDecider, shard: int) -> None:
    wrong = []
    for identity in TRUE[shard::SHARDS]:
        result, detail = corpus.verdict(identity, checker)
        if result == "failed":
            wrong.append(f"line {identity.line} ({identity.source}): {identity.lhs} = {identity.rhs}: {detail}")
    assert wrong == []


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_false_identity_passes(checker: SymbolicDecider, shard: int) -> None:
    wrong = []
    for identity in FALSE[shard::SHARDS]:
        result, detail = corpus.verdict(identity, checker)
        if result == "passed":
            wrong.append(
                f"mutant of line {identity.line} ({identity.change}): {identity.lhs} = {identity.rhs}: {detail}"
            )
    assert wrong == []
