"""`credencegraph-extract calibrate RUN[=KEY] ... --rubric FILE --out FILE --version V --date D`: a rubric fitted
on labelled runs (cgx_core.calibration), written over the rubric given, with the scores before and after.

The text printed is the fit (each fitted value and its counts, what kept the rubric's value) and the scores;
`--json FILE` writes the same as JSON (benchmarks and docs read it). Every file is written by temp file and
rename. Exit status 0, or 2 with one `error [code]: message` line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.errors import CgxError

WAYS = {
    "in_sample": "in sample",
    "leave_one_run_out": "leaving each run out",
    "leave_one_paper_out": "leaving each paper out",
    "held_out": "held out",
}


def calibrate_command(
    runs: Sequence[str],
    *,
    rubric: str,
    out: str,
    version: str,
    date: str,
    held_out: Sequence[str],
    counts: str | None,
    json_file: str | None,
    baseline: str | None = None,
) -> int:
    from cgx_core.calibration.calibrate import calibrate
    from cgx_core.calibration.counts import read_extra
    from cgx_core.calibration.labels import load_run, parse_run_argument, read_key
    from cgx_core.calibration.rubric_file import parse_date
    from cgx_core.run.atomic import write_atomic

    on = parse_date(date)
    held = {Path(item).resolve() for item in held_out}
    labelled = []
    for argument in runs:
        path, key = parse_run_argument(argument)
        labelled.append(load_run(path, read_key(key) if key else None, held_out=path.resolve() in held))
    extra = read_extra(Path(counts)) if counts else None
    text = _rubric_text(Path(rubric))
    before = _rubric_text(Path(baseline)) if baseline else None
    made = calibrate(labelled, text, version=version, on=on, extra=extra, baseline=before)
    write_atomic(Path(out), made.rubric.encode("utf-8"))
    if json_file:
        data = json.dumps(made.to_json(), indent=2, sort_keys=True) + "\n"
        write_atomic(Path(json_file), data.encode("utf-8"))
    results().write(_summary(made.to_json(), out))
    return ExitCode.OK


def _rubric_text(path: Path) -> str:
    from cgx_core.codes import Code

    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CgxError(Code.RUBRIC_NOT_FOUND, f"no rubric {path.name}") from None
    except UnicodeDecodeError:
        raise CgxError(Code.RUBRIC_INVALID, f"{path.name} is not UTF-8 text") from None


def _summary(made: dict[str, object], out: str) -> str:
    """What a person reads: what the rubric was fitted on, each value, and the scores."""
    lines = [f"calibrated against {made['against']}"]
    fitted = made["fitted"]
    counts = made["counts"]
    assert isinstance(fitted, dict) and isinstance(counts, dict)
    for name, value in sorted(fitted["sensitivity"].items()):
        seen = counts["checks"][name]
        lines.append(
            f"  {name}: sensitivity {value} (on true nodes {seen['on_true']}), false_pass {fitted['false_pass'][name]} "
            f"(on false nodes {seen['on_false']})"
        )
    for name, value in sorted(fitted["bases"].items()):
        seen = counts["bases"][name]
        where = "premises" if name == "premises" else f"types.{name}"
        lines.append(f"  {where}.base: {value} ({seen['true']} true, {seen['false']} false)")
    for name, value in sorted(fitted["strengths"].items()):
        seen = counts["propagation"][name]
        with_one = f"with one false parent: {seen['true']} true, {seen['false']} false"
        lines.append(f"  types.{name}.rests_on.strength: {value} ({with_one})")
    for name, why in sorted(fitted["kept"].items()):
        lines.append(f"  {name}: kept ({why})")
    lines.append("scores (lower is better)         Brier before -> after    log loss before -> after    nodes")
    scores = made["scores"]
    assert isinstance(scores, dict)
    for way, sides in scores.items():
        before, after = sides["before"], sides["after"]
        lines.append(
            f"  {WAYS[way]:<30} {before['brier']:.4f} -> {after['brier']:.4f}        "
            f"{before['log_loss']:.4f} -> {after['log_loss']:.4f}            {after['nodes']}"
        )
    against = made["against_verdict"]
    assert isinstance(against, dict)
    raised = {run: found["fails"] for run, found in against.items() if found.get("fails")}
    for run, nodes in raised.items():
        lines.append(f"  failing nodes raised in {run}: {', '.join(nodes)}")
    if not raised:
        lines.append("  no failing node's credence rises in any run")
    for run, found in against.items():
        if found.get("holds"):
            lines.append(
                f"  holding nodes lowered in {run} (a failed parent, or a false node one aspect of which passed): "
                f"{', '.join(found['holds'])}"
            )
    lines.append(f"wrote {out}")
    return "\n".join(lines) + "\n"
