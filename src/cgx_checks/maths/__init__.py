"""The computational core of rederive-maths and rederive-maths-numeric (the plugin classes,
`cgx_checks.rederive_maths`, wrap it), in wings that say where each piece runs (each wing's docstring says
what it holds): `caller/` in the caller's process, never sympy; `worker/` in the budgeted maths worker, the one
process that imports sympy; `read/` in either, no sympy. `outcome` and `numeric_rules` are what both ends of
the pipe agree on; `codes` and `limits` are the floor.

The rule (a layers contract in pyproject.toml): `caller` and `worker` never import each other; both stand on
`outcome` and `numeric_rules`, which stand on `read`, which stands on `codes` and `limits`. Nothing is
imported here: each caller imports the module it needs.
"""
