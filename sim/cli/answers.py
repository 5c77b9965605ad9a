"""A player's answer at ``fray play``'s menus, read: a line's number or keyword, ``?``.

What the play loop (``sim.cli.play.Player``) asks of an answer before it acts on it: a
``?`` and its rollouts (``odds_asked``), a ``3.2`` line (``dotted``), the keywords nearest
a refused answer (``hint``), an answer as a refusal quotes it (``shown``), and the
answers that are no option (``Pick``: the profile's choice, none left).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Final

from sim.ai import menu as menus
from sim.cli import params
from sim.scenario.errors import suggest


class Pick(Enum):
    """A menu's answer that is no option: the AI's choice; no answer left."""

    AI = "ai"
    ENDED = "ended"


AI: Final = Pick.AI
ENDED: Final = Pick.ENDED
ODDS = ("?", "odds")  # at a menu: weigh its lines by rollouts (not an answer)
LONG_MENU = 16  # a first menu of more lines says, at ``?``, that a group's menu weighs sooner


def odds_asked(answer: str, default: int) -> int | None:
    """The rollouts a ``?`` (or ``odds``) asks for: ``? 50``, or ``default`` alone.

    None: not a ``?``; 0: a number out of range (``what_if`` says so).
    """
    words = answer.strip().lower().split()
    if not 1 <= len(words) <= 2 or words[0] not in ODDS:
        return None
    if len(words) == 1:
        return default
    k = menus.number(words[1])
    return k if k is not None and 1 <= k <= params.MAX_ROLLOUTS else 0


def shown(answer: str, most: int = 40) -> str:
    """An answer as a refusal quotes it: cut past ``most`` characters (a 5,000-digit one)."""
    if len(answer) <= most:
        return repr(answer)
    return f"{answer[:most]!r}... ({len(answer):,} characters)"


def dotted(entries: list, answer: str) -> menus.Option | None:
    """The line ``3.2`` names, or None.

    Line 2 of the group at line 3 of the first menu: how a what-if table numbers a line
    inside a group.
    """
    first, dot, second = answer.strip().partition(".")
    k, j = menus.number(first), menus.number(second)
    if not dot or k is None or j is None or not 1 <= k <= len(entries):
        return None
    group = entries[k - 1]
    if not isinstance(group, menus.Group) or not 1 <= j <= len(group.options):
        return None
    return group.options[j - 1]


def hint(menu: list, answer: str) -> str:
    """The nearest keywords to a refused answer: the shortest holding its words, or a typo's.

    ``menu``: the options and groups (``menus.Group``) the answer could have named.
    """
    words = answer.lower().split()
    keys = list(dict.fromkeys(o.key for o in menu))
    holding = sorted((k for k in keys if words and all(w in k.lower().split() for w in words)),
                     key=len)[:2]
    if holding:
        return f" (did you mean {' or '.join(repr(k) for k in holding)}?)"
    return suggest(answer, keys)


def intents_text(intents: list[Any]) -> str:
    """A declaration in short words (``attack Gorm and dodge``), for one no menu line names."""
    words = []
    for i in intents:
        kind = type(i).__name__.lower()
        target = getattr(i, "target", None)
        words.append(f"{kind} {target.name}" if target is not None else kind)
    return " and ".join(words)
