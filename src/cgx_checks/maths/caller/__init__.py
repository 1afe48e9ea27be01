"""The caller's wing: what runs in the caller's process (the CLI, the MCP server, verify), never sympy.

`decider.SymbolicDecider` sends a parsed step to the worker process (`worker_process.MathsWorker`, which
starts `worker.tasks` by its module name) and reads the outcome back; `numeric` draws the numeric
fallback's points and reads its comparison back. It imports the read wing and the room's shared
modules, never the worker wing (whose modules import sympy).
"""
