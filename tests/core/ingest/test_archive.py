"""start_run on an archive of a paper's sources (as arXiv serves them): the main file found and read with the
archive as its root, the archive's digest recorded, replay from the archive identical; and every hostile
archive refused with its code, leaving no run behind."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.base.digests import bytes_digest
from cgx_core.base.limits import MAX_ARCHIVE_MEMBERS, MAX_ARCHIVE_UNPACKED_BYTES
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
WARMSTART = "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview"
MAIN = b"\\documentclass{article}\n\\begin{document}\nThe method is fast. \\input{sections/result}\n\\end{document}\n"
RESULT = b"It ran in 12 seconds on 3 machines.\n"


def start(run: Path, paper: Path, **more: Any) -> tuple[dict[str, Any], bool]:
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(RUBRIC), "model": "test-model", **more}
    return call_tool("start_run", arguments)


def _tar(path: Path, members: dict[str, bytes], *, extra: Sequence[tarfile.TarInfo] = ()) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for info in extra:
            archive.addfile(info)
    return path


def _statements(run: Path) -> list[str]:
    graph = json.loads((run / "ingested.json").read_bytes())
    return [node["statement"] for node in graph["nodes"]]


def test_warmstart_sources_as_a_tar_gz_ingest_as_the_folder_does_and_replay(papers: Path, tmp_path: Path) -> None:
    folder = papers / WARMSTART
    archive = tmp_path / "2010.00000.tar.gz"
    with tarfile.open(archive, "w:gz") as packed:
        for path in sorted(folder.rglob("*")):
            packed.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False)
    from_folder, error = start(tmp_path / "folder", folder / "main.tex")
    assert not error, from_folder
    from_archive, error = start(tmp_path / "archive", archive)
    assert not error, from_archive
    assert (tmp_path / "archive" / "ingested.json").read_bytes() == (tmp_path / "folder" / "ingested.json").read_bytes()
    assert from_archive["document"]["archive"] == {
        "name": archive.name,
        "digest": bytes_digest(archive.read_bytes()),
        "main": "main.tex",
    }
    assert from_archive["document"]["files"] == from_folder["document"]["files"]
    report = replay(tmp_path / "archive", source=archive, sources=None)
    assert report.identical


def test_the_documentclass_file_is_the_main_one_and_main_chooses_another(tmp_path: Path) -> None:
    archive = tmp_path / "paper.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("src/macros.tex", b"\\newcommand{\\x}{y}\n")
        packed.writestr("src/sections/result.tex", RESULT)
        packed.writestr("src/paper.tex", MAIN)
        packed.writestr("src/old.tex", b"% \\documentclass{article}\nAn old draft.\n")  # commented out: not a main
        packed.writestr("supplement.tex", b"\\documentclass{article}\nNo document environment.\n")
    result, error = start(tmp_path / "run", archive)
    assert not error, result
    assert result["document"]["archive"]["main"] == "src/paper.tex"
    assert [item["name"] for item in result["document"]["files"]["first"]] == [
        "src/paper.tex",
        "src/sections/result.tex",
    ]
    assert any("12 seconds" in text for text in _statements(tmp_path / "run"))
    chosen, error = start(tmp_path / "other", archive, main="supplement.tex")
    assert not error, chosen
    assert chosen["document"]["archive"]["main"] == "supplement.tex"


def test_one_gzipped_tex_file_is_a_paper(tmp_path: Path) -> None:
    archive = tmp_path / "2101.00001.gz"
    archive.write_bytes(
        gzip.compress(b"\\documentclass{article}\n\\begin{document}\nWe ran 4 trials.\n\\end{document}\n")
    )
    result, error = start(tmp_path / "run", archive)
    assert not error, result
    assert result["document"]["archive"]["main"] == "2101.00001.tex"


def _refused(tmp_path: Path, archive: Path, code: str, **more: Any) -> str:
    result, error = start(tmp_path / "run", archive, **more)
    assert error and result["error"]["code"] == code, result
    assert not (tmp_path / "run").exists()
    message: str = result["error"]["message"]
    assert str(tmp_path) not in message  # no local path reaches the agent
    return message


@pytest.mark.parametrize("name", ["../escape.tex", "/etc/evil.tex", "a/../../escape.tex"])
def test_a_member_written_outside_the_folder_is_refused(tmp_path: Path, name: str) -> None:
    archive = _tar(tmp_path / "evil.tar.gz", {"main.tex": MAIN, name: b"x"})
    assert "outside the folder" in _refused(tmp_path, archive, "archive-unsafe")
    assert not (tmp_path / "escape.tex").exists()


def test_a_zip_member_with_a_parent_part_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("main.tex", MAIN)
        packed.writestr("../../escape.tex", b"x")
    _refused(tmp_path, archive, "archive-unsafe")


def test_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("sections/result.tex")
    link.type = tarfile.SYMTYPE
    link.linkname = "/etc/passwd"
    archive = _tar(tmp_path / "link.tar.gz", {"main.tex": MAIN}, extra=[link])
    assert "link" in _refused(tmp_path, archive, "archive-unsafe")


def test_a_zip_bomb_is_refused_while_it_unpacks(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    block = bytes(1 << 20)
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as packed:
        packed.writestr("main.tex", MAIN)
        with packed.open("zeros.tex", "w") as member:
            for _ in range(MAX_ARCHIVE_UNPACKED_BYTES // len(block) + 1):
                member.write(block)
    assert archive.stat().st_size < 2 * 1024 * 1024  # small as given, huge unpacked
    assert "bomb" in _refused(tmp_path, archive, "archive-too-large")


def test_too_many_members_are_refused(tmp_path: Path) -> None:
    members = {f"f{index}.txt": b"" for index in range(MAX_ARCHIVE_MEMBERS + 1)}
    archive = _tar(tmp_path / "many.tar.gz", {"main.tex": MAIN, **members})
    _refused(tmp_path, archive, "archive-too-large")


def test_a_damaged_or_fake_archive_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "paper.tar.gz"
    fake.write_bytes(b"this is not an archive")
    _refused(tmp_path, fake, "archive-invalid")
    truncated = _tar(tmp_path / "cut.tar.gz", {"main.tex": MAIN * 1000})
    truncated.write_bytes(truncated.read_bytes()[:200])
    _refused(tmp_path, truncated, "archive-invalid")
    corrupt = tmp_path / "corrupt.zip"
    with zipfile.ZipFile(corrupt, "w", compression=zipfile.ZIP_DEFLATED) as packed:
        packed.writestr("main.tex", MAIN * 50)
    data = bytearray(corrupt.read_bytes())
    data[60:90] = bytes(30)  # the deflated member's bytes, not its headers
    corrupt.write_bytes(bytes(data))
    _refused(tmp_path, corrupt, "archive-invalid")


def test_no_main_file_is_refused_with_the_files_it_has(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "nomain.tar.gz", {"a.tex": RESULT, "b.tex": RESULT})
    message = _refused(tmp_path, archive, "archive-no-main")
    assert "a.tex" in message and "main" in message
    named = _tar(tmp_path / "named.tar.gz", {"main.tex": MAIN, "sections/result.tex": RESULT})
    _refused(tmp_path, named, "archive-no-main", main="missing.tex")
    _refused(tmp_path, named, "archive-unsafe", main="../main.tex")


def test_main_root_and_bibliography_are_refused_where_they_do_not_apply(tmp_path: Path) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_bytes(MAIN.replace(b"\\input{sections/result}", b""))
    assert "not one" in _refused(tmp_path, paper, "invalid-arguments", main="paper.tex")
    archive = _tar(tmp_path / "paper.tar.gz", {"main.tex": MAIN, "sections/result.tex": RESULT})
    _refused(tmp_path, archive, "invalid-arguments", root=str(tmp_path))
    _refused(tmp_path, archive, "invalid-arguments", bibliography=str(tmp_path / "x.bib"))
