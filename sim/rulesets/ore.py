"""One Roll Engine (Reign): ruleset ``ore``.

Where each rule lives (the pure functions are in ``ore_rules``, re-exported here):
- pools, the 10-dice cap, expert/master/called dice, multiple actions: ``roll_action_pool``,
  ``capped``, ``OreRuleset._plan_fighter``;
- sets (width x height): ``sim.dice.find_sets``; which set goes to which action: ``assign_sets``;
- order of resolution (widest first, ties by height, identical sets simultaneous):
  ``OreRuleset.plan_round`` (offsets from the sets' speed);
- gobble dice (Dodge/Parry): ``gobble``; the die lost when hit before acting: ``lose_die``;
- hit locations, weapons, armor: ``ore_catalog``; wound boxes and their effects: ``ore_body``;
- the cautious and tactical AIs' choices: ``ore_ai``.

Rulings not in the seed are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sim.actions import Attack, Defend, Intent, Move, Reload, Retreat, TimedAction
from sim.combatant import Combatant, Status
from sim.dice import Set, find_sets, roll_pool
from sim.rulesets.base import Ruleset
from sim.rulesets.ore_ai import OreTactics
from sim.rulesets.ore_body import Body
from sim.rulesets.ore_catalog import (
    ARMOR,
    CALLED_HEIGHT,
    COVER_PENALTY,
    LOCATION_BY_HEIGHT,
    LOCATION_NAMES,
    RANGE_PENALTY,
    VISIBILITY_PENALTY,
    WEAPONS,
)
from sim.rulesets.ore_rules import (  # noqa: F401 - re-exported: the ORE rules' public names
    MAX_POOL,
    RolledSet,
    action_pool,
    assign_sets,
    best_master_face,
    capped,
    gobble,
    lose_die,
    parry_implement,
    roll_action_pool,
    smallest_pool,
)

if TYPE_CHECKING:
    from sim.battlefield import Position
    from sim.engine import Encounter
    from sim.scenario import MemberSpec

SKILLS = ("fight", "shoot", "dodge", "parry", "run")
MOVE_METRES = 10.0
# Ruling (aggressive AI): when a called shot at the head, an extra attack, or a move with an
# attack "pays" -- the dice left after the penalty must be at least this many.
CALLED_SHOT_MIN_DICE = 7
MULTI_ACTION_MIN_DICE = 6
# Intents that need a set of their own, and those that never roll when declared alone.
ROLLED = (Attack, Defend, Move, Retreat)
_UNROLLED = (Move, Retreat, Reload)


# ---------------------------------------------------------------------------- scenario block
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Stat = Field(default=None, ge=1, le=6)
SkillLevel = Field(default=None, ge=0, le=6)


class OreStats(_Strict):
    """ORE stats 1-6 of a native block (None: from the neutral traits)."""

    body: int | None = Stat
    coordination: int | None = Stat
    sense: int | None = Stat
    knowledge: int | None = Stat
    command: int | None = Stat
    charm: int | None = Stat


class OreSkills(_Strict):
    """ORE combat skills 0-6 of a native block (None: from the neutral skills)."""

    fight: int | None = SkillLevel
    shoot: int | None = SkillLevel
    dodge: int | None = SkillLevel
    parry: int | None = SkillLevel
    run: int | None = SkillLevel


def _skill_names(value: str | list[str] | None, field: str) -> tuple[str, ...]:
    names = (value,) if isinstance(value, str) else tuple(value or ())
    for name in names:
        if name not in SKILLS:
            from sim.errors import unknown

            raise ValueError(f"{field}: " + unknown("skill", name, SKILLS))
    return names


class OreBlock(_Strict):
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
        both = set(_skill_names(self.expert, "expert")) & set(_skill_names(self.master, "master"))
        if both:
            raise ValueError(f"a pool holds an expert die or a master die, never both: "
                             f"{', '.join(sorted(both))} is in both 'expert' and 'master'")
        return self


class OreOptions(_Strict):
    """``options.ore``: ``difficulty``, the height every attack set must reach (0: none)."""

    difficulty: int = Field(default=0, ge=0, le=10)


# ---------------------------------------------------------------------------- state
class OreFighter(Combatant):
    """An ORE combatant: stats, skills, special dice, gear and wound boxes."""

    __slots__ = ("body", "coordination", "sense", "fight", "shoot", "dodge", "parry", "run",
                 "expert", "master", "weapon", "armor", "shield", "wounds", "loaded",
                 "defenses", "sets")

    def describe(self) -> str:
        """Stats, skills, weapon and armor for the log's roster."""
        return (f"body {self.body}, coordination {self.coordination}, sense {self.sense}; "
                f"fight {self.fight}, shoot {self.shoot}, dodge {self.dodge}, "
                f"parry {self.parry}; {self.weapon.name} ({self.weapon.damage}), "
                f"AR {'/'.join(map(str, self.armor))}")

    @property
    def dazed(self) -> bool:
        """Torso full: -1d on every pool."""
        return self.wounds.dazed


# ---------------------------------------------------------------------------- the ruleset
class OreRuleset(OreTactics, Ruleset):
    """One Roll Engine as written for Reign."""

    name = "ore"
    summary = "One Roll Engine (Reign): d10 pools of sets, width for speed, height for location"
    seconds_per_round = 3.0
    native_key = "ore"
    NativeBlock = OreBlock
    Options = OreOptions
    fighter_class: ClassVar[type[OreFighter]] = OreFighter
    # for the AI's odds (``ore_ai``): an action's pool, and the dice rolled after penalties
    pool_of = staticmethod(action_pool)
    dice_left = staticmethod(capped)

    # ------------------------------------------------------------ building
    def build(self, member: MemberSpec, pos: Position, rng: random.Random) -> OreFighter:
        """Convert the neutral description (RULES.md), then apply the native block."""
        f = self.fighter_class(member, pos)
        t, s = member.traits, member.skills
        weapon = WEAPONS[member.weapon]
        stats = {"body": (t.strength + t.endurance) // 2,
                 "coordination": (t.agility + t.dexterity) // 2,
                 "sense": t.perception}
        skills = {"fight": s.brawl if weapon.unarmed else s.melee, "shoot": s.ranged,
                  "dodge": s.dodge, "parry": s.parry, "run": 1}
        block = member.native_block(self.native_key)
        expert: tuple[str, ...] = ()
        master: tuple[str, ...] = ()
        if block is not None:
            stats.update({k: v for k, v in block.stats.model_dump().items()
                          if v is not None and k in stats})
            skills.update({k: v for k, v in block.skills.model_dump().items() if v is not None})
            expert = _skill_names(block.expert, "expert")
            master = _skill_names(block.master, "master")
        f.body, f.coordination, f.sense = stats["body"], stats["coordination"], stats["sense"]
        f.fight, f.shoot, f.dodge = skills["fight"], skills["shoot"], skills["dodge"]
        f.parry, f.run = skills["parry"], skills["run"]
        f.expert, f.master = frozenset(expert), frozenset(master)
        f.weapon = weapon
        f.armor = ARMOR[member.armor]
        f.shield = member.shield
        f.wounds = Body()
        f.loaded = True
        f.defenses = []
        f.sets = []
        f.ranged = weapon.ranged
        f.reach = weapon.ranges[2] if weapon.ranged else 2.0
        f.speed = MOVE_METRES
        return f

    # ------------------------------------------------------------ AI queries
    def declaration_order(self, enc: Encounter, fighters: list[Combatant]) -> list[Combatant]:
        """Lowest Sense declares first, so the sharper see the others' intents."""
        return sorted(fighters, key=lambda f: f.sense)

    def can_attack(self, enc: Encounter, actor: OreFighter, target: Combatant) -> bool:
        """A usable arm (two for a two-handed weapon) and the target within reach."""
        if not self._arms_ok(actor):
            return False
        return enc.field.distance(actor.pos, target.pos) <= actor.reach

    def needs_reload(self, actor: OreFighter) -> bool:
        """A crossbow that has shot."""
        return actor.weapon.reload and not actor.loaded

    def called_shot(self, enc: Encounter, actor: OreFighter, target: Combatant) -> str | None:
        """The head, with an expert die or enough dice left after the called die."""
        pool, skill = action_pool(actor, Attack(target))
        dice = capped(pool, 1 + actor.dazed)
        if skill in actor.expert or dice >= CALLED_SHOT_MIN_DICE:
            return "head"
        return None

    def extra_attacks(self, enc: Encounter, actor: OreFighter, target: Combatant) -> int:
        """One extra attack from ``MULTI_ACTION_MIN_DICE`` dice after the penalty."""
        pool, _ = action_pool(actor, Attack(target))
        return 1 if capped(pool, 1 + actor.dazed) >= MULTI_ACTION_MIN_DICE else 0

    def can_move_and_attack(self, enc: Encounter, actor: OreFighter) -> bool:
        """Two sets need ``MULTI_ACTION_MIN_DICE`` dice in the smaller pool, less one."""
        pool = min(actor.body + actor.run, action_pool(actor, Attack(actor))[0])
        return capped(pool, 1 + actor.dazed) >= MULTI_ACTION_MIN_DICE

    def threat(self, actor: OreFighter) -> float:
        """Torso Killing out of 10, or the head's marks out of 4, whichever is nearer full."""
        w = actor.wounds
        return max(w.killing[4] / 10, (w.killing[5] + w.shock[5]) / 4)

    @staticmethod
    def _arms_ok(f: OreFighter) -> bool:
        """Ruling: one usable arm to attack and parry; a two-handed weapon needs both."""
        arms = f.wounds.arms
        return arms == 2 or (arms == 1 and not f.weapon.two_handed)

    # ------------------------------------------------------------ planning
    def plan_round(self, enc: Encounter, declared) -> list[TimedAction]:
        """Roll every declared pool, give sets to actions, time them by width and height."""
        actions: list[TimedAction] = []
        for f, intents in declared:
            f.defenses = []
            f.sets = []
            if intents:
                self._plan_fighter(enc, f, intents, actions)
        self._schedule(actions)
        return actions

    def _schedule(self, actions: list[TimedAction]) -> None:
        """Offsets from the sets' speed: widest first, ties by height, equal sets together."""
        if not actions:
            return
        keys = sorted({a.data.key for a in actions}, reverse=True)
        step = self.seconds_per_round / (len(keys) + 1)
        rank = {k: i for i, k in enumerate(keys)}
        for a in actions:
            a.offset = rank[a.data.key] * step

    def _penalty(self, enc: Encounter, f: OreFighter, intent: Intent) -> int:
        """Dice off one action's pool: called shots, range, cover and visibility."""
        if type(intent) is not Attack:
            return 0
        penalty = 1 if intent.called else 0
        if f.weapon.ranged:
            field = enc.field
            d = field.distance(f.pos, intent.target.pos)
            close, medium, _ = f.weapon.ranges
            band = 0 if d <= close else 1 if d <= medium else 2
            penalty += (RANGE_PENALTY[band] + COVER_PENALTY[field.cover(intent.target.pos)]
                        + VISIBILITY_PENALTY[field.visibility(intent.target.pos)])
        return penalty

    def _plan_fighter(self, enc: Encounter, f: OreFighter, intents: list[Intent],
                      actions: list[TimedAction]) -> None:
        log = enc.log
        # A lone move or a reload needs no roll; it comes after every set (width 1).
        if len(intents) == 1 and type(intents[0]) in _UNROLLED:
            actions.append(TimedAction(0.0, f, intents[0], RolledSet(Set(1, 0))))
            if log is not None:
                enc.emit("declare", who=f.name, text=f"{f.name} declares "
                         f"{_intent_text(intents[0])} ({f.why}).")
            return
        if len(intents) == 1:  # the common case, kept lean: one roll for one action
            intent = intents[0]
            rolled = intents
            base, skill = action_pool(f, intent)
            penalty = f.wounds.dazed + self._penalty(enc, f, intent)
            called = (CALLED_HEIGHT[intent.called]
                      if type(intent) is Attack and intent.called else None)
        else:
            rolled = [i for i in intents if type(i) in ROLLED]
            base, skill = smallest_pool(f, rolled)
            # Ruling: the one roll takes the worst situational penalty of the actions it
            # serves (range, cover, a called shot), not their sum, plus -1d per extra action.
            penalty = ((len(rolled) - 1) + f.wounds.dazed
                       + max(self._penalty(enc, f, i) for i in rolled))
            called = next((CALLED_HEIGHT[i.called] for i in rolled
                           if type(i) is Attack and i.called), None)
        dice = capped(base, penalty)
        if called is None and not f.expert and not f.master:
            faces = roll_pool(enc.rng, dice, 10)
        else:
            faces = roll_action_pool(enc.rng, dice, expert=skill in f.expert,
                                     master=skill in f.master, called=called,
                                     needed=len(rolled))
        sets = find_sets(faces)
        pairs = assign_sets(rolled, sets)
        if log is not None:
            self._log_roll(enc, f, intents, base, penalty, dice, skill, faces, sets, pairs)
        self._commit(f, pairs, actions)

    def _commit(self, f: OreFighter, pairs: list[tuple[Intent, Set | None]],
                actions: list[TimedAction]) -> None:
        """Turn each ``(intent, set)`` into a timed action; an attack without a set misses."""
        for intent, s in pairs:
            if s is None:
                if type(intent) is Attack:
                    f.attacks += 1  # resolved now: no set, no hit
                continue
            action = TimedAction(0.0, f, intent, RolledSet(s))
            actions.append(action)
            f.sets.append(action)
            if type(intent) is Defend:
                f.defenses.append((intent.kind, action.data))

    # ------------------------------------------------------------ resolving
    def resolve(self, enc: Encounter, action: TimedAction) -> None:
        """Carry out one set's action: attack, move, retreat, reload or stand ready."""
        action.done = True
        kind = type(action.intent)
        f = action.actor
        if kind is Attack:
            self._attack(enc, action)
        elif kind in (Move, Retreat) and action.data.height and action.data.width < 2:
            # a move rolled with other actions needs its Run set: broken, it does not happen
            if enc.log is not None:
                enc.emit("move", who=f.name, text=f"{f.name}'s move fails: its set was broken.")
        elif kind is Move:
            self._move(enc, f, action.intent)
        elif kind is Retreat:
            self.move_to(enc, f, action.intent, self._metres(f))
        elif kind is Reload:
            f.loaded = True
            if enc.log is not None:
                enc.emit("reload", who=f.name, text=f"{f.name} reloads the {f.weapon.name}.")
        elif kind is Defend and enc.log is not None:
            d = action.data
            text = (f"{f.name} stands ready to {action.intent.kind} with {d} "
                    f"({d.width} gobble dice of height {d.height})." if d.width >= 2 else
                    f"{f.name}'s {action.intent.kind} set was broken.")
            enc.emit("defend", who=f.name, text=text)

    @staticmethod
    def _metres(f: OreFighter) -> float:
        """Ruling: one useless leg halves movement; with none usable the fighter cannot move."""
        legs = f.wounds.usable_legs()
        return f.speed if legs == 2 else f.speed / 2 if legs == 1 else 0.0

    def _move(self, enc: Encounter, f: OreFighter, intent: Move) -> None:
        metres = self._metres(f)
        if not intent.target.in_fight:
            return
        before = f.pos
        f.pos = enc.field.approach(f.pos, intent.target.pos, metres, intent.stop_at)
        if enc.log is not None and f.pos != before:
            enc.emit("move", who=f.name, to=enc.field.describe(f.pos),
                     text=f"{f.name} moves to {enc.field.describe(f.pos)} "
                          f"({enc.field.distance(f.pos, intent.target.pos):g} m from "
                          f"{intent.target.name}).")

    def _attack(self, enc: Encounter, action: TimedAction) -> None:
        f: OreFighter = action.actor
        target: OreFighter = action.intent.target
        s: RolledSet = action.data
        log = enc.log
        if not target.in_fight:
            if log is not None:
                enc.emit("fizzle", who=f.name, text=f"{s} {f.name}'s attack finds "
                         f"{target.name} already down.")
            return
        f.attacks += 1
        if f.weapon.reload:
            f.loaded = False
        width = s.width
        reason = ""
        if width < 2:
            reason = "its set was broken"
        elif not self._arms_ok(f):
            reason = "no usable arm"
        elif enc.field.distance(f.pos, target.pos) > f.reach:
            reason = "out of reach"
        gobbled = 0
        if not reason and target.defenses:
            width, gobbled = gobble(
                width, s.height, s.key, target.defenses, melee=not f.weapon.ranged,
                unarmed_attack=f.weapon.unarmed, shield=target.shield,
                can_parry=parry_implement(target), arms=self._arms_ok(target))
            if width < 2:
                reason = f"{target.name} gobbles {gobbled} dice"
        if not reason:
            reason = self._miss_reason(width, s)
        if reason:
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name, set=str(s),
                         text=f"{s} {f.name} attacks {target.name}: miss ({reason}).")
            return
        f.hits += 1
        self._damage(enc, f, target, width, s, gobbled)

    def _miss_reason(self, width: int, s: RolledSet) -> str:
        """Why a set that survived the defense still fails ("" when it hits).

        ORE: a set succeeds only if its height reaches the difficulty (``options.ore``).
        """
        difficulty = self.options.difficulty
        if s.height < difficulty:
            return f"height {s.height} is below the difficulty {difficulty}"
        return ""

    def _damage(self, enc: Encounter, f: OreFighter, target: OreFighter, width: int,
                s: RolledSet, gobbled: int) -> None:
        loc = LOCATION_BY_HEIGHT[s.height]
        killing, shock = f.weapon.damage.roll(width)
        struck = target.wounds.landing(loc)  # a useless limb passes the hit to the torso
        ar = max(0, target.armor[struck] - f.weapon.ap)
        killing, shock = max(0, killing - ar), max(0, shock - ar)
        f.damage += killing + shock
        landed = target.wounds.take(loc, killing, shock)
        lost = lose_die(target.sets, s.key)  # hit before acting, even if armor stopped it all
        if enc.log is not None:
            where = LOCATION_NAMES[loc] + ("" if landed == loc else
                                           f" (useless, to the {LOCATION_NAMES[landed]})")
            text = (f"{s} {f.name} hits {target.name} in the {where}"
                    f"{f' at width {width} after {gobbled} gobbled' if gobbled else ''}: "
                    f"{killing} Killing, {shock} Shock (AR {ar}) -> {target.wounds.summary()}.")
            if lost is not None:
                text += (f" {target.name} loses a die from its {_intent_text(lost.intent)} "
                         f"set (now {lost.data}).")
            enc.emit("hit", who=f.name, target=target.name, set=str(s), width=width,
                     location=LOCATION_NAMES[landed], killing=killing, shock=shock, armor=ar,
                     text=text)
        wounds = target.wounds
        if wounds.dead:
            enc.take_out(target, Status.DEAD, "head or torso full of Killing")
        elif wounds.unconscious:
            enc.take_out(target, Status.UNCONSCIOUS, "head full")

    # ------------------------------------------------------------ log text
    def _log_roll(self, enc, f, intents, base, penalty, dice, skill, faces, sets, pairs):
        what = " and ".join(_intent_text(i) for i in intents)
        special = ("expert" if skill in f.expert else "master" if skill in f.master else "")
        enc.emit("declare", who=f.name, text=f"{f.name} declares {what} ({f.why}).")
        given = "; ".join(f"{s if s else 'no set'} -> {_intent_text(i)}" for i, s in pairs)
        enc.emit("roll", who=f.name, dice=sorted(faces, reverse=True),
                 sets=[str(s) for s in sets],
                 text=f"{f.name} rolls {dice}d ({skill} pool {base}"
                      f"{f', -{penalty}d' if penalty else ''}"
                      f"{', ' + special + ' die' if special else ''}):"
                      f" {' '.join(map(str, sorted(faces, reverse=True)))} -> "
                      f"{', '.join(map(str, sets)) or 'no set'}; {given}.")


def _intent_text(intent: Intent) -> str:
    kind = type(intent)
    if kind is Attack:
        return f"attack on {intent.target.name}" + (
            f" (called shot: {intent.called})" if intent.called else "")
    if kind is Move:
        return f"move toward {intent.target.name}"
    if kind is Retreat:
        return "retreat off the field" if intent.leave else "move to a new place"
    if kind is Defend:
        return intent.kind
    return kind.__name__.lower()
