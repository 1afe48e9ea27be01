"""Is a source tied to a bibliography entry: is it the work the entry names, and not a page of anyone's?

A citation check says "the cited work supports this sentence". It is worth something only if the
text searched is the cited work's, so the source must be reachable from the entry by a route nobody
in the run controls. Three routes count:

* `cited`: the run's copy of the cited works has `<key>.txt`, `.tex` or `.pdf` under the entry's key,
  and its bytes still have the digest start_run recorded (whoever set up the run vouched for it);
* `arxiv`: the entry names an arXiv id (its `eprint`), and the tool fetched that id from arXiv itself,
  at the entry's version or with no version (the current one), every hop on arXiv's hosts;
* `doi`: the entry names a DOI, and the tool started at `https://doi.org/<DOI>` and followed the
  redirects itself to wherever the DOI resolves (the registrant controls that, not the agent).

Anything else, a page the agent wrote or found, a mirror, another version, is untied: the check errs.
Only https counts for a fetched tie, so that nobody on the network path can substitute the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final, Literal
from urllib.parse import quote, unquote

import attrs

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.urls import ParsedUrl, parse_url
from cgx_core.errors import CgxError

ARXIV_HOSTS: Final = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})
DOI_HOSTS: Final = frozenset({"doi.org", "dx.doi.org"})
CITED_SUFFIXES: Final = (".txt", ".tex", ".pdf")

_NEW_ID: Final = re.compile(r"^(\d{4}\.\d{4,5})(?:v([1-9]\d*))?$")
_OLD_ID: Final = re.compile(r"^([a-z]+(?:-[a-z]+)*)(?:\.[a-z]+(?:-[a-z]+)*)?/(\d{7})(?:v([1-9]\d*))?$")
_ARXIV_PREFIX: Final = re.compile(r"^arxiv:\s*", re.IGNORECASE)
_DOI_PREFIX: Final = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_DOI: Final = re.compile(r"^10\.\d{4,9}/\S+$")
_ARXIV_PATH: Final = re.compile(r"^/(abs|pdf)/(.+?)(\.pdf)?$")
# Kept as is in a DOI URL's path; everything else is percent-encoded, so '#', '?' and '%' stay in the DOI.
_DOI_SAFE: Final = "/:;()-._~!$&'*+,=@"


@attrs.frozen
class ArxivId:
    """An arXiv identifier: `2101.00001` or `hep-th/9901001` (subject class dropped), and a version."""

    ident: str
    version: int | None

    def __str__(self) -> str:
        return self.ident if self.version is None else f"{self.ident}v{self.version}"


def parse_arxiv_id(text: str) -> ArxivId | None:
    """An arXiv id as a .bib `eprint` writes it (`arXiv:2101.00001v2`, `math.GT/0309136`), or None."""
    value = _ARXIV_PREFIX.sub("", text.strip())
    new = _NEW_ID.match(value)
    if new is not None:
        return ArxivId(ident=new.group(1), version=int(new.group(2)) if new.group(2) else None)
    old = _OLD_ID.match(value.lower())
    if old is not None:
        return ArxivId(ident=f"{old.group(1)}/{old.group(2)}", version=int(old.group(3)) if old.group(3) else None)
    return None


def normalise_doi(text: str) -> str | None:
    """A DOI without its `doi:` or resolver prefix (`10.1000/xyz`), or None when it is not one."""
    value = _DOI_PREFIX.sub("", text.strip())
    return value if _DOI.match(value) else None


@attrs.frozen
class Entry:
    """What a bibliography entry says about where its work is: its key, DOI and arXiv id, as written."""

    key: str
    doi: str | None = None
    arxiv: str | None = None


@attrs.frozen
class Tie:
    """Why a source is the entry's work: the route and what it names (key, arXiv id or DOI)."""

    kind: Literal["cited", "arxiv", "doi"]
    names: str


def doi_path(doi: str) -> str:
    """A DOI as a URL path: `#`, `?`, `%` and the like percent-encoded, `/` and `:` kept."""
    return quote(doi, safe=_DOI_SAFE)


def urls_for(entry: Entry) -> list[str]:
    """The URLs the tool fetches for an entry, in order: the arXiv PDF, the arXiv abstract, the DOI."""
    urls: list[str] = []
    arxiv = parse_arxiv_id(entry.arxiv) if entry.arxiv else None
    if arxiv is not None:
        urls.append(f"https://arxiv.org/pdf/{arxiv}")
        urls.append(f"https://arxiv.org/abs/{arxiv}")
    doi = normalise_doi(entry.doi) if entry.doi else None
    if doi is not None:
        urls.append(f"https://doi.org/{doi_path(doi)}")
    return urls


def _parsed(url: str) -> ParsedUrl | None:
    try:
        return parse_url(url)
    except CgxError:
        return None


def _arxiv_of(parsed: ParsedUrl) -> ArxivId | None:
    if parsed.scheme != "https" or parsed.port != 443 or parsed.host not in ARXIV_HOSTS or "?" in parsed.target:
        return None
    match = _ARXIV_PATH.match(parsed.target)
    if match is None:
        return None
    return parse_arxiv_id(match.group(2))


def _arxiv_tie(urls: Sequence[ParsedUrl], entry: Entry) -> Tie | None:
    wanted = parse_arxiv_id(entry.arxiv) if entry.arxiv else None
    named = _arxiv_of(urls[0])
    if wanted is None or named is None or named.ident != wanted.ident:
        return None
    if named.version is not None and named.version != wanted.version:
        return None
    if not all(url.scheme == "https" and url.host in ARXIV_HOSTS for url in urls):
        return None
    return Tie(kind="arxiv", names=str(named))


def _doi_tie(urls: Sequence[ParsedUrl], entry: Entry) -> Tie | None:
    wanted = normalise_doi(entry.doi) if entry.doi else None
    first = urls[0]
    if wanted is None or first.scheme != "https" or first.port != 443 or first.host not in DOI_HOSTS:
        return None
    if "?" in first.target:
        return None
    named = unquote(first.target[1:])
    if named.casefold() != wanted.casefold():
        return None
    return Tie(kind="doi", names=wanted)


def tie_before_fetch(url: str, entry: Entry) -> Tie | None:
    """The tie a URL has to the entry, decided from the URL and the entry alone, before any connection:
    an https arXiv URL of the entry's id (at its version or none), or the entry's DOI on doi.org. None
    when the URL is not tied, so the tool never connects to a host that could not count.

    Raises `fetch-refused` for a URL the fetcher would refuse to parse (not http(s), ambiguous).
    """
    parsed = parse_url(url)
    return _arxiv_tie([parsed], entry) or _doi_tie([parsed], entry)


def hop_rule(tie: Tie) -> Callable[[ParsedUrl], None]:
    """What every hop of a tied fetch must keep: an arXiv tie stays on arXiv's hosts over https (a redirect
    elsewhere is stopped before it is requested); a DOI tie may end anywhere the DOI resolves to."""

    def allow(hop: ParsedUrl) -> None:
        if tie.kind == "arxiv" and not (hop.scheme == "https" and hop.host in ARXIV_HOSTS):
            raise CgxError(
                CitationCode.SOURCE_UNTIED,
                f"arXiv redirected to {hop.url}, off arXiv's hosts: that page is not the arXiv paper, and it was "
                "not fetched",
            )

    return allow


def tie_for_url(hops: Sequence[str], entry: Entry) -> Tie | None:
    """Why the source the tool fetched through `hops` (every URL it requested, first to last) is
    the entry's work, or None when it is not tied.
    """
    parsed = [_parsed(url) for url in hops]
    if not parsed or any(url is None for url in parsed):
        return None
    urls = [url for url in parsed if url is not None]
    return _arxiv_tie(urls, entry) or _doi_tie(urls, entry)


def tie_for_cited(name: str, entry: Entry, digest: str, recorded: str | None) -> Tie | None:
    """Whether the cited copy `name` (a file name in the run's copy of the cited works) is the entry's.

    It is when its name is `<key>.txt`, `.tex` or `.pdf` (the key escaped as `cgx_core.ingest.cited` says, so a DOI
    URL key has a copy too); then its `digest` must be the one start_run
    `recorded`, or the copy changed under the run (`source-changed`). None when it names another key.
    """
    from cgx_core.ingest.cited import key_of_stem

    stem, dot, suffix = name.rpartition(".")
    if not dot or key_of_stem(stem, {entry.key}) != entry.key or f".{suffix}" not in CITED_SUFFIXES:
        return None
    if recorded is None or digest != recorded:
        raise CgxError(
            CitationCode.SOURCE_CHANGED,
            f"the cited copy {name!r} has digest {digest}, but start_run recorded {recorded or 'no digest for it'}",
        )
    return Tie(kind="cited", names=entry.key)
