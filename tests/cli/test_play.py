"""``fray play``: a fight with the player's fighters answered from a script, and replayed.

The menu comes from ``sim.ai.menu`` (the ruleset's advisor); each attack's odds are exact
(``Advisor.attack_odds``), checked here against counts by hand for a pinned case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import menu as menu_of
from helpers import SCENARIOS, any_ruleset, fray, hurt, scenario, typo

from sim import scenario as scenario_mod
from sim.ai import menu as menus
from sim.ai import profiles as ai
from sim.core.actions import Attack, Bide
from sim.core.engine import Encounter
from sim.rulesets import registry

DUEL = str(SCENARIOS / "duel.yaml")
AMBUSH = str(SCENARIOS / "ambush.yaml")
# a ruleset other than the duel's own
OTHER = next(name for name in registry.names() if name != scenario_mod.load(DUEL).ruleset)


def play(capsys, monkeypatch, answers: str, *args: str):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(answers))
    return fray(capsys, "play", *args)


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_scripted_fight_reaches_its_end_and_replays(capsys, monkeypatch, tmp_path, ruleset):
    log = tmp_path / "journal.md"
    first = play(capsys, monkeypatch, "1\n1\n1\n1\n", AMBUSH, "--as", "Wolfman,Kestrel",
                 "--ruleset", ruleset, "--seed", "4", "--log", str(log))
    assert first.code == 0, first.err
    assert "Victory to " in first.out or "Draw after" in first.out
    assert "Aftermath" in first.out and "End of the player's answers" in first.out
    record = json.loads((tmp_path / "journal.md.record.json").read_text())
    assert record["as"] == ["Wolfman", "Kestrel"] and record["answers"] == ["1"] * 4
    assert log.read_text().startswith("# ")
    again = play(capsys, monkeypatch, "", AMBUSH, "--replay",
                 str(tmp_path / "journal.md.record.json"))
    assert again.code == 0 and again.out == first.out


def test_a_bad_answer_in_a_script_names_it(capsys, monkeypatch):
    result = play(capsys, monkeypatch, "swing wildly\n", DUEL, "--as", "Ser Aldric")
    assert result.code == 2
    assert "answer 1: 'swing wildly' is not on the menu" in result.err
    # after the roll, the sets are the player's to give: a choice, not a menu
    choice = play(capsys, monkeypatch, "1\nswing wildly\n", DUEL, "--as", "Ser Aldric")
    assert choice.code == 2
    assert "answer 2: 'swing wildly' is not one of the choices" in choice.err


def test_unknown_players_and_keywords(capsys, monkeypatch):
    bad = play(capsys, monkeypatch, "", DUEL, "--as", "Ser Aldrik")
    assert bad.code == 2 and "did you mean 'Ser Aldric'" in bad.err
    # each declaration, then an empty line: the AI's choice of which set goes where
    keyword = play(capsys, monkeypatch, "defend parry\n\nhold\nattack Ser Benedek\n\n",
                   DUEL, "--as", "Ser Aldric", "--seed", "5")
    assert keyword.code == 0
    assert "the player's choice: parry" in keyword.out
    assert "the player's choice: attack Ser Benedek" in keyword.out


def test_a_replay_of_another_scenario_is_refused(capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--record",
                str(record)).code == 0
    assert json.loads(record.read_text())["kind"] == "play"
    other = play(capsys, monkeypatch, "", AMBUSH, "--replay", str(record))
    assert other.code == 2 and f"{record}: digest: the record was made from another " \
        "scenario file" in other.err
    assert "recorded: 'duel'" in other.err and "this file: 'ambush'" in other.err


def _damaged(record: Path, tmp_path: Path, **change) -> Path:
    doc = json.loads(record.read_text())
    for key, value in change.items():
        if value is DROP:
            del doc[key]
        else:
            doc[key] = value
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(doc))
    return path


DROP = object()


@pytest.mark.parametrize("change, needles", [
    ({"answers": DROP}, ["answers: missing: a record of fray play holds scenario, digest"]),
    ({"seed": "3"}, ["seed: expected an integer of 0 or more, got '3'"]),
    ({"seed": True}, ["seed: expected an integer of 0 or more, got True"]),
    ({"ruleset": typo(any_ruleset())}, [f"ruleset: unknown ruleset '{typo(any_ruleset())}' "
                                        f"(did you mean '{any_ruleset()}'?); allowed: "]),
    ({"as": ["Ser Aldrik"]}, ["as: unknown combatant 'Ser Aldrik' (did you mean 'Ser "
                              "Aldric'?); allowed: Ser Aldric, Ser Benedek"]),
    ({"as": []}, ["as: expected a list of the names of the combatants played, got []"]),
    ({"answers": ["1", 2]}, ["answers: expected a list of answers (strings"]),
    ({"kind": "campaign"}, ["kind: a record of fray campaign --as; here --replay takes a "
                            "record of fray play"]),
    ({"kind": "diary"}, ["kind: expected 'play' (a record of fray play), got 'diary'"]),
    # two faults at once: both named, each with its field
    ({"seed": -1, "answers": "1"}, ["seed: expected an integer of 0 or more, got -1",
                                    "answers: expected a list of answers"]),
])
def test_a_damaged_record_names_the_file_the_field_and_what_is_allowed(
        capsys, monkeypatch, tmp_path, change, needles):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--record",
                str(record)).code == 0
    damaged = _damaged(record, tmp_path, **change)
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(damaged))
    assert result.code == 2, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    for needle in needles:
        assert f"{damaged}: {needle}" in result.err, result.err


@pytest.mark.parametrize("text, needle", [
    ("{not json", "not a record (not JSON: "),
    ("[1, 2]", "not a record: expected a JSON object with kind, digest, ruleset, seed"),
    ("\xff\xfe", "not a record: not UTF-8 text"),
])
def test_a_record_that_is_not_one_is_refused(capsys, monkeypatch, tmp_path, text, needle):
    path = tmp_path / "r.json"
    path.write_bytes(text.encode("latin-1"))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(path))
    assert result.code == 2 and f"error: {path}: {needle}" in result.err, result.err
    missing = play(capsys, monkeypatch, "", DUEL, "--replay", str(tmp_path / "none.json"))
    assert missing.code == 2 and "none.json: file not found" in missing.err


def test_a_record_without_a_kind_is_a_play_record(capsys, monkeypatch, tmp_path):
    """Records written before ``kind`` existed replay as they did."""
    record = tmp_path / "r.json"
    first = play(capsys, monkeypatch, "1\n\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                 "--record", str(record))
    old = _damaged(record, tmp_path, kind=DROP)
    again = play(capsys, monkeypatch, "", DUEL, "--replay", str(old))
    assert again.code == 0, again.err
    assert again.out == first.out


def test_a_refused_answer_is_not_recorded(capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    result = play(capsys, monkeypatch, "1\nswing wildly\n", DUEL, "--as", "Ser Aldric",
                  "--record", str(record))
    assert result.code == 2 and "answer 2: 'swing wildly'" in result.err
    assert json.loads(record.read_text())["answers"] == ["1"]


@pytest.mark.parametrize("ruleset", registry.names())
def test_bide_is_offered_only_where_it_does_something(ruleset):
    """Offered where the ruleset resolves a bide (which do: their folders' test_play.py).
    OpenD6 rolls initiative once per fight, so its menu offered "act later, first next
    round" for a turn that changed nothing."""
    enc, _, _, menu = menu_of(ruleset)
    keys = {o.key for o in menu}
    assert ("bide" in keys) == (Bide in enc.ruleset.supports), sorted(keys)


@pytest.mark.parametrize("profile", ["basic", "aggressive", "cautious", "tactical"])
@pytest.mark.parametrize("ruleset", registry.names())
def test_every_ai_declaration_is_on_the_menu(ruleset, profile):
    """The menu and the profiles ask the same advisor: what a profile declares is offered.

    The mirror match (swords and bows, walls and a copse) gives every profile its moves:
    cover, stepping back, holding at a shooter's side, charges, several attacks, defenses.
    """
    data = __import__("yaml").safe_load((SCENARIOS / "mirror.yaml").read_text())
    for members in data["sides"].values():
        for member in members:
            member["ai"] = profile
    scen = __import__("sim.scenario", fromlist=["parse"]).parse(data, "mirror.yaml")
    for seed in range(4):
        enc = Encounter(scen, ruleset, seed)

        def checked(e, c):
            state = e.rng.getstate()
            offered = {o.intents for o in menus.options(e, c)}
            e.rng.setstate(state)
            intents = ai.decide(e, c)
            assert not intents or tuple(intents) in offered, (c.name, intents, c.why)
            return intents

        enc.minds = {c.name: checked for c in enc.combatants}
        enc.run()


def test_choices_after_the_roll_are_the_players(capsys, monkeypatch):
    """ORE: the player gives its roll's sets to its actions; 2 picks the AI's second choice."""
    default = play(capsys, monkeypatch, "1\n\n", DUEL, "--as", "Ser Aldric", "--seed", "3")
    other = play(capsys, monkeypatch, "1\n2\n", DUEL, "--as", "Ser Aldric", "--seed", "3")
    assert "2x7 -> attack on Ser Benedek." in default.out  # the widest set, as the AI gives
    assert "2x1 -> attack on Ser Benedek." in other.out     # the player's other pick
    assert "which set for which action?" in other.out


@pytest.mark.slow
def test_ctrl_c_leaves_cleanly_and_keeps_the_record(tmp_path):
    """SIGINT while the play waits for its next answer: exit 130, the record so far kept."""
    import signal
    import subprocess
    import sys

    record = tmp_path / "r.json"
    # a job started in the background inherits SIGINT ignored; a terminal's Ctrl-C is not
    child = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "from sim.cli import main; main()")
    journal = tmp_path / "j.md"
    proc = subprocess.Popen(
        [sys.executable, "-u", "-c", child, "play", DUEL, "--as",
         "Ser Aldric", "--seed", "3", "--record", str(record), "--log", str(journal)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write("1\n\n")
    proc.stdin.flush()
    for line in proc.stdout:  # the second round's panel: the play waits for answer 3
        if line.startswith("Round 2:"):
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert json.loads(record.read_text())["answers"] == ["1", ""]
    assert journal.read_text().startswith("# ") and "## Round 2" in journal.read_text()


def test_a_replay_refuses_options_it_would_ignore(capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    first = play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                 "--record", str(record))
    assert first.code == 0, first.err
    for extra in (["--seed", "9"], ["--ruleset", OTHER], ["--as", "Ser Benedek"]):
        again = play(capsys, monkeypatch, "", DUEL, "--replay", str(record), *extra)
        assert again.code == 2 and f"drop {extra[0]}" in again.err, again.err
    assert play(capsys, monkeypatch, "", DUEL, "--replay", str(record)).out == first.out


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_bad_declaration_in_a_script_names_it_under_every_ruleset(capsys, monkeypatch,
                                                                     ruleset):
    result = play(capsys, monkeypatch, "1\nswing wildly\n", DUEL, "--as", "Ser Aldric",
                  "--ruleset", ruleset, "--seed", "3")
    assert result.code == 2
    assert "answer 2: 'swing wildly' is not " in result.err  # the menu or a choice


def test_when_the_script_runs_out_the_profile_spends_again():
    from sim.cli.play import PLAYER, Player

    scen = scenario({"a": [{"name": "A", "ai": "passive"}], "b": [{"name": "B"}]},
                    ruleset=any_ruleset())
    player = Player(iter([]), lambda text: None)
    enc = Encounter(scen, any_ruleset(), 0, log=True, minds={"A": player})
    a = enc.combatants[0]
    own = a.policy
    player.policies["A"], a.policy = own, PLAYER
    assert own != PLAYER
    player(enc, a)  # no answer left: the AI decides, with its own policy back
    assert player.done and a.policy is own


@pytest.mark.parametrize("ruleset", registry.names())
def test_the_menu_suggesting_a_surrender_surrenders_nobody(ruleset):
    """Badly hurt in melee, the tactical AI would yield: the menu says so, and changes nothing.

    The player attacks instead: the fighter stays in the fight and its attack is declared.
    """
    from sim.cli.play import Player

    scen = scenario({"a": [{"name": "A", "ai": "cautious", "weapon": "sword"}],
                     "b": [{"name": "B", "weapon": "sword"}]}, ruleset=ruleset)
    said = []
    player = Player(iter(["attack B"]), said.append)
    enc = Encounter(scen, ruleset, 0, log=True, minds={"A": player})
    a, b = enc.combatants
    hurt(enc, a, 0.7)
    intents = enc.declare(a)
    assert any("would do (or Enter): yield" in text for text in said)  # the suggestion
    assert a.in_fight and enc.sides_left == 2
    assert [type(i).__name__ for i in intents] == ["Attack"]


def test_a_refused_keyword_gets_the_nearest_ones(capsys, monkeypatch):
    word = play(capsys, monkeypatch, "parry\n", DUEL, "--as", "Ser Aldric", "--seed", "3")
    assert word.code == 2 and "(did you mean 'defend parry' or 'attack Ser Benedek and " \
        "parry'?)" in word.err
    typo = play(capsys, monkeypatch, "atack Ser Benedek\n", DUEL, "--as", "Ser Aldric")
    assert typo.code == 2 and "(did you mean 'attack Ser Benedek'?)" in typo.err


# --- the two-step menu: a short first menu, a group's details in a second -----------------


def test_a_group_opens_a_second_menu_and_zero_comes_back(capsys, monkeypatch):
    """3 opens the called shots, 3 there is the torso; 2, 0, 1: back out, a plain attack."""
    called = play(capsys, monkeypatch, "3\n3\n\n", DUEL, "--as", "Ser Aldric", "--seed", "3")
    assert called.code == 0, called.err
    assert "called shot at Ser Benedek: answer a number (0: back to the first menu; " \
           "Enter: back)" in called.out  # a basic Ser Aldric calls no shot
    # the torso is 7-9: one die set at 9, and no rolled 7, 8 or 9 twice nor a 9 (7^4 +
    # 4*2*7^3 + 6*2*7^2 of the 10^4 rolls of the other 4 dice miss it)
    assert "  3. torso  [70% to hit, 43% at the torso]  | 4. then attack again" in called.out
    assert "the player's choice: called shot at Ser Benedek's torso" in called.out
    back = play(capsys, monkeypatch, "2\n0\n1\n\n", DUEL, "--as", "Ser Aldric", "--seed", "3")
    assert back.code == 0, back.err
    assert _first_menu_shown(back.out) == 2  # 0 showed the first menu again
    assert "the player's choice: attack Ser Benedek)" in back.out


def test_enter_in_a_second_menu_takes_the_ai_choice_there_or_goes_back(capsys, monkeypatch,
                                                                       tmp_path):
    """A tactical Ser Aldric calls the head: Enter in the called shots takes it (marked);
    Enter in the several attacks, which do not hold it, goes back to the first menu."""
    tactical = tmp_path / "duel.yaml"
    tactical.write_text(Path(DUEL).read_text().replace("- name: Ser Aldric",
                                                       "- name: Ser Aldric\n      ai: tactical"))
    ai_there = play(capsys, monkeypatch, "3\n\n\n", str(tactical), "--as", "Ser Aldric",
                    "--seed", "3")
    assert "0. what Ser Aldric's profile (tactical) would do" in ai_there.out
    assert "1. head  [70% to hit, 34% at the head]   <- the AI would (Enter)" in ai_there.out
    assert "(called shot: head) (the player takes its profile's choice (tactical))" \
        in ai_there.out
    back = play(capsys, monkeypatch, "2\n\ndefend\n2\n\n", DUEL, "--as", "Ser Aldric",
                "--seed", "3")
    assert back.code == 0, back.err
    assert "(0: back to the first menu; Enter: back)" in back.out
    assert _first_menu_shown(back.out) == 2  # Enter went back: the first menu again
    assert "the player's choice: parry" in back.out


def _first_menu_shown(out: str) -> int:
    """How often round 1 of a duel showed its first menu (its plain attack's line)."""
    round_1 = out.split("== Round 1 ==")[1].split("== Round 2 ==")[0]
    line = next(x for x in round_1.splitlines() if x.startswith("  1. attack Ser Benedek"))
    return round_1.count(line + "\n")


def test_a_second_menu_takes_keywords_as_the_first_does(capsys, monkeypatch):
    """In the several attacks: another group's keyword opens that group, a detail's keyword
    is declared at once."""
    other = play(capsys, monkeypatch, "2\ndefend\n2\n\n", DUEL, "--as", "Ser Aldric",
                 "--seed", "3")
    assert other.code == 0, other.err
    assert "defend (dodge or parry): answer a number" in other.out
    assert "the player's choice: parry" in other.out
    detail = play(capsys, monkeypatch, "2\ncalled torso Ser Benedek\n\n", DUEL, "--as",
                  "Ser Aldric", "--seed", "3")
    assert "the player's choice: called shot at Ser Benedek's torso" in detail.out


def test_a_bad_answer_in_a_second_menu_names_it(capsys, monkeypatch):
    result = play(capsys, monkeypatch, "3\n13\n", DUEL, "--as", "Ser Aldric")
    assert result.code == 2
    assert "answer 2: '13' is not one of these: answer 1-12, 0 to go back" in result.err


def test_keywords_name_a_detail_at_once_from_the_first_menu(capsys, monkeypatch):
    result = play(capsys, monkeypatch, "called left leg Ser Benedek\n\n", DUEL, "--as",
                  "Ser Aldric", "--seed", "3")
    assert result.code == 0, result.err
    assert "the player's choice: called shot at Ser Benedek's left leg" in result.out
    assert "(0: back to the first menu" not in result.out  # no second step


def test_a_new_record_names_its_menu_and_replays_through_both_steps(capsys, monkeypatch,
                                                                     tmp_path):
    record = tmp_path / "r.json"
    first = play(capsys, monkeypatch, "3\n0\n4\n2\n\n", DUEL, "--as", "Ser Aldric",
                 "--seed", "3", "--record", str(record))
    assert first.code == 0, first.err
    kept = json.loads(record.read_text())
    assert kept["menu"] == 3 and kept["answers"][:4] == ["3", "0", "4", "2"]
    again = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert again.code == 0 and again.out == first.out
    assert "the player's choice: parry" in again.out


def test_a_replay_under_other_code_says_the_fight_may_differ(capsys, monkeypatch, tmp_path):
    """A rule fixed since (OpenD6 declaring at turns) can change the fight a record replays:
    the record keeps the code's digest, and a replay under other code says so."""
    from sim.batch.runner import code_digest

    record = tmp_path / "r.json"
    first = play(capsys, monkeypatch, "1\n\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                 "--record", str(record))
    assert first.code == 0, first.err
    kept = json.loads(record.read_text())
    assert kept["code"] == code_digest()
    same = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert same.code == 0 and "a different fight" not in same.err
    record.write_text(json.dumps({**kept, "code": "0123456789abcdef"}))
    other = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert other.code == 0 and other.out == first.out  # still replayed
    assert "recorded by another version of fray (code '0123456789abcdef'" in other.err
    assert "can make this replay a different fight" in other.err
    del kept["code"]
    record.write_text(json.dumps(kept))
    older = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert older.code == 0 and "did not note its code" in older.err


# --- answers and records that must be refused cleanly, or taken ------------------------


@pytest.mark.parametrize("answers", ["\u00b2\n", "2\n\u00b2\n", "1\n\u00b2\n"])
def test_a_superscript_digit_is_refused_not_a_crash(capsys, monkeypatch, tmp_path, answers):
    """'²' passes str.isdigit, not int: at the first menu, a second menu and a choice."""
    log = tmp_path / "j.md"
    result = play(capsys, monkeypatch, answers, DUEL, "--as", "Ser Aldric", "--seed", "3",
                  "--log", str(log))
    assert result.code == 2, result.err
    assert "'\u00b2' is not" in result.err and "internal error" not in result.err
    assert log.exists() and (tmp_path / "j.md.record.json").exists()  # both kept


def test_ai_takes_its_profiles_choice_at_either_step(capsys, monkeypatch):
    first = play(capsys, monkeypatch, "AI\n\n", DUEL, "--as", "Ser Aldric", "--seed", "3")
    second = play(capsys, monkeypatch, "2\nai\n\n", DUEL, "--as", "Ser Aldric", "--seed",
                  "3")
    for result in (first, second):
        assert result.code == 0, result.err
        assert "(the player takes its profile's choice (basic))" in result.out


def test_a_copy_of_the_scenario_under_another_name_replays(capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                "--record", str(record)).code == 0
    copy = tmp_path / "my_duel.yaml"
    copy.write_text(Path(DUEL).read_text())
    assert play(capsys, monkeypatch, "", str(copy), "--replay", str(record)).code == 0


@pytest.mark.parametrize("kind", [["play"], {}, 3])
def test_a_record_whose_kind_is_not_a_word_is_refused(capsys, monkeypatch, tmp_path, kind):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                "--record", str(record)).code == 0
    record.write_text(json.dumps({**json.loads(record.read_text()), "kind": kind}))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert result.code == 2 and f"{record}: kind: expected 'play'" in result.err


def test_the_record_and_the_journal_cannot_be_one_file(capsys, monkeypatch, tmp_path):
    same = tmp_path / "same"
    result = play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--log", str(same),
                  "--record", str(same))
    assert result.code == 2
    assert f"--record: {same} is also the --log file: give the record a file of its own" \
        in result.err
    assert not same.exists()


def test_a_replayed_bad_answer_names_the_record(capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                "--record", str(record)).code == 0
    doc = {**json.loads(record.read_text()), "answers": ["99"]}
    record.write_text(json.dumps(doc))
    edited = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert edited.code == 2 and f"{record}: answers: changed since the record" in edited.err
    record.write_text(json.dumps({k: v for k, v in doc.items() if k != "check"}))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert result.code == 2
    assert f"{record}: answers: answer 1: '99' is not on the menu" in result.err


def test_a_refused_answer_hints_at_the_groups_keywords_too(capsys, monkeypatch):
    typo = play(capsys, monkeypatch, "called Ser Benedk\n", DUEL, "--as", "Ser Aldric")
    assert typo.code == 2 and "(did you mean 'called Ser Benedek'?)" in typo.err
    defend = play(capsys, monkeypatch, "defnd\n", DUEL, "--as", "Ser Aldric")
    assert defend.code == 2 and "(did you mean 'defend'?)" in defend.err


@pytest.mark.parametrize("ruleset", registry.names())
def test_stepping_back_is_offered_only_out_of_melee_and_never_on_the_spot(ruleset):
    """An archer 18 m from every foe was offered "step back to west_camp and shoot", where
    she stood; with a swordsman at her side, the menu offers a step back, elsewhere (where
    a turn holds two actions)."""
    from sim.scenario import load

    scen = load(SCENARIOS / "mirror.yaml")
    enc = Encounter(scen, ruleset, 5)
    archer = next(c for c in enc.combatants if c.ranged and c.side == "west")
    far = [o for o in menus.options(enc, archer) if o.key.startswith("step back")]
    assert far == []
    foe = next(c for c in enc.combatants if not c.ranged and c.side == "east")
    foe.pos = archer.pos  # in melee reach
    near = [o for o in menus.options(enc, archer) if o.key.startswith("step back")]
    if (enc.ruleset.max_actions or 99) < 2:  # a step back and a shot: two actions
        assert near == []
        return
    # where one roll carries both (ORE, B-Grade), a roll that cannot is not offered
    from sim.ai import tactics
    from sim.core.actions import Retreat
    spots = [s for s in tactics.step_back_spots(enc, archer, enc.enemies(archer), foe)
             if s != archer.pos]
    assert spots
    if enc.advisor.move_attack_odds(enc, archer, [Retreat(spots[0]), Attack(foe)]) == 0:
        assert near == []
        return
    assert near and all(o.intents[0].dest != archer.pos for o in near)


# ---------------------------------------------------------------------------- kept plays
def test_a_play_that_cannot_write_its_files_is_refused_before_the_fight(capsys, monkeypatch,
                                                                        tmp_path):
    from sim.batch import files

    real = files.temporary

    def read_only(path):  # root writes anywhere: a read-only folder, simulated where it bites
        if path.parent.name == "ro":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(files, "temporary", read_only)
    (tmp_path / "ro").mkdir()
    result = play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric",
                  "--log", str(tmp_path / "ro" / "j.md"))
    assert result.code == 2 and "j.md: cannot write: Permission denied" in result.err
    assert "Round 1" not in result.out  # refused before a single answer was asked
    record = play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric",
                  "--record", str(tmp_path / "missing" / "r.json"))
    assert record.code == 2 and "r.json: cannot write: No such file" in record.err


def test_a_killed_play_keeps_every_answer_given_and_replays_up_to_there(capsys, monkeypatch,
                                                                       tmp_path):
    """SIGKILL mid-fight: the record on disk holds the answers so far, and replays."""
    import signal
    import subprocess
    import time

    from helpers import FRAY_COMMAND

    record = tmp_path / "r.json"
    proc = subprocess.Popen(
        [*FRAY_COMMAND, "play", DUEL, "--as", "Ser Aldric", "--seed", "3", "--record",
         str(record)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, text=True)
    try:
        proc.stdin.write("1\n\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # each answer is on disk once it is given
            if record.exists() and len(json.loads(record.read_text())["answers"]) == 2:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert json.loads(record.read_text())["answers"] == ["1", ""]
    again = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert again.code == 0 and "End of the player's answers" in again.out


@pytest.mark.parametrize("field, value", [("seed", 4), ("ruleset", OTHER),
                                          ("as", ["Ser Benedek"])])
def test_an_edited_record_names_the_field_that_changed(capsys, monkeypatch, tmp_path, field,
                                                      value):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                "--record", str(record)).code == 0
    record.write_text(json.dumps({**json.loads(record.read_text()), field: value}))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert result.code == 2
    assert f"{record}: {field}: changed since the record was written" in result.err


def test_a_replay_says_how_many_answers_it_never_used(capsys, monkeypatch, tmp_path):
    record = tmp_path / "r.json"
    assert play(capsys, monkeypatch, "1\n", DUEL, "--as", "Ser Aldric", "--seed", "3",
                "--record", str(record)).code == 0
    doc = json.loads(record.read_text())
    doc = {k: v for k, v in doc.items() if k != "check"}
    record.write_text(json.dumps({**doc, "answers": doc["answers"] + [""] * 200_000}))
    result = play(capsys, monkeypatch, "", DUEL, "--replay", str(record))
    assert result.code == 0
    assert "answers not asked for; they were ignored" in result.err


def test_a_replay_reads_only_a_regular_record_of_a_sane_size(capsys, monkeypatch, tmp_path):
    import os
    import time

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    start = time.monotonic()
    for path, why in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                      (deep, "not a record: nested deeper than 64 levels")):
        result = play(capsys, monkeypatch, "", DUEL, "--replay", str(path))
        assert result.code == 2 and f"{path}: {why}" in result.err, result.err
    assert time.monotonic() - start < 10  # nothing blocked, nothing read without end


@pytest.mark.parametrize("args", [
    ["play", "scenarios/duel.yaml", "--as", "Ser Aldric", "--seed", "3", "--log", ""],
    ["campaign", "scenarios/campaigns/road_to_the_keep.yaml", "--play", "Kestrel", "--seed",
     "7", "--output", ""],
])
def test_an_empty_journal_name_is_bad_input(capsys, args):
    got = fray(capsys, *[str(SCENARIOS / a.removeprefix("scenarios/"))
                         if a.startswith("scenarios/") else a for a in args])
    # refused at the option itself (params.FilePath), naming it; '.' is records.claim's
    assert got.code == 2 and "an empty file name" in got.err and "internal" not in got.err


def test_a_question_with_one_choice_is_not_asked_unless_a_record_asked_it():
    from sim.cli.play import Player

    said: list[str] = []
    answers = iter(["2"])
    player = Player(answers, said.append)
    assert player.choose(None, None, "which set?", ["the only one"], 0) == 0
    assert said == [] and next(answers) == "2"  # nothing said, no answer read
    older = Player(iter(["1"]), said.append, asks_single=True)  # a record made when it was
    older.show_log = lambda enc: None
    assert older.choose(None, type("C", (), {"name": "x"})(), "which set?", ["the only one"],
                        0) == 0
    assert older.answers == ["1"]


@pytest.mark.parametrize("ruleset", registry.names())
def test_the_legend_explains_the_words_of_the_log_and_the_menus(capsys, monkeypatch,
                                                                ruleset):
    """Gobble dice, a takedown's worth, a range band: said once, in the legend that opens
    a played fight and a told one (``fray run``) alike."""
    glossary = registry.get(ruleset).glossary
    result = play(capsys, monkeypatch, "", DUEL, "--as", "Ser Aldric", "--ruleset", ruleset)
    assert result.code == 0, result.err
    told = fray(capsys, "run", DUEL, "--ruleset", ruleset)
    assert told.code == 0, told.err
    for out in (result.out, told.out):
        flat = " ".join(out.split())  # (the legend is wrapped to the terminal)
        assert (flat.count(" ".join(glossary.split())) == 1) if glossary else "Words:" not in flat


def test_a_bundled_scenario_is_named_and_a_record_replays_alone(capsys, monkeypatch,
                                                                tmp_path):
    record = tmp_path / "r.json"
    played = play(capsys, monkeypatch, "1\n", "duel", "--as", "Ser Aldric", "--seed", "3",
                  "--record", str(record))
    assert played.code == 0, played.err
    assert json.loads(record.read_text())["file"] == str(Path(DUEL).resolve())
    again = play(capsys, monkeypatch, "", "--replay", str(record))
    assert again.code == 0, again.err
    assert [x for x in again.out.splitlines() if x.startswith("  [")] == [
        x for x in played.out.splitlines() if x.startswith("  [")]
    # a record whose noted file is gone finds the bundled scenario of its name
    doc = json.loads(record.read_text())
    record.write_text(json.dumps({**doc, "file": str(tmp_path / "gone.yaml")}))
    assert play(capsys, monkeypatch, "", "--replay", str(record)).code == 0
    record.write_text(json.dumps({**doc, "file": "", "scenario": "nowhere"}))
    lost = play(capsys, monkeypatch, "", "--replay", str(record))
    assert lost.code == 2 and "is not a bundled one" in lost.err
    alone = play(capsys, monkeypatch, "")
    assert alone.code == 2 and "or --replay a record" in alone.err
    assert fray(capsys, "run", "duel", "--seed", "2").code == 0


def test_the_helps_replay_example_names_the_record_play_writes():
    """``fray play --help``'s example replays the record a ``--log journal.md`` writes."""
    from sim.cli import campaign, play, records

    record = "journal.md" + records.SUFFIX
    assert f"--replay {record}" in play.EPILOG_PLAY
    assert f"--replay {record}" in campaign.EPILOG_CAMPAIGN
