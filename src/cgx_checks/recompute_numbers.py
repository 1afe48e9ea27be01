"""recompute-numbers: an arithmetic expression over numerals of the chunks a proposal cites, evaluated
exactly (with the units, constants and functions a reader needs), against a reported numeral those chunks
write, compared with the relation the text writes before it (see cgx_checks.arithmetic)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from cgx_checks.arithmetic_codes import MEANINGS
from cgx_checks.common import cited_texts, error_outcome, inputs_list
from cgx_checks.expression_codes import MEANINGS as EXPRESSION_MEANINGS
from cgx_core.errors import CgxError
from cgx_core.numbers.columns import TABLE_ROW, cells_text
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    RunView,
    counting,
    define_codes,
    hookimpl,
)

FIXES = {
    "operand-not-in-text": (
        "use only numerals the cited chunks write, with the unit they write after them (the message lists the "
        "numerals and, for a missing one, the chunks that write it); add those chunks to `cites`"
    ),
    "expression-invalid": (
        "write the expression with numerals (each with the unit the text writes after it, if any), + - * / **, "
        "parentheses, pi, e, physical constants (c, G, h, hbar, k_B, or a CODATA name) and sqrt, cbrt, root, ln, "
        "log, log10, log2, exp, abs, mean, median, min, max, the p-values p_z, p_z1, p_t, p_t1, p_r, p_chi2, p_F, "
        "the interval functions ci_low, ci_high, ci_mid, ci_gmid, se_ci, se_ci_log, p_ci, p_ci_log, grim, grimmer, "
        "round, sig, rows(t-N), cols(t-N), items(s-N), or a predicate (a comparison, all, any, count, within, "
        "sorted_desc, sorted_asc, is_max, is_min, same_order, is_<kind>) as the whole expression"
    ),
    "expression-too-large": "split the computation into smaller checks",
    "exponent-too-large": "an exponent or a root's degree must be a whole number from -100 to 100",
    "exponent-not-whole": "an exponent must be a whole number from -100 to 100; use sqrt, cbrt or root for roots",
    "result-too-large": "the computation is too large to do exactly: check a smaller step",
    "division-by-zero": "the expression divides by zero: check how the paper computes this number",
    "unknown-node": "cite chunk ids of this run",
    "unknown-symbol": (
        "the constants are pi, e and the physical constants by CODATA name (speed_of_light, "
        "newtonian_constant_of_gravitation) or symbol (c, G, h, hbar, k_B, N_A, m_e, epsilon_0, ...); write * "
        "between a number and a constant (2 * pi)"
    ),
    "unknown-function": (
        "use one of sqrt, cbrt, root, ln, log, log10, log2, exp, abs, mean, median, min, max, p_z, p_z1, p_t, "
        "p_t1, p_r, p_chi2, p_F, ci_low, ci_high, ci_mid, ci_gmid, se_ci, se_ci_log, p_ci, p_ci_log, grim, grimmer, "
        "round, sig, date, time, all, any, count, within, sorted_desc, sorted_asc, "
        "is_max, is_min, same_order, is_probability, is_proportion, is_percentage, is_pvalue, is_count, "
        "is_variance, is_sd, is_correlation, is_condition_number"
    ),
    "unit-invalid": "write the unit as the text writes it (min, h, day, m/s, Hz, GB, ...), or leave it out",
    "unit-incompatible": (
        "give each numeral exactly the unit the text writes after it (none where it writes none) and the result "
        "the unit the text reports it in: with every unit as the text writes it, a result of another dimension "
        "fails rather than being refused; only quantities of one dimension add, and ln takes a plain number; "
        "where the text writes a factor before a unit (1.3e-7 sqrt(tau) m), give the factor's quantity as the "
        "number alone (1.3e-7 m * sqrt(100))"
    ),
    "unit-missing": (
        "write each numeral with the unit the text or its column's header gives it (90 minutes + 20 h, 93% under "
        "a (%) header), so it is converted; when no cited chunk gives the unit, cite one that does"
    ),
    "relation-not-in-text": (
        "use the relation the text writes (a predicate's result is its word: identical, below, at least, within; "
        "a numeric result's `relation` one the text writes before it), or cite a chunk that writes it, or add "
        '"premises": ["<what the paper implies, e.g. the analyses used this release, so it predates them>"] to '
        "use a relation the text does not write"
    ),
    "hedge-undeclared": (
        "check a number the text states without this hedge; a hedge's tolerance is declared by the rubric's "
        "author in <rubric>.tolerances.toml, never by the agent"
    ),
    "expression-is-result": (
        "compute the result from the other numbers the text gives (parts, counts, rates); a number that "
        "merely appears again is not a recomputation"
    ),
    "function-domain": "check the argument: sqrt and even roots need a value >= 0, ln and log a value > 0",
    "rounding-too-coarse": (
        "round to the precision of the numeral compared with (round(x, 2) against 8.53), and compare a rounding "
        "with the reported result or a numeral of the text"
    ),
    "enumeration-not-found": (
        "cite the chunk that writes the enumeration ((a) (b), (i) (ii), (1) (2), \\item, first ... second), or "
        "count its items another way"
    ),
    "value-undecided": "the value is too close to the bound to decide: check another step",
    "premise-missing": (
        'add "premises": ["<why the data are whole numbers, e.g. answers on a 1 to 7 scale>"]; grim() and grimmer() '
        "hold only for integer-valued data"
    ),
    "columns-not-counted": (
        "check the columns another way (the headers a count names, as numerals or rows(t-N) of a table listing "
        "them); do not count them from a row's cells"
    ),
}

_RELATIONS = ["=", "<", "<=", ">", ">=", "~"]


class RecomputeNumbers(CheckTypeBase):
    """The check type."""

    name = "recompute-numbers"
    tool: ProposingTool = "run_checks"
    accepts_premises = True
    description = (
        "Recompute a number the target reports from numbers the cited chunks write: an expression evaluated "
        "exactly, against the reported result as written, compared with the relation the text writes before it: "
        "plain (its digits set the rounding: 350 is 350 +- 0.5, 8.530 is 8.530 +- 0.0005), < <= > >=, or ~ for a "
        "hedge (the rubric's tolerance). A numeral carries the unit the text writes after it (90 min, 4.1e-3 m/s); "
        "units convert exactly; with every unit as the text writes it, another dimension than the result's "
        "fails. 30% is 0.3. A relation the paper implies but does not write needs `premises`. Compute before "
        "judging (internal-consistency)."
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "cites": {
                "type": "array",
                "items": {"type": "string", "maxLength": 100},
                "maxItems": 20,
                "description": (
                    "The chunks (table rows included) that write the numbers (default: the target); every "
                    "numeral of the expression and the result must be in one. A range t-07..t-28 or a whole "
                    "table table(t-07) is one entry."
                ),
                "examples": [["s-12", "s-40"], ["s-4", "table(t-07)"]],
            },
            "expression": {
                "type": "string",
                "minLength": 1,
                "maxLength": 2000,
                "description": (
                    "Over numerals as the cited chunks write them (1.2e3 for 1.2\\times10^{3}, 30% for 30\\%), "
                    "each with its unit; + - * / ** (whole), ( ), pi, e, c G h k_B (CODATA), sqrt cbrt root(x, n) ln "
                    "log(x[, b]) log10 log2 exp abs mean median min max round(x, n) sig(x, n) date(y[, m, d]) time(h, "
                    "m); p_t(t, df) p_z p_r(r, df) p_t1 p_z1 p_chi2(x, df) p_F(F, d1, d2); ci_low ci_high(est, se, "
                    "95%) ci_mid ci_gmid(lo, hi) se_ci se_ci_log(lo, hi, 95%) p_ci p_ci_log(est, lo, hi, 95%) "
                    "grim(mean, n[, k]) grimmer(mean, sd, n[, k]); rows(t-3) cols(t-3) items(s-3). "
                    "Predicates (true): == != < <= > >=, all(c, ...), any, within(x, lo, hi), sorted_desc, "
                    "sorted_asc, is_max(x, a, ...), is_min, same_order(x, a) (premised), is_<kind>(x); count(c, ...)."
                ),
                "examples": [
                    "(6.2 - 2.2) / 0.01 + 1",
                    "90 min + 20 h + 1 day",
                    "(93.2% - 25.4%) / 25.4%",
                    "round(8.537, 2) == 8.530",
                    "all(8.53 == 8.53, 6.40 == 6.41)",
                    "c / (2 * pi * 2.5e9 m)",
                ],
            },
            "result": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100,
                "description": (
                    "The reported numeral as the text writes it (its digits set the rounding), with its unit; a "
                    "percentage with its %. A predicate's: the text's word for its relation (identical, below, "
                    "within, the most), any word of it if premised."
                ),
                "examples": ["400", "2 days", "30%", "identical"],
            },
            "relation": {
                "type": "string",
                "enum": _RELATIONS,
                "description": (
                    "Only when the text writes the result with two relations: the one checked (= < <= > >=, ~ a "
                    "hedge); another than the text's needs premises."
                ),
                "examples": ["<", "~"],
            },
            "premises": {
                "type": "array",
                "items": {"type": "string"},
                "maxItems": 5,
                "description": (
                    "What the paper implies and does not write, never a number (\"the caption's steps and the "
                    "text's steps are the same quantity\"): licenses any relation; each is an assumption for review."
                ),
            },
        },
        "required": ["expression", "result"],
        "additionalProperties": False,
    }
    codes = define_codes({**EXPRESSION_MEANINGS, **MEANINGS})

    def _recompute(self, inputs: Mapping[str, Any], run: RunView) -> Any:
        from cgx_checks.arithmetic.recompute import recompute

        cites = inputs_list(inputs, "cites")
        target = str(inputs["target"])
        texts = cited_texts(run, target, cites)
        if isinstance(texts, Refusal):
            return texts
        relation = inputs.get("relation")
        expression = str(inputs["expression"])
        return recompute(
            expression,
            str(inputs["result"]),
            texts,
            relation=None if relation is None else str(relation),
            tolerances=run.hedge_tolerances(),
            chunks=_chunks(run),
            rows=table_row_counts(run, cites) if "rows(" in expression else None,
            columns=[text for node_id in cites if (text := _row_text(run, node_id)) is not None],
            items=_item_counts(run, cites) if "items(" in expression else None,
            cols=table_column_counts(run, cites) if "cols(" in expression else None,
            counts=run.count_units(),
            premised=bool(inputs.get("premises")),
            ids=cites or [target],
        )

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        from cgx_checks.arithmetic.ranges import expand_cites, is_compact

        target = str(proposal["target"])
        cites = [str(item) for item in proposal.get("cites") or [target]]
        if any(is_compact(entry) for entry in cites):  # a range or a table: the run's chunks it names
            expanded = expand_cites(cites, run.nodes())
            if isinstance(expanded, Refusal):
                return expanded
            cites = expanded
        inputs: dict[str, Any] = {
            "target": target,
            "cites": cites,
            "expression": proposal["expression"],
            "result": proposal["result"],
        }
        if proposal.get("relation") is not None:
            inputs["relation"] = proposal["relation"]
        # The statements the agent reads into the paper (the engine validated them): recorded, so verify
        # re-decides with the rules they license. A proposal without them records exactly what it did before.
        premises = proposal.get("premises")
        if premises:
            inputs["premises"] = list(premises)
        try:
            checked = self._recompute(inputs, run)
        except CgxError as error:
            return _refusal(error)
        if isinstance(checked, Refusal):
            return checked
        if checked.constants:
            from cgx_checks.arithmetic.constants import constants_json

            inputs["constants"] = constants_json(checked.constants)
        # The record states how the result was compared: the relation the text writes and, for a hedge,
        # the tolerance the run's table declares for it (verify checks the table still says so).
        # A premised `=` the text does not write stays recorded, or verify would take the text's relation.
        if checked.relation != "=":
            inputs["relation"] = checked.relation
        elif "premises" not in inputs:
            inputs.pop("relation", None)
        if checked.tolerance is not None:
            inputs["hedge"] = checked.hedge
            inputs["tolerance"] = _fraction(checked.tolerance)
        from cgx_checks.arithmetic.predicate_check import counts_json

        inputs.update(counts_json(checked.counts))
        # The counting units the texts, expression and result were read with (only a run that declares some
        # records them, so every other record is as it was): rerun reads the same way, and verify sees a change.
        count_units = declared_count_units(run)
        if count_units:
            inputs[COUNT_UNITS] = count_units
        # The recomputation is the memo: observation_key and run of this call reuse it (one evaluation).
        return Prepared(target, inputs, memo=checked)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        """The reported result, as read (`71.2%`, `2 day`): a sentence that reports two numbers takes a check of
        each, while a second check of the same number on the same target is a duplicate. A predicate's slot is
        its word, case and spacing folded ("Identical" is "identical")."""
        from cgx_core.numbers import read_quantity

        result = str(inputs.get("result", ""))
        try:
            with counting(recorded_count_units(inputs)):
                numeral, unit = read_quantity(result)
        except CgxError:
            return " ".join(result.split()).casefold()
        return numeral.written if unit is None else f"{numeral.written} {unit.text}"

    def observation_key(self, prepared: Prepared) -> str:
        """The exact value, the expected value, the rounding, and the unit, relation and tolerance when the
        check has them: all that decides the outcome."""
        from cgx_checks.arithmetic.recompute import decide_recorded, observation_key

        if prepared.memo is not None:
            return observation_key(prepared.memo)
        inputs = prepared.inputs
        tolerance = Fraction(str(inputs["tolerance"])) if "tolerance" in inputs else None
        decided = decide_recorded(
            str(inputs["expression"]),
            str(inputs["result"]),
            str(inputs.get("relation", "=")),
            tolerance,
            inputs.get("rows"),
            inputs.get("items"),
            inputs.get("cols"),
            recorded_count_units(inputs),
        )
        return observation_key(decided)

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        if prepared.memo is not None:  # recomputed by prepare in this very call, from these inputs
            return _outcome_of(prepared.memo)
        return self._outcome(prepared.inputs, run)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        return self._outcome(inputs, run)

    def _outcome(self, inputs: Mapping[str, Any], run: RunView) -> Outcome:
        declared = declared_count_units(run)
        if inputs.get(COUNT_UNITS, {}) != declared:
            return Outcome(
                "error",
                f"the record reads with the counting units {inputs.get(COUNT_UNITS, {})}, the run's table declares "
                f"{declared}",
                code="tampered",
            )
        try:
            checked = self._recompute(inputs, run)
        except CgxError as error:
            return error_outcome(error)
        if isinstance(checked, Refusal):
            return Outcome("error", checked.message, code=str(checked.code))
        recorded = inputs.get("tolerance")
        if checked.tolerance is not None and recorded != _fraction(checked.tolerance):
            return Outcome(
                "error",
                f"the record's tolerance for {checked.hedge!r} is {recorded}, the run's table says "
                f"{_fraction(checked.tolerance)}",
                code="tampered",
            )
        from cgx_checks.arithmetic.constants import constants_json
        from cgx_checks.arithmetic.predicate_check import counts_json

        if inputs.get("constants", {}) != (constants_json(checked.constants) if checked.constants else {}):
            return Outcome(
                "error",
                f"the record computes with the constants {inputs.get('constants', {})}, the installed table gives "
                f"{constants_json(checked.constants) if checked.constants else {}}",
                code="tampered",
            )
        counted = counts_json(checked.counts)
        recorded_counts = {name: dict(inputs[name]) for name in _COUNTED if name in inputs}
        if counted != recorded_counts:
            return Outcome(
                "error",
                f"the record counts {recorded_counts}, the run's chunks give {counted}",
                code="tampered",
            )
        return _outcome_of(checked)


def _outcome_of(checked: Any) -> Outcome:
    """The outcome of a recomputation (or predicate) as the check records it."""
    libraries = {}
    if checked.library is not None:
        name, _, version = checked.library.partition(" ")
        libraries[name] = version
    if checked.constants:
        from importlib.metadata import version as installed

        libraries["scipy"] = installed("scipy")
    return Outcome(checked.outcome, checked.detail, output=checked.to_json(), libraries=libraries)


COUNT_UNITS = "count_units"
"""The input naming the counting units a check read with (spelling -> count name), when the run declares any."""


def declared_count_units(run: RunView) -> dict[str, str]:
    """The run's counting units as a record holds them (in spelling order): what prepare records and what
    `_outcome` compares a record with, so the two cannot differ by how they are written."""
    return dict(sorted(run.count_units().items()))


def recorded_count_units(inputs: Mapping[str, Any]) -> dict[str, str]:
    """The counting units a record names; nothing when it names none or not as names (`_outcome` then finds
    that they differ from the run's)."""
    recorded = inputs.get(COUNT_UNITS)
    if not isinstance(recorded, Mapping):
        return {}
    return {str(key): str(value) for key, value in recorded.items() if isinstance(value, str)}


_COUNTED = ("rows", "cols", "items")
"""The counts of the run an expression may use, each recorded under its function's name."""


def _item_counts(run: RunView, cites: Sequence[str]) -> dict[str, int | None]:
    """For each cited chunk, the number of items it enumerates, or of the list it announces ("three datasets:"
    before an itemize), None when it does neither."""
    from cgx_core.numbers.enumeration import enumerated_items, list_after

    counts: dict[str, int | None] = {}
    chunks: list[tuple[str, str, Any]] | None = None
    for node_id in cites:
        node = run.node(node_id)
        if node is None or node.text is None:
            continue
        counts[node_id] = enumerated_items(node.text)
        if counts[node_id] is None and node.text.rstrip().endswith(":"):
            if chunks is None:
                chunks = [
                    (chunk.id, chunk.text or "", chunk.attributes)
                    for chunk in run.nodes()
                    if chunk.attributes.get("origin") == "document"
                ]
            counts[node_id] = list_after(chunks, node_id)
    return counts


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _chunks(run: RunView) -> Iterator[Any]:
    """The document's chunks, read only if a refusal needs to say which chunk writes a missing numeral."""
    from cgx_checks.arithmetic.recompute import Chunk

    for node in run.nodes():
        if node.text is not None and node.attributes.get("origin") == "document":
            yield Chunk(node.id, node.unit, cells_text(node.text) if node.unit == TABLE_ROW else node.text)


def table_row_counts(run: RunView, cites: Sequence[str]) -> dict[str, int]:
    """For each cited table row (`t-3`), the number of body rows of its table (`arithmetic.ranges.tables`)."""
    from cgx_checks.arithmetic.ranges import tables

    wanted = set(cites)
    return {row: len(rows) for rows in tables(run.nodes()) for row in rows if row in wanted}


def table_column_counts(run: RunView, cites: Sequence[str]) -> dict[str, int | None]:
    """For each cited table row, the number of columns its table prints, as ingestion recorded it in
    `attributes.table.columns` from the column specification and the widest row (None when it recorded none).
    A row's text cannot give it: empty cells are left out."""
    counts: dict[str, int | None] = {}
    for node_id in cites:
        node = run.node(node_id)
        if node is not None and node.unit == TABLE_ROW:
            columns = dict(node.attributes.get("table") or {}).get("columns")
            counts[node_id] = columns if isinstance(columns, int) and not isinstance(columns, bool) else None
    return counts


def _row_text(run: RunView, node_id: str) -> str | None:
    """The text of a cited table row (its cells are also read with their headers' units), else None."""
    node = run.node(node_id)
    return node.text if node is not None and node.unit == TABLE_ROW else None


def _refusal(error: CgxError) -> Refusal:
    """The refusal of a proposal, with the fix of every problem it names: its own where it has one (a
    relation the text does not write: the premise to add, or the word the text would need), else its code's."""
    codes = getattr(error, "codes", (error.code,))
    own: tuple[tuple[str, str], ...] = getattr(error, "fixes", ())
    fixes = [
        fix
        for code in codes
        for fix in ([fix for named, fix in own if named == code] or [FIXES.get(str(code), _DEFAULT_FIX)])
    ]
    return Refusal(error.code, error.message, "; ".join(dict.fromkeys(fixes)))


_DEFAULT_FIX = "change the proposal as the message says"


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(RecomputeNumbers())
