"""The worker wing: what runs inside the budgeted sympy worker process, and nowhere else.

`tasks.TASKS` names the tasks the caller asks for (by name: the caller never imports this wing); each takes a
parsed step (`read.step.ParsedStep`) and returns JSON text. It imports the read wing and the room's shared
modules, never the caller's side.
"""
