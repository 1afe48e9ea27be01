r"""Reading a LaTeX paper's numbering, as LaTeX numbers it: a visitor of the paper's one walk
(cgx_core.ingest.latex_walk), which reads the files in reading order and tells it every environment, macro and
row break. It follows:

* sections (`\chapter` in classes that have chapters, `\section`, `\subsection`, `\subsubsection`, starred ones
  unnumbered, `secnumdepth`), `\appendix` and the `appendices` environment;
* equations: `equation`, `multline` (one number), `align`, `gather`, `flalign`, `alignat`, `eqnarray` (one per
  row), starred forms unnumbered, `\nonumber`/`\notag`, `\tag{..}`, and `subequations` (3a, 3b);
* floats: `table`, `figure` and their variants, `longtable` (it steps the table counter where it begins),
  `\caption` (`\caption*` unnumbered), `\captionof`, panels (`subfigure`, `subtable`, `\subcaption`,
  `\subfloat[..]`) lettered within their float;
* `\setcounter`, `\addtocounter`, `\stepcounter`, `\numberwithin`, `\counterwithin`, and redefined
  representations (`\renewcommand{\thetable}{S\arabic{table}}`), through `counters`;
* theorem-like environments (`\newtheorem`, with a shared counter or within a section; starred ones
  unnumbered), kind `theorem`;
* `\label`, bound as LaTeX binds it: to the last numbered thing stepped in the enclosing group, so a label
  written before its float's caption names the section, as LaTeX prints it. A label defined twice names its
  last definition only, as LaTeX's `\ref` prints it. A label after something this pass does not number (an
  unnumbered theorem, an enumerated item, a footnote, another float's caption) names `OPAQUE`.

A macro of the paper's own that expands to a section or a caption is not expanded; such a paper's numbers
after it may be wrong, which is why a check that rests on a number says what it compared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

import attrs

from cgx_core.base.limits import MAX_TABLE_NESTING
from cgx_core.ingest.latex_text import Definition, PaperFiles, optional, uncommented
from cgx_core.ingest.latex_walk import At, Text, Visitor
from cgx_core.ingest.numbering.counters import SECTION_LEVELS, Counters, alpha
from cgx_core.ingest.numbering.objects import FLOATS, LONG_TABLES, OPAQUE, PANELS, Key, Kind, Lines, Numbered, Numbering

_CHAPTER_CLASSES: Final = frozenset({"report", "book", "memoir", "scrreprt", "scrbook", "amsbook"})
_ONE_NUMBER: Final = frozenset({"equation", "multline"})
_ROWS: Final = frozenset({"align", "gather", "flalign", "alignat", "eqnarray", "xalignat"})
_NUMBER: Final = re.compile(r"^\s*(-?\d{1,6})\s*$")


@attrs.define(eq=False)
class _Frame:
    """An open environment: where it began, what `\\label` named before it, and what it numbers."""

    name: str
    file: str
    line: int
    braces: int
    current: Numbered | None
    float_object: Numbered | None = None
    panels: list[Numbered] = attrs.field(factory=list)
    numbered: bool = False
    rows: list[Numbered] = attrs.field(factory=list)
    row_labels: list[str] = attrs.field(factory=list)
    row_start: int = 0
    row_tag: str | None = None
    row_unnumbered: bool = False
    sub_parent: Numbered | None = None
    theorem: Numbered | None = None
    sub_count: int = 0
    included: list[Lines] = attrs.field(factory=list)
    """The files read inside it (a table body `\\input` into its float), whole."""


class NumberingVisitor(Visitor):
    """The numbering's visitor of the paper's walk (cgx_core.ingest.latex_walk); `numbering()` is what it read."""

    def __init__(self, files: PaperFiles) -> None:
        self.counters = Counters()
        self.result = Numbering()
        self.frames: list[_Frame] = []
        self.current: Numbered | None = None
        self.open: list[Numbered | None] = []
        """The section open at each level (None: none, or an unnumbered one)."""
        self.secnumdepth: int | None = None
        self.theorems: dict[str, str | None] = {}
        """Each theorem-like environment (`\\newtheorem`) and the counter that numbers it (None: unnumbered)."""
        self.too_deep = False
        """The paper nests environments past `MAX_TABLE_NESTING`: no number is then better than a wrong one (a
        cross-reference proposal is refused)."""
        text = uncommented(files.files[files.main])
        match = re.search(r"\\documentclass\s*(?:\[[^\]]*\])?\s*\{\s*([^{}\s]+)\s*\}", text)
        self.counters.chapters = match is not None and match[1] in _CHAPTER_CLASSES

    def numbering(self) -> Numbering:
        return Numbering() if self.too_deep else self.result

    def file(self, source: Text, chain: Key, in_body: bool) -> None:
        self.result.chains.setdefault(source.located, chain)
        for frame in self.frames:
            frame.included.append(Lines(source.located, 1, len(source.starts)))

    def begin(self, at: At) -> int:
        name, source, position = at.name, at.source, at.position
        if self.too_deep or len(self.frames) >= MAX_TABLE_NESTING:
            self.too_deep = True
            return position
        frame = _Frame(name, source.located, source.line(at.start), at.braces, self.current)
        self.frames.append(frame)
        bare = name.rstrip("*")
        if name in FLOATS or name in LONG_TABLES:
            kind: Kind = FLOATS.get(name, "table")
            frame.float_object = Numbered(kind, None)
            if name in LONG_TABLES:  # longtable steps the table counter where it begins
                self.counters.step("table")
                frame.float_object.number = self.counters.printed("table")
        elif name == "appendices":
            self.counters.appendix()
        elif name == "subequations":
            self.counters.step("equation")
            frame.sub_parent = Numbered(
                "equation", self.counters.printed("equation"), Lines(frame.file, frame.line, frame.line)
            )
            self.current = frame.sub_parent
            self.result.objects.append(frame.sub_parent)
        elif bare in _ONE_NUMBER or bare in _ROWS:
            frame.numbered = not name.endswith("*")
            frame.row_start = position
            if bare in ("alignat", "xalignat"):
                argument = source.group(position)
                if argument is not None:
                    position = frame.row_start = argument[1]
        elif self.theorems.get(name) is not None:
            counter = str(self.theorems[name])
            self.counters.step(counter)
            line = source.line(at.start)
            frame.theorem = Numbered("theorem", self.counters.printed(counter), Lines(frame.file, line, line))
            self.result.objects.append(frame.theorem)
            self.current = frame.theorem
        elif name in self.theorems or name in ("enumerate",):
            self.current = OPAQUE
        return position

    def end(self, at: At) -> None:
        name, source, start = at.name, at.source, at.start
        index = next((i for i in range(len(self.frames) - 1, -1, -1) if self.frames[i].name == name), None)
        if index is None:
            return
        frame = self.frames[index]
        del self.frames[index:]
        bare = name.rstrip("*")
        extent = Lines(frame.file, frame.line, source.line(start))
        if bare in _ONE_NUMBER or bare in _ROWS:
            self.end_row(frame, source, start, last=True)
            for equation in frame.rows:
                equation.anchor = extent
        if frame.float_object is not None:
            self.finish_float(frame, extent)
        if frame.theorem is not None:
            frame.theorem.extents = [extent, *frame.included]
        if name in PANELS and frame.panels:
            frame.panels[0].extents = [extent, *frame.included]
        self.current = frame.current

    def innermost(self, names: frozenset[str]) -> _Frame | None:
        return next((frame for frame in reversed(self.frames) if frame.name.rstrip("*") in names), None)

    def equation_frame(self) -> _Frame | None:
        """The environment that numbers the equation being read (inner maths such as `split` or `cases` may be
        open inside it), or None outside one."""
        for frame in reversed(self.frames):
            bare = frame.name.rstrip("*")
            if bare in _ONE_NUMBER or bare in _ROWS:
                return frame
            if frame.name in FLOATS or frame.name in PANELS or frame.name == "subequations":
                return None
        return None

    # -- equations -------------------------------------------------------------------------------------

    def row_break(self, at: At) -> None:
        frame = self.equation_frame()
        if frame is None or frame is not self.frames[-1] or frame.name.rstrip("*") not in _ROWS:
            return
        if at.braces != frame.braces:
            return
        self.end_row(frame, at.source, at.start, last=False)
        frame.row_start = at.start + 2

    def end_row(self, frame: _Frame, source: Text, start: int, *, last: bool) -> None:
        content = re.sub(
            r"\\(?:label|tag\*?)\s*\{[^{}]*\}|\\(?:nonumber|notag)\b|\\\\|\[[^\]]*\]",
            "",
            source.text[frame.row_start : start],
        )
        empty = not content.strip()
        numbered = (frame.numbered and not frame.row_unnumbered) or frame.row_tag is not None
        if numbered and not (last and empty and frame.rows and frame.row_tag is None):
            number = frame.row_tag if frame.row_tag is not None else self.step_equation(frame)
            equation = Numbered("equation", number, Lines(frame.file, frame.line, frame.line))
            outer = self.innermost(frozenset({"subequations"}))
            if frame.row_tag is None and outer is not None:
                equation.parent = outer.sub_parent  # 3a is part of 3: a reference to 3 may cite it
            frame.rows.append(equation)
            self.result.objects.append(equation)
            self.current = equation
            for label in frame.row_labels:
                self.bind(label, equation)
        else:
            for label in frame.row_labels:
                self.bind(label, self.current)
        frame.row_labels, frame.row_tag, frame.row_unnumbered = [], None, False

    def step_equation(self, frame: _Frame) -> str | None:
        outer = self.innermost(frozenset({"subequations"}))
        if outer is not None and outer.sub_parent is not None:
            outer.sub_count += 1
            parent = outer.sub_parent.number
            return None if parent is None else f"{parent}{alpha(outer.sub_count)}"
        self.counters.step("equation")
        return self.counters.printed("equation")

    # -- floats ----------------------------------------------------------------------------------------

    def float_frame(self) -> _Frame | None:
        return self.innermost(frozenset({*FLOATS, *LONG_TABLES}))

    def panel(self, source: Text, start: int) -> Numbered | None:
        """A new panel of the innermost float, lettered after the float's earlier panels."""
        float_frame = self.float_frame()
        if float_frame is None or float_frame.float_object is None:
            return None
        line = source.line(start)
        panel = Numbered(float_frame.float_object.kind, None, parent=float_frame.float_object)
        panel.panel = len(float_frame.panels) + 1
        panel.anchor = Lines(source.located, line, line)
        panel.extents = [panel.anchor]
        float_frame.panels.append(panel)
        self.current = panel
        return panel

    def caption(self, at: At) -> int:
        source, start, position, name, starred = at.source, at.start, at.position, at.name, at.starred
        if name == "captionof":
            return self.caption_of(at)
        float_frame = self.float_frame()
        if float_frame is None or float_frame.float_object is None:
            self.current = OPAQUE  # a caption of a float this reading does not number (algorithm, listing)
            return position
        panel_frame = self.innermost(PANELS)
        inside = panel_frame is not None and self.frames.index(panel_frame) > self.frames.index(float_frame)
        if inside and panel_frame is not None and not starred:
            if not panel_frame.panels:  # a subfigure steps its letter at its caption
                panel = self.panel(source, start)
                panel_frame.panels.extend([panel] if panel is not None else [])
            return position
        if name == "subcaption":
            if not starred:
                self.panel(source, start)
            return position
        if starred:
            return position
        float_object = float_frame.float_object
        if float_object.anchor is not None:  # a second numbered caption in one float: its own object
            float_object = Numbered(float_object.kind, None)
            float_frame.float_object = float_object
        if float_frame.name not in LONG_TABLES or float_object.number is None:
            self.counters.step(float_object.kind)
            float_object.number = self.counters.printed(float_object.kind)
        line = source.line(start)
        float_object.anchor = Lines(source.located, line, line)
        self.result.objects.append(float_object)
        self.current = float_object
        return position

    def caption_of(self, at: At) -> int:
        r"""`\captionof{table}{...}`: a caption outside a float, numbered by the counter it names."""
        source, start, position, starred = at.source, at.start, at.position, at.starred
        kind = source.group(optional(source.text, position))
        counter = kind[0].strip() if kind is not None else ""
        if counter not in ("table", "figure") or starred:
            self.current = OPAQUE if not starred else self.current
            return kind[1] if kind is not None else position
        self.counters.step(counter)
        line = source.line(start)
        caption = Numbered("table" if counter == "table" else "figure", self.counters.printed(counter))
        caption.anchor = Lines(source.located, line, line)
        self.result.objects.append(caption)
        self.current = caption
        return kind[1] if kind is not None else position

    def subfloat(self, at: At) -> int:
        source, start, position = at.source, at.start, at.position
        after = optional(source.text, position)
        if source.text[position:after].strip() not in ("[]", ""):
            panel = self.panel(source, start)
            if panel is not None:
                panel.anchor = Lines(source.located, source.line(start), source.line(after))
                panel.extents = [panel.anchor]
        return position

    def finish_float(self, frame: _Frame, extent: Lines) -> None:
        """A float ends: its extent is known, and its panels are numbered after it (`2a`), whose caption may
        come after them."""
        main = frame.float_object
        if main is None:
            return
        if main.anchor is not None or main.number is not None:
            main.extents = [extent, *frame.included]
        if main.anchor is None and main.number is not None:  # a longtable without a caption took its number
            self.result.objects.append(main)
        for panel in frame.panels:
            parent = panel.parent
            panel.number = None if parent is None or parent.number is None else f"{parent.number}{alpha(panel.panel)}"
            self.result.objects.append(panel)

    # -- labels ----------------------------------------------------------------------------------------

    def bind(self, label: str, target: Numbered | None) -> None:
        if not label:
            return
        earlier = self.result.labels.get(label)
        if earlier is not None:  # LaTeX's \ref prints the last definition: the aux file's last \newlabel wins
            self.result.repeated.add(label)
            if label in earlier.labels and earlier is not target:
                earlier.labels.remove(label)
        self.result.labels[label] = target if target is not None else OPAQUE
        if target is not None and target is not OPAQUE:
            target.labels.append(label)

    # -- macros ----------------------------------------------------------------------------------------

    def macro(self, at: At) -> int:
        """Read a macro the walk met; return where the walk may go on."""
        if self.too_deep:
            return at.position
        handler = _MACROS.get(at.name)
        if handler is not None:
            return handler(self, at)
        if at.name in SECTION_LEVELS:
            self.heading(at)
        return at.position

    def define(self, definition: Definition, at: At) -> None:
        r"""A definition is no content, but a `\the<counter>` redefinition is kept."""
        name = definition.name
        if not definition.environment and name.startswith("the") and len(name) > 3 and not definition.parameters:
            self.counters.templates[name[3:]] = definition.body

    def newtheorem(self, at: At) -> int:
        r"""`\newtheorem{lemma}[theorem]{Lemma}` (numbered with another), `\newtheorem{theorem}{Theorem}[section]`
        (within a section), `\newtheorem*{remark}{Remark}` (unnumbered)."""
        text = at.source.text
        environment = at.source.group(optional(text, at.position))
        if environment is None:
            return at.position
        name = environment[0].strip()
        shared = optional(text, environment[1])
        title = at.source.group(shared)
        within = optional(text, title[1]) if title is not None else shared
        counter = text[environment[1] : shared].strip(" \t\n[]") or name
        self.theorems[name] = None if at.starred else counter
        if title is not None and within > title[1] and counter == name:
            self.counters.within[name] = text[title[1] : within].strip(" \t\n[]")
        return at.position

    def appendix(self, at: At) -> int:
        self.counters.appendix()
        return at.position

    def label(self, at: At) -> int:
        argument = at.source.group(at.position)
        if argument is None:
            return at.position
        frame = self.equation_frame()
        if frame is not None:
            frame.row_labels.append(argument[0].strip())
        else:
            self.bind(argument[0].strip(), self.current)
        return argument[1]

    def tag(self, at: At) -> int:
        argument = at.source.group(at.position)
        frame = self.equation_frame()
        if argument is not None and frame is not None:
            frame.row_tag = argument[0].strip()
        return argument[1] if argument is not None else at.position

    def nonumber(self, at: At) -> int:
        frame = self.equation_frame()
        if frame is not None:
            frame.row_unnumbered = True
        return at.position

    def opaque(self, at: At) -> int:
        """What numbers something this reading does not: a label after it names no printed number it knows."""
        if at.name != "item" or self.innermost(frozenset({"enumerate"})):
            self.current = OPAQUE
        return at.position

    def numberwithin(self, at: At) -> int:
        inner = at.source.group(optional(at.source.text, at.position))
        outer = at.source.group(inner[1]) if inner is not None else None
        if inner is None or outer is None:
            return at.position
        if not at.starred:
            self.counters.within[inner[0].strip()] = outer[0].strip()
        return outer[1]

    def heading(self, at: At) -> None:
        """A heading: numbered unless starred or deeper than `secnumdepth`; it ends every open section at its
        level and below, and starts where the sections open from here on are recorded."""
        name, starred = at.name, at.starred
        levels = SECTION_LEVELS if self.counters.chapters else SECTION_LEVELS[1:]
        if name not in levels:
            return
        level = levels.index(name)
        limit = self.secnumdepth if self.secnumdepth is not None else (2 if self.counters.chapters else 3)
        opened: Numbered | None = None
        if not starred and SECTION_LEVELS.index(name) <= limit:
            self.counters.step(name)
            opened = Numbered("section", self.counters.printed(name))
            self.result.objects.append(opened)
            self.current = opened
        self.open = [*self.open[:level], *([None] * (level - len(self.open))), opened][: level + 1]
        path = tuple(section for section in self.open if section is not None)
        self.result.headings.append((at.key, path))

    def counter(self, at: At) -> int:
        if at.name == "refstepcounter":
            self.current = OPAQUE
        counter = at.source.group(at.position)
        if counter is None:
            return at.position
        which = counter[0].strip()
        if at.name in ("stepcounter", "refstepcounter"):
            self.counters.step(which)
            return counter[1]
        value = at.source.group(counter[1])
        if value is None:
            return counter[1]
        number = _NUMBER.match(value[0])
        if which == "secnumdepth" and number is not None:
            self.secnumdepth = int(number[1])
        elif number is None:
            self.counters.templates[which] = "\\unknown"  # set from something this reading cannot evaluate
        elif at.name == "setcounter":
            self.counters.set(which, int(number[1]))
        else:
            self.counters.set(which, self.counters.value(which) + int(number[1]))
        return value[1]


_MACROS: Final[Mapping[str, Callable[[NumberingVisitor, At], int]]] = {
    "newtheorem": NumberingVisitor.newtheorem,
    "appendix": NumberingVisitor.appendix,
    **dict.fromkeys(("caption", "captionof", "subcaption"), NumberingVisitor.caption),
    "subfloat": NumberingVisitor.subfloat,
    "label": NumberingVisitor.label,
    "tag": NumberingVisitor.tag,
    **dict.fromkeys(("nonumber", "notag"), NumberingVisitor.nonumber),
    **dict.fromkeys(("item", "footnote"), NumberingVisitor.opaque),
    **dict.fromkeys(("setcounter", "addtocounter", "stepcounter", "refstepcounter"), NumberingVisitor.counter),
    **dict.fromkeys(("numberwithin", "counterwithin"), NumberingVisitor.numberwithin),
}
"""What each macro does to the numbering (a section heading, by its level: `heading`)."""
