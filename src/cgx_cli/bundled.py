"""What this package ships besides its code: the rubrics, the agent skill (and the example, see `demo`).

An installed wheel carries them inside `cgx_cli/` (`rubrics/`, `skill/`, `example/`: see pyproject's
force-include); a checkout (an editable install) reads them from the repository. `rubrics` lists the
rubrics and copies one to edit; `skill` prints SKILL.md or copies it into a harness's skills folder.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.tooling.output import result_text

SKILL_NAME = "credencegraph-extract"


def _shipped(inside: str, in_checkout: str) -> Path:
    """A folder shipped in the wheel as `cgx_cli/<inside>`, or in the checkout this package runs from."""
    shipped = Path(__file__).with_name(inside)
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / in_checkout


def rubrics_folder() -> Path:
    return _shipped("rubrics", "examples/rubrics")


def skill_folder() -> Path:
    return _shipped("skill", f"skills/{SKILL_NAME}")


def _about(text: str) -> str:
    """The first line of a rubric's leading comment, without its file name."""
    for line in text.splitlines():
        if line.startswith("#"):
            about = line.lstrip("# ").strip()
            return about.split(" -- ", 1)[-1] if " -- " in about else about
        if line.strip():
            break
    return ""


def listing() -> dict[str, object]:
    """Each shipped rubric: its file, its name and version as it declares them, and what it is for."""
    found = []
    for path in sorted(rubrics_folder().glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        declared = tomllib.loads(text).get("rubric", {})
        found.append(
            {"file": path.name, "name": declared.get("name"), "version": declared.get("version"), "about": _about(text)}
        )
    return {"rubrics": found, "copy": "credencegraph-extract rubrics NAME --copy PATH"}


def _named(name: str) -> Path:
    wanted = name if name.endswith(".toml") else f"{name}.toml"
    path = rubrics_folder() / wanted
    if "/" in wanted or not path.is_file():
        names = [item["file"] for item in listing()["rubrics"]]  # type: ignore[attr-defined]
        raise CgxError(Code.RUBRIC_NOT_FOUND, f"no shipped rubric '{name}'; the rubrics are {names}")
    return path


def _copy(source: Path, destination: Path) -> Path:
    """Copy a file, never over an existing one (an edited rubric or skill is someone's work)."""
    if destination.exists():
        raise CgxError(Code.IO_ERROR, f"'{destination}' already exists: choose another path, or remove it first")
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot write '{destination}': {error.strerror}") from None
    return destination


def rubrics_command(name: str | None, copy: str | None) -> int:
    """List the shipped rubrics, print one (NAME), or copy one (NAME --copy PATH)."""
    if name is None:
        if copy is not None:
            raise CgxError(Code.USAGE, "--copy needs the NAME of the rubric to copy")
        results().write(result_text(listing()) + "\n")
        return ExitCode.OK
    source = _named(name)
    if copy is None:
        results().write(source.read_text(encoding="utf-8"))
        return ExitCode.OK
    target = Path(copy)
    written = _copy(source, target / source.name if target.is_dir() else target)
    results().write(result_text({"copied": source.name, "to": str(written)}) + "\n")
    return ExitCode.OK


def skill_command(copy: str | None) -> int:
    """Print SKILL.md, or copy it to DIR/credencegraph-extract/SKILL.md."""
    source = skill_folder() / "SKILL.md"
    if copy is None:
        results().write(source.read_text(encoding="utf-8"))
        return ExitCode.OK
    written = _copy(source, Path(copy) / SKILL_NAME / "SKILL.md")
    results().write(result_text({"copied": "SKILL.md", "to": str(written)}) + "\n")
    return ExitCode.OK
