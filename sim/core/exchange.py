"""The books of the exchange: who has been hurt without hurting back, and could have.

RULES.md "A hopeless exchange": a round counts for a fighter in the fight when its side
took harm that lasts this round (``Encounter.hurt_in``) and did none (``harmed_in``), and
the fighter could have struck back: a foe within its reach, or its weapon's range, as the
round ends (``space.in_reach``). Rounds spent walking up to the foe never count. A round
its side does harm that lasts starts every member's count again. The AI reads the counts
(``sim.ai.standoff.losing``, ``sim.ai.morale``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import space

if TYPE_CHECKING:
    from sim.core.engine import Encounter


def tally(enc: Encounter) -> None:
    """At a round's end: count the round for each fighter hurt without hurting back."""
    now, counts, harmed, hurt = enc.round, enc.unanswered, enc.harmed_in, enc.hurt_in
    for side, members in enc.sides.items():
        if harmed[side] == now:
            if counts:  # (most rounds: nobody's count to start again)
                for c in members:
                    counts.pop(c, None)
        elif hurt[side] == now:
            foes = enc.foes_of(side)
            for c in members:
                if c.in_fight:
                    for e in foes:  # (``any`` written out: asked of every member, every round)
                        if space.in_reach(enc, c, e):
                            counts[c] = counts.get(c, 0) + 1
                            break
