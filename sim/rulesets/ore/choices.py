"""What a player may choose in an ORE roll (B-Grade's too).

The master die's face, which set goes to which action, the die lost when hit before acting.
Without a player (``Encounter.asks``) each is the AI's choice, the one a player gets on Enter.
Plain functions the ruleset calls: they read the encounter and the fighter, nothing of the
ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sim.core import space
from sim.core.actions import Attack, Intent, Move, TimedAction
from sim.rulesets.dice import roll_pool
from sim.rulesets.ore import rules
from sim.rulesets.ore.log import WORDS
from sim.rulesets.ore.rules import (
    best_master_face,
    pick_lost,
    roll_action_pool,
    set_assignments,
    slower_sets,
)
from sim.rulesets.ore.sets import Set, find_sets

if TYPE_CHECKING:
    from sim.core.engine import Encounter
    from sim.rulesets.ore.fighter import OreFighter
    from sim.rulesets.ore.rules import RolledSet


def roll_special(enc: Encounter, f: OreFighter[Any], dice: int, skill: str,
                 called: int | None, needed: int, sides: int = 10) -> list[int]:
    """Roll a pool with its special dice (``rules.roll_action_pool``).

    A player sets its master die's face after seeing the rest (the AI's face on Enter).
    """
    if called is None and not f.expert and not f.master:  # the common roll: plain dice
        return roll_pool(enc.rng, dice, sides)
    master = skill in f.master
    fixed = (called is not None) + (skill in f.expert)
    if not (master and dice > fixed and enc.asks(f)):
        return roll_action_pool(enc.rng, dice, expert=skill in f.expert, master=master,
                                called=called, needed=needed, sides=sides)
    faces = roll_action_pool(enc.rng, dice - 1, expert=skill in f.expert, called=called,
                             sides=sides)
    best = best_master_face(faces, called, needed, sides)
    shown = " ".join(map(str, sorted(faces, reverse=True)))
    options = [(f"{face} (sets: {', '.join(map(str, find_sets([*faces, face]))) or 'none'})",
                face) for face in range(1, sides + 1)]
    face = enc.choose(f, f"{f.name} rolled {shown}: the master die shows?", options,
                      best - 1)
    return [*faces, face]


def widest_first(s: Set) -> tuple[int, ...]:
    """ORE's speed of a set: wider first, then higher (``Set.speed``)."""
    return s.speed


def ask_sets(enc: Encounter, f: OreFighter[Any], faces: list[int],
             pairs: list[tuple[Intent, Set | None]], sets: list[Set],
             speed: Callable[[Set], tuple[int, ...]] | None = None
             ) -> list[tuple[Intent, Set | None]]:
    """A player gives the rolled sets to the declared actions (the AI's way on Enter).

    ``speed``: the ruleset's order of sets (ORE's widest first; B-Grade's by area), to warn
    of an attack that would come before its move; None: ORE's (``Set.speed``).
    """
    order = speed or widest_first

    def label(given: list[tuple[Intent, Set | None]]) -> str:
        text = ", ".join(f"{s or 'no set'} -> {WORDS.text(i)}" for i, s in given)
        moves = [s for i, s in given if type(i) is Move]
        far = [s for i, s in given if type(i) is Attack and s is not None
               and not space.in_reach(enc, f, i.target)]
        if far and any(s is None for s in moves):
            text += "  (no move, so the attack cannot reach)"
        elif far and any(s is not None and order(a) > order(s) for a in far for s in moves):
            # faster sets act first: the attack would strike before the move
            text += "  (the attack comes before the move: out of reach)"
        return text

    options = [(label(given), given) for given in set_assignments(pairs, sets)]
    shown = " ".join(map(str, sorted(faces, reverse=True)))
    chosen: list[tuple[Intent, Set | None]] = enc.choose(
        f, f"{f.name} rolled {shown}: which set for which action?", options, 0)
    return chosen


def lose_die(enc: Encounter, target: OreFighter[Any],
             faster: tuple[int, ...]) -> TimedAction[RolledSet] | None:
    """Hit before acting: the die ``target`` loses (``rules.lose_die``; a player picks)."""
    if not target.sets:  # nothing rolled this round, or all of it done
        return None
    if not enc.asks(target):
        return rules.lose_die(target.sets, faster)  # the AI's pick
    slower = slower_sets(target.sets, faster)
    if not slower:
        return None
    default = slower.index(pick_lost(slower))
    options = [(f"a die from its {WORDS.text(a.intent)} set ({a.payload})", a)
               for a in slower]
    victim: TimedAction[RolledSet] = enc.choose(
        target, f"{target.name} is hit before acting: which set loses a die?", options,
        default)
    victim.payload.width -= 1
    return victim
