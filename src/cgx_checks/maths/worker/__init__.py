"""The worker wing: what runs inside the budgeted sympy worker process, and nowhere else.

`tasks.TASKS` names the tasks the caller asks for (by name: the caller never imports this wing); each
takes a parsed step (`read.step.ParsedStep`) and returns JSON text. Everything that builds or transforms
sympy or mpmath objects is here: `build` (our tree to sympy), `decide` (rederive-maths, with `decision`,
`conditions` and `rounding`), `comparison` and `numeric_values` (rederive-maths-numeric at the drawn
points), `observation` (the same-observation key), `certify` (a failure's certificate). It imports the
read wing and the room's shared modules, never the caller's side.
"""
