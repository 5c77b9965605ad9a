"""The terminal's tables and progress bars (``sim/report/tables.py``)."""

from __future__ import annotations

import io
import sys

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
    with progress_bar(10, "ambush [ore]") as advance:
        advance(10)
    assert "ambush [ore]" in screen.getvalue()
