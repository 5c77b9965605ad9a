"""A sweep says when two values build the same fighters: OpenCore has no use for perception,
so the rows are equal because the fight is, and the sweep says so instead of a flat line."""

from __future__ import annotations

from helpers import SCENARIOS, fray


def test_a_grid_says_which_perceptions_build_the_same_fighters(capsys, tmp_path):
    neutral = str(SCENARIOS / "neutral_duel.yaml")
    result = fray(capsys, "sweep", neutral, "--set", "sides.fencer[0].traits.perception=1,5",
                  "--set", "max_rounds=10,20", "--ruleset", "opencore", "-n", "20",
                  "--workers", "1", "-q", "--no-charts", "--out", str(tmp_path / "grid"))
    assert result.code == 0, result.err
    out = " ".join(result.out.split())
    # one note for the grid's two groups, not one note each
    assert out.count("note:") == 1, out
    assert "under opencore, these Ilse perception and round limit values build the same" in out
    assert "(1; 10 = 5; 10), (1; 20 = 5; 20)" in out
    assert "1; 10 = 1; 20" not in out  # the round limit is part of the fight
