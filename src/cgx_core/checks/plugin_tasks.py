"""Inside the plugin worker process: load a third-party check type and call one of its methods.

The parent (`cgx_core.checks.guard`) names the plugin's module, the check type and the method; this task
imports the module, asks its hook for its check types, and calls the method with the arguments given and
a `RunView` whose every question goes back to the parent (`budget_worker.ask`), so the check reads the run
as it is, without the run being copied. Whatever the plugin's code does is caught here and described in
plain values (`sys.exit`, `KeyboardInterrupt` and every exception included); running out of CPU time or
memory is left to the worker, and `os._exit` ends the process, which the parent sees.

What the method returned crosses the pipe as plain Python values (a tag and builtins), never the plugin's
own objects: the parent rebuilds and checks them (`plugin_values`), and a value that is not plain is
named, not pickled.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

import attrs

from cgx_core.base.budget_worker import OutOfCpu, ask
from cgx_core.base.digests import canonical_json
from cgx_core.checks.api import Mode, NodeView, Outcome, Prepared, Refusal
from cgx_core.checks.plugin_values import error_message, error_trace
from cgx_core.ingest.offline_sources import OfflineSource

MAX_TRACE_CHARS: Final = 8_000

_loaded: dict[tuple[str, str], Any] = {}


class RemoteRunView:
    """A RunView whose answers come from the parent's view of the run."""

    def __init__(self, mode: Mode) -> None:
        self._mode: Mode = mode

    @property
    def mode(self) -> Mode:
        return self._mode

    def node(self, node_id: str) -> NodeView | None:
        return ask(("node", node_id))  # type: ignore[no-any-return]

    def nodes(self) -> Sequence[NodeView]:
        return ask(("nodes",))  # type: ignore[no-any-return]

    def cited_entries(self, node_id: str) -> Sequence[str]:
        return ask(("cited_entries", node_id))  # type: ignore[no-any-return]

    def cited_copy(self, name: str) -> bytes | None:
        return ask(("cited_copy", name))  # type: ignore[no-any-return]

    def cited_digest(self, name: str) -> str | None:
        return ask(("cited_digest", name))  # type: ignore[no-any-return]

    def recorded_read(self) -> Any:
        return ask(("recorded_read",))

    def source_bytes(self, digest: str) -> bytes | None:
        return ask(("source_bytes", digest))  # type: ignore[no-any-return]

    def offline_source(self, url: str) -> OfflineSource | None:
        return ask(("offline_source", url))  # type: ignore[no-any-return]

    def hedge_tolerances(self) -> Mapping[str, Fraction]:
        return ask(("hedge_tolerances",))  # type: ignore[no-any-return]

    def count_units(self) -> Mapping[str, str]:
        return ask(("count_units",))  # type: ignore[no-any-return]


VIEW_QUESTIONS: Final = frozenset(name for name in vars(RemoteRunView) if not name.startswith("_") and name != "mode")
"""What a worker's RunView may ask the parent: the methods of `RemoteRunView`, and nothing else."""


def answer_view(view: Any, question: Any) -> Any:
    """In the parent: answer one question a worker's RunView asks, from the parent's view."""
    name, *arguments = question
    if name not in VIEW_QUESTIONS or not all(isinstance(item, str) for item in arguments):
        raise ValueError(f"a RunView has no question {name!r}")
    value = getattr(view, name)(*arguments)
    if name == "nodes":
        return [_node(item) for item in value]
    if name == "node" and value is not None:
        return _node(value)
    if name in ("hedge_tolerances", "count_units"):
        return dict(value)
    if name == "cited_entries":
        return list(value)
    return value


def _node(node: NodeView) -> NodeView:
    return NodeView(node.id, node.type, node.unit, node.text, _copied(node.attributes))


def _copied(value: Any) -> Any:
    """A graph's value as plain dicts and lists (a graph may hold read-only mappings, which do not pickle)."""
    if isinstance(value, Mapping):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copied(item) for item in value]
    return value


def check_type_of(module: str, name: str) -> Any:
    """The check type `name` that the plugin module `module` registers (loaded once per worker)."""
    key = (module, name)
    if key not in _loaded:
        import pluggy

        from cgx_core import hookspecs

        manager = pluggy.PluginManager(hookspecs.PROJECT)
        manager.add_hookspecs(hookspecs)
        manager.register(importlib.import_module(module))
        found: list[Any] = []
        manager.hook.cgx_register_check_types(register=found.append)
        for item in found:
            _loaded[(module, getattr(item, "name", None))] = item  # type: ignore[index]
    if key not in _loaded:
        raise LookupError(f"the module {module} registers no check type {name!r} in this process")
    return _loaded[key]


def call(payload: tuple[str, str, str, Mode, tuple[Any, ...]]) -> tuple[Any, ...]:
    """Call `method` of a plugin's check type; ("returned", plain value) or ("raised", kind, message, trace)."""
    module, name, method, mode, arguments = payload
    try:
        check_type = check_type_of(module, name)
        view = RemoteRunView(mode)
        if method == "prepare":
            value = check_type.prepare(arguments[0], view)
            if isinstance(value, Prepared) and value.memo is not None:
                _keep_memo((module, name, _memo_key(value.inputs)), value.memo)
        elif method == "slot_of":
            value = check_type.slot_of(arguments[0])
        elif method == "observation_key":
            memo = _memos.get((module, name, _memo_key(arguments[1])))
            value = check_type.observation_key(Prepared(*arguments, memo=memo))
        elif method == "run":
            memo = _memos.pop((module, name, _memo_key(arguments[1])), None)
            value = check_type.run(Prepared(arguments[0], arguments[1], memo=memo), view, model=arguments[2])
        elif method == "rerun":
            value = check_type.rerun(arguments[0], view)
        else:
            raise LookupError(f"no method {method!r}")
        return ("returned", plain(value))
    except (OutOfCpu, MemoryError):
        raise  # the worker's budget: it reports them itself
    except BaseException as error:  # the plugin's code, whatever it raised (SystemExit and KeyboardInterrupt too)
        return ("raised", type(error).__name__, error_message(error), error_trace(error)[-MAX_TRACE_CHARS:])


MAX_MEMOS: Final = 64
"""How many proposals' memos a worker keeps between their prepare and their run (a call runs its proposals
one after another, so a few are enough; the oldest goes first)."""

_memos: dict[tuple[str, str, str], Any] = {}


def _memo_key(inputs: Any) -> str:
    """The proposal a memo belongs to: its inputs as canonical JSON (the parent sends them back as given)."""
    try:
        return canonical_json(_copied(inputs)).decode()
    except (TypeError, ValueError):
        return repr(inputs)


def _keep_memo(key: tuple[str, str, str], memo: Any) -> None:
    _memos.pop(key, None)
    _memos[key] = memo
    while len(_memos) > MAX_MEMOS:
        del _memos[next(iter(_memos))]


def plain(value: Any) -> tuple[Any, ...]:
    """A returned value as a tag and plain builtins; ("other", type name) for what is not plain."""
    try:
        if value is None or isinstance(value, str):
            return ("value", _builtin(value))
        if isinstance(value, Prepared):
            return ("prepared", _builtin(value.target), _builtin(value.inputs))
        if isinstance(value, Refusal):
            return ("refusal", _builtin(str(value.code)), _builtin(value.message), _builtin(value.fix))
        if isinstance(value, Outcome):
            fields = {field.name: _builtin(getattr(value, field.name)) for field in attrs.fields(Outcome)}
            return ("outcome", fields)
    except _NotPlain as error:
        return ("other", str(error))
    return ("other", f"a {type(value).__name__}")


class _NotPlain(Exception):
    """A value a plugin returned that has no plain (JSON-like) form to send back through the pipe."""


_PLAIN: Final[tuple[type[Any], ...]] = (str, int, float, bool, bytes, type(None))


def _builtin(value: Any, depth: int = 0) -> Any:
    """A copy made of builtins only (str keys kept as given, so the parent names a bad key)."""
    if depth > 80:
        raise _NotPlain("a value nested more than 80 levels deep")
    if type(value) in _PLAIN:
        return value
    for plain_type in _PLAIN[:-1]:
        if isinstance(value, plain_type):  # a subclass (a StrEnum code): its plain value
            return plain_type(value)
    if isinstance(value, Mapping):
        copied = {}
        for key, item in value.items():
            if type(key) not in _PLAIN:
                raise _NotPlain(f"a mapping with a key of type {type(key).__name__}")
            copied[key] = _builtin(item, depth + 1)
        return copied
    if isinstance(value, (list, tuple)):
        return [_builtin(item, depth + 1) for item in value]
    raise _NotPlain(f"a {type(value).__name__}")


TASKS: Final = {"call": call}
