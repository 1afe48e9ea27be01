"""The command line: a thin adapter over cgx_core's tool registry, plus the run commands.

`main(argv) -> int` prints JSON to stdout and, for an error, one `error [<code>]: <message>` line to
stderr. Heavy imports (the MCP SDK, sympy) happen only in the subcommands that need them. Ctrl-C ends any
command with one `error [interrupted]: ...` line and status 130, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Sequence
from typing import NoReturn

from cgx_cli import process_exit, result_stream
from cgx_cli.commands import PROG
from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode

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
    """The parser with every command of the table (`only` None) or with the command `only` alone, and its commands."""
    from cgx_cli.commands import COMMANDS

    parser = ArgumentParser(
        prog=PROG,
        description="The tools an agent uses to build the credencegraph graph of a paper, with every call "
        "recorded, replayable and checkable.",
        epilog=f"'{PROG} COMMAND --help' describes a command.",
    )
    parser.add_argument("--version", action=VersionAction, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)
    for name, command in COMMANDS.items():
        if only in (None, name):
            made = commands.add_parser(
                name, help=command.summary, description=f"{command.summary}. {command.description}"
            )
            command.arguments(made)
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
    from cgx_cli.commands import COMMANDS

    return COMMANDS[options.command].execute(options)


def console_status(argv: Sequence[str] | None = None) -> int:
    """What the console script does with a command, as its exit status. Ctrl-C is one line and status 130: a
    tool call it stopped before its commit left the run as it was, and one it stopped after is completed by the
    run's next call."""
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
    """The console script `credencegraph-extract` (and `cgx`): the command, in this process."""
    raise SystemExit(console_status())
