"""The terminal's tables and progress bars (``sim/report/tables.py``)."""

from __future__ import annotations

import io
import sys

from helpers import any_ruleset

from sim.report.tables import progress_bar


class Terminal(io.StringIO):
    """A standard error that says it is a terminal, so that the bar is drawn."""

    def isatty(self) -> bool:
        return True


def test_a_progress_bar_shows_its_label_word_for_word(monkeypatch):
    """``ambush [ore]``: the bracket is text, not markup that rich would swallow (the
    bars of fray compare all read ``ambush``, whichever ruleset ran)."""
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    label = f"ambush [{any_ruleset()}]"
    with progress_bar(10, label) as advance:
        advance(10)
    assert label in screen.getvalue()


def test_the_batch_table_says_who_was_left_in_the_draws():
    from sim.report.tables import draws_line

    summary = {"encounters": 50, "outcomes": {"a": 30, "b": 10, "draw": 10},
               "sides": {"a": {"members": 4}, "b": {"members": 2}},
               "draws": {"fights": 10, "standing": {"a": 15, "b": 10},
                         "left_most_often": [["Archer", 9], ["Bow", 7]]}}
    line = draws_line(summary)
    assert line.startswith("draws: 10 of 50 fights (20.0%) ended at the round limit")
    assert "when they ended, on average: a 1.5 of 4, b 1.0 of 2" in line
    assert line.endswith("at the end of the scene most often: Archer (9), Bow (7)")
