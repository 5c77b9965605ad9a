"""A sweep says when two values build the same fighters: ORE maps strength 3 and 4 to the
same dice, so the rows are equal because the fight is, and the sweep says so instead of a
flat line."""

from __future__ import annotations

from helpers import SCENARIOS, fray


def test_a_sweep_says_when_two_strengths_build_the_same_fighters(capsys, tmp_path):
    neutral = str(SCENARIOS / "neutral_duel.yaml")
    result = fray(capsys, "sweep", neutral, "--set", "sides.fencer[0].traits.strength=2..4",
                  "--ruleset", "ore", "-n", "20", "--workers", "1", "-q", "--no-charts",
                  "--out", str(tmp_path / "ore"))
    assert result.code == 0, result.err
    out = " ".join(result.out.split())
    assert "note: under ore, Ilse strength 3 and 4 build the same fighters" in out
    assert "2 and" not in out  # strength 2 is a fighter of its own
