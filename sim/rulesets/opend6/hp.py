"""OpenD6 with hit points: ruleset ``opend6-hp`` (RULES.md, variant).

Everything is ``opend6`` except health: HP = 20 + an Endurance roll (at least the dice's
average), a hit takes damage - resistance off, and the wound level comes from the HP left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.registry import register
from sim.rulesets.opend6 import odds
from sim.rulesets.opend6.combat import OpenD6Combat
from sim.rulesets.opend6.coverage import HIT_POINTS
from sim.rulesets.opend6.fighter import HpOptions
from sim.rulesets.opend6.rules import (
    HP_PER_DAY,
    WoundStatus,
    hp_damage,
    hp_status,
    starting_hp,
)
from sim.rulesets.opend6.ruleset import D6Ruleset

if TYPE_CHECKING:
    import random

    from pydantic import BaseModel

    from sim.core.engine import Encounter
    from sim.rulesets.opend6.fighter import D6Fighter
    from sim.scenario.specs import Scenario


@register
class OpenD6HpRuleset(D6Ruleset):
    """OpenD6 with hit points: 20 + an Endurance roll, damage - resistance is lost."""

    name = "opend6-hp"
    coverage = HIT_POINTS
    harm_words = "to take HP"
    summary = "OpenD6 with hit points: HP 20 + Endurance roll, damage minus resistance"
    legend = ("Reading the log: a dice code 5D+1 is five d6s plus 1; [4, 4, 1] wild [6, 3] "
              "are the dice, then the wild die's throws (a 6 explodes; a first 1 is a fumble on "
              "an action roll only, elsewhere it counts as 1). An attack hits when its total "
              "meets the difficulty (10) or the defender's roll; "
              "damage minus the resistance roll comes off the hit points (HP 12/27); fewer "
              "HP cost dice (-1D to -3D), 0 is dead. Each -1D says why.")
    Options = HpOptions
    options: HpOptions

    @classmethod
    def options_for(cls, scenario: Scenario) -> BaseModel | None:
        """``options.opend6-hp``, or else the switches shared with ``options.opend6``.

        One ``opend6`` block then sets both variants, so ``fray compare`` runs them alike.
        """
        own = scenario.ruleset_options(cls.name)
        shared = scenario.ruleset_options("opend6")
        if own is not None or shared is None:
            return own
        fields = set(cls.Options.model_fields) & set(type(shared).model_fields)
        return cls.Options(**{k: getattr(shared, k) for k in fields})

    def init_health(self, f: D6Fighter, rng: random.Random) -> None:
        """Hit points: 20 + an Endurance roll (``rules.starting_hp``)."""
        f.hp = f.hp_max = starting_hp(rng, f.attrs["endurance"], self.options.hp_base)

    def level_of(self, f: D6Fighter) -> WoundStatus:
        """The wound level ``f``'s hit points give."""
        return hp_status(f.hp)

    def heal_day(self, f: D6Fighter) -> str | None:
        """A day of rest gives back 5 hit points, up to the starting HP (seed 004)."""
        gained = min(HP_PER_DAY, f.hp_max - f.hp)
        if gained <= 0:
            return None
        f.hp += gained
        f.level = self.level_of(f)
        return f"{gained} HP"

    def harm(self, enc: Encounter, target: D6Fighter, damage: int,
             resistance: int) -> tuple[int, str]:
        """Damage minus resistance comes off the hit points; returns it and the log's words."""
        lost = hp_damage(damage, resistance)
        if lost:
            target.hp -= lost
            self.set_level(enc, target, hp_status(target.hp))
        if enc.log is None:
            return lost, ""
        return lost, f"{lost} HP lost" if lost else "no damage"

    def short_of_death(self, target: D6Fighter) -> None:
        """1 HP: mortally wounded (``D6Ruleset.short_of_death``)."""
        target.hp = 1
        target.level = self.level_of(target)

    def would_finish(self, actor: D6Fighter, target: D6Fighter) -> bool:
        """Whether a hit at average damage against average resistance takes its HP."""
        expected = actor.damage_code.average - target.resist_code.average
        return target.hp <= max(1, expected)

    def expected_harm(self, actor: D6Fighter, target: D6Fighter) -> float:
        """Expected hit points one hit of ``actor`` takes off ``target`` (at most its HP)."""
        code, res = actor.damage_code, target.resist_code
        return odds.expected_hp_loss((OpenD6Combat.damage_dice(actor, target), code.pips),
                                     (res.dice, res.pips), max(0, target.hp))

    def kill_threshold(self, target: D6Fighter, damage: int) -> int:
        """The highest resistance total against which ``damage`` takes ``target``'s last HP.

        ``damage - resistance`` (``hp_damage``) must reach the HP left; -1: no total does.
        """
        return max(-1, damage - max(target.hp, 1))

    def harm_threshold(self, damage: int) -> int:
        """The highest resistance total against which ``damage`` takes a hit point.

        ``hp_damage``: damage above the resistance.
        """
        return damage - 1

    def one_from_death(self, target: D6Fighter) -> bool:
        """Mortally wounded: 1-3 HP."""
        return target.hp <= 3  # mortally wounded: 1-3 HP

    def health_lost(self, f: D6Fighter) -> float:
        """Hit points lost over the starting hit points."""
        return min(1.0, max(0.0, 1 - f.hp / f.hp_max))

    def health_left(self, f: D6Fighter) -> int:
        """Hit points left."""
        return max(0, f.hp)
