"""Loading a rubric, with the one rule this package adds to credencegraph's: no `supports` edge rules.

A document's own text may only add `requires` relations. A `supports` rule would let a paper raise the
credence of its own claims by citing itself, so such a rubric is refused before anything is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cgx_core.codes import Code
from cgx_core.errors import CgxError, utf8_text

if TYPE_CHECKING:
    from credencegraph.rubric import Rubric


def load_rubric_bytes(data: bytes, name: str) -> Rubric:
    """The rubric in `data` (a TOML file's bytes), checked by credencegraph and by us."""
    from credencegraph.rubric import RubricError, loads_rubric

    import cgx_core.graph.numerals  # noqa: F401  (every form check of a rubric's graph reads numerals safely)

    text = utf8_text(data, Code.RUBRIC_INVALID, name)
    try:
        rubric = loads_rubric(text)
    except RubricError as error:
        raise CgxError(Code.RUBRIC_INVALID, f"{name}: {error}") from None
    supporting = sorted(
        type_name
        for type_name, node_type in rubric.types.items()
        if node_type.rests_on is not None and node_type.rests_on.relation != "requires"
    )
    if supporting:
        raise CgxError(
            Code.RUBRIC_SUPPORTS,
            f"{name}: the edge rules of {supporting} create supports relations, which would let a document raise "
            'the credence of its own claims; use relation = "requires"',
        )
    return rubric
