"""The ``lookahead`` profile: declares what wins most often when the fight is played on.

At each declaration it weighs every line of its menu (``sim.ai.menu``, yielding aside) by
rollouts (``sim.ai.rollout``): the fight played on from this moment with fresh dice, every
fighter (itself included) by its AI profile, ``lookahead`` fighters as ``tactical``. A
rollout stops ``horizon`` rounds on and is scored by the harm each side took
(``rollout.score``) unless a side has won. The budget of rollouts is spent by successive
halving: every line gets a few, the better half gets as many again, and so on, each line
on the same dice as the others (``rollout.dice_seed``). The tactical choice is kept unless
another beats it on those same dice by more than its noise (``MARGIN`` standard errors of
the paired difference): a profile that changed its mind on luck would play worse than
tactical, not better.

Settings (a doctrine, ``ai: {profile: lookahead, budget: 96, horizon: 3}``): ``budget``,
the rollouts of one decision; ``horizon``, the rounds each plays. Everything else
(focus, spending, stand-offs) is ``tactical``'s.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sim.ai import profiles, rollout, standoff

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

BUDGET = 96  # rollouts a decision, chosen by measurement (docs/play.md)
HORIZON = 3  # rounds a rollout plays before it is scored
FIRST = 4  # rollouts each line gets in the first round of halving
MARGIN = 1.0  # standard errors a line must beat the tactical choice by
SKIPPED = ("yield",)  # never weighed: a profile does not surrender on a rollout's luck


def lookahead(enc: Encounter, c: Combatant) -> list[Intent]:
    """The declaration whose rollouts score best, else the tactical one."""
    if enc.rollout:  # inside a rollout: no rollouts within it
        return profiles.tactical(enc, c)
    state = enc.rng.getstate()
    base = profiles.tactical(enc, c)
    why = c.why
    enc.rng.setstate(state)
    lines = [ch for ch in rollout.choices(enc, c, profiles.tactical)
             if ch.key not in SKIPPED]
    if len(lines) <= 1:
        return base
    budget = c.doctrine.budget or BUDGET
    horizon = c.doctrine.horizon or HORIZON
    m = rollout.moment(enc, c)
    values: dict[int, list[float]] = {k: [] for k in range(len(lines))}
    alive = list(range(len(lines)))
    each, spent = FIRST, 0
    while True:
        for k in alive:
            for i in range(len(values[k]), each):
                out = rollout.play_out(m, lines[k], i, horizon)
                values[k].append(0.5 if out is None else out.value)
                spent += 1
        if len(alive) <= 2 or spent + (len(alive) // 2) * each * 2 > budget:
            break
        alive.sort(key=lambda k: -sum(values[k]) / len(values[k]))
        keep = max(2, len(alive) // 2)
        ai_line = next(k for k, ch in enumerate(lines) if ch.ai)
        alive = alive[:keep] + ([ai_line] if ai_line not in alive[:keep] else [])
        each *= 2
    ai_line = next(k for k, ch in enumerate(lines) if ch.ai)
    best = max(alive, key=lambda k: _edge(values[k], values[ai_line]))
    if best == ai_line or _edge(values[best], values[ai_line]) <= MARGIN:
        c.why = why
        return base
    edge = sum(values[best]) / len(values[best]) - sum(values[ai_line][:len(values[best])]) \
        / len(values[best])
    c.why = (f"looked ahead: {lines[best].label} scores {edge:+.2f} over the tactical "
             f"choice in {len(values[best])} rollouts")
    by_name = {f.name: f for f in enc.combatants}
    chosen = lines[best].intents
    assert chosen is not None  # (menu lines by intents, not by keyword)
    return [rollout.rebuild(by_name, p) for p in chosen]


def _edge(mine: list[float], base: list[float]) -> float:
    """How many standard errors ``mine`` beats ``base`` by, on the same rollouts (paired)."""
    n = min(len(mine), len(base))
    diffs = [a - b for a, b in zip(mine[:n], base[:n], strict=True)]
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / math.sqrt(var / n)


profiles.PROFILES["lookahead"] = lookahead
# its stand-offs are tactical's (the key read is the fighter's profile)
standoff.PATIENCE.setdefault("lookahead", standoff.PATIENCE["tactical"])
