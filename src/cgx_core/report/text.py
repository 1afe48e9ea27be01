"""The report as plain text, for a terminal (the `report` command's standard output, and the demo's summary).

Text from the paper or a source may hold control characters (a terminal escape sequence in a chunk would
drive the reader's terminal), so every string is printed with its non-printable characters escaped.
"""

from __future__ import annotations

from cgx_core.report.credences import reading
from cgx_core.report.model import NodeEntry, RunReport
from cgx_core.report.review_commands import review_command

TEXT_WIDTH = 90


def printable(text: str) -> str:
    """One line of printable text: whitespace runs become one space, other control characters are escaped."""
    joined = " ".join(text.split())
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in joined)


def _short(text: str) -> str:
    text = printable(text)
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 3] + "..."


def _credence(node: NodeEntry) -> str:
    if node.credence is None:
        return "  -   ->   -  "
    return f"{node.credence.before:.3f} -> {node.credence.after:.3f}"


def integrity_line(report: RunReport) -> str:
    integrity = report.integrity
    return f"Replay: {integrity.replay.summary}. Verify: {integrity.verify.summary}."


def identity_line(report: RunReport) -> str:
    identity = report.identity
    main, digest = identity.paper[0]
    models = ", ".join(f"{printable(model)} ({calls} calls)" for model, calls in identity.models)
    return (
        f"Run {identity.run} ({printable(identity.directory)}): {printable(main)} ({digest}); rubric "
        f"{printable(identity.rubric_name)} {printable(identity.rubric_version)} ({identity.calibration}); "
        f"models: {models}."
    )


def text_report(report: RunReport) -> str:
    """What the finished run says, for a person at a terminal."""
    lines = [
        identity_line(report),
        integrity_line(report),
        "",
        "Assessed nodes: verdict, credence before -> after the observations",
    ]
    for node in report.assessed:
        verdict = node.verdict or ""
        lines.append(f"  {node.id:5} {node.kind:16} {verdict:13} {_credence(node)}  {_short(node.text)}")
        said = reading(node.credence, report.credence_failures.get(node.id), node.verdict)
        lines += [f"        {printable(sentence)}" for sentence in said]
    lines.append(f"  Inference: {report.credence_method}.")
    if report.moved_by_note:
        lines.append(f"  What moved each credence most: {printable(report.moved_by_note)}.")
    lines += [
        "",
        "Failed checks:"
        if report.failed_checks
        else "Failed checks: none."
        if report.unread is None
        else f"Failed checks: none. {report.none_failed}",
    ]
    lines += [
        f"  {check.id} {check.type} on {check.target}: {printable(check.detail)}" for check in report.failed_checks
    ]
    if report.reviews:
        lines += ["", "Reviews:"]
        for check in report.reviews:
            assert check.review is not None
            lines.append(
                f"  {check.id} on {check.target}: {printable(check.detail)}. Reason: {_short(check.review.reason)}"
            )
    lines += ["", "Assumptions to review (added by the agent, resting on nothing):"]
    for assumption in report.assumptions:
        node = assumption.node
        lines.append(f"  {node.id}: {printable(node.text)} (needed by {', '.join(assumption.conclusions)})")
    lines += ["", f"Awaiting review ({len(report.awaiting)})" + (":" if report.awaiting else ": nothing.")]
    for item in report.awaiting:
        where = f"{item['check']} ({item['type']}) on {item['node']}" if "check" in item else item["node"]
        lines.append(f"  {where}: {', '.join(item['why'])}")
        if report.review_type is not None:
            lines.append(f"      {printable(review_command(report.identity.directory, item))}")
    if report.review_type is None:
        lines.append("  (the rubric declares no review check type, so this run cannot record a review)")
    if report.uncalibrated:
        models = sorted({str(item["model"]) for item in report.uncalibrated})
        lines += [
            "",
            f"Uncalibrated: {len(report.uncalibrated)} checks made with {models}, a model the rubric's check type "
            "was not fitted with.",
        ]
    if report.untied:
        lines += ["", f"Untied citation checks: {', '.join(str(item['check']) for item in report.untied)}."]
    if report.document_limits:
        lines += ["", f"{report.limits_title} (document limits):"]
        lines += [f"  {printable(what)}: {printable(said)}" for what, said in report.document_limits]
    cover = report.coverage
    lines += [
        "",
        f"Not touched by any check: {len(cover.numerals)} of {cover.numeral_chunks} chunks that write numerals, "
        f"{len(cover.equations)} of {cover.equation_chunks} equations.",
    ]
    return "\n".join(lines)
