"""A fight as one self-contained HTML page: the map, the fighters moving, the log beside it.

``fight`` gathers one fight's data from its scenario's map and its event log; ``write``
puts one or more fights (a campaign's stages) into a page (docs/replay.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.report.replay.data import fight
from sim.report.replay.page import page, write

if TYPE_CHECKING:
    from sim.scenario.specs import Scenario

__all__ = ["fight", "page", "write", "write_fight"]


def write_fight(path: Path, scenario: Scenario, events: list[dict[str, Any]]) -> Path:
    """Write the page of one fight (``fray run --html``, ``fray play --html``)."""
    title = events[0]["text"] if events else scenario.name
    return write(path, [fight(scenario, events)], title)
