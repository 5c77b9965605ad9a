"""The ``lookahead`` profile: declares what wins most often when the fight is played on.

At each declaration it weighs every line of its menu (``sim.ai.menu``, yielding aside) by
rollouts (``sim.ai.rollout``): the fight played on from this moment with fresh dice, every
fighter (itself included) by its AI profile, ``lookahead`` fighters as ``tactical``. A
rollout stops ``horizon`` rounds on and is scored by the harm each side took
(``rollout.score``) unless a side has won. Half the budget of rollouts gives every line
a first look, the rest goes to the ``CHALLENGERS`` best that did better than the tactical
choice, and to it (none did: the rest is not spent), each line on the same dice as the
others (``rollout.dice_seed``), side by side: lines that come to the same state are
fought on once (``sim.ai.together``). The tactical choice is kept unless
another beats it on those same dice by more than its noise (``MARGIN`` standard errors of
the paired difference): a profile that changed its mind on luck would play worse than
tactical, not better.

Settings (a doctrine, ``ai: {profile: lookahead, budget: 256, horizon: 10}``): ``budget``,
the rollouts of one decision; ``horizon``, the rounds each plays. Everything else
(focus, spending, stand-offs) is ``tactical``'s.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from sim.ai import profiles, rollout, standoff, together

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

BUDGET = 256  # rollouts a decision, chosen by measurement (docs/play.md)
HORIZON = 10  # rounds a rollout plays before it is scored
CHALLENGERS = 3  # lines that, after a first look at all, are weighed against tactical's
MARGIN = 2.0  # standard errors a line must beat the tactical choice by
FIRST = 0.5  # the share of the budget the first look at every line spends
SCREEN = 0.0  # standard errors a line must lead the tactical choice by on the first look
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
    shared = dict.fromkeys(range(len(lines)), 0)  # rollouts each ended as another line's

    def play(ks: list[int], upto: int, side_by_side: bool = True) -> None:
        """Rollouts of the lines ``ks`` up to ``upto`` each, side by side or apart."""
        for i in range(len(values[ks[0]]), upto):
            outs, ended = together.play_out_together(m, [lines[k] for k in ks], i, horizon,
                                                     apart=not side_by_side)
            for j in ended:
                shared[ks[j]] += 1
            for k, out in zip(ks, outs, strict=True):
                values[k].append(0.5 if out is None else out.value)

    # a first look at every line, then the few best and the tactical choice looked at again
    first = max(2, int(budget * FIRST) // len(lines))
    play(list(range(len(lines))), first)
    ai_line = next(k for k, ch in enumerate(lines) if ch.ai)
    # (0.0: a sum of floats typed as one, which a compiled build checks)
    ranked = sorted((k for k in range(len(lines)) if k != ai_line
                     and sum(values[k], 0.0) > sum(values[ai_line], 0.0)  # (behind: no look)
                     and _edge(values[k], values[ai_line]) > SCREEN),
                    key=lambda k: -sum(values[k], 0.0))
    if not ranked:  # nothing did better on the first look: half the budget is saved
        c.why = why
        return base
    alive = ranked[:CHALLENGERS] + [ai_line]
    again = first + max(0, budget - first * len(lines)) // len(alive)
    play(alive, again, together.pays(sum(shared[k] for k in alive), first * len(alive)))
    best = max(alive, key=lambda k: _edge(values[k], values[ai_line]))
    if best == ai_line or _edge(values[best], values[ai_line]) <= MARGIN:
        c.why = why
        return base
    edge = sum(values[best], 0.0) / len(values[best]) \
        - sum(values[ai_line][:len(values[best])], 0.0) / len(values[best])
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
