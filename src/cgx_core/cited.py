"""The cited works a run keeps copies of: `<key>.txt`, `<key>.tex` or `<key>.pdf`, named by bibliography key.

A citation check passes or fails only on a source tied to its entry; a copy is tied when its name is the
entry's key and its bytes are those `start_run` copied (the manifest records each digest).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import attrs

from cgx_core.codes import Code
from cgx_core.digests import bytes_digest
from cgx_core.errors import CgxError
from cgx_core.limits import MAX_CITED_BYTES

SUFFIXES = (".txt", ".tex", ".pdf")


@attrs.frozen
class CitedCopy:
    key: str
    name: str
    data: bytes = attrs.field(repr=False)

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "name": self.name, "digest": bytes_digest(self.data)}


def read_cited(directory: Path, keys: Collection[str]) -> list[CitedCopy]:
    """The copies in `directory`, each checked: a regular file, a known key, an accepted suffix, a bounded size."""
    if not directory.is_dir():
        raise CgxError(Code.CITED_INVALID, f"the cited works directory '{directory.name}' does not exist")
    copies: dict[str, CitedCopy] = {}
    for path in sorted(directory.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_symlink() or not path.is_file():
            raise CgxError(Code.CITED_INVALID, f"cited/{path.name} is not a regular file")
        if path.suffix not in SUFFIXES:
            raise CgxError(
                Code.CITED_INVALID, f"cited/{path.name}: a cited copy is named <key>.txt, <key>.tex or <key>.pdf"
            )
        key = path.stem
        if key not in keys:
            known = ", ".join(sorted(keys)) or "none"
            raise CgxError(
                Code.CITED_INVALID, f"cited/{path.name}: '{key}' is not a key of the bibliography (its keys: {known})"
            )
        if key in copies:
            raise CgxError(Code.CITED_INVALID, f"cited/: two copies of '{key}' ({copies[key].name} and {path.name})")
        if path.stat().st_size > MAX_CITED_BYTES:
            raise CgxError(Code.CITED_INVALID, f"cited/{path.name} is larger than {MAX_CITED_BYTES} bytes")
        copies[key] = CitedCopy(key, path.name, path.read_bytes())
    return list(copies.values())
