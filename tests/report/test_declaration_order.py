"""The log tells declarations in declaration order, before the rolls they lead to.

Under a ruleset whose fighters all declare at the round's start, every ``declare`` event
of a round comes before its first roll, initiative or move; a fighter who yields as it
declares is told after the attacks declared on it earlier, never before them.
"""

from __future__ import annotations

import pytest
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.core.engine import Encounter
from sim.rulesets import registry

AT_ROUND_START = [n for n in registry.names() if not registry.get(n).declares_at_turn]
# what the fighters' acts tell, once the declarations are done
ACTS = {"roll", "attack", "initiative", "hit", "miss", "move", "defend", "run", "withdraw"}


def rounds(log: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for e in log:
        if e["type"] == "round":
            out.append([])
        elif out and e["type"] != "aftermath":
            out[-1].append(e)
        if e["type"] in ("end", "aftermath"):
            break
    return out


@pytest.mark.parametrize("ruleset", AT_ROUND_START)
@pytest.mark.parametrize("name", ["ambush", "footbridge", "brawl"])
def test_declarations_come_first_in_declaration_order(ruleset, name):
    scen = scenario_mod.load(SCENARIOS / f"{name}.yaml")
    for seed in range(1, 6):
        enc = Encounter(scen, ruleset, seed, log=True)
        order: list[list[str]] = []  # who declared, as ``Encounter.declare`` was asked
        declare = enc.declare

        def watched(c, declare=declare, order=order, enc=enc):
            if not order or order[-1][0] != enc.round:
                order.append([enc.round])
            order[-1].append(c.name)
            return declare(c)

        enc.declare = watched
        enc.run()
        for events in rounds(enc.log):
            acted = False
            yielded: set[str] = set()
            for e in events:
                if e["type"] in ACTS:
                    acted = True
                elif e["type"] == "declare":
                    assert not acted, (seed, e["text"])
                    assert not any(f" {who} " in e["text"] + " " for who in yielded), e
                elif e["type"] == "status" and e.get("status") == "surrendered":
                    yielded.add(e["who"])
        told = [(e["round"], e["who"]) for e in enc.log if e["type"] == "declare"]
        # first asks only: OpenCore asks again at a turn whose attack cannot be made
        asked = list(dict.fromkeys((rnd, who) for rnd, *names in order for who in names))
        assert set(told) <= set(asked)
        assert told == [t for t in asked if t in set(told)]  # the same order
