"""Fuzzing the command line: `credencegraph-extract tool NAME [--run DIR] --args TEXT`, with hypothesis.

Each case is a real process: a child of a warmed-up fork server that runs the console script's entry
point with the case's argv, stdin and file descriptors (see cli_child.py), so thousands of cases stay
cheap. The arguments are JSON text, as a harness writes it or worse: non-ASCII written raw or escaped, lone
surrogates as JSON escapes, numbers JSON allows but Python cannot hold (1e400) or print (5,000 digits),
NaN, nesting deeper than the parser's recursion, text that is not JSON at all, all of it on the command
line or on stdin (`--args -`), sometimes with stray options. Whatever the case:

- the status is 0, or 2 with exactly one `error [<code>]: <message>` line on stderr and never a
  traceback;
- stdout is one line of JSON (the result, or the error whose code and message stderr repeats), UTF-8;
- a refused call leaves the run, and the folder start_run creates runs in, exactly as they were.

A few of the hardest cases also run through the installed `credencegraph-extract` script itself, to
show the fork server runs the command line as the script does.

`CGX_FUZZ_CASES` sets the cases per front end, spread over the tools (default 320; the full run uses
10,000). Cases are derandomised: the same count gives the same cases.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from fork_server import ForkServer
from fuzz_cases import CLI, ERROR_LINE, Guard, Targets, argument_text, arguments_for, check_payload, nasty_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgx_core.tooling.registry import TOOLS

NAMES = [*TOOLS, "unknown tool"]
CASES = int(os.environ.get("CGX_FUZZ_CASES", "320"))
PER_TOOL = max(1, math.ceil(CASES / len(NAMES)))
SCRIPT = str(Path(sys.executable).with_name("credencegraph-extract"))
RAW_TEXTS = (
    "",
    "{",
    "[]",
    "null",
    '"run"',
    "NaN",
    '{"run": NaN}',
    '{"run": Infinity}',
    '{"limit": 1e400}',
    '{"limit": ' + "9" * 5000 + "}",
    '{"run": "\\ud800"}',
    "[" * 100_000 + "]" * 100_000,
    '{"run": "a", "run": "b"}',
    "\x00",
)


def as_argv(text: str) -> str:
    """What argv can hold: no NUL, and of the surrogates only U+DC80..U+DCFF (Python decodes argv bytes that
    are not UTF-8 into those)."""
    lone = ("\ud800" <= char <= "\udfff" and not "\udc80" <= char <= "\udcff" for char in text)
    return "".join("?" if bad or char == "\x00" else char for char, bad in zip(text, lone, strict=True))


@st.composite
def command_lines(draw: st.DrawFn, tool: str, targets: Targets) -> tuple[list[str], bytes]:
    """An argv after the program name, and the bytes on stdin."""
    name = tool if tool in TOOLS else draw(st.one_of(nasty_text(CLI), st.sampled_from(["Get_State", "start_run "])))
    if name.startswith("-"):
        name = "x" + name  # an option there asks argparse for help (status 0) or is a usage error: not a call
    arguments = draw(arguments_for(tool, targets, CLI))
    argv = ["tool", name]
    if isinstance(arguments, dict) and isinstance(arguments.get("run"), str) and draw(st.booleans()):
        argv += ["--run", arguments.pop("run")]
    how = draw(st.sampled_from(("escaped", "raw", "raw", "text")))
    if how == "text":
        text = draw(st.one_of(st.sampled_from(RAW_TEXTS), nasty_text(CLI)))
    elif how == "escaped":
        text = json.dumps(arguments, ensure_ascii=True, allow_nan=True, default=str)
    else:
        text = argument_text(arguments)
    stdin = b""
    if draw(st.booleans()):
        argv += ["--args", "-"]
        stdin = text.encode("utf-8", "surrogatepass")
    else:
        argv += ["--args", text]
    if draw(st.integers(0, 9)) == 0:
        stray = draw(st.sampled_from(["--wait", "--bogus", "--args", "--run", "x"]))
        argv.insert(draw(st.integers(0, len(argv))), stray)
    return [as_argv(part) for part in argv], stdin


def run_cli(server: ForkServer, folder: Path, cwd: Path, argv: list[str], stdin: bytes) -> tuple[int, bytes, bytes]:
    """Run one command line in a child of the fork server, in `cwd`; its status, stdout and stderr."""
    paths = {name: folder / f"case.{name}" for name in ("stdin", "stdout", "stderr")}
    paths["stdin"].write_bytes(stdin)
    request = {"argv": argv, "cwd": str(cwd), **{name: str(path) for name, path in paths.items()}}
    status = server.round(request)
    return status, paths["stdout"].read_bytes(), paths["stderr"].read_bytes()


def check_output(status: int, stdout: bytes, stderr: bytes, where: str) -> bool:
    """The command line's contract for one call; returns whether the call was refused."""
    assert b"Traceback" not in stderr, f"{where}: a traceback:\n{stderr.decode('utf-8', 'replace')}"
    assert status in (0, 2), f"{where}: status {status}: {stderr!r}"
    out, err = stdout.decode("utf-8"), stderr.decode("utf-8")
    if status == 0:
        assert err == "", where
        assert out.endswith("\n") and out.count("\n") == 1, where
        payload = json.loads(out)
        check_payload(payload, False, where)
        return False
    assert err.endswith("\n") and err.count("\n") == 1, f"{where}: stderr is not one line: {err!r}"
    line = ERROR_LINE.fullmatch(err[:-1])
    assert line is not None, f"{where}: {err!r}"
    if line.group(1) != "usage":
        assert out.endswith("\n") and out.count("\n") == 1, where
        payload = json.loads(out)
        check_payload(payload, True, where)
        assert [payload["error"]["code"], payload["error"]["message"]] == [line.group(1), line.group(2)], where
    else:
        assert out == "", where
    return True


@pytest.mark.parametrize("tool", NAMES)
def test_any_command_line_gives_json_and_at_most_one_error_line_and_a_refusal_changes_nothing(
    tool: str, fuzz_targets: Targets, cli_server: ForkServer, tmp_path: Path
) -> None:
    guard = Guard(fuzz_targets)
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=PER_TOOL,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(case=command_lines(tool, fuzz_targets))
    def case(case: tuple[list[str], bytes]) -> None:
        argv, stdin = case
        where = f"argv {argv!r:.300} stdin {stdin!r:.100}"
        guard.snapshot()
        status, stdout, stderr = run_cli(cli_server, tmp_path, fuzz_targets.scratch, argv, stdin)
        refused = check_output(status, stdout, stderr, where)
        outcomes["refused" if refused else "accepted"] += 1
        name = argv[1] if argv[0] == "tool" and len(argv) > 1 else ""
        guard.after(refused or not (name in TOOLS and TOOLS[name].changes_run), where)

    case()
    print(f"\nCLI {tool}: {dict(outcomes)}")


ARGV_TEXTS = [text for text in RAW_TEXTS if len(text) < 10_000 and "\x00" not in text]  # what argv can carry
HARD_CASES: list[tuple[list[str], bytes]] = [
    (["tool", "get_state", "--run", "RUN", "--args", text], b"") for text in ARGV_TEXTS
] + [
    (["tool", "get_state", "--run", "RUN", "--args", "-"], b"[" * 100_000),
    (["tool", "get_state", "--args", "-"], b'{"run": "RUN\xff"}'),
    (
        [
            "tool",
            "classify",
            "--run",
            "RUN",
            "--args",
            '{"records": [{"node": "s-12", "type": "result", '
            '"form": {"value": 1e400}, "rests_on": ["s-05"]}], "model": "m"}',
        ],
        b"",
    ),
    (
        [
            "tool",
            "run_checks",
            "--run",
            "RUN",
            "--args",
            '{"proposals": [{"type": "x", "target": "s-01"}], "model": "m", "note": "\\ud800"}',
        ],
        b"",
    ),
    (
        ["tool", "start_run", "--args", '{"run": "fresh", "paper": "PAPER", "rubric": "RUBRIC", "model": "\\udfff"}'],
        b"",
    ),
    (["tool", "make\ncoffee", "--args", "{}"], b""),
    (["tool", "get_state", "--run", "RUN\udcff", "--args", "{}"], b""),
]


def _fill(text: str, targets: Targets) -> str:
    for name, path in (("RUBRIC", targets.rubric), ("PAPER", targets.paper), ("RUN", targets.run)):
        text = text.replace(name, str(path))
    return text


@pytest.mark.parametrize(("argv", "stdin"), HARD_CASES, ids=[repr(case)[:60] for case in HARD_CASES])
def test_the_hardest_cases_through_the_installed_script(
    argv: list[str], stdin: bytes, fuzz_targets: Targets, tmp_path: Path
) -> None:
    argv = [_fill(part, fuzz_targets) for part in argv]
    stdin = _fill(stdin.decode("utf-8", "surrogateescape"), fuzz_targets).encode("utf-8", "surrogateescape")
    guard = Guard(fuzz_targets)
    guard.snapshot()
    done = subprocess.run(
        [SCRIPT, *(os.fsencode(part) for part in argv)],
        input=stdin,
        capture_output=True,
        cwd=fuzz_targets.scratch,
        check=False,
    )
    assert check_output(done.returncode, done.stdout, done.stderr, repr(argv)), "a hard case was accepted"
    guard.after(True, repr(argv))
