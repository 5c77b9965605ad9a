"""``?`` at ``fray play``'s menus and ``fray advise``: each choice weighed by rollouts.

Asking changes nothing in the fight (its record replays the same); ``fray advise`` gives the
profile's own choice the win rate ``fray batch`` gives the fighter, and a useless choice
never comes out ahead of it by more than its interval.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from helpers import SCENARIOS, any_ruleset, fray

from sim import scenario as scenario_mod
from sim.batch.chunks import run_chunk
from sim.rulesets import registry

DUEL = str(SCENARIOS / "neutral_duel.yaml")
SKIRMISH = str(SCENARIOS / "neutral_skirmish.yaml")


def play(capsys, monkeypatch, answers: str, *args: str):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(answers))
    return fray(capsys, "play", *args)


@pytest.mark.parametrize("ruleset", registry.names())
def test_asking_what_if_leaves_the_fight_and_its_record_as_they_were(
        capsys, monkeypatch, tmp_path, ruleset):
    asked, plain = tmp_path / "asked.json", tmp_path / "plain.json"
    args = (SKIRMISH, "--as", "Sergeant,Raider", "--ruleset", ruleset, "--seed", "4",
            "--rollouts", "6")
    with_odds = play(capsys, monkeypatch, "?\n1\n\nodds\n2\n", *args, "--record", str(asked))
    without = play(capsys, monkeypatch, "1\n\n2\n", *args, "--record", str(plain))
    assert with_odds.code == 0 and without.code == 0, with_odds.err + without.err
    assert "What if? 6 rollouts of each line" in with_odds.out
    assert "<- its profile's choice" in with_odds.out
    assert json.loads(asked.read_text())["answers"] == json.loads(plain.read_text())["answers"]
    fight = [line for line in with_odds.out.splitlines() if line.startswith("  [")]
    assert fight == [line for line in without.out.splitlines() if line.startswith("  [")]
    again = play(capsys, monkeypatch, "", SKIRMISH, "--replay", str(asked))
    assert again.code == 0 and again.out == without.out


def test_a_question_mark_with_a_number_weighs_with_that_many_and_records_nothing(
        capsys, monkeypatch, tmp_path):
    record = tmp_path / "asked.json"
    result = play(capsys, monkeypatch, "? 0\n? 3\nodds 2\n1\n", DUEL, "--as", "Ilse",
                  "--seed", "2", "--record", str(record))
    assert result.code == 0, result.err
    assert "'? N' weighs each line by N rollouts: N from 1 to 100000" in result.out
    assert "What if? 3 rollouts" in result.out and "What if? 2 rollouts" in result.out
    assert "At any menu, '?' weighs each line" in result.out  # told once, under the first menu
    assert result.out.count("At any menu, '?'") == 1
    assert json.loads(record.read_text())["answers"] == ["1"]


def test_what_if_in_a_second_menu_shows_it_again(capsys, monkeypatch):
    result = play(capsys, monkeypatch, "defend\n?\n1\n", DUEL, "--as", "Ilse", "--seed", "2",
                  "--rollouts", "4")
    assert result.code == 0, result.err
    after = result.out.split("What if?", 1)[1]
    assert "defend (dodge or parry): answer a number" in after


def test_what_if_in_a_groups_menu_weighs_its_lines_and_the_profiles_choice(capsys,
                                                                          monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")  # (a narrower terminal shows a line's keyword)
    result = play(capsys, monkeypatch, "defend\n?\n1\n", DUEL, "--as", "Ilse", "--seed", "2",
                  "--rollouts", "4", "--ruleset", any_ruleset())
    assert result.code == 0, result.err
    table = result.out.split("What if?", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line.endswith("%") or "%  " in line]
    assert "this menu, and of the profile's choice" in table
    assert sum("<- its profile's choice" in r for r in rows) == 1
    # each of the group's lines by the number that takes it in that menu
    assert sorted(r.split()[:2] for r in rows if "<- its profile's" not in r) == [
        ["1", "dodge"], ["2", "parry"]]
    # and the profile's choice, a line of the first menu, by what takes it here: ai (0
    # goes back to the first menu)
    assert [r.split()[0] for r in rows if "<- its profile's" in r] == ["ai"]


def test_what_if_at_a_long_first_menu_points_to_the_groups_menus(capsys, monkeypatch):
    result = play(capsys, monkeypatch, "?\n1\n", DUEL, "--as", "Ilse", "--rollouts", "2",
                  "--ruleset", any_ruleset())
    assert result.code == 0, result.err
    asked = result.out.split("Ilse> ?", 1)[1]
    assert asked.lstrip().startswith("Weighing all") and "`?` weighs only that group's" in asked


def _advise(capsys, *args: str) -> dict:
    result = fray(capsys, "advise", *args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_advise_prints_every_first_choice_once_with_the_profiles_marked(capsys):
    out = _advise(capsys, DUEL, "--as", "Ilse", "-n", "12", "--ruleset", any_ruleset())
    options = out["options"]
    assert sum(o["ai"] for o in options) == 1
    assert {"label", "ai", "p_win", "low", "high", "p_standing", "n", "rounds",
            "stopped", "screened", "p_alive", "diff", "diff_low", "diff_high",
            "group", "as_one"} == set(options[0])
    assert all(o["diff_low"] <= o["diff"] <= o["diff_high"] for o in options)
    assert {o["group"] for o in options} <= {"best", "maybe", "behind"}
    # whose win p_win is, as the table's column heads say (fencer wins, Ilse standing)
    assert out["combatant"] == "Ilse" and out["side"] == "fencer"
    assert all(o["rounds"] >= 1 for o in options)
    assert all(o["low"] <= o["p_win"] <= o["high"] and o["n"] == 12 for o in options)
    for group in ("maybe", "behind"):
        shares = [o["p_win"] for o in options if o["group"] == group]
        assert shares == sorted(shares, reverse=True)
    assert any(o["label"].startswith("yield") and o["p_win"] == 0 for o in options)


def test_advise_stops_weighing_yield_early_unless_asked_for_all_rollouts(capsys):
    # (Gorm, the stronger, wins most rollouts: yielding loses to any other line at once)
    args = (DUEL, "--as", "Gorm", "-n", "100", "--ruleset", any_ruleset(), "--workers", "1")
    raced = _advise(capsys, *args)["options"]
    surrender = next(o for o in raced if o["label"].startswith("yield"))
    assert surrender["stopped"] and surrender["screened"] and surrender["n"] == 20
    assert surrender["group"] == "behind"
    assert all(o["n"] == 100 and not o["stopped"] for o in raced if o["ai"])
    full = _advise(capsys, *args, "--all-rollouts")["options"]
    assert all(o["n"] == 100 and not o["stopped"] for o in full)


def test_play_marks_a_stopped_line_unless_asked_for_all_rollouts(capsys, monkeypatch):
    args = (DUEL, "--as", "Gorm", "--rollouts", "100", "--ruleset", any_ruleset())
    raced = play(capsys, monkeypatch, "?\n1\n", *args)
    full = play(capsys, monkeypatch, "?\n1\n", *args, "--all-rollouts")
    assert raced.code == 0 and full.code == 0, raced.err + full.err
    assert "(screened)" in raced.out and "screened" not in full.out


def test_all_rollouts_in_a_campaign_is_only_for_play(capsys):
    road = str(SCENARIOS / "campaigns" / "road_to_the_keep.yaml")
    result = fray(capsys, "campaign", road, "--solo", "--all-rollouts")
    assert result.code == 2 and "--all-rollouts" in result.err and "only with --as" in result.err


def test_advise_refuses_a_fighter_not_in_the_scenario(capsys):
    result = fray(capsys, "advise", DUEL, "--as", "Ilsa")
    assert result.code == 2 and "did you mean 'Ilse'" in result.err


def _tactical(tmp_path, path: str, name: str) -> str:
    """The scenario with ``name`` on the tactical profile."""
    copy = tmp_path / "tactical.yaml"
    text = open(path).read()
    assert f"name: {name}" in text
    copy.write_text(text.replace(f"name: {name}", f"name: {name}, ai: tactical", 1)
                    if "{name:" in text else text.replace(
                        f"- name: {name}\n", f"- name: {name}\n      ai: tactical\n", 1))
    scenario_mod.load(copy)  # still a valid scenario
    return str(copy)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", registry.names())
def test_advise_is_calibrated_to_the_batch_and_useless_choices_never_lead(capsys, tmp_path,
                                                                         ruleset):
    """The tactical fighter's own choice wins, over the same seeds, within 4 standard errors
    of ``fray batch``'s win rate; standing still or walking away from an armed foe in reach
    is never ahead of it by more than its interval."""
    path = _tactical(tmp_path, DUEL, "Ilse")
    n, seed = 300, 11
    options = _advise(capsys, path, "--as", "Ilse", "-n", str(n), "--seed", str(seed),
                      "--ruleset", ruleset)["options"]
    mine = next(o for o in options if o["ai"])
    scenario = scenario_mod.load(path)
    side = next(s.name for s in scenario.sides if any(m.name == "Ilse" for m in s.members))
    rows = run_chunk(scenario, ruleset, seed, 0, n)
    batch = sum(r["winner"] == side for r in rows) / n
    se = math.sqrt(max(batch * (1 - batch), 1 / n) / n)
    assert abs(mine["p_win"] - batch) <= 4 * se * math.sqrt(2), (mine, batch)
    for o in options:
        if o["label"].startswith(("hold", "leave the field", "fall back")):
            assert o["p_win"] - mine["p_win"] <= o["high"] - o["p_win"], (o, mine)


# (scenario, the fighter played): long first menus with groups, and foes that tie for
# nearest (the tie a menu breaks with the fight's generator, which a `?` once drew from)
LONG_MENUS = [(str(SCENARIOS / "mirror.yaml"), "West archer 1"),
              (str(SCENARIOS / "ambush.yaml"), "Kestrel"),
              # a raider in a queue: the others' ways round are kept, and a menu's
              # suggestion asks the AI with the fight put back after it
              (str(SCENARIOS / "footbridge.yaml"), "Raider 3")]


def _a_group(out: str) -> str | None:
    """The number of the first menu's first group (its line ends with '...'), if any."""
    first = out.split("== Round 1 ==", 1)[-1]
    found = re.search(r"^  (\d+)\. [^\n]*\.\.\.", first, re.MULTILINE)
    return found.group(1) if found else None


@pytest.mark.parametrize("ruleset", registry.names())
@pytest.mark.parametrize("path,name", LONG_MENUS)
def test_no_number_of_questions_touches_the_fight_or_its_record(
        capsys, monkeypatch, tmp_path, ruleset, path, name):
    """A fight and its record are byte-identical with any `?` and without: at a long first
    menu, `? N`, a repeated `?`, and in a group's menu."""
    args = (path, "--as", name, "--ruleset", ruleset, "--seed", "5", "--rollouts", "3")
    probe = play(capsys, monkeypatch, "", *args)
    group = _a_group(probe.out)
    opened = f"{group}\n0\n" if group else ""
    asked = f"{group}\n? 2\n?\n0\n" if group else ""
    runs = {}
    for kind, script in (("plain", f"{opened}1\n"),
                         ("asked", f"? 2\n?\n? 2\n{asked}? 3\n1\n")):
        record, journal = tmp_path / f"{kind}.json", tmp_path / f"{kind}.md"
        result = play(capsys, monkeypatch, script, *args, "--record", str(record),
                      "--log", str(journal))
        assert result.code == 0, result.err
        runs[kind] = (record.read_bytes(), journal.read_bytes(),
                      [line for line in result.out.splitlines() if line.startswith("  [")])
    assert runs["asked"] == runs["plain"]


def test_a_line_that_cannot_be_taken_now_is_shown_as_such_and_never_ranked(capsys,
                                                                            monkeypatch):
    """A menu line the rules would not carry out now (``Option.blocked``) is listed as "not
    now" with its reason, and not weighed. Under the rules of space no line of the duel is
    such a line (a flight is always begun: it takes rounds), so one is planted."""
    from dataclasses import replace

    from sim.ai import menu as menus

    real = menus.options

    def with_a_blocked_line(enc, c):
        out = real(enc, c)
        flee = next(o for o in out if o.key == "flee")
        return [o if o is not flee else replace(flee, blocked="Gorm bars the way")
                for o in out]

    monkeypatch.setattr(menus, "options", with_a_blocked_line)
    out = _advise(capsys, DUEL, "--as", "Ilse", "-n", "12", "--ruleset", any_ruleset())
    assert not any(o["label"].startswith("flee") for o in out["options"])
    assert [n["why"] for n in out["not_now"]] == ["Gorm bars the way"]
    text = fray(capsys, "advise", DUEL, "--as", "Ilse", "-n", "12", "--quiet",
                "--ruleset", any_ruleset()).out
    assert "not now (not weighed):" in text and "(Gorm bars the way)" in text


def test_a_line_too_long_for_the_terminal_shows_its_keyword_then_is_cut():
    from sim.ai import rollout
    from sim.ai.ranking import Weighed
    from sim.cli import whatif as printed

    long = rollout.Choice("called head Bandit and again",
                          "called shot at Bandit's head, then attack again", False, None)
    mine = rollout.Choice("attack Bandit", "attack Bandit", True, None)
    weighed = [Weighed(long, 10, 5, 5, 10, 3.0, 10, 0.1, -0.2, 0.4, True),
               Weighed(mine, 10, 4, 4, 10, 3.0, 10, best=True)]
    numbers = {long.key: "3.2", mine.key: "1"}
    wide = printed.table(weighed, "red", "Ser Aldric", 10, numbers=numbers, width=160)
    assert "  3.2  called shot at Bandit's head, then attack again" in wide
    assert "+10 [-20, +40]" in wide and "90%" not in wide.split("\n")[2]
    narrow = printed.table(weighed, "red", "Ser Aldric", 10, numbers=numbers, width=120)
    assert "  3.2  called head Bandit and again" in narrow
    # every row within the terminal, the profile's mark at the end of its row too
    assert all(len(line) <= 120 for line in narrow.splitlines()[2:-1])


def test_lines_cut_to_the_terminal_never_read_alike():
    """Called shots at a foe's left arm and left leg, cut to a narrow terminal, read
    ``called shot at Gorm's le...`` both, and a newcomer could not tell them apart: a cut
    line shows its keyword (its telling words first), cut in the middle where two would
    still read alike."""
    from sim.ai import rollout
    from sim.ai.ranking import Weighed
    from sim.cli import whatif as printed

    def called(where: str) -> rollout.Choice:
        return rollout.Choice(f"called {where} Gorm and again",
                              f"called shot at Gorm's {where}, then attack again", False, None)

    lines = [called(w) for w in ("left arm", "left leg", "right arm", "right leg")]
    lines += [rollout.Choice("called left leg Gorm and again and dodge",
                             "called shot at Gorm's left leg, attack again and dodge", False,
                             None),
              rollout.Choice("called left leg Gorm and again and parry",
                             "called shot at Gorm's left leg, attack again and parry", False,
                             None)]
    mine = rollout.Choice("attack Gorm", "attack Gorm", True, None)
    weighed = [Weighed(ch, 10, 5, 5, 10, 3.0, 10, best=True) for ch in [mine, *lines]]
    for width in (100, 110, 120):
        text = printed.table(weighed, "fencer", "Ilse", 10, width=width)
        rows = [line for line in text.splitlines() if "%" in line and "  " in line.strip()]
        shown = [row[2 + printed.NUM + 2:].split("  ")[0] for row in rows]
        assert len(shown) == len(weighed) and len(set(shown)) == len(shown), shown


def test_a_row_marked_screened_stays_within_the_terminal():
    """The notes after a row ('screened') count in the width the labels are fitted to."""
    from sim.ai import rollout
    from sim.ai.ranking import Weighed
    from sim.cli import whatif as printed

    long = rollout.Choice("called head Bandit and again",
                          "called shot at Bandit's head, then attack again", False, None)
    mine = rollout.Choice("attack Bandit", "attack Bandit", True, None)
    weighed = [Weighed(mine, 40, 20, 20, 40, 3.0, 40, best=True),
               Weighed(long, 5, 3, 3, 5, 3.0, 5, 0.1, -0.2, 0.4, screened=True, maybe=True)]
    text = printed.table(weighed, "red", "Ser Aldric", 40, width=100)
    row = next(line for line in text.splitlines() if "(screened)" in line)
    assert len(row) <= 100, row
    assert "1 of 2 lines had only the screen's 5 rollouts (marked 'screened')" in text


def test_lines_that_were_one_fight_say_so_by_their_menu_numbers_within_the_terminal():
    from sim.ai import rollout
    from sim.ai.ranking import Weighed
    from sim.cli import whatif as printed

    dodge = rollout.Choice("defend dodge", "dodge (until its next turn)", False, None)
    back = rollout.Choice("fall back", "fall back toward ford and stay on the field", False,
                          None)
    mine = rollout.Choice("run Ulric", "run at Ulric", True, None)
    weighed = [Weighed(mine, 40, 30, 30, 40, 9.0, 40, best=True),
               Weighed(dodge, 40, 20, 20, 40, 9.0, 40, -0.25, -0.4, -0.1,
                       as_one=(back.key,)),
               Weighed(back, 40, 20, 20, 40, 9.0, 40, -0.25, -0.4, -0.1,
                       as_one=(dodge.key,))]
    numbers = {dodge.key: "1", back.key: "4", mine.key: "2.1"}
    text = printed.table(weighed, "raiders", "Raider 1", 40, numbers=numbers, width=120)
    rows = {line.split()[0]: line for line in text.splitlines()[3:-1] if line.strip()}
    assert rows["1"].endswith("(same fight as 4)") and rows["4"].endswith("(same fight as 1)")
    assert "same fight" not in rows["2.1"]
    assert all(len(row) <= 120 for row in rows.values())
    assert "same fight as N" in printed.LEGEND
    assert printed.as_json(weighed)["options"][1]["as_one"] == [back.label]
