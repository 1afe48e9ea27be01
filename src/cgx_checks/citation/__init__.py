"""The reading-and-fetching core of the citation-support check.

The check's question is whether a cited work contains the passage an agent quotes. These modules
answer the parts that need no judgement: which addresses a fetch may reach (`addresses`), how a
URL is parsed (`urls`), fetching without reaching the local network (`fetch`), the text of a
source's bytes (`text`), finding a passage after a shared normalisation (`passage`), whether a
source is tied to the bibliography entry it is cited for (`ties`), and the reading a check logs
and replay re-derives (`reading`). See docs/citations.md.
"""

from __future__ import annotations

from cgx_checks.citation.addresses import is_public, refusal_reason
from cgx_checks.citation.fetch import DEFAULT_POLICY, Fetched, FetchPolicy, Hop, Limits, fetch
from cgx_checks.citation.passage import Location, find_passage, normalise_for_search, passage_problem
from cgx_checks.citation.reading import Reading, read_source, replay_reading
from cgx_checks.citation.text import Kind, SourceText, extract_text, kind_for
from cgx_checks.citation.ties import Entry, Tie, tie_for_cited, tie_for_url, urls_for

__all__ = [
    "DEFAULT_POLICY",
    "Entry",
    "FetchPolicy",
    "Fetched",
    "Hop",
    "Kind",
    "Limits",
    "Location",
    "Reading",
    "SourceText",
    "Tie",
    "extract_text",
    "fetch",
    "find_passage",
    "is_public",
    "kind_for",
    "normalise_for_search",
    "passage_problem",
    "read_source",
    "refusal_reason",
    "replay_reading",
    "tie_for_cited",
    "tie_for_url",
    "urls_for",
]
