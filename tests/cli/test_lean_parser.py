"""A command line that starts with a command's name is parsed by a parser of that command alone (building
all fourteen was a tenth of a cold `tool` call): it must read every argument list, and print every help
and usage error, exactly as the whole parser does."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io

import pytest

from cgx_cli.main import _build, _parser

FULL, NAMES = _build(None)


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    found: argparse.ArgumentParser = action.choices[name]
    return found


@pytest.mark.parametrize("name", sorted(NAMES))
def test_each_command_alone_has_the_help_it_has_among_all(name: str) -> None:
    lean = _parser([name])
    assert list(_build(name)[1]) == [name]
    assert _subparser(lean, name).format_help() == _subparser(FULL, name).format_help()


@pytest.mark.parametrize(
    "argv",
    [
        ["tool", "classify", "--run", "r", "--args", '{"records": []}', "--wait", "2.5"],
        ["tool", "get_state"],
        ["batch", "calls.jsonl", "--stop-on-error"],
        ["tools", "classify"],
        ["verify", "a", "b", "--jobs", "2", "--json"],
        ["report", "r", "--no-replay", "--verify"],
        ["review", "r", "--node", "s-1", "--verdict", "holds", "--reviewer", "A", "--reason", "B"],
        ["mcp"],
    ],
)
def test_an_argument_list_is_read_as_the_whole_parser_reads_it(argv: list[str]) -> None:
    assert vars(_parser(argv).parse_args(argv)) == vars(FULL.parse_args(argv))


@pytest.mark.parametrize(
    "argv",
    [["tool"], ["tool", "x", "--wait", "nan"], ["review", "r"], ["verify", "--jobs", "many"], ["tool", "x", "--bad"]],
)
def test_a_usage_error_is_the_one_the_whole_parser_gives(argv: list[str]) -> None:
    def error(parser: argparse.ArgumentParser) -> tuple[str, object]:
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), pytest.raises(SystemExit) as stopped:
            parser.parse_args(argv)
        return stderr.getvalue(), stopped.value.code

    lean = error(_parser(argv))
    assert lean == error(FULL)
    assert lean[0].startswith("error [usage]: ")


@pytest.mark.parametrize("argv", [[], ["--help"], ["--version"], ["bogus"], ["-h", "tool"]])
def test_without_a_command_name_first_the_whole_parser_is_built(argv: list[str]) -> None:
    lean = _parser(argv)
    action = next(action for action in lean._actions if isinstance(action, argparse._SubParsersAction))
    assert set(action.choices) == set(NAMES)
    assert lean.format_help() == FULL.format_help()


@pytest.mark.parametrize("name", sorted(NAMES))
def test_each_command_runs_a_function_that_takes_its_arguments_by_their_names(name: str) -> None:
    """A command's function is called with its parsed arguments by name: a flag renamed on one side only would
    fail at the first use of the command, so both sides are compared here, for every command."""
    from cgx_cli.commands import COMMANDS

    module, function = COMMANDS[name].run.split(":")
    taken = set(inspect.signature(getattr(importlib.import_module(f"cgx_cli.{module}"), function)).parameters)
    given = {action.dest for action in _subparser(FULL, name)._actions if action.dest != "help"}
    assert given == taken
