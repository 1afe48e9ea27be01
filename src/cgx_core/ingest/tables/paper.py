r"""The tables of a LaTeX paper, found by walking its body in reading order with pylatexenc.

The walk reads only the files the ingestion already resolved (`Document.files`, by name), so it opens no
path of its own, and follows `\input`, `\include`, `\import` and `\subimport` where they stand, by the rules
every reader shares (cgx_core.ingest.latex_text): a table in an `\input` file inside a `table` float belongs to
that float. It starts at the main file's `document` environment (the whole file when it has none).

Along the way it keeps what a table's rows need:

* every tabular-like environment (`tabular`, `tabular*`, `tabularx`, `tabulary`, `longtable`, `xltabular`,
  `supertabular`, `xtabular`, `NiceTabular`, tabularray's `tblr`), with its column specification and its
  body (an `\input` inside a body is spliced in, as TeX reads it). A tabular nested in a cell is part of
  that cell; a tabular in a `\newcommand` body, in maths, or in `verbatim`/`comment` is not a table;
* the float it is in (`table`, `table*`, `sidewaystable`, `wraptable`, `figure`, ... or a longtable, which
  is its own float), the caption that names it (the innermost environment's, a subtable's subcaption with
  its float's caption) and the `\label` after that caption. The number LaTeX prints for the caption is the
  paper's numbering's (cgx_core.ingest.numbering, the one authority on numbers), found by the caption's line;
* the macros the paper defines (`\newcommand`, `\renewcommand`, `\providecommand`, `\def`), collected as
  credencegraph collects them, so cells are rendered as credencegraph renders prose;
* where each file is read from (the lines of the `\input` chain that reaches it), so rows can be placed
  among credencegraph's chunks in document order.

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
from cgx_core.ingest.latex_text import IMPORTS, INPUTS, PaperFiles
from cgx_core.ingest.tables.source import Source, Span, node_span

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
# Tabulars that are their own float: they step the table counter where they begin and hold their caption.
_LONG = frozenset({"longtable", "xltabular", "longtblr"})
_FLOATS: Mapping[str, tuple[str, str]] = {
    "table": ("table", "["),
    "table*": ("table", "["),
    "sidewaystable": ("table", "["),
    "sidewaystable*": ("table", "["),
    "wraptable": ("table", "[{[{"),
    "SCtable": ("table", "["),
    "figure": ("figure", "["),
    "figure*": ("figure", "["),
    "sidewaysfigure": ("figure", "["),
    "sidewaysfigure*": ("figure", "["),
    "wrapfigure": ("figure", "[{[{"),
    "SCfigure": ("figure", "["),
}
_SUBFLOATS = frozenset({"subtable", "subfigure"})
_OTHER_ENVIRONMENTS = {"minipage": "[[[{", "threeparttable": "[", "tablenotes": "[", "adjustbox": "{"}
# Environments whose content is no table of the paper (credencegraph skips the same, and comments).
_OPAQUE = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "comment", "tikzpicture"})
_DEFINING = frozenset({"newcommand", "renewcommand", "providecommand"})
_OPAQUE_MACROS = frozenset(
    {*_DEFINING, "newenvironment", "renewenvironment", "DeclareMathOperator", "newcolumntype"}
    | {"setcounter", "addtocounter", "stepcounter", "refstepcounter", "appendix"}
)
# What in a file's text may hold or change a table (a false match only costs a parse).
_MATTERS = re.compile(
    r"\\(?:begin\s*\{\s*(?:tabular|longtable|xltabular|supertabular|xtabular|NiceTabular|tblr|longtblr|talltblr"
    r"|table|figure|sidewaystable|sidewaysfigure|wraptable|wrapfigure|SCtable|SCfigure|subtable|subfigure)"
    r"|caption|subcaption|subfloat|input|include|import|subimport|subinputfrom|subincludefrom)"
)
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
    "setcounter": "{{",
    "addtocounter": "{{",
    "stepcounter": "{",
    "refstepcounter": "{",
    "includegraphics": "*[[{",
    "resizebox": "*{{{",
    "scalebox": "{[{",
    "newcolumntype": "{[[{",
}


def latex_context() -> Any:
    """pylatexenc's default macros, credencegraph's reader's additions, and the table macros above, merged
    into one category: pylatexenc looks for specials category by category at every token, so one category
    parses a paper about a fifth faster than ten, with the same nodes; and its specials are looked up by
    their first character (cgx_core.ingest.specials), again with the same nodes."""
    from credencegraph.ingest.latex import _SPECS
    from pylatexenc.latexwalker import get_default_latex_context_db

    from cgx_core.ingest.specials import IndexedContextDb

    layered = get_default_latex_context_db()
    layered.add_context_category("credencegraph", macros=list(_SPECS), prepend=True)
    add_table_specs(layered)
    kinds: dict[str, dict[str, Any]] = {"macros": {}, "environments": {}, "specials": {}}
    for category in reversed(layered.category_list):  # the first category wins, as in a lookup
        for kind, specs in kinds.items():
            specs.update(layered.d[category][kind])
    context = IndexedContextDb()
    context.add_context_category("cgx", **{kind: list(specs.values()) for kind, specs in kinds.items()})
    context.set_unknown_macro_spec(layered.unknown_macro_spec)
    context.set_unknown_environment_spec(layered.unknown_environment_spec)
    context.set_unknown_specials_spec(layered.unknown_specials_spec)
    return context


def add_table_specs(context: Any) -> None:
    """Teach a pylatexenc context the arguments of the table environments and macros above."""
    from pylatexenc.macrospec import EnvironmentSpec, MacroSpec

    environments = [EnvironmentSpec(name, spec) for name, (spec, _) in TABULARS.items()]
    environments += [EnvironmentSpec(name, spec) for name, (_, spec) in _FLOATS.items()]
    environments += [EnvironmentSpec(name, "[[[{") for name in _SUBFLOATS]
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


def _arguments(node: Any) -> list[Any]:
    parsed = getattr(node, "nodeargd", None)
    return list(parsed.argnlist) if parsed is not None and parsed.argnlist is not None else []


@attrs.define(eq=False)
class Caption:
    """A caption, where it is, and the labels that may name it (its printed number is the paper's numbering's,
    found by its file and line: cgx_core.ingest.numbering)."""

    kind: str  # "table" or "figure"
    source: Source
    node: Any = attrs.field(repr=False)
    event: int
    sub: bool = False
    """A panel's caption (a subtable's, a `\\subcaption`, a `\\subfloat`'s)."""
    scope: Scope | None = None
    """The scope the caption is written in, whose labels may name it."""
    labels: list[str] = attrs.field(factory=list)
    """Labels inside the caption's own text."""

    @property
    def locator(self) -> str:
        return self.source.locator(int(self.node.pos), int(self.node.pos) + int(self.node.len))

    @property
    def line(self) -> tuple[str, int]:
        """The file (as a locator names it) and the line the caption starts on."""
        return self.source.located, self.source.lines(int(self.node.pos), int(self.node.pos) + int(self.node.len))[0]

    @property
    def text(self) -> str:
        arguments = _arguments(self.node)
        return argument_text(arguments[-1]) if arguments else ""


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

    def chain(self) -> Iterator[Scope]:
        scope: Scope | None = self
        while scope is not None:
            yield scope
            if scope.kind is not None:
                return
            scope = scope.parent

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

    def float_scope(self) -> Scope | None:
        return self.scope.float_of()


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
        if "\\def" not in source.text:
            return
        from credencegraph.ingest.latex import _DEF, _PARAMETER, LatexError, _Definition, _group_body, _walk

        text = list(source.text)
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

        arguments = _arguments(node)
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
class _Place:
    r"""Where the walk is: the file (`source`) and scope it reads, the chain of `\input` lines that led to the
    file, how deeply it is nested, and the folder an `\import` set."""

    source: Source
    scope: Scope
    chain: tuple[int, ...]
    depth: int
    import_dir: str | None

    def deeper(self, scope: Scope | None = None) -> _Place:
        """One group or environment further in (with its own scope, when it opens one)."""
        return attrs.evolve(self, scope=scope or self.scope, depth=self.depth + 1)


class PaperWalk:
    """One walk over a paper's body; `walk()` fills `tables` and `chains`."""

    def __init__(self, files: Mapping[str, str], main: str) -> None:
        from pylatexenc.latexwalker import LatexWalker

        self._walker_class = LatexWalker
        self.paper = PaperFiles(files, main)
        self.context = latex_context()
        self.parsed: dict[str, Source] = {}
        self.tables: list[FoundTable] = []
        self.chains: dict[str, tuple[int, ...]] = {}
        """For each file read in the body (by its locator name), the lines of the \\input chain that first
        reaches it."""
        self.events = 0
        self.stack: list[str] = []

    # -- files ---------------------------------------------------------------------------------------

    def source(self, name: str) -> Source:
        if name not in self.parsed:
            text = self.paper.files[name]
            walker = self._walker_class(text, latex_context=self.context, tolerant_parsing=True)
            nodes, _, _ = walker.get_latex_nodes()
            self.parsed[name] = Source(name, self.paper.located(name), text, walker, list(nodes))
        return self.parsed[name]

    def walk(self) -> None:
        """The main file's body (its `document` environment; the whole file when it has none)."""
        main = self.source(self.paper.main)
        self.stack.append(self.paper.main)
        document = next((node for node in main.nodes if _env_name(node) == "document"), None)
        self.chains[main.located] = ()
        self.nodes(main.nodes if document is None else document.nodelist, _Place(main, Scope(None), (), 0, None))
        self.stack.pop()

    def read_file(self, name: str, place: _Place) -> None:
        """Walk a file read from the body. A file with no table, float, caption or input in its text cannot hold
        a table, nor name one outside a float: it is not parsed."""
        if name in self.stack or place.depth > MAX_TABLE_NESTING:
            return
        self.chains.setdefault(self.paper.located(name), place.chain)
        if _MATTERS.search(self.paper.files[name]) is None and not any(scope.kind for scope in _scopes(place.scope)):
            return
        source = self.source(name)
        self.stack.append(name)
        self.nodes(source.nodes, attrs.evolve(place, source=source).deeper())
        self.stack.pop()

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

    # -- nodes ---------------------------------------------------------------------------------------

    def next_event(self) -> int:
        self.events += 1
        return self.events

    def nodes(self, nodes: list[Any] | None, place: _Place) -> None:
        if place.depth > MAX_TABLE_NESTING:
            return
        skip_def = 0
        for node in nodes or ():
            if node is None:
                continue
            kind = type(node).__name__
            if skip_def:  # the name, parameters and body of a \def: a definition, not content
                skip_def = 0 if kind == "LatexGroupNode" else 2
                continue
            if kind == "LatexMacroNode":
                skip_def = self.macro(node, place)
            elif kind == "LatexEnvironmentNode":
                self.environment(node, place)
            elif kind == "LatexGroupNode":
                self.nodes(node.nodelist, place.deeper())

    def macro(self, node: Any, place: _Place) -> int:
        """Read a macro; return 1 when it is a \\def whose name and body follow."""
        name = str(node.macroname)
        if name == "def":
            return 1
        arguments = _arguments(node)
        if name in _OPAQUE_MACROS or (name == "chapter" and arguments and arguments[0] is None):
            return 0  # a definition, a counter, a chapter's title: no table is in them
        if name in INPUTS | IMPORTS:
            self.input(node, arguments, place)
        elif name in ("caption", "captionof", "subcaption"):
            self.caption(node, place.source, place.scope)
        elif name == "label" and arguments:
            place.scope.labels.append((self.next_event(), argument_text(arguments[-1]).strip()))
        else:
            inner = Scope(place.scope, sub=True) if name == "subfloat" else place.scope
            if name == "subfloat" and arguments and arguments[1] is not None:
                self.subfloat_caption(node, arguments[1], place.source, inner)
            for argument in arguments:
                if argument is not None and type(argument).__name__ == "LatexGroupNode":
                    self.nodes(argument.nodelist, place.deeper(inner))
        return 0

    def input(self, node: Any, arguments: list[Any], place: _Place) -> None:
        r"""`\input`, `\include` and the import package's macros: the file they name is walked where they stand."""
        name = str(node.macroname)
        chain = (*place.chain, place.source.lines(int(node.pos), int(node.pos) + int(node.len))[0])
        if name in INPUTS and arguments:
            target = self.paper.input_target(argument_text(arguments[-1]), place.import_dir)
            if target is not None:
                self.read_file(target, attrs.evolve(place, chain=chain))
        elif name in IMPORTS and len(arguments) >= 2:
            directory, file = argument_text(arguments[-2]), argument_text(arguments[-1])
            target, folder = self.paper.import_target(name, directory, file, place.source.name)
            if target is not None:
                self.read_file(target, attrs.evolve(place, chain=chain, import_dir=folder))

    def caption(self, node: Any, source: Source, scope: Scope) -> None:
        name = str(node.macroname)
        arguments = _arguments(node)
        float_scope = scope.float_of()
        if name == "captionof":
            kind = argument_text(arguments[1]).strip() if len(arguments) > 1 else ""
            caption = Caption(kind if kind in ("table", "figure") else "table", source, node, self.next_event())
        elif float_scope is None:
            self.next_event()
            return  # a \caption outside any float prints nothing LaTeX would number
        else:
            sub = name == "subcaption" or any(inner.sub for inner in scope.chain())
            caption = Caption(str(float_scope.kind), source, node, self.next_event(), sub)
        if arguments and arguments[-1] is not None:
            caption.labels.extend(_labels_in(arguments[-1]))
        caption.scope = scope
        scope.captions.append(caption)

    def subfloat_caption(self, node: Any, text: Any, source: Source, scope: Scope) -> None:
        float_scope = scope.float_of()
        if float_scope is None or float_scope.kind is None or not argument_text(text).strip():
            return
        caption = Caption(float_scope.kind, source, node, self.next_event(), True)
        caption.labels.extend(_labels_in(text))
        caption.scope = scope
        scope.captions.append(caption)

    def environment(self, node: Any, place: _Place) -> None:
        name = str(node.environmentname)
        if name in _OPAQUE:
            return
        if name in TABULARS:
            self.table(node, place)
            return
        if name in _FLOATS:
            inner = Scope(place.scope, name, kind=_FLOATS[name][0])
        elif name in _SUBFLOATS:
            inner = Scope(place.scope, name, sub=True)
        else:
            inner = Scope(place.scope, name)
        self.nodes(node.nodelist, place.deeper(inner))

    def table(self, node: Any, place: _Place) -> None:
        source, scope, chain, import_dir = place.source, place.scope, place.chain, place.import_dir
        name = str(node.environmentname)
        arguments = _arguments(node)
        spec_index = TABULARS[name][1]
        spec = argument_text(arguments[spec_index]) if len(arguments) > spec_index else ""
        body = list(self.body(node.nodelist, source, import_dir, depth=0))
        if name in _LONG:  # its own float, holding its caption and label
            scope = Scope(scope, name, kind="table")
            for span in body:
                macro = getattr(span.node, "macroname", None)
                if macro in ("caption", "label"):
                    self.macro(span.node, attrs.evolve(place, source=span.source, scope=scope, depth=1))
        line = source.lines(int(node.pos), int(node.pos) + int(node.len))[0]
        self.tables.append(FoundTable(name, source, node, scope, self.next_event(), (*chain, line), spec, body))

    def body(self, nodes: list[Any] | None, source: Source, import_dir: str | None, depth: int) -> Iterator[Span]:
        r"""A tabular's body as spans, with an `\input` of rows spliced in where it stands."""
        for node in nodes or ():
            if node is None:
                continue
            macro = getattr(node, "macroname", None)
            arguments = _arguments(node)
            if macro == "input" and arguments and depth < 8:
                target = self.paper.input_target(argument_text(arguments[-1]), import_dir)
                if target is not None and target not in self.stack:
                    spliced = self.source(target)
                    self.stack.append(target)
                    yield from self.body(spliced.nodes, spliced, import_dir, depth + 1)
                    self.stack.pop()
                    continue
            yield node_span(source, node)


@functools.lru_cache(maxsize=1024)
def _defines(name: str) -> re.Pattern[str]:
    """Where a text may define the macro `name` (a false match only costs a parse)."""
    escaped = re.escape(name)
    return re.compile(
        rf"\\(?:(?:re)?newcommand|providecommand)\*?\s*\{{?\s*\\{escaped}(?![A-Za-z@])|\\def\s*\\{escaped}(?![A-Za-z@])"
    )


def _scopes(scope: Scope | None) -> Iterator[Scope]:
    while scope is not None:
        yield scope
        scope = scope.parent


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


def _labels_in(node: Any) -> list[str]:
    from credencegraph.ingest.latex import _walk

    found = []
    for inner in _walk(getattr(node, "nodelist", None) or [node]):
        if getattr(inner, "macroname", None) == "label":
            arguments = _arguments(inner)
            if arguments:
                found.append(argument_text(arguments[-1]).strip())
    return found
