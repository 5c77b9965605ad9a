"""What one encounter left: its winner and rounds, and every side's and fighter's books.

The counts are taken at the end of the scene, after the aftermath; ``encounter_result``
reads them off the combatants (the engine keeps the books, ``sim.core.engine``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sim.core.combatant import Combatant, Status


@dataclass(frozen=True, slots=True)
class SideResult:
    """How one side fared in one encounter."""

    name: str
    members: int
    standing: int
    out_of_fight: int
    deaths: int
    fled: int
    surrendered: int
    attacks: int
    hits: int
    damage: int
    out_rounds: tuple[int, ...]  # the round each member went out in, in order
    deaths_after: int = 0  # of ``deaths``, those who died after the fight (the aftermath)
    damaging_hits: int = 0  # of ``hits``, those that dealt damage (not stopped whole)

    @property
    def deaths_in_fight(self) -> int:
        """Deaths during the fight itself."""
        return self.deaths - self.deaths_after


@dataclass(frozen=True, slots=True)
class FighterResult:
    """How one combatant fared: its status at the end of the scene and its books."""

    name: str
    side: str
    status: str
    died_after: bool
    attacks: int
    hits: int
    damage: int


@dataclass(frozen=True, slots=True)
class EncounterResult:
    """The outcome of one encounter: the winner (None for a draw), rounds, per-side counts.

    The winner and the rounds are the fight's; the counts are taken at the end of the scene,
    after the aftermath (a fighter who bled to death after the fight is out and dead).
    """

    seed: int
    winner: str | None
    rounds: int
    sides: tuple[SideResult, ...]
    first_casualty_round: int  # 0 when nobody was taken out
    fighters: tuple[FighterResult, ...] = ()  # every combatant, in file order


def encounter_result(seed: int, winner: str | None, rounds: int,
                     sides: Mapping[str, Sequence[Combatant]], died_after: frozenset,
                     first_casualty_round: int) -> EncounterResult:
    """The result of a fight, counted from its combatants as the scene ends."""
    side_results = tuple(
        SideResult(
            name=name,
            members=len(members),
            standing=sum(m.in_fight for m in members),
            out_of_fight=sum(not m.in_fight for m in members),
            deaths=sum(m.status is Status.DEAD for m in members),
            fled=sum(m.status is Status.FLED for m in members),
            surrendered=sum(m.status is Status.SURRENDERED for m in members),
            attacks=sum(m.attacks for m in members),
            hits=sum(m.hits for m in members),
            damage=sum(m.damage for m in members),
            out_rounds=tuple(sorted(m.out_round for m in members if not m.in_fight)),
            deaths_after=sum(m in died_after for m in members),
            damaging_hits=sum(m.damaging_hits for m in members),
        )
        for name, members in sides.items()
    )
    fighters = tuple(FighterResult(c.name, c.side, c.status.value, c in died_after,
                                   c.attacks, c.hits, c.damage)
                     for members in sides.values() for c in members)
    return EncounterResult(seed, winner, rounds, side_results, first_casualty_round, fighters)
