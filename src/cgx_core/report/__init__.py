"""The report a person reads of a finished run: one model (`model.build_report`), three renderings (text for
the terminal and the demo, Markdown, and a self-contained HTML page).

Credences are what finish_run recorded in report.json (`credences`; checks/credences.py computes them),
never arithmetic here. Every string from the paper or a source is untrusted: the HTML escapes it (and a Content
Security Policy admits only the page's own style and script), the Markdown puts it where no markup runs.
"""
