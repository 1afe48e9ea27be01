"""Every code is documented, once, and the documentation cannot drift from the code."""

from __future__ import annotations

import re

from cgx_core.codes import MEANINGS, Code, errors_markdown
from support import ROOT


def test_every_code_is_kebab_case_and_has_a_meaning() -> None:
    for code in Code:
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", code.value), code
        assert MEANINGS[code].endswith("."), code
    assert set(MEANINGS) == set(Code)


def test_docs_errors_md_is_generated_from_the_codes() -> None:
    assert (ROOT / "docs" / "errors.md").read_text(encoding="utf-8") == errors_markdown()


def test_docs_tools_md_is_generated_from_the_registry() -> None:
    from cgx_core.tooling.reference import tools_markdown
    from cgx_core.tooling.registry import TOOLS

    text = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    assert text == tools_markdown()
    for name in TOOLS:
        assert f"## {name}\n" in text
