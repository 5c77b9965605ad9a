"""How a menu words the odds an attack may do beyond hitting (``Advisor.harm_odds``).

Each ruleset's numbers are checked in its folder (``tests/rulesets/<folder>/test_harm_odds.py``)
against a count made there from the rules text, never against the code under test.
"""

from __future__ import annotations

from sim.report.numbers import chance


def test_a_chance_reads_certain_only_when_it_is():
    assert [chance(p) for p in (1.0, 0.996, 0.99, 0.5, 0.004, 0.0)] == [
        "100%", ">99%", "99%", "50%", "<1%", "0%"]
