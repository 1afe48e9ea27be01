"""The one numeral reader of credencegraph-extract: every written form of a number, read to its exact value.

classify's fixes and every check type read numbers here (cgx_core never imports cgx_checks, so the reader
lives in the core). `read_text` gives each numeral of a chunk's text where it is written, with its unit,
the relation written before it and whether the text reports it; `find_numerals` the distinct numerals;
`read_quantity` and `read_numeral` one numeral as an agent writes it; `read_token` a numeral token a check
type's grammar lexed. docs/numbers.md has the table of
written forms; the modules' docstrings have the rules and why.
"""

from cgx_core.numbers.numeral import Numeral, NumeralError, fraction_text, numeral_from_parts
from cgx_core.numbers.reader import Occurrence, find_numerals, read_numeral, read_quantity, read_text, read_token
from cgx_core.numbers.units import Unit, read_unit

__all__ = [
    "Numeral",
    "NumeralError",
    "Occurrence",
    "Unit",
    "find_numerals",
    "fraction_text",
    "numeral_from_parts",
    "read_numeral",
    "read_quantity",
    "read_text",
    "read_token",
    "read_unit",
]
