"""A fight as one self-contained HTML page: the map, the fighters moving, the log beside it.

``fight`` gathers one fight's data from its scenario's map and its event log; ``page`` puts
one or more fights (a campaign's stages) into a page, ``fight_page`` one fight's (docs/replay.md).
The commands write the page where the user said (``sim.batch.files``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.report.replay.data import fight
from sim.report.replay.page import page

if TYPE_CHECKING:
    from sim.scenario.specs import Scenario

__all__ = ["fight", "fight_page", "page"]


def fight_page(scenario: Scenario, events: list[dict[str, Any]]) -> str:
    """The page of one fight (``fray run --html``, ``fray play --html``)."""
    title = events[0]["text"] if events else scenario.name
    return page([fight(scenario, events)], title)
