"""OpenD6 combatants: the scenario's native block, the options, and the fighter's state.

A fighter is built from the neutral description (RULES.md, "System-neutral characters":
attribute N -> ND, skill N -> ND, the weapon's skill takes melee, brawl when unarmed, or
ranged), then the ``opend6:`` native block overrides it key by key. Every dice code a roll
needs (attack, defenses, damage, resistance) is summed once here, not in the encounter loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import AliasChoices, Field, create_model, field_validator

from sim.core.combatant import Combatant
from sim.core.space import RATE_OF_FIRE, melee_reach
from sim.core.words import count
from sim.rulesets.opend6.catalog import (
    ARMOR_BY_NEUTRAL,
    ARMORS,
    SHIELDS,
    SHIELDS_BY_NEUTRAL,
    WEAPONS,
    WEAPONS_BY_NEUTRAL,
    Armor,
    Weapon,
    encumbrance_difficulty,
)
from sim.rulesets.opend6.dice import DiceCode, parse_code
from sim.rulesets.opend6.rules import (
    BASE_MOVE_M,
    HP_BASE,
    STARTING_CHARACTER_POINTS,
    STARTING_FATE_POINTS,
    WOUND_LIMIT,
    WoundStatus,
)
from sim.rulesets.templates import Templates
from sim.scenario.errors import unknown
from sim.scenario.models import Strict
from sim.scenario.vocabulary import THROWN_WEAPONS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sim.core.battlefield import Position
    from sim.scenario.specs import MemberSpec

ATTRIBUTES = ("strength", "endurance", "dexterity", "agility", "perception")
WEAPON_SKILLS = tuple(dict.fromkeys(w.skill for w in WEAPONS.values()))
SKILLS = (*WEAPON_SKILLS, "dodge", "shield")
"""Skill names a native block may set: one per weapon (skills do not transfer), dodge, and
shield (the block defense)."""


# ---------------------------------------------------------------------------- scenario block
class _Codes(Strict):
    """A mapping of names to dice codes, each checked by the OpenD6 code parser."""

    @field_validator("*", mode="before")
    @classmethod
    def _code(cls, value: Any) -> str:
        return str(parse_code(value))  # DiceCodeError is a ValueError: pydantic reports it


_optional_code: Any = (str | None, None)
if TYPE_CHECKING:  # made field by field below; to the type checker, a mapping of codes
    D6Attributes = _Codes
    D6Skills = _Codes
else:
    D6Attributes = create_model(
        "D6Attributes", __base__=_Codes,
        __doc__="Attribute dice codes, e.g. ``agility: 3D+1``.",
        **{name: _optional_code for name in ATTRIBUTES},
    )
    D6Skills = create_model(
        "D6Skills", __base__=_Codes,
        __doc__="Skill dice codes by skill name, e.g. ``sword: 2D``.",
        **{name: _optional_code for name in SKILLS},
    )


class OpenD6Block(Strict):
    """Native ``opend6:`` block.

    Dice codes for attributes and skills, starting points, and what the neutral names do
    not reach: any weapon, armor or shield of the seed's tables by its OpenD6 name, the size
    scale (steps from human size: +1 double, -1 half, ...), and blindness (-2D to attacks).
    """

    # its weapons thrown by hand: a member names them only beside the same thrown weapon
    # of its own (``vocabulary.thrown_disagrees``: the count of throws is the member's)
    THROWN: ClassVar[frozenset[str]] = frozenset(
        WEAPONS_BY_NEUTRAL[name].name for name in THROWN_WEAPONS)

    attributes: D6Attributes = D6Attributes()
    skills: D6Skills = D6Skills()
    character_points: int | None = Field(default=None, ge=0, le=1000)
    fate_points: int | None = Field(default=None, ge=0, le=1000)
    weapon: str | None = None
    armor: str | None = None
    shield: str | None = None
    size: int = Field(default=0, ge=-3, le=3)
    blinded: bool = False

    @field_validator("weapon")
    @classmethod
    def _known_weapon(cls, value: str | None) -> str | None:
        return _known(value, "OpenD6 weapon", WEAPONS)

    @field_validator("armor")
    @classmethod
    def _known_armor(cls, value: str | None) -> str | None:
        return _known(value, "OpenD6 armor", ARMORS)

    @field_validator("shield")
    @classmethod
    def _known_shield(cls, value: str | None) -> str | None:
        return _known(value, "OpenD6 shield", ("none", *SHIELDS))


def _known(value: str | None, kind: str, names: Iterable[str]) -> str | None:
    if value is not None and value not in names:
        raise ValueError(unknown(kind, value, list(names)))
    return value


class OpenD6Options(Strict):
    """``options.opend6``: switches RULES.md marks as options, and documented defaults.

    Attributes:
        complication: count a fumble's dice normally instead of removing them.
        initiative: ``individual`` (an Agility roll each) or ``side`` (a d6 per side).
        encumbrance: metal armor and tower shields add +4 to Agility difficulties.
        suppressive_fire: a target shot at that has not taken a turn since is pinned (-5 to
            hit it). Off by default: RULES.md's pinned is held in place (grappled, prone,
            helpless), and being shot at pins only with this option. The older key
            ``pinning`` is still read as this option.
        side_declares: under side initiative, ``each`` member declares at its own turn
            within the side's (the ruling), or ``together``: every member declares, then
            they resolve one by one (seed 004's reading).
        initiative_groups: under individual initiative, one Agility roll for each group of
            like characters (same side and same description but the name and place), as
            seed 004 suggests "for simplicity"; its members act at one moment.
        lethal_unarmed: a fist or knuckles may kill like any weapon. Off by default:
            RULES.md "Harm that is not meant to kill" (``D6Ruleset.short_of_death``).
    """

    complication: bool = False
    initiative: Literal["individual", "side"] = "individual"
    encumbrance: bool = False
    suppressive_fire: bool = Field(
        default=False, validation_alias=AliasChoices("suppressive_fire", "pinning"))
    side_declares: Literal["each", "together"] = "each"
    initiative_groups: bool = False
    lethal_unarmed: bool = False


class WoundOptions(OpenD6Options):
    """``options.opend6``; ``wounds_limit``: the wounds that kill (seed: 5, GM may change)."""

    wounds_limit: int = Field(default=WOUND_LIMIT, ge=1, le=20)


class HpOptions(OpenD6Options):
    """``options.opend6-hp``; ``hp_base``: hit points before the Endurance roll (seed: 20)."""

    hp_base: int = Field(default=HP_BASE, ge=1, le=1000)


# ---------------------------------------------------------------------------- the fighter
@dataclass(frozen=True, slots=True)
class D6Build:
    """What the conversion makes of a member (``convert``): its dice codes, gear and points.

    Read from the member and the encumbrance option alone, so it is made once per member
    (``Templates``) and every encounter's fighter starts from it.
    """

    attrs: dict[str, DiceCode]
    skills: dict[str, DiceCode]
    weapon: Weapon
    armor: Armor
    shield: Armor | None
    attack_code: DiceCode
    dodge_code: DiceCode
    parry_code: DiceCode
    block_code: DiceCode
    move_code: DiceCode
    damage_code: DiceCode
    resist_code: DiceCode
    encumbrance: int
    cp: int
    fate: int
    size: int
    blinded: bool
    ranged: bool
    reach: float
    speed: float


class D6Fighter(Combatant):
    """An OpenD6 combatant: dice codes, gear, points, health and per-fight turn state.

    Attributes:
        attrs, skills: dice codes by name.
        attack_code, dodge_code, parry_code, block_code, move_code: attribute + skill
            codes of each roll, before penalties.
        damage_code, resist_code: damage (Strength + weapon, or weapon alone) and
            resistance (Endurance + armor + shield).
        encumbrance: +difficulty on its Agility rolls -- melee attacks, defenses, extra
            moves, initiative (option; 0 when off).
        cp, fate: character points and fate points left.
        wounds, hp, hp_max: health (wounds in ``opend6``, hit points in ``opend6-hp``).
        level: the wound level those give; stun_round: the round a running stun was taken
            in, -1 once that round is over (``OpenD6Ruleset.end_round``) or with no stun.
        size: size steps from human (0); each step is 1D of damage.
        initiative, init_text, offset: the fight's turn order and its offset in a round.
        loaded: a weapon that needs reloading holds a shot.
        defense, defense_kind, defense_until: the active defense and when it lapses.
        defense_roll: what that defense rolled, ``(dice, pips, minus)`` (the pool after
            penalties and the encumbrance taken off): an attacker knows the pool, not the
            total (``OpenD6Advisor``).
        aim_at: the foe aimed at (+1D on the next attack), or None.
        shot_at: shot at since its last turn (pinned, with ``suppressive_fire``).
    """

    __slots__ = (
        "attrs", "skills", "weapon", "armor", "shield", "attack_code", "dodge_code",
        "parry_code", "block_code", "move_code", "damage_code", "resist_code", "encumbrance",
        "cp", "fate", "wounds", "hp", "hp_max", "level", "stun_round", "size", "initiative",
        "init_text", "offset", "loaded", "defense", "defense_kind", "defense_until",
        "defense_roll", "aim_at", "shot_at", "blinded",
    )
    # the slots' types (an annotation without a value leaves the slot alone)
    attrs: dict[str, DiceCode]
    skills: dict[str, DiceCode]
    weapon: Weapon
    armor: Armor
    shield: Armor | None
    attack_code: DiceCode
    dodge_code: DiceCode
    parry_code: DiceCode
    block_code: DiceCode
    move_code: DiceCode
    damage_code: DiceCode
    resist_code: DiceCode
    encumbrance: int
    cp: int
    fate: int
    wounds: int
    hp: int
    hp_max: int
    level: WoundStatus
    stun_round: int
    size: int
    initiative: int
    init_text: str
    offset: float
    loaded: bool
    defense: int
    defense_kind: str
    defense_until: float
    defense_roll: tuple[int, int, int]
    aim_at: Combatant | None
    shot_at: bool
    blinded: bool

    def __init__(self, spec: MemberSpec, pos: Position, b: D6Build):
        """A fighter that has not fought yet, with the numbers its conversion ``b`` gave."""
        Combatant.__init__(self, spec, pos)
        self.attrs, self.skills = dict(b.attrs), dict(b.skills)
        self.weapon, self.armor, self.shield = b.weapon, b.armor, b.shield
        self.attack_code, self.dodge_code, self.parry_code = (
            b.attack_code, b.dodge_code, b.parry_code)
        self.block_code, self.move_code = b.block_code, b.move_code
        self.damage_code, self.resist_code = b.damage_code, b.resist_code
        self.encumbrance = b.encumbrance
        self.cp, self.fate, self.size, self.blinded = b.cp, b.fate, b.size, b.blinded
        self.ranged, self.reach, self.speed = b.ranged, b.reach, b.speed
        # the rate of fire of the weapon in hand, a native block's too (a longbow): by the
        # neutral weapon it stands for (RULES.md "Rate of fire")
        self.fire_rate = RATE_OF_FIRE.get(next(
            (name for name, w in WEAPONS_BY_NEUTRAL.items() if w is b.weapon), ""))
        # health (set by the ruleset's ``build``) and the per-fight turn state
        self.wounds, self.hp, self.hp_max = 0, 0, 0
        self.level = WoundStatus.HEALTHY
        self.stun_round = -1
        self.initiative, self.init_text, self.offset = 0, "-", 0.0
        self.loaded = True
        self.defense, self.defense_kind, self.defense_until = 0, "", -1.0
        self.defense_roll = (0, 0, 0)
        self.aim_at = None
        self.shot_at = False

    def describe(self) -> str:
        """Dice codes, gear, points, health and initiative, for the log's roster."""
        a = self.attrs
        health = (f"HP {self.hp}/{self.hp_max}" if self.hp_max else count(self.wounds, "wound"))
        return (f"STR {a['strength']} END {a['endurance']} DEX {a['dexterity']} "
                f"AGI {a['agility']}; {self.weapon.name} {self.attack_code} to hit, "
                f"damage {self.damage_code}; resistance {self.resist_code}; "
                f"CP {self.cp}, FP {self.fate}; {health}; initiative {self.init_text}")

    def state(self) -> str:
        """Health for the log: ``2 wounds (wounded)`` or ``HP 12/27 (wounded)``.

        The stunned level reads ``stunned`` only while its stun runs (``stun_round`` is the
        round it was dealt in until that round ends, then -1) and ``no penalty`` after.
        """
        word = self.level.label(self.stun_round >= 0)
        if self.hp_max:
            return f"HP {self.hp}/{self.hp_max} ({word})"
        return f"{self.wounds} wound{'s' if self.wounds != 1 else ''} ({word})"


def _native(member: MemberSpec) -> OpenD6Block | None:
    return member.native_block("opend6")


_BUILT: Templates[D6Build] = Templates()


def make_fighter(member: MemberSpec, pos: Position, *, encumbrance: bool) -> D6Fighter:
    """A fresh fighter for ``member`` at ``pos``, from its conversion (``convert``).

    The conversion (dice codes parsed and summed) is done once per member and option
    (``Templates``).
    """
    b = _BUILT.of(member, encumbrance, lambda: convert(member, encumbrance=encumbrance))
    return D6Fighter(member, pos, b)


def convert(member: MemberSpec, *, encumbrance: bool) -> D6Build:
    """Convert a member: its neutral description, overridden by its native block.

    Ruling: the neutral ``parry`` skill becomes the ``shield`` skill (block); a parry rolls
    Agility + the weapon's skill as the seed says, so the neutral parry has no other use.
    """
    t, s = member.traits, member.skills
    weapon: Weapon = WEAPONS_BY_NEUTRAL[member.weapon]
    armor: Armor = ARMOR_BY_NEUTRAL[member.armor]
    shield = SHIELDS_BY_NEUTRAL["shield"] if member.shield else None
    attrs = {name: DiceCode(getattr(t, name)) for name in ATTRIBUTES}
    if weapon.ranged:
        weapon_level = s.ranged
    else:
        weapon_level = s.brawl if weapon.skill == "brawling" else s.melee
    skills = {weapon.skill: DiceCode(weapon_level), "dodge": DiceCode(s.dodge),
              "shield": DiceCode(s.parry)}
    block = _native(member)
    if block is not None and block.weapon is not None:
        weapon = WEAPONS[block.weapon]
        skills.setdefault(weapon.skill, DiceCode(s.ranged if weapon.ranged else s.melee))
    if block is not None and block.armor is not None:
        armor = ARMORS[block.armor]
    if block is not None and block.shield is not None:
        shield = None if block.shield == "none" else SHIELDS[block.shield]
    cp, fate = STARTING_CHARACTER_POINTS, STARTING_FATE_POINTS
    if block is not None:
        attrs.update({k: parse_code(v) for k, v in block.attributes.model_dump().items()
                      if v is not None})
        skills.update({k: parse_code(v) for k, v in block.skills.model_dump().items()
                       if v is not None})
        if block.character_points is not None:
            cp = block.character_points
        if block.fate_points is not None:
            fate = block.fate_points
    # every roll's dice code, summed once: attack, defenses, move, damage, resistance
    none = DiceCode(0)
    agility = attrs["agility"]
    weapon_skill = skills.get(weapon.skill, none)
    resist_code = attrs["endurance"] + armor.resistance
    if shield is not None:
        resist_code = resist_code + shield.resistance
    worn = (armor,) if shield is None else (armor, shield)
    return D6Build(
        attrs=attrs, skills=skills, weapon=weapon, armor=armor, shield=shield,
        attack_code=attrs[weapon.attack_attribute] + weapon_skill,
        dodge_code=agility + skills.get("dodge", none),
        parry_code=agility + weapon_skill,
        block_code=agility + skills.get("shield", none),
        move_code=agility,
        damage_code=weapon.damage_code(attrs["strength"]),
        resist_code=resist_code,
        encumbrance=encumbrance_difficulty(*worn) if encumbrance else 0,
        cp=cp, fate=fate,
        # size scale: steps from human size, each +-1D on damage dealt to the smaller
        size=block.size if block is not None else 0,
        blinded=block.blinded if block is not None else False,
        ranged=weapon.ranged,
        reach=float(weapon.ranges[2]) if weapon.ranges else melee_reach(weapon.name),
        speed=float(BASE_MOVE_M))


def native_block(f: D6Fighter) -> dict[str, Any]:
    """Attribute and skill codes, points and gear of a built fighter, as an ``opend6:`` block.

    ``size`` and ``blinded`` are left out at their defaults.
    """
    block: dict[str, Any] = {
        "attributes": {k: str(v) for k, v in f.attrs.items()},
        "skills": {k: str(v) for k, v in f.skills.items()},
        "character_points": f.cp, "fate_points": f.fate,
        "weapon": f.weapon.name, "armor": f.armor.name,
        "shield": f.shield.name if f.shield is not None else "none"}
    if f.size:
        block["size"] = f.size
    if f.blinded:
        block["blinded"] = True
    return block
