"""One tally of encounter rows: folding by hand, merging chunks, summary.json and lethality.

``data/morale-opend6`` holds a 30-encounter batch (made with ``fray batch scenario.yaml
--ruleset opend6 -n 30 --seed 2 --chunk-size 7`` from that folder, by an early fray) with
deaths, fled and surrendered fighters, and what the two folds before ``Tally`` made of it:
``summary.json`` (the batch's ``BatchTally``) and ``lethality-entry.json`` (the comparison's
``LethalityTally`` over ``encounters.csv``). One ``Tally`` now gives both, byte for byte,
once the keys added since (the deaths after the fight: ``helpers.ADDED_KEYS``, all 0 for
these rows, which predate them) are set aside.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from helpers import stored_ruleset, without_added_keys

from sim.results.stats import wilson
from sim.results.tally import Tally

DATA = Path(__file__).parent / "data" / "morale-opend6"

MORALE = {"heroes": 3, "bandits": 4}
STORED = stored_ruleset(DATA)  # the ruleset the stored batch ran under


def approx(x, abs=2e-6):  # noqa: A002 - pytest's name; metrics are stored to 6 decimals
    return pytest.approx(x, abs=abs)


def fold(rows, members=None, scenario="test", ruleset="x", seed=1) -> Tally:
    tally = Tally.for_sides(scenario, ruleset, seed, members or {"a": 2, "b": 2})
    for row in rows:
        tally.add(row)
    return tally


# ---------------------------------------------------------------------------- folding rows
def _row(winner, rounds, first, a, b):
    """A row for sides a and b; each a tuple (deaths, out, attacks, hits, damage, out_rounds)."""
    row = {"index": 0, "seed": 0, "winner": winner, "rounds": str(rounds),
           "first_casualty_round": str(first)}
    for name, (deaths, out, attacks, hits, damage, out_rounds) in (("a", a), ("b", b)):
        row.update({f"{name}_standing": str(2 - out), f"{name}_out": str(out),
                    f"{name}_deaths": str(deaths), f"{name}_attacks": str(attacks),
                    f"{name}_hits": str(hits), f"{name}_damage": str(damage),
                    f"{name}_out_rounds": out_rounds})
    return row


ROWS = [
    _row("b", 3, 1, (1, 2, 6, 3, 9, "1 3"), (0, 0, 6, 4, 8, "")),
    _row("a", 2, 2, (0, 1, 4, 1, 2, "2"), (2, 2, 5, 2, 6, "2 2")),
    _row("a", 4, 0, (0, 0, 8, 2, 4, ""), (0, 0, 4, 0, 0, "")),
]


@pytest.fixture
def entry():
    """The lethality entry of ``ROWS``."""
    return fold(ROWS).lethality()


def test_counts_and_rates_of_hand_made_rows(entry):
    a, b = entry["sides"]["a"], entry["sides"]["b"]
    assert entry["encounters"] == 3
    assert a["win_rate"]["value"] == approx(2 / 3)
    assert a["win_rate"]["ci95"] == approx(list(wilson(2, 3)), abs=1e-6)
    assert a["deaths_per_encounter"]["value"] == approx(1 / 3)
    assert b["deaths_per_encounter"]["value"] == approx(2 / 3)
    assert a["p_any_death"]["value"] == approx(1 / 3)
    assert a["death_rate"]["value"] == approx(1 / 6)
    assert a["out_rate"]["value"] == approx(3 / 6)
    assert a["died_share_of_out"]["value"] == approx(1 / 3)
    assert a["hits_per_attack"]["value"] == approx(6 / 18)
    assert a["damage_per_hit"]["value"] == approx(15 / 6)
    assert a["counts"] == {"wins": 2, "deaths": 1, "deaths_after": 0, "out_of_fight": 3,
                           "fled": 0, "surrendered": 0, "attacks": 18, "hits": 6,
                           "damaging_hits": 0, "damage": 15}  # rows without the column
    for m in (a["win_rate"], a["death_rate"], a["hits_per_attack"], b["out_rate"]):
        lo, hi = m["ci95"]
        assert 0 <= lo <= m["value"] <= hi <= 1


def test_rounds_and_first_casualty(entry):
    rounds, first = entry["rounds"], entry["first_casualty"]
    assert rounds["mean"]["value"] == approx(3)
    assert (rounds["median"], rounds["p90"], rounds["max"]) == (3, 4, 4)
    assert rounds["histogram"] == {"2": 1, "3": 1, "4": 1}
    # the fight with nobody out has no first casualty: mean of 1 and 2
    assert first["mean"]["value"] == approx(1.5)
    assert first["share_with_casualty"]["value"] == approx(2 / 3)
    assert entry["draw_rate"]["value"] == 0


def test_survival_by_round(entry):
    # side a still fighting after r: fight 1: 1,1,0,(0); fight 2: 2,1,(1),(1); fight 3: 2,2,2,2
    curve = entry["sides"]["a"]["survival"]
    assert curve["rounds"] == [1, 2, 3, 4]
    assert curve["value"] == approx([5 / 6, 4 / 6, 3 / 6, 3 / 6])
    # side b: fight 1: 2,2,2,(2); fight 2: 2,0,(0),(0); fight 3: 2,2,2,2
    assert entry["sides"]["b"]["survival"]["value"] == approx([1, 4 / 6, 4 / 6, 4 / 6])
    overall = entry["overall"]
    assert overall["members"] == 4
    assert overall["death_rate"]["value"] == approx(3 / 12)
    assert overall["survival"]["value"][0] == approx(11 / 12)


def test_survival_counts_who_was_out_when_the_fight_ended():
    """Side a: one member out in round 1 who woke after the fight (standing at the end of
    the scene, ``a_out`` 0, yet in ``a_out_rounds``): out from round 1 on, the rounds of the
    longer fight included (the tail used to count it back in)."""
    rows = [_row("b", 2, 1, (0, 0, 2, 1, 1, "1"), (0, 0, 2, 1, 1, "")),
            _row("b", 3, 0, (0, 0, 2, 1, 1, ""), (0, 0, 2, 1, 1, ""))]
    curve = fold(rows).lethality()["sides"]["a"]["survival"]
    # fight 1: 1, 1, (1); fight 2: 2, 2, 2
    assert curve["value"] == approx([3 / 4, 3 / 4, 3 / 4])


def test_int_rows_and_string_rows_fold_alike():
    def ints(row):
        return {k: (int(v) if k not in ("winner",) and not k.endswith("out_rounds") else v)
                for k, v in row.items()}
    t1, t2 = fold(ROWS), fold(ints(row) for row in ROWS)
    assert t1 == t2
    assert t1.summary() == t2.summary() and t1.lethality() == t2.lethality()


def test_memory_stays_flat():
    rng = random.Random(1)
    tally = fold([])
    for _ in range(5000):
        rounds = rng.randint(1, 12)
        out_a = sorted(rng.randint(1, rounds) for _ in range(rng.randint(0, 2)))
        row = _row(rng.choice("ab"), rounds, out_a[0] if out_a else 0,
                   (len(out_a), len(out_a), 3, 1, 2, " ".join(map(str, out_a))),
                   (0, 0, 3, 1, 1, ""))
        tally.add(row)
    side = tally.sides["a"]
    assert len(side.alive_sum) <= 12
    assert len(side.tail) <= 12 * 3  # (last round, still fighting) pairs
    assert len(tally.overall.alive_sum) <= 12 and len(tally.overall.tail) <= 12 * 5
    assert len(tally.rounds) <= 12
    assert tally.encounters == 5000


def test_fled_and_surrendered_are_counted_apart_from_deaths():
    row = _row("b", 2, 2, (0, 2, 3, 1, 1, "2 2"), (0, 0, 3, 1, 1, ""))
    row.update({"a_fled": "1", "a_surrendered": "1", "b_fled": "0", "b_surrendered": "0"})
    tally = fold([row])
    a = tally.lethality()["sides"]["a"]
    assert (a["counts"]["fled"], a["counts"]["surrendered"], a["counts"]["deaths"]) == (1, 1, 0)
    assert a["out_rate"]["value"] == 1 and a["died_share_of_out"]["value"] == 0
    s = tally.summary()["sides"]["a"]
    assert (s["fled"], s["surrendered"], s["deaths"], s["out_of_fight"]) == (1, 1, 0, 2)


def test_summary_of_hand_made_rows():
    s = fold(ROWS).summary()
    assert (s["scenario"], s["ruleset"], s["encounters"], s["seed"]) == ("test", "x", 3, 1)
    assert s["outcomes"] == {"a": 2, "b": 1, "draw": 0}
    assert s["rounds"] == {"mean": 3.0, "median": 3, "p90": 4, "max": 4}
    lo, hi = wilson(2, 3)
    assert s["sides"]["a"] == {
        "members": 2, "win_rate": 0.666667, "win_rate_ci95": [round(lo, 6), round(hi, 6)],
        "attacks": 18, "hits": 6, "damaging_hits": 0, "hit_rate": 0.333333, "deaths": 1,
        "deaths_in_fight": 1,
        "deaths_after": 0, "out_of_fight": 3, "fled": 0, "surrendered": 0, "damage": 15,
        "damage_per_hit": 2.5}
    # deaths 1 + 2 over 3 fights; fights 1 and 2 had a death; 4 combatants a fight
    assert s["lethality"] == {"deaths_per_encounter": 1.0, "p_any_death": 0.666667,
                              "death_rate": 0.25, "deaths_in_fight_per_encounter": 1.0,
                              "deaths_after_per_encounter": 0.0}


def test_an_empty_tally():
    tally = fold([])
    assert tally.summary()["rounds"] == {"mean": 0, "median": 0, "p90": 0, "max": 0}
    assert tally.summary()["lethality"]["death_rate"] == 0
    assert tally.lethality()["sides"]["a"]["survival"]["value"] == []


def test_chunks_merged_in_order_equal_one_fold():
    rows = ROWS * 7
    whole = fold(rows)
    merged = fold([])
    for start in range(0, len(rows), 4):
        merged.merge(fold(rows[start:start + 4]))
    assert merged == whole
    assert merged.summary() == whole.summary()
    assert merged.lethality() == whole.lethality()


# ---------------------------------------------------------------------------- one fold
def read_rows() -> list[dict[str, str]]:
    with open(DATA / "encounters.csv", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def batch():
    return fold(read_rows(), MORALE, "morale", STORED, 2)


def test_one_fold_gives_summary_json_and_lethality_as_before(batch):
    summary, lethality = batch.summary(), batch.lethality()
    assert json.dumps(without_added_keys(summary), indent=2) + "\n" == \
        (DATA / "summary.json").read_text()
    assert json.dumps(without_added_keys(lethality), indent=2) + "\n" == \
        (DATA / "lethality-entry.json").read_text()
    for side in summary["sides"].values():
        assert (side["deaths_after"], side["deaths_in_fight"]) == (0, side["deaths"])


def test_pinned_numbers_of_the_batch(batch):
    s, le = batch.summary(), batch.lethality()
    assert s["outcomes"] == {"heroes": 25, "bandits": 5, "draw": 0}
    assert s["rounds"] == {"mean": 5.6667, "median": 5.0, "p90": 10, "max": 11}
    bandits = s["sides"]["bandits"]
    assert (bandits["deaths"], bandits["out_of_fight"], bandits["fled"],
            bandits["surrendered"]) == (74, 108, 3, 31)
    assert (bandits["attacks"], bandits["hits"], bandits["damage"]) == (507, 352, 171)
    assert s["lethality"] == {"deaths_per_encounter": 3.4, "p_any_death": 1.0,
                              "death_rate": 0.485714, "deaths_in_fight_per_encounter": 3.4,
                              "deaths_after_per_encounter": 0.0}
    assert le["sides"]["bandits"]["death_rate"]["value"] == 0.616667  # 74 / (30 * 4)
    assert le["overall"]["deaths_per_encounter"]["value"] == 3.4
    assert le["rounds"]["mean"] == {"value": 5.666667, "ci95": [4.67067, 6.662663],
                                    "method": "normal"}


def test_summary_and_lethality_agree_where_they_overlap(batch):
    s, le = batch.summary(), batch.lethality()
    assert le["encounters"] == s["encounters"] == 30
    assert le["rounds"]["median"] == s["rounds"]["median"]
    assert le["overall"]["p_any_death"]["value"] == s["lethality"]["p_any_death"]
    assert le["overall"]["death_rate"]["value"] == s["lethality"]["death_rate"]
    for side, block in s["sides"].items():
        assert le["sides"][side]["counts"] == {
            "wins": s["outcomes"][side], "deaths": block["deaths"],
            "deaths_after": block["deaths_after"], "out_of_fight": block["out_of_fight"],
            "fled": block["fled"], "damaging_hits": block["damaging_hits"],
            "surrendered": block["surrendered"], "attacks": block["attacks"],
            "hits": block["hits"], "damage": block["damage"]}
        assert le["sides"][side]["win_rate"]["value"] == block["win_rate"]


def test_any_chunking_of_the_batch_gives_the_same_tally(batch):
    rows = read_rows()
    rng = random.Random(3)
    for _ in range(5):
        cuts = sorted(rng.sample(range(1, len(rows)), 4))
        merged = fold([], MORALE, "morale", STORED, 2)
        for a, b in zip([0, *cuts], [*cuts, len(rows)], strict=True):
            merged.merge(fold(rows[a:b], MORALE, "morale", STORED, 2))
        assert merged == batch
        assert merged.summary() == batch.summary()
        assert merged.lethality() == batch.lethality()


def test_draws_say_who_was_left_standing():
    """``draws``: each side's members standing at the end of the drawn fights, and by name."""
    from helpers import any_ruleset, scenario

    from sim.batch.chunks import new_tally, run_chunk

    bow = {"weapon": "bow", "skills": {"ranged": 1}}
    scen = scenario({"a": [{"name": "A", "count": 2, **bow}],
                     "b": [{"name": "B", **bow}]}, max_rounds=2)
    rows = run_chunk(scen, any_ruleset(), 3, 0, 40)
    tally = new_tally(scen, any_ruleset(), 3)
    for row in rows:
        tally.add(row)
    block = tally.summary()["draws"]
    drawn = [r for r in rows if r["winner"] == "draw"]
    assert block["fights"] == len(drawn) > 0
    members = {"a": 2, "b": 1}  # in the fight when it ended: not among those out then
    assert block["standing"] == {side: sum(members[side] - len(str(r[f"{side}_out_rounds"])
                                                               .split()) for r in drawn)
                                 for side in ("a", "b")}
    left = {name: sum(r[f"{name}.status"] == "ok" for r in drawn) for name in ("A 1", "A 2", "B")}
    top = sorted(left.items(), key=lambda kv: (-kv[1], kv[0]))
    assert block["left_most_often"] == [[n, k] for n, k in top if k]
    assert tally.lethality()["draws"] == block
