"""The play menu's second step: what its labels keep of the words they share."""

from __future__ import annotations

from sim.report.panel import _shared


def test_a_second_menu_drops_only_what_its_heading_says():
    cover = ["take cover at hill (light)", "take cover at hill and shoot Bandit 1"]
    # the place is shared by every label but not in the heading: it stays
    assert cover[0][_shared(cover, "take cover (and shoot)"):] == "at hill (light)"
    called = ["called shot at Ser Benedek's head", "called shot at Ser Benedek's torso"]
    assert called[0][_shared(called, "called shot at Ser Benedek"):] == "head"
    # without a heading, every shared word goes; a label is never emptied
    assert cover[1][_shared(cover):] == "and shoot Bandit 1"
    assert _shared(["attack", "attack"]) == 0
