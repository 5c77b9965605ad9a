"""``fray play`` under ORE (and B-Grade): the exact chance of a set, called shots in the menu,
moves and the two-step menu."""

from __future__ import annotations

import json
from math import perm

import pytest
from builders import menu as menu_of
from helpers import SCENARIOS, fray, scenario

from sim.ai import menu as menus
from sim.core.engine import Encounter

DUEL = str(SCENARIOS / "duel.yaml")
AMBUSH = str(SCENARIOS / "ambush.yaml")


def play(capsys, monkeypatch, answers: str, *args: str):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(answers))
    return fray(capsys, "play", *args)


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_ore_menu_odds_are_the_exact_chance_of_a_set(ruleset):
    enc, a, b, menu = menu_of(ruleset, traits={"strength": 3, "endurance": 3},
                            skills={"melee": 3}, weapon="sword")
    plain = menus.find(menu, "attack B")
    assert plain.odds == pytest.approx(1 - perm(10, 6) / 10**6)  # 6 dice, no pair in 10P6
    if ruleset == "ore":  # a called head shot: 5 dice, one set at 10
        head = menus.find(menu, "called head B")
        assert head.odds == pytest.approx(1 - perm(9, 4) / 10**4)
        # the plain attack's head set: two or more 10s among 6 dice
        assert plain.harm == (("to the head", pytest.approx(1 - 0.9**6 - 6 * 0.1 * 0.9**5)),)
        # the called head shot lands there with any 10 among its 4 rolled dice
        assert head.harm == (("at the head", pytest.approx(1 - 0.9**4)),)
    else:
        assert plain.harm == ()  # B-Grade has no hit locations: a set that lands is all


def test_each_menu_number_picks_the_option_it_is_printed_beside():
    """Paired lines (a called shot | then again) keep every number on its own option."""
    import re

    from sim.report.panel import menu_text

    enc, a, b, menu = menu_of("ore", traits={"strength": 3}, skills={"melee": 3}, weapon="sword")
    text = menu_text(menu, "hold")
    shown = {int(n): label.strip() for n, label in
             re.findall(r"(?:^  |\| )(\d+)\. (.+?)(?:  \[|   \(|  \||$)", text, re.M)}
    assert sorted(shown) == list(range(len(menu) + 1))
    head = menus.find(menu, "called head B and again")
    k = menu.index(head) + 1
    assert shown[k] == "then attack again" and shown[k - 1] == "called shot at B's head"
    assert len(text.splitlines()) < len(menu) + 1  # the pairs share lines


def test_at_a_terminal_a_bad_answer_is_asked_again_with_the_reason(monkeypatch):
    """The terminal path (no script): the reason is said, the answer asked again, and only
    the good answers go to the record."""
    from sim.cli.play import Player

    typed = iter(["swing wildly", "99", "attack B twice", "7", "2"])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(typed))
    said: list[str] = []
    player = Player(None, said.append)
    enc, a, b, menu = menu_of("ore", traits={"strength": 3}, skills={"melee": 3}, weapon="sword")
    chosen = player._choose(enc, a, menu, [], menus.top(menu), "")
    assert chosen == list(menus.find(menu, "attack B twice").intents)
    assert "'swing wildly' is not on the menu" in said[0] and "'99'" in said[1]
    assert player.answers == ["attack B twice"]
    enc.log = []  # a play's encounter keeps its log: the question follows the events
    choice = player.choose(enc, a, "which?", ["one", "two"], 0)
    assert choice == 1 and "'7' is not one of the choices" in said[-1]
    assert player.answers[-1] == "2" and "7" not in player.answers


def test_moves_say_where_they_end_and_a_fall_back_may_stay_on_the_field():
    from sim import scenario as scenario_mod
    from sim.core.actions import Retreat

    enc = Encounter(scenario_mod.load(AMBUSH), "ore", 5)
    wolfman = next(c for c in enc.combatants if c.name == "Wolfman")
    menu = menus.options(enc, wolfman)
    toward = menus.find(menu, "move Bandit 2")
    assert "12.0 m away; you end 2.0 m from it" in toward.label  # 12 m, a move of 10 m
    stay, flee = menus.find(menu, "fall back"), menus.find(menu, "flee")
    assert stay.intents == (Retreat(flee.intents[0].dest),)  # the same place, not leaving
    wolfman.pos = flee.intents[0].dest
    assert menus.find(menus.options(enc, wolfman), "fall back") is None  # already there


def test_the_first_menu_is_short_and_every_option_is_in_exactly_one_line():
    enc, a, b, menu = menu_of("ore", traits={"strength": 3}, skills={"melee": 3}, weapon="sword")
    entries = menus.top(menu)
    assert len(menu) >= 20 and len(entries) <= 8  # the duel's 25 options, 7 lines
    flat = [o for e in entries for o in (e.options if isinstance(e, menus.Group) else [e])]
    assert flat == menu  # nothing lost, nothing twice, the menu's order kept
    assert entries[0] is menus.find(menu, "attack B")  # a plain attack is one answer
    called = menus.find_top(entries, menu, "called B")
    assert isinstance(called, menus.Group) and menus.find(menu, "called head B") in \
        called.options


def test_a_record_before_the_two_step_menu_replays_with_its_one_long_list(
        capsys, monkeypatch, tmp_path):
    """Its numbers count in the long list: 9 there was the called head shot (here 9 is not
    on the first menu at all)."""
    from sim import scenario as scenario_mod
    from sim.batch.chunks import scenario_digest

    digest = scenario_digest(scenario_mod.load(DUEL))
    old = {"scenario": "duel", "digest": digest, "ruleset": "ore", "seed": 3,
           "as": ["Ser Aldric"], "answers": ["9", ""]}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(path))
    assert result.code == 0, result.err
    assert "  9. called shot at Ser Benedek's head  [70% to hit, 34% at the head]  | 10. then " \
        "attack again" in result.out  # the long list, as it was shown when the record was made
    assert "the player's choice: called shot at Ser Benedek's head" in result.out
    path.write_text(json.dumps({**old, "menu": 4}))
    newer = play(capsys, monkeypatch, "", DUEL, "--replay", str(path))
    assert newer.code == 2 and "answers are to menu 4, which this fray does not know" in \
        newer.err


def test_the_player_sets_the_master_die(capsys, monkeypatch, tmp_path):
    master = tmp_path / "master.yaml"
    master.write_text("name: master\nsides:\n"
                      "  a: [{name: Master, weapon: sword, ore: {stats: {body: 3},\n"
                      "       skills: {fight: 3}, master: fight}}]\n"
                      "  b: [{name: Foe, weapon: sword}]\n")
    ai_face = play(capsys, monkeypatch, "1\n\n\n", str(master), "--as", "Master", "--seed", "2")
    nine = play(capsys, monkeypatch, "1\n9\n\n", str(master), "--as", "Master", "--seed", "2")
    assert "the master die shows?" in nine.out
    assert "rolls 6d (fight pool 6, master die): 9 8 7 7 7 4" in ai_face.out  # the AI: 3x7
    assert "rolls 6d (fight pool 6, master die): 9 9 8 7 7 4" in nine.out


def test_at_a_terminal_quit_is_refused_with_the_way_to_stop(monkeypatch):
    # no menu line stops a fight: a player who types quit is told how (Ctrl-C), not only
    # that quit is not on the menu; a real answer is refused without that hint
    from sim.cli.play import STOP_HINT, Player

    typed = iter(["quit", "swing wildly", "attack B twice"])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(typed))
    said: list[str] = []
    player = Player(None, said.append)
    enc, a, b, menu = menu_of("ore", traits={"strength": 3}, skills={"melee": 3}, weapon="sword")
    player._choose(enc, a, menu, [], menus.top(menu), "")
    assert "'quit' is not on the menu" in said[0] and STOP_HINT in said[0]
    assert "Ctrl-C" in STOP_HINT and STOP_HINT not in said[1]
    assert player.answers == ["attack B twice"]


COVER_MAP = {"nodes": {"open": {}, "wall": {"cover": "medium"}, "far": {}},
             "edges": [["open", "wall", 4], ["open", "far", 30]]}


def _shooter_menu(ruleset: str, traits: int, ranged: int):
    foe = {"name": "B", "at": "far", "weapon": "bow", "skills": {"ranged": 2}}
    me = {"name": "A", "at": "open", "weapon": "bow",
          "traits": {t: traits for t in ("strength", "endurance", "dexterity")},
          "skills": {"ranged": ranged, "dodge": ranged}}
    scen = scenario({"a": [me], "b": [foe]}, ruleset=ruleset, map=COVER_MAP)
    enc = Encounter(scen, ruleset, 0)
    return enc, enc.combatants[0], menus.options(enc, enc.combatants[0])


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_run_to_cover_and_a_shot_shows_the_chance_of_its_two_sets(ruleset):
    """One roll for the move and the shot: the line shows the chance of two sets."""
    from sim.rulesets.ore.odds import p_sets
    enc, a, menu = _shooter_menu(ruleset, 5, 3)
    line = menus.find(menu, "cover wall and shoot B")
    assert line is not None
    plan = enc.ruleset.planner.plan(enc, a, list(line.intents))
    assert 0 < line.odds < 1
    assert line.odds == pytest.approx(p_sets(plan.dice + getattr(a, "bonus", 0), 2, 1))


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_run_to_cover_and_a_shot_that_cannot_roll_two_sets_is_not_offered(ruleset):
    # three dice less one for the second action (ORE): no roll holds two sets
    enc, a, menu = _shooter_menu(ruleset, 1, 0)
    plan = enc.ruleset.planner.plan(enc, a, [menus.find(menu, "cover wall").intents[0],
                                             a.plain_attack])
    assert plan.dice < 4
    assert menus.find(menu, "cover wall") is not None  # the run alone still is
    assert menus.find(menu, "cover wall and shoot B") is None


@pytest.mark.parametrize("seed", [4, 11])
def test_taking_the_profiles_choice_at_every_menu_plays_the_fight_its_ai_would(
        capsys, monkeypatch, seed):
    """A played fighter whose player takes line 0 every time fights as it would unplayed:
    the same rolls, moves and end as ``fray run`` with the seed (ORE asks a player nothing
    else that an AI would decide otherwise). Its profile's choice was asked with the dice
    set aside after the menu's own ties had drawn, and so could differ from its AI's."""
    played = play(capsys, monkeypatch, "\n" * 400, AMBUSH, "--as", "Wolfman,Kestrel",
                  "--seed", str(seed), "--ruleset", "ore")
    told = fray(capsys, "run", AMBUSH, "--seed", str(seed), "--ruleset", "ore")
    assert played.code == 0 and told.code == 0, played.err + told.err

    def fight(out: str) -> list[str]:  # what happened (a played declaration's reason differs)
        return [line for line in out.splitlines()
                if line.startswith("  [") and " declares " not in line]

    assert fight(played.out) and fight(played.out) == fight(told.out)


def test_the_what_if_tables_profiles_choice_is_the_one_enter_takes(capsys, monkeypatch):
    """The ``?`` table marks as the profile's choice the line the menu's 0 names (and
    Enter takes): both ask the profile on the fight's dice as they stand, before the
    menu's own ties draw (``rollout.choices``). In this ambush the two once differed:
    Bandit 1 on the menu, Bandit 2 in the table."""
    monkeypatch.setenv("COLUMNS", "220")
    played = play(capsys, monkeypatch, "? 2\n\n", AMBUSH, "--as", "Wolfman,Kestrel",
                  "--seed", "4", "--ruleset", "ore")
    assert played.code == 0, played.err
    menu_line = next(line for line in played.out.splitlines() if line.startswith("  0. "))
    marked = next(line for line in played.out.splitlines() if "<- its profile's choice" in line)
    label = marked.split(None, 1)[1].split("  ")[0]  # (after the line's number)
    assert label in menu_line, (label, menu_line)
