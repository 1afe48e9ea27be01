"""The paper reader imports, before it forks, every module a reading imports: a child that imported one again
paid for it in every reading, inside its budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cgx_core.testing import RUBRIC
from support import EXAMPLE, make_pdf

PAPER = r"""\documentclass{article}
\begin{document}
\section{Results}
We ran three trials \cite{smith2019}, as Table~\ref{t:runs} shows.
\begin{table}
\caption{Runs.}\label{t:runs}
\begin{tabular}{lrr}
Trial & Batches & Samples \\
A & 12 & 3{,}600 \\
B & 7.5\% & 2019-03-04 \\
\end{tabular}
\end{table}
\bibliography{refs}
\end{document}
"""

BIB = """@article{smith2019,
  author = {Smith, J. and {The Collaboration}},
  title = {A {Title} with $\\alpha$},
  journal = {Journal},
  year = {2019},
  doi = {10.1000/xyz}
}
"""

SCRIPT = """
import json, sys
from cgx_core.base.budget_worker import answer
from cgx_core.ingest import worker
from cgx_core.ingest.paper import IngestRequest
worker._warm_up(pdf=sys.argv[1] == "pdf")
rubric = open(sys.argv[2], "rb").read()
before = set(sys.modules)
for paper in sys.argv[3:]:
    request = IngestRequest(paper, None, rubric, "rubric.toml")
    reply = answer("cgx_core.ingest.worker", "read", request, 60)
    assert reply[0] == "ok", reply
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_a_reading_imports_nothing_the_reader_did_not_before_the_fork(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "rubric.toml").write_text(RUBRIC, encoding="utf-8")
    (tmp_path / "paper.pdf").write_bytes(make_pdf([["Results", "We ran three trials."]]))
    latex = [str(tmp_path / "paper.tex"), str(EXAMPLE / "paper.tex")]
    # A PDF's reading warms up for any paper; a command line reading a .tex leaves the PDF reader out, and
    # its LaTeX reading still imports nothing.
    for warmed, papers in (("pdf", [*latex, str(tmp_path / "paper.pdf")]), ("latex", latex)):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, warmed, str(tmp_path / "rubric.toml"), *papers],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [], warmed
