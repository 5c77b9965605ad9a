"""Doctrines: a profile's default settings, and the policy the rules are handed.

A scenario may leave any doctrine setting out; ``effective`` fills it in from the profile's
defaults. ``policy`` says what a profile lets the rules spend on its behalf (points, cards,
free attacks): rules read the policy, never the profile's name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from sim.scenario.specs import Doctrine

# Defaults of the doctrine settings a scenario leaves out (None: the setting is off).
#   profile     focus     retreat_at  morale
#   passive     nearest   -           -
#   basic       nearest   -           -
#   aggressive  nearest   -           -
#   cautious    nearest   0.5         0.5     (falls back at half its health; breaks when
#                                              half its side is out of the fight)
#   tactical    weakest   -           -       (fights to the end: a lone survivor still wins
#                                              some fights)
PROFILE_DEFAULTS: dict[str, Doctrine] = {
    "passive": Doctrine("passive", focus="nearest"),
    "basic": Doctrine("basic", focus="nearest"),
    "aggressive": Doctrine("aggressive", focus="nearest"),
    "cautious": Doctrine("cautious", focus="nearest", retreat_at=0.5, morale=0.5),
    "tactical": Doctrine("tactical", focus="weakest"),
    "lookahead": Doctrine("lookahead", focus="weakest"),  # plays the others as tactical
}


@lru_cache(maxsize=256)
def effective(doctrine: Doctrine) -> Doctrine:
    """The doctrine with every setting the scenario left out taken from its profile."""
    base = PROFILE_DEFAULTS[doctrine.profile]
    return replace(doctrine, **{k: getattr(base, k) for k in ("focus", "retreat_at", "morale",
                                                             "prefers")
                                if getattr(doctrine, k) is None})


# Ruling (cautious, tactical): a shooter walks this many of its moves to reach cover.
COVER_MOVES = 2


@dataclass(frozen=True, slots=True)
class Policy:
    """What the rules may do on a fighter's behalf, handed over by its AI profile.

    Attributes:
        spends: spend points and play cards (character, fate and possibility points, drama
            cards). DESIGN: ``passive`` and ``basic`` never spend.
        reacts: take what a rule offers outside its own turn (a free attack on a foe who
            fumbles). A ``passive`` dummy never does.
    """

    spends: bool
    reacts: bool


POLICIES: dict[str, Policy] = {
    "passive": Policy(spends=False, reacts=False),
    "basic": Policy(spends=False, reacts=True),
    "aggressive": Policy(spends=True, reacts=True),
    "cautious": Policy(spends=True, reacts=True),
    "tactical": Policy(spends=True, reacts=True),
    "lookahead": Policy(spends=True, reacts=True),
}


def policy(profile: str) -> Policy:
    """The policy of an AI profile."""
    return POLICIES[profile]
