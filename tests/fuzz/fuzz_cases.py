"""What the boundary fuzzers send, and what they check after each call.

Arguments are drawn from each tool's own JSON schema (read from the registry, so a new argument is fuzzed
without a change here), with the values an agent really sends mixed in (the run's node ids, its types, the
installed check types, the example's files), then often broken: a required argument dropped, an unknown
one added, a value of the wrong type, a nested value replaced by arbitrary JSON, or the whole arguments
replaced by something that is not an object. Strings include the ones that break naive code: empty,
whitespace, control characters, lone surrogates, very long, paths that climb out. Numbers include huge
integers and, where the front end can carry them, NaN and infinities.

No URL that could leave the machine is ever generated: a URL source names only the loopback address,
`localhost`, or a scheme the fetcher refuses, so fuzzing is offline even if the fetcher had a bug.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

from cgx_core.checks.installed import installed_check_types
from cgx_core.codes import Code
from cgx_core.tooling.registry import TOOLS

CODES = frozenset(str(code) for code in Code)
ERROR_LINE = re.compile(r"error \[([a-z0-9-]+)\]: (.+)")

NASTY_STRINGS = (
    "",
    " ",
    "\t\n",
    "\x00",
    "\x1b[31mred",
    "\ud800",
    "a\udcff",
    "\ufeff",
    "é",
    "😀",
    "../../../etc/passwd",
    "/",
    ".",
    "..",
    "~",
    "null",
    "-",
    "--help",
    "s-01",
    "r-1",
    "c-001",
    "x" * 5000,
)
LOCAL_URLS = (
    "http://127.0.0.1/",
    "http://127.0.0.1:1/paper.pdf",
    "https://localhost/x",
    "http://[::1]/",
    "http://0.0.0.0/",
    "file:///etc/passwd",
    "ftp://127.0.0.1/x",
    "javascript:alert(1)",
    "http://",
    "https://[::1",
    "http://user:pass@127.0.0.1/",
)
EXPRESSIONS = (
    "12 * 300",
    "1200 * 75",
    "3000 / 200000",
    "10^100",
    "10^101",
    "2^2^2^2^2",
    "9**999999",
    "(((((((((1)))))))))",
    "1/0",
    "0^0",
    "\\frac{1}{2}",
    "1,000 + 2",
    "1e400",
    "-",
    "",
)


@attrs.frozen
class Front:
    """What a front end can carry: the in-memory MCP client passes Python values (NaN and infinities too)
    but refuses, before sending, arguments that are not an object or hold a lone surrogate; the command
    line takes any text, and Python decodes bytes that are not UTF-8 in argv into lone surrogates."""

    nonfinite: bool
    surrogates: bool
    objects_only: bool


MCP = Front(nonfinite=True, surrogates=False, objects_only=True)
CLI = Front(nonfinite=False, surrogates=True, objects_only=False)


@attrs.frozen
class Targets:
    """The paths and names the fuzzers draw from (all absolute, all under the test's temp folder)."""

    run: Path
    template: Path
    scratch: Path
    missing: Path
    file: Path
    plain_dir: Path
    paper: Path
    rubric: Path
    cited: Path
    bibliography: Path
    node_ids: tuple[str, ...]
    types: tuple[str, ...]
    form_fields: tuple[str, ...]
    passages: tuple[str, ...]
    cited_names: tuple[str, ...]


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def nasty_text(front: Front, max_size: int = 40) -> st.SearchStrategy[str]:
    nasty = [text for text in NASTY_STRINGS if front.surrogates or not _has_surrogate(text)]
    alphabet = st.characters(codec=None if front.surrogates else "utf-8")
    return st.one_of(st.text(alphabet, max_size=max_size), st.sampled_from(nasty))


def scalars(front: Front) -> st.SearchStrategy[Any]:
    """JSON scalars, with huge integers, and NaN and infinities where the front end carries them."""
    numbers = st.one_of(
        st.integers(),
        st.sampled_from((0, -1, 2**63, -(2**63), 10**400, True, False)),
        st.floats(allow_nan=front.nonfinite, allow_infinity=front.nonfinite),
    )
    return st.one_of(st.none(), st.booleans(), numbers, nasty_text(front))


def json_values(front: Front) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars(front),
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(nasty_text(front, 12), children, max_size=4)
        ),
        max_leaves=10,
    )


def _paths(targets: Targets, front: Front, *extra: Path) -> st.SearchStrategy[str]:
    known = (targets.missing, targets.file, targets.plain_dir, targets.scratch, *extra)
    return st.one_of(st.sampled_from([str(path) for path in known]), nasty_text(front))


def _overrides(targets: Targets, front: Front) -> dict[str, st.SearchStrategy[Any]]:
    """Realistic values for the arguments and record fields an agent fills in, by name."""
    ids = st.one_of(st.sampled_from(targets.node_ids), nasty_text(front, 12))
    check_types = tuple(item.check_type.name for item in installed_check_types())
    proposal = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(check_types), nasty_text(front, 20)), "target": ids},
        optional={
            "expression": st.one_of(
                st.sampled_from(EXPRESSIONS), st.text(alphabet="0123456789+-*/^(). e", max_size=30)
            ),
            "result": st.one_of(st.sampled_from(("3000", "90000", "0.015", "1e400", "NaN")), nasty_text(front, 10)),
            "cites": st.lists(ids, max_size=3),
            "part": st.sampled_from(("3000", "1.5", "x")),
            "whole": st.sampled_from(("90000", "2", "0")),
            "percent": st.sampled_from(("1.5%", "50", "1e9")),
            "entry": ids,
            "source": st.sampled_from(LOCAL_URLS),
            "passage": st.sampled_from(targets.passages),
            "supports": st.booleans(),
            "unknown": json_values(front),
        },
    )
    return {
        "run": st.sampled_from(
            [str(targets.run)] * 6 + [str(targets.missing), str(targets.file), str(targets.plain_dir)]
        ),
        # half the time the real file, so that some start_run calls are accepted and make a run
        "paper": st.one_of(st.just(str(targets.paper)), _paths(targets, front, targets.rubric, targets.bibliography)),
        "rubric": st.one_of(st.just(str(targets.rubric)), _paths(targets, front, targets.paper)),
        "cited": _paths(targets, front, targets.cited, targets.paper.parent),
        "bibliography": _paths(targets, front, targets.bibliography, targets.paper),
        "node": ids,
        "target": ids,
        "entry": ids,
        "conclusion": ids,
        "stated_at": ids,
        "nodes": st.lists(ids, max_size=5),
        "rests_on": st.lists(ids, max_size=3),
        "type": st.one_of(st.sampled_from(targets.types), nasty_text(front, 20)),
        "form": st.dictionaries(
            st.one_of(st.sampled_from(targets.form_fields), nasty_text(front, 10)), json_values(front), max_size=3
        ),
        "source": st.one_of(st.sampled_from(targets.cited_names), st.sampled_from(LOCAL_URLS), nasty_text(front)),
        "passage": st.one_of(st.sampled_from(targets.passages), nasty_text(front)),
        "proposals": st.lists(st.one_of(proposal, json_values(front)), min_size=1, max_size=4),
        "model": st.one_of(st.just("fuzz-model"), nasty_text(front)),
    }


def from_schema(
    schema: Mapping[str, Any], name: str, overrides: Mapping[str, st.SearchStrategy[Any]], front: Front
) -> st.SearchStrategy[Any]:
    """Values that mostly fit `schema` (the subset the registry's checker reads), realistic where `name` is known."""
    if name in overrides:
        return overrides[name]
    if "anyOf" in schema:
        return st.one_of([from_schema(option, name, overrides, front) for option in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        properties: Mapping[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {key: from_schema(value, key, overrides, front) for key, value in properties.items() if key in required},
            optional={
                key: from_schema(value, key, overrides, front)
                for key, value in properties.items()
                if key not in required
            },
        )
    if kind == "array":
        items = from_schema(schema.get("items", {}), name, overrides, front)
        low = schema.get("minItems", 0)
        return st.lists(items, min_size=low, max_size=max(low, min(schema.get("maxItems", 4), 4)))
    if kind == "string":
        alphabet = st.characters(codec=None if front.surrogates else "utf-8")
        return st.one_of(st.text(alphabet, min_size=schema.get("minLength", 0), max_size=30), nasty_text(front))
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum"), max_value=schema.get("maximum"))
    if kind == "boolean":
        return st.booleans()
    return st.nothing()


@st.composite
def arguments_for(draw: st.DrawFn, tool: str, targets: Targets, front: Front) -> Any:
    """Arguments for `tool`, as `front` can carry them: drawn from its schema, then possibly broken."""
    schema = TOOLS[tool].arguments if tool in TOOLS else TOOLS["get_state"].arguments
    overrides = _overrides(targets, front)
    if tool == "start_run":
        # start_run creates its run directory: only ever under the scratch folder (or relative to it)
        fresh = st.integers(0, 10**6).map(lambda n: str(targets.scratch / f"new-{n}"))
        overrides["run"] = st.one_of(fresh, st.sampled_from([str(targets.run), str(targets.file)]))
    arguments = draw(from_schema(schema, "", overrides, front))
    how = draw(st.sampled_from(("as drawn",) * 4 + ("drop", "extra", "retype", "deep", "whole")))
    if how == "drop" and arguments:
        del arguments[draw(st.sampled_from(sorted(arguments)))]
    elif how == "extra":
        arguments[draw(nasty_text(front, 15))] = draw(json_values(front))
    elif how == "retype" and arguments:
        arguments[draw(st.sampled_from(sorted(arguments)))] = draw(json_values(front))
    elif how == "deep":
        _replace_deep(arguments, draw(st.randoms(use_true_random=False)), draw(json_values(front)))
    elif how == "whole":
        whole = st.dictionaries(nasty_text(front, 12), json_values(front), max_size=5)
        arguments = draw(whole if front.objects_only else json_values(front))
    if tool == "start_run" and isinstance(arguments, dict) and isinstance(arguments.get("run"), str):
        run = arguments["run"]
        if (
            run.startswith("/")
            and not run.startswith(str(targets.scratch))
            and run not in (str(targets.run), str(targets.file))
        ):
            arguments["run"] = str(targets.scratch / "elsewhere")
    return arguments


def _replace_deep(value: Any, random: Any, replacement: Any) -> None:
    """Replace one value somewhere inside `value` (a dict or list), chosen at random."""
    slots: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                slots.append((node, key))
                walk(item)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                slots.append((node, index))
                walk(item)

    walk(value)
    if slots:
        container, key = random.choice(slots)
        container[key] = replacement


def argument_text(value: Any) -> str:
    """JSON text for the command line, written as a client would (NaN and huge numbers as their JSON tokens)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=True, default=str)


# -- what is checked after each call -------------------------------------------------------------


def run_files(root: Path) -> dict[str, bytes]:
    """A run's files with their bytes (without the lock file, which names its last holder)."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name != ".lock"
    }


@attrs.define
class Guard:
    """Remembers the world before a call, and checks a refused call changed none of it."""

    targets: Targets
    before: dict[str, bytes] = attrs.field(factory=dict)
    scratch: set[str] = attrs.field(factory=set)

    def snapshot(self) -> None:
        self.before = run_files(self.targets.run)
        self.scratch = {path.name for path in self.targets.scratch.iterdir()}

    def after(self, refused: bool, where: str) -> None:
        """Check the world after a call; `refused`: the call must have changed nothing (an error, or a
        tool that only reads). Then clear what an accepted call made, for the next case."""
        now = run_files(self.targets.run)
        created = {path.name for path in self.targets.scratch.iterdir()} - self.scratch
        for name in created:
            target = self.targets.scratch / name
            shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        if refused:
            assert now == self.before, f"{where}: a refused call changed the run"
            assert not created, f"{where}: a refused call left {sorted(created)} behind"
        elif now != self.before:
            shutil.rmtree(self.targets.run)
            shutil.copytree(self.targets.template, self.targets.run)
        for stray in (self.targets.missing, self.targets.plain_dir / "manifest.json"):
            assert not stray.exists(), f"{where}: a call created {stray.name}"


def check_payload(payload: Any, is_error: bool, where: str) -> None:
    """A tool result: a JSON object; an error is exactly {"error": {code, message}} with a known code,
    never internal-error (a bug), and a message of one line."""
    assert isinstance(payload, dict), where
    assert ("error" in payload) == is_error, where
    json.dumps(payload, ensure_ascii=False, allow_nan=False).encode("utf-8")  # JSON that can be sent as UTF-8
    if is_error:
        assert set(payload) == {"error"} and set(payload["error"]) == {"code", "message"}, where
        code, message = payload["error"]["code"], payload["error"]["message"]
        assert code in CODES, f"{where}: unknown code {code}"
        assert code != "internal-error", f"{where}: {message}"
        assert isinstance(message, str) and message and "\n" not in message, where
