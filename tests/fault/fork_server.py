"""A fork server: import and warm a module once, then fork one child per request.

Started as `python fork_server.py MODULE SCRATCH [PATH...]` (PATHs are put on sys.path first). It calls
`MODULE.preload(SCRATCH)`, prints `ready`, then reads one JSON request per line on stdin, forks a child
that returns `MODULE.child_main(request)` as its exit status, waits for it (SIGKILLing it after the
request's `timeout`, 120 s by default, so a hung child cannot hang the tests) and prints
{"status": <exit code, negative for the signal that ended it>}.

Why: the crash harness kills hundreds of processes and the fuzzer runs thousands of command lines. A
fork costs a few milliseconds where starting Python and importing credencegraph costs half a second.
The server has one thread (preload checks it), so forking it is safe.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs


def _wait(pid: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.0005)


def serve(module_name: str, scratch: Path) -> None:
    module = importlib.import_module(module_name)
    module.preload(scratch)
    if threading.active_count() != 1:
        raise RuntimeError("the fork server must have one thread to fork safely")
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                code = module.child_main(request)
            finally:
                os._exit(code)
        status = _wait(pid, float(request.get("timeout", 120)))
        sys.stdout.write(json.dumps({"status": status}) + "\n")
        sys.stdout.flush()


@attrs.define
class ForkServer:
    """The parent's handle on a fork server: one request line in, one status line out."""

    process: subprocess.Popen[str]

    @classmethod
    def start(cls, module: str, scratch: Path, paths: Sequence[Path]) -> ForkServer:
        command = [sys.executable, str(Path(__file__).resolve()), module, str(scratch), *map(str, paths)]
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        server = cls(process)
        ready = server._read_line(300)
        if ready != "ready":
            server.close()
            raise RuntimeError(f"the fork server did not start: {ready!r}")
        return server

    def _read_line(self, timeout: float) -> str:
        stdout = self.process.stdout
        assert stdout is not None
        if not select.select([stdout], [], [], timeout)[0]:
            raise TimeoutError("the fork server did not answer")
        return stdout.readline().strip()

    def round(self, request: Mapping[str, Any]) -> int:
        """Run one child; its exit status (negative: the signal that ended it)."""
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        status: int = json.loads(self._read_line(300))["status"]
        return status

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


if __name__ == "__main__":
    sys.path[:0] = sys.argv[3:]
    serve(sys.argv[1], Path(sys.argv[2]))
