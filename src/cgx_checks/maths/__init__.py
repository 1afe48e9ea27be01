"""The computational core of the rederive-maths and rederive-maths-numeric checks, in wings that say where
each piece runs (the plugin classes, `cgx_checks.rederive_maths`, wrap them).

Two processes take part: the caller's (the CLI, the MCP server, verify), which reads a proposal with lark
and never imports sympy, and the budgeted maths worker, the one process that imports sympy. So:

* `caller/`, the caller's process: `decider.SymbolicDecider` (rederive-maths and the observation key, asked
  of the worker), `numeric.numeric_check` (rederive-maths-numeric: its seed and points drawn here), and
  `worker_process.MathsWorker`, the handle on the worker process, which names the worker's tasks module
  (`worker.tasks`) as text and never imports it.
* `worker/`, inside the worker process only: `tasks.TASKS` and what they run (`build`, `decide`, `decision`,
  `conditions`, `rounding`, `comparison`, `numeric_values`, `observation`, `certify`).
* `read/`, in either process, no sympy: the step as plain values. `step.parse_step(encoding)` validates an
  encoding (`encoding`), reads its sides (sympy spelling through `parse`, or the paper's LaTeX through `latex`
  and `latex_read`) and checks them against every structural cap (`shape`), raising CgxError: the
  proposal-time check. The worker receives the `ParsedStep` pickled and never parses. `vocabulary` lists
  everything an expression may write, `spelling` writes a side back in sympy spelling, `canonical` writes it
  canonically, `points` draws and records exact points, `schema` publishes the proposal's schema.
* The room's own modules are what both ends of the pipe agree on: `outcome` (the record the worker writes
  and the caller reads), `numeric_rules` (the numeric check's seed, counts and tolerances), and, below
  everything, `codes` and `limits`.

The rule (a layers contract in pyproject.toml): `caller` and `worker` never import each other; both stand on
`outcome` and `numeric_rules`, which stand on `read`, which stands on `codes` and `limits`. Nothing is
imported here: each caller imports the module it needs.
"""
