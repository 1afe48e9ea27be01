"""Digests and canonical JSON: how a run names bytes, files and results.

Every digest is `sha256:<hex>`. JSON is digested over its canonical form (sorted keys, no spaces,
UTF-8, no NaN), so the same value has one digest on every machine.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

PREFIX = "sha256:"
GRAPH_DIGEST_HEADER = b"credencegraph-extract graph 1\n"
"""What a graph's digest starts with (see `graphs.GraphDigester`), so the two ways of computing it agree."""


def bytes_digest(data: bytes) -> str:
    """The digest of some bytes."""
    return PREFIX + hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str:
    """The digest of a file's bytes, read in blocks so a large file costs no memory."""
    hasher = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            hasher.update(block)
    return PREFIX + hasher.hexdigest()


def canonical_json(value: Any) -> bytes:
    """The canonical bytes of a JSON value: sorted keys, no spaces, UTF-8, NaN refused."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def json_digest(value: Any) -> str:
    """The digest of a JSON value's canonical bytes."""
    return bytes_digest(canonical_json(value))


def hex_of(digest: str) -> str:
    """The hex part of a digest, used to name files by their digest."""
    return digest.removeprefix(PREFIX)


def compact_json(value: Any) -> bytes:
    """A JSON value's compact bytes in its own key order (how state.json writes each node and relation)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def graph_json_digest(graph: Any) -> str:
    """The digest `graphs.GraphDigester.digest` gives a graph, computed from the graph's JSON (as state.json
    holds it) rather than from credencegraph objects: a reader can check state.json against the log's last
    line without importing credencegraph."""
    nodes = b"".join(b"n" + hashlib.sha256(compact_json(node)).digest() for node in graph["nodes"])
    relations = b"".join(b"r" + hashlib.sha256(compact_json(relation)).digest() for relation in graph["relations"])
    return PREFIX + hashlib.sha256(GRAPH_DIGEST_HEADER + nodes + relations).hexdigest()
