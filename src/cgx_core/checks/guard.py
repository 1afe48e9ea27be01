"""The one guard every call into a check type's code goes through.

A check type is a plugin's code, and a plugin may be wrong in every way: raise, exit, loop, sleep, return
a result of "maybe", a NaN, a set, or a check on another node than the one proposed. The engine, verify and
the registry never call a plugin directly; they call a `GuardedCheckType`, which

* holds a checked copy of the type's attributes, read once when it registered (so a property that raises
  later cannot break a tool) with the optional ones defaulted (`slot_of`: one check per target,
  `observation_key`: the inputs themselves, `rerun`: not re-runnable);
* calls a built-in type's methods in this process, and a third-party type's in the plugin worker
  (`cgx_core.base.budget_worker`, tasks `cgx_core.checks.plugin_tasks`) within a CPU-time and memory budget,
  dying with its parent, where `sys.exit`, `os._exit`, `KeyboardInterrupt`, a loop or a sleep ends the
  call and never the server;
* checks every value returned (`plugin_values`) before anything is written;
* and raises one exception, `PluginFailed`, naming the plugin, its version and the method, with what the
  plugin raised (its message, and a traceback without local paths, for the check's log) so the engine
  makes it an `error` check or a refusal of that proposal alone.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, get_args

import attrs

from cgx_core.base.digests import canonical_json
from cgx_core.checks.api import Outcome, Prepared, ProposingTool, Refusal, RunView, default_observation_key
from cgx_core.checks.plugin_values import (
    MAX_KEY_CHARS,
    code_problems,
    codes_problems,
    error_message,
    error_trace,
    json_problems,
    line_problems,
    outcome_problems,
    prepared_problems,
    scrubbed,
    shown,
    within_length,
)
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.run import call_control

if TYPE_CHECKING:
    from cgx_core.base.budget_worker import Budget, BudgetedWorker

OWN_DISTRIBUTION: Final = "credencegraph-extract"
"""Check types of this distribution (the built-ins) run in the tool's process; every other runs isolated."""

TOOLS: Final = get_args(ProposingTool)
PLUGIN_CODES: Final = frozenset({str(Code.PLUGIN_FAILED), str(Code.PLUGIN_OVER_BUDGET), str(Code.INTERNAL_ERROR)})
"""The engine's codes any check type may end with besides its own (docs/plugins.md)."""
CORE_CODES: Final = frozenset(str(code) for code in Code)
"""A built-in check type reads the run's own files through the engine's helpers, so it may also pass on
any of the core's codes (a tampered source, a corrupt log); a third party may not."""
MAX_DESCRIPTION_CHARS: Final = 8_000
MAX_SCHEMA_BYTES: Final = 64 * 1024
SCHEMA_KEYS: Final = frozenset({"properties", "required", "additionalProperties", "$defs", "description", "title"})
JSON_TYPES: Final = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})


@attrs.frozen
class Provider:
    """Who provides a check type: the entry point, the module it names, the distribution and its version."""

    entry: str
    module: str | None
    distribution: str
    version: str

    @property
    def label(self) -> str:
        return f"the plugin '{self.entry}' of {self.distribution} {self.version}"


def plugin_budget() -> Budget:
    """The budget of a third-party check type's call (read at call time, so a test can lower the constants)."""
    from cgx_core.base import limits
    from cgx_core.base.budget_worker import Budget

    return Budget(limits.PLUGIN_CPU_SECONDS, limits.PLUGIN_MEMORY_BYTES)


class PluginFailed(Exception):
    """A call into a check type failed: it raised, exited, ran out of budget, or returned a bad value.

    `message` names the plugin, its version and the method; `log` is what the plugin's author needs to
    debug it (the exception and its traceback); `stalled` says the call was stopped on the wall clock,
    which must decide no check's result, so the proposal is refused rather than recorded."""

    def __init__(self, code: Code | str, message: str, log: str = "", *, stalled: bool = False) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.log = log or message
        self.stalled = stalled


class PluginWorker:
    """The plugin worker process of one registry, started on first use (and again after a fault)."""

    def __init__(self) -> None:
        self._worker: BudgetedWorker | None = None
        self._lock = threading.Lock()

    def get(self) -> BudgetedWorker:
        with self._lock:
            if self._worker is None:
                from cgx_core.base.budget_worker import BudgetedWorker
                from cgx_core.base.limits import plugin_stall_seconds

                self._worker = BudgetedWorker(
                    "cgx_core.checks.plugin_tasks",
                    name="plugin worker",
                    memory_bytes=plugin_budget().memory_bytes,
                    stall=plugin_stall_seconds,
                )
            return self._worker

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()


class GuardedCheckType:
    """A registered check type, as the engine, verify and the listings use it (see the module's docstring)."""

    def __init__(
        self,
        plugin: Any,
        provider: Provider,
        attributes: Mapping[str, Any],
        methods: frozenset[str],
        worker: PluginWorker | None,
    ) -> None:
        self.plugin = plugin
        self.provider = provider
        self.name: str = attributes["name"]
        self.tool: ProposingTool = attributes["tool"]
        self.description: str = attributes["description"]
        self.proposal_schema: Mapping[str, Any] = attributes["proposal_schema"]
        self.fallback_for: str | None = attributes["fallback_for"]
        self.uses_model: bool = attributes["uses_model"]
        self.retry_after_error: bool = attributes["retry_after_error"]
        self.accepts_premises: bool = attributes["accepts_premises"]
        self.codes: Mapping[str, str] = attributes["codes"]
        self.another_source_codes: frozenset[str] = attributes["another_source_codes"]
        self._methods = methods
        self._worker = worker

    @property
    def isolated(self) -> bool:
        """True when its code runs in the plugin worker (a third party's type)."""
        return self._worker is not None

    @property
    def budget(self) -> Budget | None:
        return plugin_budget() if self._worker is not None else None

    # -- the protocol, guarded ---------------------------------------------------------------------------

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        value = within_length(self._call("prepare", (dict(proposal),), run))
        self._checked("prepare", prepared_problems(value, str(proposal.get("target"))))
        if isinstance(value, Refusal):
            self._checked("prepare", self._code_problems(str(value.code)))
        return value  # type: ignore[no-any-return]

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        if "slot_of" not in self._methods:
            return ""
        value = self._call("slot_of", (dict(inputs),), None)
        self._checked("slot_of", line_problems(value, "the slot", empty=True))
        return value  # type: ignore[no-any-return]

    def observation_key(self, prepared: Prepared) -> str:
        if "observation_key" not in self._methods:
            return default_observation_key(prepared.inputs)
        value = self._call("observation_key", (prepared.target, dict(prepared.inputs)), None, prepared)
        found = (
            [] if isinstance(value, str) else [f"observation_key must return a string, got a {type(value).__name__}"]
        )
        if isinstance(value, str) and len(value) > MAX_KEY_CHARS:
            found.append(f"the observation key is more than {MAX_KEY_CHARS} characters")
        self._checked("observation_key", found)
        return value  # type: ignore[no-any-return]

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        value = within_length(self._call("run", (prepared.target, dict(prepared.inputs), model), run, prepared))
        self._checked("run", outcome_problems(value))
        self._checked("run", self._code_problems(value.code))
        return value  # type: ignore[no-any-return]

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        if "rerun" not in self._methods:
            return None
        value = within_length(self._call("rerun", (dict(inputs),), run))
        self._checked("rerun", outcome_problems(value, rerun=True))
        self._checked("rerun", self._code_problems(value.code if value is not None else None))
        return value  # type: ignore[no-any-return]

    def warm_up(self) -> None:
        """Let a built-in type begin slow set-up its checks will need, without waiting for it (rederive-maths
        starts its worker process, so that sympy's import overlaps the opening of the run).

        Called when a call's proposals name the type, before the run is opened; it changes no result and
        fails no call: whatever it raises is dropped, and the check's own work meets it again and reports
        it. A third party's type (isolated) is never warmed up: its code runs only inside a call's budget."""
        if self._worker is not None or "warm_up" not in self._methods:
            return
        try:
            self.plugin.warm_up()
        except Exception:  # an optimisation only: the check's own call reports the failure
            return

    def _code_problems(self, code: str | None) -> list[str]:
        """A check type's code must be one it defines (`codes`) or one of the engine's own: a plugin owns
        its codes, and a code nobody documents tells the agent nothing. A built-in is held to its own
        codes as a third party is (it may besides pass on a core code: `CORE_CODES`)."""
        engine = PLUGIN_CODES if self._worker is not None else CORE_CODES
        if code is None or code in self.codes or code in engine:
            return []
        return [f"the code {code!r} is not one it defines (its codes are {sorted(self.codes)})"]

    # -- the one place a plugin's code is called ------------------------------------------------------------

    def _call(
        self, method: str, arguments: tuple[Any, ...], view: RunView | None, prepared: Prepared | None = None
    ) -> Any:
        """Call `method` with `arguments` (plain values); `prepared` is the very `Prepared` an in-process type
        gets back in observation_key and run, with its memo (a worker keeps a third party's memo itself)."""
        if self._worker is None:
            return self._in_process(method, arguments, view, prepared)
        return self._isolated(self._worker.get(), method, arguments, view)

    def _in_process(
        self, method: str, arguments: tuple[Any, ...], view: RunView | None, prepared: Prepared | None
    ) -> Any:
        function = getattr(self.plugin, method)
        try:
            if method == "prepare":
                return function(arguments[0], view)
            if method == "observation_key":
                return function(prepared or Prepared(*arguments))
            if method == "run":
                return function(prepared or Prepared(arguments[0], arguments[1]), view, model=arguments[2])
            if method == "rerun":
                return function(arguments[0], view)
            return function(*arguments)
        except CgxError:
            raise  # a built-in refusing the whole call (replay reading other bytes than the log says)
        except Exception as error:
            raise self._raised(method, type(error).__name__, error_message(error), error_trace(error)) from None

    def _isolated(self, worker: BudgetedWorker, method: str, arguments: tuple[Any, ...], view: RunView | None) -> Any:
        from cgx_core.base.budget_worker import Died, OutOfBudget
        from cgx_core.base.limits import PLUGIN_STALL_ENV, plugin_stall_seconds
        from cgx_core.checks.plugin_tasks import answer_view

        budget = plugin_budget()
        stall = plugin_stall_seconds(budget.cpu_seconds)
        mode = view.mode if view is not None else "live"
        payload = (self.provider.module, self.name, method, mode, arguments)
        with call_control.stopping(worker.kill):
            try:
                reply = worker.run("call", payload, budget.cpu_seconds, lambda question: answer_view(view, question))
            except CgxError as error:
                if error.code != Code.CHECK_STALLED:
                    raise  # the run's own refusal (a tampered file its view read), or our bug
                raise PluginFailed(
                    Code.CHECK_STALLED,
                    f"{self.provider.label} stopped using CPU in {method} (it sleeps or waits): stopped after "
                    f"{stall:g} s ({PLUGIN_STALL_ENV} sets it); nothing was recorded",
                    stalled=True,
                ) from None
        call_control.checkpoint()  # a cancelled call killed the worker: that is the cancel, not the plugin
        if isinstance(reply, OutOfBudget):
            what = f"{budget.cpu_seconds} s of CPU time" if reply.reason == "time" else "its memory"
            raise PluginFailed(Code.PLUGIN_OVER_BUDGET, f"{self.provider.label} used up {what} in {method}")
        if isinstance(reply, Died):
            raise PluginFailed(
                Code.PLUGIN_FAILED,
                f"{self.provider.label} ended its process in {method} (exit status {reply.exitcode})",
            )
        outer, *rest = reply.payload
        if outer == "raised":
            kind, message, trace = rest
            raise self._raised(method, kind, scrubbed(message), trace)
        return self._rebuilt(method, rest[0])

    def _rebuilt(self, method: str, plain: tuple[Any, ...]) -> Any:
        """The value the worker described in plain builtins, as the protocol's record."""
        tag, *parts = plain
        if tag == "value":
            return parts[0]
        if tag == "prepared":
            return Prepared(parts[0], parts[1])
        if tag == "refusal":
            return Refusal(*parts)
        if tag == "outcome":
            fields = dict(parts[0])
            fields["notices"] = tuple(fields.get("notices") or ())
            return Outcome(**fields)
        raise PluginFailed(
            Code.PLUGIN_FAILED,
            f"{self.provider.label} returned {parts[0] if parts else 'something'} from {method}, which is not a "
            "value a check type may return (see docs/plugins.md)",
        )

    def _raised(self, method: str, kind: str, message: str, trace: str) -> PluginFailed:
        said = f"{kind}: {message}" if message else kind
        return PluginFailed(
            Code.PLUGIN_FAILED,
            f"{self.provider.label} failed in {method}: {said}"[:1_000],
            f"{self.provider.label} failed in {method}\n\n{trace}",
        )

    def _checked(self, method: str, problems: list[str]) -> None:
        if problems:
            raise PluginFailed(
                Code.PLUGIN_FAILED,
                f"{self.provider.label} returned an invalid value from {method}: {'; '.join(problems)}"[:1_000],
                f"{self.provider.label} returned an invalid value from {method}:\n" + "\n".join(problems),
            )


# -- registration: reading a check type's attributes once, checked ----------------------------------------


def guarded(plugin: Any, provider: Provider, worker: PluginWorker | None) -> GuardedCheckType | list[str]:
    """The check type `plugin` registered, checked and guarded; or every problem with it, named at once.

    The required members are checked, the optional ones defaulted; nothing else is required, so a member
    this package adds later (with a default) never rejects a plugin written before it."""
    found: list[str] = []
    attributes: dict[str, Any] = {}

    def read(name: str, default: Any = ...) -> Any:
        try:
            return getattr(plugin, name) if default is ... else getattr(plugin, name, default)
        except AttributeError:
            found.append(f"it has no '{name}'")
        except BaseException as error:  # a property that raises, or exits
            found.append(f"reading its '{name}' raised {type(error).__name__}: {error_message(error)}")
        return None

    name = read("name")
    if name is not None or not any("'name'" in item for item in found):
        found.extend(_name_problems(name, "its name"))
    attributes["name"] = name
    tool = read("tool")
    if tool not in TOOLS:
        found.append(f"its tool must be one of {list(TOOLS)}, got {shown(tool)}")
    attributes["tool"] = tool
    description = read("description")
    found.extend(line_problems(description, "its description", limit=MAX_DESCRIPTION_CHARS) if description else [])
    if not description:
        found.append("its description is missing or empty: it is what the agent reads to propose the check")
    attributes["description"] = description
    schema = read("proposal_schema")
    found.extend(schema_problems(schema))
    attributes["proposal_schema"] = _frozen_copy(schema) if not schema_problems(schema) else {}
    fallback = read("fallback_for", None)
    if fallback is not None:
        found.extend(_name_problems(fallback, "its fallback_for"))
    attributes["fallback_for"] = fallback
    for flag in ("uses_model", "retry_after_error", "accepts_premises"):
        value = read(flag, False)
        if not isinstance(value, bool):
            found.append(f"its {flag} must be true or false, got {shown(value)}")
        attributes[flag] = value
    codes = read("codes", {})
    found.extend(codes_problems(codes))
    attributes["codes"] = dict(codes) if isinstance(codes, Mapping) else {}
    another = read("another_source_codes", frozenset())
    another_problems = _another_source_problems(another, attributes["codes"])
    found.extend(another_problems)
    attributes["another_source_codes"] = frozenset() if another_problems else frozenset(another)
    methods = set()
    for method in ("prepare", "run", "slot_of", "observation_key", "rerun", "warm_up"):
        member = read(method, None)
        if callable(member):
            methods.add(method)
        elif method in ("prepare", "run"):
            found.append(f"it has no method {method}()")
        elif member is not None:
            found.append(f"its {method} is not a method")
    if found:
        return found
    return GuardedCheckType(plugin, provider, attributes, frozenset(methods), worker)


def _another_source_problems(another: Any, codes: Mapping[str, str]) -> list[str]:
    """`another_source_codes` must be a set of the check type's own codes."""
    if not isinstance(another, (set, frozenset, list, tuple)) or not all(isinstance(code, str) for code in another):
        return [f"its another_source_codes must be a set of its codes, got {shown(another)}"]
    return [
        f"its another_source_codes names {code!r}, which is not one of its codes"
        for code in sorted(another)
        if code not in codes
    ]


def _name_problems(name: Any, where: str) -> list[str]:
    if not isinstance(name, str) or not name:
        return [f"{where} must be a non-empty string, got {shown(name)}"]
    return code_problems(name, where)


def schema_problems(schema: Any) -> list[str]:
    """What is wrong with a proposal schema: the object schema of a proposal's own fields."""
    if not isinstance(schema, Mapping):
        return [f"its proposal_schema must be a JSON object, got {shown(schema)}"]
    found = json_problems(schema, "its proposal_schema")
    if found:
        return found
    if len(canonical_json(dict(schema))) > MAX_SCHEMA_BYTES:
        return [f"its proposal_schema is more than {MAX_SCHEMA_BYTES} bytes"]
    unknown = sorted(set(schema) - SCHEMA_KEYS)
    if unknown:
        found.append(f"its proposal_schema has {unknown}; a proposal schema has only {sorted(SCHEMA_KEYS)}")
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        return [*found, "its proposal_schema's properties must be an object"]
    for field in ("type", "target"):
        if field in properties:
            found.append(f"its proposal_schema declares '{field}', which every proposal has already")
    for field, item in properties.items():
        found.extend(_subschema_problems(item, f"properties.{field}", schema.get("$defs", {})))
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(item, str) for item in required):
        found.append("its proposal_schema's required must be a list of field names")
    else:
        found.extend(
            f"its proposal_schema requires '{item}', which it does not declare"
            for item in required
            if item not in properties
        )
    extra = schema.get("additionalProperties", True)
    if not isinstance(extra, bool):
        found.extend(_subschema_problems(extra, "additionalProperties", schema.get("$defs", {})))
    return found


def _subschema_problems(schema: Any, where: str, definitions: Any, depth: int = 0) -> list[str]:
    if depth > 20:
        return [f"its proposal_schema's {where} is nested too deeply"]
    if not isinstance(schema, Mapping):
        return [f"its proposal_schema's {where} must be a schema (an object), got {shown(schema)}"]
    found = []
    kind = schema.get("type")
    if kind is not None and kind not in JSON_TYPES:
        found.append(f"its proposal_schema's {where}.type must be one JSON type name, got {shown(kind)}")
    reference = schema.get("$ref")
    if reference is not None:
        target = reference[len("#/$defs/") :] if isinstance(reference, str) else None
        if (
            not isinstance(reference, str)
            or not reference.startswith("#/$defs/")
            or not (isinstance(definitions, Mapping) and target in definitions)
        ):
            found.append(f"its proposal_schema's {where}.$ref must name one of its own $defs, got {shown(reference)}")
    for bound in ("minLength", "maxLength", "minItems", "maxItems"):
        if bound in schema and (not isinstance(schema[bound], int) or isinstance(schema[bound], bool)):
            found.append(f"its proposal_schema's {where}.{bound} must be an integer")
    for bound in ("minimum", "maximum"):
        if bound in schema and (not isinstance(schema[bound], (int, float)) or isinstance(schema[bound], bool)):
            found.append(f"its proposal_schema's {where}.{bound} must be a number")
    if "enum" in schema and (not isinstance(schema["enum"], list) or not schema["enum"]):
        found.append(f"its proposal_schema's {where}.enum must be a non-empty list")
    if "items" in schema:
        found.extend(_subschema_problems(schema["items"], f"{where}.items", definitions, depth + 1))
    for field, item in (
        (schema.get("properties") or {}).items() if isinstance(schema.get("properties"), Mapping) else ()
    ):
        found.extend(_subschema_problems(item, f"{where}.properties.{field}", definitions, depth + 1))
    for combination in ("anyOf", "oneOf", "allOf"):
        if combination in schema:
            options = schema[combination]
            if not isinstance(options, list) or not options:
                found.append(f"its proposal_schema's {where}.{combination} must be a non-empty list of schemas")
            else:
                for index, item in enumerate(options):
                    found.extend(_subschema_problems(item, f"{where}.{combination}[{index}]", definitions, depth + 1))
    return found


def _frozen_copy(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    import json

    copied: Mapping[str, Any] = json.loads(json.dumps(schema))  # in the order written: it is published
    return copied
