"""One Roll Engine (Reign): ruleset ``ore``. Planning and resolving a round.

Where each rule lives:
- pools, the roll plan for several actions (smallest pool, worst situational penalty, -1d
  per extra action, the 10-dice cap), special dice, sets to actions, gobble dice, the die
  lost when hit before acting: ``rules``; sets themselves: ``sets``;
- a fighter's roll plan, asked by the AI and the planner, and the plans kept: ``planner``
  (``KeptPlans``, the part the ruleset holds as ``planner``);
- order of resolution (widest first, ties by height, identical sets simultaneous):
  ``OreRuleset.plan_round`` (offsets from the sets' speed);
- hit locations, weapons, armor: ``catalog``; wound boxes and their effects: ``body``;
- the native block, options and the conversion from neutral traits: ``fighter``;
- the AI's questions: ``advisor``; a player's choices after a roll: ``choices``;
- between fights (what carries over, rest, fit to fight): ``recovery``.
``choices`` and ``recovery`` are functions the ruleset calls, ``KeptPlans`` a part it holds:
none of them reaches into the ruleset.

Rulings not in the seed are marked "Ruling:" where they are applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from sim.core import arms, moving, space
from sim.core.actions import (
    Attack,
    Defend,
    Intent,
    Move,
    Reload,
    Retreat,
    TimedAction,
    Withdraw,
)
from sim.core.combatant import Status
from sim.core.harm import Harm
from sim.core.words import count
from sim.registry import register
from sim.rulesets.base import Ruleset, offsets_by_rank
from sim.rulesets.dice import roll_pool
from sim.rulesets.ore import choices, recovery
from sim.rulesets.ore.advisor import OreAdvisor
from sim.rulesets.ore.catalog import LOCATION_BY_HEIGHT, LOCATION_NAMES, TORSO
from sim.rulesets.ore.coverage import COVERAGE
from sim.rulesets.ore.fighter import (
    OF,
    SKILLS,
    DifficultyOptions,
    OreBlock,
    OreFighter,
    OreOptions,
    make_fighter,
)
from sim.rulesets.ore.harm import lasts
from sim.rulesets.ore.log import WORDS, log_roll, spilled_text
from sim.rulesets.ore.odds import hit_value
from sim.rulesets.ore.planner import KeptPlans
from sim.rulesets.ore.rules import (
    RolledSet,
    arms_ok,
    assign_sets,
    best_set,
    gobble,
    hit_costs_a_die,
    in_time,
    parry_implement,
    penalty_terms,
)
from sim.rulesets.ore.sets import Set, find_sets
from sim.rulesets.ore.situation import situation_terms

if TYPE_CHECKING:
    from pydantic import BaseModel

    from sim.core.battlefield import Position
    from sim.core.engine import Encounter
    from sim.rulesets.ore.body import Body
    from sim.rulesets.ore.rules import RollPlan
    from sim.scenario.specs import MemberSpec

# Intents that never roll when declared alone: they come after every set (width 1).
UNROLLED = (Move, Retreat, Withdraw, Reload)
UNROLLED_SET = Set(1, 0)


@register
class OreRuleset(Ruleset[OF]):
    """One Roll Engine as written for Reign.

    Generic over its fighter class (``OF``): ORE's own is ``OreFighter``, B-Grade's ruleset
    is ``OreRuleset[BGradeFighter]``. Roll plans are its ``planner``'s (``KeptPlans``); a
    player's choices after a roll and what happens between fights are functions of
    ``choices`` and ``recovery``.
    """

    name = "ore"
    coverage = COVERAGE
    summary = "One Roll Engine (Reign): d10 pools of sets, width for speed, height for location"
    seconds_per_round = 3.0
    native_key = "ore"
    NativeBlock: ClassVar[type[BaseModel] | None] = OreBlock
    Options: ClassVar[type[BaseModel]] = OreOptions
    Advisor = OreAdvisor
    supports = frozenset({Attack, Move, Retreat, Withdraw, Defend, Reload})
    # what a drawn sidearm changes
    ARMS = ("weapon", "ranged", "reach", "fight", "loaded", "plans")
    fighter_class: ClassVar[type[OreFighter[Any]]] = OreFighter  # ``OF`` itself
    cap: ClassVar[int | None] = 10  # dice rolled at most (B-Grade: None)
    per_extra_action: ClassVar[int] = 1  # dice off per action beyond the first (B-Grade: 0)
    glossary = ("Words: gobble dice are a defense set's dice, each taking one die off an "
                "attack set no higher than it. A called shot 'worth 0.32 of a takedown': on "
                "average a hit there does 0.32 of what it takes to put the foe out ('plain': "
                "a hit anywhere).")
    legend = ("Reading the log: a roll of 6d is six d10s; a set 2x8 is two dice showing 8 "
              "(width x height). Wider sets act first; the height is where a hit lands (1-2 "
              "legs, 3-6 arms, 7-9 torso, 10 head). Damage fills wound boxes: torso 3K+2S/10 "
              "is 3 Killing and 2 Shock of 10 boxes. AR is armor per location: left leg, "
              "right leg, left arm, right arm, torso, head. A weapon's damage counts from the "
              "set's width: W+1 K is width + 1 Killing. -1d: a die taken off, and why.")

    # ORE's or B-Grade's model (``OreOptions``, ``BGradeOptions``): the shared code reads its
    # difficulty alone, which the base's plain BaseModel does not promise
    options: DifficultyOptions  # type: ignore[assignment]
    advisor: OreAdvisor[OF]

    def __init__(self, options: BaseModel | None = None):
        super().__init__(options)
        # the roll plans: asked by the advisor and the round's planner, kept while they hold
        self.planner: KeptPlans[OF] = KeptPlans(type(self), self.cap, self.per_extra_action)
        # no difficulty: a lone plain roll takes the one-step path (``_plan_fighter``); a
        # subclass with another test keeps the long one
        self._plain_sets = self.set_succeeds() is None
        # the set itself is its speed (ORE's widest first), unless a subclass says otherwise
        self._set_speed = type(self).speed is OreRuleset.speed
        # ORE's own miss test with no difficulty: a set that survives the defense hits
        self._always_hits = (not self.options.difficulty
                             and type(self)._miss_reason is OreRuleset._miss_reason)

    # ------------------------------------------------------------ building
    def build(self, member: MemberSpec, pos: Position, rng: random.Random | None) -> OF:
        """Convert the neutral description (RULES.md), then apply the native block."""
        f = make_fighter(self.fighter_class, member, pos, member.native_block(self.native_key))
        if TYPE_CHECKING:  # ``fighter_class`` is the ruleset's ``OF`` (no cast call a fighter)
            f = cast("OF", f)
        return f

    def native_block_of(self, f: OF) -> dict[str, Any]:
        """Stats, skills and special dice of a built fighter, as an ``ore:`` block."""
        return {"stats": {k: getattr(f, k) for k in ("body", "coordination", "sense")},
                "skills": {k: getattr(f, k) for k in SKILLS},
                **({"expert": sorted(f.expert)} if f.expert else {}),
                **({"master": sorted(f.master)} if f.master else {})}

    def declaration_order(self, enc: Encounter, fighters: list[OF]) -> list[OF]:
        """Lowest Sense declares first, so the sharper see the others' intents.

        Equal Sense: the order is drawn by the encounter's generator, not the file's.
        """
        rand = enc.rng.random
        keyed = sorted([(f.sense, rand(), i) for i, f in enumerate(fighters)])
        return [fighters[i] for _, _, i in keyed]

    # ------------------------------------------------------------ planning
    def declaration(self, enc: Encounter, f: OF, intents: list[Intent]) -> str:
        """Every intent of the declaration, in ORE's words: ``attack on X and move ...``."""
        return " and ".join(WORDS.text(i, enc.field) for i in intents)

    def plan_round(self, enc: Encounter,
                   declared: list[tuple[OF, list[Intent]]]) -> list[TimedAction[RolledSet]]:
        """Roll every declared pool, give sets to actions, time them by width and height."""
        actions: list[TimedAction[RolledSet]] = []
        # no log, no player and ORE's plain test: lone plain rolls take the one-step path
        plain = enc.log is None and self._plain_sets and not enc.minds
        for f, intents in declared:
            if f.defenses:  # renewed, not cleared: nothing else holds last round's lists
                f.defenses = []
            if f.sets:
                f.sets = []
            if intents:
                self._plan_fighter(enc, f, intents, actions, plain)
        self._schedule(actions)
        return actions

    def _schedule(self, actions: list[TimedAction[RolledSet]]) -> None:
        """Offsets from the sets' speed (``speed``, kept as ``RolledSet.key``).

        Fastest first; equal speeds together.
        """
        if not actions:
            return
        rank = offsets_by_rank([a.payload.key for a in actions], self.seconds_per_round)
        for a in actions:
            a.offset = rank[a.payload.key]

    def _plan_fighter(self, enc: Encounter, f: OF, intents: list[Intent],
                      actions: list[TimedAction[RolledSet]], plain: bool = False) -> None:
        """Roll ``f``'s pool for ``intents`` and commit its sets as timed actions.

        ``plain``: no log, no player, no difficulty (``plan_round``), so that a lone roll
        with plain dice can take the one-step path.
        """
        log = enc.log
        if len(intents) == 1 and type(intents[0]) in UNROLLED:
            actions.append(TimedAction(0.0, f, intents[0],
                                       RolledSet(UNROLLED_SET, self.speed(UNROLLED_SET))))
            return
        p = self.planner.plan(enc, f, intents)
        if plain and p.called is None and len(p.rolled) == 1 and not f.expert and not f.master:
            # the common roll (one plain attack or defense, plain dice): what roll_special,
            # assign_sets and _commit do, in one step
            sets = find_sets(roll_pool(enc.rng, p.dice))
            intent = p.rolled[0]
            s = (sets[0] if len(sets) < 2 or type(intent) is not Attack
                 else best_set(intent, sets, self.set_worth(f))) if sets else None
            self._commit_one(enc, f, intent, s, actions)
            return
        faces = choices.roll_special(enc, f, p.dice, p.skill, p.called, len(p.rolled))
        sets = find_sets(faces)
        pairs = assign_sets(p.rolled, sets, self.set_succeeds(), self.set_worth(f))
        if enc.asks(f) and sets:
            pairs = choices.ask_sets(enc, f, faces, pairs, sets)
        if log is not None:
            self._log_roll(enc, f, intents, p, faces, sets, pairs)
        self._commit(enc, f, pairs, actions)

    def set_worth(self, f: OF) -> Callable[[Intent, Set], float] | None:
        """What a set is worth to ``f``'s attack (``rules.best_set``): the advisor's table.

        The share of a take-out the hit deals on the attack's target (``hit_value``: by
        location, after armor), so a 2x10 at the head beats a 3x4 at the arm.
        """
        def worth(intent: Intent, s: Set) -> float:
            if TYPE_CHECKING:  # sets are weighed for attacks alone (no cast calls per set)
                intent = cast(Attack, intent)
            target = intent.target
            if TYPE_CHECKING:
                target = cast("OreFighter[Body]", target)
            return hit_value(f, target, s.width, s.height)

        return worth

    def set_succeeds(self) -> Callable[[Set], bool] | None:
        """The test a set must pass against the difficulty (None: no difficulty)."""
        difficulty = self.options.difficulty
        return (lambda s: s.height >= difficulty) if difficulty else None

    def _commit(self, enc: Encounter, f: OF, pairs: list[tuple[Intent, Set | None]],
                actions: list[TimedAction[RolledSet]]) -> None:
        """Turn each ``(intent, set)`` into a timed action; an attack without a set misses.

        A shot with a reload weapon spends the bolt whether it hits or not: no set, no hit,
        and the crossbow is empty all the same.
        """
        for intent, s in pairs:
            self._commit_one(enc, f, intent, s, actions)

    @staticmethod
    def speed(s: Set) -> tuple[int, ...]:
        """A set's speed, the order of resolution: ORE's widest first, ties by height.

        Identical sets are simultaneous. B-Grade orders by area (``BGradeRuleset.speed``).
        """
        return s

    in_time = staticmethod(in_time)  # when a defense set gobbles in time (B-Grade: by area)

    def _commit_one(self, enc: Encounter, f: OF, intent: Intent, s: Set | None,
                    actions: list[TimedAction[RolledSet]]) -> None:
        """One ``(intent, set)`` of ``_commit``."""
        if s is None:
            # resolved now: no set, no hit; on a foe already out (it gave up as the round
            # was declared) it fizzles as a set would, uncounted and with its bolt kept
            if type(intent) is Attack and intent.target.in_fight:
                enc.record_attack(f)
                # a shot loosed as ``_attack`` looses one: with a foe in reach it strikes
                # (RULES.md "Shooting in melee": hit or miss; once a round, ``moving``)
                loosed = (f.weapon.ranged and f.loaded and not arms.none_to_throw(f)
                          and arms_ok(f) and space.in_reach(enc, f, intent.target))
                if f.weapon.reload:
                    f.loaded = False
                if f.throws_left is not None:  # a javelin thrown all the same
                    arms.thrown(f)
                if loosed:
                    moving.shot_in_melee(enc, f)
            return
        # ORE's speed is the set itself (``RolledSet``'s default): no call on every action
        action = TimedAction(0.0, f, intent,
                             RolledSet(s) if self._set_speed else RolledSet(s, self.speed(s)))
        actions.append(action)
        f.sets.append(action)
        if type(intent) is Defend:
            f.defenses.append((intent.kind, action.payload))

    def aftermath(self, enc: Encounter, tended: frozenset[OF]) -> None:
        """Nobody dies after an ORE fight; half the Shock (rounded down) goes away (Reign).

        Tending changes nothing: ORE has no bleeding and no first aid to roll.
        """
        if TYPE_CHECKING:  # the encounter's, built by ``build`` (a cast is a call at run time)
            fighters = cast("list[OF]", enc.combatants)
        else:
            fighters = enc.combatants
        for f in fighters:
            if f.status is not Status.DEAD:
                f.wounds.heal_after_fight()
        if enc.log is not None:
            enc.emit("recover", text="Half of everyone's Shock goes away (rounded down).")

    def carry(self, old: OF, new: OF) -> None:
        """The wound boxes and a fired reload weapon carry over (``recovery.carry``)."""
        recovery.carry(old, new)

    def recover(self, f: OF, rest: str, rng: random.Random) -> list[str]:
        """Reload, the rest roll, a point of Killing at a long rest (``recovery.recover``)."""
        return recovery.recover(f, rest, rng, self.cap)

    def fit(self, f: OF) -> bool:
        """Alive and awake by its wounds (``recovery.fit``)."""
        return recovery.fit(f)

    # ------------------------------------------------------------ resolving
    def resolve(self, enc: Encounter, action: TimedAction[RolledSet]) -> None:
        """Carry out one set's action: attack, move, retreat, reload or stand ready."""
        action.done = True
        intent = action.intent
        f = action.actor
        if TYPE_CHECKING:  # built by ``build`` (no cast call on every action)
            f = cast("OF", f)
        # ``type(intent) is``, not ``match``: this runs for every action, and a class
        # pattern costs twice as much (mypy narrows either)
        if type(intent) is Attack:
            self._attack(enc, action, f, intent)
            return
        kind = type(intent)  # the others tell by it once; ``type(intent) is`` where it narrows
        if kind is Reload:
            f.loaded = True
            if enc.log is not None:
                enc.emit("reload", who=f.name, text=f"{f.name} reloads the {f.weapon.name}.")
        elif kind is Move or kind is Retreat:
            if action.payload.height and action.payload.width < 2:
                # a move rolled with other actions needs its Run set: broken, it does not happen
                if enc.log is not None:
                    enc.emit("move", who=f.name,
                             text=f"{f.name}'s move fails: its set was broken.")
            elif type(intent) is Move:
                self.walk_toward(enc, f, intent,
                                 self.run_metres(f) if intent.run else self._metres(f))
            elif type(intent) is Retreat:
                self.move_to(enc, f, intent,
                             self.run_metres(f) if intent.run else self._metres(f))
        elif type(intent) is Withdraw:
            self.withdraw(enc, f, intent)
        elif type(intent) is Defend and enc.log is not None:
            d = action.payload
            text = (f"{f.name} stands ready to {intent.kind} with {d} "
                    f"({d.width} gobble dice of height {d.height})." if d.width >= 2 else
                    f"{f.name}'s {intent.kind} set was broken.")
            enc.emit("defend", who=f.name, text=text)

    def run_metres(self, f: OF) -> float:
        """A run: twice a move (RULES.md, 20 m), halved like a move by a useless leg."""
        return 2 * self._metres(f)

    def free_attack(self, enc: Encounter, f: OF, target: OF) -> None:
        """``f``'s ordinary attack on a foe leaving its reach: its pool alone, the best set.

        RULES.md "Leaving melee": not an action, so no die off for other actions and
        nothing ``f`` declared is spent; rolled now, resolved as any attack with that set
        (the target's declared defenses gobble it if in time).
        """
        attack = target.plain_attack
        p = self.planner.plan(enc, f, [attack])
        faces = roll_pool(enc.rng, p.dice)
        sets = find_sets(faces)
        if enc.log is not None:
            shown = sorted(faces, reverse=True)
            enc.emit("roll", who=f.name, dice=shown, sets=[str(s) for s in sets],
                     text=f"{f.name} rolls {p.dice}d for the free attack: "
                          f"{' '.join(map(str, shown))} -> "
                          f"{', '.join(map(str, sets)) or 'no set, a miss'}.")
        if not sets:
            enc.record_attack(f)
            return
        s = best_set(attack, sets, self.set_worth(f))
        self._attack(enc, TimedAction(enc.now, f, attack, RolledSet(s, self.speed(s))), f,
                     attack)

    @staticmethod
    def _metres(f: OreFighter[Any]) -> float:
        """Ruling: one useless leg halves movement; with none usable the fighter cannot move."""
        legs = f.wounds.usable_legs()
        return f.speed if legs == 2 else f.speed / 2 if legs == 1 else 0.0

    def _attack(self, enc: Encounter, action: TimedAction[RolledSet], f: OF,
                intent: Attack) -> None:
        """Resolve ``f``'s attack ``intent`` with its set: a miss, and why, or a hit."""
        target = intent.target
        if TYPE_CHECKING:  # a fighter of this ruleset (no cast call on every attack)
            target = cast("OF", target)
        s = action.payload
        log = enc.log
        if not target.in_fight and enc.finds_down(f, target, s):  # a call only when down
            return
        enc.record_attack(f)
        width = s.width
        reason = ""
        loosed = False
        if not f.loaded:
            reason = f"the {f.weapon.name} is not loaded"
        elif arms.none_to_throw(f):
            reason = f"no {f.weapon.name} left to throw"
        elif not arms_ok(f):
            reason = "no usable arm"
        elif not space.in_reach(enc, f, target):
            reason = "out of reach"
        else:  # the blow is struck, the bolt loosed: spent, hit or miss
            loosed = True
            if f.weapon.reload:
                f.loaded = False
            if f.throws_left is not None:  # a thrown weapon is spent as a bolt is
                arms.thrown(f)
            if width < 2:
                reason = "its set was broken"
        gobbled = 0
        if not reason and target.defenses:
            width, gobbled = gobble(
                width, s.height, s.key, target.defenses, melee=not f.weapon.ranged,
                unarmed_attack=f.weapon.unarmed, shield=target.shield,
                can_parry=parry_implement(target), arms=arms_ok(target),
                timely=self.in_time)
            if width < 2:
                reason = f"{target.name} gobbles {count(gobbled, 'die', 'dice')}"
        if not reason and not self._always_hits:
            reason = self._miss_reason(width, s)
        if reason:
            if log is not None:
                enc.emit("miss", who=f.name, target=target.name, set=str(s),
                         text=f"{s} {f.name} attacks {target.name}: miss ({reason}).")
        else:
            enc.record_hit(f, target, self._damage(enc, f, target, width, s, gobbled))
        if f.weapon.ranged and loosed:  # RULES.md "Shooting in melee": a foe in reach strikes
            moving.shot_in_melee(enc, f)

    def _miss_reason(self, width: int, s: RolledSet) -> str:
        """Why a set that survived the defense still fails ("" when it hits).

        ORE: a set succeeds only if its height reaches the difficulty (``options.ore``).
        """
        difficulty = self.options.difficulty
        if s.height < difficulty:
            return f"height {s.height} is below the difficulty {difficulty}"
        return ""

    def _damage(self, enc: Encounter, f: OF, target: OF, width: int,
                s: RolledSet, gobbled: int) -> Harm:
        """Mark a hit's Killing and Shock on ``target``; returns them, where they landed."""
        body: Body = target.wounds  # ORE's own: hit locations (B-Grade has its ``_damage``)
        loc = LOCATION_BY_HEIGHT[s.height]
        killing, shock = f.weapon.damage.roll(width)
        struck = body.landing(loc)  # a useless limb passes the hit to the torso
        ar = max(0, target.armor[struck] - f.weapon.ap)
        killing, shock = max(0, killing - ar), max(0, shock - ar)
        # what a filling limb will pass on to the torso, for the log (before the hit marks it)
        spilled = spilled_text(body, loc, killing, shock) if enc.log is not None else ""
        marked = sum(body.killing)  # Shock with no room left becomes Killing: count after
        landed = body.take(loc, killing, shock)
        marked = sum(body.killing) - marked
        # hit before acting: only a hit that marked a box (``hit_costs_a_die``); nothing to
        # lose with no set pending
        lost = (choices.lose_die(enc, target, s.key)
                if target.sets and hit_costs_a_die(killing + shock) else None)
        if enc.log is not None:
            where = LOCATION_NAMES[loc] + ("" if landed == loc else
                                           f" (useless, to the {LOCATION_NAMES[landed]})")
            if landed != TORSO:  # the limb filled up: what had no room there went on
                where += spilled
            text = (f"{s} {f.name} hits {target.name} in the {where}"
                    f"{f' at width {width} after {gobbled} gobbled' if gobbled else ''}: "
                    + (f"{killing} Killing, {shock} Shock (AR {ar})" if killing or shock
                       else f"stopped by armor (AR {ar})")
                    + f" -> {body.summary()}.")
            if lost is not None:
                text += (f" {target.name} loses a die from the set of its "
                         f"{WORDS.text(lost.intent)} (now {lost.payload}).")
            enc.emit("hit", who=f.name, target=target.name, set=str(s), width=width,
                     location=LOCATION_NAMES[landed], killing=killing, shock=shock, armor=ar,
                     text=text)
        if body.dead:
            enc.take_out(target, Status.DEAD, "head or torso full of Killing")
        elif body.unconscious:
            enc.take_out(target, Status.UNCONSCIOUS, "head full")
        elif body.beaten and not self.options.lethal_unarmed:
            # ruling "beaten" (RULES.md, amended): out of the fight, so nobody strikes it
            # again, unarmed or not (``Encounter.finds_down``)
            enc.take_out(target, Status.UNCONSCIOUS, "beaten: torso full of Shock")
        return Harm(marked, killing + shock - marked, LOCATION_NAMES[landed])

    def harm_lasts(self, target: OF, harm: Harm) -> bool:
        """Killing; Shock on the head or torso (``ore.harm.lasts``); a hit that took it out."""
        return lasts(harm) or not target.in_fight

    # ------------------------------------------------------------ log text
    def penalties(self, enc: Encounter, f: OF,
                  rolled: Sequence[Intent]) -> list[tuple[str, int]]:
        """Where the penalty of ``f``'s roll comes from (``rules.penalty_terms``), for the log."""
        field, pos = enc.field, f.pos
        pressed = f.weapon.ranged and space.pressed(enc, f)
        return penalty_terms(f, rolled, lambda i: situation_terms(field, f, pos, i, pressed),
                             per_extra_action=self.per_extra_action)

    def _log_roll(self, enc: Encounter, f: OF, intents: list[Intent], p: RollPlan,
                  faces: list[int], sets: list[Set],
                  pairs: list[tuple[Intent, Set | None]]) -> None:
        log_roll(enc, f, intents, p, faces, sets, pairs, self.penalties(enc, f, p.rolled))
