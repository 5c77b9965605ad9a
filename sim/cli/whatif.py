""""What if?" as ``fray play``'s ``?`` and ``fray advise`` print it.

The engine (what is weighed, the rollouts, where the budget goes, the intervals and the
group of lines as good as the best) is ``sim.ai.whatif``; here are its progress bar, its
table and its JSON.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from sim.ai import rollout
from sim.ai import whatif as engine
from sim.batch.executors import WhatIfPools
from sim.report.numbers import chance

if TYPE_CHECKING:
    from sim.ai.ranking import Weighed
    from sim.ai.rollout import Choice, Moment

# what the table's words mean, under it
LEGEND = ("vs yours: of 100 fights, how many more (+) or fewer (-) its side wins with this "
          "line than with the profile's choice, on the same dice (the 95% interval in "
          "brackets): for a line with fewer rollouts, on the rollouts both had, so it need "
          "not be the difference of the two shares shown. standing: still in the fight at "
          "the end; alive: not dead at the end (fled or yielded counts). same fight as N: "
          "on every rollout both had, the two lines came to the same state within a few "
          "rounds (the same places, wounds, dice to come): what followed was one fight, "
          "so choosing between them changes nothing on these dice.")


@contextmanager
def bar(shown: bool = True) -> Iterator[engine.Progress]:
    """A progress bar on stderr while the rollouts run; what ``engine.weigh`` tells it."""
    progress = Progress(TextColumn("what if?"), BarColumn(), MofNCompleteColumn(),
                        console=Console(stderr=True), transient=True, disable=not shown,
                        auto_refresh=False)
    with progress:
        job = progress.add_task("rollouts", total=None)

        def tell(done: int, total: int) -> None:
            progress.update(job, completed=done, total=total, refresh=True)
        yield tell


def weigh(m: Moment, choices: list[Choice], n: int, workers: int | None = None,
          shown: bool = True, race: bool = True) -> list[Weighed]:
    """``engine.weigh`` with a progress bar (``shown``)."""
    with bar(shown) as tell:
        return engine.weigh(m, choices, n, workers, tell, race, WhatIfPools())


def _pts(d: float) -> str:
    """A difference of two shares as signed points of 100 (``+4``, ``-12``, ``0``)."""
    k = round(100 * d)
    return f"{k:+d}" if k else "0"


def span(low: float, high: float) -> str:
    """An interval of chances in words: ``90% to >99%`` (no dash to read as an arrow)."""
    return f"{chance(low)} to {chance(high)}"


def table(weighed: list[Weighed], side: str, name: str, n: int,
          which: str | None = None, numbers: dict[str, str] | None = None,
          width: int | None = None, not_now: list[tuple[Choice, str]] | None = None) -> str:
    """The weighed lines as text: those as good as the best first, the profile's marked.

    ``which``: what was weighed, in words (default: each line); ``numbers``: what to type
    at the menu for each line, by key (``Question.numbers``); ``width``: of the terminal
    (default: its own), which the labels are cut to; ``not_now``: the lines that cannot be
    taken now, and why (``Question.not_now``), listed last and not ranked.
    """
    width = width or shutil.get_terminal_size((120, 24)).columns
    numbers = numbers or {}
    cut = max(w.planned for w in weighed) if weighed else n
    head = [f"What if? {n} rollouts of {which or 'each line'} from here: after it, every "
            "fighter (yours too) plays by its AI profile, with fresh dice."]
    screened = [w for w in weighed if w.screened]
    stopped = sum(1 for w in weighed if w.planned < cut and not w.screened)
    if screened or stopped:
        few = min(w.planned for w in screened) if screened else 0
        head.append(
            "Every line was screened with a few rollouts first; the rest went to the few best "
            "there and to the profile's choice. "
            + (f"{len(screened)} of {len(weighed)} lines had only the screen's {few} "
               f"rollout{'s' if few != 1 else ''} (marked 'screened')" if screened else "")
            + ("; " if screened and stopped else "")
            + (f"{stopped} stopped early, behind (marked 'stopped after N')" if stopped
               else "")
            + ": their numbers stand on those.")
    wins = f"{side} wins"
    # room for what a row says after its columns: the profile's mark, why it had fewer
    tail = max((len(_tail(w, cut, numbers)) for w in weighed), default=0)
    fixed = 2 + NUM + 2 + 2 + len(wins) + 2 + VS + 2 + 8 + 2 + 6 + 2 + 6 + tail
    label_w = max(16, min(max((len(w.choice.label) for w in weighed), default=16),
                          width - fixed - 1))
    cols = (f"  {'#':>{NUM}}  {'line':<{label_w}}  {wins:>{len(wins)}}  {'vs yours':<{VS}}  "
            f"{'standing':>8}  {'alive':>6}  {'rounds':>6}")
    lines = head + [f"standing and alive are {name}'s.", cols]
    titles = {"best": "as good as the best, within the dice:",
              "maybe": "could be as good as the best, on its fewer rollouts:",
              "behind": "behind the best, beyond the dice:"}
    shown: str | None = None
    texts = _fitted([w.choice for w in weighed], label_w)
    for w in weighed:
        if w.group != shown:
            shown = w.group
            lines.append(f"  {titles[w.group]}")
        lines.append(_row(w, numbers, texts[w.choice.key], label_w, len(wins), cut))
    if not_now:
        lines.append("  not now (not weighed):")
        lines += [f"  {numbers.get(ch.key, ''):>{NUM}}  "
                  f"{ch.label if why in ch.label else f'{ch.label} ({why})'}"
                  for ch, why in not_now]
    lines.append(LEGEND)
    return "\n".join(lines)


NUM, VS = 5, 16  # widths of the menu number and "vs yours" columns


def _row(w: Weighed, numbers: dict[str, str], label: str, label_w: int, wins_w: int,
         cut: int) -> str:
    number = numbers.get(w.choice.key, "")
    if not w.n:
        return f"  {number:>{NUM}}  {label:<{label_w}}  {'-':>{wins_w}}"
    vs = "-" if w.choice.ai else f"{_pts(w.diff)} [{_pts(w.diff_low)}, {_pts(w.diff_high)}]"
    return (f"  {number:>{NUM}}  {label:<{label_w}}  {chance(w.p_win):>{wins_w}}  {vs:<{VS}}  "
            f"{chance(w.p_standing):>8}  {chance(w.p_alive):>6}  {w.rounds:>6.1f}"
            + _tail(w, cut, numbers))


def _tail(w: Weighed, cut: int, numbers: dict[str, str]) -> str:
    """What a row says after its columns: the profile's mark, and its notes.

    Why it had fewer rollouts, and the lines that were the same fight (by their menu
    numbers, else keywords).
    """
    if not w.n:
        return ""
    notes = (["screened"] if w.screened else [f"stopped after {w.planned}"]
             if w.planned < cut else []) + ([f"{w.n} reached"] if w.n < w.planned else [])
    if w.as_one:
        notes.append("same fight as " + ", ".join(numbers.get(key) or key for key in w.as_one))
    mark = "   <- its profile's choice" if w.choice.ai else ""
    return mark + (f"   ({'; '.join(notes)})" if notes else "")


def _fitted(choices: list[Choice], width: int) -> dict[str, str]:
    """Each line's words in ``width``, by key, no two alike (``_fit``).

    Lines whose words, cut, would read alike (``called shot at Gorm's le...`` for the left
    arm and the left leg) are cut in the middle of their keywords instead, which differ
    somewhere (a menu's keys are unique), so that the end shows as well as the start.
    """
    texts = {ch.key: _fit(ch, width) for ch in choices}
    # then, on a narrow terminal, from where they part (again within what still reads alike)
    for cut in (_middle, _from_difference, _from_difference, _from_difference):
        alike: dict[str, list[str]] = {}
        for key, text in texts.items():
            alike.setdefault(text, []).append(key)
        for keys in alike.values():
            if len(keys) > 1:
                texts.update((key, cut(key, width, keys)) for key in keys if len(key) > width)
    return texts


def _fit(choice: Choice, width: int) -> str:
    """A line's words in ``width``.

    Its label, else its keyword (shorter, what a player may type, and its telling words
    first: ``called left leg Gorm and again``), else the keyword cut, else the label cut.
    """
    for text in (choice.label, choice.key):
        if len(text) <= width and text != rollout.PROFILE:
            return text
    return _short(choice.key if choice.key != rollout.PROFILE else choice.label, width)


def _short(label: str, width: int) -> str:
    return label if len(label) <= width else label[:width - 3].rstrip() + "..."


def _middle(text: str, width: int, alike: list[str]) -> str:
    """``text`` cut to ``width`` in its middle: its start, ``...``, its end."""
    if len(text) <= width:
        return text
    head = (width - 3 + 1) // 2
    return text[:head] + "..." + text[len(text) - (width - 3 - head):]


def _from_difference(text: str, width: int, alike: list[str]) -> str:
    """``text`` from a little before where the ``alike`` keys part: ``...leg Gorm and...``."""
    start = max(0, len(os.path.commonprefix(alike)) - 4)
    return _short(("..." if start else "") + text[start:], width)


def as_json(weighed: list[Weighed], side: str | None = None, name: str | None = None,
            not_now: list[tuple[Choice, str]] | None = None) -> dict[str, Any]:
    """``fray advise --json``: one object, its options ranked as the table.

    ``combatant`` and ``side`` say whose win ``p_win`` is and who ``p_standing`` is (the
    table's column heads); ``rounds`` is the table's; ``stopped``: the option's rollouts
    stopped before the others' (``n`` counts them), ``screened`` at the first look;
    ``diff``, ``diff_low``, ``diff_high``: its side's wins less the profile's choice's on
    the same dice, and the interval; ``group``: ``best`` (as good as the best, within the
    dice), ``maybe`` (could be, on its fewer rollouts) or ``behind``; ``p_alive``: the fighter
    alive at the end; ``as_one``: the labels of the lines that were the same fight on every
    rollout both had (``Weighed.as_one``). ``not_now``: the lines that cannot be taken now
    (``label``, ``why``), not weighed.
    """
    head: dict[str, Any] = {} if name is None else {"combatant": name, "side": side}
    if not_now:
        head["not_now"] = [{"label": ch.label, "why": why} for ch, why in not_now]
    most = max((w.planned for w in weighed), default=0)
    labels = {w.choice.key: w.choice.label for w in weighed}
    return {**head, "options": [{"label": w.choice.label, "ai": w.choice.ai, "p_win": w.p_win,
                                 "low": w.interval[0], "high": w.interval[1],
                                 "p_standing": w.p_standing, "n": w.n, "rounds": w.rounds,
                                 "stopped": w.planned < most, "screened": w.screened,
                                 "p_alive": w.p_alive, "diff": w.diff,
                                 "diff_low": w.diff_low, "diff_high": w.diff_high,
                                 "group": w.group,
                                 "as_one": [labels[key] for key in w.as_one]}
                                for w in weighed]}
