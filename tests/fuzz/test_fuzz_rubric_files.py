"""Fuzzing the two files a person gives start_run beside the paper: the rubric and its tolerance table.

Whatever the bytes (the example rubric and the default tolerances with bytes flipped, cut or repeated; TOML
documents drawn at random, nested deep, with huge or non-finite numbers; arbitrary text), loading them either
succeeds or refuses with the file's own code (`rubric-invalid` or `rubric-supports`; `tolerances-invalid`),
never another exception. `CGX_FUZZ_CASES` sets the cases of each (default 320).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgx_core.errors import CgxError
from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.numbers.tolerances import default_bytes, load_tolerances
from support import EXAMPLE_RUBRIC

CASES = int(os.environ.get("CGX_FUZZ_CASES", "320"))
RUBRIC = EXAMPLE_RUBRIC.read_bytes()
TOLERANCES = b'[rubric]\nname = "example-paper"\nversion = "0.1-example"\n\n' + default_bytes()
IDENTITY = {"name": "example-paper", "version": "0.1-example"}

KEYS = st.sampled_from(
    [
        "rubric",
        "name",
        "version",
        "types",
        "hedges",
        "counts",
        "units",
        "relation",
        "rests_on",
        "about",
        "approximately",
    ]
)
SCALARS = st.one_of(
    st.integers(),
    st.integers(min_value=10**4300, max_value=10**4400),  # past Python's limit of int(str)
    st.floats(),  # nan and inf included
    st.text(max_size=20),
    st.booleans(),
    st.sampled_from(["10%", "-5%", "nan%", "1e400", "0.1", "requires", "supports"]),
)


def toml_value(value: Any) -> str:
    """`value` written as TOML (a string quoted, a float's nan and inf as TOML spells them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(value), repr(value))
    if isinstance(value, int):
        return str(value) if abs(value) < 10**4290 else "1" * 4400
    if isinstance(value, str):
        return '"' + value.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{" + ", ".join(f'"{key}" = {toml_value(item)}' for key, item in value.items()) + "}"


VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3))
DOCUMENTS = st.dictionaries(KEYS, st.dictionaries(KEYS, VALUES, max_size=4), max_size=4).map(
    lambda tables: "".join(
        f"[{name}]\n" + "".join(f'"{key}" = {toml_value(value)}\n' for key, value in table.items())
        for name, table in tables.items()
    ).encode("utf-8")
)


def mutated(base: bytes) -> st.SearchStrategy[bytes]:
    """`base` with a slice replaced by random bytes, cut short, or a slice repeated many times."""

    @st.composite
    def made(draw: Any) -> bytes:
        start = draw(st.integers(0, len(base)))
        end = draw(st.integers(start, min(len(base), start + 40)))
        how = draw(st.sampled_from(["replace", "cut", "repeat", "nest"]))
        if how == "replace":
            return base[:start] + draw(st.binary(max_size=20)) + base[end:]
        if how == "cut":
            return base[:start]
        if how == "repeat":
            return base[:end] + base[start:end] * draw(st.integers(2, 2000)) + base[end:]
        depth = draw(st.integers(1, 20_000))
        return base + b"\nx = " + b"[" * depth + b"]" * depth + b"\n"

    return made()


FILES = st.one_of(DOCUMENTS, st.binary(max_size=200), st.text(max_size=200).map(str.encode))
SETTINGS = settings(max_examples=CASES, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@SETTINGS
@given(st.one_of(mutated(RUBRIC), FILES))
def test_a_rubric_file_loads_or_is_refused_with_its_code(data: bytes) -> None:
    try:
        load_rubric_bytes(data, "paper.toml")
    except CgxError as error:
        assert error.code in ("rubric-invalid", "rubric-supports"), (error.code, error.message)


@SETTINGS
@given(st.one_of(mutated(TOLERANCES), FILES))
def test_a_tolerance_file_loads_or_is_refused_with_its_code(data: bytes) -> None:
    try:
        load_tolerances(data, "paper.tolerances.toml", IDENTITY)
    except CgxError as error:
        assert error.code == "tolerances-invalid", (error.code, error.message)


def test_the_seeds_themselves_load() -> None:
    load_rubric_bytes(RUBRIC, "paper.toml")
    load_tolerances(TOLERANCES, "paper.tolerances.toml", IDENTITY)
