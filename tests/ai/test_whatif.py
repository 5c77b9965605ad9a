"""The what-if engine (``sim.ai.whatif``) on cases whose answer is known.

Yielding in a duel loses every rollout: it is never as good as the best. Two lines that
play out alike, on the same dice, are told apart by nothing: they are always in the same
group, and with the best when one of them is the best. Each line's difference from the
profile's choice is measured on the same dice, with an interval that holds it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import ROOT

from sim import scenario as scenario_mod
from sim.ai import ranking, rollout, whatif
from sim.core.engine import Encounter
from sim.rulesets import registry

DUEL = scenario_mod.load(ROOT / "tests" / "data" / "mirror_duel.yaml")


class _Stop(Exception):
    pass


def _question(ruleset: str) -> whatif.Question:
    found = {}

    def mind(enc, c):
        found["q"] = whatif.question(enc, c)
        raise _Stop

    with pytest.raises(_Stop):
        Encounter(DUEL, ruleset, 9, minds={"East sword": mind}).run()
    return found["q"]


@pytest.mark.parametrize("ruleset", registry.names())
def test_yielding_is_never_as_good_as_the_best(ruleset):
    q = _question(ruleset)
    # every line to the end (no screen): the interval of a line weighed in full
    weighed = whatif.weigh(q.moment, q.choices, 60, workers=1, race=False)
    surrender = next(w for w in weighed if w.choice.key == "yield")
    assert surrender.wins == 0 and not surrender.best
    assert surrender.alive == surrender.n  # a fighter that yields lives
    assert weighed[0].best and weighed[0].wins > 0
    assert surrender.diff_high < 0  # clearly worse than the profile's choice too


@pytest.mark.parametrize("ruleset", registry.names())
def test_two_lines_that_play_out_alike_are_always_grouped_together(ruleset):
    q = _question(ruleset)
    twins = [replace(ch, key=f"again {ch.key}", ai=False) for ch in q.choices]
    weighed = {w.choice.key: w for w in whatif.weigh(q.moment, q.choices + twins, 40,
                                                     workers=1)}
    for ch in q.choices:
        one, two = weighed[ch.key], weighed[f"again {ch.key}"]
        # (the profile's choice is weighed to the end even where its twin stops)
        assert one.group == two.group or (ch.ai and two.n < one.n), ch.key
        if ch.ai:  # the same as the profile's choice on every die: a difference of 0
            assert two.diff == 0 and two.diff_low < 0 < two.diff_high
        else:  # (the profile's choice goes on when its twin stops behind)
            assert (one.wins, one.alive, one.n) == (two.wins, two.alive, two.n), ch.key
    assert sum(w.best for w in weighed.values()) >= 2  # the best and its twin at least


def test_the_ranking_puts_the_lines_as_good_as_the_best_first_and_survival_first_there():
    def line(key: str, ai: bool = False) -> rollout.Choice:
        return rollout.Choice(key, key, ai, None)

    def outs(won: list[int], alive: list[int]) -> list[rollout.Outcome | None]:
        return [rollout.Outcome(bool(w), bool(a), 1, float(w), bool(a))
                for w, a in zip(won, alive, strict=True)]

    won = [1, 0] * 30
    found = {0: outs(won, [0] * 60),  # wins as often, never survives
             1: outs(won, [1] * 60),  # wins as often, always survives
             2: outs([0] * 60, [1] * 60),  # never wins: behind
             3: outs(won[:-2] + [0, 0], [0] * 60)}  # one win fewer: within the dice
    ranked = ranking.rank([line("a"), line("b"), line("c"), line("d", True)], found, 20)
    assert [w.choice.key for w in ranked] == ["b", "a", "d", "c"]
    assert [w.best for w in ranked] == [True, True, True, False]
    # the differences from the profile's choice ("d"), on the same rollouts
    assert ranked[0].diff == pytest.approx(1 / 60)
    assert ranked[-1].diff == pytest.approx(-29 / 60) and ranked[-1].diff_high < 0


def test_nothing_depends_on_the_order_of_the_menu():
    """The menu follows the scenario file's order of foes: the stops, the groups and the
    ranking must not."""
    q = _question(registry.names()[0])
    forward = whatif.weigh(q.moment, q.choices, 60, workers=1)
    backward = whatif.weigh(q.moment, list(reversed(q.choices)), 60, workers=1)
    assert forward == backward


def test_a_line_cut_short_that_won_every_rollout_could_be_the_best():
    def outs(won: list[int]) -> list[rollout.Outcome | None]:
        return [rollout.Outcome(bool(w), True, 1, float(w)) for w in won]

    lines = [rollout.Choice(k, k, k == "mine", None) for k in ("cut", "mine")]
    ranked = ranking.rank(lines, {0: outs([1] * 10), 1: outs([1] * 40)}, 10)
    cut = next(w for w in ranked if w.choice.key == "cut")
    assert cut.screened and cut.maybe and cut.group == "maybe"
