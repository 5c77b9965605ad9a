"""Drawing with an encounter's generator: one of tied choices, and shuffles.

:func:`pick` is how every tie is broken (the AI's equally good choices, equally short
routes): never by the order of a file's sides, members or places. :func:`near_best` draws
among choices whose estimated worths are within a tolerance of the best (a profile that
varies where its estimates cannot tell the choices apart).

``random.Random.shuffle`` calls the Python method ``_randbelow`` once per element, and a
fight shuffles every round (a declaration order, a simultaneous group) and B-Grade shuffles
a 52-card deck per fight. :func:`shuffle` makes the same ``getrandbits`` draws in the same
order, inline, so it leaves the list and the generator exactly as ``rng.shuffle`` would
(``tests/core/test_draws.py`` holds the two equal).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from math import floor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from sim.core.engine import Encounter

T = TypeVar("T")

# Ruling (AI): choices whose estimated worths are within this share of the best are as good
# as the estimate can tell apart (``near_best``): the advisors draw among them (ORE's
# declarations, OpenD6's count of attacks), so a profile varies where it cannot choose.
NEAR = 0.05


def pick(rng: random.Random, tied: list[T] | tuple[T, ...]) -> T:
    """One of ``tied`` (two or more, equally good), drawn uniformly with ``rng``."""
    return tied[floor(rng.random() * len(tied))]


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does, draw for draw.

    Fisher-Yates from the end, each index drawn by rejection on ``getrandbits``
    (``Random._randbelow_with_getrandbits``). A generator of another type (one that may
    draw differently) is left to its own ``shuffle``.
    """
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def best(enc: Encounter, candidates: Iterable[T], key: Callable[[T], Any]) -> T | None:
    """The candidate with the highest ``key``; a tie is broken by the encounter's generator.

    Never by the order of the candidates (scenario or map order): that would hand an edge
    to whichever side or place a file lists first. Draws only when there is a tie.
    """
    top: list[T] = []
    top_key = None
    for item in candidates:
        k = key(item)
        if top_key is None or k > top_key:
            top, top_key = [item], k
        elif k == top_key:
            top.append(item)
    return draw(enc, top)


def best_by(enc: Encounter, candidates: Iterable[T],
            keys: tuple[Callable[[T], Any], ...]) -> T | None:
    """``best`` with the key ``(k(c) for k in keys)``, each asked only where it decides.

    A key is asked only of the candidates tied on every key before it (the highest tuple
    is the highest first key, then the highest second among those, ...), and none once one
    candidate is left: the same choice and the same draw as ``best``, for keys that cost
    (an attack's worth of every foe, asked at every declaration).
    """
    top = list(candidates)
    for key in keys:
        if len(top) < 2:
            break
        scored = [(key(item), item) for item in top]
        high = max(k for k, _ in scored)
        top = [item for k, item in scored if k == high]
    return draw(enc, top)


def draw(enc: Encounter, tied: list[T]) -> T | None:
    """One of ``tied`` (equally good), drawn by the encounter's generator; None if empty."""
    if len(tied) > 1:
        return pick(enc.rng, tied)
    return tied[0] if tied else None


def near_best(enc: Encounter, candidates: Iterable[T], worth: Callable[[T], float],
              slack: float) -> T | None:
    """One of the candidates whose ``worth`` is within ``slack`` of the best, by share.

    ``slack`` 0.05: those worth at least 95% of the best (the best itself when it is worth
    0 or less). Drawn by the encounter's generator, never by the candidates' order; it draws
    only when more than one is that near.
    """
    scored = [(worth(item), item) for item in candidates]
    if not scored:
        return None
    top = max(w for w, _ in scored)
    floor_ = top - slack * top if top > 0 else top
    return draw(enc, [item for w, item in scored if w >= floor_])
