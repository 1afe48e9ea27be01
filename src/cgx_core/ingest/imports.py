r"""The import package's macros as credencegraph's reader can follow them: each written as an `\input`.

credencegraph's reader follows `\input` and `\include` only, relative to the main file's folder. A paper
written with the import package (`\import{dir}{file}`, `\subimport`, `\inputfrom`, ...; the ReScience and
ML Reproducibility Challenge templates read every section so) lost the prose of every imported file: its
whole body, in one real paper. So the text credencegraph's reader is given (and only that text: the other
readers follow the macros themselves) has each import that names a file of the paper written as the
`\input` of that file, relative to the main file's folder, and, inside an imported file, each `\input` that
names a file relative to its import folder written the same way. The files are the ones the scan of the paper
admitted (`PaperFiles`, the one place an argument becomes a file); a macro naming none stays as it is and
start_run lists it in `document.not_followed`. The rewriting keeps every line where it was, so the chunks'
locators are unchanged.
"""

from __future__ import annotations

import re
from typing import Final

import attrs

from cgx_core.ingest.latex_text import PaperFiles, uncommented

IMPORT_MACRO: Final = re.compile(
    r"\\(?P<macro>(?:sub)?import|(?:sub)?(?:input|include)from)\*?\s*"
    r"\{(?P<directory>[^{}]*)\}\s*\{(?P<file>[^{}]*)\}"
)
"""A macro of the import package with its folder and file (`\\subimport*{dir/}{file}`)."""
_FILE_MACRO: Final = re.compile(
    IMPORT_MACRO.pattern + r"|\\(?P<input>input|include)(?![A-Za-z@])\s*\{(?P<argument>[^{}]*)\}"
)


@attrs.define
class ImportsAsInputs:
    """The texts of one paper as credencegraph's reader is given them, file by file, in the order it reads them
    (an importing file before the files it imports, as the reader parses it first)."""

    files: PaperFiles
    folders: dict[str, str] = attrs.Factory(dict)
    """The import folder of each file read through an import (its `\\input`s are relative to it first)."""

    def text(self, name: str, text: str) -> str:
        """The text of the file `name`, every file macro of its (uncommented) text that names a file of the paper
        other than the one credencegraph's reader would find written as that file's `\\input`."""
        folder = self.folders.get(name)
        pieces: list[str] = []
        written = 0
        for match in _FILE_MACRO.finditer(uncommented(text)):
            replacement = self._input(match, name, folder)
            if replacement is not None:
                pieces += [text[written : match.start()], replacement]
                written = match.end()
        return "".join(pieces) + text[written:] if pieces else text

    def _input(self, match: re.Match[str], name: str, folder: str | None) -> str | None:
        if match["macro"] is not None:
            target, into = self.files.import_target(match["macro"], match["directory"], match["file"], name)
            if target is None:
                return None
            self.folders.setdefault(target, into)
            return f"\\input{{{self.files.located(target)}}}"
        if folder is None:
            return None
        target = self.files.input_target(match["argument"], folder)
        if target is None:
            return None
        self.folders.setdefault(target, folder)  # an \input of an imported file reads from its folder too
        if target == self.files.resolve(match["argument"]):
            return None
        return f"\\{match['input']}{{{self.files.located(target)}}}"
