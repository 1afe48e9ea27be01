r"""The numerals a chunk's text contains, as exact decimals with the rounding their digits imply.

recompute-numbers lets an agent compute only with numbers the document writes, and compares the result
with a number the document reports. credencegraph's `numerals()` is not enough for that: it returns floats,
misses `\pm0.5` and reads `10^{-3}` as 10 and -3. This module reads the chunk text as credencegraph stores
it (LaTeX with macros expanded) and returns each numeral with

* `written`: a canonical written form, `-?DIGITS(.DIGITS)?(e-?INT)?%?`: no separators, no `+`, no leading
  zeros before the units digit, the power of ten folded into `e<int>`. Two texts that write the same decimal
  the same way give the same `written`, which is what a reported result is compared with;
* `value`: the exact `Fraction` the digits write (a `%` numeral is the number / 100), never a float;
* `half_unit`: half of one unit of the last written digit, scaled like the value (350 -> 1/2,
  0.35 -> 1/200, 1.2e3 -> 50, 0.8% -> 1/2000): the rounding the writer's own digits imply.

The rules, and why:

* Digits are ASCII `0-9` only. A numeral is an integer part, an optional `.fraction` and optional
  decorations; `.5` is read as `0.5`.
* Thousands separators (`,`, `{,}`, `\,`, thin space, narrow no-break space) join groups of exactly three
  digits after a first group of 1-3 digits that does not start with 0: `1,000` and `$10\,000$` are 1000 and
  10000, while `0,100`, `1,50` and `{128, 64}` are separate numerals. A comma is never a decimal marker
  outside siunitx.
* A sign (`-`, `+`, or the Unicode minus U+2212) belongs to the numeral only when it does not follow a word
  character, `.`, `)`, `]`, `}` or `'`: `-4`, `=-3` and `{-3}` are negative, `5-3` and `f(x)-1` subtract.
  `+` is dropped from the written form.
* Digits glued to an identifier are not numerals: after a letter (`v2`, `s2`, `H2O`), after `_` (`H_0`,
  `b_2`), or after a letter and a hyphen outside mathematics (`s-012`, `CIFAR-10`, `ResNet-18`). Inside
  mathematics (`$...$`, `\(...\)`, `\[...\]`, equation environments) a hyphen after a letter subtracts:
  `$T-1$` contains 1. A control word is not an identifier: `\pm0.5` and `\cdot10` contain 0.5 and 10.
  A braced subscript is read (`_{-0.03}` is an error bar). A delimiter of mathematics that is never
  closed (a lone `$`) opens nothing.
* Version and section numbers (`1.2.3`) are not numerals.
* Powers of ten: `2.5e-5` is one numeral. `1.2 \times 10^{3}` (also with `\cdot`, U+00D7, U+00B7, U+22C5 or `*`)
  is the numeral `1.2e3`, and its written parts `1.2`, `10`, `3` and the power `1e3` are numerals too, so an
  agent may write `1.2e3` or `1.2 * 10**3`. `10^{-3}` is `1e-3`, plus `10` and `-3`; another base (`2^{10}`)
  gives only its base and exponent, since the agent can write `2**10`. A power of ten above 100 in
  magnitude is not folded (its parts still are numerals).
* A percent sign (`95\%`, `95%`, `95 \%`) gives two numerals: `95%` (value 19/20) and `95`.
* siunitx: `\num{}`, `\numlist{}`, `\numrange{}{}`, `\SI{}{}`, `\qty{}{}`, `\SIlist`, `\SIrange`, `\qtylist`
  and `\qtyrange` are read with siunitx's own input rules (spaces group digits, `,` is a decimal marker,
  `e`/`d` start an exponent, `x` multiplies, `+-` is an uncertainty); a `\percent` unit adds a `%`.
* The arguments of `\ref`, `\eqref`, `\cref`, `\label`, `\cite...`, `\url`, `\includegraphics` and the like
  are names, not numbers, and are skipped.
* A numeral with more than MAX_NUMERAL_DIGITS digits is not read (no expression could use it), so a hostile
  text costs linear time and never builds a huge number.

Each numeral is returned once (by `written`), in the order of first appearance.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import attrs

from cgx_checks.arithmetic.limits import MAX_EXPONENT, MAX_NUMERAL_DIGITS, MAX_RESULT_CHARS
from cgx_core.codes import Code
from cgx_core.errors import CgxError

_MINUS = "\N{MINUS SIGN}"
_HALF = Fraction(1, 2)


@attrs.frozen
class Numeral:
    """One numeral: its canonical written form, its exact value and the rounding its digits imply."""

    written: str
    value: Fraction
    half_unit: Fraction

    def to_json(self) -> dict[str, Any]:
        """The numeral as JSON: fractions as `p/q` strings, keys in a stable order."""
        return {
            "half_unit": fraction_text(self.half_unit),
            "value": fraction_text(self.value),
            "written": self.written,
        }


def fraction_text(value: Fraction) -> str:
    """A fraction as `p/q`, always with the slash, so a reader parses one format."""
    return f"{value.numerator}/{value.denominator}"


def numeral_from_parts(negative: bool, integer: str, fraction: str, exponent: int | None, percent: bool) -> Numeral:
    """Build a numeral from its written parts (ASCII digit strings, no separators).

    The caller has checked the caps (digit count, exponent size), so the integers built here stay small.
    """
    integer = integer.lstrip("0") or "0"
    written = ("-" if negative else "") + integer
    if fraction:
        written += "." + fraction
    scale = -len(fraction)
    if exponent is not None:
        written += f"e{exponent}"
        scale += exponent
    if percent:
        written += "%"
        scale -= 2
    unit = Fraction(10) ** scale
    digits = int(integer + fraction)
    value = digits * unit
    return Numeral(written=written, value=-value if negative else value, half_unit=unit * _HALF)


# -- reading a reported result -------------------------------------------------------------------------

_RESULT = re.compile(r"([-+\u2212]?)([0-9]*)(?:\.([0-9]+))?(?:[eE]([-+\u2212]?[0-9]+))?\s*(%?)")


def read_numeral(text: str) -> Numeral:
    """Read a numeral as an agent writes a reported result (`350`, `-4`, `0.8%`, `1.2e3`, `1.2E+03`).

    Raises `expression-invalid` when the text is not one numeral, and `expression-too-large` when it is
    longer than the caps allow.
    """
    if len(text) > MAX_RESULT_CHARS:
        raise CgxError(
            Code.EXPRESSION_TOO_LARGE,
            f"the result has {len(text)} characters; at most {MAX_RESULT_CHARS} are accepted",
        )
    match = _RESULT.fullmatch(text.strip())
    if match is None or not (match[2] or match[3]):
        raise CgxError(
            Code.EXPRESSION_INVALID,
            f"the result {text!r} is not a numeral; write it as the text does, such as 350, -4, 0.35, 0.8% or 1.2e3",
        )
    sign, integer, fraction, exponent, percent = match.groups()
    _check_digits(integer, fraction or "", text)
    power = _read_exponent(exponent) if exponent else None
    if power is not None and abs(power) > MAX_EXPONENT:
        raise CgxError(
            Code.EXPONENT_TOO_LARGE,
            f"the result {text!r} has a power of ten above {MAX_EXPONENT} in magnitude",
        )
    return numeral_from_parts(sign in ("-", _MINUS), integer, fraction or "", power, bool(percent))


def _check_digits(integer: str, fraction: str, text: str) -> None:
    digits = len(integer) + len(fraction)
    if digits > MAX_NUMERAL_DIGITS:
        raise CgxError(
            Code.EXPRESSION_TOO_LARGE,
            f"the numeral {text[:20]!r}... has {digits} digits; at most {MAX_NUMERAL_DIGITS} are accepted",
        )


def _read_exponent(text: str) -> int:
    """An exponent string as an int, or a value beyond any cap when it has too many digits to convert."""
    body = text.lstrip("+-" + _MINUS).lstrip("0")
    if len(body) > 6:
        return 10**7
    value = int(body or "0")
    return -value if text[:1] in ("-", _MINUS) else value


# -- reading a chunk's text ------------------------------------------------------------------------------

_SEP = r"(?:,|\{,\}|\\,|\u2009|\u202f)"
_GAP = r"(?:\s|~|\\[,;:! ])*"  # LaTeX spacing between the parts of a numeral
_SIGN = r"[-+\u2212]"
_TIMES = r"(?:\\times|\\cdot|\u00d7|\u00b7|\u22c5|\*)"


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
    )?
    (?P<percent>{_GAP}\\?%)?
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

_NAMES = re.compile(
    r"\\(?:ref|eqref|cref|Cref|autoref|pageref|label|cite[A-Za-z]*|url|href|hyperref|includegraphics|input|include)"
    r"\*?(?:\s*\[[^\[\]]*\])*\s*\{[^{}]*\}"
)

_SIUNITX = re.compile(r"\\(num|numlist|numrange|SI|SIlist|SIrange|qty|qtylist|qtyrange)(?![A-Za-z])")
_NUMBER_ARGUMENTS = {"num": 1, "numlist": 1, "numrange": 2, "SI": 1, "SIlist": 1, "SIrange": 2}
_NUMBER_ARGUMENTS |= {"qty": 1, "qtylist": 1, "qtyrange": 2}
_UNIT_ARGUMENT = {"SI", "SIlist", "SIrange", "qty", "qtylist", "qtyrange"}
_SIUNITX_EXPONENT = re.compile(r"([0-9.])[eEdD]([-+\u2212]?[0-9])")
_SIUNITX_TIMES = re.compile(r"\\times|x")
_SIUNITX_SPACE = re.compile(r"\s+|\\[,;:! ]|~|\{,\}")
_SIUNITX_UNCERTAINTY = re.compile(r"\+-|\\pm(?![A-Za-z])")

_BINARY_BEFORE = frozenset(".)]}'")
_NOT_DIGIT = re.compile(r"[^0-9]")
# A siunitx argument: braces nested one deep at most and at most 200 characters, so an unclosed macro
# costs a bounded scan. A longer argument is not a number; the macro is then left as it is.
_BRACE_GROUP = re.compile(r"\{((?:[^{}]|\{[^{}]{0,200}\}){0,200})\}")


def find_numerals(text: str) -> tuple[Numeral, ...]:
    """Every numeral of a chunk's text, once each, in order of first appearance (rules: module docstring)."""
    source = _NAMES.sub(" ", _expand_siunitx(text))
    spans = _math_spans(source)
    starts = [start for start, _ in spans]
    seen: dict[str, Numeral] = {}
    for match in _NUMERAL.finditer(source):
        for numeral in _read_match(source, match, _in_math(spans, starts, match.start())):
            seen.setdefault(numeral.written, numeral)
    return tuple(seen.values())


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


def _read_match(source: str, match: re.Match[str], in_math: bool) -> Iterator[Numeral]:
    """The numerals one regex match stands for, or none when its context makes it part of a name."""
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
    grouped = match["grouped"]
    integer = _NOT_DIGIT.sub("", grouped) if grouped else match["integer"] or ""
    fraction = match["fraction"] or ""
    if len(integer) + len(fraction) > MAX_NUMERAL_DIGITS:
        return
    percent = bool(match["percent"])
    times = match["times"] or match["timesb"]
    power = match["power"] or match["powerb"]
    if match["e"] is not None:
        exponent = _read_exponent(match["e"])
        if abs(exponent) <= MAX_EXPONENT:
            yield from _with_percent(negative, integer, fraction, exponent, percent)
    elif times is not None:
        exponent = _read_exponent(times)
        if abs(exponent) <= MAX_EXPONENT:
            yield from _with_percent(negative, integer, fraction, exponent, percent)
        yield numeral_from_parts(negative, integer, fraction, None, False)
        yield numeral_from_parts(False, "10", "", None, False)
        yield from _plain(times)
        if abs(exponent) <= MAX_EXPONENT:
            yield numeral_from_parts(False, "1", "", exponent, False)
    elif power is not None:
        exponent = _read_exponent(power)
        if integer == "10" and not fraction and abs(exponent) <= MAX_EXPONENT:
            yield from _with_percent(negative, "1", "", exponent, percent)
        yield numeral_from_parts(negative, integer, fraction, None, False)
        yield from _plain(power)
    else:
        yield from _with_percent(negative, integer, fraction, None, percent)


def _with_percent(
    negative: bool, integer: str, fraction: str, exponent: int | None, percent: bool
) -> Iterator[Numeral]:
    if percent:
        yield numeral_from_parts(negative, integer, fraction, exponent, True)
    yield numeral_from_parts(negative, integer, fraction, exponent, False)


def _plain(signed_digits: str) -> Iterator[Numeral]:
    """A signed integer written as an exponent, as a numeral of its own (within the digit cap)."""
    digits = signed_digits.lstrip("+-" + _MINUS)
    if len(digits) <= MAX_NUMERAL_DIGITS:
        yield numeral_from_parts(signed_digits[:1] in ("-", _MINUS), digits, "", None, False)


def _ends_control_word(source: str, last: int) -> bool:
    """Whether the letters ending at `last` are a control word such as `\\pm`, which digits may follow."""
    index = last
    while index >= 0 and source[index].isascii() and source[index].isalpha():
        index -= 1
    return index != last and index >= 0 and source[index] == "\\" and (index == 0 or source[index - 1] != "\\")


def _expand_siunitx(text: str) -> str:
    r"""Rewrite siunitx macros as plain LaTeX numerals, following siunitx's input rules.

    `\num{1 234,5e3}` becomes ` 1234.5e3 `; `\SI{95}{\percent}` becomes ` 95\% `; a unit argument is dropped
    (a unit is not a number). A macro whose braces do not close is left as it is.
    """
    if "\\" not in text:
        return text
    pieces: list[str] = []
    position = 0
    for match in _SIUNITX.finditer(text):
        if match.start() < position:
            continue
        parsed = _siunitx_arguments(text, match.end(), match[1])
        if parsed is None:
            continue
        numbers, unit, end = parsed
        rewritten = " ".join(_siunitx_number(number) for number in numbers)
        if unit is not None and unit.strip() == "\\percent":
            rewritten += "\\%"
        pieces.append(text[position : match.start()])
        pieces.append(f" {rewritten} ")
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _siunitx_arguments(text: str, position: int, name: str) -> tuple[list[str], str | None, int] | None:
    """The number arguments and unit of a siunitx macro starting at `position`, and where it ends."""
    position = _skip_optional(text, position)
    numbers: list[str] = []
    for _ in range(_NUMBER_ARGUMENTS[name]):
        group = _brace_group(text, _skip_space(text, position))
        if group is None:
            return None
        content, position = group
        numbers.extend(content.split(";") if name.endswith("list") else [content])
    unit: str | None = None
    if name in _UNIT_ARGUMENT:
        group = _brace_group(text, _skip_space(text, _skip_optional(text, position)))
        if group is not None:
            unit, position = group
    return numbers, unit, position


def _siunitx_number(content: str) -> str:
    parts = [_SIUNITX_SPACE.sub("", part).replace(",", ".") for part in _SIUNITX_UNCERTAINTY.split(content)]
    parts = [_SIUNITX_TIMES.sub(" \\\\times ", _SIUNITX_EXPONENT.sub(r"\1e\2", part)) for part in parts]
    return " \\pm ".join(parts)


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _skip_optional(text: str, position: int) -> int:
    position = _skip_space(text, position)
    if position < len(text) and text[position] == "[":
        close = text.find("]", position)
        if close != -1:
            return close + 1
    return position


def _brace_group(text: str, position: int) -> tuple[str, int] | None:
    """The content of the brace group opening at `position`, and the index after it."""
    match = _BRACE_GROUP.match(text, position)
    return (match[1], match.end()) if match else None
