"""One Roll Engine (Reign): ruleset ``ore``. Planning and resolving a round.

Where each rule lives:
- pools, the roll plan for several actions (smallest pool, worst situational penalty, -1d
  per extra action, the 10-dice cap), special dice, sets to actions, gobble dice, the die
  lost when hit before acting: ``rules``; sets themselves: ``sets``;
- a fighter's roll plan, asked by the AI and the planner, and the plans kept: ``planner``
  (``KeptPlans``, the part the ruleset holds as ``planner``);
- order of resolution (widest first, ties by height, identical sets simultaneous):
  ``OreRuleset.plan_round`` (offsets from the sets' speed); each action carried out at its
  moment (an attack, its miss or its hit's marks, a move, a free attack): ``resolution``
  (``OreResolution``, the half of the ruleset that resolves);
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
from sim.registry import register
from sim.rulesets.base import offsets_by_rank
from sim.rulesets.dice import roll_pool
from sim.rulesets.ore import choices, recovery
from sim.rulesets.ore.advisor import OreAdvisor
from sim.rulesets.ore.coverage import COVERAGE
from sim.rulesets.ore.fighter import (
    OF,
    SKILLS,
    OreBlock,
    OreFighter,
    OreOptions,
    make_fighter,
)
from sim.rulesets.ore.log import WORDS, log_roll
from sim.rulesets.ore.odds import hit_value
from sim.rulesets.ore.planner import KeptPlans
from sim.rulesets.ore.resolution import OreResolution
from sim.rulesets.ore.rules import (
    RolledSet,
    arms_ok,
    assign_sets,
    best_set,
    in_time,
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
class OreRuleset(OreResolution[OF]):
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
