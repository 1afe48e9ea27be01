"""The tools an agent calls, one module each (`apply(context, state, args) -> Effect`, or `execute` for a tool that
opens no run). Their machinery (the registry, schemas, descriptions, results) is `cgx_core.tooling`."""
