"""fray: a combat simulator for dice-pool tabletop RPGs."""

__version__ = "0.1.0"
