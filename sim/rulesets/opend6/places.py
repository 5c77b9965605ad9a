"""What OpenD6's rolls read of the map, kept by place: distances, cover and visibility.

A map never changes during a fight, so what :class:`~sim.core.battlefield.Battlefield`
answers about one place or two is kept, keyed by the map and the places (all it reads). The
encounter loop looks a key up inline (a lookup costs less than the call it saves) and calls
``measure`` or ``site`` only for a place not seen yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.core.battlefield import Battlefield, Position
    from sim.scenario.vocabulary import Cover, Visibility

DISTANCES: dict[tuple[Battlefield, Position, Position], float] = {}
SITES: dict[tuple[Battlefield, Position], tuple[Cover, Visibility]] = {}
KEPT_MAX = 4096  # entries kept in each; cleared when full (fighters on the move make many)


def measure(field: Battlefield, here: Position, there: Position) -> float:
    """``field.distance(here, there)``, kept in ``DISTANCES``."""
    if len(DISTANCES) >= KEPT_MAX:
        DISTANCES.clear()
    dist = DISTANCES[(field, here, there)] = field.distance(here, there)
    return dist


def site(field: Battlefield, pos: Position) -> tuple[Cover, Visibility]:
    """The cover and visibility at ``pos`` (``Battlefield.cover``, ``.visibility``), kept."""
    if len(SITES) >= KEPT_MAX:
        SITES.clear()
    kept = SITES[(field, pos)] = (field.cover(pos), field.visibility(pos))
    return kept
