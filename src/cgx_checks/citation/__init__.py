"""The reading-and-fetching core of the citation-support check.

The check's question is whether a cited work contains the passage an agent quotes. These modules
answer the parts that need no judgement: which addresses a fetch may reach (`addresses`), how a
URL is parsed (`urls`), fetching without reaching the local network (`fetch`), the text of a
source's bytes (`text`), finding a passage after a shared normalisation (`passage`), whether a
source is tied to the bibliography entry it is cited for (`ties`), the reading a check logs and
replay re-derives (`reading`), what is logged of a fetch that gave no reading (`recorded`), and the
offline sources a run was given (`offline`). See docs/citations.md.

Nothing is imported here: a check that reads the run's cited copy of a text file must not pay for
httpx, BeautifulSoup or PDFium, so each module is imported where it is used.
"""
