r"""The cited works a run keeps copies of: `<key>.txt`, `<key>.tex` or `<key>.pdf`, named by bibliography key.

A citation check passes or fails only on a source tied to its entry; a copy is tied when its name is the
entry's key and its bytes are those `start_run` copied (the manifest records each digest).

A key need not be a file name: DOI "export BibTeX" gives keys such as `https://doi.org/10.48550/arxiv.2010.06121`,
and `/` cannot be in a file name. The escape rule: a copy's name is its key with `%XX` (the UTF-8 bytes in
hex) written for each character a portable file name cannot hold (`/ \ : * ? " < > |`, `%` itself and control
characters), so that key is `https%3A%2F%2Fdoi.org%2F10.48550%2Farxiv.2010.06121.pdf`. Reading a name back
decodes every `%XX`; a name whose stem is a key as written (`Abbott:2016blz.pdf` on a system that allows `:`)
is that key. `escape_key(key)` gives the escaped stem.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from pathlib import Path
from urllib.parse import unquote

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.base.limits import MAX_CITED_BYTES
from cgx_core.codes import Code
from cgx_core.errors import CgxError

SUFFIXES = (".txt", ".tex", ".pdf")
_UNSAFE = frozenset('/\\:*?"<>|%')


def escape_key(key: str) -> str:
    """The key as a file name's stem: each character a portable file name cannot hold written `%XX`."""
    return "".join(
        "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
        if char in _UNSAFE or unicodedata.category(char) == "Cc"
        else char
        for char in key
    )


def key_of_stem(stem: str, keys: Collection[str]) -> str:
    """The bibliography key a copy's stem names: the stem itself when it is a key, else its `%XX` decoded."""
    if stem in keys:
        return stem
    try:
        return unquote(stem, errors="strict")
    except UnicodeDecodeError:
        return stem


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
        key = key_of_stem(path.stem, keys)
        if key not in keys:
            known = ", ".join(sorted(keys)) or "none"
            raise CgxError(
                Code.CITED_INVALID,
                f"cited/{path.name}: '{key}' is not a key of the bibliography (its keys: {known}); a key that is not a "
                "file name is written with %XX escapes, such as https%3A%2F%2Fdoi.org%2F10.1000%2Fxyz.pdf",
            )
        if key in copies:
            raise CgxError(Code.CITED_INVALID, f"cited/: two copies of '{key}' ({copies[key].name} and {path.name})")
        if path.stat().st_size > MAX_CITED_BYTES:
            raise CgxError(Code.CITED_INVALID, f"cited/{path.name} is larger than {MAX_CITED_BYTES} bytes")
        copies[key] = CitedCopy(key, path.name, path.read_bytes())
    return list(copies.values())
