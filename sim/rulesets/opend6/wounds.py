"""OpenD6 with wound levels (``opend6``): damage against the resistance roll gives wounds.

What OpenD6's two variants share (turns, moves, attacks, rest) is ``D6Ruleset``
(``ruleset.py``); this module holds only how wounds are kept, and ``hp.py`` hit points.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from sim.registry import register
from sim.rulesets.opend6 import odds
from sim.rulesets.opend6.combat import OpenD6Combat
from sim.rulesets.opend6.coverage import WOUNDS
from sim.rulesets.opend6.fighter import D6Fighter, WoundOptions
from sim.rulesets.opend6.rules import WoundStatus, wound_status, wounds_from_damage
from sim.rulesets.opend6.ruleset import D6Ruleset

if TYPE_CHECKING:
    from sim.core.engine import Encounter


@register
class OpenD6Ruleset(D6Ruleset):
    """OpenD6 as in seed 004's notes, with wound levels (5 wounds kill)."""

    name = "opend6"
    coverage = WOUNDS
    harm_words = "to wound"  # what a hit that harms does, on a player's menu
    summary = "OpenD6: d6 pools with a wild die vs difficulty 10 or a defense roll; wound levels"
    legend = ("Reading the log: a dice code 5D+1 is five d6s plus 1; [4, 4, 1] wild [6, 3] "
              "are the dice, then the wild die's throws (a 6 explodes; on an action roll a first "
              "1 is a fumble that removes it and the highest die, on damage, resistance and "
              "initiative it counts as 1). An attack hits when its total meets the "
              "difficulty (10) or the defender's roll; damage against the resistance roll "
              "gives wounds (1 stunned, 2 wounded -1D, 3 -2D, 4 -3D, 5 dead). Each -1D says "
              "why.")
    Options = WoundOptions
    options: WoundOptions

    def init_health(self, f: D6Fighter, rng: random.Random) -> None:
        """No wounds yet."""
        f.wounds = 0

    def level_of(self, f: D6Fighter) -> WoundStatus:
        """The wound level ``f``'s wounds give under this fight's wound limit."""
        return wound_status(f.wounds, self.options.wounds_limit)

    def heal_day(self, f: D6Fighter) -> str | None:
        """A day of rest heals 1 wound (seed 004); returns what it healed."""
        if not f.wounds:
            return None
        f.wounds -= 1
        f.level = self.level_of(f)
        return "1 wound"

    def harm(self, enc: Encounter, target: D6Fighter, damage: int,
             resistance: int) -> tuple[int, str]:
        """Apply a hit's damage against the resistance total.

        Returns the wounds it dealt, and the log's words ("" without a log).
        """
        limit = self.options.wounds_limit
        taken = wounds_from_damage(damage, resistance, limit)
        dealt = 0
        if taken:
            before = target.wounds
            target.wounds = min(limit, before + taken)
            dealt = abs(target.wounds - before)
            self.set_level(enc, target, wound_status(target.wounds, limit))
        if enc.log is None:
            return dealt, ""
        return dealt, (f"{taken} wound{'s' if taken != 1 else ''} (damage >= {taken} x "
                       "resistance)" if taken else "no wound")

    def short_of_death(self, target: D6Fighter) -> None:
        """One wound short of the limit: mortally wounded (``D6Ruleset.short_of_death``)."""
        target.wounds = self.options.wounds_limit - 1
        target.level = self.level_of(target)

    def would_finish(self, actor: D6Fighter, target: D6Fighter) -> bool:
        """Whether a hit at average damage against average resistance takes ``target`` out."""
        res = max(1, target.resist_code.average)
        expected = max(1, actor.damage_code.average // res)
        return target.wounds + expected >= self.options.wounds_limit

    def expected_harm(self, actor: D6Fighter, target: D6Fighter) -> float:
        """Expected wounds one hit of ``actor`` deals ``target``, exactly.

        Over the damage and resistance rolls (``odds.expected_wounds``), at most the wounds
        ``target`` has left to death.
        """
        code, res = actor.damage_code, target.resist_code
        left = self.options.wounds_limit - target.wounds
        return odds.expected_wounds((OpenD6Combat.damage_dice(actor, target), code.pips),
                                    (res.dice, res.pips), max(0, left))

    def kill_threshold(self, target: D6Fighter, damage: int) -> int:
        """The highest resistance total against which ``damage`` kills ``target`` (-1: none).

        It takes ``limit - wounds`` wounds: ``damage // max(resistance, 1)`` of them
        (``wounds_from_damage``), so every total up to ``damage // need`` kills (a total of 0
        counts as 1).
        """
        need = self.options.wounds_limit - target.wounds
        if need <= 0:
            return damage  # (no roll decides it)
        top = damage // need
        return top if top >= 1 else -1

    def harm_threshold(self, damage: int) -> int:
        """The highest resistance total against which ``damage`` deals a wound (-1: none).

        ``wounds_from_damage``: damage at least the resistance (a total of 0 counts as 1).
        """
        return damage if damage >= 1 else -1

    def one_from_death(self, target: D6Fighter) -> bool:
        """Whether one more wound kills ``target``."""
        return target.wounds >= self.options.wounds_limit - 1

    def health_lost(self, f: D6Fighter) -> float:
        """Wounds taken over the wounds that kill (0 fresh, 1 dead)."""
        return min(1.0, f.wounds / self.options.wounds_limit)

    def health_left(self, f: D6Fighter) -> int:
        """Wounds left to the one that kills."""
        return max(0, self.options.wounds_limit - f.wounds)
