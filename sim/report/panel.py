"""What a player sees before declaring in ``fray play``: the situation and the menu."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from sim.core.actions import Attack
from sim.report.numbers import chance

if TYPE_CHECKING:
    from sim.ai.menu import Group, Option
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

WIDTH = 100


def _looks(threat: float, wounded: bool) -> str:
    """How hurt a fighter looks, in words.

    Any harm at all (``Advisor.wounded``), then how near to going down it is (the advisor's
    0..1 ``threat``).
    """
    if threat <= 0:
        return "lightly hurt" if wounded else "unhurt"
    return "hurt" if threat < 0.5 else "badly hurt"


def situation(enc: Encounter, c: Combatant) -> str:
    """The round, the fighter's own state, everyone it can see, attacks declared on it."""
    field, advisor = enc.field, enc.advisor
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, color_system=None)
    console.print(f"Round {enc.round}: {c.name} ({c.side}) at {field.describe(c.pos)}, "
                  f"cover {field.cover(c.pos).label}")
    pools = advisor.pools(enc, c)
    console.print(f"  {c.state()}" + (f"; {pools}" if pools else ""), soft_wrap=True)
    console.print(f"  {c.describe()}", soft_wrap=True)
    table = Table(show_edge=False, pad_edge=False)
    for column in ("fighter", "side", "distance", "cover", "looks", "status"):
        table.add_column(column, justify="right" if column == "distance" else "left")
    for other in enc.combatants:
        if other is c:
            continue
        table.add_row(other.name, other.side, f"{field.distance(c.pos, other.pos):.1f} m",
                      field.cover(other.pos).label,
                      _looks(advisor.threat(other), advisor.wounded(other))
                      if other.in_fight else "-",
                      other.status.value)
    console.print(table)
    on_me = [f"{who.name} ({sum(type(i) is Attack and i.target is c for i in intents)})"
             for who, intents in enc.declared.items()
             if any(type(i) is Attack and i.target is c for i in intents)]
    if on_me:  # declared at the round's start, still to come; or, declared at each turn
        # (OpenD6), made already by the faster fighters
        said = ("attacks on you this round so far" if enc.ruleset.declares_at_turn
                else "attacks already declared on you")
        console.print(f"  {said}: " + ", ".join(on_me))
    return out.getvalue().rstrip("\n")


def _odds(option: Option) -> str:
    if option.odds is None:
        return ""
    several = sum(type(i) is Attack for i in option.intents) > 1
    more = "".join(f", {chance(p)} {words}" for words, p in option.harm)
    return f"  [{chance(option.odds)} {'the first hits' if several else 'to hit'}{more}]"


def _lines(menu: list[Option], mark: Option | None = None, cut: int = 0,
           keys: bool = True) -> list[str]:
    """Numbered lines from 1, odds beside each attack; ``mark``: the AI's, Enter's.

    An option ``X and again`` (a called shot, then a plain attack) shares the line of its
    ``X``: the called shots of ORE and B-Grade would otherwise fill a screen. ``cut``: the
    characters of each label its group's heading already says (``_shared``); ``keys``: the
    keyword in brackets (a second menu is answered by number: its lines stay short).
    """
    def ai(option: Option) -> str:
        return "   <- the AI would (Enter)" if option is mark else ""

    def key(text: str) -> str:
        return f"   ({text})" if keys else ""

    lines = []
    k = 0
    while k < len(menu):
        option = menu[k]
        again = menu[k + 1] if k + 1 < len(menu) else None
        if again is not None and again.key == f"{option.key} and again":
            lines.append(f"  {k + 1}. {option.label[cut:]}{_odds(option)}{ai(option)}  | "
                         f"{k + 2}. then attack again{_odds(again)}{ai(again)}"
                         f"{key(option.key + '[ and again]')}")
            k += 2
            continue
        lines.append(f"  {k + 1}. {option.label[cut:]}{_odds(option)}{key(option.key)}"
                     f"{ai(option)}")
        k += 1
    return lines


def _shared(labels: list[str], heading: str | None = None) -> int:
    """The length of the words every label begins with (``called shot at B's ``), or 0.

    With ``heading``, only words the heading says too: what the labels share beyond it
    (``take cover at hill``: the place, under ``take cover (and shoot)``) is kept.
    """
    words = [label.split(" ") for label in labels]
    said = heading.split(" ") if heading is not None else words[0]
    n = 0
    while all(len(w) > n + 1 and w[n] == words[0][n] for w in words) and (
            n < len(said) and words[0][n].startswith(said[n])):  # B's, under "at B"
        n += 1
    return len(" ".join(words[0][:n])) + 1 if n else 0


def menu_text(menu: list[Option], suggestion: str, whose: str = "the AI") -> str:
    """The whole menu in one list, and the choice of ``whose`` (its profile) as 0.

    What ``fray play`` showed before the two-step menu (``top_text``): a replay of a record
    made then (no ``menu`` in it) shows it again, so its numbers mean what they meant.
    """
    return "\n".join([f"  0. what {whose} would do (or Enter): {suggestion}",
                      *_lines(menu)])


def _range(options: tuple[Option, ...]) -> str:
    """A group's first-hit chances, lowest to highest: ``[28-70% the first hits]``."""
    chances = sorted(o.odds for o in options if o.odds is not None)
    if not chances:
        return ""
    low, high = chance(chances[0]), chance(chances[-1])
    span = low if low == high else f"{low.rstrip('%')}-{high}"
    return f"  [{span} the first hits]"


def top_text(entries: list[Option | Group], suggestion: str,
             ai: Option | None = None, whose: str = "the AI") -> str:
    """The first menu: the AI's choice as 0, then each option alone or one line per group.

    A group's line (ending in ``...``) says the range of its attacks' first chance to hit
    and whether the AI's choice (``ai``) is among its details.
    """
    lines = [f"  0. what {whose} would do (or Enter): {suggestion}"]
    for k, entry in enumerate(entries, start=1):
        if hasattr(entry, "options"):  # a Group (sim.report imports no sim.ai at run time)
            here = "   <- the AI's choice is in here" if ai in entry.options else ""
            lines.append(f"  {k}. {entry.label}...{_range(entry.options)}   ({entry.key})"
                         f"{here}")
        else:
            lines.append(f"  {k}. {entry.label}{_odds(entry)}   ({entry.key})")
    return "\n".join(lines)


def group_text(group: Group, ai: Option | None = None) -> str:
    """The second menu of one group: its options from 1, 0 to go back.

    Enter takes the AI's choice when it is one of them (marked), else goes back.
    """
    enter = "Enter: the AI's choice" if ai in group.options else "Enter: back"
    options = list(group.options)
    return "\n".join([f"{group.label}: answer a number (0: back to the first menu; {enter})",
                      *_lines(options, ai, _shared([o.label for o in options], group.label),
                             keys=False)])
