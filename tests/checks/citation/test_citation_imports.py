"""A citation check that reads only the run's copy of a text file imports neither httpx (fetching) nor
BeautifulSoup, PDFium or pylatexenc (reading other kinds): each is imported by the path that needs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support import EXAMPLE_RECORDS, call, start_example

HEAVY = ("httpx", "httpcore", "bs4", "pypdfium2", "pylatexenc")

SCRIPT = """
import json, sys
from cgx_core.tooling.registry import call_tool
result, _ = call_tool("judge_citation", json.loads(sys.argv[1]))
print(json.dumps({"result": result, "modules": sorted(m for m in json.loads(sys.argv[2]) if m in sys.modules)}))
"""


def test_judging_on_a_cited_text_file_imports_no_fetcher_and_no_other_reader(tmp_path: Path) -> None:
    run = tmp_path / "run"
    start_example(run)
    call(run, "classify", records=EXAMPLE_RECORDS)
    arguments = {
        "run": str(run),
        "model": "test-model",
        "node": "s-02",
        "entry": "r-1",
        "source": "smith2019.txt",
        "passage": "Damped oscillators describe many laboratory systems",
        "supports": True,
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(arguments), json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(done.stdout)
    assert out["result"]["checks"][0]["result"] == "passed", out
    assert out["modules"] == []
