"""The soundness corpus of rederive-maths: true identities from public tables, and false ones made from
them by a one-symbol change, each shown false numerically before it enters the false set.

`true.txt` holds the true identities (`source | symbols | lhs | rhs`, one a line, with the DLMF,
Abramowitz-Stegun or Gradshteyn-Ryzhik equation each comes from). `false.txt` is generated from it by

    uv run python tests/checks/maths/corpus/corpus.py --write

which tries each identity's mutants in a fixed order (`mutants`: a sign flipped, a numeral or exponent
moved by one, a limit of integration moved, one symbol put for another) and keeps the first that is
*certified* false: at one of the points rederive-maths-numeric draws for it, its two sides, each
evaluated apart with an error bound (`cgx_checks.maths.worker.certify`), differ by more than the bounds allow
(two conditions: they differ at an exact witness, which only the symbolic decision finds).
A mutant no certificate shows false (a distribution is 0 at every point; some mutants are still true) is
left out. The test suite checks that every stored mutant is a mutant of its source line, and the
check's verdicts on both sets: 0 failures on the true, 0 passes on the false.

Both the test (`test_maths_corpus.py`) and the benchmark (`benchmarks/bench_corpus.py`) decide each
identity as the check does (`verdict`): rederive-maths in the maths worker, within its CPU-time budget,
then rederive-maths-numeric within its own when the first errs.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final, Literal

import attrs

HERE: Final = Path(__file__).resolve().parent
TRUE: Final = HERE / "true.txt"
FALSE: Final = HERE / "false.txt"

OPERATORS: Final = ("sign", "numeral", "limit", "symbol")
"""The one-symbol changes, tried in this order (rotated by the identity's line, so each kind is used)."""

CERTIFY_POINTS: Final = 8
"""Drawn points a mutant is tried at for a certificate that it is false."""

CERTIFY_BUDGET: Final = 10.0
"""CPU seconds the certificate of one mutant may take (past it, the mutant is left out)."""

type Verdict = Literal["passed", "failed", "error", "refused"]


@attrs.frozen
class Identity:
    """One line of the corpus: where it comes from, its symbols and its two sides."""

    line: int
    """The line of true.txt it is (or, for a mutant, it was made from)."""
    source: str
    symbols: dict[str, list[str]]
    lhs: str
    rhs: str
    change: str = ""
    """For a mutant: the change that made it (`sign`, `numeral`, `limit`, `symbol`)."""
    category: str = attrs.field(default="", eq=False)
    """The section of true.txt (`# == integrals ==`) the identity, or its source, is in."""

    def encoding(self) -> dict[str, Any]:
        return {"symbols": self.symbols, "lhs": self.lhs, "rhs": self.rhs}


def _symbols(text: str) -> dict[str, list[str]]:
    symbols: dict[str, list[str]] = {}
    for item in text.split():
        name, _, assumptions = item.partition(":")
        symbols[name] = [word for word in assumptions.split(",") if word]
    return symbols


def _symbols_text(symbols: dict[str, list[str]]) -> str:
    return " ".join(f"{name}:{','.join(words)}" if words else name for name, words in symbols.items())


def load_true(path: Path = TRUE) -> list[Identity]:
    """The true identities, each with its line number."""
    found = []
    category = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if header := re.fullmatch(r"# == (.+) ==", raw.strip()):
            category = header.group(1)
        if not raw.strip() or raw.startswith("#"):
            continue
        source, symbols, lhs, rhs = (part.strip() for part in raw.split("|"))
        found.append(Identity(number, source, _symbols(symbols), lhs, rhs, category=category))
    return found


def load_false(path: Path = FALSE) -> list[Identity]:
    """The stored false identities (`line | change | source | symbols | lhs | rhs`)."""
    categories = {identity.line: identity.category for identity in load_true()}
    found = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        line, change, source, symbols, lhs, rhs = (part.strip() for part in raw.split("|"))
        found.append(Identity(int(line), source, _symbols(symbols), lhs, rhs, change, categories.get(int(line), "")))
    return found


_TOKEN: Final = re.compile(r"\d+(?:\.\d+)?|[A-Za-z_][A-Za-z_0-9]*|\*\*|\S")


def _tokens(text: str) -> list[tuple[int, str]]:
    return [(match.start(), match.group()) for match in _TOKEN.finditer(text)]


def _replace(text: str, start: int, old: str, new: str) -> str:
    return text[:start] + new + text[start + len(old) :]


def _operand_end(token: str) -> bool:
    return bool(token == ")" or token[0].isdigit() or token[0].isalpha() or token[0] == "_")


def _sign_changes(text: str) -> Iterator[str]:
    tokens = _tokens(text)
    for index, (start, token) in enumerate(tokens):
        if token in "+-" and index > 0 and _operand_end(tokens[index - 1][1]):
            yield _replace(text, start, token, "-" if token == "+" else "+")


def _numeral_changes(text: str) -> Iterator[str]:
    """Each integer numeral moved by one, exponents first (`^2` to `^3`), then factors and constants."""
    tokens = _tokens(text)
    exponents, others = [], []
    for index, (start, token) in enumerate(tokens):
        if not token.isdigit():
            continue
        (exponents if index > 0 and tokens[index - 1][1] in ("^", "**") else others).append((start, token))
    for start, token in exponents + others:
        yield _replace(text, start, token, str(int(token) + 1))


def _limit_changes(text: str) -> Iterator[str]:
    """The upper limit of an integral, sum, product (or the point of a limit) moved: a numeral by one,
    a symbol to twice it."""
    for match in re.finditer(r"\((\w+), ([^(),]+|\([^()]*\)), ([^(),]+)\)", text):
        upper = match.group(3).strip()
        if upper in ("oo", "-oo"):
            continue
        start = match.start(3) + (len(match.group(3)) - len(match.group(3).lstrip()))
        moved = str(int(upper) + 1) if upper.isdigit() else f"2*{upper}"
        yield _replace(text, start, upper, moved)
    for match in re.finditer(r"Limit\((.+), (\w+), ([^,()]+)(, '[+-]')?\)$", text):
        point = match.group(3).strip()
        if point not in ("oo", "-oo") and point.isdigit():
            yield _replace(text, match.start(3), point, str(int(point) + 1))


def _symbol_changes(text: str, names: list[str]) -> Iterator[str]:
    for start, token in _tokens(text):
        if token in names:
            for other in names:
                if other != token:
                    yield _replace(text, start, token, other)


def mutants(identity: Identity) -> Iterator[Identity]:
    """The identity's one-symbol mutants, in a fixed order: each kind of change in turn (the order rotated
    by the identity's line, so that every kind is used), on the right side first, then the left."""
    names = list(identity.symbols)
    shift = identity.line % len(OPERATORS)
    for change in OPERATORS[shift:] + OPERATORS[:shift]:
        for side in ("rhs", "lhs"):
            text = getattr(identity, side)
            if change == "sign":
                changed: Iterator[str] = _sign_changes(text)
            elif change == "numeral":
                changed = _numeral_changes(text)
            elif change == "limit":
                changed = _limit_changes(text)
            else:
                changed = _symbol_changes(text, names)
            for new in changed:
                if new != text:
                    yield attrs.evolve(identity, change=change, **{side: new})


def certified_false(identity: Identity, worker: Any) -> bool:
    """Whether a certificate shows the identity false at one of its first drawn points, computed in the
    maths worker (`certify` task) within `CERTIFY_BUDGET` seconds of CPU time and its memory limit."""
    import json

    from cgx_checks.maths.caller.numeric import numeric_points
    from cgx_checks.maths.caller.worker_process import Finished
    from cgx_checks.maths.read.step import parse_step
    from cgx_core.errors import CgxError

    try:
        step = parse_step(identity.encoding())
    except CgxError:
        return False
    if step.condition:  # two conditions differ at an exact witness, or nothing shows them different
        reply = worker.run("decide", step, CERTIFY_BUDGET)
        return isinstance(reply, Finished) and json.loads(reply.payload)["method"] == "witness"
    _, points = numeric_points(identity.encoding())
    reply = worker.run("certify", (step, points[:CERTIFY_POINTS]), CERTIFY_BUDGET)
    return isinstance(reply, Finished) and json.loads(reply.payload)["differ_at"] is not None


def generate(identities: list[Identity]) -> list[Identity]:
    """The false set: each identity's first mutant that is certified false (none for some)."""
    from cgx_checks.maths.caller.worker_process import MathsWorker

    found = []
    worker = MathsWorker()
    try:
        for identity in identities:
            for mutant in mutants(identity):
                if certified_false(mutant, worker):
                    found.append(mutant)
                    break
    finally:
        worker.close()
    return found


def write_false(found: list[Identity], path: Path = FALSE) -> None:
    lines = [
        "# Generated by `uv run python tests/checks/maths/corpus/corpus.py --write` from true.txt: each line is the",
        "# first one-symbol mutant of a true identity that a certificate shows false (see corpus.py).",
        "# line of true.txt | change | source | symbols | lhs | rhs",
    ]
    lines += [
        f"{item.line} | {item.change} | {item.source} | {_symbols_text(item.symbols)} | {item.lhs} | {item.rhs}"
        for item in found
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def verdict(identity: Identity, decider: Any) -> tuple[Verdict, str]:
    """The check's verdict on an identity, as run_checks reaches it: rederive-maths in the worker within
    its CPU-time budget, then, when it errs, rederive-maths-numeric within its own; with the deciding
    check's detail."""
    from cgx_checks.maths.limits import DECIDE_BUDGET
    from cgx_checks.maths.read.step import parse_step
    from cgx_checks.rederive_maths import budget_of
    from cgx_core.errors import CgxError

    try:
        step = parse_step(identity.encoding())
    except CgxError as error:
        return "refused", f"{error.code}: {error.message}"
    symbolic = decider.decide(identity.encoding(), budget=DECIDE_BUDGET)
    if symbolic.result != "error":
        return symbolic.result, f"rederive-maths: {symbolic.detail}"
    numeric = decider.numeric_check(identity.encoding(), budget=budget_of("rederive-maths-numeric", step))
    return numeric.result, f"rederive-maths {symbolic.code}; rederive-maths-numeric: {numeric.detail}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: corpus.py --write")
    made = generate(load_true())
    write_false(made)
    print(f"{len(made)} false identities written to {FALSE}")
