"""A one-shot command's exit, without the garbage collector's last pass over every object it made.

When the interpreter ends it clears every module and runs the cyclic collector over what is left: for a
`tool` call that is every class, function and graph node its imports and its call made, about a sixth of
a cold call's processor time, spent proving that memory the operating system is about to take back is
garbage. `gc.freeze()` moves the surviving objects to the collector's permanent generation, which no
collection visits; everything else about the exit is unchanged (exit handlers run, threads are joined,
modules are cleared, objects freed by reference counting are finalised as before). Only the console
script does this: a process that goes on living (the MCP server, tests calling `main`) never calls it.
"""

from __future__ import annotations

import gc


def spare_the_collector() -> None:
    """Freeze every object now alive, so the interpreter's exit does not collect them one last time."""
    gc.freeze()
