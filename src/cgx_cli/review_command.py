"""`credencegraph-extract review RUN --node ID --verdict V --reviewer NAME --reason TEXT`: a person's review.

It makes the `review` tool call, logged like any other. Run by a person at a terminal (its standard input is
one), the call is recorded as entered by the person, with the model `person`; with `--agent-model MODEL` it is
recorded as entered by an agent running MODEL. Without a terminal and without `--agent-model` it is refused
(`not-a-terminal`): an agent runs commands without a terminal, and its review must not pass for a person's.
A review reopens a finished run (a refused one too: it is logged with its refusal), so the command finishes
it again (a second logged call, by the same hands) unless `--no-finish` is given, and the report can be made
straight away.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_cli.tool_command import printed
from cgx_core.tooling.output import result_text

PERSON_MODEL = "person"


def _was_finished(run: str) -> bool:
    from cgx_core.errors import CgxError
    from cgx_core.run.layout import RunPaths
    from cgx_core.run.manifest import read_manifest

    try:
        return bool(read_manifest(RunPaths(Path(run))).get("finished"))
    except CgxError:
        return False  # the review call itself reports what is wrong with the directory


def review_command(
    run: str,
    *,
    node: str | None,
    check: str | None,
    verdict: str,
    reviewer: str,
    reason: str,
    agent_model: str | None,
    finish: bool,
    wait: float,
) -> int:
    from cgx_core.codes import Code
    from cgx_core.tooling.registry import call_tool

    by_person = agent_model is None
    if by_person and (sys.stdin is None or not sys.stdin.isatty()):
        print_error(
            Code.NOT_A_TERMINAL,
            "a review is recorded as the person's only when they enter it at a terminal, and standard input is not "
            "one: run this command yourself in a terminal, or, as an agent entering a person's verdict, pass "
            "--agent-model with your model",
        )
        return ExitCode.ERROR
    finished_before = _was_finished(run)
    arguments: dict[str, Any] = {
        "run": run,
        "verdict": verdict,
        "reviewer": reviewer,
        "reason": reason,
        "model": agent_model or PERSON_MODEL,
    }
    if node is not None:
        arguments["node"] = node
    if check is not None:
        arguments["check"] = check
    reviewed, is_error = call_tool("review", arguments, wait=wait, by_person=by_person)
    if is_error:
        return printed(reviewed, is_error=True)
    out: dict[str, Any] = {"review": reviewed}
    # A refused review is logged too (with its refusal), so it reopens a finished run all the same.
    if finished_before and finish:
        finished, is_error = call_tool("finish_run", {"run": run, "model": arguments["model"]}, wait=wait)
        if is_error:
            return printed({**out, **finished}, is_error=True)
        out["finish_run"] = finished
    results().write(result_text(out) + "\n")
    if reviewed["refused"]:
        refusal = reviewed["refused"][0]
        print_error(refusal["code"], f"{refusal['message']}; {refusal['fix']}")
        return ExitCode.ERROR
    return ExitCode.OK
