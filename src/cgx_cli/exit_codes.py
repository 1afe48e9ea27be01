"""Exit codes of every command: 0 success, 1 a difference found, 2 refused or broken (like GNU diff)."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    DIFFERENCE = 1
    ERROR = 2
