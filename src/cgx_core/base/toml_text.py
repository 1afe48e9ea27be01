"""Reading TOML from outside (a rubric, a tolerance table): every way the text can fail is the caller's code.

`tomllib` raises more than `TOMLDecodeError`: arrays or inline tables nested a few thousand deep exhaust its
recursion (`RecursionError`), and an integer of more than 4,300 digits exceeds Python's limit on converting
text to an int (`ValueError`). Each is a property of the file, so each is refused with the file's own code,
never an internal error.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

from cgx_core.codes import Code
from cgx_core.errors import CgxError


def read_toml(text: str, code: Code, name: str, parse_float: Callable[[str], Any] = float) -> dict[str, Any]:
    """The TOML document in `text`, or `CgxError(code)` saying what is wrong with the file `name`."""
    try:
        return tomllib.loads(text, parse_float=parse_float)
    except tomllib.TOMLDecodeError as error:
        raise CgxError(code, f"{name} is not TOML: {error}") from None
    except RecursionError:
        raise CgxError(code, f"{name} nests arrays or tables too deeply to read") from None
    except ValueError as error:  # an integer longer than Python reads (sys.get_int_max_str_digits)
        said = str(error).split(";")[0]
        raise CgxError(code, f"{name} holds a value this package cannot read ({said})") from None
