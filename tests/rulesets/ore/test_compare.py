"""ORE (and OpenD6-HP) in ``fray compare`` and ``fray convert``: a sword duel kills under
both alike, a tie named as one; the neutral Wolfman's numbers under ORE."""

from __future__ import annotations

import json

from helpers import SCENARIOS, fray


def test_compare_a_tie_names_both_rulesets_whatever_the_order(tmp_path, capsys):
    """Every sword duel ends with one death under ORE and OpenD6-HP, the same side's in
    each of these 30 fights: a tie, named as one (OpenCore's fallen may now be stabilised
    by chance, so its duels no longer always kill)."""
    duel = str(SCENARIOS / "duel.yaml")
    verdicts = []
    for k, order in enumerate(("ore,opend6-hp", "opend6-hp,ore")):
        out = tmp_path / f"c{k}"
        result = fray(capsys, "compare", duel, "--rulesets", order, "-n", "30", "--workers",
                      "1", "--out", str(out), "-q")
        assert result.code == 0, result.err
        verdicts.append(json.loads((out / "lethality.json").read_text())["verdict"])
    assert verdicts[0] == verdicts[1]
    v = verdicts[0]
    assert v["most_rulesets"] == v["least_rulesets"] == ["opend6-hp", "ore"]
    assert v["text"].startswith("under opend6-hp and ore the red dies about as often (")
    assert "as under" not in v["text"]


def test_convert_shows_the_wolfmans_numbers_under_ore(capsys):
    result = fray(capsys, "convert", str(SCENARIOS / "ambush.yaml"), "--ruleset", "ore")
    assert result.code == 0, result.err
    assert "body 3, coordination 2, sense 2" in result.out  # Wolfman under ore
