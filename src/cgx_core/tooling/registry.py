"""The one registry of tools. The MCP server and the command line both read it, so a tool's name,
description, argument schema and handler are written once.

Handlers are named by module and imported only when their tool is called, so the `tool` command pays
for what it uses (MCP and sympy are never imported by a `get_state`).
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgx_core.base.json_schema import check_arguments
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.run.call_control import Cancelled, Control, controlled
from cgx_core.tooling import descriptions
from cgx_core.tooling.output import result_text
from cgx_core.tooling.proposal_schemas import with_judgement_fields, with_proposals
from cgx_core.tooling.schema import CALLER_FIELDS, free_string_problems

if TYPE_CHECKING:
    from cgx_core.run.state import Effect, RunState
    from cgx_core.run.transaction import CallContext, Handler

# The registry is imported by every command, so it imports nothing heavy: the run machinery (and through it
# credencegraph) is imported when a tool that needs it is called.
DEFAULT_LOCK_WAIT = 10.0


@dataclass(frozen=True)
class Tool:
    """A tool: what the agent reads (name, description, argument schema) and where its code is.

    `module` (`cgx_core.tools.<name>`) holds `apply(context, state, args) -> Effect` for a tool that changes
    the run, and may hold `execute(args, *, wait)` for one that does more than the generic transaction.
    `arguments` is the schema of the tool's own arguments; `expand`, for a tool that proposes checks, adds
    what the installed check types declare (see `input_schema`). `result` is the schema of its result, named
    in `cgx_core.tooling.result_schemas` by `result_schema` and imported when read: a call never reads it (only
    a listing does), and it is a sixteenth of the registry's import.
    """

    name: str
    title: str
    description: str
    arguments: Mapping[str, Any]
    changes_run: bool
    read_only_hint: bool = False
    lists_check_types: bool = False
    open_world_hint: bool = False
    expand: Callable[[Mapping[str, Any], str], Mapping[str, Any]] | None = None
    result_schema: str = ""

    @property
    def module(self) -> str:
        return f"cgx_core.tools.{self.name}"

    @property
    def result(self) -> Mapping[str, Any]:
        """The JSON schema of the tool's result (its MCP `outputSchema`); empty when it declares none."""
        if not self.result_schema:
            return {}
        from cgx_core.tooling import result_schemas

        schema: Mapping[str, Any] = getattr(result_schemas, self.result_schema)
        return schema

    def input_schema(self) -> Mapping[str, Any]:
        """The schema of the tool's arguments, with the proposal schemas of the installed check types.

        Raises `plugin-invalid` when an installed plugin is broken (see `listed_input_schema`)."""
        return self.arguments if self.expand is None else self.expand(self.arguments, self.name)

    def listed_input_schema(self) -> Mapping[str, Any]:
        """`input_schema` for a listing: a broken plugin must not hide every tool, so its tool is listed with
        its own arguments (its description says why)."""
        try:
            return self.input_schema()
        except CgxError:
            return self.arguments

    def full_description(self) -> str:
        """The description, with the installed check types for a tool that proposes checks."""
        if not self.lists_check_types:
            return self.description
        try:
            return self.description + descriptions.check_types_section(self.name)
        except CgxError as error:  # a broken plugin: say so where the agent reads, rather than fail the listing
            return f"{self.description}\nThe installed check types cannot be listed: {error.message}"


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool(
            "start_run",
            "Start a run",
            descriptions.START_RUN,
            descriptions.START_RUN_ARGUMENTS,
            changes_run=True,
            result_schema="START_RUN",
        ),
        Tool(
            "get_state",
            "Read the run",
            descriptions.GET_STATE,
            descriptions.GET_STATE_ARGUMENTS,
            changes_run=False,
            read_only_hint=True,
            result_schema="GET_STATE",
        ),
        Tool(
            "classify",
            "Classify chunks",
            descriptions.CLASSIFY,
            descriptions.CLASSIFY_ARGUMENTS,
            changes_run=True,
            result_schema="CLASSIFY",
        ),
        Tool(
            "add_premises",
            "Add premises",
            descriptions.ADD_PREMISES,
            descriptions.ADD_PREMISES_ARGUMENTS,
            changes_run=True,
            result_schema="ADD_PREMISES",
        ),
        Tool(
            "run_checks",
            "Run checks",
            descriptions.RUN_CHECKS,
            descriptions.RUN_CHECKS_ARGUMENTS,
            changes_run=True,
            lists_check_types=True,
            # reference-resolves queries doi.org, Crossref, DataCite and arXiv; a plugin's type may read anything.
            open_world_hint=True,
            expand=with_proposals,
            result_schema="CHECKS",
        ),
        Tool(
            "judge_citation",
            "Judge a citation",
            descriptions.JUDGE_CITATION,
            descriptions.JUDGE_CITATION_ARGUMENTS,
            changes_run=True,
            lists_check_types=True,
            # It reads sources on the open web (the arXiv paper or DOI page an entry names).
            open_world_hint=True,
            expand=lambda arguments, tool: with_judgement_fields(arguments, tool, descriptions.JUDGE_CITATION_NOTES),
            result_schema="CHECKS",
        ),
        Tool(
            "finish_run",
            "Finish the run",
            descriptions.FINISH_RUN,
            descriptions.FINISH_RUN_ARGUMENTS,
            changes_run=True,
            result_schema="FINISH_RUN",
        ),
        Tool(
            "review",
            "Record a person's review",
            descriptions.REVIEW,
            descriptions.REVIEW_ARGUMENTS,
            changes_run=True,
            lists_check_types=True,  # the review type is a plugin: listed with its tool, like every type
            result_schema="CHECKS",
        ),
    )
}


def handler_for(name: str) -> Handler:
    """The `apply` function of a changing tool, for making, completing or replaying its calls: every tool but
    start_run and finish_run leaves a finished run finished when it changes nothing of its graph
    (`cgx_core.run.finished.kept_finished`)."""
    tool = TOOLS.get(name)
    if tool is None or not tool.changes_run:
        raise CgxError(Code.RUN_CORRUPT, f"the log names a tool '{name}' this package does not have")
    apply: Handler = importlib.import_module(tool.module).apply
    if name in ("start_run", "finish_run"):
        return apply
    from cgx_core.run.finished import kept_finished

    def applied(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
        return kept_finished(context, state, apply(context, state, args), name)

    return applied


def logged_arguments(args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments a log line records: everything but the run directory and who called."""
    return {name: value for name, value in args.items() if name != "run" and name not in CALLER_FIELDS}


def _execute(tool: Tool, args: Mapping[str, Any], wait: float, by_person: bool) -> Mapping[str, Any]:
    module = importlib.import_module(tool.module)
    custom: Callable[..., Mapping[str, Any]] | None = getattr(module, "execute", None)
    if by_person:  # only a review is ever a person's call (the review command's, at a terminal)
        if tool.name != "review":
            raise CgxError(Code.INVALID_ARGUMENTS, f"{tool.name} is an agent's call; only a review is a person's")
        person: Mapping[str, Any] = module.execute(args, wait=wait, by_person=True)
        return person
    if custom is not None:
        return custom(args, wait=wait)
    from cgx_core.run.transaction import Call, Run

    run = Run(Path(args["run"]), handler_for)
    logged = logged_arguments(args)
    call = Call(tool.name, logged, args["model"], args.get("agent"), args.get("note"))
    apply = handler_for(tool.name)
    return run.change(call, lambda context, state: apply(context, state, logged), wait=wait).to_json()


def call_tool(
    name: str,
    arguments: Any,
    *,
    wait: float = DEFAULT_LOCK_WAIT,
    control: Control | None = None,
    by_person: bool = False,
) -> tuple[dict[str, Any], bool]:
    """Call a tool: its JSON result and whether it is an error. Never raises (but for KeyboardInterrupt),
    never prints. With a `control`, the call reports its progress to it and stops, committing nothing,
    when it is cancelled (see `cgx_core.run.call_control`). `by_person` records a review as entered by the
    person: only the `review` command passes it, when a person runs it at a terminal (MCP, `tool` and
    `batch` never do, so an agent's review is always recorded as the agent's)."""
    try:
        tool = TOOLS.get(name)
        if tool is None:
            raise CgxError(Code.UNKNOWN_TOOL, f"no tool '{name}'; the tools are {sorted(TOOLS)}")
        args = check_arguments(name, arguments, tool.input_schema())
        if hidden := free_string_problems(args):
            raise CgxError(Code.INVALID_ARGUMENTS, f"{name}: " + "; ".join(hidden))
        if tool.lists_check_types:
            from cgx_core.checks.installed import warm_up_proposed

            warm_up_proposed(args)
        with controlled(control):
            payload = dict(_execute(tool, args, wait, by_person))
        result_text(payload)  # a result that is not JSON is a bug, reported as one rather than raised later
        return payload, False
    except Cancelled:
        stopped = CgxError(Code.CANCELLED, f"{name} was cancelled before it committed; the run is as it was")
        return _refusal(stopped), True
    except CgxError as error:
        return _refusal(error), True
    except OSError as error:
        where = f" ({Path(error.filename).name})" if error.filename else ""
        return _refusal(CgxError(Code.IO_ERROR, f"{name}: {error.strerror or error}{where}")), True
    except Exception as error:  # a bug: the agent gets a code, never a traceback
        if os.environ.get("CGX_DEBUG"):
            traceback.print_exc(file=sys.stderr)
        bug = CgxError(
            Code.INTERNAL_ERROR,
            (
                f"{name} failed inside this package ({type(error).__name__}); nothing past the log's last line was "
                "committed; please report it"
            ),
        )
        return _refusal(bug), True


def _refusal(error: CgxError) -> dict[str, Any]:
    """The error result, its message made one line of printable text: messages quote the agent's names
    (a tool, a file, a run directory), and a newline or a lone surrogate in one must neither split the
    command line's one `error [code]: message` line nor make its output other than UTF-8."""
    message = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in error.message
    )
    return {"error": {"code": str(error.code), "message": message}}
