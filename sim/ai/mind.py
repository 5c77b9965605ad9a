"""The AI as the engine sees it: what a fighter does, and whose morale breaks.

The engine is given this module as its default mind (``sim.registry.MIND``) rather than
importing the AI, which is built on the engine: a player, a test or a rollout gives its
own mind for some fighters (``Encounter.minds``), and every other fighter asks this one.
"""

from sim.ai import lookahead  # noqa: F401 - adds the lookahead profile to profiles.PROFILES
from sim.ai.morale import check as check_morale
from sim.ai.profiles import RECORDED, decide

__all__ = ["RECORDED", "check_morale", "decide"]
