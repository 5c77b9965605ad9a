"""The example fights of a batch told in a line each, and their replay pages.

``sim.results.examples`` picks the fights (index and seed) from the rows; here each is fought
again from its seed, as ``fray run --seed`` would, and told in one line: how it ended, who
of the first side fell and in which round, and what became of the others. Five fights more
than the batch, whatever its size.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sim.batch import files
from sim.core.combatant import Combatant, Status
from sim.core.engine import Encounter, run_encounter
from sim.core.words import count
from sim.report import replay
from sim.scenario.specs import Scenario


def story(enc: Encounter, winner: str | None, rounds: int) -> str:
    """One line: how the fight ended, the first side's fallen, the other sides' losses."""
    first, *others = enc.sides
    ended = (f"{winner} won in round {rounds}" if winner else
             f"draw after {count(rounds, 'round')}")
    fallen = sorted((c for c in enc.sides[first] if c.status is not Status.OK),
                    key=lambda c: (c.out_round or rounds + 1, c.name))
    if fallen:
        told = "; ".join(_fell(enc, c) for c in fallen)
        line = f"{ended}; {len(fallen)} of {len(enc.sides[first])} {first} fell: {told}"
    else:
        line = f"{ended}; none of {first} fell"
    for side in others:
        line += f"; {side} {_losses(enc.sides[side])}"
    return line


def _fell(enc: Encounter, c: Combatant) -> str:
    """``Ana dead in round 3`` (``died after the fight``, ``fled``, ...)."""
    if c in enc.died_after:
        down = f", down in round {c.out_round}" if c.out_round else ""
        return f"{c.name} died after the fight{down}"
    when = f" in round {c.out_round}" if c.out_round else ""
    return f"{c.name} {c.status.value}{when}"


def _losses(members: Iterable[Combatant]) -> str:
    """``3 of 4 out (2 dead, 1 fled)``."""
    members = list(members)
    out = [c for c in members if c.status is not Status.OK]
    if not out:
        return f"all {len(members)} standing" if len(members) > 1 else "standing"
    kinds: dict[str, int] = {}
    for c in out:
        kinds[c.status.value] = kinds.get(c.status.value, 0) + 1
    detail = ", ".join(f"{k} {status}" for status, k in sorted(kinds.items()))
    return f"{len(out)} of {len(members)} out ({detail})"


def told(scenario: Scenario, ruleset: str, examples: list[dict[str, Any]]
         ) -> list[dict[str, Any]]:
    """``examples`` (``summary.json``'s), each fought again from its seed with its story."""
    out = []
    for example in examples:
        enc = Encounter(scenario, ruleset, example["seed"])
        result = enc.run()
        out.append({**example, "winner": result.winner or "draw",
                    "rounds": result.rounds, "story": story(enc, result.winner,
                                                            result.rounds)})
    return out


def page_name(example: dict[str, Any]) -> str:
    """The replay page's file name: ``typical-412.html``."""
    return f"{example['name']}-{example['index']}.html"


def write_pages(scenario: Scenario, ruleset: str, examples: list[dict[str, Any]],
                folder: Path) -> list[Path]:
    """Each example's replay page in ``folder`` (``fray run --html`` of its seed)."""
    written = []
    for example in examples:
        _, events = run_encounter(scenario, ruleset, example["seed"], log=True)
        assert events is not None
        path = folder / page_name(example)
        files.write_text(path, replay.fight_page(scenario, events))
        written.append(path)
    return written

