"""OpenD6 in ``fray convert``: the hit-point variant's rolled hit points are marked, on every
line of it."""

from __future__ import annotations

from helpers import SCENARIOS, fray

DUEL = str(SCENARIOS / "neutral_duel.yaml")


def test_convert_marks_what_is_rolled_as_a_fighter_is_built(capsys):
    """Two identical duellists with different HP under opend6-hp: the rolled HP is marked,
    on every line of that ruleset (not only where two seeds happen to differ)."""
    result = fray(capsys, "convert", DUEL, "--ruleset", "all")
    assert result.code == 0, result.err
    hp = [line for line in result.out.splitlines() if line.startswith("  opend6-hp")]
    assert len(hp) == 2 and all(line.endswith(" *") for line in hp)
    assert not [line for line in result.out.splitlines()
                if line.startswith("  opend6 ") and line.endswith("*")]
    assert "* rolled as the fighter is built (hit points): new for every fight" in result.out
    plain = fray(capsys, "convert", DUEL, "--ruleset", "opend6")  # nothing rolled
    assert "*" not in plain.out
