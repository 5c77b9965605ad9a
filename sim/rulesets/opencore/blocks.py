"""OpenCore d100 scenario blocks: a member's native ``opencore:`` block and the options.

``OpenCoreBlock`` validates a member's native block, ``OpenCoreOptions`` a scenario's
``options.opencore``; ``fighter.profile`` turns them into a fighter's numbers.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from sim.rulesets.opencore.tables import (
    ARMOR,
    NATIVE_WEAPONS,
    SHIELD_DEFENSE_BONUS,
    DamageDice,
    Mode,
    WeaponClass,
)
from sim.scenario.errors import unknown
from sim.scenario.models import Strict

ABILITIES = ("str", "dex", "agl", "con", "int", "per", "wis", "cha", "com")
MODES = {"single": Mode.SINGLE, "burst": Mode.BURST, "auto": Mode.FULL_AUTO,
         "full_auto": Mode.FULL_AUTO}

Score = Annotated[int, Field(ge=1, le=100)]
SkillScore = Annotated[int, Field(ge=0, le=100)]


class OpenCoreAbilities(Strict):
    """Ability scores 1-100 by their lowercase abbreviations."""

    str: Score | None = None
    dex: Score | None = None
    agl: Score | None = None
    con: Score | None = None
    int: Score | None = None
    per: Score | None = None
    wis: Score | None = None
    cha: Score | None = None
    com: Score | None = None

    @model_validator(mode="before")
    @classmethod
    def _capitals(cls, data: Any) -> Any:
        """The rulebook writes abilities in capitals (``CON: 60``): both spellings count."""
        if not isinstance(data, dict):
            return data
        out: dict[str, Any] = {}
        given: dict[str, str] = {}  # each ability: the spelling the file used
        for key, value in data.items():
            name = key.lower() if isinstance(key, str) and key.lower() in ABILITIES else key
            if name in out:
                raise ValueError(f"'{name}' is given twice (as '{given[name]}' and '{key}')")
            out[name], given[name] = value, key
        return out


class OpenCoreSkills(Strict):
    """Skill scores 0-100: one per weapon class, plus the defensive skills."""

    hand_to_hand: SkillScore | None = None
    melee: SkillScore | None = None
    thrown: SkillScore | None = None
    archery: SkillScore | None = None
    firearms: SkillScore | None = None
    portable_at: SkillScore | None = None
    gunnery: SkillScore | None = None
    evade: SkillScore | None = None
    acrobatics: SkillScore | None = None


class OpenCoreBlock(Strict):
    """Native ``opencore:`` block. Every key overrides the neutral conversion.

    ``weapon`` and ``armor`` take the seed's own keys (``assault_rifle``, ``plated_vest``),
    ``mode`` an assault rifle's fire mode, ``damage`` a weapon's damage in the seed's notation
    (a better-than-average weapon, or a thrown weapon, which the seed rates "per weapon"),
    ``critical`` the weapon's critical table (fire and acid: ``burn``; no seed weapon uses it).
    """

    # its weapons thrown by hand: a member names them only beside a thrown weapon of its own
    # (``vocabulary.thrown_disagrees``: the count of throws is the member's)
    THROWN: ClassVar[frozenset[str]] = frozenset(
        key for key, w in NATIVE_WEAPONS.items() if w.weapon_class is WeaponClass.THROWN)

    abilities: OpenCoreAbilities = OpenCoreAbilities()
    skills: OpenCoreSkills = OpenCoreSkills()
    hp: Annotated[int, Field(ge=1, le=1_000_000)] | None = None  # bounds no table reaches
    # (a test fighter that cannot fall takes 100,000 of each)
    toughness: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    weapon: str | None = None
    mode: Literal["single", "burst", "auto", "full_auto"] | None = None
    damage: str | None = None
    critical: Literal["slash", "impact", "puncture", "shrapnel", "burn"] | None = None
    armor: str | None = None

    @field_validator("weapon")
    @classmethod
    def _known_weapon(cls, value: str | None) -> str | None:
        if value is not None and value not in NATIVE_WEAPONS:
            raise ValueError(unknown("OpenCore weapon", value, NATIVE_WEAPONS))
        return value

    @field_validator("armor")
    @classmethod
    def _known_armor(cls, value: str | None) -> str | None:
        if value is not None and value != "none" and value not in ARMOR:
            raise ValueError(unknown("OpenCore armor", value, ["none", *ARMOR]))
        return value

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str | None) -> str | None:
        if value is not None:
            DamageDice.parse(value)
        return value

    @model_validator(mode="after")
    def _weapon_mode(self) -> OpenCoreBlock:
        if self.mode is not None:
            if self.weapon is None:
                raise ValueError("'mode' needs 'weapon' (a seed weapon key such as "
                                 "assault_rifle) in the same block")
            NATIVE_WEAPONS[self.weapon].mode(MODES[self.mode])  # raises ValueError naming the modes
        if self.weapon is not None and self.damage is None:
            if NATIVE_WEAPONS[self.weapon].mode(MODES[self.mode or "single"]).damage is None:
                raise ValueError(f"the seed rates {self.weapon} damage 'per weapon': give "
                                 f"'damage' (e.g. '1d6+STR')")
        return self


class OpenCoreOptions(Strict):
    """``options.opencore`` in a scenario.

    Attributes:
        hp_rule: ``con`` (HP = CON, the ruling) or ``seed`` (1d100 - CON, minimum 1).
        initiative: ``individual`` (1d20 + DEX mod + speed - armor, each round) or ``group``
            (1d6 per side, each round).
        cover: apply the cover and visibility penalties to ranged attacks (a ruling).
        shield_bonus: added to a shield bearer's defense (the seed has no shields: 0).
        stabilise: a fighter below 0 HP may be stabilised by chance, a roll each round
            (a ruling on the seed's "stabilized by chance": ``rules.stabilise_chance``).
        fortitude: seed 001's Fortitude, an option of RULES.md (off by default): a target
            with a positive CON modifier has that many damage dice removed before the roll
            (``rules.fortitude_score``, ``rules.fortitude_dice``).
        lethal_unarmed: a bare-handed blow may take a fighter below 0 HP (to bleed and
            die) as any weapon does. Off by default: RULES.md "Harm that is not meant to
            kill" (``rules.unarmed_hp``).
        run: a fighter whose one action is a move may run 12 m, its defense halved until
            its next action (RULES.md, amended); ``false`` keeps seed 001's 10 ft a move.
    """

    hp_rule: Literal["con", "seed"] = "con"
    initiative: Literal["individual", "group"] = "individual"
    cover: bool = True
    shield_bonus: Annotated[int, Field(ge=0, le=100)] = SHIELD_DEFENSE_BONUS
    stabilise: bool = True
    fortitude: bool = False
    lethal_unarmed: bool = False
    run: bool = True
