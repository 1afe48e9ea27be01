"""Every code is documented, once, and the documentation cannot drift from the code; the core names no
check type's code (a check type owns its codes: docs/plugins.md)."""

from __future__ import annotations

import re
import subprocess
import sys

from cgx_core.checks.installed import installed_check_types
from cgx_core.codes import MEANINGS, Code
from cgx_core.tooling.error_reference import errors_markdown
from support import ROOT

CORE_PACKAGES = ("cgx_core", "cgx_cli", "cgx_mcp")


def test_every_code_is_kebab_case_and_has_a_meaning() -> None:
    for code in Code:
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", code.value), code
        assert MEANINGS[code].endswith("."), code
    assert set(MEANINGS) == set(Code)


def test_every_check_types_code_has_a_meaning_and_is_not_a_core_code() -> None:
    """A check type's own code is its own: were it also the core's, the page would give two meanings."""
    for installed in installed_check_types():
        kind = installed.check_type
        for code, meaning in kind.codes.items():
            assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", code), (kind.name, code)
            assert meaning.endswith("."), (kind.name, code)
            assert code not in set(Code), (kind.name, code)


def test_docs_errors_md_is_generated_from_the_codes() -> None:
    assert (ROOT / "docs" / "errors.md").read_text(encoding="utf-8") == errors_markdown()


def test_the_errors_page_command_prints_the_core_then_each_check_types_own_codes() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "cgx_core.tooling.error_reference"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert printed == errors_markdown()
    core = printed.index("## The core's codes")
    recompute = printed.index("## `recompute-numbers` (credencegraph-extract)")
    citation = printed.index("## `citation-support` (credencegraph-extract)")
    assert core < citation < recompute
    assert "| `check-not-assessed` |" in printed[core:citation]
    assert "| `operand-not-in-text` |" in printed[recompute:]
    assert "| `source-untied` |" in printed[citation:recompute]
    assert "| `percent-not-in-text` |" in printed  # a third party's codes are listed as a built-in's are


def test_the_core_names_no_check_types_code() -> None:
    """Neither a code string nor a member named after one: the core learns a check type's codes only from
    the check type (its `codes`, its `another_source_codes`, a check record's `code`)."""
    owned = {code for installed in installed_check_types() for code in installed.check_type.codes}
    assert "source-untied" in owned and "latex-invalid" in owned  # the built-ins declare theirs
    patterns = {
        code: re.compile(rf"(?<![\w-])({re.escape(code)}|{re.escape(code.upper().replace('-', '_'))})(?![\w-])")
        for code in owned
    }
    found = []
    for package in CORE_PACKAGES:
        for path in sorted((ROOT / "src" / package).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found.extend(
                    f"{path.relative_to(ROOT)}:{number}: {code}"
                    for code, pattern in patterns.items()
                    if pattern.search(line)
                )
    assert found == []


def test_docs_tools_md_is_generated_from_the_registry() -> None:
    from cgx_core.tooling.reference import tools_markdown
    from cgx_core.tooling.registry import TOOLS

    text = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    assert text == tools_markdown()
    for name in TOOLS:
        assert f"## {name}\n" in text
