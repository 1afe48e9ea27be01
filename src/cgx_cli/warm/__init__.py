"""The warm process: one long-lived server per installation that `credencegraph-extract tool` hands its call to.

A harness without MCP starts a new interpreter for every tool call, and most of a call's cost is the imports
(credencegraph, the readers, the check types), not its work. So the console script first offers the call to a
warm server over a Unix socket; the server, which imported everything once, forks a child per call, and the
child becomes the caller: the caller's standard streams (passed over the socket), working directory, umask,
environment and arguments, then the same code a cold process runs. Results, logs and graphs are byte for byte
what a cold call makes (the child runs the same code on the same inputs), and every call still runs in a
process of its own, so one call's state never reaches the next.

- `place`: where the server of this interpreter listens, and whether the warm path is on (`CGX_WARM=0` turns it off).
- `frames`: the small messages on the socket.
- `client`: the console script's side: offer the call, forward signals, exit as the call did; start a server
  when none answers (that first call runs cold).
- `server`: the server: import, listen, fork a child per call, reap it, exit when idle or when its code changed.
- `call`: inside the forked child: take the caller's place and run the call.
"""
