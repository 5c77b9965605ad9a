"""What a weighing's rollouts say of each line: its numbers, and where it ranks.

A line's shares (``Weighed``), the one ahead (``ahead``), whether a line could be as good
as it on the same dice (``could_be_best``), the lines that were one fight (``Fights``),
and the table's order (``rank``). The what-if's race (``sim.ai.whatif``) asks the same
questions at each look.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sim.results.stats import Z95, paired_difference, wilson

if TYPE_CHECKING:
    from sim.ai.rollout import Choice, Outcome

MIN_LOOK = 10  # rollouts paired with the one ahead a line needs before it can stop
Fights = dict[int, list[int | None]]  # by line, each rollout's first line of its fight


@dataclass(frozen=True)
class Weighed:
    """One line and what its rollouts gave.

    Attributes:
        choice: the line.
        n: rollouts that reached it (a ``fray advise`` fight may never offer it).
        wins, standing, alive: of those, the side won; the fighter was still in the fight;
            it was alive at the end (in the fight, fled or yielded).
        rounds: the mean rounds they lasted after the moment.
        planned: rollouts it was given (fewer than asked: it stopped, clearly behind).
        diff, diff_low, diff_high: its side's wins less the profile's choice's, on the same
            dice (the rollouts both had), and the 95% interval of that difference.
        best: it cannot be told apart from the best line on the same dice: as good as the
            best, within the dice (the best line itself too).
        screened: it stopped at the first look (the screen, ``whatif.screen_size``): only screened.
        maybe: it had fewer rollouts than the lines weighed to the end (it stopped or was
            only screened), and on those it cannot be told apart from the best line: it
            could be as good.
        as_one: the keys of the lines that were the same fight as this one on every
            rollout both had (they came to the same state within ``together.READS``
            rounds, on the same dice: what followed was one fight, fought once).
    """

    choice: Choice
    n: int
    wins: int
    standing: int
    alive: int
    rounds: float
    planned: int = 0
    diff: float = 0.0
    diff_low: float = 0.0
    diff_high: float = 0.0
    best: bool = False
    screened: bool = False
    maybe: bool = False
    as_one: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        """Its group: ``best`` (within the dice), ``maybe`` (on fewer dice) or ``behind``."""
        return "best" if self.best else "maybe" if self.maybe else "behind"

    @property
    def p_win(self) -> float:
        """Share of rollouts the side won."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of ``p_win`` (0 and 1 exactly at its ends)."""
        low, high = wilson(self.wins, self.n)
        return (0.0 if self.wins == 0 else low, 1.0 if self.wins == self.n else high)

    @property
    def p_standing(self) -> float:
        """Share of rollouts the fighter ended still in the fight."""
        return self.standing / self.n if self.n else 0.0

    @property
    def p_alive(self) -> float:
        """Share of rollouts the fighter ended alive (standing, fled or yielded)."""
        return self.alive / self.n if self.n else 0.0


def shares(outs: list[Outcome | None]) -> tuple[float, float, float]:
    """The shares of ``outs`` (those reached): the side won, the fighter alive, standing."""
    got = [o for o in outs if o is not None]
    if not got:
        return (0.0, 0.0, 0.0)
    return (sum(o.won for o in got) / len(got), sum(o.alive for o in got) / len(got),
            sum(o.standing for o in got) / len(got))


def ahead(found: dict[int, list[Outcome | None]], among: list[int]) -> int | None:
    """The line of ``among`` whose side won most (then most alive), of those reached enough.

    Reached ``MIN_LOOK`` times at least; a tie goes to the first of ``among`` (the callers
    give them by key).
    """
    judged = [k for k in among if sum(o is not None for o in found[k]) >= MIN_LOOK]
    return max(judged, key=lambda k: shares(found[k])) if judged else None


def _paired(mine: list[Outcome | None], base: list[Outcome | None]) -> tuple[int, int, int]:
    """``(only mine won, only base won, pairs)`` over the rollouts both reached."""
    pairs = [(a.won, b.won) for a, b in zip(mine, base, strict=False)
             if a is not None and b is not None]
    return (sum(1 for a, b in pairs if a and not b), sum(1 for a, b in pairs if b and not a),
            len(pairs))


def could_be_best(mine: list[Outcome | None], ahead: list[Outcome | None],
                  z: float = Z95) -> bool:
    """Whether a line may win as often as the one ahead, on the same dice.

    The upper end of its paired interval against it (``paired_difference``) is 0 or more,
    or too few pairs say.
    """
    only_mine, only_ahead, pairs = _paired(mine, ahead)
    if pairs < MIN_LOOK:
        return True
    return paired_difference(only_mine, only_ahead, pairs, z)[2] >= 0


def rank(choices: list[Choice], found: dict[int, list[Outcome | None]],
         screen: int, fights: Fights | None = None) -> list[Weighed]:
    """The lines with their numbers, ranked.

    ``fights``: each rollout's first line of its fight (``_chunk``), which tells the lines
    that were one fight on every rollout both had (``Weighed.as_one``).

    The one ahead is the line weighed to the end whose side won most (``ahead``). A line
    weighed to the end too that cannot be told apart from it on the same dice
    (``could_be_best``) is as good as the best, within the dice; a line cut short whose
    interval reaches the best's share could be (``maybe``); the rest are behind (all are
    as good, when too few rollouts say which is ahead). The best come first, the fighter's
    survival first among them (their side's results cannot be told apart); then the
    maybes, then those behind, by their side's wins, then survival. A tie goes by the
    line's keyword, never by the menu's order.
    """
    order = sorted(range(len(choices)), key=lambda k: choices[k].key)
    most = max((len(v) for v in found.values()), default=0)
    top = ahead(found, [k for k in order if len(found[k]) == most])
    mine = next((k for k, ch in enumerate(choices) if ch.ai), None)
    out = []
    for k, choice in enumerate(choices):
        got = [o for o in found[k] if o is not None]
        diff, low, high = 0.0, 0.0, 0.0
        if mine is not None and k != mine:
            a, b, pairs = _paired(found[k], found[mine])
            diff, low, high = paired_difference(a, b, pairs)
        full = len(found[k]) == most
        # a line cut short is set against the best's share over all its rollouts: on the
        # few dice both had, the best was picked for its luck there
        w = Weighed(choice, len(got), sum(o.won for o in got), sum(o.standing for o in got),
                    sum(o.alive for o in got),
                    sum(o.rounds for o in got) / len(got) if got else 0.0, len(found[k]),
                    diff, low, high, screened=len(found[k]) <= screen < most,
                    as_one=() if fights is None else tuple(sorted(
                        choices[j].key for j in range(len(choices))
                        if j != k and _one_fight(fights[k], fights[j]))))
        told = top is None or (could_be_best(found[k], found[top]) if full
                               else w.interval[1] >= shares(found[top])[0])
        out.append(replace(w, best=told and full, maybe=told and not full))
    return sorted(out, key=_order)


def _one_fight(mine: list[int | None], other: list[int | None]) -> bool:
    """Whether two lines were one fight on every rollout both had (``MIN_LOOK`` at least).

    Each rollout's first line of its fight (``Fights``): the same one, on every rollout
    compared side by side; a rollout fought apart was not compared, and tells nothing.
    """
    # (checked rollout by rollout, and given up at the first that differs: ``rank`` asks
    # of every pair of lines, 2,556 pairs on a 72-line menu)
    return (min(len(mine), len(other)) >= MIN_LOOK
            and all(a is not None and a == b for a, b in zip(mine, other, strict=False)))


def _order(w: Weighed) -> tuple[int, float, float, str]:
    if w.best:
        return (0, -w.p_alive, -w.p_win, w.choice.key)
    return (1 if w.maybe else 2, -w.p_win, -w.p_alive, w.choice.key)

