"""The ruleset contract: every registered ruleset, and a throwaway one, against every scenario.

Parametrized over the registry (plus ``coinflip``, a minimal ruleset written by following
docs/adding-a-ruleset.md, registered for this module only), so a new ruleset is held to the
same contract without editing this file.
"""

from __future__ import annotations

import pytest
import yaml
from coinflip import CoinFlip
from helpers import SCENARIOS, watch_declarations

from sim import scenario as scenario_mod
from sim.core.campaign import run_campaign
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario.campaign import is_campaign, load_campaign

SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
CAMPAIGN_FILES = sorted((SCENARIOS / "campaigns").glob("*.yaml"))
RULESETS = [*registry.names(), CoinFlip.name]
FIGHTS = 12  # per ruleset and scenario: enough to reach every branch of the bookkeeping
ROLL_EVENTS = {"roll", "attack"}  # the log line that shows an attack's or a pool's dice


@pytest.fixture(scope="module", autouse=True)
def coinflip_registered():
    registry.register(CoinFlip)
    yield
    registry.unregister(CoinFlip.name)


def _checked_encounter(scen, ruleset: str, seed: int, log: bool = False) -> Encounter:
    """An encounter whose ruleset is watched: declarations and threat every round."""
    enc = Encounter(scen, ruleset, seed, log=log)
    rules = enc.ruleset
    end_round = rules.end_round

    def check(e, c, intents):
        # ai.decide trims what a ruleset would ignore and says so: a profile never should
        assert "not declared under these rules" not in c.why, (c.name, c.why)
        for intent in intents:  # nothing declared that the ruleset would ignore
            assert type(intent) in rules.supports, (c.name, intent)
        if rules.max_actions is not None:
            assert len(intents) <= rules.max_actions, (c.name, intents)

    def watched_end(e):
        end_round(e)
        for c in e.combatants:
            assert 0.0 <= e.advisor.threat(c) <= 1.0, (c.name, e.advisor.threat(c))

    watch_declarations(enc, check)  # as each is made: at the round's start or at a turn
    rules.end_round = watched_end
    return enc


def _check_books(enc: Encounter) -> None:
    result = enc.run()
    assert 1 <= result.rounds <= enc.scenario.max_rounds
    assert result.winner in (None, *enc.scenario.side_names)
    for side in result.sides:
        assert 0 <= side.hits <= side.attacks, side
        assert side.standing + side.out_of_fight == side.members, side
        assert side.deaths + side.fled + side.surrendered <= side.out_of_fight, side
        assert 0 <= side.deaths_after <= side.deaths, side
        assert side.damage >= 0 and (side.hits or not side.damage), side
    for c in enc.combatants:
        assert 0.0 <= enc.advisor.threat(c) <= 1.0


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_runs_every_scenario_from_neutral_traits(ruleset, path):
    scen = scenario_mod.load(path)
    for seed in range(FIGHTS):
        _check_books(_checked_encounter(scen, ruleset, seed))


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_native_blocks_build_the_same_fighters(ruleset, path):
    """Each fighter's native block (``native_block_of``) rebuilds it exactly, and runs."""
    scen = scenario_mod.load(path)
    built = Encounter(scen, ruleset, 0).combatants
    rules = registry.get(ruleset)()
    key = rules.native_key
    if key is None:
        assert all(rules.native_block_of(c) is None for c in built)
        return
    data = yaml.safe_load(path.read_text())
    flat = [m for members in data["sides"].values() for m in members]
    by_name = {c.spec.name: c for c in built}
    for m in flat:  # one block per entry; copies of a member are built alike
        first = m["name"] if m.get("count", 1) == 1 else f"{m['name']} 1"
        m[key] = rules.native_block_of(by_name[first])
    native = scenario_mod.parse(data, str(path))
    rebuilt = Encounter(native, ruleset, 0).combatants
    assert [c.describe() for c in rebuilt] == [c.describe() for c in built]
    for seed in range(FIGHTS // 3):
        _check_books(_checked_encounter(native, ruleset, seed))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_log_declares_and_shows_rolls(ruleset):
    scen = scenario_mod.load(SCENARIOS / "ambush.yaml")
    enc = _checked_encounter(scen, ruleset, 1, log=True)
    enc.run()
    kinds = {e["type"] for e in enc.log}
    assert "declare" in kinds and kinds & ROLL_EVENTS, kinds
    assert all(isinstance(e["text"], str) and e["text"] for e in enc.log)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_fight(ruleset):
    scen = scenario_mod.load(SCENARIOS / "brawl.yaml")
    assert Encounter(scen, ruleset, 7).run() == Encounter(scen, ruleset, 7).run()


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_log_changes_nothing(ruleset, path):
    """A batch (no log) and ``fray run`` (log) of one seed give the same result.

    Rulesets skip words, roll records and the aftermath's timed rounds when no log is kept;
    none of that may change a fight.
    """
    scen = scenario_mod.load(path)
    for seed in range(40):
        assert (Encounter(scen, ruleset, seed).run()
                == Encounter(scen, ruleset, seed, log=True).run()), seed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_advisor_answers_every_question_safely(ruleset):
    """Every question the profiles may ask has an answer of the right kind."""
    scen = scenario_mod.load(SCENARIOS / "ambush.yaml")
    enc = Encounter(scen, ruleset, 3)
    adv, rules = enc.advisor, enc.ruleset
    for c in enc.combatants:
        foe = enc.enemies(c)[0]
        kind = adv.defense_kind(enc, c, ranged=foe.ranged)
        assert kind is None or (kind in ("dodge", "parry", "block")
                                and any(t.__name__ == "Defend" for t in rules.supports))
        intents, why = adv.tactical_attack(enc, c, foe)
        assert intents and all(type(i) in rules.supports for i in intents), intents
        assert isinstance(why, str)
        assert adv.extra_attacks(enc, c, foe) >= 0
        assert adv.danger(enc, c) >= 0
        waits, _ = adv.wait_intents(enc, c, [foe])
        assert all(type(i) in rules.supports for i in waits)
        assert all(type(i) in rules.supports for i in adv.while_closing(enc, c, foe))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_bundled_campaign_runs(ruleset):
    """Each bundled campaign, run through, under every ruleset: its stages and fates add up.

    Its stage files, which sit beside it, run alone as scenarios too.
    """
    campaigns = [p for p in CAMPAIGN_FILES if is_campaign(yaml.safe_load(p.read_text()))]
    assert campaigns
    for path in CAMPAIGN_FILES:
        if path not in campaigns:
            _check_books(_checked_encounter(scenario_mod.load(path), ruleset, 0))
    for path in campaigns:
        camp = load_campaign(path)
        for seed in range(FIGHTS):
            run = run_campaign(camp, ruleset, seed, log=seed == 0)
            assert 1 <= run.reached <= len(camp.stages)
            assert all(s.outcome == "won" for s in run.stages[:-1])
            roster = set(camp.roster())
            for s in run.stages:
                assert set(s.fighters) | set(s.sat_out) <= roster
                assert 0 <= s.deaths <= len(s.fighters)
            assert {n for n, _ in run.fates} <= roster
            assert 0 <= run.survivors <= len(roster)
