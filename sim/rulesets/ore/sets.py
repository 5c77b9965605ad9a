"""ORE sets: matching dice in a roll, found and ordered by speed (width, then height)."""

from __future__ import annotations

from typing import NamedTuple


class Set(NamedTuple):
    """A set of matching dice in a One Roll Engine roll: ``width`` dice showing ``height``.

    A tuple, so that sets compare and sort by speed as they are: wider first, then higher.
    """

    width: int
    height: int

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def speed(self) -> tuple[int, int]:
        """Sort key: wider first, then higher (ORE's order of resolution)."""
        return (self.width, self.height)


# find_sets by the sorted faces of pools up to 10 dice (ORE's cap), where most rolls repeat:
# 8d10 holds 24,310 distinct rolls, 0-10 dice 184,756. The memo starts over at _SETS_KEPT
# entries (a few MB), so a long-lived worker never holds them all. Larger pools (B-Grade's
# pooled teams) are rarely alike: counted afresh.
_record = tuple.__new__
_SETS_OF: dict[tuple[int, ...], tuple[Set, ...]] = {}
_MEMO_DICE = 10
_SETS_KEPT = 50_000


def find_sets(dice: list[int] | tuple[int, ...]) -> list[Set]:
    """All sets (width >= 2) in a roll, widest first, ties by height.

    >>> find_sets([3, 7, 3, 7, 7, 1])
    [Set(width=3, height=7), Set(width=2, height=3)]
    """
    if len(dice) > _MEMO_DICE:
        return _sets_in(dice)
    key = tuple(sorted(dice))
    found = _SETS_OF.get(key)
    if found is None:
        if len(_SETS_OF) >= _SETS_KEPT:
            _SETS_OF.clear()
        found = _SETS_OF[key] = tuple(_sets_in(key))
    return list(found)


def _sets_in(dice: list[int] | tuple[int, ...]) -> list[Set]:
    counts: dict[int, int] = {}
    for face in dice:
        counts[face] = counts.get(face, 0) + 1
    # made in C: ``Set(w, h)`` runs the named tuple's Python ``__new__``
    sets = [_record(Set, (w, h)) for h, w in counts.items() if w > 1]
    sets.sort(reverse=True)
    return sets


def loose_dice(dice: list[int] | tuple[int, ...]) -> list[int]:
    """The dice that belong to no set (faces rolled exactly once), highest first."""
    counts: dict[int, int] = {}
    for face in dice:
        counts[face] = counts.get(face, 0) + 1
    return sorted((h for h, w in counts.items() if w == 1), reverse=True)
