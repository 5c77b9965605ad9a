"""Stand-offs (``sim.ai.standoff``): when an exchange goes nowhere, and fights that end.

Hand-built encounters check the counting and each profile's patience; whole fights check the
targets (at most so many draws at the round limit, 300 fights a ruleset, the slow ones).
"""

from __future__ import annotations

import pytest
from helpers import ROOT, any_ruleset, scenario

from sim import scenario as scenario_mod
from sim.ai import standoff
from sim.ai.profiles import decide
from sim.batch.runner import BatchSpec, run_batch
from sim.core.actions import Attack, Move, Retreat
from sim.core.engine import Encounter
from sim.core.harm import Harm
from sim.rulesets import registry

RULESETS = registry.names()
CAMPS = {"nodes": {"west": {"cover": "medium"}, "mid": {}, "east": {"cover": "medium"}},
         "edges": [["west", "mid", 12], ["mid", "east", 12]]}
BOW = {"traits": {"agility": 3, "dexterity": 3}, "skills": {"ranged": 3, "dodge": 1},
       "weapon": "bow", "armor": "leather"}
SWORD = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3, "parry": 2},
         "weapon": "sword", "armor": "chain", "shield": True}


def camps(profile: str, ruleset: str | None = None) -> Encounter:
    """A sword and a bow a side, each side in its camp's cover 24 m apart."""
    sides = {side: [{"name": f"{side} bow", "at": side, "ai": profile, **BOW},
                    {"name": f"{side} sword", "at": side, "ai": profile, **SWORD}]
             for side in ("west", "east")}
    return begun(Encounter(scenario(sides, map=CAMPS), ruleset or any_ruleset(), 1))


def begun(enc: Encounter) -> Encounter:
    """The encounter started and its exchange begun in round 1 (both camps in range)."""
    enc.ruleset.start(enc)
    enc.round = 1
    assert all(standoff.contact(enc, side) == 1 for side in enc.sides)
    return enc


def member(enc: Encounter, name: str):
    return next(c for c in enc.combatants if c.name == name)


def west_hits(enc: Encounter, harm: Harm | None = None) -> None:
    """The west bow hits the east bow now, doing ``harm`` (default: two wounds, Killing or
    hit points)."""
    enc.record_hit(member(enc, "west bow"), member(enc, "east bow"),
                   Harm(2) if harm is None else harm)


def test_quiet_counts_the_rounds_finished_since_the_side_last_did_harm():
    enc = camps("tactical")
    assert standoff.quiet(enc, "west") == 0
    enc.round = 4
    assert standoff.quiet(enc, "west") == 3
    west_hits(enc)  # a damaging hit in round 4
    assert standoff.quiet(enc, "west") == 0 and standoff.quiet(enc, "east") == 3
    enc.round = 6
    assert standoff.quiet(enc, "west") == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_only_harm_that_lasts_moves_the_count(ruleset):
    """A hit armor stopped whole is no harm; a wound is, under every ruleset. What else lasts
    (Shock, worn armor) each ruleset's own folder checks (``Ruleset.harm_lasts``)."""
    enc = camps("tactical", ruleset)
    enc.round = 5
    west_hits(enc, Harm())
    assert enc.harmed_in["west"] == 0 and enc.hurt_in["east"] == 0
    west_hits(enc, Harm(1))
    assert enc.harmed_in["west"] == 5 and enc.hurt_in["east"] == 5


def test_the_count_begins_when_a_foe_is_first_within_reach():
    far = {"nodes": {"west": {}, "east": {}}, "edges": [["west", "east", 300]]}
    sides = {side: [{"name": f"{side} sword", "at": side, "ai": "tactical", **SWORD}]
             for side in ("west", "east")}
    enc = Encounter(scenario(sides, map=far), any_ruleset(), 1)
    enc.ruleset.start(enc)
    for rnd in range(1, 6):  # walking up to each other: no stand-off
        enc.round = rnd
        assert standoff.contact(enc, "west") is None and standoff.quiet(enc, "west") == 0
    east = member(enc, "east sword")
    east.pos = member(enc, "west sword").pos  # they meet in round 6
    enc.round = 6
    assert standoff.contact(enc, "west") == 6 and standoff.quiet(enc, "west") == 0
    enc.round = 9
    assert standoff.quiet(enc, "west") == 3


@pytest.mark.parametrize("profile, patience", [("basic", 3), ("aggressive", 1),
                                                ("tactical", 2), ("cautious", None),
                                                ("passive", None)])
def test_each_profile_has_its_patience(profile, patience):
    enc = camps(profile)
    bow = member(enc, "west bow")
    for rnd in range(1, 12):
        enc.round = rnd
        expected = patience is not None and rnd - 1 >= patience
        assert standoff.going_nowhere(enc, bow) is expected, (profile, rnd)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tactical_swords_screen_their_bow_then_cross_when_nothing_happens(ruleset):
    enc = camps("tactical", ruleset)
    sword = member(enc, "west sword")
    enc.round = 1
    first = decide(enc, sword)
    assert not any(type(i) is Move and i.target.side == "east" for i in first), sword.why
    enc.round = 4  # three rounds finished with no harm done by the west
    crossing = decide(enc, sword)
    assert any(type(i) is Move and i.target.side == "east" for i in crossing), sword.why
    assert "goes nowhere" in sword.why


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_sword_crosses_when_no_foe_comes_on_and_keeps_crossing(ruleset):
    enc = camps("tactical", ruleset)
    sword, foe = member(enc, "west sword"), member(enc, "east sword")
    east = enc.field.node("east")
    for rnd in (1, 2):  # the east sword stands by its bow; the west bow hurts someone
        enc.round = rnd
        west_hits(enc)
        assert standoff.held_off(enc, sword) == rnd - 1
        assert not any(type(i) is Move and i.target.side == "east"
                       for i in decide(enc, sword)), sword.why
    enc.round = 3
    west_hits(enc)  # harm done: the exchange is going somewhere
    crossing = decide(enc, sword)
    assert any(type(i) is Move and i.target.side == "east" for i in crossing), sword.why
    assert "no foe comes on" in sword.why
    foe.pos = enc.field.advance(east, enc.field.node("west"), 6.0)  # the foe sets out too
    assert standoff.held_off(enc, sword) == 0
    enc.round = 4
    west_hits(enc)
    again = decide(enc, sword)
    assert any(type(i) is Move and i.target.side == "east" for i in again), sword.why
    assert "crossing begun in round 3 goes on" in sword.why


def test_a_foe_who_comes_on_keeps_the_sword_by_its_bow():
    enc = camps("tactical")
    sword, foe = member(enc, "west sword"), member(enc, "east sword")
    foe.pos = enc.field.advance(enc.field.node("east"), enc.field.node("west"), 6.0)
    for rnd in range(1, 5):
        enc.round = rnd
        west_hits(enc)
        assert standoff.held_off(enc, sword) == 0
        assert not any(type(i) is Move and i.target.side == "east"
                       for i in decide(enc, sword)), sword.why


def test_a_shooter_with_poor_odds_closes_in_only_in_a_stand_off():
    enc = camps("aggressive")
    bow = member(enc, "west bow")
    target = member(enc, "east bow")
    assert standoff.shot_odds(enc, bow, target) < standoff.CLOSE_ODDS  # cover and range
    enc.round = 1
    assert not standoff.closes_in(enc, bow, target)
    enc.round = 3
    assert standoff.closes_in(enc, bow, target)
    intents = standoff.close_in(enc, bow, target)
    move = intents[0]
    assert type(move) is Move and move.stop_at == pytest.approx(24 - bow.speed)
    assert "closes in" in bow.why


def test_a_side_hurt_without_hurting_back_and_outshot_withdraws():
    sides = {"west": [{"name": "west bow", "at": "west", "ai": "tactical", **BOW}],
             "east": [{"name": f"east bow {k}", "at": "east", "ai": "tactical", **BOW}
                      for k in range(3)]}
    enc = begun(Encounter(scenario(sides, map=CAMPS), any_ruleset(), 1))
    west = member(enc, "west bow")
    enc.round = 5
    enc.unanswered[west] = 4  # hurt four rounds in range of the east; it never hurt back
    assert standoff.firepower(enc, "east") > standoff.OUTGUNNED * standoff.firepower(enc, "west")
    assert standoff.outgunned(enc, west)
    intents = decide(enc, west)
    assert type(intents[0]) is Retreat and "outshot" in west.why
    from sim.core.combatant import Status

    enc.take_out(member(enc, "east bow 0"), Status.UNCONSCIOUS)  # ahead: it stays
    assert not standoff.outgunned(enc, west)
    enc.bring_back(member(enc, "east bow 0"))
    assert standoff.outgunned(enc, west)
    enc.unanswered.clear()  # nobody hurt it: a quiet exchange is not a lost one
    assert not standoff.outgunned(enc, west)


def test_cautious_falls_back_when_losing_the_exchange():
    enc = camps("cautious")
    bow = member(enc, "west bow")
    enc.round = 5
    enc.unanswered[bow] = 3
    intents = decide(enc, bow)
    assert type(intents[0]) is Retreat and "losing the exchange" in bow.why
    enc.unanswered.clear()  # it hurt back: it holds its cover and shoots
    assert type(decide(enc, bow)[0]) is Attack


def test_a_fighter_waiting_for_a_foe_who_waits_too_steps_in_after_its_patience():
    enc = Encounter(scenario_mod.load(ROOT / "tests" / "data" / "mirror_duel.yaml"),
                    any_ruleset(), 1)
    sword = member(enc, "West sword")
    for rnd in (3, 4):
        enc.round = rnd
        assert standoff.waited_out(enc, sword) is None
    enc.round = 5
    assert "waited 2 rounds" in (standoff.waited_out(enc, sword) or "")
    enc.round = 7  # round 6 it did something else: the count starts again
    assert standoff.waited_out(enc, sword) is None


def test_a_cautious_fighter_waits_as_long_as_it_likes():
    enc = Encounter(scenario_mod.load(ROOT / "tests" / "data" / "mirror_duel.yaml"),
                    any_ruleset(), 1)
    sword = member(enc, "West sword")
    sword.ai = "cautious"
    for rnd in range(1, 20):
        enc.round = rnd
        assert standoff.waited_out(enc, sword) is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_two_swordsmen_do_not_stare_each_other_down_to_the_round_limit(ruleset):
    """Each lets the other come first where the rules reward it (OpenCore's bide for the
    first strike); the stare-down ends after their patience, not at the round limit."""
    scen = scenario_mod.load(ROOT / "tests" / "data" / "mirror_duel.yaml")
    at_limit = sum(Encounter(scen, ruleset, seed).run().rounds >= scen.max_rounds
                   for seed in range(20))
    assert at_limit <= 1, at_limit


# ---------------------------------------------------------------------------- whole fights
def draws(name: str, ruleset: str, n: int = 300) -> tuple[int, int]:
    spec = BatchSpec(scenario_mod.load(ROOT / "scenarios" / name), ruleset, n, seed=1, workers=1)
    return run_batch(spec, None)["outcomes"].get("draw", 0), n




@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_mirror_shoot_out_ends_before_the_round_limit(ruleset):
    drawn, n = draws("shootout.yaml", ruleset)
    assert drawn / n <= 0.10, drawn / n


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_knight_and_the_poachers_end_before_the_round_limit(ruleset):
    drawn, n = draws("poachers.yaml", ruleset)
    assert drawn / n <= 0.15, drawn / n


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_farmstead_skirmish_ends_before_the_round_limit(ruleset):
    drawn, n = draws("neutral_skirmish.yaml", ruleset)
    assert drawn / n <= 0.10, drawn / n
