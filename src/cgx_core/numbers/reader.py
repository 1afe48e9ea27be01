r"""Read the numerals of a chunk's text, and the numeral an agent writes, with one set of rules.

Every check type and classify's fixes read numbers through this module, so `1,000`, `\num{1000}`,
`1.2 \times 10^{3}`, `95\%` and "eleven" mean the same everywhere. credencegraph's own `numerals()` is not
enough: it returns floats, misses `\pm0.5` and reads `10^{-3}` as 10 and -3. The text is read as
credencegraph stores it (LaTeX with macros expanded). docs/numbers.md has the table of written forms.

Each numeral of a text is an `Occurrence`: the `Numeral` (canonical written form, exact value, rounding;
see `numeral.py`), the unit written after it (`units.py`), the relation written before it
(`relations.py`), and whether the text *reports* it or it is only a part of a longer numeral (the 10 and
the -3 of `10^{-3}`): a part may be an operand of a computation, never the result a check compares with.

The rules, and why:

* Digits are ASCII `0-9` only. A numeral is an integer part, an optional `.fraction` and optional
  decorations; `.5` is read as `0.5`.
* Thousands separators (`,`, `{,}`, `\,`, `\ `, `{\ }`, thin space, narrow no-break space) join groups of
  exactly three digits after a first group of 1-3 digits that does not start with 0: `12,000`, `12\,000`,
  `12\ 000` and `12{,}000` are 12000, while `0,100`, `1,50` and `{128, 64}` are separate numerals. A comma is
  never a decimal marker outside siunitx.
* A plain space or tie between digit groups (`10 000`, `10~000`) is also what separates a list ("sizes 64 128
  256"), and a wrong reading is worse than a missed one, so it joins groups (`_spaced_groups`) only when every
  reading but one is ruled out: the whole run of space-separated digits is one grouping (a first group of 1-3
  digits, then groups of three), no digit group stands beside it across a comma or semicolon ("64, 128 256"),
  and, outside mathematics, it has at least 5 digits and a later group that starts with 0, which no list
  item writes: `10 000`, `250 000` and `1 000 000` are one numeral, while `64 128 256`, `12 345`, `2 300`
  ("Table 2 300 samples") and `2019 100 000` stay separate. Inside mathematics a space prints nothing and a
  tie a space inside one formula, so `$12~345$` is 12345 with the first two conditions alone.
* A sign (`-`, `+`, or the Unicode minus U+2212) belongs to the numeral only when it does not follow a word
  character, `.`, `)`, `]`, `}` or `'`: `-4`, `=-3` and `{-3}` are negative, `5-3` and `f(x)-1` subtract.
* Digits glued to an identifier are not numerals: after a letter (`v2`, `H2O`), after `_` (`H_0`), or
  after a letter and a hyphen outside mathematics (`s-012`, `CIFAR-10`). Inside mathematics a hyphen after
  a letter subtracts (`$T-1$` contains 1). A control word is not an identifier: `\pm0.5` contains 0.5.
* Version and section numbers (`1.2.3`) are not numerals, nor is an ISO date (`2019-03-04`, see `dates.py`).
* Powers of ten: `2.7e-9` is one numeral. `4.1 \times 10^{-3}` (also `\cdot`, U+00D7, U+00B7, U+22C5, `*`, with
  `$` anywhere between the parts, as in `4.1$\times$10$^{-3}$`) is `4.1e-3`; `10^{4}`, `10$^4$` and
  `$10^4$` are `1e4`. Their written parts (`4.1`, `10`, `-3`, the power `1e-3`) are parts. Another base
  (`2^{10}`) gives only its base and exponent, as parts. A power above 100 in magnitude is not folded.
* A suffix glued to the digits multiplies: `50k` and `50K` are 50e3, `1.2M` is 1.2e6 (the digits alone
  are a part); `12 million`, `3 thousand` and `2 billion` likewise. (`B` is not read as billions: `3B`
  is far more often a figure panel.)
* A percent sign inside or outside mathematics (`95\%`, `95%`, `7 %`, `$<2$\%`, `\SI{95}{\percent}`) or the
  word percent ("7 percent", "7 per cent") gives `95%` (value 19/20), and the number `95` too.
* Number words ("eleven", "twenty-four", "two hundred", "half", "twice"; `words.py`) are exact: their
  `half_unit` is 0, since a word writes no digit to round ("zero mean" is 0, not 0 +- 0.5).
* siunitx macros are read with siunitx's own input rules (`siunitx.py`), their units included.
* The arguments of `\ref`, `\eqref`, `\cref`, `\label`, `\cite...`, `\url`, `\includegraphics` and the like
  are names, not numbers, and are skipped (`names.py`: the same rule the hand-written references follow).
* A numeral with more than MAX_NUMERAL_DIGITS digits is not read, so a hostile text costs linear time
  and never builds a huge number.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import NoReturn

import attrs

from cgx_core.codes import Code
from cgx_core.numbers.dates import ISO_DATE
from cgx_core.numbers.limits import MAX_EXPONENT, MAX_NUMERAL_DIGITS, MAX_RESULT_CHARS
from cgx_core.numbers.names import NAME_ARGUMENT
from cgx_core.numbers.numeral import Numeral, NumeralError, numeral_from_parts
from cgx_core.numbers.relations import relation_before
from cgx_core.numbers.siunitx import expand_siunitx
from cgx_core.numbers.units import Unit, clean_unit_text, read_unit, unit_after
from cgx_core.numbers.words import WORD_NUMERAL, word_value

_MINUS = "\N{MINUS SIGN}"


@attrs.frozen
class Occurrence:
    """One numeral where a text writes it: the numeral, its unit, the relation before it, and whether the
    text reports it (False for a part of a longer numeral, such as the 10 of `10^{-3}`)."""

    numeral: Numeral
    unit: Unit | None = None
    relation: str = "="
    hedge: str | None = None
    reported: bool = True


# -- reading a chunk's text ------------------------------------------------------------------------------

_SEP = r"(?:,|\{,\}|\\,|\\[ ]|\{\\[ ]\}|\u2009|\u202f)"
_GAP = r"(?:\s|~|\\[,;:! ]|\$)*"  # LaTeX spacing, and math delimiters, between the parts of a numeral
_SIGN = r"[-+\u2212]"
_TIMES = r"(?:\\times|\\cdot|\u00d7|\u00b7|\u22c5|\*)"
_SUFFIXES = {"k": 3, "K": 3, "M": 6}
_SCALES = {"thousand": 3, "million": 6, "billion": 9}


def _power(name: str) -> str:
    return rf"\^{_GAP}(?:\{{{_GAP}(?P<{name}b>{_SIGN}?[0-9]+){_GAP}\}}|(?P<{name}>{_SIGN}?[0-9]+))"


_NUMERAL = re.compile(
    rf"""
    (?P<sign>{_SIGN})?
    (?:
        (?P<grouped>[1-9][0-9]{{0,2}}(?:{_SEP}[0-9]{{3}})+)(?![0-9])
        | (?P<integer>[0-9]+)
        | (?=\.[0-9])
    )
    (?:\.(?P<fraction>[0-9]+))?
    (?P<dotted>(?:\.[0-9]+)+)?
    (?:
        [eE](?P<e>{_SIGN}?[0-9]+)(?![0-9])
        | {_GAP}{_TIMES}{_GAP}10{_GAP}{_power("times")}
        | {_GAP}{_power("power")}
        | (?P<suffix>[kKM])(?![A-Za-z0-9])
        | [ ](?P<scale>thousand|million|billion)(?![A-Za-z])
    )?
    (?P<percent>{_GAP}\\?%|[ ]?\\percent(?![A-Za-z])|[ ]per[ ]?cent(?![A-Za-z]))?
    """,
    re.VERBOSE,
)

# The delimiters of mathematics. They are paired in one pass (an opener waits for its own closer; an
# unclosed opener opens nothing), so a text full of unclosed `\begin{equation}` still costs linear time.
_MATH_DELIMITER = re.compile(
    r"(?<!\\)(?P<dollars>\$\$?)"
    r"|\\(?P<open>[(\[])|\\(?P<close>[)\]])"
    r"|\\(?P<side>begin|end)\{(?P<environment>(?:equation|align|gather|multline|eqnarray|math|displaymath"
    r"|flalign|alignat)\*?)\}"
)
_CLOSER = {"(": ")", "[": "]"}

_BINARY_BEFORE = frozenset(".)]}'")
_AGENT_NOISE = re.compile(r"[$]")  # math delimiters around a number an agent copied from the text
_NOT_DIGIT = re.compile(r"[^0-9]")


def read_text(text: str) -> tuple[Occurrence, ...]:
    """Every numeral of a chunk's text where it is written, in order (rules: module docstring)."""
    source = ISO_DATE.sub(_blank, NAME_ARGUMENT.sub(" ", expand_siunitx(text)))
    spans = _math_spans(source)
    starts = [start for start, _ in spans]
    source = _spaced_groups(source, lambda position: _in_math(spans, starts, position))
    found: list[tuple[int, int, Occurrence]] = []
    for match in _NUMERAL.finditer(source):
        unit = None if match["percent"] else unit_after(source, match.end())
        relation, hedge = relation_before(source, match.start())
        for index, (numeral, reported) in enumerate(_read_match(source, match, _in_math(spans, starts, match.start()))):
            occurrence = Occurrence(numeral, unit if reported else None, relation, hedge, reported)
            found.append((match.start(), index, occurrence))
    for match in WORD_NUMERAL.finditer(source):
        value = word_value(match)
        numeral = _exact(value)
        relation, hedge = relation_before(source, match.start())
        found.append((match.start(), 0, Occurrence(numeral, unit_after(source, match.end()), relation, hedge)))
    found.sort(key=lambda item: (item[0], item[1]))
    return tuple(occurrence for _, _, occurrence in found)


# A run of digit groups separated by one space, tie or line break, taken whole (possessive: never a shorter run).
_SPACED_RUN = re.compile(r"(?<![\w.\\])[0-9]++(?:[ \n~][0-9]++)++")
_GROUPING = re.compile(r"[1-9][0-9]{0,2}(?:[ \n~][0-9]{3})+")
_DIGITS_BEFORE = re.compile(r"[0-9][ \n~]*(?:[,;][ \n~]*)?\Z")
_DIGITS_AFTER = re.compile(r"[ \n~]*(?:[,;][ \n~]*)?[0-9]")
_GLUED_AFTER = re.compile(r"[A-Za-z_]")
_THIN_SPACE = "\u2009"


def _spaced_groups(source: str, in_math: Callable[[int], bool]) -> str:
    """The source with each space or tie that separates the groups of one numeral (module docstring) made a
    thin space, which the numeral pattern joins; every other space is left as it is. One character replaces
    one, so every position (of a unit, a relation, a piece of mathematics) stays where it was."""
    pieces: list[str] = []
    last = 0
    for match in _SPACED_RUN.finditer(source):
        start, end = match.span()
        if _GROUPING.fullmatch(match[0]) is None or _GLUED_AFTER.match(source, end):
            continue
        if _DIGITS_BEFORE.search(source, max(0, start - 8), start) or _DIGITS_AFTER.match(source, end):
            continue  # a digit group beside it: a list ("64, 128 256")
        groups = re.split(r"[ \n~]", match[0])
        if not in_math(start) and (len("".join(groups)) < 5 or not any(group[0] == "0" for group in groups[1:])):
            continue
        pieces += [source[last:start], _THIN_SPACE.join(groups)]
        last = end
    return "".join([*pieces, source[last:]]) if pieces else source


def _outside_math(position: int) -> bool:
    """An agent's numeral is read as prose (its `$` are dropped): nowhere inside mathematics."""
    return False


def _blank(match: re.Match[str]) -> str:
    """A date the text writes, as spaces: `2019-03-04` is one date, not the numerals 2019, -3 and -4."""
    return " " * len(match[0])


def find_numerals(text: str) -> tuple[Numeral, ...]:
    """Every numeral of a chunk's text, once each (by `written`), in order of first appearance."""
    seen: dict[str, Numeral] = {}
    for occurrence in read_text(text):
        seen.setdefault(occurrence.numeral.written, occurrence.numeral)
    return tuple(seen.values())


def _exact(value: Fraction) -> Numeral:
    """A number word's value as a numeral: a whole number, or the decimal of a factor such as 1/2, written as its
    digits would be but exact (`half_unit` 0). A word writes no digits, so it implies no rounding: "zero mean"
    states 0, not 0 +- 0.5 (which every mean of small values would pass), and "half" states 1/2, not anything
    from 0 to 1. A count computed from counts is a whole number, so it meets "eleven" exactly all the same."""
    if value.denominator == 1:
        written = numeral_from_parts(value < 0, str(abs(value.numerator)), "", None, False)
    else:
        integer, _, fraction = str(float(value)).partition(".")
        written = numeral_from_parts(False, integer, fraction, None, False)
    return attrs.evolve(written, half_unit=Fraction(0))


def _math_spans(source: str) -> list[tuple[int, int]]:
    """The (start, end) of each closed piece of mathematics, in order."""
    spans: list[tuple[int, int]] = []
    closer: str | None = None  # the delimiter that closes the open piece, when one is open
    start = 0
    for match in _MATH_DELIMITER.finditer(source):
        delimiter = match.group()
        if closer is None:
            if match["dollars"]:
                closer, start = delimiter, match.start()
            elif match["open"]:
                closer, start = "\\" + _CLOSER[match["open"]], match.start()
            elif match["side"] == "begin":
                closer, start = delimiter.replace("\\begin", "\\end", 1), match.start()
        elif delimiter == closer:
            spans.append((start, match.end()))
            closer = None
    return spans


def _in_math(spans: list[tuple[int, int]], starts: list[int], position: int) -> bool:
    index = bisect_right(starts, position) - 1
    return index >= 0 and position < spans[index][1]


def _read_match(source: str, match: re.Match[str], in_math: bool) -> Iterator[tuple[Numeral, bool]]:
    """The numerals one regex match stands for (each with whether it is reported), or none when its
    context makes it part of a name."""
    if match["dotted"]:
        return
    sign = match["sign"]
    start = match.start()
    before = source[start - 1] if start else ""
    negative = False
    if sign:
        if before.isalnum() or before == "_" or before in _BINARY_BEFORE:
            # A binary operator or a hyphen: the digits stand alone, unless they end a hyphenated name.
            if before.isalpha() and not in_math and not _ends_control_word(source, start - 1):
                return
        else:
            negative = sign != "+"
    elif before == "_" or (before.isalpha() and not _ends_control_word(source, start - 1)):
        return
    exponent_only = before == "^" or (before == "{" and source[start - 2 : start - 1] == "^")
    grouped = match["grouped"]
    integer = _NOT_DIGIT.sub("", grouped) if grouped else match["integer"] or ""
    fraction = match["fraction"] or ""
    if len(integer) + len(fraction) > MAX_NUMERAL_DIGITS:
        return
    percent = bool(match["percent"])
    times = match["times"] or match["timesb"]
    power = match["power"] or match["powerb"]
    scaled = match["suffix"] or match["scale"]
    if match["e"] is not None:
        exponent = _read_exponent(match["e"])
        if abs(exponent) <= MAX_EXPONENT:
            yield from _with_percent(negative, integer, fraction, exponent, percent)
    elif scaled:
        exponent = _SUFFIXES.get(scaled) or _SCALES[scaled]
        yield from _with_percent(negative, integer, fraction, exponent, percent)
        yield numeral_from_parts(negative, integer, fraction, None, False), False
    elif times is not None:
        exponent = _read_exponent(times)
        if abs(exponent) <= MAX_EXPONENT:
            yield from _with_percent(negative, integer, fraction, exponent, percent)
        yield numeral_from_parts(negative, integer, fraction, None, False), False
        yield numeral_from_parts(False, "10", "", None, False), False
        yield from _plain(times)
        if abs(exponent) <= MAX_EXPONENT:
            yield numeral_from_parts(False, "1", "", exponent, False), False
    elif power is not None:
        exponent = _read_exponent(power)
        if integer == "10" and not fraction and abs(exponent) <= MAX_EXPONENT:
            yield from _with_percent(negative, "1", "", exponent, percent)
        yield numeral_from_parts(negative, integer, fraction, None, False), False
        yield from _plain(power)
    elif exponent_only:  # the exponent of a power of something else (x^2, s^{-1}): a part, never reported
        yield numeral_from_parts(negative, integer, fraction, None, False), False
    else:
        yield from _with_percent(negative, integer, fraction, None, percent)


def _with_percent(
    negative: bool, integer: str, fraction: str, exponent: int | None, percent: bool
) -> Iterator[tuple[Numeral, bool]]:
    if percent:
        yield numeral_from_parts(negative, integer, fraction, exponent, True), True
    yield numeral_from_parts(negative, integer, fraction, exponent, False), True


def _plain(signed_digits: str) -> Iterator[tuple[Numeral, bool]]:
    """A signed integer written as an exponent, as a part of its own (within the digit cap)."""
    digits = signed_digits.lstrip("+-" + _MINUS)
    if len(digits) <= MAX_NUMERAL_DIGITS:
        yield numeral_from_parts(signed_digits[:1] in ("-", _MINUS), digits, "", None, False), False


def _ends_control_word(source: str, last: int) -> bool:
    """Whether the letters ending at `last` are a control word such as `\\pm`, which digits may follow."""
    index = last
    while index >= 0 and source[index].isascii() and source[index].isalpha():
        index -= 1
    return index != last and index >= 0 and source[index] == "\\" and (index == 0 or source[index - 1] != "\\")


def _read_exponent(text: str) -> int:
    """An exponent string as an int, or a value beyond any cap when it has too many digits to convert."""
    body = text.lstrip("+-" + _MINUS).lstrip("0")
    if len(body) > 6:
        return 10**7
    value = int(body or "0")
    return -value if text[:1] in ("-", _MINUS) else value


# -- reading what an agent writes ------------------------------------------------------------------------


def read_quantity(text: str, role: str = "result") -> tuple[Numeral, Unit | None]:
    """One numeral as an agent writes it, with the unit after it: `350`, `-4`, `0.8%`, `1.2e3`, `12,000`,
    `4.1 \\times 10^{-3}`, `\\num{1.2e3}`, `eleven`, `2 days`, `4.1e-3 m/s`, `\\SI{5}{\\hour}`.

    It is read with the text's own rules (siunitx expanded, `$` and braces looked through), and must be
    exactly one numeral, optionally followed by a unit and nothing else. Raises `expression-invalid` when
    it is not, `expression-too-large` over the caps and `exponent-too-large` for a power of ten over
    MAX_EXPONENT.
    """
    if len(text) > MAX_RESULT_CHARS:
        raise NumeralError(
            Code.EXPRESSION_TOO_LARGE,
            f"the {role} has {len(text)} characters; at most {MAX_RESULT_CHARS} are accepted",
        )
    cleaned = _spaced_groups(_AGENT_NOISE.sub("", expand_siunitx(text).replace("{,}", ",")).strip(), _outside_math)
    match = _NUMERAL.match(cleaned)
    word = WORD_NUMERAL.match(cleaned)
    chosen: Numeral | None = None
    end = 0
    if match is not None and match.end() > 0:
        _check_caps(match, text, role)
        numerals = [numeral for numeral, is_reported in _read_match(cleaned, match, False) if is_reported]
        percent = [numeral for numeral in numerals if numeral.written.endswith("%")]
        chosen = (percent or numerals)[0] if numerals else None
        end = match.end()
    elif word is not None:
        chosen, end = _exact(word_value(word)), word.end()
    if chosen is None:
        _not_a_numeral(text, role)
    assert chosen is not None
    rest = clean_unit_text(cleaned[end:]).rstrip()
    unit: Unit | None = None
    if rest.strip():
        found = read_unit(rest)
        if chosen.written.endswith("%") or found is None or rest[found[1] :].strip():
            _not_a_unit(text, role, rest[found[1] :] if found and not chosen.written.endswith("%") else rest)
        unit = found[0]
    return chosen, unit


def read_numeral(text: str, role: str = "result") -> Numeral:
    """One numeral as an agent writes it, without a unit (see `read_quantity`)."""
    numeral, unit = read_quantity(text, role)
    if unit is not None:
        raise NumeralError(
            Code.EXPRESSION_INVALID, f"the {role} {text!r} has a unit ({unit.written}); give the number alone"
        )
    return numeral


def read_token(
    text: str,
    column: int,
    *,
    exponent: int | None = None,
    percent: bool = False,
    max_exponent: int = MAX_EXPONENT,
    exponent_code: Code = Code.EXPONENT_TOO_LARGE,
) -> Numeral:
    """A numeral token a grammar has lexed (`350`, `6.25`, `1.2e3`: ASCII digits, a point, an `e` power), read
    with the reader's rules to the same exact value and written form. A caller that lexes a `%` or a scale
    suffix (`50k`) strips it and passes `percent` or `exponent`; a grammar with a larger power cap passes its
    own `max_exponent` and `exponent_code`. NumeralError when the token is over the caps."""
    mantissa, marker, power = text.lower().partition("e")
    if marker:
        exponent = _read_exponent(power)
        if abs(exponent) > max_exponent:
            raise NumeralError(
                exponent_code, f"the numeral {text[:30]} at column {column} has a power of ten above {max_exponent}"
            )
    integer, _, fraction = mantissa.partition(".")
    if len(integer) + len(fraction) > MAX_NUMERAL_DIGITS:
        raise NumeralError(
            Code.EXPRESSION_TOO_LARGE,
            f"the numeral at column {column} has {len(integer) + len(fraction)} digits; "
            f"at most {MAX_NUMERAL_DIGITS} are accepted",
        )
    return numeral_from_parts(False, integer, fraction, exponent, percent)


def _check_caps(match: re.Match[str], text: str, role: str) -> None:
    digits = len(_NOT_DIGIT.sub("", match["grouped"] or match["integer"] or "")) + len(match["fraction"] or "")
    if digits > MAX_NUMERAL_DIGITS:
        raise NumeralError(
            Code.EXPRESSION_TOO_LARGE,
            f"the {role} {text[:20]!r}... has {digits} digits; at most {MAX_NUMERAL_DIGITS} are accepted",
        )
    exponent = match["e"] or match["times"] or match["timesb"] or match["power"] or match["powerb"]
    if exponent is not None and abs(_read_exponent(exponent)) > MAX_EXPONENT:
        raise NumeralError(
            Code.EXPONENT_TOO_LARGE, f"the {role} {text[:30]!r} has a power of ten above {MAX_EXPONENT} in magnitude"
        )


def _not_a_unit(text: str, role: str, unread: str) -> NoReturn:
    """The refusal of a quantity whose unit cannot be read: it names the words and what to write."""
    words = " ".join(unread.split())[:40]
    raise NumeralError(
        Code.EXPRESSION_INVALID,
        f"the {role} {text[:60]!r} ends with {words!r}, which the numeral reader does not read as a unit: write "
        "the unit as the text does with a symbol or word it knows (s, min, h, d, day, m, km, g, kg, L, mL, Hz, "
        "GB, %, ...; one qualifier word may stand before it, as in '10 GPU hours'), or the number alone; "
        "docs/numbers.md lists the units (a count such as '120 C' or '30 cells' is a unit only when the rubric "
        "declares it in the [counts] table of its tolerances file)",
    )


def _not_a_numeral(text: str, role: str) -> NoReturn:
    raise NumeralError(
        Code.EXPRESSION_INVALID,
        f"the {role} {text[:60]!r} is not one numeral; write it as the text does, such as 350, -4, 0.35, 0.8%, "
        "1.2e3, 12,000 or 2 days",
    )
