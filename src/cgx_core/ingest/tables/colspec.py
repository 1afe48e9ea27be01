r"""A tabular's column specification, read for what the rows need: how many columns, and which are siunitx
`S` columns (whose cells siunitx reads as numbers, so a row writes them as `\num{...}`).

The specification is read character by character with brace matching, as LaTeX's array package reads it:
`l c r X S s J L C R` and any other letter is a column; `p m b` take a width, `w W` an alignment and a width,
`D` (dcolumn) three arguments; `@{} !{} >{} <{}` insert material and are no column; `|` and `:` are rules;
`*{n}{spec}` repeats. A letter defined with `\newcolumntype` and arguments of its own may be read as more
columns than it is: the rows' own cell counts win (the table has as many columns as its widest row).
Repetition is capped, so `*{1000000}{c}` costs no more than `MAX_TABLE_COLUMNS` columns.
"""

from __future__ import annotations

from cgx_core.base.limits import MAX_TABLE_COLUMNS

_NO_COLUMN_WITH_ARGUMENT = frozenset("@!><")
_RULES = frozenset("|:;")
_ARGUMENTS = {**dict.fromkeys("pmbPMB", 1), **dict.fromkeys("wW", 2), "D": 3}
"""The arguments a column letter takes (a width; an alignment and a width; dcolumn's three)."""
_OPTIONAL_ARGUMENT = frozenset("SsXQ")


def _group_end(text: str, start: int) -> int:
    """The index just after the brace group that opens at `text[start]` (or the end of the text); a backslash
    escapes the character after it."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return len(text)


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index].isspace():
        index += 1
    return index


def _argument(text: str, index: int) -> tuple[str, int]:
    """The argument at `index` (a brace group's content, or one character) and the index after it."""
    index = _skip_space(text, index)
    if index >= len(text):
        return "", index
    if text[index] == "{":
        end = _group_end(text, index)
        return text[index + 1 : end - 1], end
    return text[index], index + 1


def _skip_arguments(text: str, index: int, count: int) -> int:
    for _ in range(count):
        _, index = _argument(text, index)
    return index


def _skip_optional(text: str, index: int) -> int:
    after = _skip_space(text, index)
    if after < len(text) and text[after] == "[":
        depth = 0
        while after < len(text):
            if text[after] == "[":
                depth += 1
            elif text[after] == "]":
                depth -= 1
                if depth == 0:
                    return after + 1
            after += 1
        return len(text)
    return index


def column_kinds(spec: str) -> tuple[str, ...]:
    """The letter of each column the specification declares, in order, at most `MAX_TABLE_COLUMNS`."""
    kinds: list[str] = []
    _read(spec, kinds, 0)
    return tuple(kinds[:MAX_TABLE_COLUMNS])


def _read(spec: str, kinds: list[str], depth: int) -> None:
    index = 0
    while index < len(spec) and len(kinds) < MAX_TABLE_COLUMNS:
        char = spec[index]
        if char.isspace() or char in _RULES:
            index += 1
        elif char == "\\":  # a macro such as \vline or \extracolsep: no column
            index += 1
            while index < len(spec) and spec[index].isalpha():
                index += 1
        elif char in _NO_COLUMN_WITH_ARGUMENT:
            index = _skip_arguments(spec, index + 1, 1)
        elif char == "*":
            count_text, index = _argument(spec, index + 1)
            body, index = _argument(spec, index)
            count = int(count_text.strip()) if count_text.strip().isdigit() else 1
            for _ in range(min(count, MAX_TABLE_COLUMNS)):
                if len(kinds) >= MAX_TABLE_COLUMNS or depth >= 8:
                    break
                _read(body, kinds, depth + 1)
        elif char == "{":  # a stray group: material, no column
            index = _group_end(spec, index)
        elif char.isalpha():
            kinds.append(char)
            index = _skip_arguments(spec, index + 1, _ARGUMENTS.get(char, 0))
            if char in _OPTIONAL_ARGUMENT:
                index = _skip_optional(spec, index)
        else:
            index += 1
