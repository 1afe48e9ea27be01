"""The public API for check-type plugins: what a check type provides, and what it gets back.

A check type is an object with the attributes and methods of `CheckType` (a subclass of `CheckTypeBase`
has the optional ones at their defaults). A plugin registers it through
the `cgx_register_check_types` hook (see `cgx_core.hookspecs` and docs/plugins.md). The built-in types in
`cgx_checks` use exactly this API, through the same entry-point group, so a third party's type is a
first-class citizen by construction.

The engine (`cgx_core.checks.engine`) does everything that is the same for every type: it checks that the
rubric declares the type and lists the target's type, refuses a second check of a type on a node and the
same observation on another target, numbers the check `c-NNN`, writes `checks/c-NNN/`, builds the evidence
node and its `observes` relation with the rubric's credences, and runs a fallback type when a check errs.
A type only says what is particular to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, Protocol, runtime_checkable

import attrs

from cgx_core.base.digests import canonical_json
from cgx_core.codes import Code
from cgx_core.ingest.offline_sources import OfflineSource

Result = Literal["passed", "failed", "error"]
ProposingTool = Literal["run_checks", "judge_citation", "review"]
Mode = Literal["live", "recover", "replay", "verify"]


@attrs.frozen
class Refusal:
    """A proposal that cannot be run: a stable code, what is wrong, and what to change."""

    code: Code | str
    message: str
    fix: str


@attrs.frozen
class NodeView:
    """What a check may read of one node of the run. `type` is the node's kind."""

    id: str
    type: str
    unit: str | None
    text: str | None
    attributes: Mapping[str, Any]


class RunView(Protocol):
    """What a check may read of the run.

    `mode` says why the check runs: `live` (an agent's call: a check may read the network), `recover`
    (never seen by a check: the engine reuses the recorded output), `replay` (rebuilding the run: no
    network; what a live check read comes back through `recorded_read` and `source_bytes`), `verify`
    (re-running from recorded inputs)."""

    @property
    def mode(self) -> Mode: ...

    def node(self, node_id: str) -> NodeView | None: ...

    def nodes(self) -> Sequence[NodeView]: ...

    def cited_entries(self, node_id: str) -> Sequence[str]:
        """The reference nodes a node cites (through its own `cites` relations or its compound parent's)."""
        ...

    def cited_copy(self, name: str) -> bytes | None:
        """The bytes of `cited/<name>`, or None."""
        ...

    def cited_digest(self, name: str) -> str | None:
        """The digest start_run recorded for `cited/<name>`, or None."""
        ...

    def recorded_read(self) -> Any:
        """In replay: what the live check read (its `Outcome.read`), from the log; otherwise None."""
        ...

    def source_bytes(self, digest: str) -> bytes | None:
        """In replay and verify: the stored bytes with this digest (the run's `sources/` or `--sources DIR`)."""
        ...

    def offline_source(self, url: str) -> OfflineSource | None:
        """The offline source start_run was given for this URL (its bytes and content type), or None: a check
        reads it instead of fetching the URL, and records that it did."""
        ...

    def hedge_tolerances(self) -> Mapping[str, Fraction]:
        """The relative tolerance the rubric's author declares for each hedge phrase ("approximately" ->
        1/10), keyed by the normalised phrase: the run's `tolerances.toml`, checked against the digest its
        manifest recorded (see `cgx_core.numbers.tolerances`). Raises CgxError `tampered` when it differs."""
        ...

    def count_units(self) -> Mapping[str, str]:
        """The counting units the rubric's author declares (its tolerances file's `[counts]`, docs/rubrics.md):
        each spelling as the paper writes it ("C", "cells") -> the name of its count ("C", "cell"). Read
        numerals with them inside `plugin_api.counting(run.count_units())`, so "120 C" is 120 of the count C,
        not a number followed by a letter. From the same digest-checked file as `hedge_tolerances` (since
        API 1.2)."""
        ...


@attrs.frozen
class Prepared:
    """A proposal validated against the run: the target, and the inputs the check will run from.

    `inputs` is JSON, recorded in the check record and in `checks/c-NNN/inputs.json`; `rerun` gets it
    back, so it must hold everything the check needs.

    `memo` is never recorded, compared or sent anywhere: it is what `prepare` worked out (a parsed
    expression, a decided value) for `observation_key` and `run` to reuse, so a check type decides a
    proposal once. Within one call the engine hands this very `Prepared` to both (a third party's memo stays
    in its worker, kept for the proposal's inputs); `rerun` (verify) and any `Prepared` rebuilt from a
    record have `memo=None`, so a type must still be able to work from `inputs` alone, and a memo must hold
    only what those inputs and the run's document decide (never what a later check of the call changes)."""

    target: str
    inputs: Mapping[str, Any]
    memo: Any = attrs.field(default=None, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Outcome:
    """How a check ended.

    `detail` is one line a person reads; `output` is JSON for `checks/c-NNN/output.json`; `log` is free
    text for `checks/c-NNN/log.txt`; `libraries` names the libraries the check used, with versions;
    `code` is a stable code when the result is `error`. A check that read something from outside gives
    `read` (JSON for the log line, never the bytes) and `sources` (the bytes by digest, stored only with
    store_source); `metadata` holds bytes of public metadata records it read (a registry's record of a
    work: facts, not the work), stored in the run's `sources/` whatever store_source, so that replay and
    verify can decide the check again offline. `notices` are what a reviewer must see besides the result
    (a retraction a registry records): JSON objects with at least `type`, kept in the check record and listed
    in report.json."""

    result: Result
    detail: str
    output: Mapping[str, Any] = attrs.field(factory=dict)
    log: str = ""
    libraries: Mapping[str, str] = attrs.field(factory=dict)
    code: str | None = None
    read: Any = None
    sources: Mapping[str, bytes] = attrs.field(factory=dict)
    metadata: Mapping[str, bytes] = attrs.field(factory=dict)
    notices: Sequence[Mapping[str, Any]] = ()


def default_observation_key(inputs: Mapping[str, Any]) -> str:
    """The observation key of a type that defines none: the recorded inputs themselves, as canonical JSON,
    so only two proposals with the very same inputs are one observation."""
    return canonical_json(dict(inputs)).decode()


@runtime_checkable
class CheckType(Protocol):
    """A check type: exactly what registration requires. `name` is the rubric's `[checks]` key.

    `tool` is the tool that proposes it (`run_checks`, `judge_citation`, or `review` for a person's
    verdict); `description` is what the agent reads to propose it; `proposal_schema` is the JSON schema of
    a proposal's own fields (besides `type` and `target`).

    Everything else is optional and read with a default, so a member this package adds later never
    rejects an existing plugin: subclass `CheckTypeBase` to get the defaults written out (and type-checked),
    or leave them out. The optional members: `fallback_for` (the type this one stands in for when that one
    errs: it is then never proposed directly; default None), `uses_model` (the result rests on the calling
    model's judgement, whose model is recorded; default False), `retry_after_error` (a check that erred may be
    followed by another on the same target and slot; default False), `codes` (the type's own codes with their
    meanings, `plugin_api.define_codes`: the only codes besides the engine's its refusals and error outcomes
    may use; default none), `another_source_codes` (those of its codes whose error says the source the
    agent gave is not the cited work's: finish_run lists such checks as `untied_citation_checks`; default
    none), `accepts_premises` (since API 1.3: a proposal may carry `premises`, statements the agent reads into
    the paper that the computation needs and the text does not write as such; the engine validates them and
    passes them to `prepare` as `proposal["premises"]`, a list of normalised strings, and `prepare` must record
    the same list as `inputs["premises"]`, so a re-run decides by the same rules; default False: the engine
    refuses premises), and the methods `slot_of`, `observation_key` and `rerun` (see `CheckTypeBase`)."""

    name: str
    tool: ProposingTool
    description: str
    proposal_schema: Mapping[str, Any]

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        """Validate a proposal against the run; refuse it with a fix when it cannot be run."""
        ...

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        """Run the check, in bounded time."""
        ...


class CheckTypeBase:
    """A base class for a check type with every optional member of `CheckType` at its default.

    A subclass sets `name`, `tool`, `description` and `proposal_schema` and defines `prepare` and `run`;
    it overrides what else it needs. `rerun` is deliberately not defined here: a type that defines it is
    re-run by `verify` from its recorded inputs, and one that does not is reported as not re-runnable (a
    check that rests on a model's or a person's judgement)."""

    fallback_for: str | None = None
    uses_model: bool = False
    retry_after_error: bool = False
    accepts_premises: bool = False
    codes: Mapping[str, str] = MappingProxyType({})
    another_source_codes: frozenset[str] = frozenset()

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        """What tells independent checks of this type on one target apart (a citation check's entry);
        "" (the default) for a type that takes one check per target."""
        return ""

    def observation_key(self, prepared: Prepared) -> str:
        """A canonical key: two proposals that would pass or fail together have one key. The default is
        the inputs themselves; a type whose inputs can say one thing in several ways should normalise."""
        return default_observation_key(prepared.inputs)
