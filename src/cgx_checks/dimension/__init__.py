"""The dimensions check's core (the plugin class is `cgx_checks.dimensions`): what a symbol's declared unit
means (`declared`), and the dimension of every part of a step read as the maths check reads it (`analysis`).

No sympy: a step is read by the maths room's readers (`cgx_checks.maths.read`, lark only) and its dimensions
are exact fractions of pint's base dimensions, so a dimension check is cheap and decides the same anywhere.
"""
