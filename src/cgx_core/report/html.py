"""The report as one self-contained HTML page: its style, its script and its plot are inside it, it loads
nothing from anywhere, and it reads the same printed.

Every value from the run goes through Jinja2's autoescaping, so a paper that writes `<script>` shows the
characters and runs nothing. A Content Security Policy in the page admits only the page's own style and
script (by their SHA-256), so even markup that escaped the escaping could not run a script or fetch a
thing. The page has no clock in it: the same run gives the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shlex
from collections.abc import Mapping
from importlib import resources
from typing import Any

from markupsafe import Markup

from cgx_core.report.credences import reading
from cgx_core.report.mathml import equation, inline
from cgx_core.report.model import NodeEntry, RunReport
from cgx_core.report.plot import plot
from cgx_core.report.review_commands import review_command
from cgx_core.report.text import assessed_counts, credence_pair

WORDS = {
    "holds": "holds",
    "fails": "fails",
    "undetermined": "undetermined",
    "not_assessed": "not assessed",
    "none": "not assessed",
}
WORD_OF_RESULT = {"passed": "holds", "failed": "fails", "error": "undetermined"}
REPEATED_IN_OUTPUT = ("detail", "result", "outcome", "code")


def _asset(name: str) -> str:
    return resources.files("cgx_core.report").joinpath("templates", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(css: str, js: str) -> str:
    """Nothing from anywhere; the page's own style and script only."""
    return (
        f"default-src 'none'; style-src {_hash(css)}; script-src {_hash(js)}; img-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


def shown(value: Any) -> str:
    """A value of a check's inputs or output, as text: a string as it is, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def without_repeats(output: Mapping[str, Any]) -> dict[str, Any]:
    """A check's output without what the card already shows (its detail and result)."""
    return {key: value for key, value in output.items() if key not in REPEATED_IN_OUTPUT}


def where(locator: str) -> str:
    """A LaTeX locator (`file=paper.tex;lines=12-12`) or a PDF one, as a person reads it."""
    parts = dict(part.split("=", 1) for part in locator.split(";") if "=" in part)
    if "file" in parts and "lines" in parts:
        first, _, last = parts["lines"].partition("-")
        lines = f"line {first}" if first == last or not last else f"lines {first}-{last}"
        return f"{parts['file']}, {lines}"
    if "page" in parts:
        return f"page {parts['page']}"
    return locator


def maths_of(node: NodeEntry) -> Markup | None:
    """The node's maths rendered as MathML: a display equation whole, a sentence's `$...$` spans in place."""
    if node.unit == "equation":
        return equation(node.text)
    if "$" not in node.text:
        return None
    rendered = inline(node.text)
    return rendered if "<math" in rendered else None


def html_report(report: RunReport) -> str:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    css, js = _asset("report.css"), _asset("report.js")
    environment = Environment(
        loader=PackageLoader("cgx_core.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    environment.filters.update(shown=shown, without_repeats=without_repeats, where=where)
    environment.globals.update(
        WORDS=WORDS,
        WORD_OF_RESULT=WORD_OF_RESULT,
        credence_reading=reading,
        review_command=review_command,
        shell_quote=shlex.quote,
        assessed_counts=assessed_counts,
        credence_pair=credence_pair,
        maths_of=maths_of,
    )
    template = environment.get_template("report.html.j2")
    return template.render(
        report=report,
        main=report.identity.paper[0][0],
        plot=plot(report),
        css=Markup(css),  # the package's own files, hashed into the policy: the only markup not escaped
        js=Markup(js),
        csp=content_security_policy(css, js),
    )
