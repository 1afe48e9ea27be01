"""The command line: a thin adapter over cgx_core's tool registry, plus the run commands.

`main(argv) -> int` prints JSON to stdout and, for an error, one `error [<code>]: <message>` line to
stderr. Heavy imports (the MCP SDK, sympy) happen only in the subcommands that need them. Ctrl-C ends any
command with one `error [interrupted]: ...` line and status 130, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Collection, Sequence
from typing import NoReturn

from cgx_cli import process_exit, result_stream
from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode

PROG = "credencegraph-extract"
INTERRUPTED_STATUS = 130
"""The status of a command stopped by SIGINT, as a shell reports it (128 + 2)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one `error [usage]: ...` line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        # One line, whatever the arguments held: a newline or a control character in a stray argument is
        # written escaped.
        shown = "".join(char if char.isprintable() else repr(char)[1:-1] for char in message)
        print_error("usage", f"{shown} (see '{self.prog} --help')")
        raise SystemExit(ExitCode.ERROR)


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


def _parser(argv: Sequence[str] = ()) -> ArgumentParser:
    """The parser of `argv`: when it starts with a command's name, a parser of that command alone.

    Building the fourteen commands' parsers (gettext looks for a translation of each help heading) cost a
    cold `tool` call about 5 ms of CPU, half of its parsing. Everything after a command's name is parsed by
    that command's parser, so a parser holding only it reads `argv` exactly as the whole one does; without
    a known name first (`--help`, `--version`, a mistyped command), the whole parser lists and refuses as
    ever.
    """
    first = argv[0] if argv else None
    parser, choices = _build(first)
    if first not in choices:
        parser, choices = _build(None)
    return parser


def _build(only: str | None) -> tuple[ArgumentParser, Collection[str]]:
    """The parser with every command (`only` None) or with the command `only` alone, and its commands."""
    parser = ArgumentParser(
        prog=PROG,
        description="The tools an agent uses to build the credencegraph graph of a paper, with every call "
        "recorded, replayable and checkable.",
        epilog=f"'{PROG} COMMAND --help' describes a command.",
    )
    parser.add_argument("--version", action=VersionAction, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)

    def command(name: str, summary: str, description: str) -> ArgumentParser:
        """A subcommand: `summary` in the list of commands, `summary` and `description` in its --help."""
        made: ArgumentParser = commands.add_parser(name, help=summary, description=f"{summary}. {description}")
        return made

    if only in (None, "tool"):
        tool = command(
            "tool",
            "call one tool and print its JSON result (for harnesses without MCP)",
            "The result is the JSON the MCP server returns for the same call, byte for byte. A call the run refuses "
            "prints the JSON error and one 'error [<code>]: <message>' line on stderr, with status 2. "
            f"'{PROG} tools' lists the tools and their arguments; '{PROG} batch' makes many calls in one process.",
        )
        tool.add_argument("name", help="the tool: start_run, classify, add_premises, run_checks, judge_citation, ...")
        tool.add_argument("--run", help="the run directory (the same as the 'run' argument)")
        tool.add_argument("--args", default="{}", help="the arguments as a JSON object, or '-' to read them from stdin")
        tool.add_argument(
            "--wait",
            type=_wait_seconds,
            default=10.0,
            help="seconds to wait for the run's lock (default 10, at most 3600)",
        )

    if only in (None, "batch"):
        batch = command(
            "batch",
            "make many tool calls in one process, one JSON line each, and print one result line each",
            'Each line of FILE (or stdin) is {"tool": NAME, "args": {...}}; each is logged as its own call, and its '
            "result (or its error) is printed as one line, in order, on stdout; an error also prints 'line N: error "
            "[<code>]: <message>' on stderr. A refused line does not stop the others unless --stop-on-error is given. "
            "Status 0 when every line succeeded, 2 otherwise. One process pays its start-up once: the fast way for a "
            "harness without MCP to make many calls.",
        )
        batch.add_argument("file", nargs="?", default="-", help="a JSON-lines file of calls ('-' or nothing: stdin)")
        batch.add_argument("--run", help="the run directory, for lines whose args do not name one")
        batch.add_argument("--wait", type=float, default=10.0, help="seconds each call waits for the run's lock")
        batch.add_argument("--stop-on-error", action="store_true", help="stop at the first line that fails")

    if only in (None, "tools"):
        tools = command(
            "tools",
            "list the tools with their descriptions and argument schemas, as JSON",
            "Also lists every installed check type with the JSON schema of its proposals: what an agent without MCP "
            "reads instead of tools/list. With a tool's NAME, that tool alone, with the JSON schema of its result.",
        )
        tools.add_argument("name", nargs="?", help="one tool, shown with the schema of its result")

    if only in (None, "mcp"):
        command(
            "mcp",
            "serve the tools over MCP on stdio",
            "Register it in a harness as a stdio server: the command credencegraph-extract with the argument mcp. "
            "Long calls send progress notifications, and a cancelled request stops its call before it commits.",
        )

    if only in (None, "plugins"):
        plugins = command(
            "plugins",
            "list the installed check types (their plugins), as JSON",
            "Each with its distribution, version and proposing tool; with --rubric, whether the rubric declares it.",
        )
        plugins.add_argument(
            "--rubric", help="a rubric: say which check types it declares, and which it declares that none provides"
        )

    if only in (None, "rubrics"):
        rubrics = command(
            "rubrics",
            "list the rubrics this package ships, or copy one to edit",
            "A run needs a rubric: 'paper' is for real papers (types for chunks that assert nothing), 'example-paper' "
            "for the bundled example. Every number in them is illustrative.",
        )
        rubrics.add_argument(
            "name", nargs="?", help="a rubric to print, or to copy with --copy (as listed, with or without .toml)"
        )
        rubrics.add_argument("--copy", metavar="PATH", help="copy the named rubric to PATH (a file or a directory)")

    if only in (None, "skill"):
        skill = command(
            "skill",
            "print the agent skill (SKILL.md), or copy it into a harness's skills folder",
            "The skill teaches an agent the workflow and the rules; it is shipped with this package.",
        )
        skill.add_argument("--copy", metavar="DIR", help="write DIR/credencegraph-extract/SKILL.md")

    if only in (None, "replay"):
        replay = command(
            "replay",
            "rebuild a run from its document and log; exit 1 when the graph differs from the recorded one",
            "Every logged call is applied again with the code installed now and checked against the digests its "
            "line recorded; it reports the first call that diverges and how. No network: what a citation check read "
            "comes back from the run's sources/ or --sources.",
        )
        replay.add_argument("run")
        replay.add_argument("--source", help="the paper's main file, when the run did not store it")
        replay.add_argument("--sources", help="a directory of fetched sources named by the hex of their digest")

    if only in (None, "verify"):
        verify = command(
            "verify",
            "re-run every deterministic check of finished runs; exit 1 when a check differs from its record",
            "Checks of finished runs are re-run from the inputs their records hold, and every field a re-run does not "
            "reproduce is printed. Runs come as paths, directory trees searched for runs, or a --from list; they are "
            "verified in parallel worker processes here, or on a Dask cluster (--scheduler), and --jsonl/--resume "
            "stream a journal a long verification can be resumed from.",
        )
        verify.add_argument("runs", nargs="*", metavar="RUN", help="a run, or a directory tree searched for runs")
        verify.add_argument("--from", dest="listing", metavar="FILE", help="a file of run paths, one per line")
        verify.add_argument(
            "--jobs", type=int, help="worker processes, here or in --scheduler local (default: the number of cores)"
        )
        verify.add_argument(
            "--scheduler", metavar="ADDRESS", help="verify on the Dask cluster at ADDRESS ('local': start one here)"
        )
        verify.add_argument("--jsonl", metavar="FILE", help="append one JSON line per run to FILE as each completes")
        verify.add_argument("--resume", metavar="FILE", help="skip the runs FILE (a --jsonl journal) already verified")
        verify.add_argument("--json", action="store_true", help="print a machine-readable summary of every run")
        verify.add_argument(
            "--check-deadline",
            type=float,
            metavar="SECONDS",
            help="stop a third party's check re-run that has not finished in SECONDS of wall time (default 1920)",
        )

    if only in (None, "demo"):
        demo = command(
            "demo",
            "run the bundled example through the tools and print a summary",
            "The example's recorded calls are sent to a fresh run, which is finished, replayed and verified; each "
            "assessed node is printed with its credence before and after its checks.",
        )
        demo.add_argument("directory", nargs="?", help="where to put the run (default: a new temporary directory)")

    if only in (None, "calibrate"):
        calibrate = command(
            "calibrate",
            "fit a rubric's check credences and bases on labelled runs, and score the credences before and after",
            "Each RUN is a finished run; RUN=KEY labels it with a key file naming its false nodes (else a person's "
            "reviews label it). Writes the rubric given, calibrated, to --out (comments kept) and prints the Brier "
            "and log scores in sample, leaving each run and each paper out, and on --held-out runs. The same runs "
            "give the same bytes (docs/calibration.md).",
        )
        calibrate.add_argument("runs", nargs="+", metavar="RUN[=KEY]", help="a finished run, and its key")
        calibrate.add_argument("--rubric", required=True, help="the rubric to fit (its comments and layout are kept)")
        calibrate.add_argument("--out", required=True, help="where to write the calibrated rubric")
        calibrate.add_argument("--version", required=True, help="the calibrated rubric's version (it names its values)")
        calibrate.add_argument("--date", required=True, help="the [calibration] date, YYYY-MM-DD (never the clock's)")
        calibrate.add_argument(
            "--held-out", action="append", default=[], metavar="RUN", help="a run kept out of the fit, scored on"
        )
        calibrate.add_argument("--counts", help="extra counts by check type, as JSON (the maths soundness corpus)")
        calibrate.add_argument("--json", metavar="FILE", help="write the counts, the fit and the scores as JSON")

    if only in (None, "unlock"):
        unlock = command(
            "unlock",
            "report whether a tool call holds the run's lock, and which process",
            "The lock is the operating system's and dies with its process: this names the live process that holds "
            "it (a child that inherited it included), so a person can decide whether to stop a hung agent.",
        )
        unlock.add_argument("run")

    if only in (None, "report"):
        report = command(
            "report",
            "what a finished run says, for a person: text, and a self-contained HTML page or Markdown",
            "The text goes to stdout; --html writes one page that loads nothing (verdicts, credences before and after "
            "the observations as finish_run inferred them and what moved them, failed checks with their inputs, "
            "assumptions, coverage, what awaits review, the run's identity). The run is replayed and verified now, "
            "offline, or what an earlier report proved of the same files with the same code is reused (kept "
            "outside the run, in $CGX_AUDIT_CACHE or the user's cache), and the report says which; status 1 when "
            "either did not pass.",
        )
        report.add_argument("run")
        report.add_argument("--html", metavar="FILE", help="write the self-contained HTML page")
        report.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
        report.add_argument("--source", help="the paper's main file, for the replay, when the run did not store it")
        report.add_argument("--sources", help="a directory of fetched sources named by the hex of their digest")
        for audit in ("replay", "verify"):
            choice = report.add_mutually_exclusive_group()
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

    if only in (None, "review"):
        review = command(
            "review",
            "record a person's verdict on a node or a check, as a logged check",
            "The review tool's call, made for a person: it becomes a check of the rubric's review type (human-review) "
            "and moves credence through inference. Run at a terminal, it is recorded as entered by the person; an "
            "agent (no terminal) must pass --agent-model. A finished run is finished again afterwards "
            "(--no-finish: not).",
        )
        review.add_argument("run")
        subject = review.add_mutually_exclusive_group(required=True)
        subject.add_argument("--node", help="the node reviewed")
        subject.add_argument("--check", help="the check reviewed (c-NNN): the verdict is on its target, in view of it")
        review.add_argument("--verdict", required=True, choices=["holds", "fails", "undetermined"])
        review.add_argument("--reviewer", required=True, help="the person whose judgement this is")
        review.add_argument("--reason", required=True, help="why, in the reviewer's words")
        review.add_argument(
            "--agent-model",
            metavar="MODEL",
            help="an agent running MODEL enters the person's verdict for them (required without a terminal)",
        )
        review.add_argument("--no-finish", action="store_true", help="leave a finished run reopened after the review")
        review.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the run's lock (default 10)")

    return parser, commands.choices


class VersionAction(argparse.Action):
    """`--version`, reading the installed version only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("credencegraph-extract")
        except PackageNotFoundError:
            found = "unknown"
        sys.stdout.write(f"{PROG} {found}\n")
        raise SystemExit(ExitCode.OK)


def main(argv: Sequence[str] | None = None, *, claim_stdout: bool = False) -> int:
    """Run one command; return its exit status. With `claim_stdout` (the console script), stdout carries the
    command's result alone: whatever else writes to it, a plugin's print() included, goes to stderr."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    options = _parser(arguments).parse_args(arguments)
    if claim_stdout:
        result_stream.claim()
    if options.command == "tool":
        from cgx_cli.tool_command import run_tool

        if options.name == "start_run":
            _read_papers_in_place()
        return run_tool(options.name, options.run, options.args, options.wait)
    if options.command == "batch":
        from cgx_cli.batch_command import run_batch

        _read_papers_in_place()
        return run_batch(options.file, options.run, options.wait, stop_on_error=options.stop_on_error)
    if options.command == "tools":
        from cgx_cli.tool_command import list_tools

        return list_tools(options.name)
    if options.command == "rubrics":
        from cgx_cli.bundled import rubrics_command

        return rubrics_command(options.name, options.copy)
    if options.command == "skill":
        from cgx_cli.bundled import skill_command

        return skill_command(options.copy)
    if options.command == "plugins":
        from cgx_cli.plugins_command import list_plugins

        return list_plugins(options.rubric)
    if options.command == "replay":
        from cgx_cli.replay_command import replay_command

        return replay_command(options.run, options.source, options.sources)
    if options.command == "verify":
        from cgx_cli.verify_command import verify_command

        return verify_command(
            options.runs,
            options.jobs,
            options.json,
            listing=options.listing,
            scheduler=options.scheduler,
            jsonl=options.jsonl,
            resume=options.resume,
            check_deadline=options.check_deadline,
        )
    if options.command == "demo":
        from cgx_cli.demo import demo

        return demo(options.directory)
    if options.command == "report":
        from cgx_cli.report_command import report_command

        return report_command(
            options.run,
            html=options.html,
            markdown=options.markdown,
            source=options.source,
            sources=options.sources,
            replay=options.replay,
            verify=options.verify,
        )
    if options.command == "review":
        from cgx_cli.review_command import review_command

        return review_command(
            options.run,
            node=options.node,
            check=options.check,
            verdict=options.verdict,
            reviewer=options.reviewer,
            reason=options.reason,
            agent_model=options.agent_model,
            finish=not options.no_finish,
            wait=options.wait,
        )
    if options.command == "calibrate":
        from cgx_cli.calibrate_command import calibrate_command

        return calibrate_command(
            options.runs,
            rubric=options.rubric,
            out=options.out,
            version=options.version,
            date=options.date,
            held_out=options.held_out,
            counts=options.counts,
            json_file=options.json,
        )
    if options.command == "unlock":
        from cgx_cli.unlock import unlock

        return unlock(options.run)
    from cgx_mcp.server import serve

    serve(result_stream.results())
    return ExitCode.OK


def _read_papers_in_place() -> None:
    """A command line's paper is read in a fork of this process (one interpreter, one import of the readers)
    rather than in a zygote's: see `cgx_core.ingest.worker.read_in_place`."""
    from cgx_core.ingest import worker

    worker.read_in_place()


def console_status(argv: Sequence[str] | None = None) -> int:
    """What the console script does with a command, as its exit status (run by `entry` in a cold process, and
    by a warm server's child in the caller's place). Ctrl-C is one line and status 130: a tool call it stopped
    before its commit left the run as it was, and one it stopped after is completed by the run's next call."""
    from cgx_cli.lazy_imports import install

    install()  # numpy and credencegraph's diagnostics only when a command needs them
    try:
        return main(argv, claim_stdout=True)
    except KeyboardInterrupt:
        print_error("interrupted", "stopped by Ctrl-C; a call stopped before its commit changed nothing")
        return INTERRUPTED_STATUS
    except SystemExit as stop:  # argparse's --help and usage errors: the status the interpreter would give
        return _exit_status(stop.code)
    finally:
        result_stream.flush()
        process_exit.spare_the_collector()


def _exit_status(code: object) -> int:
    if code is None:
        return ExitCode.OK
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def entry() -> NoReturn:
    """The command in this process (the console script runs it here when no warm server takes it)."""
    raise SystemExit(console_status())
