"""ORE combatants: the native ``ore:`` block, the options, the fighter and its conversion.

A fighter is converted from the neutral description (RULES.md, "System-neutral
characters": body = (strength + endurance) / 2, coordination = (agility + dexterity) / 2,
sense = perception; fight = melee, or brawl unarmed; shoot = ranged; run = 1), then the
native block overrides it key by key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from pydantic import Field, field_validator, model_validator

from sim.core.combatant import Combatant
from sim.rulesets.ore.body import Body, Wounds
from sim.rulesets.ore.catalog import ARMOR, WEAPONS
from sim.scenario.errors import unknown
from sim.scenario.models import Strict

if TYPE_CHECKING:
    from sim.core.actions import Attack, TimedAction
    from sim.core.battlefield import Position
    from sim.rulesets.ore.catalog import Weapon
    from sim.rulesets.ore.rules import RolledSet, RollPlan
    from sim.scenario.specs import MemberSpec

SKILLS = ("fight", "shoot", "dodge", "parry", "run", "vigor")  # vigor: the rest roll
MOVE_METRES = 10.0

Stat = Field(default=None, ge=1, le=6)
SkillLevel = Field(default=None, ge=0, le=6)


# ---------------------------------------------------------------------------- scenario block
class OreStats(Strict):
    """ORE stats 1-6 of a native block (None: from the neutral traits)."""

    body: int | None = Stat
    coordination: int | None = Stat
    sense: int | None = Stat
    knowledge: int | None = Stat
    command: int | None = Stat
    charm: int | None = Stat


class OreSkills(Strict):
    """ORE skills 0-6 of a native block (None: from the neutral skills; vigor 0)."""

    fight: int | None = SkillLevel
    shoot: int | None = SkillLevel
    dodge: int | None = SkillLevel
    parry: int | None = SkillLevel
    run: int | None = SkillLevel
    vigor: int | None = SkillLevel


def skill_names(value: str | tuple[str, ...] | list[str] | None, field: str) -> tuple[str, ...]:
    """The skill names of an ``expert:`` or ``master:`` entry, each checked."""
    names = (value,) if isinstance(value, str) else tuple(value or ())
    for name in names:
        if name not in SKILLS:
            raise ValueError(f"{field}: " + unknown("skill", name, SKILLS))
    return names


class OreBlock(Strict):
    """Native ``ore:`` block: stats 1-6, skills 0-6, expert/master dice by skill name."""

    stats: OreStats = OreStats()
    skills: OreSkills = OreSkills()
    expert: str | list[str] | None = None
    master: str | list[str] | None = None

    @field_validator("expert", "master")
    @classmethod
    def _frozen(cls, value: str | list[str] | None) -> str | tuple[str, ...] | None:
        # a tuple, so that the block (and the member holding it) stays hashable
        return tuple(value) if isinstance(value, list) else value

    @model_validator(mode="after")
    def _dice(self) -> OreBlock:
        both = set(skill_names(self.expert, "expert")) & set(skill_names(self.master, "master"))
        if both:
            raise ValueError(f"a pool holds an expert die or a master die, never both: "
                             f"{', '.join(sorted(both))} is in both 'expert' and 'master'")
        return self


# RULES.md "Harm that is not meant to kill", ORE's and B-Grade's form: fists deal Shock
# only, as Reign writes them (W Shock: ``catalog.WEAPONS["unarmed"]``), and Shock that
# overflows a full location still turns to Killing (seed 002). Under B-Grade that is the
# whole rule, so ``lethal_unarmed: true`` changes nothing there (accepted so that one
# scenario may set it in every ruleset's block). Under ORE it turns off the ruling "beaten"
# (amended): a torso full mostly of Shock takes the fighter out (``Body.beaten``).
LETHAL_UNARMED_DOC = ("accepted; changes nothing under B-Grade: fists deal Shock only, as "
                      "Reign writes them, with or without it")
LETHAL_UNARMED_ORE_DOC = ("off: a fighter whose torso is full, mostly of Shock, is beaten "
                          "(out of the fight); on: it is only dazed, as seed 002, and can be "
                          "beaten on until the Shock overflows to Killing")


class OreOptions(Strict):
    """``options.ore``.

    Attributes:
        difficulty: the height every attack set must reach (0: none).
        lethal_unarmed: turns off the ruling "beaten" (``LETHAL_UNARMED_ORE_DOC``).
    """

    difficulty: int = Field(default=0, ge=0, le=10)
    lethal_unarmed: bool = Field(default=False, description=LETHAL_UNARMED_ORE_DOC)


class DifficultyOptions(Protocol):
    """What the ORE family's shared code reads of its options (``OreOptions``, B-Grade's)."""

    @property
    def difficulty(self) -> int:
        """The height (ORE) or pair height (B-Grade) an attack set must reach (0: none)."""

    @property
    def lethal_unarmed(self) -> bool:
        """ORE: no fighter is beaten (a torso full of Shock only dazes)."""


# ---------------------------------------------------------------------------- state
W = TypeVar("W", bound=Wounds)  # the wound boxes: ORE's ``Body``, B-Grade's ``Track``

# A single attack's roll plan and all it read that can change in a fight (``KeptPlans.plan``):
# the intent, the fighter's and its foe's places, the weapon, dazed, a foe pressing it, the plan
KeptPlan = tuple["Attack", "Position", "Position", "Weapon", bool, bool, "RollPlan"]


class OreFighter(Combatant, Generic[W]):
    """An ORE combatant: stats, skills, special dice, gear and wound boxes.

    Generic over its wound boxes (``W``): ORE's fighter holds a ``Body`` of hit locations,
    B-Grade's a ``Track`` (``OreFighter[Track]``). Every field is set by ``make_fighter``.
    """

    __slots__ = ("body", "coordination", "sense", "fight", "shoot", "dodge", "parry", "run",
                 "vigor", "expert", "master", "weapon", "armor", "shield", "wounds", "loaded",
                 "defenses", "sets", "plans")

    body: int
    coordination: int
    sense: int
    fight: int
    shoot: int
    dodge: int
    parry: int
    run: int
    vigor: int  # the rest roll's skill
    expert: frozenset[str]  # skills whose pool holds an expert die
    master: frozenset[str]  # ... a master die
    weapon: Weapon
    armor: tuple[int, ...]  # AR by location (``catalog.ARMOR``)
    shield: bool
    wounds: W
    loaded: bool  # a reload weapon holds its bolt
    defenses: list[tuple[str, RolledSet]]  # this round's defense sets: (kind, set)
    sets: list[TimedAction[RolledSet]]  # this round's actions still to lose a die from
    plans: dict[int, KeptPlan]  # by the attack intent's id (``KeptPlans.plan``)

    def describe(self) -> str:
        """Stats, skills, weapon and armor for the log's roster."""
        return (f"body {self.body}, coordination {self.coordination}, sense {self.sense}; "
                f"fight {self.fight}, shoot {self.shoot}, dodge {self.dodge}, "
                f"parry {self.parry}; {self.weapon.name} ({self.weapon.damage}), "
                f"AR {'/'.join(map(str, self.armor))}")

    def state(self) -> str:
        """The marked wound boxes (``torso 3K+2S/10``), or unhurt."""
        return self.wounds.summary() or "unhurt"

    @property
    def dazed(self) -> bool:
        """Torso full: -1d on every pool."""
        return self.wounds.dazed


OF = TypeVar("OF", bound=OreFighter[Any])  # an ORE-family ruleset's own fighter class


def make_fighter(cls: type[OF], member: MemberSpec, pos: Position,
                 block: OreBlock | None) -> OF:
    """Convert the neutral description (RULES.md), then apply the native ``block``."""
    f = cls(member, pos)
    t, s = member.traits, member.skills
    weapon = WEAPONS[member.weapon]
    stats = {"body": (t.strength + t.endurance) // 2,
             "coordination": (t.agility + t.dexterity) // 2,
             "sense": t.perception}
    skills = {"fight": s.brawl if weapon.unarmed else s.melee, "shoot": s.ranged,
              "dodge": s.dodge, "parry": s.parry, "run": 1, "vigor": 0}
    expert: tuple[str, ...] = ()
    master: tuple[str, ...] = ()
    if block is not None:
        stats.update({k: v for k, v in block.stats.model_dump().items()
                      if v is not None and k in stats})
        skills.update({k: v for k, v in block.skills.model_dump().items() if v is not None})
        expert = skill_names(block.expert, "expert")
        master = skill_names(block.master, "master")
    f.body, f.coordination, f.sense = stats["body"], stats["coordination"], stats["sense"]
    f.fight, f.shoot, f.dodge = skills["fight"], skills["shoot"], skills["dodge"]
    f.parry, f.run, f.vigor = skills["parry"], skills["run"], skills["vigor"]
    f.expert, f.master = frozenset(expert), frozenset(master)
    f.weapon = weapon
    f.armor = ARMOR[member.armor]
    f.shield = member.shield
    f.wounds = Body()
    f.loaded = True
    f.defenses = []
    f.sets = []
    f.plans = {}  # single attacks' plans, what they read (``KeptPlans.plan``)
    f.ranged = weapon.ranged
    f.reach = weapon.ranges[2] if weapon.ranges is not None else f.reach  # (a spear's 3 m)
    f.speed = MOVE_METRES
    return f
