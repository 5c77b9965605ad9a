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
    out_rounds: tuple[int, ...]  # the round each member out when the fight ended went out in
    deaths_after: int = 0  # of ``deaths``, those who died after the fight (the aftermath)
    damaging_hits: int = 0  # of ``hits``, those that dealt damage (not stopped whole)
    deaths_after_untended: int = 0  # of ``deaths_after``, those nobody tended (aftermath)

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
                     sides: Mapping[str, Sequence[Combatant]], died_after: frozenset[Combatant],
                     out_when_fight_ended: Mapping[Combatant, int],
                     first_casualty_round: int,
                     tended: frozenset[Combatant] = frozenset()) -> EncounterResult:
    """The result of a fight, counted from its combatants as the scene ends.

    But for ``out_rounds``, counted as the fight ended (``out_when_fight_ended``: the round
    each one out then went out in): the survival curve is the fight's. ``tended``: who was
    looked after once the fight ended (``sim.core.aftermath.tended``).
    """
    side_results = tuple(_side_result(name, members, died_after, out_when_fight_ended,
                                      tended)
                         for name, members in sides.items())
    fighters = tuple(FighterResult(c.name, c.side, c.status.value, c in died_after,
                                   c.attacks, c.hits, c.damage)
                     for members in sides.values() for c in members)
    return EncounterResult(seed, winner, rounds, side_results, first_casualty_round, fighters)


def _side_result(name: str, members: Sequence[Combatant], died_after: frozenset[Combatant],
                 out_when_fight_ended: Mapping[Combatant, int],
                 tended: frozenset[Combatant] = frozenset()) -> SideResult:
    """One side's counts, in one pass over its members (every encounter of a batch ends here)."""
    standing = deaths = fled = surrendered = attacks = hits = damage = after = damaging = 0
    untended = 0
    out_rounds = []
    for m in members:
        went_out = out_when_fight_ended.get(m)
        if went_out is not None:
            out_rounds.append(went_out)
        if m.in_fight:
            standing += 1
        else:
            status = m.status
            if status is Status.DEAD:
                deaths += 1
                if m in died_after:
                    after += 1
                    untended += m not in tended
            elif status is Status.FLED:
                fled += 1
            elif status is Status.SURRENDERED:
                surrendered += 1
        attacks += m.attacks
        hits += m.hits
        damage += m.damage
        damaging += m.damaging_hits
    out_rounds.sort()
    return SideResult(name, len(members), standing, len(members) - standing, deaths, fled,
                      surrendered, attacks, hits, damage, tuple(out_rounds), after, damaging,
                      untended)
