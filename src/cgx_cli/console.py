"""The console script `credencegraph-extract`: a `tool` call goes to the warm server when one answers
(`cgx_cli.warm`), and every other command, and a call no server took, runs in this process.

Nothing heavy is imported before the warm path is tried (not even `typing`): when a server takes the call,
this process only passes it on and waits, and the imports a cold call pays were paid once, by the server.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


def entry() -> NoReturn:
    from cgx_cli.warm.client import call

    status = call(sys.argv[1:])
    if status is None:
        from cgx_cli.main import entry as run_here

        run_here()
    raise SystemExit(status)
