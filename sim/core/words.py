"""Small helpers for the words of a log: counts that read right."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun, singular for 1: ``count(1, "die", "dice")`` is ``1 die``."""
    return f"{n} {one if n == 1 else many or one + 's'}"
