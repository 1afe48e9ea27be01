"""`credencegraph-extract unlock RUN`: who holds the run's lock, read from the kernel.

The lock is the operating system's and dies with its process, so there is nothing to break: this command
reports the holder, so a person can decide whether to stop a hung agent. `/proc/locks` names the process
that took the lock; when that process has ended and a child it forked still holds the open file (and so
the lock), the live holder is found through `/proc/<pid>/fdinfo`, which lists the locks of each open
file, and both are reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.run.layout import RunPaths
from cgx_core.run.lock import Holder, command_of, flock_on, lock_holder, lock_id
from cgx_core.run.manifest import read_manifest
from cgx_core.tooling.output import result_text


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").is_dir()


def live_holders(lock_path: Path) -> list[int]:
    """Every live process with an open file that holds the flock on `lock_path` (a child shares its parent's)."""
    wanted = lock_id(lock_path)
    found: list[int] = []
    if wanted is None:
        return found
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        try:
            infos = list((process / "fdinfo").iterdir())
        except OSError:
            continue  # ended meanwhile, or not ours to read
        for info in infos:
            try:
                text = info.read_text(encoding="ascii", errors="replace")
            except OSError:
                continue
            locks = [line.removeprefix("lock:").strip() for line in text.splitlines() if line.startswith("lock:")]
            if any((flock := flock_on(line)) is not None and flock[1] == wanted for line in locks):
                found.append(int(process.name))
                break
    return sorted(found)


def holder_report(lock_path: Path) -> dict[str, Any]:
    """Whether the lock is held, by which live process, and which process took it when that one has ended."""
    recorded: Holder | None = lock_holder(lock_path) if lock_path.exists() else None
    if recorded is None:
        return {"locked": False, "holder": None, "advice": "no tool call holds the lock"}
    report: dict[str, Any] = {"locked": True, "holder": {"pid": recorded.pid, "command": recorded.command}}
    if _alive(recorded.pid):
        report["advice"] = "a tool call is running; if its process is hung, stop it (the OS then frees the lock)"
        return report
    living = live_holders(lock_path)
    if living:
        report["holder"] = {"pid": living[0], "command": command_of(living[0])}
        report["inherited_from"] = recorded.pid
        report["advice"] = (
            f"process {recorded.pid}, which took the lock, has ended; process {living[0]}, a process it started, "
            "still holds it: if that one is hung, stop it (the OS then frees the lock)"
        )
    else:
        report["advice"] = f"process {recorded.pid}, which took the lock, has ended; the OS is freeing the lock"
    return report


def unlock(run: str) -> int:
    paths = RunPaths(Path(run))
    read_manifest(paths)
    results().write(result_text(holder_report(paths.lock)) + "\n")
    return ExitCode.OK
