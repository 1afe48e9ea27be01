"""The offline sources a run is given: the bytes a citation check would fetch, by URL, read instead of the network.

A user working offline, or a lab that archives the sources it cites, gives start_run a folder (`sources`)
holding the files and an `index.json` that maps each URL to its file:

    {"https://doi.org/10.2307/1940591": {"file": "hastings1991.html", "content_type": "text/html; charset=utf-8"},
     "https://api.crossref.org/works/10.2307/1940591": {"file": "5f1e...c0", "content_type": "application/json"}}

`content_type` may be left out when the file's suffix says it (.pdf, .html, .htm, .txt, .tex, .json, .xml,
.atom). Files named by the hex of their sha256 (as replay's `--sources` names them, and as a run made with
store_source keeps them) make the same folder serve replay too. start_run keeps the entries whose URL names a
DOI or arXiv id of one of the paper's references, copies their bytes into the run's `sources/` (named by
digest, so replay finds them) and records each URL, digest and content type in the manifest. The copy is
the run's, like the cited copies: the run never depends on the folder again.

A check reads an offline source only for a URL it would fetch (a tied one); the source counts as what the
URL would have given, vouched for by whoever gave the folder, and the check records that it read it offline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.base.limits import MAX_CITED_BYTES
from cgx_core.codes import Code
from cgx_core.errors import CgxError

INDEX: Final = "index.json"
MAX_INDEX_BYTES: Final = 16 * 1024 * 1024
MAX_URL_CHARS: Final = 2000
MAX_KEPT: Final = 1000
"""At most this many offline sources are kept for one paper (a reference has a handful of URLs at most)."""

CONTENT_TYPE_OF_SUFFIX: Final = {
    ".pdf": "application/pdf",
    ".html": "text/html",
    ".htm": "text/html",
    ".txt": "text/plain",
    ".tex": "application/x-tex",
    ".json": "application/json",
    ".xml": "application/xml",
    ".atom": "application/atom+xml",
}
_CONTENT_TYPE: Final = re.compile(r"^[a-z0-9.+-]+/[a-z0-9.+-]+(?:\s*;\s*charset=[A-Za-z0-9._-]+)?$", re.IGNORECASE)


@attrs.frozen
class OfflineSource:
    """One offline source: the URL it stands for, its bytes and their content type."""

    url: str
    content_type: str
    data: bytes = attrs.field(repr=False)

    @property
    def digest(self) -> str:
        return bytes_digest(self.data)

    def to_json(self) -> dict[str, str]:
        """As the manifest records it."""
        return {"url": self.url, "digest": self.digest, "content_type": self.content_type}


def _invalid(message: str) -> CgxError:
    return CgxError(Code.SOURCES_INVALID, message)


def _index(folder: Path) -> dict[str, Any]:
    if not folder.is_dir():
        raise _invalid(f"the offline sources folder '{folder.name}' does not exist")
    path = folder / INDEX
    if path.is_symlink() or not path.is_file():
        raise _invalid(
            f"'{folder.name}' has no {INDEX}: it maps each URL to a file of the folder (see docs/citations.md)"
        )
    if path.stat().st_size > MAX_INDEX_BYTES:
        raise _invalid(f"{INDEX} is larger than {MAX_INDEX_BYTES} bytes")
    try:
        index = json.loads(path.read_bytes())
    except (UnicodeDecodeError, ValueError) as error:
        raise _invalid(f"{INDEX} is not JSON: {error}") from None
    if not isinstance(index, dict):
        raise _invalid(f'{INDEX} is not an object {{"<url>": {{"file": ..., "content_type": ...}}}}')
    return index


def _entry_problem(url: str, entry: Any) -> str | None:
    if not url.startswith(("https://", "http://")) or len(url) > MAX_URL_CHARS:
        return f"{url[:100]!r} is not an http(s) URL of at most {MAX_URL_CHARS} characters"
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return f'{url}: an entry is {{"file": <name>, "content_type": <media type, optional>}}'
    extra = sorted(set(entry) - {"file", "content_type"})
    if extra:
        return f"{url}: unknown fields {extra}"
    name = entry["file"]
    if not name or "/" in name or "\\" in name or name.startswith(".") or name == INDEX:
        return f"{url}: 'file' must name a file of the folder itself, not {name!r}"
    content_type = entry.get("content_type")
    if content_type is not None and (not isinstance(content_type, str) or not _CONTENT_TYPE.match(content_type)):
        return f"{url}: content_type {content_type!r} is not a media type such as 'text/html; charset=utf-8'"
    return None


def _names_a_reference(url: str, identifiers: Iterable[str]) -> bool:
    text = unquote(url).casefold()
    return any(identifier in text for identifier in identifiers)


def read_offline_sources(folder: Path, identifiers: Iterable[str]) -> tuple[list[OfflineSource], int]:
    """The folder's sources whose URL names one of `identifiers` (the references' DOIs and arXiv ids), and
    how many entries were left out. Every entry is checked, kept or not, and every problem named at once."""
    index = _index(folder)
    wanted = [identifier.casefold() for identifier in identifiers if identifier]
    problems = [problem for url, entry in index.items() if (problem := _entry_problem(url, entry)) is not None]
    if problems:
        raise _invalid(f"{INDEX} has {len(problems)} bad entries: " + "; ".join(problems[:10]))
    kept: list[OfflineSource] = []
    for url, entry in sorted(index.items()):
        if not _names_a_reference(url, wanted):
            continue
        path = folder / entry["file"]
        if path.is_symlink() or not path.is_file():
            problems.append(f"{url}: {entry['file']} is not a regular file of the folder")
            continue
        if path.stat().st_size > MAX_CITED_BYTES:
            problems.append(f"{url}: {entry['file']} is larger than {MAX_CITED_BYTES} bytes")
            continue
        content_type = entry.get("content_type") or CONTENT_TYPE_OF_SUFFIX.get(path.suffix.lower())
        if content_type is None:
            problems.append(f"{url}: give the content_type of {entry['file']} (its suffix does not say it)")
            continue
        kept.append(OfflineSource(url, content_type, path.read_bytes()))
    if problems:
        raise _invalid(f"{INDEX} has {len(problems)} bad entries: " + "; ".join(problems[:10]))
    if len(kept) > MAX_KEPT:
        raise _invalid(f"{len(kept)} offline sources name this paper's references; at most {MAX_KEPT} are kept")
    return kept, len(index) - len(kept)
