r"""pytest fixtures for people who write check-type plugins (and for this package's own tests).

Use them from a plugin's `conftest.py`::

    pytest_plugins = ["cgx_core.testing"]

    def test_my_check(cgx_run):
        run = cgx_run(rubric_extra='''
    [checks.percent-of]
    targets = ["result"]
    sensitivity = 0.9
    false_pass = 0.1
    models = []
    ''')
        result = run.call("run_checks", proposals=[...])

`cgx_run` starts a real run (through the same tool layer as an agent) on a tiny LaTeX paper with numbers,
a percentage, equations, a citation and its bibliography; a `StartedRun` calls tools on it (`call`), reads a
node or the check records as they stand (`node`, `checks`), and finishes, replays and verifies it
(`verify`). `cgx_plugin_manager` is a fresh plugin manager with every installed plugin loaded, exactly as the
tools build it, and `cgx_check_types` the check types it registers (`get(name)` gives one with its
distribution and version). docs/plugins.md lists the paper's chunks and the testing rubric's types;
examples/plugins/percent-of/tests uses the fixtures.

This module is part of the public surface for plugin authors, with `cgx_core.plugin_api`, and follows the same
deprecation policy; install the `testing` extra (`credencegraph-extract[testing]`) for pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import pluggy
import pytest

if TYPE_CHECKING:
    from cgx_core.checks.installed import CheckTypeRegistry

__all__ = [
    "RUBRIC",
    "TINY_PAPER",
    "TINY_RECORDS",
    "StartedRun",
    "Verified",
    "assert_run_verifies",
    "cgx_check_types",
    "cgx_plugin_manager",
    "cgx_run",
    "write_tiny_paper",
]

TINY_PAPER = r"""\documentclass{article}
\begin{document}
\begin{abstract}
We show that the estimator recovers the amplitude to within 5\%.
\end{abstract}
We simulate 1000 noise realisations at a sample rate of 4096 Hz.
Each realisation lasts 4 s, so it holds 16384 samples.
The estimator is
\begin{equation}
\hat{A} = \frac{\langle d, h\rangle}{\langle h, h\rangle} \label{eq:est}
\end{equation}
Expanding the square gives
\begin{equation}
(a + b)^2 = a^2 + 2 a b + b^2 \label{eq:square}
\end{equation}
The mean error is 0.8\% across all realisations, and the estimator likely generalises to real data.
Matched filtering is optimal in Gaussian noise~\cite{wz1962}.
The error is below 1\% in 961 realisations, that is 96\% of them.
\begin{thebibliography}{1}
\bibitem{wz1962} L. A. Wainstein and V. D. Zubakov, Extraction of Signals from Noise (1962).
\end{thebibliography}
\end{document}
"""

TINY_RECORDS: list[dict[str, Any]] = [
    {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-8"], "hedge": "We show"},
    {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
    {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    {"node": "s-4", "type": "method", "form": {"kind": "procedure"}},
    {"node": "s-5", "type": "derivation"},
    {"node": "s-6", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-8"], "hedge": "likely"},
    {"node": "s-7", "type": "literature_claim"},
    {"node": "s-8", "type": "result", "rests_on": ["s-2"]},
]
"""Classify records that type every chunk of the tiny paper with the testing rubric, so a run can finish."""

RUBRIC = """\
[rubric]
format = 2
name = "cgx-testing"
version = "1"

[initial]
reference = "reference"
equation = "equation"

[types.reference]
description = "A bibliography entry."

[types.equation]
description = "A display equation."
base = "beta:9,1"

[types.method]
description = "What was done."
base = "beta:9,1"
form.kind = { type = "enum", values = ["test", "simulation", "dataset", "procedure"], required = true }

[types.result]
description = "What was found."
assess = true
base = "beta:8,2"
form.value = { type = "number" }

[types.result.rests_on]
types = ["method", "derivation", "equation", "assumption"]
min = 1
relation = "requires"
strength = "beta:9,1"

[types.derivation]
description = "A step of mathematics."
assess = true
base = "beta:9,1"

[types.literature_claim]
description = "A finding taken from a cited work."
assess = true
base = "beta:8,2"

[types.claim]
description = "A conclusion."
assess = true
base = "beta:5,5"
form.shape = { type = "enum", values = ["universal", "existential", "comparative", "bound"], required = true }

[types.claim.rests_on]
types = ["result", "method", "derivation", "equation", "literature_claim", "assumption"]
min = 1
relation = "requires"
strength = "beta:9,1"

[types.assumption]
description = "A premise taken without support."
origins = ["document", "analyst"]
assess = true
base = "beta:8,2"

[types.reading]
description = "A check's reading of its target with the premises it states (a premised check observes it)."
origins = ["analyst"]
base = "beta:8,2"

[types.reading.rests_on]
types = ["result", "derivation", "literature_claim", "claim", "assumption"]
relation = "requires"
strength = "beta:9,1"

[premises]
base = "beta:8,2"
strength = "beta:9,1"
for = ["claim", "result"]
max_per_conclusion = 3

[hedges]
"we show" = "beta:19,1"
"likely" = 0.7
"""


@attrs.frozen
class StartedRun:
    """A run started on the tiny paper, and a way to call tools on it in process."""

    path: Path
    start: dict[str, Any]
    paper: Path | None = None
    """The paper's main file the run was started on (replay reads it again)."""

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """Call a tool on this run (model 'cgx-testing' unless given); returns the JSON result or error."""
        from cgx_core.tooling.registry import TOOLS, call_tool

        args: dict[str, Any] = {"run": str(self.path), **arguments}
        if TOOLS[tool].changes_run:
            args.setdefault("model", "cgx-testing")
        payload, _ = call_tool(tool, args)
        return payload

    def node(self, node_id: str) -> dict[str, Any]:
        """The node `node_id` of the run's graph as it stands, as JSON (its `attributes` hold a check node's
        `check` record and `observed`); KeyError when the graph has no such node."""
        for node in self._graph()["nodes"]:
            if node["id"] == node_id:
                return dict(node)
        raise KeyError(node_id)

    def checks(self) -> list[dict[str, Any]]:
        """The check record of every check node of the run so far, in the order they were made."""
        return [dict(node["attributes"]["check"]) for node in self._graph()["nodes"] if "check" in node["attributes"]]

    def verify(self) -> Verified:
        """Finish the run (unless it is finished), replay it and verify it, as a user would before trusting
        it: raises AssertionError saying what failed (finish_run's error, the replay's first divergence,
        verify's differences or error). A check type's test calls it to show its checks replay byte for
        byte and re-run to the same outcome; it returns how many checks verify found and re-ran."""
        return assert_run_verifies(self.path, source=self.paper)

    def _graph(self) -> dict[str, Any]:
        from cgx_core.run.layout import RunPaths
        from cgx_core.run.state import read_state_json

        graph: dict[str, Any] = read_state_json(RunPaths(self.path).state)["graph"]
        return graph


@attrs.frozen
class Verified:
    """What `verify` found in a run that replayed byte for byte and verified without a difference."""

    checks: int
    """Check nodes in the finished graph."""
    rerun: int
    """Those that verify re-ran from their recorded inputs (the others rest on a judgement)."""


def assert_run_verifies(run: Path, *, source: Path | None = None) -> Verified:
    """Finish the run at `run` (unless it is finished), replay it from its log (reading the paper at
    `source`, or the copy a run made with store_source keeps) and verify it; AssertionError when any fails."""
    from cgx_core.audit.replay import replay
    from cgx_core.audit.verify import verify_run
    from cgx_core.run.layout import RunPaths
    from cgx_core.tooling.registry import call_tool

    if not RunPaths(run).graph.is_file():
        payload, is_error = call_tool("finish_run", {"run": str(run), "model": "cgx-testing"})
        if is_error:
            raise AssertionError(f"finish_run failed: {payload}")
    report = replay(run, source=source, sources=None)
    if not report.identical:
        raise AssertionError(f"replay differs from the run: {report.body}")
    verdict = verify_run(run)
    if verdict.error is not None or verdict.differences:
        raise AssertionError(f"verify: error {verdict.error}, differences {list(verdict.differences)}")
    return Verified(verdict.checks, verdict.rerun)


def write_tiny_paper(directory: Path) -> Path:
    """Write the tiny paper into `directory`; returns its main file."""
    directory.mkdir(parents=True, exist_ok=True)
    main = directory / "paper.tex"
    main.write_text(TINY_PAPER, encoding="utf-8")
    return main


@pytest.fixture
def cgx_plugin_manager() -> pluggy.PluginManager:
    """A fresh plugin manager with every installed check-type plugin loaded."""
    from cgx_core.checks.installed import build_plugin_manager

    return build_plugin_manager()


@pytest.fixture
def cgx_check_types(cgx_plugin_manager: pluggy.PluginManager) -> CheckTypeRegistry:
    """The check types the installed plugins register, as the tools see them: `get(name)` gives one with its
    `distribution`, `version` and guarded `check_type` (whose `plugin` is the object the plugin registered)."""
    from cgx_core.checks.installed import build_registry

    return build_registry(cgx_plugin_manager)


@pytest.fixture
def cgx_run(tmp_path: Path) -> Iterator[Callable[..., StartedRun]]:
    """A factory: `cgx_run(rubric_extra="", paper=None, **start_args)` starts a run and returns it."""
    from cgx_core.tooling.registry import call_tool

    counter = iter(range(1_000_000))

    def start(rubric_extra: str = "", paper: Path | None = None, **start_args: Any) -> StartedRun:
        number = next(counter)
        main = paper if paper is not None else write_tiny_paper(tmp_path / f"paper-{number}")
        rubric = tmp_path / f"rubric-{number}.toml"
        rubric.write_text(RUBRIC + rubric_extra, encoding="utf-8")
        run = tmp_path / f"run-{number}"
        args = {"run": str(run), "paper": str(main), "rubric": str(rubric), "model": "cgx-testing", **start_args}
        payload, is_error = call_tool("start_run", args)
        if is_error:
            raise AssertionError(f"start_run failed: {payload}")
        return StartedRun(run, payload, main)

    yield start
