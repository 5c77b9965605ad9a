"""Sweep grids: several ``--set`` make every combination of their values; each gets words.

``fray sweep`` with one ``--set`` varies one value (``sim.batch.sweep``); with two or more it
runs the full grid, one scenario per combination, each validated before anything runs. A
path reads in words for charts and tables (``label``): ``sides.bandits[0].count`` is
"Bandit archer count" when the first entry of the bandits is named so.
"""

from __future__ import annotations

import itertools
from typing import Any

from sim.scenario import Scenario, parse, read_yaml
from sim.scenario.errors import FrayInputError, ScenarioError
from sim.scenario.settings import MAX_VALUES, Step, parse_set, set_value

# the words of a path's last key where the key alone reads badly
KEY_WORDS = {"count": "count", "max_rounds": "round limit", "weapon": "weapon",
             "armor": "armor", "shield": "shield", "ai": "AI"}


def label(steps: list[Step], raw: Any) -> str:
    """A path in words: the member's name (where it has one) and what is set.

    ``sides.bandits[0].count`` -> "Bandit archer count"; ``sides.heroes[1].traits.strength``
    -> "Brother Ansel strength"; ``sides.heroes[0].skills.melee`` -> "Wolfman melee skill";
    ``max_rounds`` -> "round limit"; anything else its keys with spaces for underscores.
    """
    last = str(steps[-1])
    what = KEY_WORDS.get(last, last.replace("_", " "))
    if len(steps) >= 2 and steps[-2] == "skills":
        what = f"{what} skill"
    member = _member(steps, raw)
    if member is None:
        if len(steps) >= 2 and steps[0] == "sides" and isinstance(steps[1], str) and (
                len(steps) == 2):
            return f"{steps[1]} side"
        return what if len(steps) == 1 else " ".join(str(s).replace("_", " ")
                                                     for s in steps if isinstance(s, str))
    return f"{member} {what}"


def company(steps: list[Step], raw: Any) -> str:
    """Who else is on the side of the member a path goes into: ``the 2 Bandit archers``.

    "" when the path goes into no member, or the member is alone on its side. Each other
    entry of the side by its name and count (``Bandit archer`` with ``count: 2``).
    """
    if len(steps) < 3 or steps[0] != "sides" or not isinstance(steps[2], int):
        return ""
    try:
        entries = raw["sides"][steps[1]]
        others = [e for k, e in enumerate(entries) if k != steps[2] and isinstance(e, dict)]
    except (KeyError, IndexError, TypeError, AttributeError):
        return ""
    named = []
    for e in others:
        name, count = str(e.get("name", "?")), e.get("count", 1)
        count = count if isinstance(count, int) and not isinstance(count, bool) else 1
        plural = "" if count == 1 or name.endswith("s") else "s"
        named.append(f"{count} {name}{plural}" if count != 1 else name)
    if not named:
        return ""
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"the {listed}"


def _member(steps: list[Step], raw: Any) -> str | None:
    """The name of the member ``sides.<side>[i]`` a path goes into, if it has one."""
    if len(steps) < 4 or steps[0] != "sides" or not isinstance(steps[2], int):
        return None
    try:
        name = raw["sides"][steps[1]][steps[2]].get("name")
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    return str(name) if name else None


def load_grid(scenario_file: str, settings: tuple[str, ...] | list[str]
              ) -> tuple[list[str], list[str], list[tuple[tuple[Any, ...], Scenario]]]:
    """``--set`` twice or more: the paths, their words, and one scenario per combination.

    Raises:
        FrayInputError: a bad ``--set``, the same path twice, or a grid of more than
            ``MAX_VALUES`` combinations; ``ScenarioError`` naming the combination that
            makes the scenario invalid.
    """
    raw = read_yaml(scenario_file)
    parsed = [parse_set(text) for text in settings]
    paths = [path for path, _, _ in parsed]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    if twice:
        raise FrayInputError("--set", [(twice[0], "set twice; give each path once")])
    size = 1
    for _, _, values in parsed:
        size *= len(values)
    if size > MAX_VALUES:
        raise FrayInputError("--set", [("", f"the grid has {size} combinations; at most "
                                            f"{MAX_VALUES}")])
    if not isinstance(raw, dict):
        parse(raw, scenario_file)  # the loader's own error for a file that is no mapping
    cases = []
    for combo in itertools.product(*(values for _, _, values in parsed)):
        data = raw
        for (_, steps, _), value in zip(parsed, combo, strict=True):
            data = set_value(data, steps, value)
        try:
            cases.append((combo, parse(data, scenario_file)))
        except ScenarioError as exc:
            given = " ".join(f"--set {p}={v}" for p, v in zip(paths, combo, strict=True))
            raise ScenarioError(f"{scenario_file} with {given}", exc.problems) from None
    labels = [label(steps, raw) for _, steps, _ in parsed]
    return paths, labels, cases


def grid_row(row: dict[str, Any], paths: list[str], combo: tuple[Any, ...]) -> dict[str, Any]:
    """A sweep row of a grid: ``path`` and ``value`` joined by ``; ``, one column per path."""
    out = {"path": "; ".join(paths), "value": "; ".join(_text(v) for v in combo)}
    out.update({path: value for path, value in zip(paths, combo, strict=True)})
    out.update({k: v for k, v in row.items() if k not in ("path", "value")})
    return out


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
