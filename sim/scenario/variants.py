"""A scenario's ``variants:``: named changes of it, each made into a scenario of its own.

Each variant's ``set`` entries are written as ``--set`` writes them (``PATH=VALUE``, one
value each; ``sim.scenario.settings``) and applied in order to the file's YAML data (without
its ``variants``) before validation, so a variant is checked like any scenario: a bad path,
a bad value or a scenario the change makes invalid is an input error naming the file, the
variant and the change. A variant keeps the base's sides (the table compares the first
side's results).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.scenario.errors import FrayInputError, ScenarioError
from sim.scenario.loader import parse
from sim.scenario.reading import read_yaml
from sim.scenario.settings import parse_set, set_value
from sim.scenario.specs import Scenario


@dataclass(frozen=True)
class Variant:
    """One variant: its name, note, changes and the scenario they make."""

    name: str
    note: str
    changes: tuple[str, ...]
    scenario: Scenario


def variants_of(path: str, base: Scenario) -> list[Variant]:
    """The variants of the scenario file ``path`` (``base``: the file as loaded).

    Raises:
        FrayInputError: a variant's name given twice, a change that is not ``PATH=VALUE``
            with one value, a path that does not fit the file, a scenario the changes make
            invalid, or sides other than the base's.
    """
    raw = read_yaml(path)
    if not isinstance(raw, dict) or not raw.get("variants"):
        return []
    data = {key: value for key, value in raw.items() if key != "variants"}
    out: list[Variant] = []
    for k, entry in enumerate(raw["variants"]):
        name = str(entry["name"])
        where = f"variants[{k}]"
        if any(v.name == name for v in out):
            raise FrayInputError(path, [(f"{where}.name", f"the variant {name!r} is named "
                                                          "twice; give each its own name")])
        changed: Any = data
        for j, text in enumerate(entry["set"]):
            changed = _apply(path, f"{where}.set[{j}]", changed, text)
        try:
            scenario = parse(changed, path)
        except ScenarioError as exc:
            raise ScenarioError(f"{path} variant {name!r}", exc.problems) from None
        if scenario.side_names != base.side_names:
            raise FrayInputError(path, [(where, f"the variant {name!r} has the sides "
                                                f"{', '.join(scenario.side_names)}; a variant "
                                                f"keeps the scenario's "
                                                f"({', '.join(base.side_names)})")])
        out.append(Variant(name, str(entry.get("note") or ""), tuple(entry["set"]), scenario))
    return out


def _apply(path: str, where: str, data: Any, text: str) -> Any:
    """``data`` with one ``PATH=VALUE`` change; errors name the file and the change."""
    try:
        setting, steps, values = parse_set(text)
        if len(values) != 1:
            raise FrayInputError("--set", [(setting, f"a variant sets one value, got "
                                                     f"{len(values)} in {text!r}")])
        return set_value(data, steps, values[0])
    except FrayInputError as exc:
        detail = "; ".join(f"{field}: {message}" if field else message
                           for field, message in exc.problems)
        raise FrayInputError(path, [(where, f"{text!r}: {detail}")]) from None
