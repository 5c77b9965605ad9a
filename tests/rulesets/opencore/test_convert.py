"""OpenCore in ``fray convert``: the neutral duellist's abilities on the percentile scale."""

from __future__ import annotations

from helpers import SCENARIOS, fray


def test_convert_shows_opencore_abilities(capsys):
    result = fray(capsys, "convert", str(SCENARIOS / "neutral_duel.yaml"), "--ruleset",
                  "opencore")
    assert result.code == 0 and "STR 45" in result.out
