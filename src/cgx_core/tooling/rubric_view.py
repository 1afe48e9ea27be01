"""The rubric as an agent needs to read it: the types it may give, their forms and edge rules, the hedges
and the check types. Credences are left out on purpose: the agent never gives one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from credencegraph.rubric import Rubric


def types_view(rubric: Rubric) -> list[dict[str, Any]]:
    """The types a document or analyst node may have (check types, which credencegraph also declares as
    evidence-only types, are listed by `checks_view` instead)."""
    out = []
    for name, node_type in rubric.types.items():
        if set(node_type.origins) == {"evidence"}:
            continue
        form = {
            field_name: {
                "type": spec.type,
                "required": spec.required,
                **({"values": list(spec.values)} if spec.values else {}),
            }
            for field_name, spec in node_type.form.items()
        }
        rests = node_type.rests_on
        out.append(
            {
                "name": name,
                "description": node_type.description,
                "origins": list(node_type.origins),
                "assess": node_type.assess,
                "form": form,
                "rests_on": None if rests is None else {"types": list(rests.types), "min": rests.min},
            }
        )
    return out


def checks_view(rubric: Rubric) -> list[dict[str, Any]]:
    """The check types the rubric declares, with whether a plugin provides each and which tool proposes it."""
    from cgx_core.checks.installed import installed_check_types

    registry = installed_check_types()
    out = []
    for name, check in rubric.checks.items():
        installed = registry.get(name)
        out.append(
            {
                "name": name,
                "description": check.description,
                "targets": list(check.targets),
                "installed": installed is not None,
                "tool": installed.check_type.tool if installed else None,
                "fallback_for": installed.check_type.fallback_for if installed else None,
            }
        )
    return out


def premises_view(rubric: Rubric) -> dict[str, Any] | None:
    premises = rubric.premises
    if premises is None:
        return None
    return {"for": list(premises.for_types), "max_per_conclusion": premises.max_per_conclusion}
