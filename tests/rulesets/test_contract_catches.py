"""The contract can fail: each known mistake, planted in a copy of ``coinflip``, is caught.

A mistake is a text edit of coinflip.py (each edit must find its text, so a change to the
throwaway ruleset cannot quietly disarm a test here); the copy is registered under a name of
its own, run through one check of ``contract.py``, and unregistered. The same checks pass on
the unchanged copy (``test_the_unchanged_copy_passes``), so a failure is the mistake's.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from contract import (
    check_armor_order,
    check_native_blocks,
    check_registers,
    check_retreat,
    check_scenario,
)
from contract_play import (
    check_attack_odds,
    check_cover,
    check_fallen_foe,
    check_fighters_die,
    check_legend,
)
from helpers import SCENARIOS

from sim.rulesets import registry

COINFLIP = Path(__file__).with_name("coinflip.py")
_copies = itertools.count()

# each mistake: its edits of coinflip.py, and the check that must fail on it
FORGOTTEN_REGISTER = [("@register\nclass CoinFlip", "class CoinFlip")]
WRONG_BLOCK_NO_DESCRIBE = [
    ('    def describe(self) -> str:\n        return f"HP {self.max_hp}" + '
     '(", reloads" if self.reloads else "")\n\n', ""),
    ('return {"hp": f.max_hp}', 'return {"hp": f.max_hp + 1}'),
]
INCOMPLETE_BLOCK = [
    ("hp: int = Field(ge=1)", "hp: int | None = None"),
    ("block.hp if block is not None else", "block.hp if block and block.hp else"),
    ('return {"hp": f.max_hp}', "return {}"),
]
IGNORED_RETREAT = [("self.move_to(enc, f, intent, f.speed)", "pass")]
ARMOR_IGNORED = [("        turned = heads and roll(enc.rng, 6) <= target.soak\n",
                  "        turned = False\n")]
HP_NEVER_DROPS = [("            target.hp -= 1\n", "")]
ATTACKS_NEVER_COUNTED = [("        enc.record_attack(f)\n", "")]
ONLY_HITS_COUNTED = [("        enc.record_attack(f)\n", ""),
                     ("            target.hp -= 1\n", "            target.hp -= 1\n"
                      "            enc.record_attack(f)\n")]
NO_BOOKS_AT_ALL = [("        enc.record_attack(f)\n", ""),
                   ("            enc.record_hit(f, target, Harm(1))\n", "")]
# the four a trial of the guide planted and no fast test caught (issue 47), and one more
NO_LEGEND = [('    legend = ("Reading the log', '    forgotten = ("Reading the log')]
ODDS_IN_PERCENT = [("        return chance\n", "        return 100 * chance\n")]
FALLEN_FOE_STRUCK = [("        elif intent.target.in_fight:\n            self.flip(",
                      "        else:\n            self.flip(")]
COVER_IGNORED = [("    return COVER_SOAK[enc.field.cover(target.pos)]\n", "    return 0\n")]
NOBODY_DIES = [('enc.take_out(target, Status.DEAD, "heads")',
                'enc.take_out(target, Status.UNCONSCIOUS, "heads")')]


def plant(edits: list[tuple[str, str]], tmp_path: Path) -> tuple[str, str]:
    """Import a copy of coinflip.py with ``edits`` made; returns (module, ruleset name)."""
    text = COINFLIP.read_text()
    for old, new in edits:
        assert text.count(old) == 1, f"coinflip.py no longer holds {old!r}: update the test"
        text = text.replace(old, new)
    k = next(_copies)
    name, module = f"coinflip-mistake-{k}", f"coinflip_mistake_{k}"
    text = text.replace('name = "coinflip"', f'name = "{name}"')
    text = text.replace('aliases = ("coin",)', "aliases = ()")
    path = tmp_path / f"{module}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(module, path)
    assert spec is not None and spec.loader is not None
    sys.modules[module] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sys.modules[module])
    return module, name


@pytest.fixture
def planted(tmp_path) -> Iterator[Callable[[list[tuple[str, str]]], tuple[str, str]]]:
    """Plant mistakes in copies of coinflip; every copy leaves the registry afterwards."""
    made: list[tuple[str, str]] = []

    def make(edits):
        made.append(plant(edits, tmp_path))
        return made[-1]

    yield make
    for module, name in made:
        registry.unregister(name)
        sys.modules.pop(module, None)


def test_the_unchanged_copy_passes(planted):
    module, name = planted([])
    check_registers(module)
    check_native_blocks(name, SCENARIOS / "ambush.yaml")
    check_retreat(name)
    check_scenario(name, SCENARIOS / "brawl.yaml")
    check_legend(name)
    check_attack_odds(name)
    check_fallen_foe(name)
    check_cover(name)
    check_fighters_die(name)


def test_a_forgotten_register_is_caught(planted):
    module, _ = planted(FORGOTTEN_REGISTER)
    with pytest.raises(AssertionError, match="registers no ruleset"):
        check_registers(module)


def test_a_wrong_block_without_describe_is_caught(planted):
    """``describe()`` left as the base's (the status alone): the block is compared field by
    field, not by the roster line."""
    _, name = planted(WRONG_BLOCK_NO_DESCRIBE)
    with pytest.raises(AssertionError, match="its native block rebuilds it with other hp, max_hp"):
        check_native_blocks(name, SCENARIOS / "duel.yaml")


def test_an_incomplete_block_is_caught(planted):
    """A block that leaves the hit points to the neutral traits rebuilds the fighter only
    while the traits stay as they were."""
    _, name = planted(INCOMPLETE_BLOCK)
    with pytest.raises(AssertionError, match="its native block rebuilds it"):
        check_native_blocks(name, SCENARIOS / "duel.yaml")


def test_an_ignored_retreat_is_caught(planted):
    _, name = planted(IGNORED_RETREAT)
    with pytest.raises(AssertionError, match="Retreat"):
        check_retreat(name)


def test_ignored_armor_is_caught(planted):
    """A catalog that leaves armor out: every armor lets through the harm of none."""
    _, name = planted(ARMOR_IGNORED)
    with pytest.raises(AssertionError, match="armor must keep its order"):
        check_armor_order(name)


def test_hit_points_that_never_drop_are_caught(planted):
    _, name = planted(HP_NEVER_DROPS)
    with pytest.raises(AssertionError, match="harmed no one"):
        check_scenario(name, SCENARIOS / "duel.yaml")


@pytest.mark.parametrize("edits", [ATTACKS_NEVER_COUNTED, ONLY_HITS_COUNTED, NO_BOOKS_AT_ALL],
                         ids=["never", "only-hits", "no-books"])
def test_attacks_not_counted_as_made_are_caught(planted, edits):
    _, name = planted(edits)
    with pytest.raises(AssertionError):
        check_scenario(name, SCENARIOS / "duel.yaml")



@pytest.mark.parametrize("edits, check, says", [
    (NO_LEGEND, check_legend, "no legend"),
    (ODDS_IN_PERCENT, check_attack_odds, "not percent"),
    (FALLEN_FOE_STRUCK, check_fallen_foe, "already out of the fight"),
    (COVER_IGNORED, check_cover, "cover must turn shots"),
    (NOBODY_DIES, check_fighters_die, "no death"),
], ids=["no-legend", "odds-in-percent", "fallen-foe-struck", "cover-ignored", "nobody-dies"])
def test_what_a_trial_of_the_guide_slipped_past_is_caught(planted, edits, check, says):
    """The four mistakes no fast test caught in a trial of docs/adding-a-ruleset.md (no
    legend, odds in percent, an attack on a fallen foe counted and able to kill, cover
    ignored), and a ruleset where nobody dies."""
    _, name = planted(edits)
    with pytest.raises(AssertionError, match=says):
        check(name)
