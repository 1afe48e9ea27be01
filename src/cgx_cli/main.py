"""The command line: a thin adapter over cgx_core's tool registry, plus the run commands.

`main(argv) -> int` prints JSON to stdout and, for an error, one `error [<code>]: <message>` line to
stderr. Heavy imports (the MCP SDK, sympy) happen only in the subcommands that need them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from cgx_cli.exit_codes import ExitCode

PROG = "credencegraph-extract"


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one `error [usage]: ...` line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        # One line, whatever the arguments held: a newline or a control character in a stray argument is
        # written escaped.
        shown = "".join(char if char.isprintable() else repr(char)[1:-1] for char in message)
        sys.stderr.write(f"error [usage]: {shown} (see '{self.prog} --help')\n")
        raise SystemExit(ExitCode.ERROR)


def _parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog=PROG,
        description="The tools an agent uses to build the credencegraph graph of a paper, with every call "
        "recorded, replayable and checkable.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)

    tool = commands.add_parser("tool", help="call one tool and print its JSON result (for harnesses without MCP)")
    tool.add_argument("name", help="the tool: start_run, classify, add_premises, run_checks, judge_citation, ...")
    tool.add_argument("--run", help="the run directory (the same as the 'run' argument)")
    tool.add_argument("--args", default="{}", help="the arguments as a JSON object, or '-' to read them from stdin")
    tool.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the run's lock (default 10)")

    commands.add_parser("tools", help="list the tools with their descriptions and argument schemas, as JSON")
    commands.add_parser("mcp", help="serve the tools over MCP on stdio")

    plugins = commands.add_parser("plugins", help="list the installed check types (their plugins), as JSON")
    plugins.add_argument(
        "--rubric", help="a rubric: say which check types it declares, and which it declares that none provides"
    )

    replay = commands.add_parser(
        "replay", help="rebuild a run from its document and log; exit 1 when the graph differs from the recorded one"
    )
    replay.add_argument("run")
    replay.add_argument("--source", help="the paper's main file, when the run did not store it")
    replay.add_argument("--sources", help="a directory of fetched sources named by the hex of their digest")

    verify = commands.add_parser(
        "verify", help="re-run every deterministic check of finished runs; exit 1 when a check differs from its record"
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

    demo = commands.add_parser("demo", help="run the bundled example through the tools and print a summary")
    demo.add_argument("directory", nargs="?", help="where to put the run (default: a new temporary directory)")

    unlock = commands.add_parser("unlock", help="report whether a tool call holds the run's lock, and which process")
    unlock.add_argument("run")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status."""
    options = _parser().parse_args(argv)
    if options.command == "tool":
        from cgx_cli.tool_command import run_tool

        return run_tool(options.name, options.run, options.args, options.wait)
    if options.command == "tools":
        from cgx_cli.tool_command import list_tools

        return list_tools()
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
        )
    if options.command == "demo":
        from cgx_cli.demo import demo

        return demo(options.directory)
    if options.command == "unlock":
        from cgx_cli.unlock import unlock

        return unlock(options.run)
    from cgx_mcp.server import serve

    serve()
    return ExitCode.OK


def entry() -> NoReturn:
    """The console script."""
    raise SystemExit(main())
