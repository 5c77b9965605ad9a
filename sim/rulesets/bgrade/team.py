"""B-Grade's working together: allies attacking one foe in one round pool their hands.

The seed: "in dynamic contests where time is a factor, both individuals roll separately, and
combine their hands for the best set (however, one character must get at least one set, or
the attempt fails)". Made precise here (Ruling):

- A **team** is two or more fighters of one side whose roll this round is for attacks on the
  same foe only, with the same Stat + Skill (the seed's second condition: shooters team
  with shooters, fighters with fighters). A roll that also moves or defends commits its
  dice elsewhere and stays alone. Each member rolls its own pool (its own bonus, card, d6
  or d10).
- **The combined hand holds at most ``COMBINED_HAND_MAX`` (10) dice** (RULES.md, amended;
  seed 000 caps a combined pool "to a maximum of 10d"): the team is put in team order (below,
  fixed before the roll: it reads the weapons and the pools, not the dice), the lead's hand
  goes in, then each next member's whole hand while it fits; the first hand that does not fit
  ends the combined hand, and it and the members after it act alone (``combined_hand``).
- The combined hand's dice are pooled and its best set (widest, then highest) is found.
  Its **contributors** are the members with at least one die of that height; at least
  two must contribute, and at least one contributor must have a set in its own dice.
- The contributors combine only when it pays: when the best pooled set is worth more than
  the contributors' own widest sets together, a set of width w being worth w - 1 (its
  wounds, w - 2, plus one benefit; a minimal success 1). Otherwise everyone acts alone.
- Combined, the first contributor in team order (a Killing weapon first, then the larger
  pool, then declaration order) makes its first attack with the pooled set; the other
  contributors' first attacks merge into it (they are not resolved and not counted as
  attacks). Each contributor's further attacks take the sets left in its own dice once the
  dice of the pooled height are gone. Members that contributed nothing act alone.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from sim.rulesets.ore.rules import assign_sets
from sim.rulesets.ore.sets import Set, find_sets

_record = tuple.__new__  # a set made in C (a named tuple's own ``__new__`` is Python)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.rulesets.bgrade.fighter import BGradeFighter


class Roll:
    """One fighter's roll this round, before its sets are given to actions.

    Attributes:
        f: the fighter.
        intents: everything it declared; ``rolled``: the intents that need a set.
        faces, sets: the dice and the sets in them.
        team: the foe when every rolled intent is an attack on that one foe, else None.
        lethal: whether its weapon deals Killing (team order).
        base: the pool before bonuses and penalties (team order).
        skill: the skill of the pool (only the same Stat + Skill team up).
        info: what the solo log tells of the roll (None without a log).
    """

    __slots__ = ("f", "intents", "rolled", "faces", "sets", "team", "lethal", "base", "skill",
                 "info")

    def __init__(self, f: BGradeFighter, intents: list[Intent], rolled: Sequence[Intent],
                 faces: list[int], team: Combatant | None, lethal: bool, base: int,
                 skill: str, info: Any = None):
        self.f = f
        self.intents = intents
        self.rolled = rolled
        self.faces = faces
        self.sets = find_sets(faces)
        self.team = team
        self.lethal = lethal
        self.base = base
        self.skill = skill
        self.info = info


def find_teams(rolls: list[Roll]) -> list[list[Roll]]:
    """Rolls grouped by side, foe and skill: groups of two or more with at least one set."""
    groups: dict[tuple[str, Combatant, str], list[Roll]] = {}
    for r in rolls:
        if r.team is not None:  # combatants hash by identity
            groups.setdefault((r.f.side, r.team, r.skill), []).append(r)
    if len(groups) == len(rolls):  # every roll alone (or no foe to share): no team
        return []
    return [team for team in groups.values() if len(team) > 1 and any(map(_SETS, team))]


_SETS = attrgetter("sets")  # read in C over a team (``any``), no generator made
_FACES = attrgetter("faces")
# 1 << 8h per face h: a pooled hand summed over it holds, in byte h, how many dice show h
_FACE_BYTE = tuple(1 << (8 * face) for face in range(11))
_HAND_BYTES = 11  # bytes 0..10: every face a d10 (or a possibility point's d6) shows


def best_pooled(team: list[Roll]) -> Set | None:
    """The pooled hand's first set, ``find_sets(all the faces)[0]`` (None: no set).

    Counted in C rather than by ``find_sets`` (pooled hands are over 10 dice, too many to
    be memoised): the faces summed as one integer with a byte per face, whose bytes are the
    counts; the widest count, then the highest face with it. A hand of up to 255 dice of
    one face; ``test_best_pooled_is_find_sets_first`` holds the two equal.
    """
    counts = sum(map(_FACE_BYTE.__getitem__, chain.from_iterable(map(_FACES, team))))
    by_face = counts.to_bytes(_HAND_BYTES, "little")
    width = max(by_face)
    return _record(Set, (width, by_face.rindex(width))) if width >= 2 else None


def set_value(width: int) -> int:
    """What a set is worth to a team's decision: wounds (width - 2) plus a benefit."""
    return width - 1 if width >= 2 else 0


COMBINED_HAND_MAX = 10  # dice in a combined hand (RULES.md ``bgrade``, amended)


def combined_hand(team: list[Roll]) -> list[Roll]:
    """The members whose hands make the combined hand, in team order (``_team_order``).

    The lead's hand, then whole helpers' hands while the dice stay within
    ``COMBINED_HAND_MAX``; the first hand that would pass it ends the hand (the order is
    fixed before the roll, so no member is picked for the dice it rolled). A lead whose own
    hand is over the cap combines with nobody.
    """
    order = sorted(team, key=_team_order)  # stable: ties keep the declaration order
    dice = 0
    hand = []
    for r in order:
        dice += len(r.faces)
        if dice > COMBINED_HAND_MAX:
            break
        hand.append(r)
    return hand


def pool_hands(team: list[Roll]
               ) -> tuple[list[Roll], Set, list[list[tuple[Intent, Set | None]]]] | None:
    """Decide whether a team combines, and share out the sets if it does.

    Returns:
        None when the team does not combine; else ``(contributors in team order, the best
        set of the combined hand (``combined_hand``), per contributor its (attack, set or
        None) pairs)``. A contributor's attacks missing from its pairs merged into the
        lead's.
    """
    team = combined_hand(team)
    if len(team) < 2:
        return None
    best = best_pooled(team)
    if best is None:
        return None
    height = best.height
    helpers = [r for r in team if height in r.faces]  # in team order already
    if len(helpers) < 2:
        return None
    apart = 0  # the contributors' own widest sets, worth apart
    for r in helpers:
        if r.sets:
            apart += set_value(r.sets[0].width)
    if not apart or set_value(best.width) <= apart:  # no set of one's own, or no gain
        return None
    pairs = []
    for k, r in enumerate(helpers):
        if len(r.rolled) == 1:  # no further attack: nothing left to give out
            given = []
        else:
            left = find_sets([face for face in r.faces if face != height])
            given = assign_sets(r.rolled[1:], left)
        pairs.append([(r.rolled[0], best), *given] if k == 0 else given)
    return helpers, best, pairs


def _team_order(r: Roll) -> tuple[bool, int]:
    """A Killing weapon first, then the larger pool (ties: declaration order)."""
    return not r.lethal, -r.base
