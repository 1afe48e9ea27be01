"""The computational core of the rederive-maths and rederive-maths-numeric checks.

Pure functions and one worker process; the check-type plugins wrap them. Nothing is imported here: each
caller imports the module it needs, so that reading a proposal (lark, no sympy) never imports sympy,
which only the worker process does.

* `structure.parse_step(encoding)` validates an encoding (the JSON an agent sends), reads its sides
  (sympy spelling through `parse`, or the paper's LaTeX through `latex` and `latex_read`) and checks them
  against every structural cap, building nothing of sympy: the proposal-time check, raising CgxError.
* `decide.SymbolicDecider.decide(step)` is rederive-maths (sympy, in the worker, within a CPU-time
  budget); `decide.shared_decider()` is the process-wide instance, and its `observation_key` the
  same-observation rule (`observation`), computed in the worker too.
* `numeric.numeric_check(step)` is rederive-maths-numeric; `numeric.numeric_points` gives its seed and points.
* `vocabulary` lists everything an expression may write; `spelling` writes a side back in sympy spelling.
"""
