"""Rollouts (``sim.ai.rollout``): a fight replayed to a moment is that fight, to the dice.

A rollout builds the fight again from its seed and what its minds decided (``Encounter.made``),
declares the choice weighed, then draws fresh dice. These tests hold it to that: at the
moment the replayed encounter's generator and every fighter are as in the fight itself, the
fight itself is untouched, and the numbers do not depend on the number of workers.
"""

from __future__ import annotations

import pytest
from helpers import ROOT, any_ruleset

from sim import scenario as scenario_mod
from sim.ai import profiles, rollout
from sim.cli import whatif
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets import registry

MIRROR = scenario_mod.load(ROOT / "tests" / "data" / "mirror_2v2.yaml")


def _snapshot(enc: Encounter) -> tuple:
    return (enc.round, enc.rng.getstate(),
            [(f.name, f.pos, f.status, enc.advisor.threat(f), f.policy)
             for f in enc.combatants])


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_rollout_reaches_the_moment_as_the_fight_stood(ruleset, monkeypatch):
    """A mind that decides by the profile (and, like a player, draws nothing) is recorded;
    the replay reaches each of its declarations with the same generator state and fighters."""
    moments = []

    def mind(enc, c):
        if enc.round in (1, 2, 4):
            moments.append((rollout.moment(enc, c),
                            next(ch for ch in rollout.choices(enc, c) if ch.ai),
                            _snapshot(enc)))
        state = enc.rng.getstate()
        intents = profiles.decide(enc, c)
        enc.rng.setstate(state)
        return intents

    Encounter(MIRROR, ruleset, 5, minds={"West sword": mind, "East archer": mind}).run()
    assert len(moments) >= 4
    seen = []
    branch = rollout._Script._branch

    def spy(self, enc, c):
        seen.append(_snapshot(enc))
        return branch(self, enc, c)

    monkeypatch.setattr(rollout._Script, "_branch", spy)
    for m, choice, snapshot in moments:
        seen.clear()
        assert rollout.play_out(m, choice, 0) is not None
        assert seen == [snapshot]


def test_rollouts_draw_nothing_from_the_fight_and_their_dice_are_their_own():
    """The same rollout twice is the same; another index is other dice; the fight's own
    generator is where it was."""
    got = {}

    def mind(enc, c):
        state = enc.rng.getstate()
        m, choices = rollout.moment(enc, c), rollout.choices(enc, c)
        outs = [rollout.play_out(m, choices[0], i) for i in range(6)]
        got["again"] = rollout.play_out(m, choices[0], 0)
        got["outs"] = outs
        assert enc.rng.getstate() == state
        return profiles.decide(enc, c)

    Encounter(MIRROR, any_ruleset(), 3, minds={"West sword": mind}).run()
    assert got["again"] == got["outs"][0]
    assert len({o.rounds for o in got["outs"]}) > 1  # fresh dice each


def test_the_numbers_are_the_same_with_one_worker_or_two():
    def first_moment():
        found = {}

        def mind(enc, c):
            found["m"], found["ch"] = rollout.moment(enc, c), rollout.choices(enc, c)
            raise _Stop

        with pytest.raises(_Stop):
            Encounter(MIRROR, any_ruleset(), 9, minds={"East sword": mind}).run()
        return found["m"], found["ch"][:3]

    m, choices = first_moment()
    one = whatif.weigh(m, choices, 30, workers=1, bar=False)
    two = whatif.weigh(m, choices, 30, workers=2, bar=False)
    assert one == two
    assert all(w.n == 30 for w in one)
    assert [w.p_win for w in one] == sorted((w.p_win for w in one), reverse=True)


class _Stop(Exception):
    pass


def test_a_choice_missing_from_a_fights_menu_gives_no_outcome():
    m = rollout.Moment(Encounter, MIRROR, any_ruleset(), 1, "West sword", 0, 1, varied=True)
    missing = rollout.Choice("attack Nobody", "attack Nobody", False, None)
    assert rollout.play_out(m, missing, 0) is None
    here = rollout.Choice("hold", "hold", False, None)
    assert rollout.play_out(m, here, 0) is not None


def test_a_draw_or_a_cut_fight_is_scored_by_the_harm_each_side_took():
    enc = Encounter(MIRROR, any_ruleset(), 2)
    assert rollout.score(enc, "west") == pytest.approx(0.5)
    east = enc.sides["east"]
    enc.take_out(east[0], Status.DEAD)
    assert rollout.score(enc, "west") == pytest.approx(0.75)
    assert rollout.score(enc, "east") == pytest.approx(0.25)


def test_a_rollout_of_a_campaigns_later_fight_builds_it_with_the_party_carried(monkeypatch):
    """The second fight of a campaign starts from the first one's wounds: so do its
    rollouts."""
    first = Encounter(MIRROR, any_ruleset(), 8)
    first.run()
    party = {f.name: f for f in first.sides["west"]}
    assert any(first.advisor.wounded(f) for f in party.values())
    moments = []

    def mind(enc, c):
        moments.append((rollout.moment(enc, c), next(ch for ch in rollout.choices(enc, c)
                                                     if ch.ai), _snapshot(enc)))
        raise _Stop

    with pytest.raises(_Stop):
        Encounter(MIRROR, any_ruleset(), 9, minds={"West sword": mind}, carried=party).run()
    m, choice, snapshot = moments[0]
    seen = []
    branch = rollout._Script._branch

    def spy(self, enc, c):
        seen.append(_snapshot(enc))
        return branch(self, enc, c)

    monkeypatch.setattr(rollout._Script, "_branch", spy)
    rollout.play_out(m, choice, 0)
    assert seen == [snapshot]
