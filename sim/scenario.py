"""Scenario files: YAML -> validated model -> plain frozen dataclasses.

All input errors are found here. Each names the file, the field path
(``sides.heroes[0].weapon``) and what is allowed, with the nearest valid name for a typo.
The engine trusts what this module returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sim import catalog
from sim.errors import ScenarioError, pydantic_problems, unknown

COVERS = ("none", "light", "medium", "heavy")
VISIBILITIES = ("clear", "poor", "very_poor")
AI_PROFILES = ("passive", "basic", "aggressive", "cautious", "tactical")
FOCUSES = ("nearest", "weakest", "most_dangerous")
DEFAULT_NODE = "field"


# ---------------------------------------------------------------------------- raw models
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Trait = Annotated[int, Field(ge=catalog.TRAIT_RANGE[0], le=catalog.TRAIT_RANGE[1])]
Skill = Annotated[int, Field(ge=catalog.SKILL_RANGE[0], le=catalog.SKILL_RANGE[1])]


class TraitsModel(_Strict):
    """``traits:`` of a member, on the neutral 1-5 scale."""

    strength: Trait = catalog.DEFAULT_TRAIT
    endurance: Trait = catalog.DEFAULT_TRAIT
    agility: Trait = catalog.DEFAULT_TRAIT
    dexterity: Trait = catalog.DEFAULT_TRAIT
    perception: Trait = catalog.DEFAULT_TRAIT


class SkillsModel(_Strict):
    """``skills:`` of a member, on the neutral 0-5 scale."""

    melee: Skill = catalog.DEFAULT_SKILL
    brawl: Skill = catalog.DEFAULT_SKILL
    ranged: Skill = catalog.DEFAULT_SKILL
    dodge: Skill = catalog.DEFAULT_SKILL
    parry: Skill = catalog.DEFAULT_SKILL


class DoctrineModel(_Strict):
    """An AI doctrine: a profile and the settings that tune it."""

    profile: str
    focus: Literal["nearest", "weakest", "most_dangerous"] | None = None
    retreat_at: float | None = Field(default=None, ge=0, le=1)
    morale: float | None = Field(default=None, ge=0, le=1)
    prefers: Literal["ranged", "melee"] | None = None

    @field_validator("profile")
    @classmethod
    def _known_profile(cls, value: str) -> str:
        if value not in AI_PROFILES:
            raise ValueError(unknown("AI profile", value, AI_PROFILES))
        return value


class MemberModel(_Strict):
    """One entry of a side's member list."""

    name: str = Field(min_length=1)
    at: str | None = None
    ai: str | DoctrineModel = "basic"
    count: int = Field(default=1, ge=1, le=1000)
    traits: TraitsModel = TraitsModel()
    skills: SkillsModel = SkillsModel()
    weapon: str = "unarmed"
    armor: str = "none"
    shield: bool = False
    # Native blocks are checked against each ruleset's own model after this pass.
    ore: dict[str, Any] | None = None
    bgrade: dict[str, Any] | None = None
    opend6: dict[str, Any] | None = None
    opencore: dict[str, Any] | None = None

    @field_validator("ai")
    @classmethod
    def _known_ai(cls, value: str | DoctrineModel) -> str | DoctrineModel:
        if isinstance(value, str) and value not in AI_PROFILES:
            raise ValueError(unknown("AI profile", value, AI_PROFILES))
        return value

    @field_validator("weapon")
    @classmethod
    def _known_weapon(cls, value: str) -> str:
        if value not in catalog.WEAPONS:
            raise ValueError(unknown("weapon", value, catalog.WEAPONS))
        return value

    @field_validator("armor")
    @classmethod
    def _known_armor(cls, value: str) -> str:
        if value not in catalog.ARMORS:
            raise ValueError(unknown("armor", value, catalog.ARMORS))
        return value


class NodeModel(_Strict):
    """A map node's terrain."""

    cover: Literal["none", "light", "medium", "heavy"] = "none"
    visibility: Literal["clear", "poor", "very_poor"] = "clear"


class MapModel(_Strict):
    """``map:``: named nodes and ``[node, node, metres]`` edges."""

    nodes: dict[str, NodeModel | None] = Field(min_length=1)
    edges: list[list[Any]] = []  # [node, node, metres]; checked in _freeze_map


class ScenarioModel(_Strict):
    """The whole scenario file."""

    name: str = Field(min_length=1)
    ruleset: str = "ore"
    max_rounds: int = Field(default=20, ge=1, le=1000)
    map: MapModel | None = None
    sides: dict[str, list[MemberModel]]
    options: dict[str, dict[str, Any]] = {}


# ---------------------------------------------------------------------------- immutable output
@dataclass(frozen=True, slots=True)
class NodeSpec:
    """A place on the map."""

    name: str
    cover: str = "none"
    visibility: str = "clear"


@dataclass(frozen=True, slots=True)
class MapSpec:
    """Nodes and edges (metres) of the battlefield."""

    nodes: tuple[NodeSpec, ...]
    edges: tuple[tuple[str, str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Traits:
    """Neutral attributes, 1-5."""

    strength: int = 2
    endurance: int = 2
    agility: int = 2
    dexterity: int = 2
    perception: int = 2


@dataclass(frozen=True, slots=True)
class Skills:
    """Neutral skills, 0-5."""

    melee: int = 0
    brawl: int = 0
    ranged: int = 0
    dodge: int = 0
    parry: int = 0


@dataclass(frozen=True, slots=True)
class Doctrine:
    """How an AI fights: its profile and the settings a scenario gave it.

    ``None`` leaves a setting to the profile's default (``sim.ai.PROFILE_DEFAULTS``).
    ``retreat_at``: the share of its own health lost at which it retreats or yields;
    ``morale``: the share of its side out of the fight at which it breaks (flees, or
    surrenders when a foe is in reach); ``focus``: which foe it picks;
    ``prefers``: ranged or melee when it could do either.
    """

    profile: str = "basic"
    focus: str | None = None
    retreat_at: float | None = None
    morale: float | None = None
    prefers: str | None = None


@dataclass(frozen=True, slots=True)
class MemberSpec:
    """One combatant as the scenario describes it (``count`` already expanded)."""

    name: str
    side: str
    at: str
    ai: str = "basic"
    traits: Traits = Traits()
    skills: Skills = Skills()
    weapon: str = "unarmed"
    armor: str = "none"
    shield: bool = False
    native: tuple[tuple[str, Any], ...] = ()
    doctrine: Doctrine = Doctrine()

    def native_block(self, key: str) -> Any | None:
        """The validated native block for ``key`` (e.g. ``"ore"``), or None."""
        for name, block in self.native:
            if name == key:
                return block
        return None


@dataclass(frozen=True, slots=True)
class SideSpec:
    """A named side and its members."""

    name: str
    members: tuple[MemberSpec, ...]


@dataclass(frozen=True, slots=True)
class Scenario:
    """A validated scenario, ready for ``engine.Encounter``."""

    name: str
    source: str
    ruleset: str
    max_rounds: int
    map: MapSpec
    sides: tuple[SideSpec, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def ruleset_options(self, key: str) -> Any | None:
        """The validated options block for ruleset ``key``, or None."""
        for name, block in self.options:
            if name == key:
                return block
        return None

    @property
    def side_names(self) -> tuple[str, ...]:
        """Names of the sides, in file order."""
        return tuple(side.name for side in self.sides)

    @property
    def slug(self) -> str:
        """The file's stem, used to name outputs (``ambush``)."""
        return Path(self.source).stem


# ---------------------------------------------------------------------------- loading
def load(path: str | Path) -> Scenario:
    """Read, validate and freeze a scenario file.

    Raises:
        ScenarioError: with every problem found, each naming the field and the fix.
    """
    source = str(path)
    return parse(read_yaml(source), source)


class _UniqueKeyLoader(yaml.SafeLoader):
    """Safe YAML that rejects a key given twice in one mapping.

    Plain YAML keeps the last value, so a second ``heroes:`` side would silently replace
    the first; here it is an error at the line of the repeat.
    """

    def construct_mapping(self, node, deep=False):  # PyYAML hook
        seen: dict[tuple[str, str], int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            ident = (key_node.tag, key_node.value)
            if ident in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{key_node.value}' (first given on line "
                    f"{seen[ident] + 1}); each key may appear once", key_node.start_mark)
            seen[ident] = key_node.start_mark.line
        return super().construct_mapping(node, deep)


def read_yaml(source: str) -> Any:
    """Read a YAML file, turning every way it can fail into a ``ScenarioError``."""
    try:
        raw = Path(source).read_bytes()
    except FileNotFoundError:
        raise ScenarioError(source, [("", "file not found")]) from None
    except IsADirectoryError:
        raise ScenarioError(source, [("", "is a directory, not a scenario file")]) from None
    except OSError as exc:
        raise ScenarioError(source, [("", f"cannot read file: {exc.strerror}")]) from None
    if b"\x00" in raw:
        raise ScenarioError(source, [("", "not a text file (binary data); expected YAML")])
    try:
        text = raw.decode("utf-8-sig")  # -sig: tolerate the byte-order mark some editors add
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ScenarioError(source, [("", f"not UTF-8 text (bad byte 0x{raw[exc.start]:02x} "
                                      f"on line {line}); save the file as UTF-8")]) from None
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise ScenarioError(source, [("", f"YAML error at {where}: {exc.problem}")]) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(source, [("", f"YAML error: {exc}")]) from None
    except RecursionError:
        raise ScenarioError(source, [("", "YAML nested too deeply")]) from None


def parse(data: Any, source: str = "<scenario>") -> Scenario:
    """Validate already-parsed YAML data (a mapping) into a ``Scenario``."""
    if not isinstance(data, dict):
        kind = "an empty file" if data is None else (
            "a list" if isinstance(data, list) else f"a single value {repr(data)[:40]}")
        raise ScenarioError(
            source,
            [("", f"the top level must be a mapping with keys {_keys(ScenarioModel)}; got {kind}")],
        )
    try:
        model = ScenarioModel.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(source, pydantic_problems(exc, ScenarioModel)) from None
    problems: list[tuple[str, str]] = []
    scenario = _freeze(model, source, problems)
    if problems:
        raise ScenarioError(source, problems)
    return scenario


def _freeze(model: ScenarioModel, source: str, problems: list[tuple[str, str]]) -> Scenario:
    from sim.rulesets import registry  # late: rulesets import this module's dataclasses

    if model.ruleset not in registry.names():
        problems.append(("ruleset", unknown("ruleset", model.ruleset, registry.names())))
    map_spec = _freeze_map(model.map, problems)
    node_names = [n.name for n in map_spec.nodes]
    if len(model.sides) < 2:
        problems.append(
            ("sides", f"a scenario needs at least two sides; found {len(model.sides)}")
        )
    natives = registry.native_blocks()
    sides, seen = [], {}
    for side_name, members in model.sides.items():
        if not members:
            problems.append((f"sides.{side_name}", "a side needs at least one member"))
        expanded = []
        for i, member in enumerate(members):
            path = f"sides.{side_name}[{i}]"
            at = member.at if member.at is not None else node_names[0]
            if at not in node_names:
                problems.append((f"{path}.at", unknown("node", at, node_names)))
            native = []
            for key in ("ore", "bgrade", "opend6", "opencore"):
                block = getattr(member, key)
                if block is None:
                    continue
                if key not in natives:
                    problems.append(
                        (f"{path}.{key}", f"no registered ruleset reads a '{key}' block"))
                    continue
                try:
                    native.append((key, natives[key].model_validate(block)))
                except ValidationError as exc:
                    problems.extend(pydantic_problems(exc, natives[key], f"{path}.{key}"))
            names = (
                [member.name]
                if member.count == 1
                else [f"{member.name} {k}" for k in range(1, member.count + 1)]
            )
            for name in names:
                if name in seen:
                    problems.append((f"{path}.name", f"duplicate combatant name '{name}' "
                                     f"(also at {seen[name]}); names must be unique"))
                seen[name] = path
                doctrine = (Doctrine(profile=member.ai) if isinstance(member.ai, str)
                            else Doctrine(**member.ai.model_dump()))
                expanded.append(MemberSpec(
                    name=name, side=side_name, at=at, ai=doctrine.profile, doctrine=doctrine,
                    traits=Traits(**member.traits.model_dump()),
                    skills=Skills(**member.skills.model_dump()),
                    weapon=member.weapon, armor=member.armor, shield=member.shield,
                    native=tuple(native),
                ))
        sides.append(SideSpec(side_name, tuple(expanded)))
    options = []
    option_models = registry.option_blocks()
    for key, block in model.options.items():
        if key not in option_models:
            problems.append((f"options.{key}", unknown("ruleset", key, option_models)))
            continue
        try:
            options.append((key, option_models[key].model_validate(block)))
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, option_models[key], f"options.{key}"))
    return Scenario(
        name=model.name, source=source, ruleset=model.ruleset, max_rounds=model.max_rounds,
        map=map_spec, sides=tuple(sides), options=tuple(options),
    )


def _freeze_map(model: MapModel | None, problems: list[tuple[str, str]]) -> MapSpec:
    if model is None:
        return MapSpec(nodes=(NodeSpec(DEFAULT_NODE),))
    nodes = tuple(
        NodeSpec(name, spec.cover, spec.visibility) if spec else NodeSpec(name)
        for name, spec in model.nodes.items()
    )
    names = [n.name for n in nodes]
    edges = []
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
            if end not in names:
                problems.append((f"map.edges[{i}][{pos}]", unknown("node", end, names)))
        if not (metres > 0 and math.isfinite(metres)):
            problems.append((f"map.edges[{i}][2]", f"distance must be a positive number of "
                             f"metres; got {metres}"))
        if a == b:
            problems.append((f"map.edges[{i}]", f"an edge joins two different nodes; got "
                             f"'{a}' twice"))
        edges.append((a, b, float(metres)))
    if not problems and len(names) > 1:
        _check_connected(names, edges, problems)
    return MapSpec(nodes=nodes, edges=tuple(edges))


def _check_connected(names, edges, problems) -> None:
    reached, frontier = {names[0]}, [names[0]]
    while frontier:
        here = frontier.pop()
        for a, b, _ in edges:
            for x, y in ((a, b), (b, a)):
                if x == here and y not in reached:
                    reached.add(y)
                    frontier.append(y)
    cut_off = [n for n in names if n not in reached]
    if cut_off:
        problems.append(("map.edges", f"the map is not connected: no path from "
                         f"'{names[0]}' to {', '.join(repr(n) for n in cut_off)}"))


# ---------------------------------------------------------------------------- error text
def _keys(model: type[BaseModel]) -> str:
    return ", ".join(model.model_fields)
