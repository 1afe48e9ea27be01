"""The report as Markdown (CommonMark), for a pull request, an issue or a notebook.

Untrusted text never becomes markup. The paper's text, a passage, a check's inputs go into code spans
(`text_code`), whose content a renderer shows literally (no HTML, no emphasis, no links) and which keep
LaTeX readable; short untrusted labels (a reviewer's name, a model id) are backslash-escaped
(`text_plain`: CommonMark lets any ASCII punctuation be escaped, and an escaped character is always
literal). Control characters are escaped as in the text report.
"""

from __future__ import annotations

import re
import string

from cgx_core.report.credences import reading
from cgx_core.report.html import WORD_OF_RESULT, WORDS, shown, where, without_repeats
from cgx_core.report.model import NodeEntry, RunReport
from cgx_core.report.review_commands import review_command
from cgx_core.report.text import printable

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")


def text_plain(text: str) -> str:
    """Text shown as it is, whatever it holds: every ASCII punctuation character backslash-escaped."""
    return _PUNCTUATION.sub(r"\\\1", printable(text))


def text_code(text: str) -> str:
    """A code span holding `text` literally: fenced by more backticks than any run inside it."""
    line = printable(text)
    longest = max((len(run) for run in re.findall("`+", line)), default=0)
    fence = "`" * (longest + 1)
    padding = " " if line.startswith("`") or line.endswith("`") or not line.strip() else ""
    return f"{fence}{padding}{line}{padding}{fence}"


def _credence(node: NodeEntry) -> str:
    if node.credence is None:
        return ""
    return f", credence {node.credence.before:.2f} → {node.credence.after:.2f}"


def _node_line(node: NodeEntry) -> str:
    verdict = f" **{WORDS.get(node.verdict, node.verdict)}**" if node.verdict else ""
    location = f" ({text_plain(where(node.locator))})" if node.locator else ""
    return f"- `{node.id}` {node.kind}{verdict}{_credence(node)}{location}: {text_code(node.text)}"


def _credences(report: RunReport) -> list[str]:
    """How each credence reads (what moved it, its own checks, its bound), and every node that has none."""
    out = ["## Credences", "", f"Inference: {text_plain(report.credence_method)}."]
    if report.moved_by_note:
        out.append(f"What moved each credence most: {text_plain(report.moved_by_note)}.")
    out.append("")
    for node in report.assessed:
        said = reading(node.credence, report.credence_failures.get(node.id), node.verdict)
        if said:
            out.append(f"- `{node.id}`{_credence(node)}: {text_plain(' '.join(said))}")
    return [*out, ""]


def markdown_report(report: RunReport) -> str:
    identity = report.identity
    integrity = report.integrity
    main = identity.paper[0][0]
    out = [
        f"# Report on {text_code(main)}",
        "",
        f"Run `{identity.run}` with rubric {text_plain(identity.rubric_name)} {text_plain(identity.rubric_version)} "
        f"({identity.calibration} values). Replay: {text_plain(integrity.replay.summary)}. "
        f"Verify: {text_plain(integrity.verify.summary)}"
        + (f" ({text_plain(integrity.verify.note)})" if integrity.verify.note else "")
        + ".",
        "",
        "## Summary",
        "",
    ]
    out += [f"- {WORDS[verdict]}: {count}" for verdict, count in report.verdicts.items()]
    out += [
        "",
        f"{len(report.assessed)} assessed nodes, {len(report.checks)} checks ({len(report.failed_checks)} failed), "
        f"{len(report.reviews)} reviews, {len(report.assumptions)} assumptions added by the agent.",
        "",
    ]
    out += _credences(report)
    out += ["## Failed checks", ""]
    if not report.failed_checks:
        out += [report.none_failed, ""]
    for check in report.failed_checks:
        target = report.node(check.target)
        out += [f"### {check.id} {check.type} on {check.target}: failed", "", text_code(check.detail), ""]
        if check.passages:  # the passages compared, side by side
            out += ["| " + " | ".join(text_code(node) for node, _ in check.passages) + " |"]
            out += ["|" + " --- |" * len(check.passages)]
            out += ["| " + " | ".join(text_code(text).replace("|", "\\|") for _, text in check.passages) + " |", ""]
        if target is not None:
            out += [f"> {text_code(target.text)}", ""]
        for named in check.names:
            other = report.node(named)
            if other is not None:
                out += [f"> `{other.id}` {text_code(other.text)}", ""]
        out += ["Inputs:", ""]
        out += [f"- {text_plain(key)}: {text_code(shown(value))}" for key, value in check.inputs.items()]
        output = without_repeats(check.output)
        if output:
            out += ["", "What the check found:", ""]
            out += [f"- {text_plain(key)}: {text_code(shown(value))}" for key, value in output.items()]
        out.append("")
    out += ["## Awaiting review", ""]
    if not report.awaiting:
        out += ["Nothing awaits review.", ""]
    for item in report.awaiting:
        subject = f"{item['check']} ({item['type']}) on {item['node']}" if "check" in item else item["node"]
        premise = f" (a premise of {', '.join(item['conclusions'])})" if item.get("conclusions") else ""
        command = f": {text_code(review_command(report.identity.directory, item))}" if report.review_type else ""
        out.append(f"- {subject}: {', '.join(item['why'])}{premise}{command}")
    if report.awaiting:
        out.append("")
    if report.review_type is None:
        out += ["The rubric declares no review check type, so this run cannot record a review.", ""]
    out += ["## Reviews", ""]
    if not report.reviews:
        out += ["No review was recorded.", ""]
    for check in report.reviews:
        review = check.review
        assert review is not None
        entered = "the person" if review.entered_by == "person" else "an agent acting for the person"
        model = f" ({text_code(review.model)})" if review.model else ""
        reviewed = f", reviewing {review.check}" if review.check else ""
        out += [
            f"- {check.id} on {check.target}: **{WORDS[WORD_OF_RESULT[check.result]]}** by "
            f"{text_plain(review.reviewer)}, entered by {entered}{model}{reviewed}. Reason: {text_code(review.reason)}"
        ]
    if report.reviews:
        out.append("")
    out += ["## Assumptions the agent added", ""]
    if not report.assumptions:
        out += ["The agent added no assumption.", ""]
    for assumption in report.assumptions:
        node = assumption.node
        downstream = f"; {len(assumption.downstream)} assessed nodes rest on it" if assumption.downstream else ""
        out.append(
            f"- `{node.id}`{_credence(node)}: {text_code(node.text)} (a premise of "
            f"{', '.join(assumption.conclusions)}{downstream})"
        )
    out += ["", "## Untied and uncalibrated checks", ""]
    out += [
        f"- untied: {item['check']} on {item['target']}: {text_code(str(item['source']))}" for item in report.untied
    ]
    out += [
        f"- uncalibrated: {item['check']} ({item['type']}) made with {text_code(str(item['model']))}"
        for item in report.uncalibrated
    ]
    if not report.untied and not report.uncalibrated:
        out.append("None.")
    cover = report.coverage
    out += [
        "",
        "## Coverage",
        "",
        f"No check touched {len(cover.numerals)} of {cover.numeral_chunks} chunks that write numerals, and "
        f"{len(cover.equations)} of {cover.equation_chunks} equations.",
        "",
    ]
    out += [f"- {item.node} ({item.kind}): {', '.join(item.numerals)}" for item in cover.numerals]
    if cover.equations:
        out += [f"- equations: {', '.join(item.node for item in cover.equations)}"]
    if report.document_limits:
        out += ["", f"## {report.limits_title}", ""]
        if report.limits_message:
            out += [text_plain(report.limits_message), ""]
        out += [f"- {text_plain(what)}: {text_code(said)}" for what, said in report.document_limits]
    out += ["", "## The paper, chunk by chunk", ""]
    out += [_node_line(node) for node in report.document_nodes]
    out += [
        "",
        "## The run",
        "",
        f"- run id: `{identity.run}` (directory {text_code(identity.directory)})",
        *(f"- paper file: {text_code(name)} `{digest}`" for name, digest in identity.paper),
        f"- rubric: {text_plain(identity.rubric_name)} {text_plain(identity.rubric_version)} "
        f"`{identity.rubric_digest}`",
        "- models: " + ", ".join(f"{text_code(model)} ({calls} calls)" for model, calls in identity.models),
        f"- calls: {identity.calls}; graph `{identity.graph}`",
        "- versions: " + ", ".join(f"{name} {text_plain(version)}" for name, version in identity.versions),
        f"- replay: {text_plain(integrity.replay.summary)}",
        f"- verify: {text_plain(integrity.verify.summary)}",
    ]
    return "\n".join(out) + "\n"
