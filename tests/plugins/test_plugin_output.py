"""A plugin that prints cannot break a command's result: whatever its import, its registration or its check
code writes to stdout (print(), or a raw write to fd 1) goes to stderr, and stdout holds the JSON a shell
harness or an MCP client parses, in every front end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cgx_core.checks.installed import build_plugin_manager, build_registry, check_types_scope
from cgx_core.testing import StartedRun

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))

CHECKS = """
[checks.noisy]
description = "A check type that prints everywhere."
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""

NOISY = """
import os
from cgx_core.plugin_api import Outcome, Prepared, hookimpl

print("NOISE-import")
os.write(1, b"NOISE-fd-import\\n")


class Noisy:
    name = "noisy"
    tool = "run_checks"
    description = "Prints, then passes."
    proposal_schema = {"properties": {}, "additionalProperties": False}

    def prepare(self, proposal, run):
        print("NOISE-prepare")
        return Prepared(proposal["target"], {"target": proposal["target"]})

    def run(self, prepared, run, *, model):
        print("NOISE-run", flush=True)
        os.write(1, b"NOISE-fd-run\\n")
        return Outcome("passed", "it printed")

    def rerun(self, inputs, run):
        print("NOISE-rerun")
        return Outcome("passed", "it printed")


@hookimpl
def cgx_register_check_types(register):
    print("NOISE-register")
    register(Noisy())
"""


RECORDS: list[dict[str, Any]] = [
    {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-8"], "hedge": "We show"},
    {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
    {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    {"node": "s-4", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-5", "type": "derivation"},
    {"node": "s-6", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-8"], "hedge": "likely"},
    {"node": "s-7", "type": "literature_claim"},
    {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
]


def cli(environment: dict[str, str], *arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLI, *arguments], input=stdin, capture_output=True, text=True, check=False, env=environment, timeout=300
    )


def assert_clean(done: subprocess.CompletedProcess[str], *noise: str) -> list[Any]:
    """stdout is JSON lines and nothing else; the noise went to stderr."""
    assert "NOISE" not in done.stdout, done.stdout
    for word in noise:
        assert word in done.stderr, (word, done.stderr)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_what_a_plugin_prints_goes_to_stderr_in_every_command_and_over_mcp(
    fake_distribution: Any, cgx_run: Callable[..., StartedRun]
) -> None:
    site = fake_distribution("cgx-noisy", NOISY)
    registry = build_registry(build_plugin_manager())
    with check_types_scope(registry):
        run = cgx_run(rubric_extra=CHECKS)
        assert run.call("classify", records=RECORDS)["refused"] == []
    registry.worker.close()
    environment = {**os.environ, "PYTHONPATH": str(site)}

    [listing] = assert_clean(cli(environment, "plugins"), "NOISE-import", "NOISE-fd-import", "NOISE-register")
    assert "noisy" in {item["name"] for item in listing["check_types"]}
    assert_clean(cli(environment, "tools"), "NOISE-import")
    proposal = {"proposals": [{"type": "noisy", "target": "s-8"}], "model": "m"}
    [called] = assert_clean(
        cli(environment, "tool", "run_checks", "--run", str(run.path), "--args", json.dumps(proposal)),
        "NOISE-prepare",
        "NOISE-run",
        "NOISE-fd-run",
    )
    assert [check["result"] for check in called["checks"]] == ["passed"], called
    batch = "".join(
        json.dumps(line) + "\n"
        for line in (
            {"tool": "get_state", "args": {"limit": 1}},
            {"tool": "run_checks", "args": {**proposal, "proposals": [{"type": "noisy", "target": "s-3"}]}},
            {"tool": "finish_run", "args": {"model": "m"}},
        )
    )
    answers = assert_clean(cli(environment, "batch", "--run", str(run.path), stdin=batch), "NOISE-run")
    assert len(answers) == 3 and all("error" not in answer for answer in answers), answers
    [replayed] = assert_clean(cli(environment, "replay", str(run.path), "--source", str(run.paper)), "NOISE-import")
    assert replayed["identical"] is True
    verified = cli(environment, "verify", "--json", str(run.path))
    assert verified.returncode == 0, verified.stderr
    assert_clean(verified, "NOISE-rerun")
    frames = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "get_state", "arguments": {"run": str(run.path)}},
        },
    ]
    answered, stderr = serve(environment, frames, last=3)
    assert "NOISE" not in "".join(answered) and "NOISE-register" in stderr
    assert [json.loads(frame).get("id") for frame in answered] == [1, 2, 3]


def serve(environment: dict[str, str], frames: list[dict[str, Any]], last: int) -> tuple[list[str], str]:
    """The lines `credencegraph-extract mcp` writes until it answers request `last`, and its stderr."""
    server = subprocess.Popen(
        [CLI, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment
    )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write("".join(json.dumps(frame) + "\n" for frame in frames))
    server.stdin.flush()
    lines = []
    for line in server.stdout:
        lines.append(line)
        if json.loads(line).get("id") == last:
            break
    _, stderr = server.communicate(timeout=120)
    return lines, stderr


SLOW = """
import time
from cgx_core.plugin_api import hookimpl

time.sleep(0.8)


@hookimpl
def cgx_register_check_types(register):
    pass
"""


def test_a_slow_plugin_import_is_named_with_its_time_on_stderr(fake_distribution: Any) -> None:
    site = fake_distribution("cgx-slow", SLOW)
    done = cli({**os.environ, "PYTHONPATH": str(site)}, "plugins")
    json.loads(done.stdout)  # the listing is whole
    [warning] = [line for line in done.stderr.splitlines() if "to import" in line]
    assert warning.startswith("warning: the plugin 'cgx-slow' of cgx-slow 1.0 took ") and " s to import" in warning
