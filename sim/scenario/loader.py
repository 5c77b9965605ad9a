"""Scenario files: YAML -> validated model -> plain frozen dataclasses.

All input errors are found here. Each names the file, the field path
(``sides.heroes[0].weapon``) and what is allowed, with the nearest valid name for a typo.
The engine trusts what this module returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from sim import registry
from sim.scenario import vocabulary as catalog
from sim.scenario.errors import ScenarioError, pydantic_problems, unknown
from sim.scenario.models import MapModel, ScenarioModel, scenario_model
from sim.scenario.names import shape, unseen, visible
from sim.scenario.reading import read_yaml
from sim.scenario.specs import (
    AftermathSpec,
    Doctrine,
    MapSpec,
    MemberSpec,
    NodeSpec,
    Scenario,
    SideSpec,
    Skills,
    Traits,
    side_columns,
)

DEFAULT_NODE = "field"
RESERVED_SIDE_NAMES = ("", "draw")  # the outcome of a fight nobody won has this name
# A spreadsheet opening encounters.csv runs a cell that starts so as a formula (=cmd|...)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_like(name: str) -> str | None:
    """Why ``name`` cannot name a side or a fighter (it would be a spreadsheet formula)."""
    if name.startswith(FORMULA_STARTS):
        return (f"'{name[:40]}' starts with {name[0]!r}: a spreadsheet opening the CSV "
                "outputs would run it as a formula; start the name with a letter or digit")
    return None


# ---------------------------------------------------------------------------- loading
def load(path: str | Path) -> Scenario:
    """Read, validate and freeze a scenario file.

    Raises:
        ScenarioError: with every problem found, each naming the field and the fix.
    """
    source = str(path)
    return parse(read_yaml(source), source)


MAX_COMBATANTS = 200  # in one scenario, copies counted: every fight reads all of them
MAX_NAME = 80  # characters of a side's or a fighter's name (tables and CSV headers)
MAX_METRES = 100_000.0  # an edge's length: 100 km is no battlefield (sums stay finite)
MIN_METRES = 0.001  # and a millimetre the shortest: squares of shorter ones underflow to 0


def parse(data: Any, source: str = "<scenario>") -> Scenario:
    """Validate already-parsed YAML data (a mapping) into a ``Scenario``."""
    if not isinstance(data, dict):
        kind = "an empty file" if data is None else (
            "a list" if isinstance(data, list) else f"a single value {repr(data)[:40]}")
        raise ScenarioError(
            source,
            [("", f"the top level must be a mapping with keys {_keys(ScenarioModel)}; got {kind}")],
        )
    if "stages" in data and "sides" not in data:
        raise ScenarioError(source, [("", "this is a campaign file (it lists stages, not "
                                      "sides): run it with fray campaign (fray compare and "
                                      "fray validate take it too)")])
    file_model = scenario_model(registry.native_keys())
    try:
        model = file_model.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(source, pydantic_problems(exc, file_model)) from None
    problems: list[tuple[str, str]] = []
    scenario = _freeze(model, source, problems)
    if problems:
        raise ScenarioError(source, problems)
    return scenario


def _freeze(model: ScenarioModel, source: str, problems: list[tuple[str, str]]) -> Scenario:
    ruleset = model.ruleset if model.ruleset is not None else registry.default()
    if ruleset not in registry.names():
        problems.append(("ruleset", unknown("ruleset", ruleset, registry.names())))
    map_spec = _freeze_map(model.map, problems)
    node_names = [n.name for n in map_spec.nodes]
    if len(model.sides) < 2:
        problems.append(
            ("sides", f"a scenario needs at least two sides; found {len(model.sides)}")
        )
    sides: list[SideSpec] = []
    seen: dict[str, tuple[str, str]] = {}  # each name's shape: the name, where first given
    if why := unseen(model.name):
        problems.append(("name", why))
    for side_name, members in model.sides.items():
        if side_name.strip() in RESERVED_SIDE_NAMES:
            problems.append((f"sides.{side_name}", f"'{side_name}' cannot name a side: the "
                             "outputs use 'draw' for a fight nobody won; choose another name"))
        if not members:
            problems.append((f"sides.{side_name}", "a side needs at least one member"))
        if why := formula_like(side_name) or unseen(side_name):
            problems.append((f"sides.{visible(side_name)}", why))
        if len(side_name) > MAX_NAME:
            problems.append((f"sides.{side_name[:40]}...", f"a side's name has at most "
                             f"{MAX_NAME} characters"))
        expanded = []
        for i, member in enumerate(members):
            expanded += _freeze_member(member, side_name, f"sides.{side_name}[{i}]",
                                       node_names, seen, problems)
        sides.append(SideSpec(side_name, tuple(expanded)))
    _check_columns([side.name for side in sides], problems)
    total = sum(len(side.members) for side in sides)
    if total > MAX_COMBATANTS:
        problems.append(("sides", f"{total} combatants; at most {MAX_COMBATANTS} in one "
                         "scenario (a battle that size is many fights)"))
    return Scenario(
        name=model.name, source=source, ruleset=ruleset, max_rounds=model.max_rounds,
        map=map_spec, sides=tuple(sides), options=_freeze_options(model, problems),
        aftermath=AftermathSpec(tend=model.aftermath.tend), escape=model.escape,
    )


def _check_columns(sides: list[str], problems: list[tuple[str, str]]) -> None:
    """Two sides whose ``encounters.csv`` columns share a name are refused.

    Columns are ``{side}_{stat}``: sides ``a`` and ``a_damaging`` both make
    ``a_damaging_hits``, and one side's statistics would be the other's.
    """
    owner: dict[str, str] = {}
    for side in sides:
        for column in side_columns(side):
            first = owner.setdefault(column, side)
            if first != side:
                problems.append((f"sides.{side}", f"its column '{column}' in encounters.csv "
                                 f"is also a column of side '{first}': rename one of the two "
                                 "sides (a side's columns are its name, '_' and a statistic)"))
                break


def _freeze_member(member: Any, side: str, path: str, node_names: list[str],
                   seen: dict[str, tuple[str, str]],
                   problems: list[tuple[str, str]]) -> list[MemberSpec]:
    """One entry of a side: its native blocks checked, ``count`` copies named apart."""
    at = member.at if member.at is not None else node_names[0]
    if at not in node_names:
        problems.append((f"{path}.at", unknown("node", at, node_names)))
    native = []
    for key in registry.native_keys():  # only the rulesets whose blocks it names are imported
        block = getattr(member, key)
        if block is None:
            continue
        block_model = registry.native_block(key)
        try:
            native.append((key, block_model.model_validate(block)))
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, block_model, f"{path}.{key}"))
            continue
        if why := catalog.thrown_disagrees(member.weapon, getattr(native[-1][1], "weapon", None),
                                   getattr(block_model, "THROWN", frozenset())):
            problems.append((f"{path}.{key}.weapon", why))
    if why := formula_like(member.name) or unseen(member.name):
        problems.append((f"{path}.name", why))
    names = ([member.name] if member.count == 1
             else [f"{member.name} {k}" for k in range(1, member.count + 1)])
    doctrine = (Doctrine(profile=member.ai) if isinstance(member.ai, str)
                else Doctrine(**member.ai.model_dump()))
    if doctrine.hold is not None and doctrine.hold not in node_names:
        problems.append((f"{path}.ai.hold", unknown("place to hold", doctrine.hold,
                                                    node_names)))
    out = []
    for name in names:
        first, where = seen.get(shape(name), (name, None))
        if where is not None and first == name:
            problems.append((f"{path}.name", f"duplicate combatant name '{name}' "
                             f"(also at {where}); names must be unique"))
        elif where is not None:
            problems.append((f"{path}.name", f"'{visible(name)}' looks the same as "
                             f"'{visible(first)}' (at "
                             f"{where}): they differ only in spacing or in a character's "
                             "form; names must differ in what a reader sees"))
        seen[shape(name)] = (name, path)
        out.append(MemberSpec(
            name=name, side=side, at=at, ai=doctrine.profile, doctrine=doctrine,
            traits=Traits(**member.traits.model_dump()),
            skills=Skills(**member.skills.model_dump()),
            weapon=member.weapon, armor=member.armor, shield=member.shield,
            sidearm=member.sidearm, carry=member.carry, native=tuple(native),
            kind=member.kind or (
                "beast" if member.weapon in catalog.NATURAL_WEAPONS else "person"),
        ))
    return out


def _freeze_options(model: ScenarioModel,
                    problems: list[tuple[str, str]]) -> tuple[tuple[str, Any], ...]:
    """``options.<ruleset>`` blocks, each checked against its ruleset's model."""
    options = []
    for key, block in model.options.items():
        if key not in registry.names():
            problems.append((f"options.{key}", unknown("ruleset", key, registry.names())))
            continue
        option_model = registry.get(key).Options  # only the rulesets it sets are imported
        try:
            options.append((key, option_model.model_validate(block)))
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, option_model, f"options.{key}"))
    return tuple(options)


def _freeze_map(model: MapModel | None, problems: list[tuple[str, str]]) -> MapSpec:
    if model is None:
        return MapSpec(nodes=(NodeSpec(DEFAULT_NODE),))
    nodes = tuple(
        NodeSpec(name, spec.cover, spec.visibility, spec.width, spec.exit) if spec
        else NodeSpec(name)
        for name, spec in model.nodes.items()
    )
    names = [n.name for n in nodes]
    known = set(names)
    for name in names:
        if why := unseen(name):
            problems.append((f"map.nodes.{visible(name)}", why))
    edges = []
    seen: dict[frozenset, tuple[int, float]] = {}  # each pair of nodes: where and how long
    for i, edge in enumerate(model.edges):
        if len(edge) != 3:
            problems.append((f"map.edges[{i}]", f"an edge is [node, node, metres]; got {edge!r}"))
            continue
        a, b, metres = edge
        if not isinstance(a, str) or not isinstance(b, str):
            problems.append((f"map.edges[{i}]", f"node names must be strings; got {edge!r}"))
            continue
        if isinstance(metres, bool) or not isinstance(metres, int | float):
            problems.append((f"map.edges[{i}][2]", f"distance must be a positive number of "
                             f"metres; got {metres!r}"))
            continue
        for end, pos in ((a, 0), (b, 1)):
            if end not in known:  # a set: a list made a large map's check quadratic
                problems.append((f"map.edges[{i}][{pos}]", unknown("node", end, names)))
        if not (MIN_METRES <= metres <= MAX_METRES):  # first: isfinite(10**400) overflows
            shown = (f"{metres:.6g}" if isinstance(metres, float) or abs(metres) < 10**15
                     else "a number of more than 15 digits")
            problems.append((f"map.edges[{i}][2]", f"distance must be a positive number of "
                             f"metres, at least {MIN_METRES:g} and at most {MAX_METRES:,.0f}; got "
                             f"{shown}"))
            continue
        if a == b:
            problems.append((f"map.edges[{i}]", f"an edge joins two different nodes; got "
                             f"'{a}' twice"))
        key = frozenset((a, b))
        if key in seen:
            j, before = seen[key]
            if before != metres:  # which one is meant? the file must say
                problems.append((f"map.edges[{i}]", f"'{a}' and '{b}' are joined twice, "
                                 f"{before} m at map.edges[{j}] and {metres} m here; give "
                                 "one length"))
            continue
        seen[key] = (i, metres)
        edges.append((a, b, float(metres)))
    if not problems and len(names) > 1:
        _check_connected(names, edges, problems)
    return MapSpec(nodes=nodes, edges=tuple(edges))


def _check_connected(names, edges, problems) -> None:
    neighbours: dict[str, list[str]] = {name: [] for name in names}
    for a, b, _ in edges:  # linear in the map's size: a large map is checked at once
        neighbours[a].append(b)
        neighbours[b].append(a)
    reached, frontier = {names[0]}, [names[0]]
    while frontier:
        for y in neighbours[frontier.pop()]:
            if y not in reached:
                reached.add(y)
                frontier.append(y)
    cut_off = [n for n in names if n not in reached]
    if cut_off:
        problems.append(("map.edges", f"the map is not connected: no path from "
                         f"'{names[0]}' to {', '.join(repr(n) for n in cut_off)}"))


# ---------------------------------------------------------------------------- error text
def _keys(model: type[BaseModel]) -> str:
    return ", ".join(model.model_fields)
