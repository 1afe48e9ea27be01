"""The core's stable codes: every code the core itself answers with, in one place.

An agent reads a code to decide what to do next, and a script matches on it, so a code never changes
meaning once released. These are the codes the core itself raises (the tools, their arguments, the run,
the engine's own refusals, the numeral reader): a check type owns its codes and declares them with
`plugin_api.define_codes` (the core knows none of them). Two families share this module:

* error codes: the whole call was refused and the run is exactly as it was (`{"error": {...}}`);
* refusal codes: one record inside an accepted call was not applied (it comes back under `refused`
  with a `fix`), and check-error codes: a check that ran and ended in `error`.

`docs/errors.md` (`python -m cgx_core.codes`) lists these, then each installed check type's own, with their
meanings; a test keeps the file in step.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Code(StrEnum):
    """A stable, kebab-case code."""

    # -- the call itself (error codes) --------------------------------------------------------
    INVALID_JSON = "invalid-json"
    INVALID_ARGUMENTS = "invalid-arguments"
    UNKNOWN_TOOL = "unknown-tool"
    USAGE = "usage"
    RUN_NOT_FOUND = "run-not-found"
    NOT_A_RUN = "not-a-run"
    RUN_EXISTS = "run-exists"
    RUN_FORMAT = "run-format"
    RUN_LOCKED = "run-locked"
    RUN_CORRUPT = "run-corrupt"
    PAPER_NOT_FOUND = "paper-not-found"
    PAPER_EMPTY = "paper-empty"
    INGEST_INCOMPLETE = "ingest-incomplete"
    READER_CHANGED = "reader-changed"
    PAPER_NOT_UTF8 = "paper-not-utf8"
    PAPER_INVALID = "paper-invalid"
    PAPER_TOO_LARGE = "paper-too-large"
    ARCHIVE_INVALID = "archive-invalid"
    ARCHIVE_UNSAFE = "archive-unsafe"
    ARCHIVE_TOO_LARGE = "archive-too-large"
    ARCHIVE_NO_MAIN = "archive-no-main"
    RUBRIC_NOT_FOUND = "rubric-not-found"
    RUBRIC_INVALID = "rubric-invalid"
    RUBRIC_SUPPORTS = "rubric-supports"
    BIBLIOGRAPHY_INVALID = "bibliography-invalid"
    CITED_INVALID = "cited-invalid"
    SOURCES_INVALID = "sources-invalid"
    OUTSIDE_ROOT = "outside-root"
    HIDDEN_FILE = "hidden-file"
    ROOT_REFUSED = "root-refused"
    NOT_A_TERMINAL = "not-a-terminal"
    INGEST_OVER_BUDGET = "ingest-over-budget"
    IO_ERROR = "io-error"
    INTERNAL_ERROR = "internal-error"
    PLUGIN_INVALID = "plugin-invalid"
    CHECK_STALLED = "check-stalled"
    TOLERANCES_INVALID = "tolerances-invalid"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"

    # -- replay and verify ---------------------------------------------------------------------
    SOURCE_MISMATCH = "source-mismatch"
    TAMPERED = "tampered"
    NOT_FINISHED = "not-finished"
    GRAPH_INCOMPLETE = "graph-incomplete"
    WORKER_DIED = "worker-died"
    ENGINE_FAILED = "engine-failed"
    EXTRA_MISSING = "extra-missing"
    SCHEDULER_UNAVAILABLE = "scheduler-unavailable"
    JOURNAL_EXISTS = "journal-exists"
    JOURNAL_INVALID = "journal-invalid"
    RUN_LIST_INVALID = "run-list-invalid"
    KEY_INVALID = "key-invalid"
    CALIBRATION_INVALID = "calibration-invalid"

    # -- a record inside a call (refusal codes) -------------------------------------------------
    RECORD_INVALID = "record-invalid"
    UNKNOWN_NODE = "unknown-node"
    NOT_A_CHUNK = "not-a-chunk"
    CHILD_NOT_SPLIT = "child-not-split"
    UNKNOWN_TYPE = "unknown-type"
    ORIGIN_NOT_ALLOWED = "origin-not-allowed"
    FORM_INVALID = "form-invalid"
    FORM_NOT_IN_TEXT = "form-not-in-text"
    CLAUSE_NOT_ONCE = "clause-not-once"
    SPLIT_MISMATCH = "split-mismatch"
    ALREADY_SPLIT = "already-split"
    SPLIT_INVALID = "split-invalid"
    COMPOUND_NODE = "compound-node"
    RESTS_ON_UNKNOWN = "rests-on-unknown"
    RESTS_ON_TYPE = "rests-on-type"
    RESTS_ON_NO_RULE = "rests-on-no-rule"
    RESTS_ON_SELF = "rests-on-self"
    CYCLE = "cycle"
    HEDGE_NOT_IN_TEXT = "hedge-not-in-text"
    TARGETED_BY_CHECK = "targeted-by-check"
    DUPLICATE_RECORD = "duplicate-record"
    NO_PREMISES_TABLE = "no-premises-table"
    NOT_A_CONCLUSION = "not-a-conclusion"
    PREMISE_NOT_CHUNK = "premise-not-chunk"
    ASSUMPTION_UNDECLARED = "assumption-undeclared"
    RECLASSIFY_CONFLICT = "reclassify-conflict"

    # -- a check proposal (refusal codes) --------------------------------------------------------
    CHECK_TYPE_UNKNOWN = "check-type-unknown"
    CHECK_TYPE_UNDECLARED = "check-type-undeclared"
    CHECK_TARGET_TYPE = "check-target-type"
    CHECK_NOT_ASSESSED = "check-not-assessed"
    CHECK_DUPLICATE = "check-duplicate"
    CHECK_SAME_OBSERVATION = "check-same-observation"
    CHECK_WRONG_TOOL = "check-wrong-tool"
    PROPOSAL_INVALID = "proposal-invalid"
    CHECK_TARGET_NO_BASE = "check-target-no-base"
    PREMISES_INVALID = "premises-invalid"
    PREMISES_NOT_ACCEPTED = "premises-not-accepted"
    PREMISES_UNDECLARED = "premises-undeclared"

    # -- the numeral reader (plugin_api.read_numeral's NumeralError), which every check type uses --
    EXPRESSION_INVALID = "expression-invalid"
    EXPONENT_TOO_LARGE = "exponent-too-large"
    EXPRESSION_TOO_LARGE = "expression-too-large"

    # -- the engine's own check errors (in the check's detail and `code`) -----------------------
    PLUGIN_FAILED = "plugin-failed"
    PLUGIN_OVER_BUDGET = "plugin-over-budget"


MEANINGS: Final[dict[Code, str]] = {
    Code.INVALID_JSON: "The arguments are not JSON.",
    Code.INVALID_ARGUMENTS: (
        "The arguments are not an object, name an argument the tool does not take, miss a required one, "
        "or give one of the wrong type."
    ),
    Code.UNKNOWN_TOOL: "No tool has this name.",
    Code.USAGE: "The command line is malformed.",
    Code.RUN_NOT_FOUND: "The run directory does not exist.",
    Code.NOT_A_RUN: "The directory exists but holds no run (no manifest.json, or an unreadable one).",
    Code.RUN_EXISTS: "start_run was given a run directory that already exists.",
    Code.RUN_FORMAT: "The run's manifest has another format or version than this package reads.",
    Code.RUN_LOCKED: "Another process, or an earlier call of this one still stopping, holds the run's lock.",
    Code.RUN_CORRUPT: "The run's log or derived files are inconsistent in a way no repair can undo.",
    Code.PAPER_NOT_FOUND: "The paper, or a file it \\input's, does not exist.",
    Code.PAPER_EMPTY: "The paper has no text to ingest.",
    Code.INGEST_INCOMPLETE: (
        "Most of the paper's body is in no chunk (the reader stopped early): start_run names where and why; "
        "fix the paper, or pass accept_incomplete to proceed with the loss recorded."
    ),
    Code.READER_CHANGED: (
        "The run was made by another version of the paper's readers, which read this paper differently: "
        "replay it with that version, or start a new run."
    ),
    Code.PAPER_NOT_UTF8: "A LaTeX file of the paper is not UTF-8.",
    Code.PAPER_INVALID: "The paper cannot be read (malformed LaTeX the reader refuses, or a PDF that is not one).",
    Code.PAPER_TOO_LARGE: "The paper is larger than this package ingests.",
    Code.ARCHIVE_INVALID: "The paper's archive is not a .tar.gz, .tar, .zip or gzipped file, or it is damaged.",
    Code.ARCHIVE_UNSAFE: (
        "The paper's archive has a member that would be written outside its folder (an absolute path, a `..`), "
        "or a link or device: nothing is unpacked."
    ),
    Code.ARCHIVE_TOO_LARGE: (
        "The paper's archive is larger, has more members, or unpacks to more bytes than this package accepts "
        "(a compression bomb is refused here, counted while decompressing)."
    ),
    Code.ARCHIVE_NO_MAIN: (
        "The paper's archive has no .tex file with \\documentclass, or no file named by start_run's `main`."
    ),
    Code.RUBRIC_NOT_FOUND: "The rubric file does not exist.",
    Code.RUBRIC_INVALID: "The rubric is not valid TOML, or credencegraph's loader refuses it.",
    Code.RUBRIC_SUPPORTS: (
        "An edge rule of the rubric creates supports relations, which would let a document raise its own credence."
    ),
    Code.BIBLIOGRAPHY_INVALID: "The bibliography file cannot be read or parsed.",
    Code.CITED_INVALID: "The directory of cited works is missing or holds a file that is not <key>.txt, .tex or .pdf.",
    Code.SOURCES_INVALID: (
        "The offline sources folder has no valid index.json, or an entry names a file that is missing, not a regular "
        "file of the folder, too large, or of no known content type."
    ),
    Code.OUTSIDE_ROOT: (
        "A file of the paper (an \\input, the .bbl, a .bib, the cited works) lies outside the paper's root, by "
        "its path or through a symbolic link; the message names it and where it lies. Pass start_run `root`, a "
        "folder that holds both, when the file belongs to the paper and the message names such a folder."
    ),
    Code.HIDDEN_FILE: (
        "A file of the paper is hidden: a dot file, or reached through a dot folder under the root (such as "
        "../../.aws/credentials), where private files live. It is never read, whatever the root; the message "
        "names it."
    ),
    Code.ROOT_REFUSED: (
        "start_run's root (or the paper's folder, when no root is given) is the file system's root, a home folder "
        "or a folder above one, or a folder every user may write (such as /tmp): the paper could then reach "
        "private files. Give the paper's own project folder."
    ),
    Code.NOT_A_TERMINAL: (
        "The review command was run without a terminal (its standard input is not one) and without --agent-model: "
        "a review is recorded as the person's only when they enter it at a terminal; an agent entering a person's "
        "verdict names its model with --agent-model."
    ),
    Code.INGEST_OVER_BUDGET: (
        "Reading the paper used more CPU time or memory than its budget (the message says which and how much); "
        "the paper holds something no real paper needs, such as a huge .bib field or macros nested to blow up."
    ),
    Code.IO_ERROR: "A file of the run cannot be read or written.",
    Code.INTERNAL_ERROR: "A bug in this package; the run is as it was. Please report it.",
    Code.TOLERANCES_INVALID: "The rubric's tolerance table (<rubric>.tolerances.toml) is not valid.",
    Code.CANCELLED: (
        "The caller cancelled the call (an MCP notifications/cancelled) before it committed: its work stopped, the "
        "run's lock was released, and nothing was written to the log."
    ),
    Code.INTERRUPTED: (
        "The command was stopped by Ctrl-C (SIGINT). A tool call stopped before its commit left the run as it was; "
        "one stopped after it is completed by the run's next call."
    ),
    Code.PLUGIN_INVALID: (
        "An installed check-type plugin cannot be loaded: it fails to import, implements a hook no specification "
        "has, registers something that is not a check type, or a name another distribution already provides; "
        "the message names the distributions. Fix or uninstall one of them. `plugins` lists every invalid plugin "
        "(and exits 2); the other plugins keep working, and a proposal of a type an invalid plugin would provide "
        "is refused naming it."
    ),
    Code.CHECK_STALLED: (
        "A check's worker process got far less CPU time than its budget within a wall-clock backstop (the machine "
        "is overloaded); nothing was recorded, so the same call can be made again."
    ),
    Code.SOURCE_MISMATCH: "A source given to replay does not have the digest the run recorded.",
    Code.TAMPERED: "A file of the run differs from the digest the manifest or the log recorded.",
    Code.NOT_FINISHED: "The run is not finished, so it has no graph.json to verify.",
    Code.GRAPH_INCOMPLETE: (
        "finish_run found the graph does not pass credencegraph's check at level assessed (untyped chunks, "
        "missing form fields, ...); the message lists what to fix, and the run is as it was."
    ),
    Code.WORKER_DIED: (
        "verify: the process verifying the run died each time the run was verified alone (killed, out of memory, "
        "or a crash in a library); the run was not verified. Verify it alone with --jobs 1 to see why."
    ),
    Code.ENGINE_FAILED: (
        "verify: the engine running the workers failed for another reason than a worker dying (the Dask "
        "scheduler went away, a local cluster has had no worker for 2 minutes); what completed is in the --jsonl "
        "journal: resume from it."
    ),
    Code.EXTRA_MISSING: "The command needs an optional extra that is not installed; the message names it.",
    Code.SCHEDULER_UNAVAILABLE: "verify --scheduler cannot reach the Dask scheduler at the address given.",
    Code.JOURNAL_EXISTS: (
        "verify --jsonl names a file that already holds results: pass --resume with it to continue it, or "
        "choose a new file."
    ),
    Code.JOURNAL_INVALID: "A line of the --resume journal is not a result verify --jsonl writes; the message names it.",
    Code.RUN_LIST_INVALID: "A line of the --from run list is not UTF-8 text or holds a NUL byte.",
    Code.RECORD_INVALID: "The record does not have the format's fields and types; the message gives the JSON path.",
    Code.UNKNOWN_NODE: "The record names a node the run does not have.",
    Code.NOT_A_CHUNK: "The node is not a chunk of the document (an analyst or check node).",
    Code.CHILD_NOT_SPLIT: "The record names a clause id (such as s-2a) of a chunk that is not split yet.",
    Code.UNKNOWN_TYPE: "The type is not declared by the rubric.",
    Code.ORIGIN_NOT_ALLOWED: "The type does not allow the node's origin.",
    Code.FORM_INVALID: "A form field is not a field of the type, or its value has the wrong type.",
    Code.FORM_NOT_IN_TEXT: "A form value is not found in the node's text.",
    Code.CLAUSE_NOT_ONCE: "A split clause does not occur exactly once in the chunk.",
    Code.SPLIT_MISMATCH: "A split record does not give one child per clause.",
    Code.ALREADY_SPLIT: "The chunk is already split; a split chunk is not split again.",
    Code.SPLIT_INVALID: "credencegraph refuses the split.",
    Code.COMPOUND_NODE: "The node is a split chunk: classify its clauses instead.",
    Code.RESTS_ON_UNKNOWN: "A rests_on id names no node of the run.",
    Code.RESTS_ON_TYPE: "A rests_on node has a type the edge rule does not allow.",
    Code.RESTS_ON_NO_RULE: "The type has no edge rule, so it rests on nothing.",
    Code.RESTS_ON_SELF: "A node cannot rest on itself.",
    Code.CYCLE: "The relation would close a cycle.",
    Code.HEDGE_NOT_IN_TEXT: "The hedge phrase is not in the node's text.",
    Code.TARGETED_BY_CHECK: "A check targets the node, so it cannot be classified again.",
    Code.DUPLICATE_RECORD: "The call has two records for one node.",
    Code.NO_PREMISES_TABLE: "The rubric has no [premises] table, so it takes no premise records.",
    Code.NOT_A_CONCLUSION: "The node's type is not in the rubric's premises.for.",
    Code.PREMISE_NOT_CHUNK: "stated_at names a node that is not a typed chunk an edge rule allows.",
    Code.ASSUMPTION_UNDECLARED: "The rubric does not declare type 'assumption' for origin analyst.",
    Code.RECLASSIFY_CONFLICT: (
        "Classifying the node again would break a relation it keeps: a node that rests on it, or a premise "
        "add_premises gave it, does not accept its new type."
    ),
    Code.CHECK_TYPE_UNKNOWN: "No installed plugin provides this check type.",
    Code.CHECK_TYPE_UNDECLARED: "The rubric's [checks] table does not declare this check type.",
    Code.CHECK_TARGET_TYPE: "The check type's targets do not list the node's type.",
    Code.CHECK_NOT_ASSESSED: "The node's type is not assessed (assess = true), so it takes no checks.",
    Code.CHECK_DUPLICATE: (
        "The node already has a check of this type at this place (the same reported number, the same relation of "
        "a chain, the same cited entry); checks are append-only."
    ),
    Code.CHECK_SAME_OBSERVATION: "The same observation is already a check on another target.",
    Code.CHECK_WRONG_TOOL: "This check type is proposed through another tool.",
    Code.PROPOSAL_INVALID: "The proposal does not match its check type's schema.",
    Code.EXPRESSION_INVALID: "An expression does not parse; the message gives the column.",
    Code.EXPONENT_TOO_LARGE: "An exponent is above 100.",
    Code.EXPRESSION_TOO_LARGE: "An expression is longer or deeper than the checks accept.",
    Code.CHECK_TARGET_NO_BASE: (
        "The target's type has no base in the rubric, so a check observing it would leave the graph uncompilable; "
        "give the type a base."
    ),
    Code.KEY_INVALID: (
        "A calibration key is not TOML with the fields paper, false, unlabelled and note, or names a node the run "
        "does not have."
    ),
    Code.CALIBRATION_INVALID: (
        "calibrate cannot fit the rubric: no run is left to fit it on, or an option (date, version, counts file) "
        "is malformed."
    ),
    Code.PREMISES_INVALID: (
        "A proposal's premises are not 1 to 5 distinct statements in words, or one writes a number the target and "
        "the cited chunks do not: a premise states a relation, an identification or a bound, never a number."
    ),
    Code.PREMISES_NOT_ACCEPTED: (
        "The check type does not take premises: its result rests on nothing a premise could license."
    ),
    Code.PREMISES_UNDECLARED: (
        "The rubric cannot record a premised check: it needs a [premises] table, type assumption for origin analyst "
        "and type reading (origin analyst) resting on the target's type."
    ),
    Code.PLUGIN_FAILED: (
        "A check type's plugin failed: it raised, exited or returned a value a check type may not return (a result "
        "other than passed, failed and error, a NaN, a check on another node). In run: an error check whose log "
        "holds what the plugin raised; in prepare, slot_of or observation_key: that proposal is refused. The "
        "message names the plugin and its version: report it to the plugin's author, or uninstall it."
    ),
    Code.PLUGIN_OVER_BUDGET: (
        "A third-party check type used up the CPU time or memory one call may use (the budget is recorded with "
        "the check); it ends in error."
    ),
}


if __name__ == "__main__":
    # The stable command docs and CONTRIBUTING.md name. The page lists every installed check type's own
    # codes too, so it is written a layer up (`cgx_core.tooling.error_reference`), reached only here.
    from cgx_core.tooling.error_reference import errors_markdown

    print(errors_markdown(), end="")
