"""The encoding of a maths step, as the agent sends it, and the domain each symbol ranges over.

    {"symbols": {"r": ["positive"], "b": ["real"], "q": ["nonzero"]},
     "lhs": "(1 - r*exp(I*b)*q^-1)*(1 - r*exp(-I*b)*q^-1)",
     "rhs": "1 - 2*r*cos(b)*q^-1 + r^2*q^-2"}

The encoding is recorded in the check record's inputs for a person to audit and is everything a re-run
needs, so it is validated here once, field by field, with the JSON path of whatever is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from cgx_checks.maths.limits import MAX_NAME_CHARS, MAX_SIDE_CHARS, MAX_SYMBOLS
from cgx_checks.maths.vocabulary import ASSUMPTIONS, RESERVED
from cgx_core.codes import Code
from cgx_core.errors import CgxError

type Kind = Literal["complex", "real", "rational", "integer"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KINDS: Final[tuple[Kind, ...]] = ("integer", "rational", "real", "complex")  # narrowest first
_SIGNS: Final[Mapping[str, frozenset[int]]] = {
    "positive": frozenset({1}),
    "negative": frozenset({-1}),
    "nonnegative": frozenset({0, 1}),
    "nonpositive": frozenset({-1, 0}),
    "nonzero": frozenset({-1, 1}),
}
_SIGN_WORDS: Final[Mapping[frozenset[int], tuple[str, ...]]] = {
    frozenset({1}): ("positive",),
    frozenset({-1}): ("negative",),
    frozenset({0, 1}): ("nonnegative",),
    frozenset({-1, 0}): ("nonpositive",),
    frozenset({-1, 1}): ("nonzero",),
    frozenset({0}): ("nonnegative", "nonpositive"),
}
_KEYS: Final = ("lhs", "rhs", "symbols")


@attrs.frozen
class Domain:
    """Where a symbol ranges: its kind and the signs it may take.

    For a real kind, `signs` is a subset of {-1, 0, 1}: positive is {1}, nonnegative {0, 1}. For the
    complex kind it is {-1, 0, 1}, or {-1, 1} for a nonzero complex number.
    """

    kind: Kind
    signs: frozenset[int]


@attrs.frozen
class Encoding:
    """A validated maths step: declared symbols (sorted by name) with their assumptions, and two sides."""

    symbols: tuple[tuple[str, tuple[str, ...]], ...]
    lhs: str
    rhs: str

    def to_json(self) -> dict[str, Any]:
        """The encoding as the agent wrote it (assumptions in their order), ready for canonical JSON."""
        return {
            "lhs": self.lhs,
            "rhs": self.rhs,
            "symbols": {name: list(assumptions) for name, assumptions in self.symbols},
        }

    @property
    def names(self) -> frozenset[str]:
        """The declared symbol names."""
        return frozenset(name for name, _ in self.symbols)

    def domain(self, name: str) -> Domain:
        """The domain of a declared symbol."""
        return domain_of(dict(self.symbols)[name])


def load_encoding(raw: object) -> Encoding:
    """An `Encoding` from the JSON an agent sent, or CgxError `proposal-invalid` naming the JSON path."""
    if isinstance(raw, Encoding):
        return raw
    if not isinstance(raw, Mapping):
        raise _invalid("$", "the encoding is not an object with symbols, lhs and rhs")
    extra = sorted(str(key) for key in raw if key not in _KEYS)
    if extra:
        raise _invalid(f"$.{extra[0]}", f"unknown field {extra[0]!r}; the fields are symbols, lhs and rhs")
    for key in _KEYS:
        if key not in raw:
            raise _invalid(f"$.{key}", f"the field {key!r} is missing")
    sides = []
    for key in ("lhs", "rhs"):
        value = raw[key]
        if not isinstance(value, str):
            raise _invalid(f"$.{key}", "is not a string")
        if len(value) > MAX_SIDE_CHARS:
            raise CgxError(
                Code.EXPRESSION_TOO_LARGE,
                f"{key} has {len(value)} characters; at most {MAX_SIDE_CHARS} are accepted",
            )
        sides.append(value)
    return Encoding(_symbols(raw["symbols"]), sides[0], sides[1])


def _symbols(raw: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(raw, Mapping):
        raise _invalid("$.symbols", "is not an object mapping each symbol name to a list of assumptions")
    if len(raw) > MAX_SYMBOLS:
        raise _invalid("$.symbols", f"declares {len(raw)} symbols; at most {MAX_SYMBOLS} are accepted")
    symbols = []
    for name, assumptions in raw.items():
        path = f"$.symbols.{str(name)[:MAX_NAME_CHARS]}"
        if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > MAX_NAME_CHARS:
            raise _invalid(
                path, f"a symbol name is an identifier of at most {MAX_NAME_CHARS} ASCII letters, digits or '_'"
            )
        if name in RESERVED:
            raise _invalid(path, f"{name!r} is a constant or a function name and cannot be a symbol")
        if not isinstance(assumptions, list):
            raise _invalid(path, "is not a list of assumptions (use [] for a complex number)")
        for index, assumption in enumerate(assumptions):
            if not isinstance(assumption, str) or assumption not in ASSUMPTIONS:
                raise _invalid(f"{path}[{index}]", f"{assumption!r} is not an assumption; use {', '.join(ASSUMPTIONS)}")
            if assumption in assumptions[:index]:
                raise _invalid(f"{path}[{index}]", f"{assumption!r} is given twice")
        try:
            domain_of(tuple(assumptions))
        except ValueError as error:
            raise _invalid(path, str(error)) from None
        symbols.append((name, tuple(assumptions)))
    return tuple(sorted(symbols))


def domain_of(assumptions: tuple[str, ...] | list[str]) -> Domain:
    """The domain a list of (valid) assumptions describes, or ValueError when they contradict each other."""
    signs = frozenset({-1, 0, 1})
    kind: Kind = "complex"
    for assumption in assumptions:
        if assumption in _SIGNS:
            signs &= _SIGNS[assumption]
            if assumption != "nonzero":
                kind = _narrower(kind, "real")
        else:
            kind = _narrower(kind, assumption)  # type: ignore[arg-type]
    if not signs:
        raise ValueError(f"the assumptions {', '.join(assumptions)} contradict each other")
    return Domain(kind, signs)


def canonical_assumptions(domain: Domain) -> tuple[str, ...]:
    """The shortest list of assumptions that describes a domain, in a fixed order.

    ["positive", "real"] and ["positive"] describe one domain, so they give one list: two steps that
    differ only in how they wrote their assumptions are the same observation.
    """
    signs = _SIGN_WORDS.get(domain.signs, ())
    implies_real = bool(signs) and signs != ("nonzero",)  # every sign assumption but nonzero makes it real
    kind = () if domain.kind == "complex" or (domain.kind == "real" and implies_real) else (domain.kind,)
    return kind + signs


def sympy_assumptions(assumptions: tuple[str, ...]) -> dict[str, bool]:
    """The keyword arguments of sympy's Symbol for a list of (valid) assumptions."""
    keywords = {"complex": True}
    for assumption in assumptions:
        keyword, value = ASSUMPTIONS[assumption]
        keywords[keyword] = value
    return keywords


def _narrower(first: Kind, second: Kind) -> Kind:
    return first if _KINDS.index(first) < _KINDS.index(second) else second


def _invalid(path: str, message: str) -> CgxError:
    return CgxError(Code.PROPOSAL_INVALID, f"the maths encoding is invalid: {message} @ {path}")
