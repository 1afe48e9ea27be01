r"""The unit a text writes after a numeral (`90 minutes`, `20 h`, `4.1e-3 m/s`, `$375$~Hz`), read as terms.

A unit is a product of terms, each a unit name with a rational exponent: `m/s` is meter^1 second^-1,
`km h^{-1}` is kilometer^1 hour^-1, `m d^{-1/2}` (also `d^{-0.5}`) is meter^1 day^(-1/2). The terms are
named as the units library (pint) names them, but this module never imports it: it only says which written
words are units and what they are called, so the numeral reader (which classify's fixes and every check type
use) stays cheap. What a unit *means* (its dimension and its exact factor to the base units) is the
check's business, through pint.

Only a known vocabulary is read, case-sensitively for symbols and case-insensitively for words, so a
word after a number is a unit only when it really is one:

* symbols, with SI prefixes (P T G M k c m µ u n p f): `m g s Hz N J W Wh V Pa eV mol Ω`; with a prefix
  only (a bare letter is too often something else): `A` (ampere), `B` (byte), `b` (bit), `L` (litre);
  without a prefix: `K`, `min`, `h`, `hr`, `hrs`, `yr`, `yrs`;
* words, singular or plural, with the same prefixes spelled out: second, minute, hour, day, week, month,
  year, metre/meter, gram, hertz, newton, joule, watt, volt, pascal, byte, bit, litre/liter, mole, ampere,
  ohm, kelvin, electronvolt.

A rubric may declare counting units (`[counts]` in its tolerances file: "120 C", "30 cells"); a check reads
with them through `counts.counting`, and a declared spelling is then a term of its own, `count:C`
(`counts.py`). Like `d` and `L`, a count standing first needs a space or tie before it (`120 C`, not `120C`).

Temperatures on an offset scale (°C, °F) are not read: they cannot be added or scaled like amounts.
Terms are joined by `/` or the word `per` (the next term divides: `30 km per hour`), `*`, `·`, `\cdot` or
spacing (it multiplies), and take an exponent written `^2`, `^{-1}`, `**2` or with superscript digits
(`s⁻¹`). In a text, `\mathrm{..}`, `\text{..}`, `\rm`, `\mu` and math delimiters around a unit are looked
through.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Final

import attrs

from cgx_core.numbers.counts import count_term
from cgx_core.numbers.limits import MAX_UNIT_EXPONENT, MAX_UNIT_TERMS
from cgx_core.numbers.siunitx import prose_unit

PREFIX_SYMBOLS: Final = {
    "P": "peta",
    "T": "tera",
    "G": "giga",
    "M": "mega",
    "k": "kilo",
    "c": "centi",
    "m": "milli",
    "\N{MICRO SIGN}": "micro",
    "\N{GREEK SMALL LETTER MU}": "micro",
    "u": "micro",
    "n": "nano",
    "p": "pico",
    "f": "femto",
}
PREFIX_WORDS: Final = frozenset(PREFIX_SYMBOLS.values())

# symbol -> (pint name, may stand without a prefix, may take a prefix)
SYMBOLS: Final[dict[str, tuple[str, bool, bool]]] = {
    "m": ("meter", True, True),
    "g": ("gram", True, True),
    "s": ("second", True, True),
    "Hz": ("hertz", True, True),
    "N": ("newton", True, True),
    "J": ("joule", True, True),
    "W": ("watt", True, True),
    "Wh": ("watt_hour", True, True),
    "V": ("volt", True, True),
    "Pa": ("pascal", True, True),
    "eV": ("electron_volt", True, True),
    "mol": ("mole", True, True),
    "\N{OHM SIGN}": ("ohm", True, True),
    "\N{GREEK CAPITAL LETTER OMEGA}": ("ohm", True, True),
    "A": ("ampere", False, True),
    "B": ("byte", False, True),
    "b": ("bit", False, True),
    "L": ("liter", True, True),
    "d": ("day", True, False),
    "K": ("kelvin", True, False),
    "min": ("minute", True, False),
    "h": ("hour", True, False),
    "hr": ("hour", True, False),
    "hrs": ("hour", True, False),
    "mins": ("minute", True, False),
    "yr": ("year", True, False),
    "yrs": ("year", True, False),
}

# word (lower case, singular) -> (pint name, may take a spelled-out prefix)
WORDS: Final[dict[str, tuple[str, bool]]] = {
    "second": ("second", True),
    "minute": ("minute", False),
    "hour": ("hour", False),
    "day": ("day", False),
    "week": ("week", False),
    "month": ("month", False),
    "year": ("year", False),
    "metre": ("meter", True),
    "meter": ("meter", True),
    "gram": ("gram", True),
    "hertz": ("hertz", True),
    "newton": ("newton", True),
    "joule": ("joule", True),
    "watt": ("watt", True),
    "volt": ("volt", True),
    "pascal": ("pascal", True),
    "byte": ("byte", True),
    "bit": ("bit", True),
    "litre": ("liter", True),
    "liter": ("liter", True),
    "mole": ("mole", True),
    "ampere": ("ampere", True),
    "ohm": ("ohm", True),
    "kelvin": ("kelvin", False),
    "electronvolt": ("electron_volt", True),
}

SPACED: Final = frozenset({"d", "L"})
"""Symbols read as a unit standing first only after a space or tie (`0.5~d`, `2 L`), or alone (a header's
`(d)`): glued to a numeral (`2d`, `3L`) they are a product or a name. In a compound unit (`cm~d^{-1}`) they
are read as any term."""

QUALIFIER_STOP: Final = frozenset(
    "per of to and or in on at by for from with than times a an the each every over under about around into "  # noqa: SIM905
    "within after before between more less fewer plus minus vs versus as is are was were".split()
)
"""Words never read as a qualifier between a numeral and its unit (`3 per second` is a rate, not 3 s)."""

INFORMATION: Final = frozenset({"bit", "byte"})
"""Base units of information: pint counts them as dimensionless; the check gives them a dimension."""

_SUPERSCRIPTS: Final = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_MINUS = "\N{MINUS SIGN}"
_LETTERS = "A-Za-z\N{MICRO SIGN}\N{GREEK SMALL LETTER MU}\N{OHM SIGN}\N{GREEK CAPITAL LETTER OMEGA}"
_TERM = re.compile(
    rf"(?P<name>[{_LETTERS}]{{1,30}})(?![{_LETTERS}0-9_])"
    rf"(?:[ \t]*(?:\^|\*\*)[ \t]*\(?(?P<exponent>[-+{_MINUS}]?[0-9]{{1,3}}(?:/[1-9][0-9]?|\.[0-9]{{1,3}})?)\)?"
    rf"|(?P<superscript>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]{{1,4}}))?"
)
_GAP = re.compile(r"(?:[ \t\r\n~]|\\[,;:! ])*")
_SEPARATOR = re.compile(
    r"(?:[ \t\r\n~]|\\[,;:! ])*(?P<op>/|(?<=[ \t\r\n~])per(?=[ \t\r\n~])|\*(?!\*)|\u00b7|\u22c5|\\cdot(?![A-Za-z]))?"
)
_DIVIDES = frozenset({"/", "per"})
# What is looked through around a unit in a text: wrappers, braces, math delimiters, \mu and \Omega.
_WRAPPERS = re.compile(r"\\(?:mathrm|textrm|text|mbox|mathsf|mathup|rm|upright)(?![A-Za-z])|[{}$]")
_MACRO_LETTERS = re.compile(r"\\(?:mu|micro)(?![A-Za-z])\s*|\\(?:Omega|ohm)(?![A-Za-z])")
_WINDOW = 120  # characters after a numeral looked at for its unit
_QUALIFIER = re.compile(r"[A-Za-z][A-Za-z-]{1,29}(?![A-Za-z0-9_])")
# A factor of mathematics between a numeral and its unit: `1.3\times10^{-7}\sqrt{\tau}~m`, `2\sigma~m`.
_GREEK = (
    "alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|kappa|lambda|nu|xi|rho|sigma|tau|phi"
    "|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|Phi|Psi"
)
_FACTOR = re.compile(
    rf"(?:(?:[ \t~$]|\\[,;:! ])*(?:\\sqrt\s*\{{[^{{}}]{{1,40}}\}}|\\(?:{_GREEK})(?![A-Za-z]))"
    rf"(?:\s*\^\s*(?:\{{[^{{}}]{{1,10}}\}}|[0-9A-Za-z]))?){{1,3}}"
)


type Power = int | Fraction
"""A term's exponent: whole (`s^-1`) or a fraction (`d^{-1/2}`, kept as a `Fraction` only when not whole)."""


@attrs.frozen
class Unit:
    """A unit as terms (pint name, exponent), merged and sorted; `written` is only for messages, and so is
    `qualifier`, a word the text writes between the numeral and the unit (`10 GPU hours`: hours, of GPUs).
    `factor` is a factor of mathematics the text writes between the numeral and this unit (`\\sqrt{\\tau}` of
    `1.3\\times10^{-7}\\sqrt{\\tau}~m`): the unit is then the product's, not the numeral's alone."""

    terms: tuple[tuple[str, Power], ...]
    written: str = attrs.field(eq=False)
    qualifier: str | None = attrs.field(default=None, eq=False)
    factor: str | None = attrs.field(default=None, eq=False)

    @property
    def text(self) -> str:
        """The unit in a canonical form: `meter/second`, `kilogram*meter/second^2`."""
        return product_text(self.terms)


def product_text(terms: tuple[tuple[str, Power], ...]) -> str:
    """Terms with their exponents as a person reads them (`meter/second^2`, `[time]^(1/2)`): a unit's, a
    dimension's."""
    upper = [_term_text(name, power) for name, power in terms if power > 0]
    lower = [_term_text(name, -power) for name, power in terms if power < 0]
    return "*".join(upper or ["1"]) + ("/" + "*".join(lower) if lower else "")


def _term_text(name: str, power: Power) -> str:
    if isinstance(power, Fraction):
        return f"{name}^({power})"
    return name if power == 1 else f"{name}^{power}"


def unit_name(token: str) -> str | None:
    """The pint name of one written unit token (`km`, `hours`, `MHz`), or None when it is not a unit; for a
    counting unit the check declares (`counts.counting`), its count's term (`count:C`)."""
    counted = count_term(token)
    if counted is not None:
        return counted
    found = SYMBOLS.get(token)
    if found is not None and found[1]:
        return found[0]
    for symbol, prefix in PREFIX_SYMBOLS.items():
        if token.startswith(symbol):
            base = SYMBOLS.get(token[len(symbol) :])
            if base is not None and base[2]:
                return prefix + base[0]
    word = token.lower()
    for candidate in (word, word[:-1] if word.endswith("s") else None):
        if candidate is None:
            continue
        entry = WORDS.get(candidate)
        if entry is not None:
            return entry[0]
        for prefix in PREFIX_WORDS:
            if candidate.startswith(prefix):
                base_word = WORDS.get(candidate[len(prefix) :])
                if base_word is not None and base_word[1]:
                    return prefix + base_word[0]
    return None


def read_unit(text: str, start: int = 0, *, alone: bool = False) -> tuple[Unit, int] | None:
    """The unit written at `start` (after optional spacing) and where it ends, or None.

    A term is read only when its token is a known unit; a separator is consumed only when a unit term
    follows it, so `750 Hz / 2` ends the unit after `Hz`. One qualifier word may stand before the unit
    (`10 GPU hours`, `3 wall-clock days`): a word of letters that is no unit and not in `QUALIFIER_STOP`,
    read only when a unit follows it. `alone` says the text is a unit by itself (a header's `(d)`), so
    a `SPACED` symbol needs no space before it.
    """
    gap = _GAP.match(text, start)
    position = gap.end() if gap else start
    spaced = alone or position > start
    first = _term(text, position, spaced=spaced)
    qualifier = None
    if first is None:
        word = _QUALIFIER.match(text, position)
        if word is None or word.group().lower() in QUALIFIER_STOP or unit_name(word.group()) is not None:
            return None
        after = _GAP.match(text, word.end())
        if after is None or after.end() == word.end():
            return None
        first = _term(text, after.end(), spaced=True)
        if first is None:
            return None
        qualifier = word.group()
    terms = [first[0]]
    end = first[1]
    while len(terms) < MAX_UNIT_TERMS:
        separator = _SEPARATOR.match(text, end)
        if separator is None or (separator.end() == end and separator["op"] is None):
            break
        after = _GAP.match(text, separator.end())
        following = _term(text, after.end() if after else separator.end())
        if following is None:
            break
        (name, power), next_end = following
        terms.append((name, -power if separator["op"] in _DIVIDES else power))
        end = next_end
    merged: dict[str, Power] = {}
    for name, power in terms:
        merged[name] = _power(merged.get(name, 0) + power)
    canonical = tuple(sorted((name, power) for name, power in merged.items() if power != 0))
    if not canonical:
        return None
    return Unit(canonical, " ".join(text[position:end].split()), qualifier), end


def _term(text: str, position: int, *, spaced: bool = True) -> tuple[tuple[str, Power], int] | None:
    match = _TERM.match(text, position)
    if match is None or (not spaced and (match["name"] in SPACED or count_term(match["name"]) is not None)):
        return None
    name = unit_name(match["name"])
    if name is None:
        return None
    raw = match["exponent"] or (match["superscript"] or "").translate(_SUPERSCRIPTS)
    power: Power = 1
    if raw:
        digits = raw.lstrip("+-" + _MINUS)
        if not digits or digits[0] == ".":
            return None
        value = Fraction(digits)
        power = _power(-value if raw[0] in ("-", _MINUS) else value)
        if value == 0 or value > MAX_UNIT_EXPONENT:
            return (name, 1), match.end("name")  # the exponent is not the unit's: leave it to the reader
    end = match.end()
    if match["exponent"] and (text[match.start("exponent") - 1] == "(") != (text[end - 1] == ")"):
        # `d^(1/2` without its closing parenthesis, or `(1 km h^-1)` closing the expression's: the exponent
        # is what was read, and the parenthesis is not the unit's
        end = match.end("exponent")
    return (name, power), end


def _power(value: Fraction | int) -> Power:
    """An exponent as an int when it is whole (so `s^2` reads and prints as before), else the fraction."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def unit_after(text: str, end: int) -> Unit | None:
    r"""The unit a text writes right after a numeral ending at `end`, looking through LaTeX wrappers,
    siunitx's unit macros (`~\ps`, `\,\metre\per\second`) and a factor of mathematics before the unit
    (`1.3\times10^{-7}\sqrt{\tau}~m`: the numeral's unit is m, the factor is in `written`)."""
    window = text[end : end + _WINDOW]
    if not window or (window[0].isalnum() and not window[0].isalpha()):
        return None
    factor = _FACTOR.match(window)
    rest = window[factor.end() :] if factor else window
    macros = prose_unit(rest)
    found = read_unit(" " + macros if macros else clean_unit_text(rest))
    if found is None:
        return None
    if factor is None:
        return found[0]
    written = " ".join(clean_unit_text(factor.group()).split())
    return attrs.evolve(found[0], written=f"{written} {found[0].written}", factor=written)


def clean_unit_text(text: str) -> str:
    r"""A unit as LaTeX writes it, with the wrappers, braces and `$` removed and `\mu`, `\Omega` as letters."""
    return _WRAPPERS.sub("", _MACRO_LETTERS.sub(_macro_letter, text))


def _macro_letter(match: re.Match[str]) -> str:
    return "\N{MICRO SIGN}" if match.group().startswith(("\\mu", "\\micro")) else "\N{OHM SIGN}"
