r"""Panels of a LaTeX paper's figures and tables that only the caption describes.

A figure's panels are often only described in its caption ("(a) amplitude and (b) phase"): the numbering then
has no object "4b". What the paper means by "Fig. 4b" or "Fig. 4(b)" is that panel as the caption describes it,
so the float whose caption describes it is what such a reference names. (A `\subfloat` without text of its own
is numbered, and its float's caption chunk belongs to it: cgx_core.ingest.numbering.chunks.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cgx_checks.crossref.numbering import Numbered, owners
from cgx_core.plugin_api import RunView

_PANEL = re.compile(r"^(?P<float>.*\d)(?P<letter>[a-z])$")


def described_panels(
    numbers: Sequence[str], kind: str, objects: Sequence[Numbered], run: RunView
) -> dict[str, Numbered]:
    """The panel numbers ("4b") the numbering has no object for, each with the float whose caption describes that
    panel ("(b)", "b)", "panel b")."""
    found: dict[str, Numbered] = {}
    for number in numbers:
        panel = _PANEL.match(number)
        parent = next((o for o in objects if panel and o.kind == kind and o.number == panel["float"]), None)
        if panel is None or parent is None:
            continue
        letter = re.escape(panel["letter"])
        describes = re.compile(rf"\(\s*{letter}\s*\)|(?<![A-Za-z\\]){letter}\)|\bpanel\s+\(?{letter}\b", re.IGNORECASE)
        captions = (node.text or "" for node in run.nodes() if node.unit == "caption" and parent in owners(node))
        if any(describes.search(text) for text in captions):
            found[number] = parent
    return found
