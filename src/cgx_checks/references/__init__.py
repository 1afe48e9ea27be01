"""The parts of the reference-resolves check (see cgx_checks.reference_resolves and docs/citations.md).

`registries` reads the metadata the public registries publish about a work (doi.org's registration agency
lookup, Crossref's REST API, DataCite's JSON:API, arXiv's Atom API) into one `WorkRecord`; `identity`
compares a record with what the bibliography entry says (title, first author, year); `steps` fetches each
request through the citation fetcher, or reads it back from what a run recorded, so that the check decides
the same way live, in replay and in verify. Nothing is imported here: each module is imported where used.
"""
