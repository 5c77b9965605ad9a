"""ORE's rules as plain functions: pools, special dice, sets to actions, gobble dice, die loss.

Nothing here knows the engine: each function takes what it needs and returns a result, so
each rule can be tested on hand-set dice. ``sim.rulesets.ore`` applies them in a fight.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from sim.actions import Attack, Defend, Intent, Move, Retreat, TimedAction
from sim.dice import Set, find_sets, roll_pool
from sim.rulesets.ore_catalog import CALLED_HEIGHT, LOCATION_BY_HEIGHT

if TYPE_CHECKING:
    from sim.rulesets.ore import OreFighter

MAX_POOL = 10


# ---------------------------------------------------------------------------- state
class RolledSet:
    """A set rolled this round and assigned to one action; ``width`` shrinks as dice are lost."""

    __slots__ = ("width", "height", "key", "used")

    def __init__(self, s: Set):
        self.width = s.width
        self.height = s.height
        self.key = (s.width, s.height)  # fixed at the roll: timing does not change later
        self.used = 0  # gobble dice spent (defense sets)

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


# ---------------------------------------------------------------------------- pure rules
def action_pool(f: OreFighter, intent: Intent) -> tuple[int, str]:
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


def smallest_pool(f: OreFighter, intents: list[Intent]) -> tuple[int, str]:
    """The smallest of the actions' pools; on a tie, the one whose skill has a special die."""
    special = f.expert | f.master
    return min((action_pool(f, i) for i in intents), key=lambda p: (p[0], p[1] not in special))


def parry_implement(f: OreFighter) -> bool:
    """Parry needs a melee weapon or a shield (a bow or bare hands will not do)."""
    return f.shield or not (f.weapon.unarmed or f.weapon.ranged)


def capped(dice: int, penalty: int) -> int:
    """Dice actually rolled: penalties come off first (dice above 10 soak them), then the cap."""
    return max(0, min(MAX_POOL, dice - penalty))


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


def assign_sets(intents: list[Intent], sets: list[Set]) -> list[tuple[Intent, Set | None]]:
    """Give each rolled action a set, after the roll (RULES.md: multiple actions).

    A move declared with an attack takes the fastest set, so that it lands before the
    attack; attacks then take the widest remaining set (a called shot the widest set at its
    location, if any); defenses take what is left.
    """
    if len(intents) == 1 and not (type(intents[0]) is Attack and intents[0].called):
        return [(intents[0], sets[0] if sets else None)]
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
            if type(intent) is Attack and intent.called:
                loc = LOCATION_BY_HEIGHT[CALLED_HEIGHT[intent.called]]
                for s in remaining:
                    if LOCATION_BY_HEIGHT[s.height] == loc:
                        pick = s
                        break
            remaining.remove(pick)
        chosen[k] = pick
    return [(intents[k], chosen[k]) for k in range(len(intents))]


def gobble(width: int, height: int, key: tuple[int, int], defenses: list[tuple[str, RolledSet]],
           *, melee: bool, unarmed_attack: bool, can_parry: bool, shield: bool,
           arms: bool = True) -> tuple[int, int]:
    """Spend the defender's gobble dice on one attack set.

    A gobble die removes one die from an attack whose height is at most its own, when the
    defense set is at least as fast (wider, or as wide and at least as high). Parry works
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
        if d.width < 2 or left <= 0 or d.key < key or d.height < height:
            continue
        if kind == "parry" and (not arms or not (melee or shield)
                                or not (can_parry or unarmed_attack)):
            continue
        use = min(left, width - 1)
        d.used += use
        width -= use
        gobbled += use
    return width, gobbled


def lose_die(pending: list[TimedAction], faster: tuple[int, int]) -> TimedAction | None:
    """Hit before acting: take one die off one of the victim's sets slower than ``faster``.

    The AI gives up the least useful die: from its widest set when that set stays a set
    (width >= 3), otherwise from a width-2 defense, then a move, then an attack.
    """
    slower = [a for a in pending if not a.done and a.data.key < faster and a.data.width >= 2]
    if not slower:
        return None
    wide = [a for a in slower if a.data.width >= 3]
    if wide:
        victim = max(wide, key=lambda a: a.data.width)
    else:
        order = {Defend: 0, Move: 1, Retreat: 1, Attack: 2}
        victim = min(slower, key=lambda a: order.get(type(a.intent), 3))
    victim.data.width -= 1
    return victim
