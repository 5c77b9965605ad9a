"""ORE wound boxes: Shock and Killing per hit location, overflow, useless limbs.

Rules (RULES.md ``ore``, "Damage"): Killing is marked first and overwrites Shock in a full
location; Shock fills the remaining boxes, and Shock with no room left becomes Killing. A limb
full of Killing is useless and further damage to it goes to the torso. Head or torso full of
Killing: dead. Head full (Shock + Killing): unconscious. Torso full: dazed (-1d on every pool);
torso full and more of it Shock than Killing: *beaten* (RULES.md "Harm that is not meant to
kill", amended: out of the fight, ``OreRuleset._damage``, unless ``lethal_unarmed``).
"""

from __future__ import annotations

from typing import Protocol, Self

from sim.rulesets.ore.catalog import (
    BOXES,
    HEAD,
    LEFT_ARM,
    LEFT_LEG,
    LIMBS,
    LOCATION_NAMES,
    RIGHT_ARM,
    RIGHT_LEG,
    TORSO,
)

# Where healing goes first: the head and the torso (they knock out, daze and kill), then the
# limb with the most of what is healed (ties: arms before legs, right before left)
HEALING_ORDER = (HEAD, TORSO, *sorted(LIMBS, reverse=True))


class Wounds(Protocol):
    """What the ORE family's shared code asks of a fighter's wound boxes.

    ORE's ``Body`` (hit locations) and B-Grade's ``Track`` (no locations) both answer it;
    ``OreFighter`` is generic over which one it holds.
    """

    @property
    def dead(self) -> bool:
        """Out of the fight for good."""

    @property
    def unconscious(self) -> bool:
        """Knocked out."""

    @property
    def dazed(self) -> bool:
        """-1d on every pool."""

    @property
    def arms(self) -> int:
        """Usable arms."""

    def usable_arms(self) -> int:
        """Usable arms."""

    def usable_legs(self) -> int:
        """Usable legs."""

    def heal_after_fight(self) -> None:
        """Half the Shock taken in the fight goes away."""

    def copy(self) -> Self:
        """The same marks, carried into the next fight."""

    def heal_shock(self, amount: int) -> int:
        """Remove up to ``amount`` Shock; returns the Shock removed."""

    def heal_killing(self) -> str | None:
        """Heal a day's Killing; what was healed, or None."""

    def summary(self) -> str:
        """The marks, for the log."""


class Body:
    """Shock and Killing marked in each location's boxes.

    ``dead``, ``unconscious``, ``dazed``, ``arms`` and ``legs`` (usable limbs) are worked out
    once after each hit rather than on every query: the AI and the pools ask every round.
    """

    __slots__ = ("killing", "shock", "carried_shock", "dead", "unconscious", "dazed", "beaten",
                 "arms", "legs")

    def __init__(self) -> None:
        self.killing = [0, 0, 0, 0, 0, 0]
        self.shock = [0, 0, 0, 0, 0, 0]
        self.carried_shock: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # brought in from an earlier fight
        self.dead = self.unconscious = self.dazed = self.beaten = False
        self.arms = self.legs = 2

    def landing(self, loc: int) -> int:
        """Where a hit aimed at ``loc`` lands: a limb full of Killing passes it to the torso."""
        if loc in LIMBS and self.killing[loc] >= BOXES[loc]:
            return TORSO
        return loc

    def take(self, loc: int, killing: int, shock: int) -> int:
        """Mark a hit's damage (after armor) at ``loc``; returns where it landed.

        A hit on a limb already full of Killing lands on the torso instead.
        """
        loc = self.landing(loc)
        if killing > 0:
            self._killing(loc, killing)
        if shock > 0:
            self._shock(loc, shock)
        if killing > 0 or shock > 0:  # about half the hits in a skirmish: armor stops the rest
            self._refresh()
        return loc

    def _refresh(self) -> None:
        # Head or torso full of Killing: dead. Head full: unconscious. Torso full: dazed, and
        # beaten when more of it is Shock than Killing (a torso "full of Shock": a beating,
        # not a cutting; a box or two of Killing spilled from a ruined limb does not stop it).
        # (``useless`` and ``full`` written out: this runs after every hit.)
        k, s = self.killing, self.shock
        self.dead = k[HEAD] >= BOXES[HEAD] or k[TORSO] >= BOXES[TORSO]
        self.unconscious = k[HEAD] + s[HEAD] >= BOXES[HEAD]
        self.dazed = k[TORSO] + s[TORSO] >= BOXES[TORSO]
        self.beaten = self.dazed and s[TORSO] > k[TORSO]
        self.arms = (k[LEFT_ARM] < BOXES[LEFT_ARM]) + (k[RIGHT_ARM] < BOXES[RIGHT_ARM])
        self.legs = (k[LEFT_LEG] < BOXES[LEFT_LEG]) + (k[RIGHT_LEG] < BOXES[RIGHT_LEG])

    def _killing(self, loc: int, amount: int) -> None:
        boxes = BOXES[loc]
        room = boxes - self.killing[loc]
        added = min(amount, room)
        self.killing[loc] += added
        over = self.killing[loc] + self.shock[loc] - boxes
        if over > 0:  # Killing overwrites Shock once the location is full
            self.shock[loc] -= over
        rest = amount - added
        if rest > 0 and loc in LIMBS:
            self._killing(TORSO, rest)

    def _shock(self, loc: int, amount: int) -> None:
        if loc in LIMBS and self.killing[loc] >= BOXES[loc]:
            loc = TORSO
        free = BOXES[loc] - self.killing[loc] - self.shock[loc]
        added = min(amount, free)
        self.shock[loc] += added
        if amount > added:  # no room for Shock: it becomes Killing
            self._killing(loc, amount - added)

    # ------------------------------------------------------------------ status
    def full(self, loc: int) -> bool:
        """All boxes of ``loc`` marked (Shock or Killing)."""
        return self.killing[loc] + self.shock[loc] >= BOXES[loc]

    def useless(self, loc: int) -> bool:
        """A location full of Killing."""
        return self.killing[loc] >= BOXES[loc]

    def usable_arms(self) -> int:
        """Arms not full of Killing."""
        return self.arms

    def usable_legs(self) -> int:
        """Legs not full of Killing."""
        return self.legs

    def heal_after_fight(self) -> None:
        """Half the Shock taken in the fight (rounded down) goes away, in each location.

        Seed 002: "half of shock taken disappears". Shock carried in from an earlier fight of
        a campaign was halved after that fight already; only the new Shock is halved now.
        """
        self.shock = [s - max(0, s - before) // 2
                      for s, before in zip(self.shock, self.carried_shock, strict=True)]
        self._refresh()

    # ------------------------------------------------------------------ between fights
    def copy(self) -> Body:
        """The same marks in a new ``Body`` (a fighter carried into the next fight)."""
        new = Body()
        new.killing, new.shock = list(self.killing), list(self.shock)
        new.carried_shock = tuple(self.shock)
        new._refresh()
        return new

    def heal_shock(self, amount: int) -> int:
        """Remove up to ``amount`` Shock: head, torso, then the limb with the most Shock.

        Ruling (the seed says "from any location"): the boxes that knock out or daze go
        first. Returns the Shock removed.
        """
        removed = 0
        while removed < amount:
            marked = [loc for loc in HEALING_ORDER if self.shock[loc]]
            if not marked:
                break
            loc = marked[0] if marked[0] in (HEAD, TORSO) else max(marked,
                                                                    key=self.shock.__getitem__)
            self.shock[loc] -= 1
            removed += 1
        self._refresh()
        return removed

    def heal_killing(self) -> str | None:
        """Heal one point of Killing: head, torso, else the limb with the most Killing.

        Returns what was healed (``1 Killing (torso)``), or None when there was no Killing.
        """
        marked = [loc for loc in HEALING_ORDER if self.killing[loc]]
        if not marked:
            return None
        loc = marked[0] if marked[0] in (HEAD, TORSO) else max(marked,
                                                                key=self.killing.__getitem__)
        self.killing[loc] -= 1
        self._refresh()
        return f"1 Killing ({LOCATION_NAMES[loc]})"

    def summary(self) -> str:
        """``torso 3K+2S/10, head 1S/4`` for the marked locations."""
        parts = []
        for loc, name in enumerate(LOCATION_NAMES):
            k, s = self.killing[loc], self.shock[loc]
            if k or s:
                marks = "+".join(x for x in (f"{k}K" if k else "", f"{s}S" if s else "") if x)
                parts.append(f"{name} {marks}/{BOXES[loc]}")
        return ", ".join(parts) if parts else "unhurt"
