"""The caller's wing: what runs in the caller's process (the CLI, the MCP server, verify), never sympy. It
imports the read wing and the room's shared modules, never the worker wing (whose modules import sympy)."""
