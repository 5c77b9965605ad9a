"""Limits with clear errors (part of the hardening issue): dice a typo could blow up, names a
spreadsheet would run, sizes no table needs; exit 2 with the reason, never a hang."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, fray

from sim.rulesets.opencore.tables import DamageDice
from sim.rulesets.opend6.dice import DiceCodeError, parse_code
from sim.scenario import parse
from sim.scenario.errors import ScenarioError


@pytest.mark.parametrize("text", ["2d0", "0d10", "21d10", "2d101", "2d10+1001",
                                  "9" * 5000 + "d10"])
def test_opencore_damage_dice_have_bounds(text):
    with pytest.raises(ValueError, match="from 1 to 20 dice of 2 to 100 sides"):
        DamageDice.parse(text)
    assert str(DamageDice.parse("20d100+1000")) == "20d100+1000"


@pytest.mark.parametrize("text", ["41D", "999999999D", "9" * 5000 + "D"])
def test_opend6_dice_codes_have_a_bound(text):
    with pytest.raises(DiceCodeError, match="at most 40D"):
        parse_code(text)
    assert str(parse_code("40D+2")) == "40D+2"


@pytest.mark.parametrize("side, member", [("=cmd|' /C calc'!A0", "A"), ("red", "+1"),
                                          ("red", "-Bob"), ("@SUM", "A")])
def test_names_a_spreadsheet_would_run_are_refused(side, member):
    with pytest.raises(ScenarioError, match="would run it as a formula"):
        parse({"name": "t", "sides": {side: [{"name": member}], "blue": [{"name": "B"}]}})


@pytest.mark.parametrize("args, needle", [
    (["-n", "1" + "0" * 30], "out of range; allowed: 1 to 100000000"),
    (["--workers", "1000"], "out of range; allowed: 1 to 256"),
])
def test_sizes_no_table_needs_are_bad_input(capsys, args, needle):
    result = fray(capsys, "batch", str(SCENARIOS / "duel.yaml"), *args)
    assert result.code == 2 and needle in result.err
    assert "Traceback" not in result.err


def test_a_file_of_99000_unknown_keys_is_refused_quickly_listing_50(capsys, tmp_path):
    """Listing the errors was quadratic (115 s); the first 50 are listed and the rest counted."""
    import time

    import yaml

    doc = yaml.safe_load((SCENARIOS / "duel.yaml").read_text())
    doc.update({f"k{i:05d}": 1 for i in range(99_000)})
    path = tmp_path / "keys.yaml"
    path.write_text(yaml.safe_dump(doc))
    assert path.stat().st_size < 1_100_000
    started = time.process_time()  # CPU time: the machine may be shared
    result = fray(capsys, "validate", str(path))
    assert time.process_time() - started < 5
    assert result.code == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 51 and all("unknown key 'k" in line for line in lines[:50])
    assert lines[-1] == f"{path}: ... and 98,950 more problems (the first 50 are listed)"
