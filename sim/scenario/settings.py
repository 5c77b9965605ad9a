"""``--set PATH=VALUES``: a place in a scenario's raw YAML mapping and the values to put there.

``sides.bandits[0].count=1..6``, ``max_rounds=10,20``, ``sides.heroes[0].weapon=sword,spear``:
``fray sweep``, ``fray balance`` and a scenario's ``variants:`` (``sim.scenario.variants``)
write changes this way. Each value is set on a copy of the loaded YAML data *before*
validation, so a bad path or value is an ordinary input error naming the path.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import yaml

from sim.scenario.errors import FrayInputError, field_path, unknown
from sim.scenario.reading import MAX_NUMBER_CHARS

EXAMPLE = "sides.bandits[0].count=1..6"
MAX_VALUES = 1000
_PART = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")
Step = str | int


def _bad(where: str, message: str) -> FrayInputError:
    return FrayInputError("--set", [(where, message)])


def parse_path(path: str) -> list[Step]:
    """``sides.bandits[0].count`` -> ``['sides', 'bandits', 0, 'count']``."""
    _refuse_long_numbers(path, path)
    steps: list[Step] = []
    for part in path.split("."):
        m = _PART.fullmatch(part.strip())
        if m is None:
            raise _bad(path, f"not a path like {EXAMPLE.split('=')[0]} (keys joined by dots, "
                             f"list entries as [i])")
        steps.append(m.group(1))
        steps += [int(i) for i in re.findall(r"\[(\d+)\]", m.group(2))]
    return steps


def _refuse_long_numbers(text: str, path: str) -> None:
    """A number longer than a scenario may hold is refused (Python reads none past 4,300)."""
    if re.search(rf"\d{{{MAX_NUMBER_CHARS + 1},}}", text):
        raise _bad(path, f"a number of more than {MAX_NUMBER_CHARS} digits; a number in a "
                         "scenario has at most that many")


def parse_values(text: str, path: str) -> list[Any]:
    """``1..6`` (whole numbers, both ends included) or ``a,b,c`` (each read as YAML)."""
    _refuse_long_numbers(text, path)
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        step = 1 if b >= a else -1
        if abs(b - a) + 1 > MAX_VALUES:
            raise _bad(path, f"the range {text} has {abs(b - a) + 1} values; at most "
                             f"{MAX_VALUES}")
        return list(range(a, b + step, step))
    if ".." in text:
        raise _bad(path, f"a range is two whole numbers a..b, e.g. 1..6; got {text!r}")
    values: list[Any] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise _bad(path, f"an empty value in {text!r}; give a..b or a comma list like "
                             f"1,2,4")
        try:
            value = yaml.safe_load(item)
        except yaml.YAMLError:
            raise _bad(path, f"cannot read the value {item!r}") from None
        if isinstance(value, dict | list) or value is None:
            raise _bad(path, f"values are single numbers, words or true/false; got {item!r}")
        if any(type(v) is type(value) and v == value for v in values):
            raise _bad(path, f"the value {item!r} is given twice in {text!r}; give each once")
        values.append(value)
    return values


def parse_set(text: str) -> tuple[str, list[Step], list[Any]]:
    """``PATH=VALUES`` -> ``(path, steps, values)``."""
    path, sep, values = text.partition("=")
    path = path.strip()
    if not sep or not path or not values.strip():
        raise FrayInputError("--set", [("", f"expected PATH=VALUES, e.g. {EXAMPLE}; got "
                                            f"{text!r}")])
    return path, parse_path(path), parse_values(values, path)


def set_value(data: dict[str, Any], steps: list[Step], value: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with ``value`` at ``steps``; missing mappings are created.

    Raises:
        FrayInputError: a step that does not fit the data (an index into a mapping, an entry
            past the end of a list, an unknown side), naming the path up to that step.
    """
    data = copy.deepcopy(data)
    node: Any = data
    made: tuple[int, list[str]] | None = None  # the first mapping made here, its parent's keys
    for k, step in enumerate(steps):
        where, last = field_path(steps[: k + 1]), k == len(steps) - 1
        parent = field_path(steps[:k]) or "the scenario"
        if isinstance(step, int):
            if not isinstance(node, list):
                raise _bad(where, f"{parent} is not a list, so it has no entry [{step}]")
            if step >= len(node):
                raise _bad(where, f"no entry [{step}]: {parent} has {len(node)} "
                                  f"(0..{len(node) - 1})")
        else:
            if not isinstance(node, dict):
                raise _bad(where, f"{parent} holds a single value, not a mapping, so it has "
                                  f"no key '{step}'")
            if not last and node.get(step) is None:
                if isinstance(steps[k + 1], int):  # a list must exist: a side, a member
                    if made is not None:  # it was under a mapping made here: that key is wrong
                        first, keys = made
                        raise _bad(field_path(steps[: first + 1]),
                                   unknown("key", str(steps[first]), keys))
                    raise _bad(where, unknown("key", step, [str(key) for key in node]))
                if made is None:
                    made = (k, [str(key) for key in node])
                node[step] = {}  # e.g. traits: not given yet
        if last:
            node[step] = value
        else:
            node = node[step]
    return data
