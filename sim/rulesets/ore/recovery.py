"""ORE and B-Grade between fights: what a fighter carries into the next one, and rest.

Seed 002, "Healing": after a combat half the Shock taken disappears (the aftermath does it:
``OreRuleset.aftermath``); rest allows a Body + Vigor roll which removes Shock equal to its
width; Killing heals one point a day, in any location. B-Grade is ORE unless changed, so
the same holds on its wound and Shock track (a wound stands for a point of Killing).

Rulings (documented in ``docs/rules/ore.md`` and ``docs/campaigns.md``):
- ``rest: none``: nothing more than the half of the Shock; ``short`` (an hour): the rest
  roll; ``long`` (a night and a day): the rest roll and one point of Killing (B-Grade: one
  wound) healed.
- The rest roll is Body + Vigor in d10s (Vigor 0 unless a native block gives it; ORE's cap
  of 10 dice holds, B-Grade has none); its widest set's width is the Shock removed, head
  first, then torso, then the fullest limb (``Body.heal_shock``).
- The once-a-day healing roll of a healer (Knowledge + Healing) is not modelled: fray has
  no Healing skill.
- An empty reload weapon is reloaded at any rest; with no rest it stays as it was.
- A disarmed fighter picks its weapon up: the weapon is not carried, it comes from the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.rulesets.dice import roll_pool
from sim.rulesets.ore.sets import find_sets

if TYPE_CHECKING:
    import random

    from sim.rulesets.ore.fighter import OreFighter


def rest_roll(rng: random.Random, dice: int, cap: int | None) -> tuple[list[int], int]:
    """The Body + Vigor rest roll: its faces and the width of its widest set (0: none)."""
    faces = roll_pool(rng, dice if cap is None else min(dice, cap))
    sets = find_sets(faces)
    return faces, sets[0].width if sets else 0


# ``OreRuleset``'s ``carry``, ``recover`` and ``fit`` (B-Grade's too: its ``carry`` adds to it)
def carry(old: OreFighter[Any], new: OreFighter[Any]) -> None:
    """The wound boxes and a fired reload weapon carry into the next fight."""
    new.wounds = old.wounds.copy()
    new.loaded = old.loaded


def recover(f: OreFighter[Any], rest: str, rng: random.Random, cap: int | None) -> list[str]:
    """Reload, the rest roll (short and long), one point of Killing healed (long).

    ``cap``: the ruleset's dice rolled at most (ORE 10, B-Grade none).
    """
    if rest == "none":
        return []
    said = []
    if not f.loaded:
        f.loaded = True
        said.append(f"reloads the {f.weapon.name}")
    pool = f.body + f.vigor
    faces, width = rest_roll(rng, pool, cap)
    healed = f.wounds.heal_shock(width)
    rolled = " ".join(map(str, sorted(faces, reverse=True)))
    said.append(f"rest roll Body + Vigor {pool}d: {rolled} -> "
                + (f"a set of width {width}, {healed} Shock healed" if healed
                   # a set heals at least its width: healing nothing, there was no Shock
                   else f"a set of width {width}, no Shock to heal" if width
                   else "no set, no Shock healed"))
    if rest == "long":
        healed_killing = f.wounds.heal_killing()
        if healed_killing is not None:
            said.append(f"a day's rest heals {healed_killing}")
    return said


def fit(f: OreFighter[Any]) -> bool:
    """Alive and awake by its wounds (ORE: head not full; B-Grade: Shock track not full)."""
    return not f.wounds.dead and not f.wounds.unconscious
