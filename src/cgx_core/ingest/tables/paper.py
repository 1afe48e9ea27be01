r"""The tables of a LaTeX paper: `TableVisitor`, the tables' visitor of the paper's one walk
(cgx_core.ingest.latex_walk), which follows its files where they are input, so a table in an `\input` file
inside a `table` float belongs to that float. It keeps what a table's rows need:

* every tabular-like environment (`TABULARS`) with its column specification and its body (an `\input` inside a
  body spliced in, as TeX reads it), found again in pylatexenc's parse of its file once the walk is over. A
  tabular nested in a cell is part of that cell; one in a definition's body, in maths, or in
  `verbatim`/`comment` is not a table;
* the float it is in (a longtable is its own), the caption that names it (the innermost environment's, a
  subtable's subcaption with its float's caption) and the `\label` after that caption. The number LaTeX prints
  for the caption is the paper's numbering's (cgx_core.ingest.numbering, the one authority on numbers);
* the macros the paper defines, collected as credencegraph collects them, so cells render as its prose does;
* where each file is read from (`chains`: the lines of the `\input` chain that reaches it), so rows are placed
  among credencegraph's chunks in reading order.

Work is bounded: each file is parsed once, the walk descends at most `MAX_TABLE_NESTING` levels, and every
other loop is linear in the text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from cgx_core.base.limits import MAX_TABLE_NESTING
from cgx_core.ingest.latex_text import PaperFiles, bracket_end, skip_space
from cgx_core.ingest.latex_walk import At, Text, Visitor
from cgx_core.ingest.numbering.objects import FLOATS, LONG_TABLES, PANELS
from cgx_core.ingest.tables.source import Source, Span, node_arguments, node_span

# Each tabular-like environment: its argument specification and which argument is the column specification.
TABULARS: Mapping[str, tuple[str, int]] = {
    "tabular": ("[{", 1),
    "tabular*": ("{[{", 2),
    "tabularx": ("{[{", 2),
    "tabulary": ("{[{", 2),
    "xltabular": ("[{{", 2),
    "longtable": ("[{", 1),
    "supertabular": ("[{", 1),
    "supertabular*": ("{[{", 2),
    "xtabular": ("[{", 1),
    "NiceTabular": ("[{[", 1),
    "NiceTabular*": ("{[{[", 2),
    "NiceTabularX": ("{[{[", 2),
    "tblr": ("[{", 1),
    "longtblr": ("[{", 1),
    "talltblr": ("[{", 1),
}
_WRAPPED = {"wraptable": "[{[{", "wrapfigure": "[{[{"}
"""The floats with arguments beside `[placement]` (the numbering's `FLOATS` are the floats)."""
_OTHER_ENVIRONMENTS = {"minipage": "[[[{", "threeparttable": "[", "tablenotes": "[", "adjustbox": "{"}
# An environment whose content is no table of the paper (credencegraph skips it; the walk skips verbatim ones).
_OPAQUE = frozenset({"tikzpicture"})
_DEFINING = frozenset({"newcommand", "renewcommand", "providecommand"})
_CAPTIONS = frozenset({"caption", "captionof", "subcaption", "label"})
_ASIDE = {
    "chapter": "[{",
    "setcounter": "{{",
    "addtocounter": "{{",
    "stepcounter": "{",
    "refstepcounter": "{",
    "appendix": "",
    "newcolumntype": "{[[{",
    "DeclareMathOperator": "{{",
    "newcommand": "{[[{",
    "renewcommand": "{[[{",
    "providecommand": "{[[{",
    "newenvironment": "{[[{{",
    "renewenvironment": "{[[{{",
}
"""Macros whose arguments hold no table, caption or label of the paper (an unstarred chapter's title included),
with their arguments."""
_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
_ITEM = re.compile(r"\\item(?![A-Za-z@])")
_DEFINES = re.compile(r"\\(?:newcommand|renewcommand|providecommand|def)(?![A-Za-z])")
_MACRO_NAME = re.compile(r"\\([A-Za-z@]+)")
_MACROS = {
    "multicolumn": "{{{",
    "multirow": "[{[{[{",
    "multirowcell": "{[{",
    "captionof": "*{[{",
    "subcaption": "*[{",
    "subfloat": "[[{",
    "label": "{",
    "input": "{",
    "include": "{",
    "import": "{{",
    "subimport": "*{{",
    "inputfrom": "{{",
    "includefrom": "{{",
    "subinputfrom": "{{",
    "subincludefrom": "{{",
    "toprule": "[",
    "midrule": "[",
    "bottomrule": "[",
    "cmidrule": "[",
    "cline": "{",
    "cdashline": "{",
    "hhline": "{",
    "Xhline": "{",
    "specialrule": "{{{",
    "addlinespace": "[",
    "arrayrulecolor": "[{",
    "rowcolor": "[{",
    "cellcolor": "[{",
    "noalign": "{",
    "includegraphics": "*[[{",
    "resizebox": "*{{{",
    "scalebox": "{[{",
    **{name: _ASIDE[name] for name in ("setcounter", "addtocounter", "stepcounter", "refstepcounter", "newcolumntype")},
}


def latex_context() -> Any:
    """pylatexenc's default macros, credencegraph's reader's additions, and the table macros above, merged into
    one category whose specials are looked up by their first character (cgx_core.ingest.specials)."""
    from credencegraph.ingest.latex import _SPECS
    from pylatexenc.latexwalker import get_default_latex_context_db

    from cgx_core.ingest.specials import merged

    layered = get_default_latex_context_db()
    layered.add_context_category("credencegraph", macros=list(_SPECS), prepend=True)
    add_table_specs(layered)
    return merged(layered)


def add_table_specs(context: Any) -> None:
    """Teach a pylatexenc context the arguments of the table environments and macros above."""
    from pylatexenc.macrospec import EnvironmentSpec, MacroSpec

    environments = [EnvironmentSpec(name, spec) for name, (spec, _) in TABULARS.items()]
    environments += [EnvironmentSpec(name, _WRAPPED.get(name, "[")) for name in FLOATS]
    environments += [EnvironmentSpec(name, "[[[{") for name in PANELS]
    environments += [EnvironmentSpec(name, spec) for name, spec in _OTHER_ENVIRONMENTS.items()]
    macros = [MacroSpec(name, spec) for name, spec in _MACROS.items()]
    context.add_context_category("cgx-tables", macros=macros, environments=environments, prepend=True)


def argument_text(node: Any) -> str:
    """A macro argument's source, without its braces or brackets."""
    if node is None:
        return ""
    if type(node).__name__ == "LatexGroupNode":
        return "".join(child.latex_verbatim() for child in node.nodelist if child is not None)
    return str(node.latex_verbatim())


@attrs.define(eq=False)
class Caption:
    """A caption, where it is, and the labels that may name it (its printed number is the paper's numbering's,
    found by its file and line: cgx_core.ingest.numbering)."""

    kind: str  # "table" or "figure"
    source: Text
    start: int
    """Where `\\caption` is written."""
    end: int
    """Just after its text's closing brace."""
    text: str
    """Its text as written (the last argument, comments included)."""
    event: int
    scope: Scope
    """The scope the caption is written in, whose labels may name it."""
    sub: bool = False
    """A panel's caption (a subtable's, a `\\subcaption`, a `\\subfloat`'s)."""
    labels: list[str] = attrs.field(factory=list)
    """Labels inside the caption's own text."""

    @property
    def locator(self) -> str:
        return self.source.locator(self.start, self.end)

    @property
    def line(self) -> tuple[str, int]:
        """The file (as a locator names it) and the line the caption starts on."""
        return self.source.located, self.source.lines(self.start, self.end)[0]


@attrs.define(eq=False)
class Scope:
    """An environment (or a subfloat's argument) the walk is inside, with the captions and labels written
    directly in it, in order (by event)."""

    parent: Scope | None
    name: str = ""  # the environment's name ("" for the document and a subfloat's argument)
    kind: str | None = None  # the float kind when this scope is a float
    sub: bool = False  # a subtable, subfigure or \subfloat
    captions: list[Caption] = attrs.field(factory=list)
    labels: list[tuple[int, str]] = attrs.field(factory=list)

    def ancestors(self) -> Iterator[Scope]:
        """This scope and every scope around it, innermost first."""
        scope: Scope | None = self
        while scope is not None:
            yield scope
            scope = scope.parent

    def chain(self) -> Iterator[Scope]:
        """This scope and those around it, up to its float."""
        for scope in self.ancestors():
            yield scope
            if scope.kind is not None:
                return

    def float_of(self) -> Scope | None:
        return next((scope for scope in self.chain() if scope.kind is not None), None)

    def label_of(self, caption: Caption) -> str | None:
        """The label that names a caption: one inside its text, else the first label after it in the same
        scope and before the scope's next caption, else (a label written before its caption) the first."""
        if caption.labels:
            return caption.labels[0]
        later = [c.event for c in self.captions if c.event > caption.event]
        stop = min(later) if later else None
        for event, label in self.labels:
            if event > caption.event and (stop is None or event < stop):
                return label
        if len(self.captions) == 1 and self.labels:
            return self.labels[0][1]
        return None


@attrs.define(eq=False)
class FoundTable:
    """A tabular-like environment of the paper's body, with what its rows need."""

    environment: str
    source: Source
    node: Any = attrs.field(repr=False)
    scope: Scope
    event: int
    key: tuple[int, ...]
    """Where it is in reading order: the lines of the \\input chain that reaches its file, then its line."""
    spec: str
    body: list[Span] = attrs.field(repr=False)
    notes: tuple[TableNote, ...] = ()
    """The notes written under it in its float (threeparttable's `tablenotes`)."""

    def captions(self) -> tuple[Caption | None, Caption | None]:
        """The caption that names the table (a float's, a minipage's, a longtable's) and its subcaption."""
        sub: Caption | None = None
        for scope in self.scope.chain():
            if sub is None:
                subs = [caption for caption in scope.captions if caption.sub]
                sub = _nearest(subs, self.event)
            main = _nearest([caption for caption in scope.captions if not caption.sub], self.event)
            if main is not None:
                return main, sub
        return None, sub

    def float_kind(self) -> str | None:
        scope = self.scope.float_of()
        return None if scope is None else scope.kind


def _nearest(captions: list[Caption], event: int) -> Caption | None:
    """The first caption after the table in its scope, else the last one before it."""
    after = [caption for caption in captions if caption.event > event]
    if after:
        return after[0]
    return captions[-1] if captions else None


@attrs.define
class Definitions:
    """The paper's macro definitions in credencegraph's form, in the order credencegraph collects them."""

    items: dict[str, Any] = attrs.field(factory=dict)

    def add_def(self, source: Source) -> None:
        r"""Every `\def` of a file, read from its text with its comments blanked (credencegraph's rule)."""
        if "\\def" not in source.raw:
            return
        from credencegraph.ingest.latex import _DEF, _PARAMETER, LatexError, _Definition, _group_body, _walk

        text = list(source.raw)
        for comment in _walk(source.nodes):
            if type(comment).__name__ == "LatexCommentNode":
                text[comment.pos : comment.pos + comment.len] = " " * comment.len
        uncommented = "".join(text)
        for match in _DEF.finditer(uncommented):
            try:
                body = _group_body(uncommented, match.end() - 1)
            except LatexError:
                continue
            self.items[match[1]] = _Definition(len(_PARAMETER.findall(match[2])), None, body)

    def add_command(self, node: Any) -> None:
        from credencegraph.ingest.latex import _Definition

        arguments = node_arguments(node)
        if len(arguments) != 5:
            return
        _, name, count, default, body = arguments
        macro = argument_text(name).strip().lstrip("\\")
        if not macro or (node.macroname == "providecommand" and macro in self.items):
            return
        count_text = argument_text(count).strip()
        self.items[macro] = _Definition(
            int(count_text) if count_text.isdigit() and len(count_text) < 3 else 0,
            None if default is None else argument_text(default),
            argument_text(body),
        )


@attrs.frozen
class TableNote:
    """One `\\item[a] ...` of a `tablenotes` environment: its mark, its text as written, where it is."""

    mark: str
    text: str
    locator: str
    scope: Scope = attrs.field(repr=False)


@attrs.define(eq=False)
class _Frame:
    """An environment the walk is in: its scope, and whether what is inside is no content of the tables' walk (a
    tabular's body, a `tikzpicture`)."""

    name: str
    scope: Scope
    braces: int
    closed: bool = False
    table: _Pending | None = None
    start: int = 0
    """Where its content starts (a `tablenotes`'s items)."""


@attrs.frozen
class _Pending:
    """A tabular met by the walk, found again in pylatexenc's parse of its file when the walk is over."""

    name: str
    file: str
    start: int
    scope: Scope
    chain: tuple[int, ...]
    import_dir: str | None
    reading: tuple[str, ...]


@attrs.frozen
class _Aside:
    """Arguments the tables' walk reads no content in (a caption's text, a chapter's title), up to `end`; a
    `\\label` in a caption's text names the caption."""

    file: str
    end: int
    caption: Caption | None = None


@attrs.frozen
class _Panel:
    """A `\\subfloat`'s arguments, up to `end`: read in a panel's scope."""

    file: str
    end: int
    scope: Scope


class TableVisitor(Visitor):
    """The tables' visitor of the paper's one walk (cgx_core.ingest.latex_walk); `found()` is what it read."""

    def __init__(self, files: PaperFiles) -> None:
        self.paper = files
        self.context: Any = None
        self.parsed: dict[str, Source] = {}
        self.pending: list[tuple[_Pending, int]] = []
        self.chains: dict[str, tuple[int, ...]] = {}
        """For each file read in the body (by its locator name), the lines of the \\input chain that first
        reaches it."""
        self.events = 0
        self.frames: list[_Frame] = []
        self.root = Scope(None)
        self.asides: list[_Aside] = []
        self.panels: list[_Panel] = []
        self.notes: list[TableNote] = []

    # -- the walk's visits ---------------------------------------------------------------------------

    def file(self, source: Text, chain: tuple[int, ...], in_body: bool) -> None:
        if in_body or not chain:
            self.chains.setdefault(source.located, chain)

    def begin(self, at: At) -> int:
        if not at.in_body or at.name == "document":
            return at.position
        reads = self.reads(at)
        frame = _Frame(at.name, self.scope(at), at.braces, closed=not reads)
        if reads and at.name in TABULARS:
            frame.closed = True
            if at.name in LONG_TABLES:  # its own float, holding its caption and label
                frame.scope = Scope(frame.scope, at.name, kind="table")
            frame.table = _Pending(at.name, at.source.name, at.start, frame.scope, at.chain, at.import_dir, at.reading)
        elif reads:
            frame.closed = at.name in _OPAQUE
            frame.scope = Scope(frame.scope, at.name, kind=FLOATS.get(at.name), sub=at.name in PANELS)
            if at.name == "tablenotes":
                frame.start = _written(at.source, at.position, "[").end
        self.frames.append(frame)
        return at.position

    def end(self, at: At) -> None:
        index = next((i for i in range(len(self.frames) - 1, -1, -1) if self.frames[i].name == at.name), None)
        if index is None:
            return
        frame = self.frames[index]
        del self.frames[index:]
        if frame.table is not None:
            self.pending.append((frame.table, self.next_event()))
        if frame.name == "tablenotes" and not frame.closed:
            self.notes.extend(_notes(at.source, frame.start, at.start, frame.scope))

    def macro(self, at: At) -> int:
        if at.name in _CAPTIONS and self.in_long_table(at):
            self.caption_or_label(at)
        elif not self.reads(at):
            if at.name == "label":
                self.caption_label(at)
        elif at.name in _ASIDE and not (at.name == "chapter" and at.starred):
            self.asides.append(_Aside(at.source.name, _written(at.source, at.position, _ASIDE[at.name]).end))
        elif at.name in _CAPTIONS:
            self.caption_or_label(at)
        elif at.name == "subfloat":
            self.subfloat(at)
        return at.position

    # -- where the walk is ---------------------------------------------------------------------------

    def reads(self, at: At) -> bool:
        """Whether the tables' walk reads what is here: the body, outside maths, a tabular's body and asides."""
        depth = at.braces + len(self.frames) + len(at.reading) - 1  # groups, environments and files around it
        if not at.in_body or at.math or depth > MAX_TABLE_NESTING or any(frame.closed for frame in self.frames):
            return False
        here = at.source.name
        self.asides = [aside for aside in self.asides if aside.file != here or aside.end > at.start]
        self.panels = [panel for panel in self.panels if panel.file != here or panel.end > at.start]
        return not any(aside.file == here for aside in self.asides)

    def in_long_table(self, at: At) -> bool:
        """A caption or label at the top of a longtable's body (it names the longtable)."""
        frame = self.frames[-1] if self.frames else None
        return bool(frame and frame.table and frame.name in LONG_TABLES and frame.braces == at.braces and not at.math)

    def scope(self, at: At) -> Scope:
        frame = self.frames[-1] if self.frames else None
        panel = self.panels[-1] if self.panels else None
        if (
            panel is not None
            and panel.file == at.source.name
            and (frame is None or frame.scope in panel.scope.ancestors())
        ):
            return panel.scope
        return frame.scope if frame is not None else self.root

    def next_event(self) -> int:
        self.events += 1
        return self.events

    # -- captions and labels ---------------------------------------------------------------------------

    def caption_label(self, at: At) -> None:
        """A `\\label` inside a caption's text names that caption."""
        caption = next((aside.caption for aside in reversed(self.asides) if aside.caption is not None), None)
        if caption is not None and at.source.name == caption.source.name and not any(f.closed for f in self.frames):
            written = _written(at.source, at.position, "{")
            if written.groups:
                caption.labels.append(written.raw(0).strip())

    def caption_or_label(self, at: At) -> None:
        scope = self.scope(at)
        if at.name == "label":
            label = _written(at.source, at.position, "{")
            if label.groups:
                scope.labels.append((self.next_event(), label.raw(0).strip()))
            return
        float_scope = scope.float_of()
        event = self.next_event()
        written = _written(at.source, at.position, "{[{" if at.name == "captionof" else "[{")
        if not written.groups or written.groups[-1][2]:
            return
        end, text = written.end, written.raw(-1)
        if at.name == "captionof":
            named = written.raw(0).strip()
            kind = named if named in ("table", "figure") else "table"
            caption = Caption(kind, at.source, at.start, end, text, event, scope)
        elif float_scope is None:
            self.asides.append(_Aside(at.source.name, end))
            return  # a \\caption outside any float prints nothing LaTeX would number
        else:
            sub = at.name == "subcaption" or any(inner.sub for inner in scope.chain())
            caption = Caption(str(float_scope.kind), at.source, at.start, end, text, event, scope, sub)
        scope.captions.append(caption)
        self.asides.append(_Aside(at.source.name, end, caption))

    def subfloat(self, at: At) -> None:
        """`\\subfloat[entry][caption]{content}`: a panel's scope over its arguments; its second optional
        argument, when written, is its caption."""
        scope = Scope(self.scope(at), sub=True)
        written = _written(at.source, at.position, "[[{")
        self.panels.append(_Panel(at.source.name, written.end, scope))
        brackets = [index for index, group in enumerate(written.groups) if group[2]]
        float_scope = scope.float_of()
        if len(brackets) < 2 or float_scope is None or not written.raw(brackets[1]).strip():
            return
        text = written.raw(brackets[1])
        caption = Caption(str(float_scope.kind), at.source, at.start, written.end, text, self.next_event(), scope, True)
        start, stop, _ = written.groups[brackets[1]]
        caption.labels.extend(label.strip() for label in _LABEL.findall(at.source.text[start:stop]))
        scope.captions.append(caption)

    # -- after the walk ------------------------------------------------------------------------------

    def source(self, name: str) -> Source:
        if name not in self.parsed:
            from pylatexenc.latexwalker import LatexWalker

            if self.context is None:
                self.context = latex_context()
            source = Source.of(name, self.paper.located(name), self.paper.files[name])
            nodes, _, _ = LatexWalker(source.raw, latex_context=self.context, tolerant_parsing=True).get_latex_nodes()
            source.nodes = list(nodes)
            self.parsed[name] = source
        return self.parsed[name]

    def found(self) -> list[FoundTable]:
        """The tables met, in order, each with its node in pylatexenc's parse of its file (one pylatexenc
        misreads is left out)."""
        from credencegraph.ingest.latex import _walk

        tables = []
        for pending, event in self.pending:
            source = self.source(pending.file)
            node = next(
                (
                    node
                    for node in _walk(source.nodes)
                    if _env_name(node) == pending.name and int(node.pos) == pending.start
                ),
                None,
            )
            if node is None:
                continue
            arguments = node_arguments(node)
            spec_index = TABULARS[pending.name][1]
            spec = argument_text(arguments[spec_index]) if len(arguments) > spec_index else ""
            body = list(self.body(node.nodelist, source, pending.import_dir, list(pending.reading), depth=0))
            line = source.lines(int(node.pos), int(node.pos) + int(node.len))[0]
            key = (*pending.chain, line)
            tables.append(FoundTable(pending.name, source, node, pending.scope, event, key, spec, body))
        last = {id(table.scope.float_of()): table for table in tables if table.scope.float_of() is not None}
        for note in self.notes:  # a float's notes are under its last table
            table = last.get(id(note.scope.float_of()))
            if table is not None:
                table.notes = (*table.notes, note)
        return tables

    def body(
        self, nodes: list[Any] | None, source: Source, import_dir: str | None, stack: list[str], depth: int
    ) -> Iterator[Span]:
        r"""A tabular's body as spans, with an `\\input` of rows spliced in where it stands."""
        for node in nodes or ():
            if node is None:
                continue
            macro = getattr(node, "macroname", None)
            arguments = node_arguments(node)
            if macro == "input" and arguments and depth < 8:
                target = self.paper.input_target(argument_text(arguments[-1]), import_dir)
                if target is not None and target not in stack:
                    spliced = self.source(target)
                    yield from self.body(spliced.nodes, spliced, import_dir, [*stack, target], depth + 1)
                    continue
            yield node_span(source, node)

    def definitions_for(self, names: set[str]) -> dict[str, Any]:
        """The paper's definitions of the macros `names` use (and of those their bodies use), collected as
        credencegraph collects them: every file in reading order, `\\def` from its uncommented text, then
        `\\newcommand` and kin from its nodes. Only a file whose text names one of them is parsed."""
        from credencegraph.ingest.latex import _walk

        wanted = set(names)
        while True:
            definitions = Definitions()
            for name, text in self.paper.files.items():
                if name.endswith((".bbl", ".bib")) or not _DEFINES.search(text):
                    continue
                if not any(_defines(macro).search(text) for macro in wanted if "\\" + macro in text):
                    continue
                source = self.source(name)
                definitions.add_def(source)
                for node in _walk(source.nodes):
                    if getattr(node, "macroname", None) in _DEFINING:
                        definitions.add_command(node)
            used = {match for item in definitions.items.values() for match in _MACRO_NAME.findall(item.body)}
            if used <= wanted:
                return {name: item for name, item in definitions.items.items() if name in wanted}
            wanted |= used


@attrs.frozen
class _Written:
    """A macro's arguments as written after it: each group's content (start, stop, and whether in brackets), and
    where the last one ends."""

    source: Text
    groups: list[tuple[int, int, bool]]
    end: int

    def raw(self, index: int) -> str:
        start, stop, _ = self.groups[index]
        return self.source.raw[start:stop]


def _written(source: Text, position: int, spec: str) -> _Written:
    """The arguments `spec` names (`[` optional, `{` required, as pylatexenc's specs), read from `position`: a
    missing optional one is passed over, a missing required one ends them."""
    text = source.text
    groups: list[tuple[int, int, bool]] = []
    end = position
    for kind in spec:
        index = skip_space(text, end)
        if kind == "[":
            after = bracket_end(text, index)
            if after > index:
                groups.append((index + 1, after - 1, True))
                end = after
            continue
        group = source.braces.closing().get(index)
        if group is None:
            break
        groups.append((index + 1, group, False))
        end = group + 1
    return _Written(source, groups, end)


def _notes(source: Text, start: int, end: int, scope: Scope) -> list[TableNote]:
    """The `\\item`s of a `tablenotes` environment's text (`\\item[a] The mean of 5 runs.`)."""
    items = [match.end() for match in _ITEM.finditer(source.text, start, end)]
    notes = []
    for begin, stop in zip(items, [position - 5 for position in items[1:]] + [end], strict=True):
        mark = _written(source, begin, "[")
        after = mark.end if mark.groups else begin
        text = source.raw[after:stop].strip()
        if text:
            label = mark.raw(0).strip() if mark.groups else ""
            notes.append(TableNote(label, text, source.locator(after, stop), scope))
    return notes


@functools.lru_cache(maxsize=1024)
def _defines(name: str) -> re.Pattern[str]:
    """Where a text may define the macro `name` (a false match only costs a parse)."""
    escaped = re.escape(name)
    return re.compile(
        rf"\\(?:(?:re)?newcommand|providecommand)\*?\s*\{{?\s*\\{escaped}(?![A-Za-z@])|\\def\s*\\{escaped}(?![A-Za-z@])"
    )


def macro_names(spans: Iterable[Span]) -> set[str]:
    """The names of the macros written in some spans (for the definitions a rendering needs)."""
    from credencegraph.ingest.latex import _walk

    names: set[str] = set()
    for span in spans:
        if span.node is not None:
            names.update(str(node.macroname) for node in _walk([span.node]) if hasattr(node, "macroname"))
    return names


def _env_name(node: Any) -> str | None:
    if node is not None and type(node).__name__ == "LatexEnvironmentNode":
        return str(node.environmentname)
    return None
