"""The same observation: the same two sides once expanded, however they are written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from cgx_checks.maths.read.step import expandable, parse_step
from cgx_checks.maths.worker.observation import observation_key

X = {"x": ["real"]}


def key(lhs: str, rhs: str, symbols: dict[str, list[str]] | None = None) -> str:
    return observation_key({"symbols": X if symbols is None else symbols, "lhs": lhs, "rhs": rhs})


def test_the_same_sides_once_expanded_share_one_key_whichever_side_and_however_written() -> None:
    first = key("(x+1)**2", "x**2+2*x+1")
    assert first == key("x**2 + 2*x + 1", "(1+x)^2")
    assert first == key("(x + 1)*(x + 1)", "1 + 2*x + x^2")
    assert first == key("(x + 1)^2", "x^2 + 2.0*x + 1")  # numerals compare by exact value
    assert first.startswith("sha256:")


def test_different_sides_or_domains_are_different_observations() -> None:
    first = key("(x+1)**2", "x**2+2*x+1")
    assert first != key("(x+1)**2", "x**2+2*x+2")
    assert first != key("(x+1)**2", "x**2+2*x+1", {"x": []})
    assert first != key("(x+1)**2", "x**2+2*x+1", {"x": ["positive"]})
    assert first != key("(t+1)**2", "t**2+2*t+1", {"t": ["real"]})
    # lhs - rhs is not the pair of sides: x = 1 and x - 1 = 0 are two observations.
    assert key("x", "1") != key("x - 1", "0")


def test_assumptions_count_by_the_domain_they_describe_and_only_for_symbols_used() -> None:
    base = key("sqrt(x^2)", "x", {"x": ["positive"]})
    assert base == key("sqrt(x^2)", "x", {"x": ["real", "positive"]})
    assert base == key("sqrt(x^2)", "x", {"x": ["positive", "complex", "nonzero"]})
    assert base == key("sqrt(x^2)", "x", {"x": ["positive"], "unused": ["integer"]})
    assert base != key("sqrt(x^2)", "x", {"x": ["nonnegative"]})


def test_a_step_too_large_to_expand_is_keyed_as_written_canonically() -> None:
    symbols = {"x": ["real"], "y": ["real"], "z": ["real"]}
    large = {"symbols": symbols, "lhs": "(x + y + z + 1)^1000", "rhs": "(x + y + z)^1000"}
    assert not expandable(parse_step(large))
    written = observation_key(large)
    assert written == key("(z + y + x)^1000", "(1 + x + z + y)^1000", symbols)
    assert written == key("(x + y + z)^1000", "(x+y+z+1.0)^1000", symbols)
    assert written != key("(x + y + z + 2)^1000", "(x + y + z)^1000", symbols)
    assert written != key("(x + y + z)^1000 + 0", "(x + y + z + 1)^1000", symbols)
    # re((x+I)^1000) would take sympy minutes to build: it is keyed as written, at once.
    assert not expandable(parse_step({"symbols": X, "lhs": "re((x + I)^1000)", "rhs": "x"}))
    assert key("re((x + I)^1000)", "x") == key("x", "re((I + x)^1000)")


def test_the_key_is_the_same_in_another_process_with_another_hash_seed() -> None:
    steps: list[dict[str, Any]] = [
        {
            "symbols": {"r": ["positive"], "b": ["real"], "q": ["nonzero"]},
            "lhs": "(1 - r*exp(I*b)*q^-1)*(1 - r*exp(-I*b)*q^-1)",
            "rhs": "1 - 2*r*cos(b)*q^-1 + r^2*q^-2",
        },
        {"symbols": {"x": [], "y": ["integer"]}, "lhs": "(x + y)^5 / (x - y)", "rhs": "sin(x)*cos(y) + 1/3"},
        {"symbols": {"x": ["real"], "y": ["real"], "z": ["real"]}, "lhs": "(x+y+z+1)^1000", "rhs": "(x+y+z)^1000"},
    ]
    here = [observation_key(step) for step in steps]
    program = (
        "import json, sys\nfrom cgx_checks.maths.worker.observation import observation_key\n"
        "print(json.dumps([observation_key(step) for step in json.load(sys.stdin)]))"
    )
    environment = dict(os.environ, PYTHONHASHSEED="12345")
    there = subprocess.run(
        [sys.executable, "-c", program],
        input=json.dumps(steps),
        capture_output=True,
        text=True,
        check=True,
        env=environment,
        timeout=120,
    )
    assert json.loads(there.stdout) == here
