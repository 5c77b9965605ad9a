"""The Okabe-Ito palette: colours told apart by readers with any common colour-vision deficiency.

The one home of the hex values: the charts (``sim.report.charts``) and the battle maps
(``sim.report.mapparts``) take their colours from here, each in the order it needs.
"""

from __future__ import annotations

OKABE_ITO = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "reddish purple": "#CC79A7",
    "sky blue": "#56B4E9",
    "vermillion": "#D55E00",
    "yellow": "#F0E442",
    "black": "#000000",
}


def colours(*names: str) -> tuple[str, ...]:
    """The hex values of ``names``, in that order."""
    return tuple(OKABE_ITO[name] for name in names)
