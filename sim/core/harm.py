"""What one hit did to its target, as the engine's books and the AI's counters read it.

A ruleset reports each hit as a ``Harm`` (``Encounter.record_hit``) and answers, through
``Ruleset.harm_lasts``, whether that harm *lasts*: a wound, Killing, hit points, armor worn
away, or passing harm (Shock) only where it can take the fighter out. Only harm that lasts
moves the stand-off and morale counters (RULES.md "A hopeless exchange"; docs/ai.md): an
exchange of hits that will all wear off is going nowhere.
"""

from __future__ import annotations

from typing import NamedTuple


class Harm(NamedTuple):
    """One hit's harm, in its ruleset's units (a named tuple: made in C, every hit).

    Attributes:
        lasting: harm that stays for the fight and after it (wounds, Killing, hit points).
        passing: harm that wears off (Shock).
        where: the hit location it landed on ("" under a ruleset without locations).
        worn: armor worn away, with no harm to the fighter behind it (OpenCore's damage
            rating), not counted in ``damage``.
    """

    lasting: int = 0
    passing: int = 0
    where: str = ""
    worn: int = 0

    @property
    def damage(self) -> int:
        """What the books count as the hit's damage: its lasting and passing harm."""
        return self.lasting + self.passing


NO_HARM = Harm()  # a hit that armor (or resistance) stopped whole
