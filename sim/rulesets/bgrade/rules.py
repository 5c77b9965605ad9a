"""B-Grade's pure rules: degrees of success, benefits, difficulty, the wound and Shock tracks.

Rules (RULES.md ``bgrade``): the width of the set used for an attack gives its degree of
success -- 2 minimal (no wound; +1d on the next attack and +1 Shock on the foe), 3/4/5 adequate,
good, spectacular (1/2/3 wounds + one benefit), 6+ (ruling) width - 2 wounds + one benefit.
Benefits: +1d next attack, +1 Shock, disarm (width >= 4), knock out (width >= 5); the last
two only on a hit that marked a wound after armor (amended). Armor in even steps.
Difficulty D: a width-2 set needs height > D; width 3+ always beats it. Five wound boxes
(the 5th wound kills); Body + 2 Shock boxes (full: unconscious; more Shock becomes wounds).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import factorial

WOUND_BOXES = 5
DEGREE_NAMES = {2: "minimal", 3: "adequate", 4: "good", 5: "spectacular"}
DISARM_WIDTH = 4
KNOCK_OUT_WIDTH = 5


class Benefit(Enum):
    """The extra a successful attack buys (one per hit)."""

    BONUS_DIE = "+1d on the next attack"
    SHOCK = "+1 Shock"
    DISARM = "disarm"
    KNOCK_OUT = "knock out"


# The members under plain names for the hot paths (every hit): ``Benefit.SHOCK`` goes
# through the enum's metaclass on each lookup, a few times the cost of a global.
BONUS_DIE, SHOCK, DISARM, KNOCK_OUT = (Benefit.BONUS_DIE, Benefit.SHOCK, Benefit.DISARM,
                                       Benefit.KNOCK_OUT)


def degree_name(width: int) -> str:
    """``minimal`` .. ``spectacular``; ruling: width 6+ reads ``legendary``."""
    return DEGREE_NAMES.get(width, "legendary" if width > 5 else "failure")


def degree_wounds(width: int) -> int:
    """Wounds a set of this width deals: 0 for width 2 (and failures), else width - 2."""
    return width - 2 if width > 2 else 0


# Ruling "minimal success: a small bonus and a benefit" (RULES.md ``bgrade``, "Degrees of
# success", amended; seed 000: "you get a small bonus to your next attack plus an extra
# benefit that you choose from a list (such as causing a point of shock on your foe)"):
# a width-2 hit always gives the attacker this many dice on its next attack, and its one
# benefit is +1 Shock on the foe (``allowed_benefits``).
MINIMAL_BONUS_DICE = 1


def small_bonus(width: int) -> int:
    """Dice a hit of this width gives its attacker's next attack besides its benefit.

    ``MINIMAL_BONUS_DICE`` for a minimal success (width 2), 0 for wider sets (their wounds
    are their reward).
    """
    return MINIMAL_BONUS_DICE if width == 2 else 0


def allowed_benefits(width: int, wounded: bool = True) -> tuple[Benefit, ...]:
    """The benefits a success of this width may choose from (none below width 2).

    A minimal success (width 2) has one: +1 Shock (its +1d is the small bonus that comes
    with it, ``small_bonus``). Ruling "benefits ride on harm" (RULES.md ``bgrade``,
    amended): disarm and knock out only on a hit that marked a wound after armor
    (``wounded``); a Shock-only weapon marks none, its knock-out is a full Shock track.
    """
    if width < 2:
        return ()
    if width == 2:
        return (Benefit.SHOCK,)
    allowed = [Benefit.BONUS_DIE, Benefit.SHOCK]
    if width >= DISARM_WIDTH and wounded:
        allowed.append(Benefit.DISARM)
    if width >= KNOCK_OUT_WIDTH and wounded:
        allowed.append(Benefit.KNOCK_OUT)
    return tuple(allowed)


def choose_benefit(width: int, *, foe_out: bool, foe_armed: bool, shock_lands: bool,
                   shock_fills: bool, wounded: bool = True) -> Benefit:
    """The benefit the AI takes (every profile: it is part of resolving a hit).

    Ruling (AI), the first that applies among the benefits allowed (``allowed_benefits``:
    disarm and knock out need ``wounded``, a hit that marked a wound) (a minimal success has
    +1 Shock alone, 0.):
    0. width 2: +1 Shock, the one benefit allowed (stopped by armor or not);
    1. the foe is already down (the hit's own wounds or Shock did it): +1d, nothing else helps;
    2. knock out, if allowed (width >= 5);
    3. +1 Shock, if armor lets it through and it fills the foe's Shock track (out of the fight
       now beats disarmed);
    4. disarm, if allowed (width >= 4) and the foe holds a weapon;
    5. +1 Shock, if armor lets it through; else +1d.
    +1 Shock beats +1d: a Shock track holds only Body + 2 boxes and a full one takes the foe
    out, while most hits are width 2 or 3 (0 or 1 wound). Measured over 2,000 fights with one
    side preferring +1d instead: the duel's red side wins 13% instead of 51%, the brawl's
    sailors (4-dice pools) 1.3% instead of 8.8%, the last stand's goblins (2-dice pools) 30%
    instead of 71%.
    """
    if width == 2:
        return SHOCK
    if foe_out:
        return BONUS_DIE
    if width >= KNOCK_OUT_WIDTH and wounded:
        return KNOCK_OUT
    if shock_lands and shock_fills:
        return SHOCK
    if width >= DISARM_WIDTH and foe_armed and wounded:
        return DISARM
    return SHOCK if shock_lands else BONUS_DIE


def area_speed(s: tuple[int, ...]) -> tuple[int, ...]:
    """Ruling "speed by area": a set's speed is its area, then its width.

    RULES.md ``bgrade``, amended; seed 000: "the Area of the Set indicates, in general, how
    quickly the task is performed". A set ``(width, height)`` acts in order of its area
    (width x height), largest first; equal areas by the wider set; equal area and width is
    the same set, simultaneous.
    A 2x9 (18) acts before a 3x5 (15); a 3x4 before a 2x6 (both 12). Replaces ORE's
    widest-first order under B-Grade (``BGradeRuleset.speed``).
    """
    width, height = s
    return (width * height, width)


def area_in_time(defense: tuple[int, ...], attack: tuple[int, ...]) -> bool:
    """Speed by area for defenses: in time against an attack of smaller or equal area.

    Ties of area go to the defender, whatever the widths. ``defense`` and ``attack`` are
    ``area_speed`` keys.
    """
    return defense[0] >= attack[0]


def beats_difficulty(width: int, height: int, difficulty: int) -> bool:
    """Whether a set beats Difficulty ``difficulty``: width 2 needs height > D, 3+ always."""
    if width < 2:
        return False
    return width >= 3 or height > difficulty


@lru_cache(maxsize=512)  # exact fractions are dear: the AI asks for the same pools
def p_beats_difficulty(dice: int, difficulty: int, sides: int = 10) -> float:
    """Exact chance that ``dice`` rolled dice hold a set that ``beats_difficulty``.

    Counted from the rule itself: a failing roll shows each face ``h`` at most ``cap(h)``
    times, the widest set of ``h`` that does not beat the difficulty; the rolls are summed
    face by face as multinomial counts (``dice! / prod(count!)``).
    """
    if dice < 2:
        return 0.0

    def cap(h: int) -> int:
        width = 1
        while width + 1 <= dice and not beats_difficulty(width + 1, h, difficulty):
            width += 1
        return width

    # ways[k]: sum over the faces so far, showing k dice in all, of 1 / prod(count!)
    ways = [Fraction(1)] + [Fraction(0)] * dice
    for h in range(1, sides + 1):
        top = cap(h)
        ways = [sum((ways[k - c] / factorial(c) for c in range(0, min(top, k) + 1)),
                    Fraction(0)) for k in range(dice + 1)]
    failing = ways[dice] * factorial(dice)
    return float(1 - failing / sides**dice)


# Ruling "armor in even steps" (RULES.md ``bgrade``, amended; seed silent): an armor's points
# (its ORE torso AR less the weapon's armor piercing) each cover a third of the heights a set
# can show, spread over 1-10, and ``POINTS_PER_SOAK`` points make a whole soak of 1 on every
# height: the first point heights 3, 6 and 9, the second adds 2, 5 and 8, the third 1, 4, 7
# and 10. Leather (1) soaks 1 on a hit of height 3, 6 or 9, chain (2) on six heights, plate
# (3) on all. Spread so, each step takes a like share off wounds and Shock alike, whatever
# the heights the widest sets lean to (exact figures: docs/rules/bgrade.md).
POINTS_PER_SOAK = 3


def armor_covers(part: int, height: int) -> bool:
    """Whether ``part`` points (0-2, short of a whole soak) cover a set of ``height``."""
    return (-height) % POINTS_PER_SOAK < part


def armor_soak(ar: int, ap: int, height: int) -> int:
    """What B-Grade armor takes off a hit of set height ``height`` (ruling above).

    ``ar``: the ORE torso AR (B-Grade has no locations); ``ap``: the weapon's armor piercing.
    """
    whole, part = divmod(max(0, ar - ap), POINTS_PER_SOAK)
    return whole + armor_covers(part, height)


def armor_words(ar: int, ap: int = 0) -> str:
    """The armor for a fighter's description: ``1 on heights 3, 6, 9``, ``1`` (plate)."""
    whole, part = divmod(max(0, ar - ap), POINTS_PER_SOAK)
    if not part:
        return str(whole)
    heights = ", ".join(str(h) for h in range(1, 11) if armor_covers(part, h))
    return f"{whole + 1} on heights {heights}" + (f", {whole} else" if whole else "")


def hit_damage(width: int, killing_weapon: bool, soak: int) -> tuple[int, int, int]:
    """``(wounds, shock, soak left)`` a hit of this width deals through armor ``soak``.

    Ruling (weapons): the width alone sets the amount (weapon quality adds nothing); a weapon
    with any Killing in its ORE damage deals it as wounds, a Shock-only weapon (fists, club)
    as Shock. Ruling (armor): the soak (``armor_soak``) comes off that amount; what is left
    of it stops the hit's +1 Shock (a minimal success's, or the benefit's), as ORE's AR comes
    off both Killing and Shock.
    """
    amount = degree_wounds(width)
    stopped = min(soak, amount)
    amount -= stopped
    left = soak - stopped
    if killing_weapon:
        return amount, 0, left
    return 0, amount, left


@lru_cache(maxsize=256)
def mean_hit_damage(width: int, killing_weapon: bool, ar: int, ap: int) -> tuple[float, float]:
    """The wounds and Shock of a hit of ``width``, averaged over the ten heights (the AI)."""
    wounds = shock = 0.0
    for height in range(1, 11):
        w, sh, _ = hit_damage(width, killing_weapon, armor_soak(ar, ap, height))
        wounds += w / 10
        shock += sh / 10
    return wounds, shock


class Track:
    """Wounds and Shock of one B-Grade character (no hit locations).

    Provides the few queries ORE's code asks of its wound boxes (``dazed``, usable arms and
    legs) so that the ORE resolution can run unchanged: B-Grade has neither.
    """

    __slots__ = ("wounds", "shock", "shock_boxes", "carried_shock")
    dazed = False
    # no crippled limbs in B-Grade (one name a line: mypyc compiles no chained class assignment)
    arms = 2
    legs = 2

    def __init__(self, body: int):
        self.wounds = 0
        self.shock = 0
        self.shock_boxes = body + 2
        self.carried_shock = 0  # brought in from an earlier fight of a campaign

    def take(self, wounds: int, shock: int) -> None:
        """Mark wounds, then Shock; Shock with no box left becomes wounds."""
        free = self.shock_boxes - self.shock
        over = shock - free if shock > free else 0
        self.shock += shock - over
        self.wounds = min(WOUND_BOXES, self.wounds + wounds + over)

    def heal_after_fight(self) -> None:
        """As ORE: half the Shock taken in the fight (rounded down) goes away after it."""
        self.shock -= max(0, self.shock - self.carried_shock) // 2

    def copy(self) -> Track:
        """The same marks in a new ``Track`` (a fighter carried into the next fight)."""
        new = Track(0)
        new.wounds, new.shock, new.shock_boxes = self.wounds, self.shock, self.shock_boxes
        new.carried_shock = self.shock
        return new

    def heal_shock(self, amount: int) -> int:
        """Remove up to ``amount`` Shock; returns the Shock removed."""
        removed = min(amount, self.shock)
        self.shock -= removed
        return removed

    def heal_killing(self) -> str | None:
        """Heal one wound (ORE's one point of Killing a day); None when there was none."""
        if not self.wounds:
            return None
        self.wounds -= 1
        return "1 wound"

    def shock_fills(self, amount: int = 1) -> bool:
        """Whether ``amount`` more Shock would fill the Shock track."""
        return self.shock + amount >= self.shock_boxes

    @property
    def dead(self) -> bool:
        """The 5th wound kills."""
        return self.wounds >= WOUND_BOXES

    @property
    def unconscious(self) -> bool:
        """Shock track full."""
        return self.shock >= self.shock_boxes

    @staticmethod
    def usable_arms() -> int:
        """No crippled limbs in B-Grade."""
        return 2

    @staticmethod
    def usable_legs() -> int:
        """No crippled limbs in B-Grade."""
        return 2

    def summary(self) -> str:
        """``2/5 wounds, 3/5 Shock``."""
        return f"{self.wounds}/{WOUND_BOXES} wounds, {self.shock}/{self.shock_boxes} Shock"


def expected_sets(dice: int, sides: int = 10) -> float:
    """Expected number of sets in ``dice`` dice: faces showing at least twice."""
    if dice < 2:
        return 0.0
    p = 1 / sides
    q = 1 - p
    return sides * (1 - q ** dice - dice * p * q ** (dice - 1))
