r"""The tables of a LaTeX paper, found by walking its files in reading order with pylatexenc.

The walk reads only the files the ingestion already resolved (`Document.files`, by name), so it opens no
path of its own. It starts at the main file (its preamble for macro definitions, its `document`
environment for content) and follows `\input`, `\include`, `\import` and `\subimport` in place, as LaTeX
reads them: a table in an `\input` file inside a `table` float belongs to that float. A name resolves
relative to the main file's directory (`x`, then `x.tex`), as credencegraph resolves `\input`; `\import{dir}
{file}` names `dir/file` and `\subimport` a path relative to the importing file's directory. A name that is
not in the file list is not read.

Along the way it keeps what a table's rows need:

* every tabular-like environment (`tabular`, `tabular*`, `tabularx`, `tabulary`, `longtable`, `xltabular`,
  `supertabular`, `xtabular`, `NiceTabular`, tabularray's `tblr`), with its column specification and its
  body (an `\input` inside a body is spliced in, as TeX reads it). A tabular nested in a cell is part of
  that cell; a tabular in a `\newcommand` body, in maths, or in `verbatim`/`comment` is not a table;
* the float it is in (`table`, `table*`, `sidewaystable`, `wraptable`, `figure`, ... or a longtable, which
  is its own float), the caption that names it (the innermost environment's, a subtable's subcaption with
  its float's caption) and the `\label` after that caption;
* the numbers LaTeX prints: each numbered `\caption` of a float steps its counter (a longtable steps the
  table counter where it begins), `\captionof{table}` too; subcaptions are lettered within their float;
  `\setcounter`, `\addtocounter`, `\stepcounter` and `\refstepcounter` of `table` and `figure` are
  followed, and a `\chapter` resets both and prefixes them (`3.2`), lettered after `\appendix`. This count
  is only a fallback: start_run titles the rows with the paper's numbering (cgx_core.ingest.numbering, which
  follows `\counterwithin` and a redefined `\thetable` too), by the line of each caption;
* the macros the paper defines (`\newcommand`, `\renewcommand`, `\providecommand`, `\def`), collected as
  credencegraph collects them, so cells are rendered as credencegraph renders prose;
* where each file is read from (the lines of the `\input` chain that reaches it), so rows can be placed
  among credencegraph's chunks in document order.

Work is bounded: each file is parsed once, the walk descends at most `MAX_TABLE_NESTING` levels, and every
other loop is linear in the text.
"""

from __future__ import annotations

import functools
import posixpath
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from cgx_core.base.limits import MAX_TABLE_NESTING
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
_OPAQUE_MACROS = frozenset({*_DEFINING, "newenvironment", "renewenvironment", "DeclareMathOperator", "newcolumntype"})
_INPUTS = frozenset({"input", "include"})
_IMPORTS = frozenset({"import", "subimport", "inputfrom", "includefrom", "subinputfrom", "subincludefrom"})
_COUNTER_MACROS = frozenset({"setcounter", "addtocounter", "stepcounter", "refstepcounter"})
# What in a file's text may hold or change a table (a false match only costs a parse).
_MATTERS = re.compile(
    r"\\(?:begin\s*\{\s*(?:tabular|longtable|xltabular|supertabular|xtabular|NiceTabular|tblr|longtblr|talltblr"
    r"|table|figure|sidewaystable|sidewaysfigure|wraptable|wrapfigure|SCtable|SCfigure|subtable|subfigure)"
    r"|caption|subcaption|subfloat|setcounter|addtocounter|stepcounter|refstepcounter|chapter|appendix"
    r"|input|include|import|subimport|subinputfrom|subincludefrom)"
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


def _alpha(number: int) -> str:
    """1 -> a, 26 -> z, 27 -> aa: LaTeX's \\alph, continued past z instead of failing."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = string.ascii_lowercase[rest] + letters
    return letters or "?"


@attrs.define(eq=False)
class Caption:
    """A caption as LaTeX numbers it, where it is, and the label that names it."""

    kind: str  # "table" or "figure"
    source: Source
    node: Any = attrs.field(repr=False)
    event: int
    number: str | None  # None: unnumbered (\caption*), or not numbered yet (a subcaption's float)
    sub: int = 0  # a subcaption's index within its float (1 -> a)
    float_scope: Scope | None = None
    scope: Scope | None = None
    """The scope the caption is written in, whose labels may name it."""
    labels: list[str] = attrs.field(factory=list)
    """Labels inside the caption's own text."""

    @property
    def locator(self) -> str:
        return self.source.locator(int(self.node.pos), int(self.node.pos) + int(self.node.len))

    @property
    def text(self) -> str:
        arguments = _arguments(self.node)
        return argument_text(arguments[-1]) if arguments else ""

    def printed(self) -> str | None:
        """The number LaTeX prints for it: `2`, `3.1`, `1a`; None when it is unnumbered."""
        if self.sub:
            main = self.float_scope.main_number() if self.float_scope is not None else None
            return None if main is None else f"{main}{_alpha(self.sub)}"
        return self.number


@attrs.define(eq=False)
class Scope:
    """An environment (or a subfloat's argument) the walk is inside, with the captions and labels written
    directly in it, in order (by event)."""

    parent: Scope | None
    name: str = ""  # the environment's name ("" for the document and a subfloat's argument)
    kind: str | None = None  # the float kind when this scope is a float
    sub: bool = False  # a subtable, subfigure or \subfloat
    long_number: str | None = None  # a longtable's number, stepped where it begins
    captions: list[Caption] = attrs.field(factory=list)
    labels: list[tuple[int, str]] = attrs.field(factory=list)
    subcaptions: int = 0

    def chain(self) -> Iterator[Scope]:
        scope: Scope | None = self
        while scope is not None:
            yield scope
            if scope.kind is not None:
                return
            scope = scope.parent

    def float_of(self) -> Scope | None:
        return next((scope for scope in self.chain() if scope.kind is not None), None)

    def main_number(self) -> str | None:
        if self.long_number is not None:
            return self.long_number
        numbered = [caption.number for caption in self.captions if not caption.sub and caption.number is not None]
        return numbered[0] if numbered else None

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


@attrs.define
class _Counters:
    table: int = 0
    figure: int = 0
    chapter: int = 0
    chapters: bool = False
    appendix: bool = False

    def prefix(self) -> str:
        if not self.chapters:
            return ""
        chapter = _alpha(self.chapter).upper() if self.appendix else str(self.chapter)
        return f"{chapter}."

    def step(self, kind: str) -> str:
        value = getattr(self, kind) + 1
        setattr(self, kind, value)
        return f"{self.prefix()}{value}"


@attrs.frozen
class _Place:
    r"""Where the walk is: the file (`source`) and scope it reads, the chain of `\input` lines that led to the
    file, whether it is in the document's body, how deeply it is nested, and the folder an `\import` set."""

    source: Source
    scope: Scope
    chain: tuple[int, ...]
    in_body: bool
    depth: int
    import_dir: str | None

    def deeper(self, scope: Scope | None = None) -> _Place:
        """One group or environment further in (with its own scope, when it opens one)."""
        return attrs.evolve(self, scope=scope or self.scope, depth=self.depth + 1)


class PaperWalk:
    """One walk over a paper's files; `walk()` fills `tables` and `chains`."""

    def __init__(self, files: Mapping[str, str], main: str) -> None:
        from pylatexenc.latexwalker import LatexWalker

        self._walker_class = LatexWalker
        self.files = files
        self.main = main
        self.main_dir = posixpath.dirname(main)
        self.context = latex_context()
        self.parsed: dict[str, Source] = {}
        self.tables: list[FoundTable] = []
        self.chains: dict[str, tuple[int, ...]] = {}
        """For each file read in the body (by its locator name), the lines of the \\input chain that first
        reaches it."""
        self.counters = _Counters()
        self.events = 0
        self.stack: list[str] = []

    # -- files ---------------------------------------------------------------------------------------

    def source(self, name: str) -> Source:
        if name not in self.parsed:
            text = self.files[name]
            walker = self._walker_class(text, latex_context=self.context, tolerant_parsing=True)
            nodes, _, _ = walker.get_latex_nodes()
            self.parsed[name] = Source(name, self.located(name), text, walker, list(nodes))
        return self.parsed[name]

    def resolve(self, argument: str, base: str | None = None) -> str | None:
        """The file list's name for an \\input argument, relative to `base` (default: the main file's
        directory): the name as written, then with `.tex`; None when neither is in the list."""
        written = argument.strip()
        if not written:
            return None
        directory = self.main_dir if base is None else base
        name = posixpath.normpath(posixpath.join(directory, written)) if directory else posixpath.normpath(written)
        for candidate in (name, name + ".tex") if not name.endswith(".tex") else (name,):
            if candidate in self.files and not candidate.endswith((".bbl", ".bib")):
                return candidate
        return None

    def walk(self) -> None:
        main = self.source(self.main)
        self.stack.append(self.main)
        document = next(
            (node for node in main.nodes if _env_name(node) == "document"),
            None,
        )
        root = Scope(None)
        if document is None:
            self.chains[main.located] = ()
            self.nodes(main.nodes, _Place(main, root, (), True, 0, None))
        else:
            before = [node for node in main.nodes if node is not None and node.pos < document.pos]
            self.nodes(before, _Place(main, root, (), False, 0, None))
            self.chains[main.located] = ()
            self.nodes(document.nodelist, _Place(main, root, (), True, 0, None))
        self.stack.pop()

    def read_file(self, name: str, place: _Place) -> None:
        """Walk a file read from the body. A file the preamble reads holds no content (its macro definitions
        are read when a cell needs them), and a file with no table, float, caption, counter or input in its
        text cannot change a table: neither is parsed."""
        if not place.in_body or name in self.stack or place.depth > MAX_TABLE_NESTING:
            return
        self.chains.setdefault(self.located(name), place.chain)
        if _MATTERS.search(self.files[name]) is None and not any(scope.kind for scope in _scopes(place.scope)):
            return
        source = self.source(name)
        self.stack.append(name)
        self.nodes(source.nodes, attrs.evolve(place, source=source).deeper())
        self.stack.pop()

    def located(self, name: str) -> str:
        return posixpath.relpath(name, self.main_dir or ".")

    def definitions_for(self, names: set[str]) -> dict[str, Any]:
        """The paper's definitions of the macros `names` use (and of those their bodies use), collected as
        credencegraph collects them: every file in reading order, `\\def` from its uncommented text, then
        `\\newcommand` and kin from its nodes. Only a file whose text names one of them is parsed."""
        from credencegraph.ingest.latex import _walk

        wanted = set(names)
        definitions = Definitions()
        while True:
            definitions = Definitions()
            for name, text in self.files.items():
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
        source, scope, import_dir = place.source, place.scope, place.import_dir
        name = str(node.macroname)
        arguments = _arguments(node)
        if name == "def":
            return 1
        if name in _OPAQUE_MACROS:
            return 0
        line = source.lines(int(node.pos), int(node.pos) + int(node.len))[0] if name in _INPUTS | _IMPORTS else 0
        if name in _INPUTS and arguments:
            base = import_dir if import_dir is not None else None
            target = self.resolve(argument_text(arguments[-1]), base) or self.resolve(argument_text(arguments[-1]))
            if target is not None:
                self.read_file(target, attrs.evolve(place, chain=(*place.chain, line)))
            return 0
        if name in _IMPORTS and len(arguments) >= 2:
            directory, file = argument_text(arguments[-2]).strip(), argument_text(arguments[-1])
            relative = name.startswith("sub")
            here = posixpath.dirname(source.name) if relative else self.main_dir
            folder = posixpath.normpath(posixpath.join(here, directory)) if here or directory else ""
            target = self.resolve(file, folder)
            if target is not None:
                self.read_file(target, attrs.evolve(place, chain=(*place.chain, line), import_dir=folder))
            return 0
        if name in _COUNTER_MACROS:
            self.counter(name, arguments)
            return 0
        if name == "chapter" and arguments and arguments[0] is None:
            self.counters.chapters = True
            self.counters.chapter += 1
            self.counters.table = self.counters.figure = 0
            return 0
        if name == "appendix":
            if self.counters.chapters:
                self.counters.appendix = True
                self.counters.chapter = 0
            return 0
        if not place.in_body:
            return 0
        if name in ("caption", "captionof", "subcaption"):
            self.caption(node, source, scope)
            return 0
        if name == "label" and arguments:
            scope.labels.append((self.next_event(), argument_text(arguments[-1]).strip()))
            return 0
        inner = Scope(scope, sub=True) if name == "subfloat" else scope
        if name == "subfloat" and arguments and arguments[1] is not None:
            self.subfloat_caption(node, arguments[1], source, inner)
        for argument in arguments:
            if argument is not None and type(argument).__name__ == "LatexGroupNode":
                self.nodes(argument.nodelist, place.deeper(inner))
        return 0

    def counter(self, name: str, arguments: list[Any]) -> None:
        which = argument_text(arguments[0]).strip() if arguments else ""
        if which not in ("table", "figure"):
            return
        value = argument_text(arguments[1]).strip() if len(arguments) > 1 else ""
        number = int(value) if value.lstrip("-").isdigit() and len(value) < 7 else None
        current = getattr(self.counters, which)
        if name == "setcounter" and number is not None:
            setattr(self.counters, which, number)
        elif name == "addtocounter" and number is not None:
            setattr(self.counters, which, current + number)
        elif name in ("stepcounter", "refstepcounter"):
            setattr(self.counters, which, current + 1)

    def caption(self, node: Any, source: Source, scope: Scope) -> None:
        name = str(node.macroname)
        arguments = _arguments(node)
        starred = bool(arguments) and arguments[0] is not None and name != "captionof"
        float_scope = scope.float_of()
        event = self.next_event()
        if name == "captionof":
            starred = bool(arguments) and arguments[0] is not None
            kind = argument_text(arguments[1]).strip() if len(arguments) > 1 else ""
            kind = kind if kind in ("table", "figure") else "table"
            number = None if starred else self.counters.step(kind)
            caption = Caption(kind, source, node, event, number)
        elif float_scope is None:
            return  # a \caption outside any float prints nothing LaTeX would number
        elif name == "subcaption" or any(inner.sub for inner in scope.chain()):
            float_scope.subcaptions += 1
            caption = Caption(str(float_scope.kind), source, node, event, None, float_scope.subcaptions, float_scope)
        elif float_scope.long_number is not None:
            caption = Caption(str(float_scope.kind), source, node, event, None if starred else float_scope.long_number)
        else:
            number = None if starred else self.counters.step(str(float_scope.kind))
            caption = Caption(str(float_scope.kind), source, node, event, number)
        if arguments and arguments[-1] is not None:
            caption.labels.extend(_labels_in(arguments[-1]))
        caption.scope = scope
        scope.captions.append(caption)

    def subfloat_caption(self, node: Any, text: Any, source: Source, scope: Scope) -> None:
        float_scope = scope.float_of()
        if float_scope is None or float_scope.kind is None or not argument_text(text).strip():
            return
        float_scope.subcaptions += 1
        caption = Caption(float_scope.kind, source, node, self.next_event(), None, float_scope.subcaptions, float_scope)
        caption.labels.extend(_labels_in(text))
        caption.scope = scope
        scope.captions.append(caption)

    def environment(self, node: Any, place: _Place) -> None:
        name = str(node.environmentname)
        if name in _OPAQUE:
            return
        if name in TABULARS:
            if place.in_body:
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
        if name in _LONG:
            scope = Scope(scope, name, kind="table", long_number=self.counters.step("table"))
            for span in body:
                macro = getattr(span.node, "macroname", None)
                if macro in ("caption", "label"):
                    self.macro(span.node, attrs.evolve(place, source=span.source, scope=scope, in_body=True, depth=1))
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
                written = argument_text(arguments[-1])
                target = (self.resolve(written, import_dir) if import_dir else None) or self.resolve(written)
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
