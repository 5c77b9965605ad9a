"""OpenD6 points on dodge, parry and block (RULES.md, amended: a point on any roll).

The exact case of issue 47: a 5D attack against a 5D dodge hits 0.525 of the time, 0.358
with a character point on the dodge; the dodge then rolls 6D. The AI spends by the worth of
a point (``points.defense_point``); a player is asked (``Encounter.yes_or_no``).
"""

from __future__ import annotations

import pytest
from helpers import TRUNCATION_MASS, StubRandom, faces, opend6_exact_roll
from opend6_helpers import duel, member

from sim.core.actions import Defend, TimedAction
from sim.core.combatant import Status
from sim.core.doctrine import Policy
from sim.rulesets.opend6 import odds, points


def test_a_character_point_on_a_5d_dodge_cuts_a_5d_attack_from_0525_to_0358():
    plain = odds.p_meets_roll(5, 0, (5, 0, 0), 0)
    pointed = odds.p_meets_roll(5, 0, (6, 0, 0), 0)
    assert (round(plain, 3), round(pointed, 3)) == (0.525, 0.358)
    # the same from icepool, built from the rules text (ties go to the attacker)
    attack = opend6_exact_roll(5, 0)
    for dodge, value in ((5, plain), (6, pointed)):
        exact = (attack - opend6_exact_roll(dodge, 0)).probability(">=", 0)
        assert value == pytest.approx(exact, abs=10 * TRUNCATION_MASS)


class Player:
    """Declares what it is given and answers every yes-or-no with ``answer``."""

    def __init__(self, intents, answer: bool):
        self.intents, self.answer, self.questions = intents, answer, []

    def take(self, enc, fighter):
        """Play ``fighter`` (``fray play`` gives a player's fighter a spending policy)."""
        enc.minds, enc._askers = {fighter.name: self}, frozenset({fighter.name})
        fighter.policy = Policy(spends=True, reacts=True)

    def __call__(self, enc, c):
        return list(self.intents)

    def choose(self, enc, c, question, labels, default):
        self.questions.append(question)
        return labels.index("yes" if self.answer else "no")


def dodgers(a_ai="basic", b_ai="basic"):
    """A (5D dodge) and B (5D club attack), side by side."""
    return duel(member("A", a_ai, agility=3, skills={"dodge": 2}),
                member("B", b_ai, agility=3, melee=2))


@pytest.mark.parametrize("answer, dice", [(True, 6), (False, 5)])
def test_a_player_is_asked_and_a_point_rolls_the_dodge_at_6d(answer, dice):
    enc, a, b = dodgers()
    mind = Player([Defend("dodge")], answer)
    mind.take(enc, a)
    a.fate = 0  # the fate point's question comes after the roll: left out here
    enc.rng = StubRandom(faces(*[3] * dice, sides=6))
    enc.ruleset.resolve(enc, TimedAction(a.offset, a, None, None))
    assert enc.rng.drawn == dice and a.defense == 3 * dice
    assert mind.questions == ["A will dodge with 5D: spend a character point (+1D; 5 to "
                              "spend)?"]
    assert a.cp == 5 - answer


def test_a_player_may_spend_a_fate_point_on_a_dodge_after_seeing_it():
    enc, a, b = dodgers()
    mind = Player([Defend("dodge")], True)
    mind.take(enc, a)
    # 6D with the character point, then the fate point's 6 more normal dice
    enc.rng = StubRandom(faces(*[2] * 12, sides=6))
    enc.ruleset.resolve(enc, TimedAction(a.offset, a, None, None))
    assert enc.rng.drawn == 12 and a.defense == 24 and (a.cp, a.fate) == (4, 0)
    assert mind.questions[1].startswith("A rolled 12 to dodge (")


def test_no_fate_point_question_on_a_dodge_no_attack_will_meet():
    enc, a, b = dodgers()
    mind = Player([Defend("dodge")], True)
    mind.take(enc, a)
    enc.rng = StubRandom(faces(*[6] * 5, 5, sides=6))  # the wild die explodes once: 35
    enc.ruleset.resolve(enc, TimedAction(a.offset, a, None, None))
    assert a.defense >= 35 and a.fate == 1 and len(mind.questions) == 1


def test_the_ai_spends_by_the_worth_of_a_point():
    enc, a, b = dodgers("tactical")
    advisor = enc.ruleset.advisor
    threats = points.expected_on(enc, a)
    assert threats == {b: 1.0}
    spared = (advisor.defense_worth_at(enc, a, threats, "dodge", 1)
              - advisor.defense_worth_at(enc, a, threats, "dodge", 0))
    # exact: the drop in B's chance to hit, 0.525 - 0.358, times the harm of its hit
    assert spared == pytest.approx((odds.p_meets_roll(5, 0, (5, 0, 0), 0)
                                    - odds.p_meets_roll(5, 0, (6, 0, 0), 0))
                                   * enc.ruleset.expected_harm(b, a))
    left = enc.ruleset.health_left(a)
    for cp in range(1, 6):
        a.cp = cp
        assert points.defense_point(advisor, enc, a, "dodge", 0) == (
            spared / left >= points.DEFENSE_POINT_SHARE / cp)
    a.cp = 0
    assert not points.defense_point(advisor, enc, a, "dodge", 0)
    enc.take_out(b, Status.UNCONSCIOUS)  # nobody to dodge: no point
    a.cp = 5
    assert not points.defense_point(advisor, enc, a, "dodge", 0)


def test_basic_ai_never_spends_on_a_dodge_and_a_spender_does_when_it_pays():
    enc, a, b = dodgers()
    enc.rng = StubRandom(faces(*[3] * 5, sides=6))
    assert not a.policy.spends  # basic: spends nothing
    enc.ruleset.combat.defend(enc, a, "dodge", 0)
    assert enc.rng.drawn == 5 and a.cp == 5
    enc, a, b = dodgers("tactical")
    will = points.defense_point(enc.ruleset.advisor, enc, a, "dodge", 0)
    enc.rng = StubRandom(faces(*[3] * (5 + will), sides=6))
    enc.ruleset.combat.defend(enc, a, "dodge", 0)
    assert will and a.cp == 4 and enc.rng.drawn >= 6
