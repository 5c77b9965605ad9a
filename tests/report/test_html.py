"""``report.html`` (one self-contained file) and the plain-language answer it shares with
``report.md``; a side without attacks reads "n/a" for its hit rate.

The comparison's numbers come from the recorded batch in ``tests/results/data/morale-opend6``;
two small runs go through the command line.
"""

from __future__ import annotations

import base64
import copy
import re
from html import escape
from html.parser import HTMLParser

import pytest
from helpers import (
    MORALE_RUN,
    SCENARIOS,
    any_ruleset,
    fray,
    morale_document,
    stored_ruleset,
    two_rulesets,
)

from sim.report import glance
from sim.report.charts import COMPARE_CHARTS, sweep_chart
from sim.report.compare import answer, cell, compare_table, report_markdown, survival_rounds
from sim.report.html import compare_html, sweep_html
from sim.report.sweep import sweep_answer

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
STORED = stored_ruleset(MORALE_RUN)  # the ruleset of the document's first entry
DATA_URI = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


@pytest.fixture(scope="module")
def doc():
    """A two-ruleset ``lethality.json`` with the scenario's round limit."""
    return morale_document(12)


@pytest.fixture(scope="module")
def images(doc, tmp_path_factory):
    folder = tmp_path_factory.mktemp("charts")
    return {name: draw(doc, folder / name).read_bytes() for name, draw in COMPARE_CHARTS.items()}


class _Tags(HTMLParser):
    """Every start tag and its attributes; fails on nothing, records everything."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _check_self_contained(text: str, pictures: int) -> None:
    """No address to fetch, no script or style sheet outside, ``pictures`` PNGs embedded."""
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "http://" not in text.lower() and "https://" not in text.lower()
    parser = _Tags()
    parser.feed(text)
    names = [tag for tag, _ in parser.tags]
    assert "script" not in names and "link" not in names and "iframe" not in names
    for tag, attrs in parser.tags:
        for key in ("src", "href"):
            if attrs.get(key) is not None:
                assert attrs[key].startswith("data:image/png;base64,"), (tag, key)
    found = DATA_URI.findall(text)
    assert len(found) == pictures
    for data in found:
        assert base64.b64decode(data)[:8] == PNG_SIGNATURE


def _answer_html(text: str) -> str:
    section = re.search(r'<section class="answer" id="answer">(.*?)</section>', text, re.S)
    assert section is not None
    return section.group(1)


# ---------------------------------------------------------------------------- the answer
def test_answer_opens_the_report_before_the_tables(doc):
    text = report_markdown(doc)
    paragraphs = answer(doc)
    assert [label for label, _ in paragraphs] == ["", "Where it is deadliest"]
    first_table = text.index("\n| metric |")
    for label, body in paragraphs:
        shown = f"**{label}.** {body}" if label else body
        assert 0 < text.index(shown) < first_table
    # who wins and who dies: small tables after the first paragraph, before the verdict
    assert (text.index(paragraphs[0][1]) < text.index("**Who wins.**\n\n| ruleset |")
            < text.index("**Who dies.**\n\n| ruleset |") < text.index("**Verdict:**")
            < first_table)


def test_who_wins_and_who_dies_are_small_tables_of_the_document(doc):
    (_, wins_header, wins, note), (_, dies_header, dies, _) = glance.tables(doc)
    heroes = doc["rulesets"][STORED]["sides"]["heroes"]
    # 25 of 30 fights won by the heroes: 83% [66-93%] (the batch table's 0.833 0.664-0.927)
    assert heroes["win_rate"]["value"] == pytest.approx(25 / 30, abs=1e-6)
    assert wins_header == ["ruleset", "heroes win", "bandits win", "draws"]
    assert [row[0] for row in wins] == [STORED, "copy"]  # one row per ruleset
    assert wins[0][1] == "83% [66–93%]"
    assert "round limit (12 rounds)" in note
    deaths = doc["rulesets"][STORED]["sides"]["bandits"]["deaths_per_encounter"]
    assert dies_header[:3] == ["ruleset", "heroes deaths a fight (of 3)",
                               "bandits deaths a fight (of 4)"]
    assert dies[0][2] == (f"{deaths['value']:.2f} [{deaths['ci95'][0]:.2f}–"
                          f"{deaths['ci95'][1]:.2f}]")
    # rows that predate the tended/untended split: no columns for it
    assert len(dies_header) == 3
    assert f"Under {STORED} the heroes win" not in report_markdown(doc)  # no sentence per ruleset


def test_answer_says_where_the_deaths_after_the_fight_came_from(doc):
    split = copy.deepcopy(doc)
    blocks = {STORED: {"deaths_in_fight": 0, "deaths_after_tended": 0,
                       "deaths_after_untended": 199, "deaths_after_untended_in_draws": 0,
                       "tend_all_would_tend": 199},
              "copy": {"deaths_in_fight": 102, "deaths_after_tended": 0,
                       "deaths_after_untended": 0, "deaths_after_untended_in_draws": 0,
                       "tend_all_would_tend": 0}}
    for name, block in blocks.items():
        block["tend"] = "own"
        for key in ("deaths_in_fight", "deaths_after_tended", "deaths_after_untended"):
            block[f"{key}_per_encounter"] = block[key] / 30
        split["rulesets"][name] = {**split["rulesets"][name], "aftermath": block}
    label, text = answer(split)[-1]
    assert label == "Deaths after the fight"
    assert text == ("Aftermath: tend own (the side holding the field tends only its own "
                    f"fallen). Under {STORED}, all 199 deaths after the fight were of fighters "
                    "left untended; with tend: all, all 199 would have been tended. Under copy "
                    "nobody died after the fight.")
    _, header, rows, _ = glance.who_dies(split)
    assert header[-3:] == ["all: in the fight", "all: after, tended", "all: after, untended"]
    assert rows[0][-3:] == ["0.00", "0.00", "6.63"] and rows[1][-3:] == ["3.40", "0.00", "0.00"]
    table = compare_table(split)
    assert "after, untended" in table
    assert " ".join(table.split()).endswith(text)


def _scaled(doc, factors):
    """``doc`` with one ruleset per factor, its overall deaths per fight (and interval)
    times the factor."""
    out = copy.deepcopy(doc)
    entry = out["rulesets"][STORED]
    out["rulesets"] = {}
    for name, factor in factors.items():
        mine = copy.deepcopy(entry)
        d = mine["overall"]["deaths_per_encounter"]
        d["value"] *= factor
        d["ci95"] = [x * factor for x in d["ci95"]]
        out["rulesets"][name] = mine
    return out


def test_where_it_is_deadliest_names_every_ruleset_of_a_tie_whatever_the_order(doc):
    import itertools

    # labels, not registered rulesets: the answer words whatever the document names
    factors = {"ember": 3.0, "cinder": 3.0, "bolt": 2.0, "dusk": 1.0, "dusk-hp": 1.0}
    texts = {answer(_scaled(doc, dict(order)))[-1][1]
             for order in itertools.permutations(factors.items())}
    assert len(texts) == 1  # the order the rulesets were given in changes nothing
    text = texts.pop()
    assert text.startswith("Deadliest under cinder and ember, ")
    assert "; then bolt " in text and "; least deadly under dusk " in text
    assert "dusk-hp " in text[text.index("least deadly"):]
    assert "not clearly apart" not in text  # 3.0 and 2.0 times: the intervals are apart
    # one deadliest and a tie next to it: the overlap is told against the tie
    text = answer(_scaled(doc, {"ember": 1.01, "cinder": 1.0, "bolt": 1.0}))[-1][1]
    assert text.startswith("Deadliest under ember: ")
    assert "least deadly under bolt and cinder: bolt " in text
    assert text.endswith(" ember is not clearly apart from bolt and cinder: the 95% "
                         "intervals overlap.")
    # a tie at the top whose intervals reach the next ruleset's: said as well
    text = answer(_scaled(doc, {"ember": 1.02, "cinder": 1.02, "bolt": 1.0}))[-1][1]
    assert text.startswith("Deadliest under cinder and ember, ")
    assert text.endswith(" cinder and ember are not clearly apart from bolt: the 95% "
                         "intervals overlap.")


def test_answer_of_one_ruleset_and_of_nobody_dying(doc):
    one = {**doc, "rulesets": {STORED: doc["rulesets"][STORED]}}
    assert "nothing to compare" in answer(one)[-1][1]
    calm = copy.deepcopy(one)
    calm["rulesets"][STORED]["overall"]["deaths_per_encounter"]["value"] = 0.0
    assert answer(calm)[-1][1] == "Nobody died, under any ruleset."


# ---------------------------------------------------------------------------- n/a
def test_a_side_without_attacks_has_no_hit_rate(doc):
    idle = copy.deepcopy(doc)
    for r in idle["rulesets"].values():
        side = r["sides"]["bandits"]
        side["counts"] = {**side["counts"], "attacks": 0, "hits": 0}
        side["hits_per_attack"] = {"value": 0.0, "ci95": [None, None],
                                   "method": "wilson-deff"}
    report = report_markdown(idle, charts=False)
    assert "| hits per attack | n/a | n/a |" in report
    assert "| damage per hit (own unit) | n/a | n/a |" in report
    heroes_rows = report[report.index("## heroes"):report.index("## bandits")]
    assert "| hits per attack | n/a" not in heroes_rows  # the heroes did attack
    table = compare_table(idle)
    assert re.search(r"hits per attack\s+│\s+n/a\s+│\s+n/a", table)
    assert "<td>hits per attack</td><td>n/a</td><td>n/a</td>" in compare_html(idle, {})


def test_a_side_none_of_whom_went_out_has_no_share_of_the_out_who_died(doc):
    spared = copy.deepcopy(doc)
    for r in spared["rulesets"].values():
        side = r["sides"]["bandits"]
        side["counts"] = {**side["counts"], "out_of_fight": 0, "deaths": 0}
        side["died_share_of_out"] = {"value": 0.0, "ci95": [None, None],
                                     "method": "wilson-deff"}
    report = report_markdown(spared, charts=False)
    bandits_rows = report[report.index("## bandits"):]
    assert "| share of the out who died | n/a | n/a |" in bandits_rows


def test_a_metric_without_a_value_reads_na():
    assert cell({"value": None, "ci95": [None, None]}, 3) == "n/a"
    assert cell(None, 3) == "n/a"
    assert cell({"value": 0.5, "ci95": [0.25, 0.75]}, 3) == "0.500 [0.250, 0.750]"


# ---------------------------------------------------------------------------- report.html
def test_compare_html_is_self_contained_with_the_answer_and_tables(doc, images):
    text = compare_html(doc, images)
    _check_self_contained(text, pictures=3)
    shown = _answer_html(text)
    for _, body in answer(doc):
        assert escape(body, quote=False) in shown
    assert "<strong>Who wins.</strong>" in shown
    assert f"{doc['verdict']['text']}." in text
    for heading in ("heroes (3 per fight)", "bandits (4 per fight)", "the fight",
                    "Still fighting after round r", "How the numbers are computed"):
        assert f">{heading}</h2>" in text
    assert "<td>death rate per combatant</td><td>0.617 [0.527, 0.699]</td>" in text
    assert f"<code>fray compare morale.yaml --rulesets {STORED},copy -n 30 --seed 2</code>" in text


def test_compare_html_escapes_names(doc):
    odd = copy.deepcopy(doc)
    odd["scenario_name"] = "<b>Raid</b> & \"more\""
    text = compare_html(odd, {})
    assert "<title>Lethality: &lt;b&gt;Raid&lt;/b&gt; &amp; &quot;more&quot;</title>" in text
    assert "<b>Raid</b>" not in text
    _check_self_contained(text, pictures=0)


def test_sweep_html(tmp_path):
    rows = [{"path": "max_rounds", "value": v, "ruleset": any_ruleset(), "encounters": 10,
             "draw_rate": 0.1, "rounds_mean": 3.0, "a_members": 2, "a_win_rate": w,
             "a_win_lo": w - 0.1, "a_win_hi": w + 0.1, "a_death_rate": 0.3,
             "a_death_lo": 0.1, "a_death_hi": 0.6, "b_members": 2, "b_win_rate": 0.9 - w,
             "b_win_lo": 0.8 - w, "b_win_hi": 1.0 - w, "b_death_rate": 0.2,
             "b_death_lo": 0.1, "b_death_hi": 0.4, "draw_lo": 0.02, "draw_hi": 0.3}
            for v, w in ((2, 0.2), (4, 0.7))]
    png = sweep_chart(rows, ["a", "b"], "max_rounds", tmp_path / "sweep.png").read_bytes()
    text = sweep_html(rows, ["a", "b"], "max_rounds", {"sweep.png": png}, scenario="Duel",
                      command="fray sweep duel.yaml --set 'max_rounds=2,4'")
    _check_self_contained(text, pictures=1)
    shown = _answer_html(text)
    label, body = sweep_answer(rows, ["a", "b"], "max_rounds")[1]
    assert label == f"Under {any_ruleset()}"
    assert body.startswith("As max_rounds goes from 2 to 4, the a win from 20% [10–30%] to "
                           "70% [60–80%] of fights, the b from 70% [60–80%] to 20% [10–30%]; "
                           "draws 10% [2–30%] at both ends.")
    assert "More often the winner: the b at 2; the a at 4." in body
    assert f"<strong>Under {any_ruleset()}.</strong> As max_rounds goes" in shown
    assert "<th>a win rate</th>" in text and "<td>0.200 [0.100, 0.300]</td>" in text


def test_sweep_answer_names_the_draws_where_they_outnumber_every_win():
    """At 4, 72% draws and the heroes 28%: "more often the winner" is nobody there."""
    rows = [{"path": "count", "value": v, "ruleset": any_ruleset(), "encounters": 100,
             "draw_rate": d, "draw_lo": d, "draw_hi": d, "rounds_mean": 3.0,
             "heroes_members": 2, "heroes_win_rate": 1 - d, "heroes_win_lo": 0,
             "heroes_win_hi": 1, "heroes_death_rate": 0.0, "heroes_death_lo": 0,
             "heroes_death_hi": 0.1, "bandits_members": v, "bandits_win_rate": 0.0,
             "bandits_win_lo": 0, "bandits_win_hi": 0.1, "bandits_death_rate": 0.5,
             "bandits_death_lo": 0.4, "bandits_death_hi": 0.6}
            for v, d in ((1, 0.1), (4, 0.72))]
    body = sweep_answer(rows, ["heroes", "bandits"], "count")[1][1]
    assert ("More often the winner: the heroes at 1; neither side (draws outnumber each "
            "side's wins) at 4.") in body


def test_sweep_answer_says_of_fights_before_at_both_ends():
    rows = [{"path": "max_rounds", "value": v, "ruleset": any_ruleset(), "encounters": 10,
             "draw_rate": 0.0, "draw_lo": 0.0, "draw_hi": 0.3, "a_members": 1,
             "a_win_rate": 0.05, "a_win_lo": 0.01, "a_win_hi": 0.24, "a_death_rate": 0.9,
             "a_death_lo": 0.7, "a_death_hi": 1.0, "b_members": 1, "b_win_rate": 0.95,
             "b_win_lo": 0.76, "b_win_hi": 0.99, "b_death_rate": 0.05, "b_death_lo": 0.01,
             "b_death_hi": 0.24} for v in (2, 4)]
    body = sweep_answer(rows, ["a", "b"], "max_rounds")[1][1]
    assert body.startswith("As max_rounds goes from 2 to 4, the a wins 5% [1–24%] of fights "
                           "at both ends, the b 95% [76–99%] at both ends;"), body


# ---------------------------------------------------------------------------- commands
def test_fray_compare_and_sweep_write_report_html(tmp_path, capsys):
    duel = str(SCENARIOS / "neutral_duel.yaml")
    out = tmp_path / "cmp"
    result = fray(capsys, "compare", duel, "--rulesets", ",".join(two_rulesets()), "-n", "12",
                  "--workers", "1", "--out", str(out), "-q", "--html")
    assert result.code == 0, result.err
    assert "report.html" in result.out
    text = (out / "report.html").read_text()
    assert sorted(p.name for p in out.glob("*.html")) == ["report.html"]
    _check_self_contained(text, pictures=3)
    assert "Who wins." in _answer_html(text)
    report = (out / "report.md").read_text()
    assert report.split("\n\n")[1] in text  # the lead sentence, as in report.md

    out = tmp_path / "sweep"
    result = fray(capsys, "sweep", duel, "--set", "max_rounds=3,6", "-n", "12",
                  "--workers", "1", "--out", str(out), "-q", "--html")
    assert result.code == 0, result.err
    _check_self_contained((out / "report.html").read_text(), pictures=1)
    assert "max_rounds=3,6" in (out / "report.html").read_text()


def test_no_report_html_unless_asked(tmp_path, capsys):
    out = tmp_path / "cmp"
    result = fray(capsys, "compare", str(SCENARIOS / "neutral_duel.yaml"), "--rulesets",
                  any_ruleset(), "-n", "5", "--workers", "1", "--out", str(out), "-q")
    assert result.code == 0, result.err
    assert not (out / "report.html").exists()


def test_html_for_a_campaign_is_refused(tmp_path, capsys):
    campaign = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"
    result = fray(capsys, "compare", str(campaign), "-n", "2", "--out", str(tmp_path / "c"),
                  "-q", "--html")
    assert result.code == 2
    assert "--html" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "c").exists()


def _reproduce_line(text: str) -> list[str]:
    """The words of the command after "Reproduce with", without the leading ``fray``."""
    import shlex
    from html import unescape

    found = re.search(r"Reproduce with (?:<code>|`)(.*?)(?:</code>|`)", text)
    assert found, "no reproduce line"
    words = shlex.split(unescape(found.group(1)))
    assert words[0] == "fray"
    return words[1:]


def test_the_reproduce_lines_run_and_give_the_same_numbers(tmp_path, capsys):
    """A sweep over every ruleset and a comparison: each printed command runs again (a sweep
    over all rulesets once printed --ruleset ore,bgrade,..., which --ruleset refuses)."""
    duel = str(SCENARIOS / "neutral_duel.yaml")
    first, again = tmp_path / "sweep", tmp_path / "sweep-again"
    result = fray(capsys, "sweep", duel, "--set", "sides.fencer[0].skills.melee=1,5",
                  "--ruleset", "all", "-n", "4", "--workers", "1", "--out", str(first), "-q",
                  "--html")
    assert result.code == 0, result.err
    words = _reproduce_line((first / "report.html").read_text())
    assert words[words.index("--ruleset") + 1] == "all"
    result = fray(capsys, *words, "--workers", "1", "--out", str(again), "-q")
    assert result.code == 0, result.err
    assert (again / "sweep.csv").read_text() == (first / "sweep.csv").read_text()

    first, again = tmp_path / "cmp", tmp_path / "cmp-again"
    result = fray(capsys, "compare", duel, "--rulesets", ",".join(reversed(two_rulesets())),
                  "-n", "4",
                  "--workers", "1", "--out", str(first), "-q")
    assert result.code == 0, result.err
    words = _reproduce_line((first / "report.md").read_text())
    result = fray(capsys, *words, "--workers", "1", "--out", str(again), "-q")
    assert result.code == 0, result.err
    assert (again / "lethality.json").read_text() == (first / "lethality.json").read_text()


def test_a_sweep_reproduces_with_one_ruleset_all_or_its_own():
    from sim.batch.sweep import command
    from sim.rulesets import registry

    first = any_ruleset()
    rows = [{"value": v, "ruleset": r, "encounters": 9} for v in (1, 5) for r in (first,)]
    line = command(rows, "sides.a[0].count", "my duel.yaml", 3, [first])
    assert line == ("fray sweep 'my duel.yaml' --set 'sides.a[0].count=1,5' --ruleset "
                    f"{first} -n 9 --seed 3")
    assert "--ruleset all " in command(rows, "max_rounds", "d.yaml", 1,
                                       list(reversed(registry.names())))
    assert "--ruleset" not in command(rows, "ruleset", "d.yaml", 1, None)  # each its own
    assert command(rows, "max_rounds", "d.yaml", 1, two_rulesets()) == ""


# ---------------------------------------------------------------------------- survival
def test_still_fighting_shows_every_round_to_the_longest_fight(doc):
    """A fight of 30 rounds: all 30 in report.md and report.html (they once stopped at 12)."""
    long = copy.deepcopy(doc)
    long["rulesets"] = {n: copy.deepcopy(r) for n, r in long["rulesets"].items()}  # unshared
    curves = {STORED: [round(1 - r / 40, 6) for r in range(1, 31)],
              "copy": [1.0, 0.5, 0.25]}  # its fights all ended by round 3
    for name, curve in curves.items():
        long["rulesets"][name]["sides"]["heroes"]["survival"]["value"] = curve
    text = report_markdown(long, charts=False)
    section = text[text.index("## Still fighting"):text.index("## How the numbers")]
    assert f"| after round | {STORED} | copy |" in section
    assert "| 30 | 0.250 | 0.250 |" in section and "| 4 | 0.900 | 0.250 |" in section
    # rounds 1 to 5, every fifth and the last: 10 rows, not 30
    shown = [line.split("|")[1].strip() for line in section.splitlines()
             if line.startswith("| ") and "after round" not in line]
    # the bandits' fights in the batch ended by round 11: their rows stop there
    assert shown == ["1", "2", "3", "4", "5", "10", "15", "20", "25", "30",
                     "1", "2", "3", "4", "5", "10", "11"]
    assert "lethality.json holds every round" in section
    page = compare_html(long, {})
    assert "<td>30</td><td>0.250</td><td>0.250</td>" in page
    assert "<td>29</td>" not in page


def test_survival_tables_come_after_the_charts(doc, images):
    text = report_markdown(doc)
    assert text.index("## Charts") < text.index("## Still fighting after round r")
    page = compare_html(doc, images)
    assert page.index("<h2>Charts</h2>") < page.index("<h2>Still fighting after round r</h2>")


def test_survival_rounds_of_short_and_long_fights():
    assert survival_rounds(3) == [1, 2, 3]
    assert survival_rounds(12) == [1, 2, 3, 4, 5, 10, 12]
    assert survival_rounds(0) == []


def test_a_grid_has_a_column_per_setting_and_an_answer_in_two_dimensions():
    from sim.report.sweep import grid_answer, sweep_table

    grid = (["sides.b[0].count", "sides.a[0].traits.strength"], ["B count", "A strength"])
    rows = []
    for strength in (2, 3, 4, 5):
        for count in (4, 5, 6, 7, 8):
            win = 0.9 - 0.15 * (count - 4) + (0.3 if strength == 5 else 0.0)
            rows.append({"ruleset": "r", "value": f"{count}; {strength}",
                         "sides.b[0].count": count, "sides.a[0].traits.strength": strength,
                         "a_win_rate": win, "a_win_lo": win - 0.05, "a_win_hi": win + 0.05,
                         "a_death_rate": 0.1, "a_death_lo": 0.05, "a_death_hi": 0.15,
                         "draw_rate": 0.0, "draw_lo": 0.0, "draw_hi": 0.01})
    table = sweep_table(rows, ["a"], "B count and A strength", grid=grid)
    assert "B count" in table and "A strength" in table and "value" not in table
    (text,) = grid_answer(rows, "a", grid)
    assert text == ("Under r, where the a win 50% of their fights or more: with A strength "
                    "2–4, 6 is the highest B count; with A strength 5, 8 is the highest "
                    "B count.")
