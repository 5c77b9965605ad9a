"""Small helpers for the words of a log and a report: counts and lists that read right."""

from __future__ import annotations


def names_text(names: list[str]) -> str:
    """``ore``, ``ore and opencore``, ``bgrade, ore and opencore``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun, singular for 1: ``count(1, "die", "dice")`` is ``1 die``."""
    return f"{n} {one if n == 1 else many or one + 's'}"
