"""OpenCore between fights: what a fighter carries into the next one, and rest.

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

from typing import TYPE_CHECKING

from sim.core.combatant import Status
from sim.rulesets.opencore.fighter import profile

if TYPE_CHECKING:
    import random

    from sim.rulesets.opencore.fighter import OpenCoreFighter


def hp_per_day(con: int) -> int:
    """Hit points a day of rest gives back (ruling): CON // 10, at least 1."""
    return max(1, con // 10)


class BetweenFights:
    """``carry``, ``recover`` and ``fit`` of OpenCore (mixed into ``OpenCoreRuleset``)."""

    def carry(self, old: OpenCoreFighter, new: OpenCoreFighter) -> None:
        """HP, armor and Toughness left, injuries and an empty weapon carry over."""
        new.hp, new.max_hp = old.hp, old.max_hp
        new.armor_left, new.toughness = old.armor_left, old.toughness
        new.skill_penalty, new.injuries = old.skill_penalty, list(old.injuries)
        new.loaded = old.loaded

    def recover(self, f: OpenCoreFighter, rest: str, rng: random.Random) -> list[str]:
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

    def fit(self, f: OpenCoreFighter) -> bool:
        """Alive with hit points above 0 (at 0 or less it is still unconscious)."""
        return f.status is not Status.DEAD and f.hp > 0
