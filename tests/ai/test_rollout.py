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
from sim.ai import profiles, ranking, rollout, whatif
from sim.cli import whatif as printed
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets import registry

MIRROR = scenario_mod.load(ROOT / "tests" / "data" / "mirror_2v2.yaml")
DUEL = scenario_mod.load(ROOT / "tests" / "data" / "mirror_duel.yaml")


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
    branch = rollout.Script._branch

    def spy(self, enc, c):
        seen.append(_snapshot(enc))
        return branch(self, enc, c)

    monkeypatch.setattr(rollout.Script, "_branch", spy)
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
    one = whatif.weigh(m, choices, 30, workers=1)
    two = whatif.weigh(m, choices, 30, workers=2)
    assert one == two
    assert all(w.n == 30 for w in one)
    behind = [w.p_win for w in one if not w.best]
    assert behind == sorted(behind, reverse=True)


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
    branch = rollout.Script._branch

    def spy(self, enc, c):
        seen.append(_snapshot(enc))
        return branch(self, enc, c)

    monkeypatch.setattr(rollout.Script, "_branch", spy)
    rollout.play_out(m, choice, 0)
    assert seen == [snapshot]


def _first_menu(ruleset: str) -> tuple[rollout.Moment, list[rollout.Choice]]:
    found = {}

    def mind(enc, c):
        found["m"], found["ch"] = rollout.moment(enc, c), rollout.choices(enc, c)
        raise _Stop

    with pytest.raises(_Stop):
        Encounter(DUEL, ruleset, 9, minds={"East sword": mind}).run()
    return found["m"], found["ch"]


def test_a_race_stops_a_choice_clearly_behind_and_weighs_the_profiles_to_the_end():
    """Yielding at the first menu loses every rollout: it stops at the screen (``SCREEN``
    rollouts); the profile's choice has them all, one worker or two alike."""
    m, menu = _first_menu(any_ruleset())
    choices = [ch for ch in menu if ch.ai or ch.key.startswith("yield")]
    assert len(choices) == 2
    one = whatif.weigh(m, choices, 100, workers=1)
    two = whatif.weigh(m, choices, 100, workers=2)
    assert one == two
    by_key = {w.choice.key.split()[0]: w for w in one}
    assert by_key["yield"].planned == by_key["yield"].n == whatif.SCREEN
    assert by_key["yield"].screened and not by_key["yield"].best
    ai = next(w for w in one if w.choice.ai)
    assert ai.planned == ai.n == 100 and ai.best and not ai.screened
    text = printed.table(one, "east", "East sword", 100)
    assert "(screened)" in text and "1 of 2 lines had only the screen's 20 rollouts" in text
    assert [o["stopped"] for o in printed.as_json(one)["options"]] == [False, True]
    full = whatif.weigh(m, choices, 100, workers=1, race=False)
    assert all(w.planned == w.n == 100 for w in full)
    assert next(w for w in full if w.choice.ai).wins == ai.wins  # the same rollouts
    assert "screened" not in printed.table(full, "east", "East sword", 100)


def _outcomes(wins: list[int]) -> list[rollout.Outcome | None]:
    return [rollout.Outcome(bool(w), True, 1, float(w)) for w in wins]


def test_a_line_stops_only_when_it_could_not_be_as_good_as_the_one_ahead():
    ahead = rollout.Choice("a", "a", False, None)
    close = rollout.Choice("b", "b", False, None)
    far = rollout.Choice("c", "c", False, None)
    profile = rollout.Choice("d", "d", True, None)
    wins = [1, 1, 0, 1] * 10  # 30 of 40
    found = {0: _outcomes(wins), 1: _outcomes(wins[:-2] + [0, 0]),  # 2 wins fewer
             2: _outcomes([0] * 40), 3: _outcomes([0] * 40)}  # 30 fewer
    kept = whatif.survivors([ahead, close, far, profile], found, [0, 1, 2, 3])
    assert kept == [0, 1, 3]  # the profile's choice stays, however far behind
    # a rollout that never reached a line pairs with nothing: too few pairs to stop it
    assert ranking.could_be_best([None] * 40, found[0])


def test_a_line_on_few_fights_menus_neither_leads_nor_stops_others():
    """``fray advise``: a line offered in 2 fights of 40 and winning both is not the one
    ahead (it has too few rollouts to judge), so a line that lost those 2 is not stopped."""
    rare = rollout.Choice("a", "a", False, None)
    common = rollout.Choice("b", "b", False, None)
    lucky = _outcomes([1, 1]) + [None] * 38
    found = {0: lucky, 1: _outcomes([0, 0] + [1, 0] * 19)}
    assert whatif.survivors([rare, common], found, [0, 1]) == [0, 1]
