"""The read wing: a maths step as plain values, read and written without sympy, in either process.

The caller's process reads a proposal here (`step.parse_step`: the encoding, the sides in sympy spelling
through `parse` or in the paper's LaTeX through `latex` and `latex_read`, each side shaped and capped);
the worker receives the parsed step and reads its trees, shapes, encoding and points, never the
grammars (lark is imported by `parse` and `latex` alone, which `step` imports only when it reads raw
text). It imports neither wing above it (`worker`, `caller`), nor sympy.
"""
