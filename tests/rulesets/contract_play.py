"""More of the ruleset contract: what a player, a game master and the AI read of a ruleset.

The legend that tells a newcomer how to read the log; odds given as chances, not percent;
a foe already out of the fight that an attack neither counts against nor kills; cover that
turns shots; fighters that can die. Each ``check_*`` runs on a ruleset by its registry name
and fails with an ``AssertionError`` that says which duty; ``test_contract.py`` runs them
over the registry and ``coinflip``, ``test_contract_catches.py`` plants each mistake in a
copy of ``coinflip`` and sees the check fail. All are fast: a few dozen short fights.
"""

from __future__ import annotations

from helpers import SCENARIOS, scenario, watch_declarations

from sim import scenario as scenario_mod
from sim.core.actions import Attack
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario.specs import Scenario

LEGEND_LEAST = 40  # characters: a sentence at least, not a placeholder


def check_legend(ruleset: str) -> None:
    """The ruleset's ``legend`` says how to read its notation, at the top of every solo log.

    The base class's is empty; the engine prints it after the roster (``core/events.py``).
    """
    legend = registry.get(ruleset).legend.strip()
    assert len(legend) >= LEGEND_LEAST, (
        f"{ruleset}: no legend ({legend!r}): set the class attribute `legend` to how its "
        "log's dice and numbers read")


# ---------------------------------------------------------------------------- odds
ODDS_SCENARIOS = ("duel.yaml", "ambush.yaml", "neutral_skirmish.yaml")
ODDS_SEEDS = 3


def check_attack_odds(ruleset: str) -> None:
    """``attack_odds`` and ``harm_odds`` are chances in [0, 1], never percent.

    Asked at every declaration of a few fights, of each foe the fighter could attack (a
    player's menu shows them, the AI weighs by them); None (the ruleset does not say) is
    allowed for ``attack_odds``.
    """
    seen = 0

    def check(enc, c, intents):
        nonlocal seen
        adv = enc.advisor
        for foe in enc.enemies(c):
            attack = [Attack(foe)]
            odds = adv.attack_odds(enc, c, attack)
            if odds is not None:
                seen += 1
                assert 0.0 <= odds <= 1.0, (
                    f"{ruleset}: attack_odds of {c.name} on {foe.name} is {odds}: a chance "
                    "in [0, 1], not percent")
            for label, p in adv.harm_odds(enc, c, attack):
                assert 0.0 <= p <= 1.0, (
                    f"{ruleset}: harm_odds {label!r} of {c.name} on {foe.name} is {p}: a "
                    "chance in [0, 1], not percent")

    for name in ODDS_SCENARIOS:
        scen = scenario_mod.load(SCENARIOS / name)
        for seed in range(ODDS_SEEDS):
            enc = Encounter(scen, ruleset, seed)
            watch_declarations(enc, check)
            enc.run()
    assert seen or registry.get(ruleset).Advisor.attack_odds.__qualname__.startswith(
        "Advisor."), f"{ruleset}: an attack_odds that never answered"


# ---------------------------------------------------------------------------- the fallen
FALLEN_MAP = {"nodes": {"yard": {}, "far": {}}, "edges": [["yard", "far", 1000]]}
FALLEN_FIGHTS = 6


def check_fallen_foe(ruleset: str) -> None:
    """An attack on a foe already out of the fight is not counted and harms it not.

    RULES.md "Out of the fight": nobody fights on against the fallen. A striker whose mind
    attacks a foe knocked out before the first round, beside it, for a few rounds (the
    foe's one standing friend a kilometre off keeps the fight going): no attack counted
    (``enc.finds_down`` fizzles it, or the ruleset turns it on a foe in reach), the fallen
    foe's state and status unchanged (an unconscious fighter killed by a blow it should
    never have taken is the mistake).
    """
    striker = {"name": "Striker", "at": "yard", "weapon": "greatsword",
               "traits": {"strength": 5, "agility": 4, "dexterity": 4},
               "skills": {"melee": 5}}
    fallen = {"name": "Fallen", "at": "yard", "ai": "passive"}
    friend = {"name": "Friend", "at": "far", "ai": "passive"}
    scen = scenario({"a": [striker], "b": [fallen, friend]}, map=FALLEN_MAP, max_rounds=4)

    def strike(enc, c):
        c.why = "strikes the fallen"
        return [Attack(enc.sides["b"][0])]

    for seed in range(FALLEN_FIGHTS):
        enc = Encounter(scen, ruleset, seed, minds={"Striker": strike})
        down = enc.sides["b"][0]
        enc.take_out(down, Status.UNCONSCIOUS, "down before the fight")
        before = down.state()
        enc.run()
        hitter = enc.sides["a"][0]
        assert hitter.attacks == 0, (
            f"{ruleset}: {hitter.attacks} attacks counted on a foe already out of the fight: "
            "begin an attack with `if enc.finds_down(f, target): return`")
        assert down.status is Status.UNCONSCIOUS and down.state() == before, (
            f"{ruleset}: a foe out of the fight was struck ({before} -> {down.state()}, "
            f"{down.status.value})")


# ---------------------------------------------------------------------------- cover
ARCHER = {"name": "Archer", "at": "butt", "ai": "basic", "weapon": "bow",
          "traits": {"agility": 3, "dexterity": 3, "perception": 3}, "skills": {"ranged": 3}}
# in chain, not plate: an ORE shortbow's 3 dice in heavy cover cannot mark plate, and a
# shooter that cannot harm its target does not shoot it (``standoff.harmless``)
BUTT = {"name": "Butt", "ai": "passive", "at": "range", "armor": "chain",
        "traits": {"endurance": 5, "strength": 5}}
COVER_FIGHTS = 40
# a target in heavy cover must be hit at most this share as often as one in the open
# (measured over these seeds: ORE and B-Grade 0.4, OpenD6 0.3, OpenCore 0.7, coinflip 0.5)
COVER_MOST = 0.85


def first_side_books(scen: Scenario, ruleset: str, fights: int) -> tuple[int, int, int]:
    """The attacks, hits and damage of the scenario's first side over ``fights`` seeds."""
    attacks = hits = damage = 0
    for seed in range(fights):
        side = Encounter(scen, ruleset, seed).run().sides[0]
        attacks, hits, damage = attacks + side.attacks, hits + side.hits, damage + side.damage
    return attacks, hits, damage


def shot_hit_rate(ruleset: str, cover: str) -> float:
    """Hits per shot of an archer on a passive man 8 m off, standing in ``cover``."""
    range_map = {"nodes": {"butt": {}, "range": {"cover": cover}},
                 "edges": [["butt", "range", 8]]}
    scen = scenario({"a": [ARCHER], "b": [BUTT]}, map=range_map, max_rounds=5)
    attacks, hits, _ = first_side_books(scen, ruleset, COVER_FIGHTS)
    assert attacks, f"{ruleset}: an archer 8 m from a passive man never shot"
    return hits / attacks


def check_cover(ruleset: str) -> None:
    """Cover turns shots (RULES.md; each ruleset keys its ranged modifiers by ``Cover``).

    An archer's hits per shot on a man in heavy cover are at most ``COVER_MOST`` of those on
    the same man in the open, over the same seeds.
    """
    open_, covered = shot_hit_rate(ruleset, "none"), shot_hit_rate(ruleset, "heavy")
    assert covered <= COVER_MOST * open_, (
        f"{ruleset}: heavy cover is hit {covered:.2f} a shot, the open {open_:.2f}: cover "
        "must turn shots (enc.field.cover(target.pos))")


# ---------------------------------------------------------------------------- deaths
DEATH_FIGHTS = 20


def check_fighters_die(ruleset: str) -> None:
    """Let fighters die: a greatsword master kills a hardy, passive, unarmored man in some
    of twenty fights (the AI's caution is measured in deaths; a ruleset that only ever
    knocks out hides it)."""
    brute = {"name": "Brute", "weapon": "greatsword",
             "traits": {"strength": 5, "endurance": 4}, "skills": {"melee": 5}}
    dummy = {"name": "Dummy", "ai": "passive", "traits": {"strength": 5, "endurance": 5}}
    scen = scenario({"a": [brute], "b": [dummy]}, max_rounds=40)
    deaths = sum(Encounter(scen, ruleset, seed).run().sides[1].deaths
                 for seed in range(DEATH_FIGHTS))
    assert deaths, (f"{ruleset}: no death in {DEATH_FIGHTS} fights of a greatsword master on "
                    "a passive man: take a fighter out Status.DEAD when its harm kills")
