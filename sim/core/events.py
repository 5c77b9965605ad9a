"""The log's events: the fields every ruleset shares, and who moved or changed since.

An event is a dict (docs/log-format.md, ``sim/report/events.schema.json``): its round, its
time in the round, its type, the shared fields at the top and a ruleset's own under
``rules``; ``positions`` and ``states`` say who stands somewhere new and whose state
changed since the event before, so the log alone replays the fight on its map
(``sim.report.replay``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sim.scenario.vocabulary import THROWN_PLURALS

if TYPE_CHECKING:
    from sim.core.actions import Intent, TimedAction
    from sim.core.battlefield import Battlefield, Position
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# The fields of a log event every ruleset shares (docs/log-format.md); a ruleset's own go
# under the event's "rules" key.
COMMON_FIELDS = frozenset({
    "text", "who", "target", "side", "at", "to", "status", "state", "hit", "winner",
    "rounds", "scenario", "ruleset", "seed", "tended", "order", "positions", "states", "weapon",
})


def event(round_: int, now: float, kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """An event of type ``kind``: the shared ``fields`` at the top, the others under ``rules``."""
    out: dict[str, Any] = {"round": round_, "t": float(round(now, 3)), "type": kind}
    rules = {}
    for key, value in fields.items():
        if key in COMMON_FIELDS:
            out[key] = value
        else:
            rules[key] = value
    if rules:
        out["rules"] = rules
    return out


class Told:
    """What the log last said of each fighter's place and state, by name."""

    __slots__ = ("at", "state")

    def __init__(self) -> None:
        self.at: dict[str, Position] = {}
        self.state: dict[str, str] = {}

    def note(self, event: dict[str, Any], combatants: Iterable[Combatant],
             field: Battlefield) -> None:
        """Add to ``event`` whoever moved or changed state since the log last said.

        The first event holds everyone, each later one what changed up to it, whatever
        rule changed it.
        """
        moved: dict[str, dict[str, Any]] = {}
        changed: dict[str, str] = {}
        told_at, told_state = self.at, self.state
        for c in combatants:
            if told_at.get(c.name) != c.pos:
                told_at[c.name] = c.pos
                moved[c.name] = field.place(c.pos)
            state = c.state()
            if told_state.get(c.name) != state:
                told_state[c.name] = changed[c.name] = state
        if moved:
            event["positions"] = moved
        if changed:
            event["states"] = changed


def tell_start(enc: Encounter) -> None:
    """The log's opening: the fight, the notation and what times mean, who stands where."""
    enc.emit("start", scenario=enc.scenario.name, ruleset=enc.ruleset.name, seed=enc.seed,
             text=f"{enc.scenario.name} under {enc.ruleset.name} (seed {enc.seed})")
    # every ruleset's notation, the words of its log and menus that need one (gobble dice, a
    # takedown's worth), then what the log's times mean (asked by newcomers)
    times = (f"A time in brackets, [ 1.67s], is seconds into the round (a round is "
             f"{enc.ruleset.seconds_per_round:g} s); what shares a time happens at once.")
    words = f" {enc.ruleset.glossary}" if enc.ruleset.glossary else ""
    enc.emit("legend", text=f"{enc.ruleset.legend}{words} {times}".lstrip())
    for c in enc.combatants:
        side_arm = (f"; a {c.spec.sidearm} at its side"
                    if c.other_arms is not None and c.spec.sidearm is not None else "")
        if c.throws_left is not None:
            many = (c.spec.weapon if c.throws_left == 1
                    else THROWN_PLURALS.get(c.spec.weapon, c.spec.weapon))
            side_arm = f"; {c.throws_left} {many} to throw{side_arm}"
        enc.emit("combatant", who=c.name, side=c.side, at=enc.field.describe(c.pos),
                 text=f"  {c.side}: {c.name} at {enc.field.describe(c.pos)}; {c.describe()}"
                      f"{side_arm}")


def tell_declared(enc: Encounter, c: Combatant, intents: list[Intent]) -> None:
    """Say what ``c`` declares and why, in its ruleset's words, as it declares.

    At the round's start, in declaration order: what a fighter declared is told before a
    later declarer's surrender and before any roll (docs/log-format.md, ``declare``).
    """
    what = enc.ruleset.declaration(enc, c, intents)
    if what is not None:
        enc.emit("declare", who=c.name, text=f"{c.name} declares {what} ({c.why}).")


def tell_together(enc: Encounter, group: list[TimedAction[Any]]) -> None:
    """Say that the actions of ``group`` happen in one instant (the order told is drawn)."""
    # (sim.results' names_text says the same of rulesets; core may not import results)
    names = list(dict.fromkeys(a.actor.name for a in group))
    who = ", ".join(names[:-1]) + f" and {names[-1]}"
    enc.emit("simultaneous", text=f"At the same instant: {who} act together; whoever is "
                                  "struck down in it still acts.")
