"""The dimensions corpus (tests/checks/dimensions/corpus): the check passes every consistent formula of physics
and fails every inconsistent mutant of one (each shown inconsistent by pint's own arithmetic, not by the check);
the stored mutants are exactly what the generator makes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

import dimension_corpus as corpus

TRUE = corpus.load(corpus.TRUE)
FALSE = corpus.load(corpus.FALSE)


def test_the_corpus_is_large_enough_and_its_mutants_are_the_generators() -> None:
    assert len(TRUE) >= 30 and len(FALSE) >= 30
    assert corpus.generate(TRUE) == FALSE


def test_no_consistent_formula_fails_and_every_one_is_decided() -> None:
    verdicts = {formula.line: corpus.verdict(formula) for formula in TRUE}
    assert {line: verdict for line, verdict in verdicts.items() if verdict != "passed"} == {}


def test_no_inconsistent_formula_passes() -> None:
    verdicts = {formula.line: corpus.verdict(formula) for formula in FALSE}
    assert [line for line, verdict in verdicts.items() if verdict == "passed"] == []
    assert sum(verdict == "failed" for verdict in verdicts.values()) == len(FALSE)
