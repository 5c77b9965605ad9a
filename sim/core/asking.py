"""The choices a ruleset asks a fighter's mind after a roll: a point to spend, a set to keep.

The encounter's part that puts them (``Encounter`` is an ``Asking``): a player's mind
answers (``choose`` on its mind), every other fighter takes the AI's answer, and each
answer a mind gave is recorded for the replay (``Encounter.made``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, TypeVarTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from sim.core.combatant import Combatant

T = TypeVar("T")  # what a choice among options gives (``choose``)
Ts = TypeVarTuple("Ts")  # what a yes-or-no's question is given (``yes_or_no``)
YES_NO = (("no", False), ("yes", True))  # a yes-or-no's options (``yes_or_no``)


class Asking:
    """The questions after a roll, as the encounter puts them (``Encounter`` sets these)."""

    minds: Mapping[str, Callable[..., Any]]
    _askers: frozenset[str]  # the fighters whose minds answer them
    made: dict[str, list[tuple[str, Any]]]

    def asks(self, c: Combatant) -> bool:
        """Whether ``c``'s mind makes the choices a ruleset asks after a roll (a player).

        Rules check this before building the options, so fights without a player pay
        nothing for the question.
        """
        return c.name in self._askers

    def choose(self, c: Combatant, question: str, options: Sequence[tuple[str, T]],
               default: int) -> T:
        """The choice ``c``'s mind makes among ``options`` (label, value); else the default.

        ``default`` is the index of the AI's own choice, which the player gets on Enter.
        """
        mind = self.minds.get(c.name)
        ask = getattr(mind, "choose", None)
        k = default if ask is None else ask(self, c, question, [t for t, _ in options], default)
        if ask is not None:
            self.made.setdefault(c.name, []).append(("choose", k))
        return options[k][1]

    def yes_or_no(self, c: Combatant, ai: bool, question: Callable[[*Ts], str | None],
                  *args: *Ts) -> bool:
        """``ai`` (the AI's own answer), or a player's yes or no to ``question(*args)``.

        The one way a ruleset puts a yes-or-no to a player (a point to spend), the AI's
        answer the default on Enter. ``question`` is called only when ``c`` has a player
        (its words cost nothing otherwise); it gives None when nothing is worth asking.
        Rules ask on every roll: a plain function and its ``args`` spare them a closure
        each time, and the test is ``asks``'s, inline.
        """
        if c.name not in self._askers:  # ``asks``, without the call
            return ai
        text = question(*args)
        return ai if text is None else self.choose(c, text, YES_NO, int(ai))
