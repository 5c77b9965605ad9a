"""OpenCore after a fight and between fights: bleeding on, what carries over, and rest.

Seed 001 says only that the fallen bleed "unless they are stabilized by chance or healing"
(the aftermath stops the bleeding of the tended) and that armor "can take that much damage
before it is useless". The rest are rulings (``docs/rules/opencore.md``, ``docs/campaigns.md``):
- Hit points, the armor's damage rating left, Toughness left, injuries (their skill
  penalties) and an empty reload weapon carry into the next fight. Stuns and knockouts end
  (time passes between fights); a dropped weapon is picked up.
- ``rest: short`` (an hour): Toughness comes back (``Physical Toughness``: grit, not flesh).
  ``long`` (a night and a day): Toughness and the armor's full rating (mended or patched)
  come back, and the fighter heals ``CON // 10`` hit points (at least 1; at most its
  starting HP). Injuries (broken, severed) last the whole campaign.
- A fighter at 0 HP or less is still unconscious and sits a fight out until a long rest
  brings it above 0.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sim.core.aftermath import MAX_AFTERMATH_ROUNDS
from sim.core.combatant import Status
from sim.rulesets.opencore.fighter import fighters_of, profile
from sim.rulesets.opencore.health import bleed_for, losing_blood, stop_bleeding

if TYPE_CHECKING:
    from sim.core.engine import Encounter
    from sim.rulesets.opencore.fighter import OpenCoreFighter
    from sim.rulesets.opencore.health import Fallen


def hp_per_day(con: int) -> int:
    """Hit points a day of rest gives back (ruling): CON // 10, at least 1."""
    return max(1, con // 10)


def bleeds_apart(enc: Encounter, bleeding: dict[OpenCoreFighter, int]) -> bool:
    """Whether the bleeding fallen can bleed out one after the other, not round by round.

    True when their ticks can reach nothing timed: all are out of the fight (no side's count
    or ``out_round`` moves), each dies within the aftermath's cap (a tick takes at least 1
    HP, death comes at -CON; a stabilising roll only ends it sooner), and nobody can wake
    up (a knockout ends with HP above 0; HP only falls now). Stuns may run on: without a
    log their end changes nothing. Then each fighter's ticks give the same result in any
    order as playing the rounds on.
    """
    for f in bleeding:
        if f.in_fight or f.hp + f.con >= MAX_AFTERMATH_ROUNDS - 1:
            return False
    return not any(c.knocked_out and c.hp > 0 for c in fighters_of(enc))


# ``OpenCoreRuleset``'s ``aftermath``, ``carry``, ``recover`` and ``fit``
def aftermath(enc: Encounter, tended: frozenset[OpenCoreFighter], fallen: Fallen | None) -> None:
    """Bleeding runs on after the fight (seed: "unless stabilized by chance or healing").

    A tended fighter's bleeding stops: OpenCore has no first-aid roll, so tending is
    enough (RULES.md: "else the bleeding simply stops"). Everyone else bleeds on, a round
    at a time, until dead at -CON or stabilised by chance (``health.bleed_once``).
    ``fallen``: the encounter's list of the bleeding fallen, if it keeps one.
    """
    fighters = fighters_of(enc)
    for f in fighters:
        if f in tended and losing_blood(f):
            stop_bleeding(enc, f)
            if enc.log is not None:
                enc.emit("tend", who=f.name, text=f"{f.name} is tended: the bleeding "
                         f"stops ({f.state()}).")
    start = enc.round
    bleeding = {f: f.hp for f in fighters if losing_blood(f)}
    if enc.log is None and bleeds_apart(enc, bleeding):
        for f in bleeding:  # the same ticks, without a SimPy round for each
            bleed_for(enc, f, math.inf)
        return
    if fallen is not None:  # the fallen tick in the aftermath's SimPy rounds
        fallen.keep_time(enc)
    settled: dict[OpenCoreFighter, int] = {}  # the round each stopped bleeding

    def more() -> bool:
        for f, hp in bleeding.items():
            if f not in settled and not losing_blood(f):
                settled[f] = enc.round
                if enc.log is not None:  # told as it settles: the log stays in order
                    enc.emit("bleed", who=f.name, loss=hp - f.hp, hp=f.hp,
                             text=f"{f.name}, untended, bled {hp - f.hp} HP in "
                                  f"{enc.round - start} round(s) after the fight: "
                                  f"{f.status.value} ({f.state()}).")
        return len(settled) < len(bleeding)

    enc.play_on(more)


def carry(old: OpenCoreFighter, new: OpenCoreFighter) -> None:
    """HP, armor and Toughness left, injuries and an empty weapon carry over."""
    new.hp, new.max_hp = old.hp, old.max_hp
    new.armor_left, new.toughness = old.armor_left, old.toughness
    new.skill_penalty, new.injuries = old.skill_penalty, list(old.injuries)
    new.loaded = old.loaded


def recover(f: OpenCoreFighter, rest: str) -> list[str]:
    """Reload and Toughness at any rest; armor and a day's hit points at a long one."""
    if rest == "none":
        return []
    said = []
    if not f.loaded:
        f.loaded = True
        said.append(f"reloads the {f.weapon.label}")
    full = profile(f.spec).toughness
    if f.toughness < full:
        said.append(f"Toughness back to {full}")
        f.toughness = full
    if rest == "long":
        if f.armor_left < f.armor.damage_rating:
            f.armor_left = f.armor.damage_rating
            said.append(f"the {f.armor.label} mended (damage rating {f.armor_left})")
        gained = min(hp_per_day(f.con), f.max_hp - f.hp)
        if gained > 0:
            f.hp += gained
            said.append(f"a day's rest heals {gained} HP (HP {f.hp}/{f.max_hp})")
    return said


def fit(f: OpenCoreFighter) -> bool:
    """Alive with hit points above 0 (at 0 or less it is still unconscious)."""
    return f.status is not Status.DEAD and f.hp > 0
