"""The warm process (cgx_cli.warm): a shell harness's `tool` calls are served by a forked child of a server that
imported everything once, with the bytes a cold call gives, the caller's streams, signals and death, and never
with code that changed since the server started.

Each test has a server of its own, in a short folder of its own (a socket's path is limited to 108 bytes), and
stops it when it ends; the rest of the suite runs every command cold (tests/conftest.py).
"""

from __future__ import annotations

import json
import marshal
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_cli.warm import client, frames, place
from support import (
    EXAMPLE,
    EXAMPLE_PREMISES,
    EXAMPLE_RECORDS,
    EXAMPLE_RUBRIC,
    PATIENCE,
    alive,
    parent_of,
    start_lock_holder,
    wait_for,
)

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
ONE_RECORD = json.dumps({"records": EXAMPLE_RECORDS[:1], "model": "m"})


class Warm:
    """A folder for one test's warm server, and the environment of calls that use it."""

    def __init__(self, folder: Path, **extra: str) -> None:
        self.folder = folder
        self.env = {**os.environ, "CGX_WARM": "1", "CGX_WARM_DIR": str(folder), **extra}

    def run(self, *argv: str, env: dict[str, str] | None = None, **options: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.run([CLI, *argv], env=env or self.env, capture_output=True, text=True, check=False, **options)

    def log(self) -> str:
        return "".join(path.read_text() for path in sorted(self.folder.glob("*.log")))

    def served(self) -> int:
        return len(re.findall(r"^a call in pid \d+$", self.log(), re.MULTILINE))

    def pid(self) -> int | None:
        for lock in self.folder.glob("*.lock"):
            text = lock.read_text().split()
            if text and alive(int(text[0])):
                return int(text[0])
        return None

    def ready(self) -> int:
        """Wait until a server listens; its pid."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            pid = self.pid()
            if pid is not None and any(self.folder.glob("*.sock")):
                return pid
            time.sleep(0.05)
        raise AssertionError(f"no warm server started: {sorted(p.name for p in self.folder.iterdir())}\n{self.log()}")

    def stop(self) -> None:
        pid = self.pid()
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            wait_for(lambda: not alive(pid))


@pytest.fixture
def warm() -> Iterator[Warm]:
    folder = Path(tempfile.mkdtemp(prefix="cgxw-"))
    made = Warm(folder, CGX_WARM_IDLE_SECONDS="300")
    try:
        yield made
    finally:
        made.stop()
        shutil.rmtree(folder, ignore_errors=True)


def start_arguments(run: Path) -> str:
    paper, rubric = str(EXAMPLE / "paper.tex"), str(EXAMPLE_RUBRIC)
    return json.dumps({"run": str(run), "paper": paper, "rubric": rubric, "store_source": True, "model": "m"})


CHECKS = [
    {"type": "recompute-numbers", "target": "s-12", "cites": ["s-12"], "expression": "12 * 300", "result": "3000"},
    {
        "type": "rederive-maths",
        "target": "s-08",
        "symbols": {"gamma": ["positive"], "T": ["positive"]},
        "lhs": "(1 + gamma*T)^2",
        "rhs": "1 + 2*gamma*T + gamma^2*T^2",
    },
]


def session(warm: Warm, run: Path, env: dict[str, str]) -> list[tuple[int, str, str]]:
    """A session as a shell harness makes it: each call's status, stdout and stderr, the run's id and fence tokens
    replaced (a new run draws new ones)."""

    def on_run(tool: str, arguments: str) -> list[str]:
        return ["tool", tool, "--run", str(run), "--args", arguments]

    calls: list[tuple[list[str], str | None]] = [
        (["tool", "start_run", "--args", start_arguments(run)], None),
        (on_run("classify", json.dumps({"records": EXAMPLE_RECORDS, "model": "m"})), None),
        (on_run("add_premises", "-"), json.dumps({"records": EXAMPLE_PREMISES, "model": "m"})),
        (on_run("classify", '{"records": [{"node": "s-99"}], "model": "m"}'), None),
        (on_run("classify", "{not json"), None),
        (on_run("run_checks", json.dumps({"proposals": CHECKS, "model": "m"})), None),
        (on_run("get_state", '{"limit": 3}'), None),
        (["tool", "no_such_tool", "--run", str(run)], None),
    ]
    outputs: list[tuple[int, str, str]] = []
    for argv, stdin in calls:
        done = warm.run(*argv, env=env, input=stdin)
        outputs.append((done.returncode, done.stdout, done.stderr))
    run_id = json.loads((run / "manifest.json").read_text())["run"]
    tokens = {token for _, out, _ in outputs for token in re.findall(r'"token":"([0-9a-f]+)"', out)}

    def drawn(text: str) -> str:
        for token in tokens:
            text = text.replace(token, "TOKEN")
        return text.replace(run_id, "RUN")

    return [(status, drawn(out), drawn(err)) for status, out, err in outputs]


def test_calls_served_warm_give_the_bytes_a_cold_call_gives(warm: Warm, tmp_path: Path) -> None:
    warm.run("tool", "get_state", "--run", str(tmp_path / "none"))  # the first call runs cold and starts the server
    warm.ready()
    run = tmp_path / "run"
    served = session(warm, run, warm.env)
    assert warm.served() == len(served)
    shutil.move(run, tmp_path / "served")
    cold = session(warm, run, {**warm.env, "CGX_WARM": "0"})
    assert served == cold
    assert [status for status, _, _ in served] == [0, 0, 0, 0, 2, 0, 0, 2]
    assert "s-99" in served[3][1]  # a refused record, with its fix
    assert "error [invalid-json]" in served[4][2]
    assert '"failed"' in served[5][1] and '"passed"' in served[5][1]  # 12 * 300 is not 3000; the square is right
    assert "zygote: a worker for cgx_checks.maths.worker.tasks in pid" in warm.log()  # forked, not spawned
    # Every call's recorded result is the same, and the run served warm replays byte for byte.
    logged = [
        [json.loads(line)["result"] for line in (folder / "calls.jsonl").read_text().splitlines()[1:]]
        for folder in (tmp_path / "served", run)
    ]
    assert logged[0] == logged[1]
    replayed = warm.run("replay", str(tmp_path / "served"), env={**warm.env, "CGX_WARM": "0"})
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


STARTER = """
import os, sys
from cgx_cli.warm import client, place
client.start_server(place.address(os.environ, sys.path[1:]))  # as a session's first call does
print("started", flush=True)
sys.stdin.read()  # a long first call: it lasts until the test closes its stdin
"""


def test_a_new_server_imports_only_once_the_call_that_started_it_has_ended(warm: Warm) -> None:
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER], env=warm.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert starter.stdin is not None and starter.stdout is not None
    assert starter.stdout.readline() == "started\n"
    wait_for(lambda: warm.pid() is not None)  # the server runs and holds its lock
    time.sleep(1.0)
    assert not list(warm.folder.glob("*.sock")), warm.log()  # it waits: nothing imported, nothing bound
    starter.stdin.close()
    starter.wait()
    warm.ready()


def zygotes_of(warm: Warm) -> list[int]:
    """The pids of the zygotes whose socket is in this test's folder."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"cgx_cli.warm.zygote" in command and any(str(warm.folder).encode() in part for part in command):
                found.append(int(entry.name))
    return found


def test_the_servers_zygote_runs_beside_it_and_ends_with_it(warm: Warm, tmp_path: Path) -> None:
    warm.run("tool", "get_state", "--run", str(tmp_path / "none"))
    server = warm.ready()
    wait_for(lambda: len(zygotes_of(warm)) == 1)
    [zygote] = zygotes_of(warm)
    assert parent_of(zygote) == server
    warm.stop()
    wait_for(lambda: not alive(zygote))


def ignoring_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def heeding_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_passed_on_signal_ends_the_call_as_it_would_end_a_cold_one(warm: Warm, tmp_path: Path) -> None:
    run = tmp_path / "run"
    # The server is started by a call that ignores Ctrl-C (a background job's); a later caller that heeds it
    # still gets its call interrupted: the child takes the caller's dispositions, not the server's.
    started = warm.run("tool", "start_run", "--args", start_arguments(run), preexec_fn=ignoring_ctrl_c)
    assert started.returncode == 0
    warm.ready()
    holder = start_lock_holder(run)
    try:
        for number, status in ((signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)):
            before = warm.served()
            waiting = subprocess.Popen(
                [CLI, "tool", "classify", "--run", str(run), "--wait", "300", "--args", ONE_RECORD],
                env=warm.env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                preexec_fn=heeding_ctrl_c,
            )
            wait_for(lambda before=before: warm.served() > before)  # the child waits for the lock
            time.sleep(0.2)
            waiting.send_signal(number)
            out, err = waiting.communicate(timeout=PATIENCE)
            assert waiting.returncode == status, err
            if number == signal.SIGINT:
                assert "error [interrupted]" in err
                assert out == ""
            else:
                wait_for(lambda: f"was killed by signal {signal.SIGTERM}" in warm.log())
    finally:
        holder.kill()
        holder.wait()


def test_a_caller_killed_outright_takes_its_call_with_it(warm: Warm, tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert warm.run("tool", "start_run", "--args", start_arguments(run)).returncode == 0
    warm.ready()
    holder = start_lock_holder(run)
    try:
        waiting = subprocess.Popen(
            [CLI, "tool", "classify", "--run", str(run), "--wait", "300", "--args", ONE_RECORD],
            env=warm.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: warm.served() == 1)  # the child waits for the lock
        waiting.kill()
        waiting.wait()
        wait_for(lambda: "was killed by signal 9" in warm.log())
    finally:
        holder.kill()
        holder.wait()
    # The run is as it was: the killed call never took the lock, and the next call does.
    after = warm.run("tool", "classify", "--run", str(run), "--args", ONE_RECORD)
    assert after.returncode == 0, after.stderr
    assert len((run / "calls.jsonl").read_text().splitlines()) == 2


def test_code_that_changed_since_the_server_started_is_never_served(warm: Warm, tmp_path: Path) -> None:
    extra = tmp_path / "on-path"
    extra.mkdir()
    warm.env["PYTHONPATH"] = str(extra)
    run = tmp_path / "run"
    assert warm.run("tool", "start_run", "--args", start_arguments(run)).returncode == 0
    pid = warm.ready()
    assert warm.run("tool", "get_state", "--run", str(run)).returncode == 0
    assert warm.served() == 1
    (extra / "newly_installed.py").write_text("")  # a folder on the module path changed, as an install changes it
    done = warm.run("tool", "get_state", "--run", str(run))
    assert done.returncode == 0 and json.loads(done.stdout)["progress"]["calls"] == 1  # run cold, with the same answer
    assert "declined a call: the installed code changed since the server started" in warm.log()
    assert warm.served() == 1
    wait_for(lambda: not alive(pid))


def test_a_folder_others_may_enter_is_never_used(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cgxw-"))
    try:
        folder.chmod(0o755)
        unsafe = Warm(folder)
        for _ in range(2):
            assert unsafe.run("tool", "get_state", "--run", str(tmp_path / "none")).returncode == 2
        time.sleep(0.5)
        assert list(folder.iterdir()) == []
        linked = tmp_path / "link"
        (tmp_path / "real").mkdir(mode=0o700)
        linked.symlink_to(tmp_path / "real", target_is_directory=True)
        assert place.address({"CGX_WARM_DIR": str(linked)}, sys.path[1:]) is None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_warm_path_turned_off_starts_no_server(warm: Warm, tmp_path: Path) -> None:
    for value in ("0", "off", "No"):
        done = warm.run("tool", "get_state", "--run", str(tmp_path / "none"), env={**warm.env, "CGX_WARM": value})
        assert done.returncode == 2
    time.sleep(0.5)
    assert list(warm.folder.iterdir()) == []


def test_a_server_exits_when_idle_and_a_dead_ones_socket_is_replaced(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cgxw-"))
    idle = Warm(folder, CGX_WARM_IDLE_SECONDS="1")
    try:
        idle.run("tool", "get_state", "--run", str(tmp_path / "none"))
        pid = idle.ready()
        wait_for(lambda: not alive(pid))
        assert not list(folder.glob("*.sock"))
        assert "idle for 1 s: exiting" in idle.log()
        killed = Warm(folder, CGX_WARM_IDLE_SECONDS="300")
        killed.run("tool", "get_state", "--run", str(tmp_path / "none"))
        first = killed.ready()
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: not alive(first))
        assert list(folder.glob("*.sock"))  # left behind by the killed server
        done = killed.run("tool", "get_state", "--run", str(tmp_path / "none"))
        assert done.returncode == 2 and "error [" in done.stderr  # run cold, answered all the same
        wait_for(lambda: killed.pid() not in (None, first))
        killed.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_no_server_is_started_while_one_has_lately_failed_to_start(warm: Warm, tmp_path: Path) -> None:
    warm.run("tool", "get_state", "--run", str(tmp_path / "none"))
    warm.ready()
    where = str(next(warm.folder.glob("*.sock")))
    warm.stop()
    for path in warm.folder.iterdir():
        path.unlink()
    marker = Path(client.broken_marker(where))
    marker.write_text("an import failed")
    warm.run("tool", "get_state", "--run", str(tmp_path / "none"))
    time.sleep(0.5)
    assert list(warm.folder.iterdir()) == [marker]
    os.utime(marker, (0, 0))  # long ago: the next call tries again, and the server that starts clears the marker
    warm.run("tool", "get_state", "--run", str(tmp_path / "none"))
    warm.ready()
    wait_for(lambda: not marker.exists())


def test_frames_arrive_whole_however_the_bytes_are_cut() -> None:
    messages: list[dict[str, Any]] = [{"started": True}, {"status": 2}, {"argv": ["é\udcff"], "env": {"A": "b"}}]
    data = b"".join(frames.encode(message) for message in messages)
    ours, theirs = socket.socketpair(socket.AF_UNIX)
    with ours, theirs:
        reader = frames.Reader(ours)
        got: list[dict[str, Any]] = []
        for index in range(len(data)):
            reader.feed(data[index : index + 1])
            got.extend(reader.ready())
        assert got == messages
        theirs.sendall(data)
        assert [reader.next() for _ in messages] == messages
        theirs.close()
        assert reader.next() is None
        listed = marshal.dumps([1])
        for bad in (b"\x00\x00\x00\x02\xff\xff", b"\x00\x00\x00\x01[", len(listed).to_bytes(4, "big") + listed):
            with pytest.raises(ValueError, match="frame"):
                frames.Reader(ours).feed(bad)
        with pytest.raises(ValueError, match="longer than"):
            frames.Reader(ours).feed(b"\xff\xff\xff\xff")


def test_the_address_depends_on_what_shapes_the_interpreter_only() -> None:
    base = {"CGX_WARM_DIR": "/x", "HOME": "/root"}
    name = place.identity(base, ["/a"])
    assert place.identity({**base, "HOME": "/elsewhere", "CGX_PLUGIN_STALL_SECONDS": "5"}, ["/a"]) == name
    for changed in ({**base, "PYTHONPATH": "/p"}, {**base, "LANG": "C"}, {**base, "CGX_WARM_IDLE_SECONDS": "9"}):
        assert place.identity(changed, ["/a"]) != name
    assert place.identity(base, ["/b"]) != name
    assert place.idle_seconds({"CGX_WARM_IDLE_SECONDS": "nan"}) == place.DEFAULT_IDLE_SECONDS
    assert place.idle_seconds({"CGX_WARM_IDLE_SECONDS": "2.5"}) == 2.5
