"""Every limit a call meets is in the full schema get_state `describe` returns (issue 37): agents learned of 20
proposals a call, 20 cites and one check per node only by refusal or by losing a check, and retyped nodes to
make a check apply because which types it targets was nowhere they read."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgx_core.checks.installed import installed_check_types
from cgx_core.tooling.registry import TOOLS, call_tool
from support import ROOT

RUN = ROOT / "examples" / "end-to-end" / "run"


def describe(name: str, run: Path = RUN) -> dict[str, object]:
    payload, is_error = call_tool("get_state", {"run": str(run), "describe": name})
    assert not is_error, payload
    return payload


def test_a_check_types_limits_say_per_call_per_field_per_node_and_its_targets_in_the_runs_rubric() -> None:
    limits = describe("recompute-numbers")["check_type"]["limits"]  # type: ignore[index]
    assert limits["per_call"] == "at most 20 proposals a call"
    assert limits["cites"] == "at most 20 items"
    assert "check-duplicate" in limits["per_node"] and "check-same-observation" in limits["per_node"]
    assert "split a chunk (classify) before proposing checks on it" in limits["split_first"]
    assert limits["targets"] == ["result"] and limits["targets_note"] == "in this run's rubric"


@pytest.mark.parametrize("name", sorted(item.check_type.name for item in installed_check_types()))
def test_every_installed_check_type_has_its_limits(name: str) -> None:
    entry = describe(name)["check_type"]
    limits = entry["limits"]  # type: ignore[index]
    assert {"per_node", "append_only", "split_first", "types"} <= set(limits)
    assert "targets" in limits  # from the run's rubric: [] with a note when it does not declare the type
    if "proposal" in entry:  # type: ignore[operator]
        assert limits["per_call"].startswith(("at most", "one proposal"))


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_every_tools_arguments_have_their_bounds_in_words(name: str) -> None:
    limits = describe(name)["tool"]["limits"]  # type: ignore[index]
    schema = TOOLS[name].input_schema()
    for field, spec in schema["properties"].items():
        if "maxItems" in spec:
            assert f"at most {spec['maxItems']} items" in limits[field]
    if name == "run_checks":
        assert limits["proposals"] == "at most 20 items"
    if name == "classify":
        assert limits["records"] == "at most 500 items"
