"""What a player sees before declaring in ``fray play``: the situation and the menu."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from sim.core.actions import Attack

if TYPE_CHECKING:
    from sim.ai.menu import Option
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

WIDTH = 100


def _looks(threat: float) -> str:
    """How hurt a fighter looks, in words (from the advisor's 0..1 threat)."""
    if threat <= 0:
        return "unhurt"
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
                      _looks(advisor.threat(other)) if other.in_fight else "-",
                      other.status.value)
    console.print(table)
    on_me = [f"{who.name} ({sum(type(i) is Attack and i.target is c for i in intents)})"
             for who, intents in enc.declared.items()
             if any(type(i) is Attack and i.target is c for i in intents)]
    if on_me:
        console.print("  attacks already declared on you: " + ", ".join(on_me))
    return out.getvalue().rstrip("\n")


def menu_text(menu: list[Option], suggestion: str) -> str:
    """The numbered menu, odds beside each attack, and the tactical AI's choice as 0.

    An option ``X and again`` (a called shot, then a plain attack) shares the line of its
    ``X``: the called shots of ORE and B-Grade would otherwise fill a screen.
    """
    def odds(option: Option) -> str:
        if option.odds is None:
            return ""
        several = sum(type(i) is Attack for i in option.intents) > 1
        head = f", {option.head:.0%} to the head" if option.head else ""
        return f"  [{option.odds:.0%} {'the first hits' if several else 'to hit'}{head}]"

    lines = [f"  0. what the tactical AI would do (or Enter): {suggestion}"]
    k = 0
    while k < len(menu):
        option = menu[k]
        again = menu[k + 1] if k + 1 < len(menu) else None
        if again is not None and again.key == f"{option.key} and again":
            lines.append(f"  {k + 1}. {option.label}{odds(option)}  | {k + 2}. then attack "
                         f"again{odds(again)}   ({option.key}[ and again])")
            k += 2
            continue
        lines.append(f"  {k + 1}. {option.label}{odds(option)}   ({option.key})")
        k += 1
    return "\n".join(lines)
