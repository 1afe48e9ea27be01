r"""LaTeX's counters and how it prints them: the values, which counter resets which, and `\the<counter>`.

A counter prints through its `\the<counter>` representation. The defaults are those of the standard classes
(article: `\thesection` is `\arabic{section}`, `\thesubsection` is `\thesection.\arabic{subsection}`; report
and book number equations, tables and figures within chapters). A paper may redefine a representation
(`\renewcommand{\thetable}{A\arabic{table}}`) or number a counter within another (`\numberwithin`,
`\counterwithin`); `\appendix` letters the top level. A redefinition is read by `render_template`, which
knows the counter-printing macros; one that uses anything else makes the number unknown (`None`), never a
guess: a cross-reference check then says it cannot decide instead of failing a right reference.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from typing import Final

import attrs

SECTION_LEVELS: Final = ("chapter", "section", "subsection", "subsubsection")
FLOAT_COUNTERS: Final = ("table", "figure")
_PRINTERS: Final[Mapping[str, Callable[[int], str]]] = {
    "arabic": str,
    "alph": lambda value: alpha(value),
    "Alph": lambda value: alpha(value).upper(),
    "roman": lambda value: roman(value).lower(),
    "Roman": lambda value: roman(value),
}
_TOKEN = re.compile(
    r"\\(?P<printer>@?(?:arabic|alph|Alph|roman|Roman))\s*(?:\{(?P<counter>[A-Za-z]+)\}|\\c@(?P<raw>[A-Za-z]+))"
    r"|\\number\s*\\value\s*\{(?P<valued>[A-Za-z]+)\}"
    r"|\\the(?P<the>[A-Za-z]+)"
    r"|(?P<macro>\\[A-Za-z@]+|\\.)"
    r"|(?P<brace>[{}])"
    r"|(?P<text>[^\\{}]+)"
)


def alpha(value: int) -> str:
    """1 -> a, 26 -> z, 27 -> aa: LaTeX's \\alph, continued past z instead of failing."""
    letters = ""
    while value > 0:
        value, rest = divmod(value - 1, 26)
        letters = string.ascii_lowercase[rest] + letters
    return letters or "0"


def roman(value: int) -> str:
    """LaTeX's \\Roman (0 prints nothing)."""
    out = ""
    for size, digits in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L")):
        count, value = divmod(value, size)
        out += digits * count
    for size, digits in ((40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, value = divmod(value, size)
        out += digits * count
    return out


@attrs.define
class Counters:
    """The counters of one paper as the walk reads it, and how each prints."""

    chapters: bool = False
    """The class has chapters (report, book, memoir, KOMA's scrreprt and scrbook)."""
    values: dict[str, int] = attrs.field(factory=dict)
    within: dict[str, str] = attrs.field(factory=dict)
    """A counter numbered within another: reset when it steps, printed after it (`\\numberwithin`)."""
    templates: dict[str, str] = attrs.field(factory=dict)
    """Representations the paper (or `\\appendix`) redefined, as LaTeX source."""

    def value(self, name: str) -> int:
        return self.values.get(name, 0)

    def parent_of(self, name: str) -> str | None:
        if name in self.within:
            return self.within[name]
        levels = SECTION_LEVELS if self.chapters else SECTION_LEVELS[1:]
        if name in levels[1:]:
            return levels[levels.index(name) - 1]
        if self.chapters and name in ("equation", *FLOAT_COUNTERS):
            return "chapter"
        return None

    def step(self, name: str) -> None:
        """`\\stepcounter`: add one, and reset every counter numbered within it."""
        self.values[name] = self.value(name) + 1
        self.reset_within(name)

    def reset_within(self, name: str) -> None:
        for child in (*SECTION_LEVELS, "equation", *FLOAT_COUNTERS, *self.within):
            if child != name and self.parent_of(child) == name:
                self.values[child] = 0

    def set(self, name: str, value: int) -> None:
        self.values[name] = value

    def appendix(self) -> None:
        """`\\appendix`: the top level starts again, lettered."""
        top = "chapter" if self.chapters else "section"
        self.values[top] = 0
        self.reset_within(top)
        self.templates[top] = f"\\Alph{{{top}}}"

    def printed(self, name: str, depth: int = 0) -> str | None:
        """What `\\the<name>` prints now; None when the paper's representation uses what this cannot read."""
        if depth > 8:
            return None
        if name in self.templates:
            return render_template(self.templates[name], self, depth + 1)
        parent = self.parent_of(name)
        own = str(self.value(name))
        if parent is None:
            return own
        before = self.printed(parent, depth + 1)
        if before is None:
            return None
        if parent == "chapter" and name not in SECTION_LEVELS and self.value("chapter") == 0:
            return own  # report's \theequation: \ifnum\c@chapter>\z@ \thechapter.\fi
        return f"{before}.{own}"


def render_template(template: str, counters: Counters, depth: int = 0) -> str | None:
    """A `\\the<counter>` body, printed: the counter macros and plain text; anything else is unknown."""
    out = []
    for match in _TOKEN.finditer(template):
        if match["printer"]:
            name = match["counter"] or match["raw"]
            out.append(_PRINTERS[match["printer"].lstrip("@")](counters.value(name)))
        elif match["valued"]:
            out.append(str(counters.value(match["valued"])))
        elif match["the"]:
            inner = counters.printed(match["the"], depth + 1)
            if inner is None:
                return None
            out.append(inner)
        elif match["macro"]:
            if match["macro"] not in ("\\relax", "\\,", "\\ "):
                return None
        elif match["text"]:
            out.append(match["text"])
    return "".join(out).strip() or None
