"""The raw pydantic models of a scenario file (the first validation pass).

Native blocks and ruleset options are plain mappings here; the loader checks them against
the models the ruleset registry provides.
"""

from __future__ import annotations

from functools import lru_cache
from types import GenericAlias
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)

from sim.scenario import vocabulary as catalog
from sim.scenario.errors import not_a_name, unknown
from sim.scenario.vocabulary import AI_PROFILES, COVERS, FOCUSES, TENDS, VISIBILITIES


class Strict(BaseModel):
    """Base of every block a scenario file holds: no unknown keys, no coercion, frozen.

    The rulesets' native blocks and options build on it too.
    """

    # defer_build: a model's validator is built when first used, not when imported (a
    # command that reads no campaign, or no ruleset's block, never pays for theirs)
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


Trait = Annotated[int, Field(ge=catalog.TRAIT_RANGE[0], le=catalog.TRAIT_RANGE[1])]
Skill = Annotated[int, Field(ge=catalog.SKILL_RANGE[0], le=catalog.SKILL_RANGE[1])]


class TraitsModel(Strict):
    """``traits:`` of a member, on the neutral 1-5 scale."""

    strength: Trait = catalog.DEFAULT_TRAIT
    endurance: Trait = catalog.DEFAULT_TRAIT
    agility: Trait = catalog.DEFAULT_TRAIT
    dexterity: Trait = catalog.DEFAULT_TRAIT
    perception: Trait = catalog.DEFAULT_TRAIT


class SkillsModel(Strict):
    """``skills:`` of a member, on the neutral 0-5 scale."""

    melee: Skill = catalog.DEFAULT_SKILL
    brawl: Skill = catalog.DEFAULT_SKILL
    ranged: Skill = catalog.DEFAULT_SKILL
    dodge: Skill = catalog.DEFAULT_SKILL
    parry: Skill = catalog.DEFAULT_SKILL


class DoctrineModel(Strict):
    """An AI doctrine: a profile and the settings that tune it."""

    profile: str
    focus: Literal[FOCUSES] | None = None  # type: ignore[valid-type]  # a Literal of a run-time tuple (vocabulary.py)
    retreat_at: float | None = Field(default=None, ge=0, le=1)
    morale: float | None = Field(default=None, ge=0, le=1)
    prefers: Literal["ranged", "melee"] | None = None
    budget: int | None = Field(default=None, ge=1, le=100_000)
    horizon: int | None = Field(default=None, ge=1, le=1000)
    hold: str | None = Field(default=None, min_length=1)  # a map node (checked in the loader)

    @field_validator("profile")
    @classmethod
    def _known_profile(cls, value: str) -> str:
        if value not in AI_PROFILES:
            raise ValueError(unknown("AI profile", value, AI_PROFILES))
        return value


def _weapon_name(value: str) -> str:
    """A neutral weapon's name, read through its aliases (fists -> unarmed, dagger -> knife)."""
    value = catalog.WEAPON_ALIASES.get(value, value)
    if value not in catalog.WEAPONS:
        raise ValueError(unknown("weapon", value, [*catalog.WEAPONS, *catalog.WEAPON_ALIASES]))
    return value


class MemberModel(Strict):
    """One entry of a side's member list."""

    name: str = Field(min_length=1, max_length=80)
    at: str | None = None
    ai: str | DoctrineModel = "basic"
    count: int = Field(default=1, ge=1, le=1000)
    traits: TraitsModel = TraitsModel()
    skills: SkillsModel = SkillsModel()
    weapon: str = "unarmed"
    sidearm: str | None = None  # a hand weapon a shooter draws as part of a move
    # thrown weapons carried (javelins); None: the weapon's own number (THROWN_WEAPONS)
    carry: int | None = Field(default=None, ge=catalog.CARRY_RANGE[0],
                              le=catalog.CARRY_RANGE[1])
    armor: str = "none"
    shield: bool = False
    kind: Literal["person", "beast"] | None = None  # None: a beast if its weapon is natural

    @field_validator("ai")
    @classmethod
    def _known_ai(cls, value: str | DoctrineModel) -> str | DoctrineModel:
        if isinstance(value, str) and value not in AI_PROFILES:
            raise ValueError(unknown("AI profile", value, AI_PROFILES))
        return value

    @field_validator("weapon", "sidearm", "armor", mode="before")
    @classmethod
    def _a_name(cls, value: object, info: ValidationInfo) -> object:
        # `armor: 5` (a rating) or `weapon: 2` was refused as "expected a string": the
        # message now says a name is wanted, and which names there are
        if isinstance(value, str) or value is None and info.field_name == "sidearm":
            return value
        if info.field_name == "armor":
            raise ValueError(not_a_name("an armor", value, catalog.ARMORS))
        raise ValueError(not_a_name("a weapon", value, catalog.WEAPONS))

    @field_validator("weapon")
    @classmethod
    def _known_weapon(cls, value: str) -> str:
        return _weapon_name(value)

    @field_validator("sidearm")
    @classmethod
    def _hand_weapon(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = _weapon_name(value)
        if value not in catalog.SIDEARMS:
            raise ValueError(unknown("sidearm", value, catalog.SIDEARMS)
                             + " (a sidearm is a hand weapon)")
        return value

    @model_validator(mode="after")
    def _sidearm_beside_a_ranged_weapon(self) -> MemberModel:
        # RULES.md "Shooting in melee": a shooter draws its sidearm when a foe closes in; a
        # fighter whose weapon is already for melee would never draw it
        if self.sidearm is not None and self.weapon not in catalog.RANGED_WEAPONS:
            raise ValueError(f"a sidearm is drawn by a shooter, and '{self.weapon}' is not a "
                             f"ranged weapon ({', '.join(sorted(catalog.RANGED_WEAPONS))})")
        return self

    @model_validator(mode="after")
    def _carry_thrown_weapons(self) -> MemberModel:
        # RULES.md "Rate of fire": a thrown weapon is spent as it is thrown; ``carry``
        # counts them, and means nothing beside a weapon that is kept in hand
        if self.carry is not None and self.weapon not in catalog.THROWN_WEAPONS:
            raise ValueError(f"carry: counts thrown weapons, and '{self.weapon}' is not one "
                             f"({', '.join(catalog.THROWN_WEAPONS)})")
        return self

    @field_validator("armor")
    @classmethod
    def _known_armor(cls, value: str) -> str:
        if value not in catalog.ARMORS:
            raise ValueError(unknown("armor", value, catalog.ARMORS))
        return value


class NodeModel(Strict):
    """A map node's terrain."""

    cover: Literal[COVERS] = "none"  # type: ignore[valid-type]  # a Literal of a run-time tuple (vocabulary.py)
    visibility: Literal[VISIBILITIES] = "clear"  # type: ignore[valid-type]  # a Literal of a run-time tuple (vocabulary.py)
    width: int | None = Field(default=None, ge=1, le=1000)  # fighters of a side fighting there
    exit: bool = False  # a way out: a fleeing fighter that reaches it has left the field


class MapModel(Strict):
    """``map:``: named nodes and ``[node, node, metres]`` edges."""

    nodes: dict[str, NodeModel | None] = Field(min_length=1)
    edges: list[list[Any]] = []  # [node, node, metres]; checked in _freeze_map


class AftermathModel(Strict):
    """``aftermath:``: who tends the fallen once the fight is over."""

    tend: Literal[TENDS] = "own"  # type: ignore[valid-type]  # a Literal of a run-time tuple (vocabulary.py)


class VariantModel(Strict):
    """``variants:``: a named change of the scenario, fought on the base's seeds.

    ``set``: changes as ``--set`` writes them, one value each (``sides.bandits[1].count=4``);
    ``sim.scenario.variants`` applies and checks them.
    """

    name: str = Field(min_length=1, max_length=80)
    note: str = Field(default="", max_length=400)
    set: list[str] = Field(min_length=1, max_length=50)


class ScenarioModel(Strict):
    """The whole scenario file."""

    name: str = Field(min_length=1)
    ruleset: str | None = None  # None: the first registered ruleset (``ore``)
    max_rounds: int = Field(default=20, ge=1, le=1000)
    map: MapModel | None = None
    sides: dict[str, list[MemberModel]]
    options: dict[str, dict[str, Any]] = {}
    aftermath: AftermathModel = AftermathModel()
    escape: float | None = Field(default=None, gt=0, le=100_000)  # metres (RULES.md: 30)
    variants: list[VariantModel] = Field(default=[], max_length=20)




@lru_cache(maxsize=8)
def scenario_model(native_keys: tuple[str, ...]) -> type[ScenarioModel]:
    """The file model with a member key for each registered ruleset's native block.

    A native block is a plain mapping at this pass; the loader checks it against the
    ruleset's own model. Unknown member keys stay errors, with the nearest valid name.
    """
    blocks: dict[str, Any] = {key: (dict[str, Any] | None, None) for key in native_keys}
    member = create_model("MemberModel", __base__=MemberModel, **blocks)
    return create_model("ScenarioModel", __base__=ScenarioModel, sides=(sides_of(member), ...))


def sides_of(member: type[MemberModel]) -> Any:
    """``dict[str, list[member]]``: the ``sides`` field's type, for a member model made at run time.

    Spelt out: a type checker reads ``list[member]`` as a type, not a value.
    """
    return GenericAlias(dict, (str, GenericAlias(list, (member,))))
