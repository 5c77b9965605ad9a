"""A fight as one self-contained HTML page: the map, the fighters moving, the log beside it.

``fight`` gathers one fight's data from its scenario's map and its event log; ``write``
puts one or more fights (a campaign's stages) into a page (docs/replay.md).
"""

from __future__ import annotations

from sim.report.replay.data import fight
from sim.report.replay.page import page, write

__all__ = ["fight", "page", "write"]
