"""`credencegraph-extract batch`: many calls in one process, each logged as its own call, each answered on
one line with the bytes `tool` prints; a failed line does not stop the others unless asked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support import EXAMPLE, EXAMPLE_PREMISES, EXAMPLE_RECORDS, EXAMPLE_RUBRIC

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


def batch(*argv: str, stdin: str | bytes = b"") -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([CLI, "batch", *argv], input=data, capture_output=True, check=False)


def line(tool: str, **args: Any) -> str:
    return json.dumps({"tool": tool, "args": args})


def log_lines(run: Path) -> list[dict[str, Any]]:
    return [json.loads(item) for item in (run / "calls.jsonl").read_bytes().splitlines()]


@pytest.fixture
def started(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    arguments = {"paper": str(EXAMPLE / "paper.tex"), "rubric": str(EXAMPLE_RUBRIC), "model": "m"}
    done = batch("--run", str(run), stdin=line("start_run", **arguments) + "\n")
    assert done.returncode == 0, done.stderr
    return run


def test_each_line_is_its_own_logged_call_answered_in_order_as_tool_answers_it(started: Path) -> None:
    lines = [
        line("classify", records=EXAMPLE_RECORDS[:5], model="m"),
        "",  # blank lines are skipped
        line("classify", records=EXAMPLE_RECORDS[5:], model="m", note="the rest"),
        line("add_premises", records=EXAMPLE_PREMISES, model="m"),
        line("get_state", limit=2),
    ]
    done = batch("--run", str(started), stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    answers = done.stdout.decode().splitlines()
    assert len(answers) == 4
    assert [entry["tool"] for entry in log_lines(started)] == ["start_run", "classify", "classify", "add_premises"]
    assert log_lines(started)[2]["note"] == "the rest"
    alone = subprocess.run(
        [CLI, "tool", "get_state", "--run", str(started), "--args", '{"limit": 2}'], capture_output=True, check=False
    )
    assert answers[3].encode() + b"\n" == alone.stdout


def test_a_failed_line_is_answered_with_its_error_and_the_others_still_run(started: Path, tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        "\n".join(
            [
                line("classify", records=EXAMPLE_RECORDS, model="m"),
                "{not json",
                json.dumps({"tool": "get_state", "args": {}, "colour": "red"}),
                line("make_coffee"),
                line("get_state", limit="ten"),
                line("add_premises", records=EXAMPLE_PREMISES, model="m"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    done = batch(str(calls), "--run", str(started))
    assert done.returncode == 2
    answers = [json.loads(item) for item in done.stdout.decode().splitlines()]
    assert [answer.get("error", {}).get("code") for answer in answers] == [
        None,
        "invalid-json",
        "invalid-arguments",
        "unknown-tool",
        "invalid-arguments",
        None,
    ]
    errors = done.stderr.decode().splitlines()
    assert [item.split(":")[0] for item in errors] == ["line 2", "line 3", "line 4", "line 5"]
    assert all(": error [" in item for item in errors)
    assert [entry["tool"] for entry in log_lines(started)] == ["start_run", "classify", "add_premises"]


def test_stop_on_error_stops_at_the_first_failed_line(started: Path) -> None:
    lines = [
        line("get_state", limit=1),
        line("get_state", limit=0),
        line("classify", records=EXAMPLE_RECORDS, model="m"),
    ]
    done = batch("--run", str(started), "--stop-on-error", stdin="\n".join(lines) + "\n")
    assert done.returncode == 2
    assert len(done.stdout.decode().splitlines()) == 2
    assert "stopped at line 2" in done.stderr.decode()
    assert [entry["tool"] for entry in log_lines(started)] == ["start_run"]


def test_a_line_that_is_not_utf8_is_an_error_of_that_line_alone(started: Path) -> None:
    done = batch(
        "--run", str(started), stdin=b'{"tool": "get_state", "args": {"type": "\xff"}}\n' + line("get_state").encode()
    )
    assert done.returncode == 2
    first, second = done.stdout.decode().splitlines()
    assert json.loads(first)["error"]["code"] == "invalid-json"
    assert "run" in json.loads(second)


def test_a_batch_file_that_does_not_exist_is_one_error_line(tmp_path: Path) -> None:
    done = batch(str(tmp_path / "missing.jsonl"))
    assert done.returncode == 2
    assert (
        done.stderr.decode() == "error [io-error]: cannot read the batch 'missing.jsonl': No such file or directory\n"
    )
    assert done.stdout == b""
