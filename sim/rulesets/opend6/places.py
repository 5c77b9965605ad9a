"""What OpenD6's rolls read of the map, kept by place: cover and visibility.

A map never changes during a fight, so what :class:`~sim.core.battlefield.Battlefield`
answers about one place is kept, keyed by the map and the place (all it reads). The
encounter loop looks a key up inline (a lookup costs less than the call it saves) and calls
``site`` only for a place not seen yet. Distances are kept by the map itself
(``Battlefield.known``, looked up the same way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.core.battlefield import Battlefield, Position
    from sim.scenario.vocabulary import Cover, Visibility

SITES: dict[tuple[Battlefield, Position], tuple[Cover, Visibility]] = {}
KEPT_MAX = 4096  # entries kept; cleared when full (fighters on the move make many)


def site(field: Battlefield, pos: Position) -> tuple[Cover, Visibility]:
    """The cover and visibility at ``pos`` (``Battlefield.cover``, ``.visibility``), kept."""
    if len(SITES) >= KEPT_MAX:
        SITES.clear()
    kept = SITES[(field, pos)] = (field.cover(pos), field.visibility(pos))
    return kept
