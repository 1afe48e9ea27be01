"""The command line's commands, as one table: each command's line in the list, its --help, its arguments and what
it runs. `main` builds the parser from the table and runs the command it names.

A command's code is imported only when the command runs (the MCP SDK, sympy and the report's templates are heavy),
so building the parser costs the table alone.
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from cgx_cli.errors import print_failure
from cgx_cli.exit_codes import ExitCode
from cgx_core.errors import CgxError

if TYPE_CHECKING:
    from argparse import ArgumentParser, Namespace

PROG = "credencegraph-extract"


class Command(NamedTuple):
    """One command: `summary` in the list of commands, `summary` and `description` in its --help, `arguments`
    adds its arguments to its parser, `run` names the function (`module:function` of cgx_cli) that runs it,
    called with the parsed arguments by their names, and gives its exit status. A CgxError or an OSError it
    raises is the command's one `error [<code>]: <message>` line, and status 2."""

    summary: str
    description: str
    arguments: Callable[[ArgumentParser], None]
    run: str

    def execute(self, options: Namespace) -> int:
        module, function = self.run.split(":")
        arguments = {name: value for name, value in vars(options).items() if name != "command"}
        try:
            return int(getattr(importlib.import_module(f"cgx_cli.{module}"), function)(**arguments))
        except (CgxError, OSError) as error:  # a refused call, or the operating system's (`io-error`)
            print_failure(error)
            return ExitCode.ERROR


def _wait_seconds(text: str) -> float:
    """--wait: a finite number of seconds from 0 to 3600 (`nan` and `inf` would wait for ever)."""
    from cgx_core.run.lock import MAX_WAIT_SECONDS

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--wait takes a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_WAIT_SECONDS:
        raise argparse.ArgumentTypeError(f"--wait takes seconds from 0 to {MAX_WAIT_SECONDS:g}, not {text!r}")
    return value


def mcp() -> int:
    from cgx_cli import result_stream
    from cgx_mcp.server import serve

    serve(result_stream.results())
    return 0


def _tool_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("name", help="the tool: start_run, classify, add_premises, run_checks, judge_citation, ...")
    parser.add_argument("--run", help="the run directory (the same as the 'run' argument)")
    parser.add_argument("--args", default="{}", help="the arguments as a JSON object, or '-' to read them from stdin")
    parser.add_argument(
        "--wait", type=_wait_seconds, default=10.0, help="seconds to wait for the run's lock (default 10, at most 3600)"
    )


def _batch_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", help="a JSON-lines file of calls ('-' or nothing: stdin)")
    parser.add_argument("--run", help="the run directory, for lines whose args do not name one")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds each call waits for the run's lock")
    parser.add_argument("--stop-on-error", action="store_true", help="stop at the first line that fails")


def _rubrics_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "name", nargs="?", help="a rubric to print, or to copy with --copy (as listed, with or without .toml)"
    )
    parser.add_argument("--copy", metavar="PATH", help="copy the named rubric to PATH (a file or a directory)")


def _replay_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("run")
    parser.add_argument("--source", help="the paper's main file, when the run did not store it")
    parser.add_argument("--sources", help="a directory of fetched sources named by the hex of their digest")


def _verify_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("runs", nargs="*", metavar="RUN", help="a run, or a directory tree searched for runs")
    parser.add_argument("--from", dest="listing", metavar="FILE", help="a file of run paths, one per line")
    parser.add_argument(
        "--jobs", type=int, help="worker processes, here or in --scheduler local (default: the number of cores)"
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="verify on the Dask cluster at ADDRESS ('local': start one here)"
    )
    parser.add_argument("--jsonl", metavar="FILE", help="append one JSON line per run to FILE as each completes")
    parser.add_argument("--resume", metavar="FILE", help="skip the runs FILE (a --jsonl journal) already verified")
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="print a machine-readable summary of every run"
    )
    parser.add_argument(
        "--check-deadline",
        type=float,
        metavar="SECONDS",
        help="stop a third party's check re-run that has not finished in SECONDS of wall time (default 1920)",
    )


def _calibrate_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", metavar="RUN[=KEY]", help="a finished run, and its key")
    parser.add_argument("--rubric", required=True, help="the rubric to fit (its comments and layout are kept)")
    parser.add_argument("--out", required=True, help="where to write the calibrated rubric")
    parser.add_argument("--version", required=True, help="the calibrated rubric's version (it names its values)")
    parser.add_argument("--date", required=True, help="the [calibration] date, YYYY-MM-DD (never the clock's)")
    parser.add_argument(
        "--held-out", action="append", default=[], metavar="RUN", help="a run kept out of the fit, scored on"
    )
    parser.add_argument("--counts", help="extra counts by check type, as JSON (the maths soundness corpus)")
    parser.add_argument(
        "--baseline", metavar="RUBRIC", help="score 'before' with this rubric's values (default: --rubric's)"
    )
    parser.add_argument(
        "--json", dest="json_file", metavar="FILE", help="write the counts, the fit and the scores as JSON"
    )


def _report_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("run")
    parser.add_argument("--html", metavar="FILE", help="write the self-contained HTML page")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
    parser.add_argument("--source", help="the paper's main file, for the replay, when the run did not store it")
    parser.add_argument("--sources", help="a directory of fetched sources named by the hex of their digest")
    for audit in ("replay", "verify"):
        choice = parser.add_mutually_exclusive_group()
        choice.add_argument(
            f"--{audit}",
            dest=audit,
            action="store_const",
            const="run",
            default="reuse",
            help=f"{audit} the run again even when an earlier report's result of the unchanged run could be reused",
        )
        choice.add_argument(
            f"--no-{audit}",
            dest=audit,
            action="store_const",
            const="skip",
            help=f"do not {audit} the run (the report says so)",
        )


def _review_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("run")
    subject = parser.add_mutually_exclusive_group(required=True)
    subject.add_argument("--node", help="the node reviewed")
    subject.add_argument("--check", help="the check reviewed (c-NNN): the verdict is on its target, in view of it")
    parser.add_argument("--verdict", required=True, choices=["holds", "fails", "undetermined"])
    parser.add_argument("--reviewer", required=True, help="the person whose judgement this is")
    parser.add_argument("--reason", required=True, help="why, in the reviewer's words")
    parser.add_argument(
        "--agent-model",
        metavar="MODEL",
        help="an agent running MODEL enters the person's verdict for them (required without a terminal)",
    )
    parser.add_argument(
        "--no-finish", dest="finish", action="store_false", help="leave a finished run reopened after the review"
    )
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the run's lock (default 10)")


def _one(name: str, help: str | None = None, **more: str) -> Callable[[ArgumentParser], None]:
    """The arguments of a command that takes one: `name`, with `help` (and argparse's other settings)."""

    def add(parser: ArgumentParser) -> None:
        parser.add_argument(name, help=help, **more)  # type: ignore[arg-type]  # nargs, metavar

    return add


def _none(parser: ArgumentParser) -> None:
    """A command without arguments."""


COMMANDS: dict[str, Command] = {
    "tool": Command(
        "call one tool and print its JSON result (for harnesses without MCP)",
        "The result is the JSON the MCP server returns for the same call, byte for byte. A call the run refuses "
        "prints the JSON error and one 'error [<code>]: <message>' line on stderr, with status 2. "
        f"'{PROG} tools' lists the tools and their arguments; '{PROG} batch' makes many calls in one process.",
        _tool_arguments,
        "tool_command:run_tool",
    ),
    "batch": Command(
        "make many tool calls in one process, one JSON line each, and print one result line each",
        'Each line of FILE (or stdin) is {"tool": NAME, "args": {...}}; each is logged as its own call, and its '
        "result (or its error) is printed as one line, in order, on stdout; an error also prints 'line N: error "
        "[<code>]: <message>' on stderr. A refused line does not stop the others unless --stop-on-error is given. "
        "Status 0 when every line succeeded, 2 otherwise. One process pays its start-up once: the fast way for a "
        "harness without MCP to make many calls.",
        _batch_arguments,
        "batch_command:run_batch",
    ),
    "tools": Command(
        "list the tools with their descriptions and argument schemas, as JSON",
        "Also lists every installed check type with the JSON schema of its proposals: what an agent without MCP "
        "reads instead of tools/list. With a tool's NAME, that tool alone, with the JSON schema of its result.",
        _one("name", "one tool, shown with the schema of its result", nargs="?"),
        "tool_command:list_tools",
    ),
    "mcp": Command(
        "serve the tools over MCP on stdio",
        "Register it in a harness as a stdio server: the command credencegraph-extract with the argument mcp. "
        "Long calls send progress notifications, and a cancelled request stops its call before it commits.",
        _none,
        "commands:mcp",
    ),
    "plugins": Command(
        "list the installed check types (their plugins), as JSON",
        "Each with its distribution, version and proposing tool; with --rubric, whether the rubric declares it.",
        _one("--rubric", "a rubric: say which check types it declares, and which it declares that none provides"),
        "plugins_command:list_plugins",
    ),
    "rubrics": Command(
        "list the rubrics this package ships, or copy one to edit",
        "A run needs a rubric: 'paper' is for real papers (types for chunks that assert nothing), 'example-paper' "
        "for the bundled example. 'paper' is calibrated on labelled runs (its [calibration] says on what); "
        "'example-paper''s numbers are illustrative.",
        _rubrics_arguments,
        "bundled:rubrics_command",
    ),
    "skill": Command(
        "print the agent skill (SKILL.md), or copy it into a harness's skills folder",
        "The skill teaches an agent the workflow and the rules; it is shipped with this package.",
        _one("--copy", "write DIR/credencegraph-extract/SKILL.md", metavar="DIR"),
        "bundled:skill_command",
    ),
    "replay": Command(
        "rebuild a run from its document and log; exit 1 when the graph differs from the recorded one",
        "Every logged call is applied again with the code installed now and checked against the digests its "
        "line recorded; it reports the first call that diverges and how. No network: what a citation check read "
        "comes back from the run's sources/ or --sources.",
        _replay_arguments,
        "replay_command:replay_command",
    ),
    "verify": Command(
        "re-run every deterministic check of finished runs; exit 1 when a check differs from its record",
        "Checks of finished runs are re-run from the inputs their records hold, and every field a re-run does not "
        "reproduce is printed. Runs come as paths, directory trees searched for runs, or a --from list; they are "
        "verified in parallel worker processes here, or on a Dask cluster (--scheduler), and --jsonl/--resume "
        "stream a journal a long verification can be resumed from.",
        _verify_arguments,
        "verify_command:verify_command",
    ),
    "demo": Command(
        "run the bundled example through the tools and print a summary",
        "The example's recorded calls are sent to a fresh run, which is finished, replayed and verified; each "
        "assessed node is printed with its credence before and after its checks.",
        _one("directory", "where to put the run (default: a new temporary directory)", nargs="?"),
        "demo:demo",
    ),
    "calibrate": Command(
        "fit a rubric's check credences and bases on labelled runs, and score the credences before and after",
        "Each RUN is a finished run; RUN=KEY labels it with a key file naming its false nodes (else a person's "
        "reviews label it). Writes the rubric given, calibrated, to --out (comments kept) and prints the Brier "
        "and log scores in sample, leaving each run and each paper out, and on --held-out runs. The same runs "
        "give the same bytes (docs/calibration.md).",
        _calibrate_arguments,
        "calibrate_command:calibrate_command",
    ),
    "unlock": Command(
        "report whether a tool call holds the run's lock, and which process",
        "The lock is the operating system's and dies with its process: this names the live process that holds "
        "it (a child that inherited it included), so a person can decide whether to stop a hung agent.",
        _one("run"),
        "unlock:unlock",
    ),
    "report": Command(
        "what a finished run says, for a person: text, and a self-contained HTML page or Markdown",
        "The text goes to stdout; --html writes one page that loads nothing (verdicts, credences before and after "
        "the observations as finish_run inferred them and what moved them, failed checks with their inputs, "
        "assumptions, coverage, what awaits review, the run's identity). The run is replayed and verified now, "
        "offline, or what an earlier report proved of the same files with the same code is reused (kept "
        "outside the run, in $CGX_AUDIT_CACHE or the user's cache), and the report says which; status 1 when "
        "either did not pass.",
        _report_arguments,
        "report_command:report_command",
    ),
    "review": Command(
        "record a person's verdict on a node or a check, as a logged check",
        "The review tool's call, made for a person: it becomes a check of the rubric's review type (human-review) "
        "and moves credence through inference. Run at a terminal, it is recorded as entered by the person; an "
        "agent (no terminal) must pass --agent-model. A finished run is finished again afterwards "
        "(--no-finish: not).",
        _review_arguments,
        "review_command:review_command",
    ),
}
