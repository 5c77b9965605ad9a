"""The ruleset contract: every registered ruleset, and a throwaway one, against every duty.

Parametrized over the registry (plus ``coinflip``, a small ruleset written by following
docs/adding-a-ruleset.md, registered for this module only), so a new ruleset is held to the
same contract without editing this file. The checks themselves are in ``contract.py``;
``test_contract_catches.py`` shows each one failing on a planted mistake.
"""

from __future__ import annotations

import contract
import contract_play
import pytest
import yaml
from contract import (
    FIGHTS,
    check_armor_order,
    check_books,
    check_conversion,
    check_log,
    check_move_wording,
    check_native_blocks,
    check_natural_weapons,
    check_registers,
    check_reload,
    check_reload_together,
    check_retreat,
    check_scenario,
    check_weapon_names,
    checked_encounter,
)
from contract_play import (
    check_attack_odds,
    check_cover,
    check_fallen_foe,
    check_fighters_die,
    check_legend,
)
from helpers import ROOT, SCENARIOS

from sim import scenario as scenario_mod
from sim.core.campaign import run_campaign
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario.campaign import is_campaign, load_campaign

SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
CAMPAIGN_FILES = sorted((SCENARIOS / "campaigns").glob("*.yaml"))
COINFLIP = "coinflip"
RULESETS = [*registry.names(), COINFLIP]


@pytest.fixture(scope="module", autouse=True)
def coinflip_registered():
    """The throwaway ruleset registers itself on import; it leaves with this module."""
    from coinflip import CoinFlip

    registry.register(CoinFlip)  # again, if another module's test unregistered it
    yield
    registry.unregister(CoinFlip.name)


@pytest.mark.parametrize("module", [*registry.BUILTIN, "coinflip"])
def test_each_builtin_module_registers_a_ruleset(module):
    check_registers(module)


@pytest.mark.parametrize("weapon", ["sword", "unarmed"])
@pytest.mark.parametrize("ruleset", registry.names())
def test_each_ruleset_checks_its_conversion_of_the_neutral_hero(ruleset, weapon):
    """Run by the check its own test folder ships (``support.py``); the throwaway coinflip,
    one module with no folder, converts endurance to hit points and no more."""
    check_conversion(ruleset, weapon)


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_runs_every_scenario_from_neutral_traits(ruleset, path):
    check_scenario(ruleset, path)


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_native_blocks_build_the_same_fighters(ruleset, path):
    check_native_blocks(ruleset, path)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_retreat_is_carried_out(ruleset):
    check_retreat(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_move_to_a_place_names_the_place(ruleset):
    check_move_wording(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_log_declares_shows_rolls_and_holds_to_the_schema(ruleset):
    check_log(ruleset)


@pytest.mark.parametrize("profile", ["basic", "aggressive", "tactical"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_crossbow_shoots_at_most_every_other_round(ruleset, profile):
    check_reload(ruleset, profile)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_crossbows_shooting_together_reload_too(ruleset):
    check_reload_together(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bow_is_the_short_bow_and_every_ranged_weapon_shoots(ruleset):
    check_weapon_names(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_beasts_fight_with_natural_weapons(ruleset):
    check_natural_weapons(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_armor_keeps_its_order(ruleset):
    check_armor_order(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_log_has_a_legend(ruleset):
    check_legend(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_odds_are_chances_not_percent(ruleset):
    check_attack_odds(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fallen_foe_is_not_struck(ruleset):
    check_fallen_foe(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cover_turns_shots(ruleset):
    check_cover(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fighters_can_die(ruleset):
    check_fighters_die(ruleset)


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
            check_books(checked_encounter(scenario_mod.load(path), ruleset, 0))
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


def test_the_guide_names_every_test_that_reads_the_registry():
    """docs/adding-a-ruleset.md lists the duties a new ruleset meets: every test file that
    runs over ``registry.names()`` (bar the ruleset folders' own, the registry's and the
    helpers that pick a ruleset for a test) is named there, so a duty added to the suite is
    added to the guide too."""
    guide = (ROOT / "docs" / "adding-a-ruleset.md").read_text()
    own = ROOT / "tests" / "rulesets"
    missing = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests").rglob("*.py"))
               if "registry.names()" in p.read_text() and p.parent.parent != own
               and p.name not in ("contract.py", "regression.py", "test_registry.py",
                                  "helpers.py")
               and f"{p.name}`" not in guide]
    assert not missing, f"docs/adding-a-ruleset.md does not name {missing}"


def test_the_guide_names_every_check_of_the_contract():
    """Each duty ``contract.py`` and ``contract_play.py`` check is named in the guide's table
    of duties, so a newcomer reading docs/adding-a-ruleset.md alone learns every one the
    contract holds it to."""
    guide = (ROOT / "docs" / "adding-a-ruleset.md").read_text()
    checks = [name for module in (contract, contract_play) for name in dir(module)
              if name.startswith("check_")]
    assert checks
    missing = [name for name in checks if f"`{name}`" not in guide]
    assert not missing, f"docs/adding-a-ruleset.md does not name {missing}"
