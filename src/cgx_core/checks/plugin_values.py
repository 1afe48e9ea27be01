"""What a check type may give back, checked before anything is written.

A plugin's values go into the run's graph, its log and `checks/c-NNN/`, which replay rebuilds byte for
byte and finish_run compiles. One bad value (a result `"maybe"`, a NaN, a set, a gigabyte of log, a
detail that spans lines) would be stored for ever: checks are append-only, so the run could never be
finished. So every value a plugin returns is checked here, and every problem is named at once; the guard
(`cgx_core.checks.guard`) turns a non-empty list into an `error` check or a refusal naming the plugin.

The rules are JSON's, made strict: objects with string keys, finite numbers, integers that print, bounded
depth and size. They are the same for built-in and third-party check types.
"""

from __future__ import annotations

import json
import math
import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.checks.api import Outcome, Prepared, Refusal

RESULTS: Final = ("passed", "failed", "error")
CODE_PATTERN: Final = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_CODE_CHARS: Final = 64
MAX_LINE_CHARS: Final = 2_000
"""A detail, a refusal's message or fix, a slot, a library name or version."""
MAX_KEY_CHARS: Final = 10_000
"""An observation key (a canonical text of what decides the outcome)."""
MAX_JSON_BYTES: Final = 4 * 1024 * 1024
"""Inputs, output, what a check read, its notices: each as JSON."""
MAX_LOG_BYTES: Final = 4 * 1024 * 1024
MAX_SOURCE_BYTES: Final = 64 * 1024 * 1024
"""All the bytes a check gives as sources or metadata, together."""
MAX_DEPTH: Final = 64
MAX_INTEGER_DIGITS: Final = 4_000
"""An integer with more digits does not print as JSON (Python's int-to-str limit is 4,300)."""


def json_problems(value: Any, where: str) -> list[str]:
    """Why `value` is not strict, bounded JSON (empty when it is)."""
    found: list[str] = []
    _walk(value, where, 0, found)
    if not found:
        size = len(json.dumps(value, ensure_ascii=False))
        if size > MAX_JSON_BYTES:
            found.append(f"{where} is {size} bytes of JSON, more than {MAX_JSON_BYTES}")
    return found[:20]


def _walk(value: Any, where: str, depth: int, found: list[str]) -> None:
    if len(found) >= 20:
        return
    if depth > MAX_DEPTH:
        found.append(f"{where} is nested more than {MAX_DEPTH} levels deep")
    elif isinstance(value, str):
        if _has_surrogates(value):
            found.append(f"{where} is not valid text (it holds lone surrogates)")
    elif value is None or isinstance(value, bool):
        return
    elif isinstance(value, int):
        if value.bit_length() > MAX_INTEGER_DIGITS * 3.33:
            found.append(f"{where} is an integer of more than {MAX_INTEGER_DIGITS} digits")
    elif isinstance(value, float):
        if not math.isfinite(value):
            found.append(f"{where} is {value}, which JSON cannot hold")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _walk(item, f"{where}[{index}]", depth + 1, found)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                found.append(f"{where} has the key {key!r}, which is not a string")
                continue
            _walk(item, f"{where}.{key}", depth + 1, found)
    else:
        found.append(f"{where} is a {type(value).__name__}, which is not JSON")


def line_problems(value: Any, where: str, *, empty: bool = False, limit: int = MAX_LINE_CHARS) -> list[str]:
    """Why `value` is not one line of text of at most `limit` characters."""
    if not isinstance(value, str):
        return [f"{where} must be a string, got a {type(value).__name__}"]
    if not value.strip() and not empty:
        return [f"{where} is empty"]
    if len(value) > limit:
        return [f"{where} is {len(value)} characters, more than {limit}"]
    if "\n" in value or "\r" in value:
        return [f"{where} spans lines; it must be one line"]
    if _has_surrogates(value):
        return [f"{where} is not valid text (it holds lone surrogates)"]
    return []


def shortened(text: str) -> str:
    """`text` cut to `MAX_LINE_CHARS`, saying so at its end, when it is longer; else `text` itself.

    A refusal or a detail is what an agent or a person reads to act, and its length is the plugin's choice of
    words (a list of the numerals a chunk writes can run to thousands of characters): cutting it keeps the
    code and the first words, where turning it into `plugin-failed` hid both."""
    if len(text) <= MAX_LINE_CHARS:
        return text
    note = f" [... shortened by the engine from {len(text)} characters to {MAX_LINE_CHARS}]"
    return text[: MAX_LINE_CHARS - len(note)] + note


def within_length(value: Any) -> Any:
    """A Refusal with its message and fix, or an Outcome with its detail, `shortened`; any other value as it
    is (its other problems are `prepared_problems`' and `outcome_problems`')."""
    if isinstance(value, Refusal) and isinstance(value.message, str) and isinstance(value.fix, str):
        return attrs.evolve(value, message=shortened(value.message), fix=shortened(value.fix))
    if isinstance(value, Outcome) and isinstance(value.detail, str):
        return attrs.evolve(value, detail=shortened(value.detail))
    return value


def code_problems(value: Any, where: str) -> list[str]:
    """Why `value` is not a stable code (kebab-case, at most MAX_CODE_CHARS characters)."""
    if not isinstance(value, str) or len(value) > MAX_CODE_CHARS or CODE_PATTERN.fullmatch(value) is None:
        return [f"{where} must be a kebab-case code of at most {MAX_CODE_CHARS} characters, got {shown(value)}"]
    return []


def prepared_problems(value: Any, proposed_target: str) -> list[str]:
    """What is wrong with what `prepare` returned (a Prepared or a Refusal)."""
    if isinstance(value, Refusal):
        return refusal_problems(value)
    if not isinstance(value, Prepared):
        return [f"prepare must return a Prepared or a Refusal, got {shown(value)}"]
    found = []
    if value.target != proposed_target:
        found.append(
            f"prepare attached the check to {shown(value.target)}, not the proposed target '{proposed_target}'"
        )
    if not isinstance(value.inputs, Mapping):
        found.append(f"Prepared.inputs must be a JSON object, got {shown(value.inputs)}")
    else:
        found.extend(json_problems(value.inputs, "Prepared.inputs"))
    return found


def refusal_problems(value: Refusal) -> list[str]:
    return [
        *code_problems(str(value.code) if isinstance(value.code, str) else value.code, "Refusal.code"),
        *line_problems(value.message, "Refusal.message"),
        *line_problems(value.fix, "Refusal.fix"),
    ]


def outcome_problems(value: Any, *, rerun: bool = False) -> list[str]:
    """What is wrong with what `run` (or `rerun`, which may also return None) returned."""
    if rerun and value is None:
        return []
    if not isinstance(value, Outcome):
        return [f"{'rerun' if rerun else 'run'} must return an Outcome, got {shown(value)}"]
    found = []
    if value.result not in RESULTS:
        found.append(f"Outcome.result must be one of {list(RESULTS)}, got {shown(value.result)}")
    found.extend(line_problems(value.detail, "Outcome.detail"))
    if not isinstance(value.output, Mapping):
        found.append(f"Outcome.output must be a JSON object, got {shown(value.output)}")
    else:
        found.extend(json_problems(value.output, "Outcome.output"))
    if not isinstance(value.log, str):
        found.append(f"Outcome.log must be a string, got {shown(value.log)}")
    elif len(value.log.encode("utf-8", "surrogatepass")) > MAX_LOG_BYTES:
        found.append(f"Outcome.log is more than {MAX_LOG_BYTES} bytes")
    elif _has_surrogates(value.log):
        found.append("Outcome.log is not valid text (it holds lone surrogates)")
    found.extend(_libraries_problems(value.libraries))
    if value.code is not None:
        found.extend(code_problems(value.code, "Outcome.code"))
    found.extend(json_problems(value.read, "Outcome.read"))
    found.extend(_bytes_problems(value.sources, "Outcome.sources"))
    found.extend(_bytes_problems(value.metadata, "Outcome.metadata"))
    found.extend(_notices_problems(value.notices))
    return found


def _libraries_problems(libraries: Any) -> list[str]:
    return pairs_problems(
        libraries,
        "Outcome.libraries must map names to versions",
        lambda name: line_problems(name, "a library's name"),
        lambda name, version: line_problems(version, f"the version of library {shown(name)}"),
    )


def codes_problems(codes: Any) -> list[str]:
    """What is wrong with the codes a plugin defines (`define_codes`, and a check type's `codes`): each a
    kebab-case code with a one-line meaning."""
    return pairs_problems(
        codes,
        "its codes must map each code to its meaning",
        lambda code: code_problems(code, "a code it defines"),
        lambda code, meaning: line_problems(meaning, f"the meaning of its code {shown(code)}"),
    )


def pairs_problems(
    value: Any, must: str, key_problems: Callable[[Any], list[str]], item_problems: Callable[[Any, Any], list[str]]
) -> list[str]:
    """What is wrong with a mapping a plugin gives: not a mapping (`must` says what it must be), or each key
    and each value that is not what it must be."""
    if not isinstance(value, Mapping):
        return [f"{must}, got {shown(value)}"]
    found = []
    for key, item in value.items():
        found.extend(key_problems(key))
        found.extend(item_problems(key, item))
    return found


def _bytes_problems(items: Any, where: str) -> list[str]:
    if not isinstance(items, Mapping):
        return [f"{where} must map digests to bytes, got {shown(items)}"]
    found, total = [], 0
    for digest, data in items.items():
        if not isinstance(data, bytes):
            found.append(f"{where}[{shown(digest)}] must be bytes, got {shown(data)}")
            continue
        total += len(data)
        if digest != bytes_digest(data):
            found.append(f"{where} gives bytes under {shown(digest)}, which is not their digest")
    if total > MAX_SOURCE_BYTES:
        found.append(f"{where} holds {total} bytes, more than {MAX_SOURCE_BYTES}")
    return found


def _notices_problems(notices: Any) -> list[str]:
    if not isinstance(notices, Sequence) or isinstance(notices, (str, bytes)):
        return [f"Outcome.notices must be a list of objects, got {shown(notices)}"]
    found = []
    for index, notice in enumerate(notices):
        if not isinstance(notice, Mapping) or not isinstance(notice.get("type"), str):
            found.append(f"Outcome.notices[{index}] must be an object with a string 'type'")
        else:
            found.extend(json_problems(notice, f"Outcome.notices[{index}]"))
    return found


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def shown(value: Any) -> str:
    """A value in a message, short and without an object's address."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"a {type(value).__name__}"


_ADDRESS: Final = re.compile(r" at 0x[0-9a-fA-F]+")


def scrubbed(text: str) -> str:
    """A message without object addresses, which differ from one process to the next."""
    return " ".join(_ADDRESS.sub("", text).split())


def error_message(error: BaseException) -> str:
    """An exception's message, scrubbed and bounded (or a note when it cannot be shown)."""
    try:
        return scrubbed(str(error))[:2_000]
    except Exception:
        return "(its message cannot be shown)"


def error_trace(error: BaseException) -> str:
    """A traceback without local paths (file names only) or addresses, so a check's log is the same bytes
    on every machine and replay rebuilds it."""
    lines = [
        scrubbed(f"  {Path(frame.filename).name}:{frame.lineno} in {frame.name}: {(frame.line or '').strip()}")
        for frame in traceback.extract_tb(error.__traceback__)[-40:]
    ]
    return "\n".join(["Traceback (file:line in function):", *lines, f"{type(error).__name__}: {error_message(error)}"])
