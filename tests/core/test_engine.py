"""The engine: morale, taking out and bringing back, effects, simultaneous actions."""

from helpers import SCENARIOS, any_ruleset, scenario

from sim import scenario as scenario_mod
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets import registry


def four_a_side(morale, b_at="field", **top):
    a = {"name": "A", "count": 4, "weapon": "sword",
         "ai": {"profile": "basic", "morale": morale}}
    b = {"name": "B", "count": 4, "weapon": "sword", "at": b_at}
    return scenario({"a": [a], "b": [b]}, **top)


def test_morale_breaks_at_the_threshold_and_surrenders_when_engaged():
    enc = Encounter(four_a_side(0.5), any_ruleset(), seed=1)
    a = enc.sides["a"]
    enc.take_out(a[0], Status.DEAD)
    enc.check_morale()
    assert all(m.in_fight for m in a[1:])  # 1 of 4 down: below 0.5
    enc.take_out(a[1], Status.DEAD)
    enc.check_morale()  # 2 of 4: the rest break; a foe is in reach, so they surrender
    assert [m.status for m in a[2:]] == [Status.SURRENDERED, Status.SURRENDERED]
    assert enc.sides_left == 1


def test_morale_flees_when_no_foe_is_in_reach():
    # (room behind both camps: neither is the map's edge, ``space.off_the_edge``)
    scen = four_a_side(0.25, b_at="far", map={
        "nodes": {"near": {}, "far": {}, "back": {}, "beyond": {}},
        "edges": [["back", "near", 40], ["near", "far", 30], ["far", "beyond", 40]]})
    enc = Encounter(scen, any_ruleset(), seed=1)
    enc.take_out(enc.sides["a"][0], Status.DEAD)
    enc.check_morale()
    # RULES.md "Flight takes time": they run, in the fight until they get away
    assert all(m.fleeing and m.in_fight for m in enc.sides["a"][1:])
    enc.escapes()  # 30 m from every foe is not beyond the escape distance
    assert all(m.in_fight for m in enc.sides["a"][1:])
    for m in enc.sides["b"]:
        m.pos = enc.field.node("near")
    for m in enc.sides["a"][1:]:
        m.pos = enc.field.node("far")
    enc.escapes()  # (now 30 m apart the other way round: still not beyond)
    assert all(m.in_fight for m in enc.sides["a"][1:])


def test_fled_and_surrendered_are_counted_apart_from_deaths():
    scen = four_a_side(0.5)
    totals = {"deaths": 0, "surrendered": 0, "fled": 0, "out": 0}
    for seed in range(60):
        side = Encounter(scen, any_ruleset(), seed).run().sides[0]
        totals["deaths"] += side.deaths
        totals["surrendered"] += side.surrendered
        totals["fled"] += side.fled
        totals["out"] += side.out_of_fight
        assert side.deaths + side.surrendered + side.fled <= side.out_of_fight
    assert totals["surrendered"] > 0 and totals["deaths"] > 0


def test_no_morale_means_fighting_to_the_last():
    enc = Encounter(four_a_side(None), any_ruleset(), seed=1)
    for m in enc.sides["a"][:3]:
        enc.take_out(m, Status.DEAD)
    enc.check_morale()
    assert enc.sides["a"][3].in_fight


def test_bring_back_restores_the_side_count():
    enc = Encounter(four_a_side(None), any_ruleset(), seed=1)
    b = enc.sides["b"]
    for m in b:
        enc.take_out(m, Status.UNCONSCIOUS)
    assert enc.sides_left == 1 and enc.sides_standing() == ["a"]
    enc.bring_back(b[0])
    assert enc.sides_left == 2 and b[0].in_fight and b[0].out_round == 0
    enc.take_out(b[1], Status.DEAD)
    enc.bring_back(b[1])  # the dead stay dead
    assert not b[1].in_fight


def test_effects_are_interrupted_when_taken_out_unless_persistent():
    enc = Encounter(four_a_side(None), any_ruleset(), seed=1)
    c = enc.sides["a"][0]
    ticks = {"stun": 0, "bleed": 0}

    def effect(name):
        def run():
            while True:
                yield enc.env.timeout(1)
                ticks[name] += 1
        return run

    enc.start_effect(c, effect("stun"))
    enc.start_effect(c, effect("bleed"), persistent=True)
    enc.env.run(until=2.5)
    enc.take_out(c, Status.UNCONSCIOUS)
    enc.env.run(until=5.5)
    assert ticks == {"stun": 2, "bleed": 5}  # the stun stopped, the bleeding went on
    enc.take_out(c, Status.DEAD)
    enc.env.run(until=9.5)
    assert ticks["bleed"] == 5  # death ends everything


def test_result_counts_and_winner():
    fighter = {"count": 4, "weapon": "sword", "skills": {"melee": 3},
               "traits": {"strength": 3, "endurance": 3}}
    scen = scenario({"a": [{"name": "A", **fighter}], "b": [{"name": "B", **fighter}]},
                    max_rounds=40)
    winners = set()
    for seed in range(20):
        result = Encounter(scen, any_ruleset(), seed=seed).run()
        standing = {s.name: s.standing for s in result.sides}
        winners.add(result.winner)
        if result.winner is None:  # a draw: both sides still up at max_rounds, or none
            assert all(standing.values()) or not any(standing.values())
        else:
            loser = "b" if result.winner == "a" else "a"
            assert standing[result.winner] > 0 and standing[loser] == 0
        for side in result.sides:
            assert side.members == 4
            assert side.out_of_fight == len(side.out_rounds) == 4 - side.standing
    assert {"a", "b"} <= winners  # even sides: each wins some


def test_every_ruleset_counts_damage_dealt_by_hits():
    from sim import scenario as scenario_mod
    from sim.rulesets import registry

    duel = scenario_mod.load(str(SCENARIOS / "duel.yaml"))
    for name in registry.names():
        hits = damage = 0
        for seed in range(40):
            for side in Encounter(duel, name, seed).run().sides:
                hits += side.hits
                damage += side.damage
        assert hits > 0 and damage > 0, name
        assert damage >= hits * 0.2, name  # most hits do some harm in a sword duel


def test_every_ruleset_runs_a_scenario_with_every_kind_of_native_block():
    from helpers import support

    from sim.rulesets import registry

    # each ruleset's folder gives one (tests/rulesets/<folder>/support.py: NATIVE_BLOCK)
    blocks = {registry.get(name).native_key: support(name).NATIVE_BLOCK
              for name in registry.names()}
    a = {"name": "A", "weapon": "sword", **blocks}
    scen = scenario({"a": [a], "b": [{"name": "B", "weapon": "club"}]})
    hash(scen)  # frozen all the way down: members are cache keys for the conversions
    for name in registry.names():
        assert Encounter(scen, name, 1).run().rounds >= 1, name


def test_the_log_says_in_range_for_shooters_and_in_reach_for_melee():
    from sim.ai.profiles import decide

    scen = scenario({"a": [{"name": "Archer", "weapon": "bow"},
                           {"name": "Swordsman", "weapon": "sword"}],
                     "b": [{"name": "B", "weapon": "bow"}]})  # (fists would press the archer)
    enc = Encounter(scen, any_ruleset(), 0)
    archer, swordsman, _ = enc.combatants
    decide(enc, archer)
    decide(enc, swordsman)
    assert archer.why == "B in range" and swordsman.why == "B in reach"


def test_the_legend_says_what_the_logs_times_are():
    """``[ 1.67s]`` is read by newcomers: the legend says it is seconds into the round."""
    from sim.rulesets import registry

    for name in registry.names():
        enc = Encounter(scenario_mod.load(SCENARIOS / "duel.yaml"), name, 1, log=True)
        enc.run()
        legend = next(e["text"] for e in enc.log if e["type"] == "legend")
        spr = enc.ruleset.seconds_per_round
        assert f"is seconds into the round (a round is {spr:g} s)" in legend, name


def test_a_move_tells_the_distance_at_the_end_of_its_instant():
    # two fighters moving in one instant: the first one's line said how far its foe stood
    # before the foe's own move in that same instant (8.0 m where they ended 2.0 m apart)
    import re

    from sim.core.battlefield import Position
    skirmish = scenario_mod.load(str(SCENARIOS / "neutral_skirmish.yaml"))
    checked = 0
    for ruleset in registry.names():
        for seed in range(1, 6):
            enc = Encounter(skirmish, ruleset, seed, log=True)
            enc.run()
            field, index = enc.field, {name: k for k, name in enumerate(enc.field.names)}

            def position(place, index=index):
                if "node" in place:
                    return Position(index[place["node"]], index[place["node"]], 0.0)
                return Position(index[place["from"]], index[place["toward"]], place["m"])

            at = {c.name: None for c in enc.combatants}
            instant, moves = None, []
            for event in [*enc.log, {"round": None, "t": None}]:
                if (event.get("round"), event.get("t")) != instant:  # the instant is over
                    for who, target, told in moves:
                        gap = field.distance(position(at[who]), position(at[target]))
                        assert abs(gap - told) < 0.05, (ruleset, seed, who, target, told, gap)
                        checked += 1
                    instant, moves = (event.get("round"), event.get("t")), []
                at.update(event.get("positions", {}))
                found = re.search(r"^(.+) moves to .* \((\d+\.\d) m from (.+)\)\.$",
                                  event.get("text", ""))
                if event.get("type") == "move" and found and found.group(3) in at:
                    moves.append((found.group(1), found.group(3), float(found.group(2))))
    assert checked > 50


def test_a_draw_says_whether_the_round_limit_came_or_nobody_was_left():
    # "Draw after 20 rounds." did not say which
    scen = scenario({"a": [{"name": "A", "ai": "passive"}],
                     "b": [{"name": "B", "ai": "passive"}]}, max_rounds=2)
    enc = Encounter(scen, any_ruleset(), seed=1, log=True)
    assert enc.run().winner is None
    end = next(e for e in enc.log if e["type"] == "end")
    assert end["text"] == ("Draw after 2 rounds: the round limit, with more than one side "
                           "still in the fight.")
