"""What the AI asks B-Grade: ORE's odds without the cap or the multiple-action penalty.

``BGradeAdvisor`` builds on :class:`~sim.rulesets.ore.advisor.OreAdvisor`. B-Grade has no
hit locations (a called shot buys nothing), no 10-dice cap and no die lost for a second
action (the ruleset's roll plan knows both); but a roll uses the smallest pool of its
actions, so a defense declared with an attack is free only when its pool is no smaller
than the attack's. Pending bonus dice from earlier hits count toward the odds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from sim.core import space
from sim.core.actions import Attack, Defend, Intent, Move
from sim.rulesets.bgrade.deck import choose_card
from sim.rulesets.bgrade.fighter import BGradeFighter, lethal
from sim.rulesets.bgrade.rules import (
    WOUND_BOXES,
    armor_soak,
    expected_sets,
    hit_damage,
    mean_hit_damage,
    p_beats_difficulty,
)
from sim.rulesets.ore.advisor import (
    MOVES_FIRST,
    MULTI_ACTION_MIN_DICE,
    MULTI_ACTION_ODDS,
    OreAdvisor,
)
from sim.rulesets.ore.catalog import TORSO
from sim.rulesets.ore.odds import p_sets, widest
from sim.rulesets.ore.rules import action_pool

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sim.core.engine import Encounter


# Ruling (AI): extra attacks declared = expected sets in the pool (rounded) - 1, at most 3;
# the best declaration, with no defense beside them: one for every set the roll could hold.
MAX_EXTRA_ATTACKS = 3
# Ruling (AI): below this many dice a card's dice matter most, so the best card is played.
CARD_SMALL_POOL = 7
# Ruling (AI): a possibility point (d6s: more sets, lower heights) is spent on an attack roll
# of at most this many dice (4d: any set 50% on d10, 72% on d6), when the foe declared no
# defense (gobble dice eat low sets) and the difficulty leaves d6 pairs a fair chance.
POINT_MAX_DICE = 6
POINT_MAX_DIFFICULTY = 3


class BGradeAdvisor(OreAdvisor[BGradeFighter]):
    """The AI's questions under B-Grade (see :class:`sim.core.advisor.Advisor`)."""

    def threat(self, actor: BGradeFighter) -> float:
        """Wounds out of 5 or Shock out of its track, whichever is nearer full."""
        t = actor.wounds
        return max(t.wounds / 5, t.shock / t.shock_boxes)

    def peril(self, actor: BGradeFighter) -> float:
        """Wounds out of 5: Shock knocks out, it does not kill (it turns to wounds when full)."""
        return actor.wounds.wounds / WOUND_BOXES

    def called_locations(self, enc: Encounter, actor: BGradeFighter,
                         target: BGradeFighter) -> tuple[str, ...]:
        """No hit locations in B-Grade: no called shots."""
        return ()

    def called_shot(self, enc: Encounter, actor: BGradeFighter,
                    target: BGradeFighter) -> str | None:
        """Ruling: no hit locations, so a called shot buys nothing."""
        return None

    def harm_odds(self, enc: Encounter, actor: BGradeFighter,
                  intents: list[Intent]) -> tuple[tuple[str, float], ...]:
        """Ruling: no hit locations; a set that lands is the harm (``attack_odds``)."""
        return ()

    def wounded(self, actor: BGradeFighter) -> bool:
        """Any wound or Shock marked."""
        return bool(actor.wounds.wounds or actor.wounds.shock)

    def can_harm(self, enc: Encounter, actor: BGradeFighter, target: BGradeFighter) -> bool:
        """Some set the plain attack's pool can make now marks a wound or Shock.

        At each width from 2 (a minimal success: its +1 Shock) to the dice, at each height
        (B-Grade's armor soaks by height, ``armor_soak``): harm, or armor left unspent that
        would stop the +1 Shock (``hit_damage``). Any harm at all lasts
        (``BGradeRuleset.harm_lasts``).
        """
        dice = self.rules.planner.plan(enc, actor, [target.plain_attack]).dice + actor.bonus
        killing, ar, ap = lethal(actor), target.armor[TORSO], actor.weapon.ap
        for width in range(2, max(2, dice) + 1):
            for height in range(1, 11):
                wounds, shock, left = hit_damage(width, killing, armor_soak(ar, ap, height))
                if wounds or shock or not left:
                    return True
        return False

    def can_attack(self, enc: Encounter, actor: BGradeFighter, target: BGradeFighter) -> bool:
        """The target within reach: ORE's test without the arms check.

        No B-Grade limb is ever crippled (``Track.arms`` is always 2): ORE's ``arms_ok``
        always holds (``test_bgrade_arms_always_usable``).
        """
        return space.in_reach(enc, actor, target)

    def can_hit(self, enc: Encounter, actor: BGradeFighter, target: BGradeFighter) -> bool:
        """Two dice at least, counting pending bonus dice and a card a spender will play."""
        card = 1 if actor.policy.spends and actor.hand else 0
        dice = self.rules.planner.plan(enc, actor, [target.plain_attack]).dice
        return dice + actor.bonus + card >= 2

    def attack_odds(self, enc: Encounter, actor: BGradeFighter,
                    intents: list[Intent]) -> float | None:
        """Chance of a set for the first attack, pending bonus dice counted (no cards).

        A charge (a move, then the attack) needs two sets: one to move, the slower to strike.

        Exact on d10s (``p_beats_difficulty``): a width-2 set must be higher than the
        difficulty, a wider set always beats it.
        """
        if not any(type(i) is Attack for i in intents):
            return None
        dice = self.dice(enc, actor, intents) + actor.bonus
        if type(intents[0]) in MOVES_FIRST:  # two sets, the faster moves (``p_sets``)
            return p_sets(dice, 2, over=self.rules.options.difficulty)
        return p_beats_difficulty(dice, self.rules.options.difficulty)

    def extra_attacks(self, enc: Encounter, actor: BGradeFighter, target: BGradeFighter) -> int:
        """Rounded expected number of sets in the pool, minus the first attack (at most 3).

        No penalty for several actions, so each set that the pool is likely to hold can
        carry an attack; an attack left without a set costs nothing but a counted miss.
        Never with a reload weapon: it holds one bolt.
        """
        if actor.weapon.reload:
            return 0
        sets = expected_sets(self.dice(enc, actor, [target.plain_attack]) + actor.bonus)
        return min(MAX_EXTRA_ATTACKS, max(0, int(sets + 0.5) - 1))

    def can_move_and_attack(self, enc: Encounter, actor: BGradeFighter) -> bool:
        """Moving and attacking needs two sets: worth it from ORE's dice threshold."""
        return self.dice(None, actor, [Move(actor), Attack(actor)]) >= MULTI_ACTION_MIN_DICE

    def danger(self, enc: Encounter, actor: BGradeFighter) -> float:
        """Expected sets in the attack pool, halved for a weapon that deals only Shock."""
        sets = expected_sets(self.dice(None, actor, [Attack(actor)]) + actor.bonus)
        return sets * (1.0 if lethal(actor) else 0.5)

    def attack_worth(self, enc: Encounter, actor: BGradeFighter,
                     target: BGradeFighter) -> float:
        """Expected share of the target's track one attack fills (wounds, Shock at half)."""
        dice = self.dice(enc, actor, [target.plain_attack]) + actor.bonus
        return sum(p * hit_worth(actor, target, w) for w, p in widths(dice))

    def attack_and_defend(self, enc: Encounter, actor: BGradeFighter, target: BGradeFighter,
                          kind: str) -> bool:
        """Both when the roll for the two (no penalty) holds two sets often."""
        dice = self.dice(enc, actor, [target.plain_attack, Defend(kind)])
        return p_sets(dice + actor.bonus, 2) >= MULTI_ACTION_ODDS

    def tactical_attack(self, enc: Encounter, actor: BGradeFighter,
                        target: BGradeFighter) -> tuple[list[Intent], str]:
        """As many attacks as the pool is expected to hold sets, and a free defense.

        The defense rides along when its pool is no smaller than the attack's (the roll is
        the smallest pool) and a set is likely left over for it: its gobble dice then cost
        nothing. Without one, an attack for every set the roll could hold (at most
        ``MAX_EXTRA_ATTACKS`` more): an attack left without a set costs nothing, and a
        second set with no attack to take it is wasted. (One attack from six dice against a
        basic swordsman won 0.71 of the duel, four 0.82: ``bench/regret.py``, docs/ai.md.)
        """
        extra = self.extra_attacks(enc, actor, target)
        intents: list[Intent] = [target.plain_attack] * (extra + 1)
        why = f"{extra + 1} attacks" if extra else ""
        kind = self.defense_kind(enc, actor, ranged=target.ranged)
        attack = action_pool(actor, target.plain_attack)[0]
        if kind and action_pool(actor, Defend(kind))[0] >= attack:
            dice = self.dice(enc, actor, [*intents, Defend(kind)]) + actor.bonus
            if p_sets(dice, extra + 2) >= MULTI_ACTION_ODDS:
                intents.append(Defend(kind))
                why = ", ".join(x for x in (why, f"a spare set to {kind}") if x)
                return intents, why
        dice = self.dice(enc, actor, [target.plain_attack]) + actor.bonus
        most = 0 if actor.weapon.reload else min(MAX_EXTRA_ATTACKS, dice // 2 - 1)
        if most > extra:
            intents, why = [target.plain_attack] * (most + 1), f"{most + 1} attacks, one a set"
        return intents, why


    # ---------------------------------------------------------------- what to spend
    def card_to_play(self, actor: BGradeFighter, dice: int) -> int | None:
        """The drama card a spending fighter plays on an attack roll of ``dice`` dice."""
        return choose_card(actor.hand, dice, CARD_SMALL_POOL)

    def spends_point(self, enc: Encounter, actor: BGradeFighter, rolled: Sequence[Intent],
                     dice: int) -> bool:
        """Whether a spending fighter rolls d6s with a possibility point (rulings above)."""
        if dice > POINT_MAX_DICE or self.rules.options.difficulty > POINT_MAX_DIFFICULTY:
            return False
        for i in rolled:
            if type(i) is Attack:
                foe = enc.declared.get(i.target)
                if foe and any(type(x) is Defend for x in foe):
                    return False
        return True

def hit_worth(f: BGradeFighter, target: BGradeFighter, width: int) -> float:
    """What a hit of ``width`` from ``f`` is worth on ``target`` (0..1).

    The wounds it deals over the wounds left, Shock at half over the Shock left (the
    benefit and the difficulty left out: a cautious fighter's rough measure).
    """
    wounds, shock = mean_hit_damage(width, lethal(f), target.armor[TORSO], f.weapon.ap)
    t = target.wounds
    return min(1.0, wounds / max(1, WOUND_BOXES - t.wounds)
               + 0.5 * shock / max(1, t.shock_boxes - t.shock))


@lru_cache(maxsize=64)
def widths(dice: int) -> tuple[tuple[int, float], ...]:
    """The chance of each width (2 and up) of the widest set in ``dice`` d10.

    ``widest`` summed by width: B-Grade's harm is the width alone, so the heights need not
    be weighed apart.
    """
    out: dict[int, float] = {}
    for w, _, p in widest(dice):
        if w >= 2:
            out[w] = out.get(w, 0.0) + p
    return tuple(sorted(out.items()))

