"""The encoding of a maths step, as the agent sends it, and the domain each symbol ranges over.

    {"symbols": {"r": ["positive"], "b": ["real"], "q": ["nonzero"]},
     "lhs": "(1 - r*exp(I*b)*q^-1)*(1 - r*exp(-I*b)*q^-1)",
     "rhs": "1 - 2*r*cos(b)*q^-1 + r^2*q^-2"}

or, with the sides as the paper writes them in LaTeX (`latex`, split at its `split`-th relation):

    {"symbols": {"r": ["positive"], "\\beta": ["real"], "q": ["nonzero"]}, "aliases": {"j": "I"},
     "function_argument": "factor", "split": 2,
     "latex": "A(q) = (1 - r e^{j\\beta} q^{-1}) ( 1 - r e^{-j\\beta}q^{-1}) = 1 - 2r\\cos\\beta q^{-1} + r^2 q^{-2}"}

The encoding is recorded in the check record's inputs for a person to audit and is everything a re-run
needs, so it is validated here once, field by field, with the JSON path of whatever is wrong. Symbols,
functions and aliases are keyed internally by their sympy names (`names`), so `λ` and `\\lambda` are one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from cgx_checks.maths.limits import MAX_FUNCTIONS, MAX_LATEX_CHARS, MAX_NAME_CHARS, MAX_SIDE_CHARS, MAX_SYMBOLS
from cgx_checks.maths.read.names import identifier_name
from cgx_checks.maths.read.vocabulary import ALIAS_TARGETS, ASSUMPTIONS, CONSTANTS, RESERVED, resolve_function
from cgx_core.codes import Code
from cgx_core.errors import CgxError

type Kind = Literal["complex", "real", "rational", "integer"]

READINGS: Final = ("factor", "product")
"""How a LaTeX function written without brackets reads when more factors follow its argument."""

SHADOWABLE: Final = frozenset({"E", "I"})
"""Constants a declared symbol may take the name of (an energy E, a current I); then the name is the symbol."""

_KINDS: Final[tuple[Kind, ...]] = ("integer", "rational", "real", "complex")  # narrowest first
_SIGNS: Final[Mapping[str, frozenset[int]]] = {
    "positive": frozenset({1}),
    "negative": frozenset({-1}),
    "nonnegative": frozenset({0, 1}),
    "nonpositive": frozenset({-1, 0}),
    "nonzero": frozenset({-1, 1}),
}
_SIGN_WORDS: Final[Mapping[frozenset[int], tuple[str, ...]]] = {
    **{signs: (word,) for word, signs in _SIGNS.items()},
    frozenset({0}): ("nonnegative", "nonpositive"),
}
KEYS: Final = ("aliases", "function_argument", "functions", "latex", "lhs", "rhs", "split", "symbols")
"""Every field of an encoding."""


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
    """A validated maths step.

    `symbols` are the declared symbols by sympy name (sorted) with their assumptions as written;
    `spellings` maps each name as written (a symbol's or a function's) to its sympy name; `functions` are
    the sympy names of declared undefined functions; `aliases` maps a sympy name to the constant or
    function it stands for. The sides are `lhs` and `rhs` (sympy spelling), or come from `latex`."""

    symbols: tuple[tuple[str, tuple[str, ...]], ...]
    lhs: str | None
    rhs: str | None
    spellings: tuple[tuple[str, str], ...] = ()
    functions: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    latex: str | None = None
    split: int | None = None
    function_argument: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The encoding as the agent wrote it (names as written, assumptions in their order), ready for
        canonical JSON; fields the agent did not send are left out."""
        written = {sympy_name: spelling for spelling, sympy_name in self.spellings}
        raw: dict[str, Any] = {
            "symbols": {written.get(name, name): list(assumptions) for name, assumptions in self.symbols},
        }
        if self.functions:
            raw["functions"] = [written.get(name, name) for name in self.functions]
        if self.aliases:
            raw["aliases"] = {written.get(name, name): target for name, target in self.aliases}
        for key in ("lhs", "rhs", "latex", "split", "function_argument"):
            value = getattr(self, key)
            if value is not None:
                raw[key] = value
        return raw

    @property
    def names(self) -> frozenset[str]:
        """The declared symbols' sympy names."""
        return frozenset(name for name, _ in self.symbols)

    def domain(self, name: str) -> Domain:
        """The domain of a declared symbol (by sympy name)."""
        return domain_of(dict(self.symbols)[name])

    def function(self, name: str) -> tuple[Literal["declared", "vocabulary"], str] | None:
        """What a called name is: a declared function, or the vocabulary's function (by its vocabulary
        name, an alias read as its function), or None."""
        if name in self.functions:
            return "declared", name
        target = dict(self.aliases).get(name, name)
        resolved = resolve_function(target)
        return ("vocabulary", resolved) if resolved is not None else None

    def renamed(self) -> dict[str, str]:
        """Each name as written that is not its own sympy name, with its sympy name (what the check records)."""
        return {spelling: name for spelling, name in self.spellings if spelling != name}


def load_encoding(raw: object) -> Encoding:
    """An `Encoding` from the JSON an agent sent, or CgxError `proposal-invalid` naming the JSON path."""
    if isinstance(raw, Encoding):
        return raw
    if not isinstance(raw, Mapping):
        raise _invalid("$", "the encoding is not an object with symbols and its sides (lhs and rhs, or latex)")
    extra = sorted(str(key) for key in raw if key not in KEYS)
    if extra:
        raise _invalid(f"$.{extra[0][:40]}", f"unknown field {extra[0][:40]!r}; the fields are {', '.join(KEYS)}")
    if "symbols" not in raw:
        raise _invalid("$.symbols", "the field 'symbols' is missing (use {} for a step without symbols)")
    sides: dict[str, str | None] = {}
    for key, limit in (("lhs", MAX_SIDE_CHARS), ("rhs", MAX_SIDE_CHARS), ("latex", MAX_LATEX_CHARS)):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            raise _invalid(f"$.{key}", "is not a string")
        if isinstance(value, str) and len(value) > limit:
            raise CgxError(
                Code.EXPRESSION_TOO_LARGE, f"{key} has {len(value)} characters; at most {limit} are accepted"
            )
        sides[key] = value
    split = _split(raw.get("split"), sides)
    reading = raw.get("function_argument")
    if reading is not None and reading not in READINGS:
        raise _invalid("$.function_argument", f"{reading!r} is not a reading; use {' or '.join(READINGS)}")
    spellings: dict[str, str] = {}
    symbols = _symbols(raw["symbols"], spellings)
    functions = _functions(raw.get("functions"), spellings, {name for name, _ in symbols})
    aliases = _aliases(raw.get("aliases"), spellings, {name for name, _ in symbols} | set(functions))
    return Encoding(
        symbols,
        sides["lhs"],
        sides["rhs"],
        tuple(sorted(spellings.items())),
        tuple(sorted(functions)),
        tuple(sorted(aliases.items())),
        sides["latex"],
        split,
        reading,
    )


def _split(raw: object, sides: Mapping[str, str | None]) -> int | None:
    """The relation the LaTeX splits at, checking which sides the encoding gives."""
    given = [key for key in ("lhs", "rhs") if sides[key] is not None]
    if sides["latex"] is None:
        if raw is not None:
            raise _invalid("$.split", "split names a relation of latex, and there is no latex")
        for key in ("lhs", "rhs"):
            if sides[key] is None:
                raise _invalid(f"$.{key}", f"the field {key!r} is missing (or give the step's LaTeX in latex)")
        return None
    if len(given) == 2:
        raise _invalid("$.latex", "latex gives a side or both, so lhs and rhs cannot both be given too")
    if len(given) == 1:
        if raw is not None:
            raise _invalid("$.split", f"latex is one side (the other is {given[0]}), so it is not split")
        return None
    if raw is None:
        return 1
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1 or raw > 100:
        raise _invalid("$.split", "is not a relation's number: 1 for the first relation of latex, 2 for the second...")
    return raw


def _sympy_name(spelling: object, path: str) -> str:
    """The sympy name of a symbol's or function's name as written, or `proposal-invalid`."""
    if not isinstance(spelling, str) or not spelling or len(spelling) > MAX_NAME_CHARS:
        raise _invalid(path, f"a name is text of 1 to {MAX_NAME_CHARS} characters")
    name = identifier_name(spelling)
    if name is None and ("\\" in spelling or "{" in spelling):
        from cgx_checks.maths.read.latex_read import name_of

        name = name_of(spelling)
    if name is None:
        raise _invalid(
            path,
            "a name is an identifier (x, b_2, λ), a LaTeX name (\\lambda, \\gamma_1, \\bar{x}, x_{\\mathrm{obs},i}) "
            "or one of these with primes (x')",
        )
    return name


def _symbols(raw: object, spellings: dict[str, str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(raw, Mapping):
        raise _invalid("$.symbols", "is not an object mapping each symbol name to a list of assumptions")
    if len(raw) > MAX_SYMBOLS:
        raise _invalid("$.symbols", f"declares {len(raw)} symbols; at most {MAX_SYMBOLS} are accepted")
    symbols: dict[str, tuple[str, ...]] = {}
    for spelling, assumptions in raw.items():
        path = f"$.symbols.{str(spelling)[:MAX_NAME_CHARS]}"
        name = _sympy_name(spelling, path)
        if name in RESERVED and name not in SHADOWABLE:
            raise _invalid(path, f"{name!r} is a constant ({', '.join(sorted(RESERVED))}) and cannot be a symbol")
        _claim(spellings, str(spelling), name, path)
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
        symbols[name] = tuple(assumptions)
    return tuple(sorted(symbols.items()))


def _functions(raw: object, spellings: dict[str, str], symbols: set[str]) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_FUNCTIONS:
        raise _invalid("$.functions", f'is not a list of at most {MAX_FUNCTIONS} function names, such as ["Q"]')
    functions = []
    for index, spelling in enumerate(raw):
        path = f"$.functions[{index}]"
        name = _sympy_name(spelling, path)
        if resolve_function(name) is not None or name in CONSTANTS:
            raise _invalid(path, f"{name!r} is already the vocabulary's; an undefined function needs another name")
        if name in symbols:
            raise _invalid(path, f"{name!r} is declared as a symbol too")
        _claim(spellings, str(spelling), name, path)
        functions.append(name)
    return functions


def _aliases(raw: object, spellings: dict[str, str], declared: set[str]) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or len(raw) > MAX_FUNCTIONS:
        raise _invalid("$.aliases", 'is not an object such as {"j": "I"} mapping a name to a constant or function')
    aliases = {}
    for spelling, target in raw.items():
        path = f"$.aliases.{str(spelling)[:MAX_NAME_CHARS]}"
        name = _sympy_name(spelling, path)
        if name in declared:
            raise _invalid(path, f"{name!r} is declared as a symbol or function too")
        if not isinstance(target, str) or target not in ALIAS_TARGETS:
            raise _invalid(
                path, f"{target!r} is not a constant ({', '.join(CONSTANTS)}) or a function of the vocabulary"
            )
        _claim(spellings, str(spelling), name, path)
        aliases[name] = target
    return aliases


def _claim(spellings: dict[str, str], spelling: str, name: str, path: str) -> None:
    for other, taken in spellings.items():
        if taken == name:
            raise _invalid(path, f"{spelling!r} and {other!r} are one name ({name}); declare it once")
    spellings[spelling] = name


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
