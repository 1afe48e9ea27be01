"""Build the labelled runs and calibrate the shipped rubric on them.

    uv run python calibration/build.py OUT [--only NAME ...] [--calibrate]

Each `calibration/runs/<name>.toml` is one labelled run: the paper it reads (a folder of the repository, copied
into OUT and edited there when the run plants errors), the session of calls an agent made on it
(`calibration/sessions/<file>.jsonl`, one `{"tool", "args"}` a line, as `batch` reads them; `run` and `model`
are filled in) and its key (the nodes false as written). The runs are made through the same tool layer an agent
calls, in this process, into `OUT/runs/<name>`, their keys written to `OUT/keys/<name>.toml`. Every refused
record is printed: a session written against older code shows where it drifted.

With `--calibrate`, `credencegraph-extract calibrate` fits `examples/rubrics/paper.toml` on every run (those
marked `held_out` kept out of the fit), adding the maths soundness corpus's counts
(`calibration/maths-corpus.json`), writes the rubric back with the version and date of `calibration/set.toml`,
and writes `calibration/result.json` (the counts, the fit and the scores against the hand-picked values the
rubric had before, `calibration/hand-picked.toml`). See calibration/README.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "calibration"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
MODEL = "labelled-set (an agent's session, replayed)"
RUN_FIELDS = {"paper", "main", "session", "edits", "key", "held_out", "cited", "sources", "root", "note"}


def spec(path: Path) -> dict[str, Any]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - RUN_FIELDS
    if unknown:
        raise SystemExit(f"{path.name}: unknown fields {sorted(unknown)}; a run has {sorted(RUN_FIELDS)}")
    return data


def planted_copy(name: str, data: dict[str, Any], out: Path) -> Path:
    """The paper's folder copied to OUT/papers/<name>, each edit applied (its text must occur exactly once)."""
    source = ROOT / data["paper"]
    copy = out / "papers" / name
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(source, copy)
    for edit in data.get("edits", []):
        target = copy / edit["file"]
        text = target.read_text(encoding="utf-8")
        if text.count(edit["old"]) != 1:
            raise SystemExit(f"{name}: {edit['file']} writes {edit['old']!r} {text.count(edit['old'])} times, not once")
        target.write_text(text.replace(edit["old"], edit["new"]), encoding="utf-8")
    return copy


def call(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    from cgx_core.tooling.registry import call_tool

    payload, _ = call_tool(tool, args)
    return payload


def build(name: str, data: dict[str, Any], out: Path) -> Path:
    paper = planted_copy(name, data, out)
    run = out / "runs" / name
    if run.exists():
        shutil.rmtree(run)
    run.parent.mkdir(parents=True, exist_ok=True)
    args: dict[str, Any] = {"run": str(run), "paper": str(paper / data["main"]), "rubric": str(RUBRIC), "model": MODEL}
    for folder in ("cited", "sources", "root"):
        if folder in data:
            args[folder] = str(paper / data[folder])
    started = call("start_run", args)
    if "error" in started:
        raise SystemExit(f"{name}: start_run: {started['error']}")
    refused = 0
    lines = (HERE / "sessions" / data["session"]).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        entry = json.loads(line)
        arguments = {"run": str(run), "model": MODEL, **entry.get("args", {})}
        result = call(entry["tool"], arguments)
        if "error" in result:
            print(f"{name}: line {number} ({entry['tool']}): error {result['error']}", file=sys.stderr)
            refused += 1
            continue
        for item in result.get("refused", []):
            print(f"{name}: line {number} ({entry['tool']}): refused {json.dumps(item)[:400]}", file=sys.stderr)
            refused += 1
    if not (run / "graph.json").is_file():
        finished = call("finish_run", {"run": str(run), "model": MODEL})
        if "error" in finished:
            raise SystemExit(f"{name}: finish_run: {finished['error']['message'][:2000]}")
    key = data.get("key", {})
    (out / "keys").mkdir(exist_ok=True)
    lines_out = [
        f"{field} = {json.dumps(key[field])}" for field in ("paper", "false", "unlabelled", "note") if field in key
    ]
    (out / "keys" / f"{name}.toml").write_text("\n".join(lines_out) + "\n", encoding="utf-8")
    print(f"{name}: built ({refused} refusals)")
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="where the papers, runs and keys are built")
    parser.add_argument("--only", action="append", default=[], help="build only this run (repeatable)")
    parser.add_argument("--calibrate", action="store_true", help="fit the shipped rubric on every run built")
    options = parser.parse_args()
    runs = sorted((HERE / "runs").glob("*.toml"))
    if options.only:
        runs = [path for path in runs if path.stem in options.only]
    built = {path.stem: (build(path.stem, spec(path), options.out), spec(path)) for path in runs}
    if not options.calibrate:
        return 0
    from cgx_cli.main import main as cli

    settings = tomllib.loads((HERE / "set.toml").read_text(encoding="utf-8"))
    argv = ["calibrate", *(f"{run}={options.out / 'keys' / f'{name}.toml'}" for name, (run, _) in built.items())]
    for run, data in built.values():
        if data.get("held_out"):
            argv += ["--held-out", str(run)]
    argv += [
        "--rubric",
        str(RUBRIC),
        "--out",
        str(RUBRIC),
        "--version",
        settings["version"],
        "--date",
        str(settings["date"]),
    ]
    argv += ["--counts", str(HERE / "maths-corpus.json"), "--json", str(HERE / "result.json")]
    argv += ["--baseline", str(HERE / "hand-picked.toml")]
    return cli(argv)


if __name__ == "__main__":
    raise SystemExit(main())
