"""ORE's rules as plain functions: pools, the roll plan, special dice, sets, gobble dice.

Nothing here knows the engine: each function takes what it needs and returns a result, so
each rule can be tested on hand-set dice. ``sim.rulesets.ore.ruleset`` applies them in a
fight, B-Grade reuses them, and both advisors compute their odds from ``plan_roll``: what
the AI expects to roll is what the ruleset rolls.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import TYPE_CHECKING, Any, NamedTuple

from sim.core.actions import Attack, Defend, Intent, Move, Retreat, TimedAction
from sim.rulesets.dice import roll_pool
from sim.rulesets.ore.catalog import (
    CALLED_HEIGHT,
    LOCATION_BY_HEIGHT,
)
from sim.rulesets.ore.sets import Set, find_sets

if TYPE_CHECKING:
    from sim.rulesets.ore.fighter import OreFighter

MAX_POOL = 10
# Intents that need a set of their own (a lone move or reload rolls nothing).
ROLLED = (Attack, Defend, Move, Retreat)


# ---------------------------------------------------------------------------- state
class RolledSet:
    """A set rolled this round and assigned to one action; ``width`` shrinks as dice are lost."""

    __slots__ = ("width", "height", "key", "used")

    def __init__(self, s: Set, key: tuple[int, ...] | None = None):
        self.width, self.height = s
        # the set's speed as rolled (ORE: (width, height); B-Grade: its area first):
        # timing does not change when dice are lost
        self.key = s if key is None else key
        self.used = 0  # gobble dice spent (defense sets)

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


# ---------------------------------------------------------------------------- pure rules
def action_pool(f: OreFighter[Any], intent: Intent) -> tuple[int, str]:
    """``(dice, skill)`` of the pool for one action, before penalties and the cap."""
    if type(intent) is Attack:
        if f.weapon.ranged:
            return f.coordination + f.shoot, "shoot"
        return f.body + f.fight, "fight"
    if type(intent) is Defend:
        if intent.kind == "parry":
            return f.body + f.parry, "parry"
        return f.coordination + f.dodge, "dodge"
    return f.body + f.run, "run"


def smallest_pool(f: OreFighter[Any], intents: Sequence[Intent]) -> tuple[int, str]:
    """The smallest of the actions' pools; on a tie, the one whose skill has a special die."""
    special = f.expert | f.master
    return min((action_pool(f, i) for i in intents), key=lambda p: (p[0], p[1] not in special))


_record = tuple.__new__


class RollPlan(NamedTuple):
    """One fighter's roll for a round's declaration, before any die is thrown.

    Attributes:
        rolled: the intents that need a set.
        base: the pool rolled for them (the smallest of their pools), before penalties.
        skill: that pool's skill (an expert or master die in it comes along).
        penalty: dice taken off: the worst situational penalty of the actions, the
            multiple-action penalty, a dazed fighter's die.
        dice: dice rolled after penalties (and ORE's 10-dice cap).
        called: the height a called shot sets, or None.
    """

    rolled: tuple[Intent, ...]
    base: int
    skill: str
    penalty: int
    dice: int
    called: int | None


def plan_roll(f: OreFighter[Any], intents: Sequence[Intent],
              situation: Callable[[Intent], int], *,
              cap: int | None = MAX_POOL, per_extra_action: int = 1) -> RollPlan:
    """The one home of "one roll for several actions" (RULES.md ``ore``, multiple actions).

    The pool is the smallest of the declared actions' pools; on a tie the one whose skill
    has an expert or master die (the die is kept). It loses the worst situational penalty
    of the actions it serves (``situation``, e.g. ``situational_penalty``), not their sum,
    ``per_extra_action`` dice per action beyond the first (ORE 1, B-Grade 0), and one die
    when dazed; then ``cap`` applies (None: B-Grade, no cap).
    """
    rolled: tuple[Intent, ...]
    if len(intents) == 1:  # the common case, kept lean
        intent = intents[0]
        kind = type(intent)
        rolled = (intent,) if kind in ROLLED else ()
    else:
        rolled = tuple(i for i in intents if type(i) in ROLLED)
    if len(rolled) == 1:
        base, skill = action_pool(f, intent := rolled[0])
        penalty = f.wounds.dazed + situation(intent)
        called = CALLED_HEIGHT[intent.called] if type(intent) is Attack and intent.called \
            else None
    else:
        base, skill = smallest_pool(f, rolled) if rolled else (0, "")
        penalty = ((len(rolled) - 1) * per_extra_action + f.wounds.dazed
                   + max((situation(i) for i in rolled), default=0))
        called = next((CALLED_HEIGHT[i.called] for i in rolled
                       if type(i) is Attack and i.called), None)
    # made in C: ``RollPlan(...)`` runs the named tuple's Python ``__new__`` (fields in order)
    return _record(RollPlan, (rolled, base, skill, penalty, capped(base, penalty, cap), called))


def penalty_terms(f: OreFighter[Any], rolled: Sequence[Intent],
                  situation: Callable[[Intent], tuple[tuple[str, int], ...]], *,
                  per_extra_action: int = 1) -> list[tuple[str, int]]:
    """Where a roll's penalty (``plan_roll``'s) comes from, cause by cause, for the log.

    Dazed, the actions beyond the first, and the worst situation among the actions (only
    that one counts: RULES.md). The dice add up to ``RollPlan.penalty``.
    """
    terms = [("dazed", 1)] if f.wounds.dazed else []
    extra = (len(rolled) - 1) * per_extra_action
    if extra:
        terms.append((f"{len(rolled) - 1} more action{'s' if len(rolled) > 2 else ''}",
                      extra))
    worst = max((situation(i) for i in rolled), key=lambda t: sum(d for _, d in t),
                default=())
    return terms + list(worst)


def penalty_text(terms: list[tuple[str, int]]) -> str:
    """``-1d dazed, -2d long range`` (empty without penalties)."""
    return ", ".join(f"-{dice}d {label}" for label, dice in terms)


def arms_ok(f: OreFighter[Any]) -> bool:
    """Ruling: one usable arm to attack and parry; a two-handed weapon needs both."""
    arms = f.wounds.arms
    return arms == 2 or (arms == 1 and not f.weapon.two_handed)


def parry_implement(f: OreFighter[Any]) -> bool:
    """Parry needs a melee weapon or a shield (a bow or bare hands will not do)."""
    return f.shield or not (f.weapon.unarmed or f.weapon.ranged)


def capped(dice: int, penalty: int, cap: int | None = MAX_POOL) -> int:
    """Dice actually rolled: penalties come off first (dice above 10 soak them), then the cap.

    ``cap`` None: no cap (B-Grade).
    """
    dice -= penalty
    if cap is not None and dice > cap:
        return cap
    return dice if dice > 0 else 0


def best_master_face(faces: list[int], want: int | None, needed: int, sides: int = 10) -> int:
    """The face a master die takes after the roll.

    As many sets as actions need, the called height if any, then the widest and highest set.
    ``sides``: the dice rolled (B-Grade's possibility points roll d6).
    """
    best, best_score = sides, None
    for face in range(sides, 0, -1):
        sets = find_sets(faces + [face])
        top = sets[0] if sets else Set(0, 0)
        score = (min(len(sets), needed), any(s.height == want for s in sets), top.width,
                 top.height)
        if best_score is None or score > best_score:
            best, best_score = face, score
    return best


def roll_action_pool(rng: random.Random, dice: int, *, expert: bool = False,
                     master: bool = False, called: int | None = None,
                     needed: int = 1, sides: int = 10) -> list[int]:
    """Roll ``dice`` d10 (or ``sides``-sided dice) with the special dice of ORE.

    A called shot sets one die to the called height before the roll; an expert die is set
    before the roll (the AI picks the called height, else the highest face); a master die is
    set after it (see ``best_master_face``). Set dice count among the ``dice``.
    """
    if called is None and not expert and not master:  # the common roll: plain dice
        return roll_pool(rng, dice, sides)
    fixed = []
    if called is not None:
        fixed.append(called)
    if expert:
        fixed.append(called if called is not None else sides)
    fixed = fixed[:dice]
    rolled = dice - len(fixed) - (1 if master and dice > len(fixed) else 0)
    faces = fixed + roll_pool(rng, rolled, sides)
    if master and dice > len(fixed):
        faces.append(best_master_face(faces, called, needed, sides))
    return faces


def assign_sets(intents: Sequence[Intent], sets: list[Set],
                succeeds: Callable[[Set], bool] | None = None,
                worth: Callable[[Intent, Set], float] | None = None,
                speed: Callable[[Set], tuple[int, ...]] | None = None
                ) -> list[tuple[Intent, Set | None]]:
    """Give each rolled action a set, after the roll (RULES.md: multiple actions).

    A move declared with an attack takes the fastest set, so that it lands before the
    attack (``speed``: the ruleset's order, B-Grade's by area; None: ORE's, the first of
    ``sets``); attacks then take a remaining set that ``succeeds`` (beats the difficulty; any
    set when None or when none does): the widest, or with ``worth`` the one whose hit is
    worth most (``best_set``), a called shot the widest such set at its location if any;
    defenses take what is left.
    """
    if len(intents) == 1 and not (type(intents[0]) is Attack and intents[0].called):
        intent = intents[0]
        if type(intent) is not Attack or not sets:
            return [(intent, sets[0] if sets else None)]
        good = [s for s in sets if succeeds(s)] if succeeds is not None else sets
        if not good:
            return [(intent, sets[0])]
        return [(intent, best_set(intent, good, worth))]
    remaining = list(sets)
    has_attack = any(type(i) is Attack for i in intents)
    rank = {Move: 0 if has_attack else 2, Retreat: 0 if has_attack else 2, Attack: 1,
            Defend: 3}
    order = sorted(range(len(intents)), key=lambda k: rank.get(type(intents[k]), 4))
    chosen: dict[int, Set | None] = {}
    for k in order:
        intent = intents[k]
        pick = None
        if remaining:
            pick = remaining[0]
            if speed is not None and has_attack and type(intent) in (Move, Retreat):
                pick = max(remaining, key=speed)  # widest first is not fastest by area
            elif type(intent) is Attack:
                good = [s for s in remaining if succeeds(s)] if succeeds else remaining
                if good:
                    pick = best_set(intent, good, None if intent.called else worth)
                if intent.called:
                    loc = LOCATION_BY_HEIGHT[CALLED_HEIGHT[intent.called]]
                    pick = next((s for s in good if LOCATION_BY_HEIGHT[s.height] == loc), pick)
            remaining.remove(pick)
        chosen[k] = pick
    return [(intents[k], chosen[k]) for k in range(len(intents))]


def best_set(intent: Intent, sets: list[Set],
             worth: Callable[[Intent, Set], float] | None) -> Set:
    """Ruling "a plain attack may use its head set": the set an attack takes.

    With a 2x10 and a 3x4 in one roll the attacker chooses (Reign). Without ``worth``: the
    widest set (the first; B-Grade, whose harm is the width). With it: the set whose hit
    is worth most (``worth``, the advisor's ``hit_value``: the share of a take-out it
    deals, by location, after armor), ties to the faster set.
    """
    best = sets[0]
    if worth is None or len(sets) == 1:
        return best
    top = worth(intent, best)
    for s in sets[1:]:  # widest first: a later set must be worth strictly more
        value = worth(intent, s)
        if value > top:
            best, top = s, value
    return best


def in_time(defense: tuple[int, ...], attack: tuple[int, ...]) -> bool:
    """ORE: a defense set is in time against an attack when it is at least as fast.

    Its (width, height) as rolled is at least the attack's: wider, or as wide and at least
    as high; ties go to the defender. (B-Grade compares areas: ``bgrade.rules``.)
    """
    return defense >= attack


def gobble(width: int, height: int, key: tuple[int, ...], defenses: list[tuple[str, RolledSet]],
           *, melee: bool, unarmed_attack: bool, can_parry: bool, shield: bool,
           arms: bool = True,
           timely: Callable[[tuple[int, ...], tuple[int, ...]], bool] = in_time
           ) -> tuple[int, int]:
    """Spend the defender's gobble dice on one attack set.

    A gobble die removes one die from an attack whose height is at most its own, when the
    defense set is in time against it (``timely``: ORE's ``in_time``, at least as fast,
    by default; the attack's speed is ``key``). Parry works
    against melee only (ruling: a shield also parries missiles), needs a usable arm (``arms``),
    and a melee weapon or a shield unless the attack is unarmed (``can_parry``). The
    defender spends just enough to bring the attack below width 2, or all it has left (each
    die taken off also takes off damage).

    Returns:
        ``(width left, dice gobbled)``.
    """
    gobbled = 0
    for kind, d in defenses:
        if width < 2:
            break
        left = d.width - d.used
        if d.width < 2 or left <= 0 or d.height < height or not timely(d.key, key):
            continue
        if kind == "parry" and (not arms or not (melee or shield)
                                or not (can_parry or unarmed_attack)):
            continue
        use = min(left, width - 1)
        d.used += use
        width -= use
        gobbled += use
    return width, gobbled


def hit_costs_a_die(marked: int) -> bool:
    """Ruling "a stopped hit costs no die" (RULES.md ``ore``, "Hit before you act", amended).

    Only a *damaging* hit takes a die from the victim's slower sets: one that marked at
    least one box of Shock or Killing (``marked``: the boxes it marked, after armor). A hit
    that armor stops entirely costs nothing: with a die lost to every harmless arrow, a
    fighter in plate stood still for whole fights (ORE's ambush drew 95% of its fights
    with six archers). ORE and B-Grade both ask here.
    """
    return marked > 0


def lose_die(pending: list[TimedAction[RolledSet]],
             faster: tuple[int, ...]) -> TimedAction[RolledSet] | None:
    """Hit before acting: take one die off one of the victim's sets slower than ``faster``.

    The AI gives up the least useful die: from its widest set when that set stays a set
    (width >= 3), otherwise from a width-2 defense, then a move, then an attack.
    """
    slower = slower_sets(pending, faster)
    if not slower:
        return None
    victim = pick_lost(slower)
    victim.payload.width -= 1
    return victim


def slower_sets(pending: list[TimedAction[RolledSet]],
                faster: tuple[int, ...]) -> list[TimedAction[RolledSet]]:
    """The sets a hit of speed ``faster`` can cost a die: not yet acted, slower, still sets."""
    return [a for a in pending if not a.done and a.payload.key < faster
            and a.payload.width >= 2]


def pick_lost(slower: list[TimedAction[RolledSet]]) -> TimedAction[RolledSet]:
    """The AI's pick of the set that loses the die (see ``lose_die``)."""
    wide = [a for a in slower if a.payload.width >= 3]
    if wide:
        return max(wide, key=lambda a: a.payload.width)
    order = {Defend: 0, Move: 1, Retreat: 1, Attack: 2}
    return min(slower, key=lambda a: order.get(type(a.intent), 3))


def set_assignments(pairs: list[tuple[Intent, Set | None]], sets: list[Set]
                    ) -> list[list[tuple[Intent, Set | None]]]:
    """Every way to give the roll's ``sets`` to the actions, ``pairs`` (the AI's) first.

    Each action takes one set or none; a set serves one action. Equal actions (two attacks on
    one foe) are interchangeable: which of them takes which set is one choice, offered once.
    """
    intents = [i for i, _ in pairs]
    pool = list(sets) + [None] * len(intents)
    out = [list(pairs)]
    seen = {_assignment_key(pairs)}
    for combo in permutations(pool, len(intents)):
        given = list(zip(intents, combo, strict=True))
        key = _assignment_key(given)
        if key not in seen:
            seen.add(key)
            out.append(given)
    return out


def _assignment_key(given: list[tuple[Intent, Set | None]]
                    ) -> frozenset[tuple[tuple[Intent, Set | None], int]]:
    """What an assignment gives to whom, blind to the order of equal actions."""
    return frozenset(Counter(given).items())
