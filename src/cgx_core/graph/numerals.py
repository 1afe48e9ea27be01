"""credencegraph's `numerals(text)` made total: the one function every caller of it goes through, credencegraph's own
form check included.

credencegraph 0.4.1 raises ValueError on a letter after an exponent marker ("DE-FG02-94ER408", a grant number:
its sign class `[+-\u2212]` is a range that holds the letters; docs/credencegraph-upstream.md). A paper's
acknowledgements are enough to make a report, a classification with a `value` form, or finish_run's check of
the graph raise. Here a numeral whose exponent does not read as an integer is read without it, as the pattern
means (`94ER408` writes 94); any text that does not raise upstream gives exactly upstream's set.

credencegraph's form check (`has_numeral`, called by `form_problems` and `check_graph`) looks `numerals` up in
its own module at each call, so importing this module points that name at `numerals` below: every path into the
rule, ours and credencegraph's, is then the safe one.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from credencegraph.rubric import faithfulness

_UPSTREAM = getattr(faithfulness, "_cgx_upstream_numerals", faithfulness.numerals)


def numerals(text: str) -> set[float]:
    """The values of every numeral in a text, as credencegraph reads them, never raising."""
    try:
        return set(_UPSTREAM(text))
    except (ValueError, ArithmeticError):
        found: set[float] = set()
        for match in faithfulness._NUMERAL.finditer(text):
            try:
                found |= _UPSTREAM(match[0])
            except (ValueError, ArithmeticError):
                try:
                    found.add(float(Decimal(re.sub(r"[^\d.]", "", match["digits"]))))
                except InvalidOperation:
                    continue
        return found


faithfulness._cgx_upstream_numerals = _UPSTREAM  # kept once, however often imported
faithfulness.numerals = numerals
