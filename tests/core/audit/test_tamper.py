"""Tamper evidence: every edit of a finished run listed in docs/guarantees.md is detected by replay or verify,
with the code the table there gives; a broken hash chain stops every changing call; an edited state.json is
never served or built on."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.base.digests import bytes_digest, file_digest
from cgx_core.errors import CgxError
from cgx_core.run.finished import derived_json
from cgx_core.run.layout import RunPaths
from cgx_core.run.log import LogLine
from cgx_core.run.manifest import write_manifest
from cgx_core.run.state import state_bytes
from cgx_core.run.transaction import Run
from cgx_core.tooling.registry import call_tool, handler_for
from support import EXAMPLE_PREMISES, EXAMPLE_RECORDS, call, start_example, tree


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("tamper") / "run"
    start_example(run, store_source=True)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    assert call(run, "add_premises", records=EXAMPLE_PREMISES)["refused"] == []
    proposals = [{"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"}]
    assert call(run, "run_checks", proposals=proposals)["refused"] == []
    call(run, "run_checks", proposals=[{"type": "no-such-check", "target": "s-01"}])  # a refusal to keep
    assert call(run, "finish_run")["finished"] is True
    return run


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(finished, target)
    return target


def lines(run: Path) -> list[bytes]:
    return (run / "calls.jsonl").read_bytes().splitlines(keepends=True)


def rechain(raw: list[bytes], start: int) -> list[bytes]:
    """The lines with every `prev` from line `start` on recomputed: a forger who knows the format."""
    out = raw[:start]
    previous = bytes_digest(out[-1].rstrip(b"\n")) if out else None
    for data in raw[start:]:
        line = LogLine.from_json({**json.loads(data), "prev": previous}).to_bytes()
        out.append(line + b"\n")
        previous = bytes_digest(line)
    return out


def edit_last_line(run: Path) -> None:
    raw = lines(run)
    raw[-1] = raw[-1].replace(b'"model":"test-model"', b'"model":"other-model"')
    (run / "calls.jsonl").write_bytes(b"".join(raw))


def adjust_state(run: Path) -> None:
    """Make state.json agree with the log's (edited) last line, as a careful forger would."""
    raw = lines(run)
    state = json.loads((run / "state.json").read_bytes())
    state["log"] = {"end": sum(len(line) for line in raw), "last": bytes_digest(raw[-1].rstrip(b"\n"))}
    state["seq"] = len(raw)
    (run / "state.json").write_text(json.dumps(state, separators=(",", ":")))


def delete_last(count: int) -> Callable[[Path], None]:
    def edit(run: Path) -> None:
        (run / "calls.jsonl").write_bytes(b"".join(lines(run)[:-count]))

    return edit


def rewrite_with_chain(run: Path) -> None:
    raw = lines(run)
    raw[1] = raw[1].replace(b'"model":"test-model"', b'"model":"other-model"')
    (run / "calls.jsonl").write_bytes(b"".join(rechain(raw, 1)))


def edit_file(name: str) -> Callable[[Path], None]:
    def edit(run: Path) -> None:
        path = run / name
        data = json.loads(path.read_bytes())
        if name == "ingested.json":
            data["nodes"][0]["statement"] = "An edited sentence."
        elif name == "report.json":
            data["verdicts"]["holds"] = data["verdicts"].get("holds", 0) + 1
        path.write_text(json.dumps(data, indent=2))

    return edit


def replace_rejections(run: Path) -> None:
    data = json.loads((run / "rejections.json").read_bytes())
    data["rejections"] = []
    (run / "rejections.json").write_text(json.dumps(data, indent=2) + "\n")


def and_manifest(edit: Callable[[Path], None], name: str) -> Callable[[Path], None]:
    """The edit, then the manifest's digest of the file adjusted to it."""

    def both(run: Path) -> None:
        edit(run)
        manifest = json.loads((run / "manifest.json").read_bytes())
        if name == "ingested.json":
            manifest["ingested"] = file_digest(run / name)
        else:
            manifest["finished"]["files"][name] = file_digest(run / name)
        (run / "manifest.json").write_bytes(derived_json(manifest))

    return both


def edit_manifest(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    """An edit of manifest.json alone, written as this package writes it."""

    def edit(run: Path) -> None:
        manifest = json.loads((run / "manifest.json").read_bytes())
        change(manifest)
        write_manifest(RunPaths(run), manifest)

    return edit


def edit_tolerances(run: Path) -> None:
    """A looser hedge tolerance, with the manifest's digest of the file recomputed."""
    path = run / "tolerances.toml"
    path.write_text(path.read_text(encoding="utf-8") + '"roughly" = "90%"\n', encoding="utf-8")
    edit_manifest(lambda manifest: manifest["tolerances"].update(digest=file_digest(path)))(run)


def extra_check_folder(run: Path) -> None:
    """A checks/c-NNN folder no check of the run names (a copy of a real one, passing)."""
    shutil.copytree(run / "checks" / "c-001", run / "checks" / "c-009")


def extra_file(name: str) -> Callable[[Path], None]:
    """A file the run never writes, added at `name` (relative to the run)."""

    def edit(run: Path) -> None:
        (run / name).write_bytes(b"an extra file\n")

    return edit


def edit_state(change: Callable[[bytes], bytes | None]) -> Callable[[Path], None]:
    """state.json deleted (`change` gives None) or replaced by what `change` makes of its bytes."""

    def edit(run: Path) -> None:
        made = change((run / "state.json").read_bytes())
        if made is None:
            (run / "state.json").unlink()
        else:
            (run / "state.json").write_bytes(made)

    return edit


def earlier_seq(data: bytes) -> bytes:
    state = json.loads(data)
    state["seq"] -= 1
    return json.dumps(state, separators=(",", ":")).encode()


def cut_back(run: Path) -> None:
    """A finished run made to look unfinished: its last three calls (a check, a refusal, the finish) cut from the
    log, the finish removed from the manifest, the derived files deleted and state.json rebuilt from what is left,
    as a forger who knows the format would; the check folder the dropped call wrote is left."""
    (run / "calls.jsonl").write_bytes(b"".join(lines(run)[:-3]))
    edit_manifest(lambda manifest: manifest.pop("finished"))(run)
    for name in ("graph.json", "rejections.json", "report.json", "state.json"):
        (run / name).unlink()
    built = Run(run, handler_for)
    (run / "state.json").write_bytes(state_bytes(built.current(), built.digester))


def replayed(run: Path) -> str:
    """What replay says: `identical`, `diverged: <where>`, or the code it refuses with."""
    try:
        report = replay(run, source=None, sources=None)
    except CgxError as error:
        return str(error.code)
    return "identical" if report.identical else f"diverged: {report.body['diverged']}"


def verified(run: Path) -> str:
    """What verify says: `clean`, `differences`, or the code it refuses with."""
    verdict = verify_run(run)
    if verdict.error is not None:
        return verdict.error["code"]
    return "differences" if verdict.differences else "clean"


CASES: dict[str, tuple[Callable[[Path], None], str, str]] = {
    # edit: (how, what replay says, what verify says); docs/guarantees.md has the same table
    "last line edited": (edit_last_line, "tampered", "tampered"),
    "last line edited, state.json adjusted": (
        lambda run: (edit_last_line(run), adjust_state(run)),
        "tampered",
        "tampered",
    ),
    "last line deleted": (delete_last(1), "tampered", "tampered"),
    "last two lines deleted": (delete_last(2), "tampered", "tampered"),
    "a line rewritten, chain recomputed": (rewrite_with_chain, "tampered", "tampered"),
    "a line rewritten, chain left": (
        lambda run: (run / "calls.jsonl").write_bytes(
            b"".join(
                line.replace(b'"model":"test-model"', b'"model":"other"', 1) if n == 1 else line
                for n, line in enumerate(lines(run))
            )
        ),
        "run-corrupt",
        "run-corrupt",
    ),
    "ingested.json edited": (edit_file("ingested.json"), "tampered", "tampered"),
    "ingested.json edited, manifest adjusted": (
        and_manifest(edit_file("ingested.json"), "ingested.json"),
        "diverged: ingest",
        "clean",
    ),
    "report.json edited": (edit_file("report.json"), "tampered", "tampered"),
    "report.json edited, manifest adjusted": (
        and_manifest(edit_file("report.json"), "report.json"),
        "diverged: report.json",
        "clean",
    ),
    "rejections.json replaced": (replace_rejections, "tampered", "tampered"),
    "rejections.json replaced, manifest adjusted": (
        and_manifest(replace_rejections, "rejections.json"),
        "diverged: rejections.json",
        "clean",
    ),
    "graph.json edited, manifest adjusted": (
        and_manifest(
            lambda run: (run / "graph.json").write_text(
                (run / "graph.json").read_text().replace("The noise", "The edited noise", 1)
            ),
            "graph.json",
        ),
        "diverged: graph.json",
        "differences",
    ),
    "tolerances.toml edited, manifest digest adjusted": (edit_tolerances, "tampered", "tampered"),
    "the manifest's versions rewritten": (
        edit_manifest(lambda manifest: manifest["versions"].update(credencegraph="9.9.9")),
        "tampered",
        "tampered",
    ),
    "the manifest's limits rewritten": (
        edit_manifest(lambda manifest: manifest["limits"]["ingest"].update(cpu_seconds=59)),
        "tampered",
        "tampered",
    ),
    "an extra checks/c-NNN folder": (extra_check_folder, "tampered", "tampered"),
    # issue 38: every file of the run
    "state.json deleted": (edit_state(lambda data: None), "tampered", "tampered"),
    "state.json truncated": (edit_state(lambda data: data[: len(data) // 2]), "tampered", "tampered"),
    "state.json's seq changed": (edit_state(earlier_seq), "tampered", "tampered"),
    "an extra file in checks/c-001/": (extra_file("checks/c-001/notes.txt"), "tampered", "tampered"),
    "an extra file in cited/": (extra_file("cited/extra.txt"), "tampered", "tampered"),
    "an extra file in source/": (extra_file("source/extra.tex"), "tampered", "tampered"),
    "an extra file in the run's folder": (extra_file("notes.txt"), "tampered", "tampered"),
    "an extra field in the manifest": (
        edit_manifest(lambda manifest: manifest.update(note="x")),
        "tampered",
        "tampered",
    ),
    "an extra field in the manifest's rubric": (
        edit_manifest(lambda manifest: manifest["rubric"].update(author="x")),
        "tampered",
        "tampered",
    ),
    "the manifest re-serialised": (
        lambda run: (run / "manifest.json").write_text(json.dumps(json.loads((run / "manifest.json").read_bytes()))),
        "tampered",
        "tampered",
    ),
    "the manifest's rubric name rewritten": (
        edit_manifest(lambda manifest: manifest["rubric"].update(name="another-rubric")),
        "tampered",
        "tampered",
    ),
    ".lock edited": (extra_file(".lock"), "tampered", "tampered"),
    "a garbage line after the anchored log": (
        lambda run: (run / "calls.jsonl").write_bytes((run / "calls.jsonl").read_bytes() + b"garbage\n"),
        "tampered",
        "tampered",
    ),
    "cut back to an unfinished run, a dropped call's check folder left": (cut_back, "tampered", "not-finished"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_edit_of_a_finished_run_is_detected(copy: Path, case: str) -> None:
    edit, by_replay, by_verify = CASES[case]
    assert replayed(copy) == "identical" and verified(copy) == "clean"
    edit(copy)
    assert (replayed(copy), verified(copy)) == (by_replay, by_verify)
    assert "identical" not in by_replay or "clean" not in by_verify  # every edit is seen by one or the other


def test_the_manifest_anchors_the_log_at_finish(finished: Path) -> None:
    manifest = json.loads((finished / "manifest.json").read_bytes())
    raw = lines(finished)
    assert manifest["finished"]["log"] == {
        "calls": len(raw),
        "bytes": len(b"".join(raw)),
        "head": bytes_digest(raw[-1].rstrip(b"\n")),
    }


def test_an_edit_that_removes_the_anchor_is_itself_detected(copy: Path) -> None:
    manifest = json.loads((copy / "manifest.json").read_bytes())
    del manifest["finished"]["log"]
    (copy / "manifest.json").write_text(json.dumps(manifest, indent=2))
    verdict = verify_run(copy)
    assert verdict.error is not None and verdict.error["code"] == "tampered"
    assert "records no anchor of the log" in verdict.error["message"]


def test_a_broken_chain_stops_every_changing_call(copy: Path) -> None:
    # state.json still matches the log's last line, so a call used to read only what follows it.
    raw = lines(copy)
    raw[2] = raw[2].replace(b'"model":"test-model"', b'"model":"tost-model"', 1)  # same length
    (copy / "calls.jsonl").write_bytes(b"".join(raw))
    before = tree(copy)
    for tool, arguments in (("classify", {"records": [{"node": "s-09", "type": "assumption"}]}), ("finish_run", {})):
        payload, is_error = call_tool(tool, {"run": str(copy), "model": "m", **arguments})
        assert is_error, payload
        assert payload["error"]["code"] == "run-corrupt"
        assert payload["error"]["message"].startswith("calls.jsonl: the hash chain breaks at call 4")
        assert "No call can change this run" in payload["error"]["message"]
    assert tree(copy) == before


def edit_state_graph(run: Path) -> None:
    state = json.loads((run / "state.json").read_bytes())
    node = next(node for node in state["graph"]["nodes"] if node["id"] == "s-12")
    node["kind"] = "method"  # the wrong number retyped behind the log's back
    (run / "state.json").write_text(json.dumps(state, separators=(",", ":")))


def test_get_state_never_serves_an_edited_state_json(copy: Path) -> None:
    edit_state_graph(copy)
    seen, is_error = call_tool("get_state", {"run": str(copy), "nodes": ["s-12"]})
    assert not is_error, seen
    assert seen["nodes"][0]["type"] == "result"  # rebuilt from the log, not the edited file


def test_a_changing_call_rebuilds_an_edited_state_json_from_the_log_and_says_so(copy: Path) -> None:
    edit_state_graph(copy)
    result = call(copy, "classify", records=[{"node": "s-09", "type": "assumption"}])
    assert "error" not in result, result
    assert result["recovery"]["state"] == (
        "state.json is not the state call 6 left (its graph or fields were edited): rebuilt from the log"
    )
    state: dict[str, Any] = json.loads((copy / "state.json").read_bytes())
    assert next(node for node in state["graph"]["nodes"] if node["id"] == "s-12")["kind"] == "result"
    assert replay(copy, source=None, sources=None).identical


def test_replay_of_an_unfinished_run_sees_a_deleted_last_line(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run, store_source=True)
    call(run, "classify", records=EXAMPLE_RECORDS)
    delete_last(1)(run)  # state.json still reflects call 2
    report = replay(run, source=None, sources=None)
    assert not report.identical
    assert report.body["diverged"] == "state"
    assert report.body["how"].startswith("state.json reflects call 2, but the log ends at call 1")


def test_an_edit_of_what_start_run_recorded_names_the_field_and_an_extra_check_folder_names_the_folder(
    copy: Path,
) -> None:
    edit_tolerances(copy)
    extra_check_folder(copy)
    verdict = verify_run(copy)
    assert verdict.error is not None and verdict.error["code"] == "tampered"
    message = verdict.error["message"]
    assert "'run/manifest.json': its tolerances differ from what start_run recorded in the log (call 1)" in message
    assert "'run/checks/c-009' is not a check of the run" in message


def made_before_the_log_recorded_the_manifest(run: Path) -> None:
    """The run as this package made it before issue 29: start_run's line without tolerances, limits and
    versions (the chain, the anchor and state.json as they were then)."""
    raw = lines(run)
    first = json.loads(raw[0])
    for name in ("tolerances", "limits", "versions"):
        del first["args"][name]
    raw[0] = LogLine.from_json(first).to_bytes() + b"\n"
    raw = rechain(raw, 1)
    (run / "calls.jsonl").write_bytes(b"".join(raw))
    edit_manifest(
        lambda manifest: manifest["finished"]["log"].update(
            bytes=len(b"".join(raw)), head=bytes_digest(raw[-1].rstrip(b"\n"))
        )
    )(run)
    adjust_state(run)


def test_a_run_made_before_the_log_recorded_the_manifest_verifies_and_says_what_it_cannot_prove(copy: Path) -> None:
    made_before_the_log_recorded_the_manifest(copy)
    verdict = verify_run(copy)
    assert verdict.error is None and verdict.differences == (), verdict
    note = (
        "made before its log recorded the manifest's tolerances and limits and versions: an edit of those in "
        "manifest.json (and of tolerances.toml, with its digest) cannot be detected; a run made now records them"
    )
    assert verdict.notes == (note,)
    report = replay(copy, source=None, sources=None)
    assert report.identical and report.body["notes"] == [note], report.body
    edit_manifest(lambda manifest: manifest["versions"].update(credencegraph="9.9.9"))(copy)
    assert verify_run(copy).notes == (note,)  # not detected, and the note says so
    extra_check_folder(copy)  # what the log's graph anchors is still checked
    assert verified(copy) == "tampered"


def test_a_check_folder_left_by_a_call_that_never_committed_is_removed_by_the_next_call(copy: Path) -> None:
    extra_check_folder(copy)  # as a run_checks killed between writing its files and its commit leaves them
    assert call(copy, "classify", records=[{"node": "s-09", "type": "assumption"}])["refused"] == []
    assert not (copy / "checks" / "c-009").exists() and (copy / "checks" / "c-001").is_dir()
    assert call(copy, "finish_run")["finished"] is True
    assert verified(copy) == "clean"


def test_a_check_made_after_the_finish_is_no_extra_folder_the_run_went_on(copy: Path) -> None:
    proposals = [{"type": "recompute-numbers", "target": "s-13", "expression": "1200 * 75", "result": "90000"}]
    [check] = call(copy, "run_checks", proposals=proposals)["checks"]  # reopens the finished run
    assert (copy / "checks" / check["id"]).is_dir()
    assert verified(copy) == "not-finished"
    assert replayed(copy) == "identical"
