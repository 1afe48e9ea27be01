"""The command line, run in a child of the fork server exactly as the console script runs it.

`child_main({"argv", "stdin", "cwd", "stdout", "stderr"})` puts the stdin bytes on descriptor 0 and the
two output files on descriptors 1 and 2, then does what the `credencegraph-extract` script does:
`sys.exit(entry())`, where an exception that escapes is printed as a traceback by Python's own handler
(reproduced here, since the child must end with os._exit). Its exit status is returned.
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

PROGRAM = "credencegraph-extract"


def preload(scratch: Path) -> None:
    """Import the command line and every tool's module, and make one call of each kind to warm them."""
    import importlib

    from cgx_cli.main import main
    from cgx_core.tooling.registry import TOOLS

    for tool in TOOLS.values():
        importlib.import_module(tool.module)
    sink = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = sink
    try:
        main(["tool", "get_state", "--args", '{"run": "%s"}' % (scratch / "none")])
        main(["tools"])
    finally:
        sys.stdout, sys.stderr = saved


def child_main(request: Mapping[str, Any]) -> int:
    """Set up the process as a shell would, then run the script's entry point; the exit status."""
    try:
        os.dup2(os.open(request["stdin"], os.O_RDONLY), 0)
        for fd, name in ((1, "stdout"), (2, "stderr")):
            os.dup2(os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, closefd=False), encoding=sys.stdin.encoding, errors=sys.stdin.errors)
        os.chdir(request["cwd"])
        sys.argv = [PROGRAM, *request["argv"]]
    except BaseException:
        traceback.print_exc()
        return 70
    code: Any
    try:
        from cgx_cli.main import entry

        entry()
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        if isinstance(code, str):
            sys.stderr.write(code + "\n")
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        traceback.print_exc(file=sys.__stderr__)
        code = 1
    return 0 if code is None else int(code)
