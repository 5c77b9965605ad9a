"""Fighters converted once per scenario member, for every encounter to copy.

A batch builds the same members for every encounter; a ruleset's conversion (dice codes
parsed, pools summed, tables looked up) reads only the member and a few fixed settings, so
it is done once and each encounter's fighter copies the numbers (each ruleset's own copy
function, held equal to a conversion slot by slot by its ``test_fast_paths.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

F = TypeVar("F")


class Templates(Generic[F]):
    """The fighter built for each member (and ``variant``: what else the build reads).

    Keyed by the member's ``id``; the entry holds the member itself, so that id cannot be
    reused by another object while the entry lives. Starts over at ``kept`` entries, so a
    long-lived worker running many scenarios does not keep them all. The template is never
    fought with: its values stay as built.
    """

    def __init__(self, kept: int = 4096):
        self._built: dict[tuple[int, Hashable], tuple[object, F]] = {}
        self._kept = kept

    def of(self, member: object, variant: Hashable, build: Callable[[], F]) -> F:
        """The template for ``member`` and ``variant``; ``build()`` makes it the first time."""
        key = (id(member), variant)
        entry = self._built.get(key)
        if entry is None or entry[0] is not member:
            if len(self._built) >= self._kept:
                self._built.clear()
            entry = self._built[key] = (member, build())
        return entry[1]
