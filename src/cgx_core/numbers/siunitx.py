r"""siunitx macros rewritten as the plain LaTeX the numeral reader reads, following siunitx's input rules.

`\num{1 234,5e3}` becomes ` 1234.5e3 `, `\SI{95}{\percent}` becomes ` 95\% `, `\SI{5}{\hour}` becomes
` 5 h `, `\qty{4.1e-3}{\metre\per\second}` becomes ` 4.1e-3 m s^-1 `: spaces group digits, `,` is a decimal
marker, `e`/`d` start an exponent, `x` multiplies, `+-` is an uncertainty. A unit argument made of unit
macros (prefixes, units, `\per`, `\squared`, `\cubed`, `\square`, `\cubic`, `\tothe{n}`) is written with
the symbols of `units.py`; a literal unit (`{m/s}`) is kept; one with a macro siunitx defines but this
reader does not know is dropped, so no unit is read rather than a wrong one. `\si{..}` and `\unit{..}`
give their unit alone. A macro whose braces do not close is left as it is.
"""

from __future__ import annotations

import re
from typing import Final

_SIUNITX = re.compile(r"\\(num|numlist|numrange|SI|SIlist|SIrange|qty|qtylist|qtyrange|si|unit)(?![A-Za-z])")
_NUMBER_ARGUMENTS: Final = {"num": 1, "numlist": 1, "numrange": 2, "SI": 1, "SIlist": 1, "SIrange": 2}
_NUMBER_ARGUMENTS_MORE: Final = {"qty": 1, "qtylist": 1, "qtyrange": 2, "si": 0, "unit": 0}
_ARGUMENTS: Final = _NUMBER_ARGUMENTS | _NUMBER_ARGUMENTS_MORE
_UNIT_ARGUMENT: Final = frozenset({"SI", "SIlist", "SIrange", "qty", "qtylist", "qtyrange", "si", "unit"})
_SIUNITX_EXPONENT = re.compile(r"([0-9.])[eEdD]([-+\u2212]?[0-9])")
_SIUNITX_TIMES = re.compile(r"\\times|x")
_SIUNITX_SPACE = re.compile(r"\s+|\\[,;:! ]|~|\{,\}")
_SIUNITX_UNCERTAINTY = re.compile(r"\+-|\\pm(?![A-Za-z])")
# A siunitx argument: braces nested one deep at most and at most 200 characters, so an unclosed macro
# costs a bounded scan. A longer argument is not a number; the macro is then left as it is.
_BRACE_GROUP = re.compile(r"\{((?:[^{}]|\{[^{}]{0,200}\}){0,200})\}")

_PREFIXES: Final = {
    "peta": "P",
    "tera": "T",
    "giga": "G",
    "mega": "M",
    "kilo": "k",
    "centi": "c",
    "milli": "m",
    "micro": "\N{MICRO SIGN}",
    "nano": "n",
    "pico": "p",
    "femto": "f",
}
_UNITS: Final = {
    "metre": "m",
    "meter": "m",
    "gram": "g",
    "kilogram": "kg",
    "second": "s",
    "minute": "min",
    "hour": "h",
    "day": "day",
    "hertz": "Hz",
    "newton": "N",
    "joule": "J",
    "watt": "W",
    "volt": "V",
    "pascal": "Pa",
    "electronvolt": "eV",
    "mole": "mol",
    "ampere": "A",
    "ohm": "\N{OHM SIGN}",
    "kelvin": "K",
    "byte": "B",
    "bit": "b",
    "litre": "L",
    "liter": "L",
}
_ABBREVIATED_PREFIXES: Final = {
    "s": "fpnum",
    "m": "fpnumck",
    "g": "fpnumk",
    "mol": "pnumk",
    "A": "pnumk",
    "L": "um",
    "Hz": "mkMGT",
    "N": "mkM",
    "Pa": "kMG",
    "V": "mk",
    "W": "umkMG",
    "J": "k",
    "eV": "mkMGT",
    "B": "kMGT",
}
_ABBREVIATED: Final = {
    prefix + base: prefix.replace("u", "\N{MICRO SIGN}") + base
    for base, prefixes in (_ABBREVIATED_PREFIXES | {"min": "", "h": "", "K": ""}).items()
    for prefix in ("", *prefixes)
}
r"""siunitx's abbreviated units (`\ps`, `\km`, `\GHz`, ...), each written as the symbol `units.py` reads."""
_SPELLED_OUT: Final = frozenset(name for name in _UNITS if len(name) > 3)
r"""Unit macros whose name is a whole word (`\second`, `\metre`): read as a unit after a numeral in prose too."""
_POWERS: Final = {"square": 2, "cubic": 3, "squared": 2, "cubed": 3}
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")  # so no exponent reads as a numeral of its own
_UNIT_MACRO = re.compile(r"\\([A-Za-z]+)(?:\s*\{([^{}]*)\})?|\s+|~|\\[,;:! ]|\.")


def expand_siunitx(text: str) -> str:
    """The text with every siunitx macro rewritten as plain LaTeX (rules: module docstring)."""
    if "\\" not in text:
        return text
    pieces: list[str] = []
    position = 0
    for match in _SIUNITX.finditer(text):
        if match.start() < position:
            continue
        parsed = _arguments(text, match.end(), match[1])
        if parsed is None:
            continue
        numbers, unit, end = parsed
        rewritten = " ".join(_number(number) for number in numbers)
        if unit is not None:
            if unit.strip() == "\\percent":
                rewritten += "\\%"
            else:
                rewritten += " " + unit_text(unit)
        pieces.append(text[position : match.start()])
        pieces.append(f" {rewritten} ")
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def unit_text(argument: str) -> str:
    r"""A siunitx unit argument as plain unit text: `\kilo\metre\per\hour` -> `km h^-1`; "" when unknown."""
    if "\\" not in argument:
        return argument.strip()
    terms: list[list[str | int]] = []  # [symbol, exponent]
    prefix = ""
    power_next = 1
    divide_next = False
    position = 0
    while position < len(argument):
        match = _UNIT_MACRO.match(argument, position)
        if match is None:
            return ""
        position = match.end()
        name = match[1]
        if name is None:
            continue
        if name in _PREFIXES:
            prefix += _PREFIXES[name]
        elif name == "per":
            divide_next = True
        elif name in ("square", "cubic"):
            power_next = _POWERS[name]
        elif name in ("squared", "cubed") and terms:
            terms[-1][1] = int(terms[-1][1]) * _POWERS[name]
        elif name == "tothe" and terms and (match[2] or "").strip().lstrip("-").isdigit():
            terms[-1][1] = int(terms[-1][1]) * int((match[2] or "").strip())
        elif name in _UNITS or (name in _ABBREVIATED and not prefix):
            symbol = _UNITS.get(name) or _ABBREVIATED[name]
            if prefix and symbol == "kg":
                return ""
            exponent = -power_next if divide_next else power_next
            terms.append([prefix + symbol, exponent])
            prefix, power_next, divide_next = "", 1, False
        else:
            return ""
    return " ".join(str(symbol) + ("" if power == 1 else str(power).translate(_SUPERSCRIPT)) for symbol, power in terms)


_POSTFIX: Final = frozenset({"squared", "cubed", "tothe"})
_MACRO_WITH_ARGUMENT = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])(?:\s*\{[^{}]*\})?")
_PROSE_UNIT = re.compile(
    r"(?:\s|~|\\[,;:! ])*(?P<run>(?:\\(?:[A-Za-z]+)(?![A-Za-z])(?:\s*\{[^{}]*\})?(?:\s|~|\\[,;:! ])*){1,8})"
)


def prose_unit(text: str) -> str | None:
    r"""The unit siunitx's macros write at the start of a prose text (`~\ps`, `\,\metre\per\second`), as plain
    unit text, or None. In prose only multi-letter abbreviations (`\ps`, `\km`) and spelled-out units (`\second`)
    are read, with prefixes, `\per` and powers: a one-letter macro such as `\L` or `\H` is a character or an
    accent outside a siunitx argument. The run of macros stops before the first that is not a unit's."""
    found = _PROSE_UNIT.match(text)
    if found is None:
        return None
    macros = list(_MACRO_WITH_ARGUMENT.finditer(found["run"]))
    kept = 0
    for index, macro in enumerate(macros):
        name = macro[1]
        if name in _SPELLED_OUT or (name in _ABBREVIATED and len(name) > 1) or (kept and name in _POSTFIX):
            kept = index + 1
        elif name not in _PREFIXES and name not in _POWERS and name not in ("per", "tothe"):
            break
    return unit_text("".join(macro.group() for macro in macros[:kept])) or None if kept else None


def _arguments(text: str, position: int, name: str) -> tuple[list[str], str | None, int] | None:
    """The number arguments and unit of a siunitx macro starting at `position`, and where it ends."""
    position = _skip_optional(text, position)
    numbers: list[str] = []
    for _ in range(_ARGUMENTS[name]):
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
        elif not numbers:
            return None
    return numbers, unit, position


def _number(content: str) -> str:
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
