r"""The arguments of LaTeX commands that take a name, never a number written for the reader.

`\ref{fig:fig7}`, `\label{eq:2}`, `\cite{smith2019}`, `\includegraphics{figures/fig1_loss.pdf}`,
`\input{sections/part2}` and `\url{...}` hold labels, keys and file names: a digit in them is part of a name.
Both the numeral reader (`reader.py`) and the reading of hand-written references ("Figure 7",
`cgx_core.ingest.numbering.written`) skip them with this one rule, so "fig7" inside a label is neither the
numeral 7 nor a reference to Figure 7.
"""

from __future__ import annotations

import re
from typing import Final

_ONE_NAME: Final = (
    r"ref|eqref|cref|Cref|autoref|Autoref|subref|vref|Vref|labelcref|namecref|nameref|pageref|label"
    r"|cite[A-Za-z]*|nocite|url|href|hyperref|includegraphics|includepdf|input|include|includeonly"
    r"|bibliography|bibliographystyle|externaldocument"
)
_TWO_NAMES: Final = r"import|subimport|inputfrom|subinputfrom|includefrom|subincludefrom"

NAME_ARGUMENT: Final = re.compile(
    rf"\\(?:(?:{_TWO_NAMES})\*?\s*\{{[^{{}}]*\}}|(?:{_ONE_NAME})\*?(?:\s*\[[^\[\]]*\])*)\s*\{{[^{{}}]*\}}"
)
r"""A command that takes a name, with its optional arguments and its name argument (both for `\import`)."""


def blank_names(text: str) -> str:
    """The text with each name command and its arguments replaced by as many U+FFFC (object replacement)
    characters: positions still index the original text, and the fill is neither a space, a letter nor a
    digit, so "Section~\\ref{sec:a} A" does not become "Section A"."""
    return NAME_ARGUMENT.sub(lambda match: "\N{OBJECT REPLACEMENT CHARACTER}" * len(match[0]), text)
