"""B-Grade combatants: the native ``bgrade:`` block, the options and the fighter.

A B-Grade fighter is an ORE fighter (``sim.rulesets.ore.fighter``: the same conversion from
neutral traits) with B-Grade's stats, a wound and Shock track instead of hit locations,
pending bonus dice, possibility points and a hand of drama cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import Field

from sim.core.battlefield import MELEE_REACH
from sim.core.words import count
from sim.rulesets.bgrade.deck import card_name
from sim.rulesets.bgrade.rules import Track, armor_words
from sim.rulesets.ore.catalog import TORSO, WEAPONS
from sim.rulesets.ore.fighter import LETHAL_UNARMED_DOC, OreBlock, OreFighter, Stat
from sim.rulesets.templates import Templates
from sim.scenario.models import Strict

if TYPE_CHECKING:
    from sim.core.battlefield import Position
    from sim.scenario.specs import MemberSpec


# ---------------------------------------------------------------------------- scenario blocks
class BGradeStats(Strict):
    """B-Grade's six stats, 1-6 (ORE's knowledge is intelligence here)."""

    body: int | None = Stat
    coordination: int | None = Stat
    sense: int | None = Stat
    intelligence: int | None = Stat
    command: int | None = Stat
    charm: int | None = Stat


class BGradeBlock(OreBlock):
    """Native ``bgrade:`` block: stats 1-6, skills 0-6, expert/master dice by skill name."""

    # its own six stats in place of ORE's (intelligence for knowledge): the conversion reads
    # them by name (``make_fighter``), never as ``OreStats``
    stats: BGradeStats = BGradeStats()  # type: ignore[assignment]


class BGradeOptions(Strict):
    """``options: {bgrade: {...}}`` in a scenario.

    Attributes:
        working_together: allies attacking one foe in one round pool their hands.
        drama_deck: deal 4-card hands from a 52-card deck; a card adds dice to a roll.
        possibility_points: points per character (0 switches them off).
        difficulty: Difficulty of every attack (0: none); a width-2 set needs height > D.
        lethal_unarmed: accepted, changes nothing under B-Grade: fists deal Shock, which
            knocks out when the track is full (``LETHAL_UNARMED_DOC``; no locations, so
            no one is "beaten" as under ORE: a full Shock track is already out).
    """

    working_together: bool = True
    drama_deck: bool = True
    possibility_points: int = Field(default=2, ge=0, le=20)
    difficulty: int = Field(default=0, ge=0, le=10)
    lethal_unarmed: bool = Field(default=False, description=LETHAL_UNARMED_DOC)


# ---------------------------------------------------------------------------- state
class BGradeFighter(OreFighter[Track]):
    """An ORE fighter with B-Grade's extras.

    ``wounds`` holds a ``bgrade_rules.Track`` (wounds and Shock) instead of ORE's locations;
    ``bonus`` is the dice pending for the next attack, ``points`` the possibility points
    left, ``hand`` the drama cards held.
    """

    __slots__ = ("intelligence", "command", "charm", "bonus", "points", "spent", "hand",
                 "dropped_loaded")

    intelligence: int
    command: int
    charm: int
    bonus: int  # dice pending for the next attack
    points: int  # possibility points left this fight
    spent: int  # possibility points spent, over a whole campaign
    hand: list[int]  # drama cards held (``deck.card_name``)
    dropped_loaded: bool | None  # a knocked-away weapon's loaded state (None: held)

    def describe(self) -> str:
        """Stats, skills, weapon, armor, points and hand for the solo log."""
        hand = " ".join(card_name(c) for c in self.hand)
        return (f"body {self.body}, coordination {self.coordination}, sense {self.sense}; "
                f"fight {self.fight}, shoot {self.shoot}, dodge {self.dodge}, "
                f"parry {self.parry}; {self.weapon.name} ({'Killing' if lethal(self) else 'Shock'})"
                f", armor {armor_words(self.armor[TORSO])}; "
                f"{count(self.points, 'possibility point')}"
                + (f", hand {hand}" if hand else ""))


def lethal(f: OreFighter[Any]) -> bool:
    """Whether the fighter's weapon deals Killing in ORE (B-Grade: wounds, not Shock)."""
    d = f.weapon.damage
    return bool(d.k_width or d.k_plus)


def disarm(f: BGradeFighter) -> None:
    """Ruling: a disarmed fighter fights with its fists (Body + Fight, Shock, reach 2 m).

    The weapon is picked up after the fight as it was dropped (loaded or not).
    """
    if f.dropped_loaded is None:
        f.dropped_loaded = f.loaded
    f.weapon = WEAPONS["unarmed"]
    f.ranged = False
    f.reach = MELEE_REACH
    f.loaded = True



# ---------------------------------------------------------------------------- built once
_BUILT: Templates[BGradeFighter] = Templates()


def fighter_for(member: MemberSpec, pos: Position, ruleset: type,
                build: Callable[[MemberSpec, Position], BGradeFighter]) -> BGradeFighter:
    """A fresh fighter for ``member``, copied from the one ``build`` made for it before.

    The conversion (``build``) reads the member and the ``ruleset`` class's constants alone:
    one template per member and ruleset class (``Templates``).
    ``test_a_copied_fighter_is_a_built_one`` holds a copy equal to a build, slot by slot (a
    slot added to the build and not copied here fails it).
    """
    b = _BUILT.of(member, ruleset, lambda: build(member, pos))
    f = type(b)(member, pos)  # the combatant's own state, fresh
    f.body, f.coordination, f.sense = b.body, b.coordination, b.sense
    f.intelligence, f.command, f.charm = b.intelligence, b.command, b.charm
    f.fight, f.shoot, f.dodge, f.parry = b.fight, b.shoot, b.dodge, b.parry
    f.run, f.vigor, f.expert, f.master = b.run, b.vigor, b.expert, b.master
    f.weapon, f.armor, f.shield = b.weapon, b.armor, b.shield
    f.ranged, f.reach, f.speed = b.ranged, b.reach, b.speed
    f.loaded, f.bonus, f.points, f.spent = b.loaded, b.bonus, b.points, b.spent
    f.dropped_loaded, f.plans = b.dropped_loaded, {}
    # the fight's own containers, new
    f.wounds = Track(b.body)
    f.defenses, f.sets, f.hand = [], [], []
    return f
