"""The wheel a user installs carries what the commands need besides the code: the example (demo), the
rubrics (rubrics, paper.toml for real papers) and the agent skill (skill). Built from this checkout and
installed into a fresh virtual environment, offline, with bytecode compiled at install; then used from
outside the checkout.

The dependencies are not installed again: the fresh environment reads them from this checkout's synced one
(a `.pth` that adds its site-packages after the environment's own, so the wheel's packages come first).
Installing them offline from uv's cache made the test depend on the cache's state: on a fresh machine a
pinned package absent from the cache failed it; with the network it would depend on the network."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support import PAPERS, ROOT


def uv() -> str:
    found = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    done = subprocess.run([found, "--version"], capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        pytest.skip("uv is not installed: building and installing the wheel needs it")
    return found


def step(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=cwd)
    assert done.returncode == 0, f"{argv[:3]}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ folder of a fresh venv with the wheel installed (dependencies as uv.lock pins them)."""
    tool = uv()
    work = tmp_path_factory.mktemp("wheel")
    step(tool, "build", "--wheel", "--offline", "--out-dir", str(work / "dist"))
    [wheel] = (work / "dist").glob("credencegraph_extract-*.whl")
    step(tool, "venv", "--quiet", "--python", sys.executable, str(work / "venv"))
    site = Path(
        step(
            str(work / "venv" / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"
        ).stdout.strip()
    )
    synced = sysconfig.get_paths()["purelib"]  # this checkout's environment: the dependencies uv.lock pins
    (site / "zz_synced_dependencies.pth").write_text(f"import site; site.addsitedir({synced!r})\n", encoding="utf-8")
    environment = ["--python", str(work / "venv" / "bin" / "python")]
    step(tool, "pip", "install", "--quiet", "--offline", "--compile-bytecode", "--no-deps", *environment, str(wheel))
    return work / "venv" / "bin"


def cli(installed: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return step(str(installed / "credencegraph-extract"), *argv, cwd=cwd)


def test_the_installed_wheel_ships_the_rubrics_the_skill_and_the_example(installed: Path, tmp_path: Path) -> None:
    package = json.loads(
        step(str(installed / "python"), "-c", "import cgx_cli, json; print(json.dumps(cgx_cli.__file__))").stdout
    )
    assert not package.startswith(str(ROOT)), "the test must run the installed copy, not the checkout"
    listing = json.loads(cli(installed, "rubrics", cwd=tmp_path).stdout)["rubrics"]
    assert {item["file"] for item in listing} == {"example-paper.toml", "paper.toml"}
    cli(installed, "rubrics", "paper", "--copy", str(tmp_path), cwd=tmp_path)
    assert (tmp_path / "paper.toml").read_bytes() == (ROOT / "examples" / "rubrics" / "paper.toml").read_bytes()
    skill = (ROOT / "skills" / "credencegraph-extract" / "SKILL.md").read_text(encoding="utf-8")
    assert cli(installed, "skill", cwd=tmp_path).stdout == skill
    demo = cli(installed, "demo", str(tmp_path / "demo"), cwd=tmp_path).stdout
    assert "Replay: byte-identical. Verify: 0 differences." in demo
    listed = json.loads(cli(installed, "tools", cwd=tmp_path).stdout)
    assert {item["name"] for item in listed["check_types"]} >= {
        "recompute-numbers",
        "rederive-maths",
        "citation-support",
    }


def test_the_installed_package_has_its_bytecode_compiled_at_install(installed: Path) -> None:
    site = next((installed.parent / "lib").glob("python3.*/site-packages"))
    for package in ("cgx_core", "cgx_cli", "cgx_checks", "cgx_mcp"):
        assert list((site / package).glob("__pycache__/*.pyc")), package


def test_the_shipped_real_paper_rubric_starts_a_run_on_a_real_paper(installed: Path, tmp_path: Path) -> None:
    paper = PAPERS / "farr-normal-normal" / "src" / "tex" / "ms.tex"
    cli(installed, "rubrics", "paper", "--copy", str(tmp_path / "paper.toml"), cwd=tmp_path)
    arguments = {"paper": str(paper), "rubric": "paper.toml", "model": "m"}
    started = json.loads(
        cli(installed, "tool", "start_run", "--run", "run", "--args", json.dumps(arguments), cwd=tmp_path).stdout
    )
    assert started["counts"]["untyped"] > 0
    assert any(item["name"] == "rederive-maths" and "proposal" in item for item in started["checks"])
