"""Reports: batch and comparison tables, report.md, charts, the conversion view.

The numbers come from the recorded batch in ``tests/results/data/morale-opend6`` (no fight is
run), so these tests pin the rendering, not the rules.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from helpers import SCENARIOS, any_ruleset, stored_ruleset, two_rulesets, without_added_keys

from sim import scenario as scenario_mod
from sim.report.charts import COMPARE_CHARTS, sweep_chart
from sim.report.compare import compare_table, report_markdown
from sim.report.convert import conversion_text, neutral
from sim.report.sweep import sweep_table
from sim.report.tables import batch_table
from sim.results.lethality import document
from sim.results.tally import Tally

DATA = Path(__file__).parent.parent / "results" / "data" / "morale-opend6"
STORED = stored_ruleset(DATA)  # the ruleset the stored batch ran under
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def tally() -> Tally:
    tally = Tally.for_sides("morale", STORED, 2, {"heroes": 3, "bandits": 4})
    with open(DATA / "encounters.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            tally.add(row)
    return tally


@pytest.fixture(scope="module")
def doc(tally):
    """A two-ruleset ``lethality.json`` (the same entry under two names)."""
    entry = tally.lethality()
    doc = document("morale", 30, 2, {STORED: entry, "copy": {**entry, "ruleset": "copy"}})
    doc.update(scenario_name="Morale at the ford", scenario_file="morale.yaml",
               members={"heroes": 3, "bandits": 4})
    return doc


def test_batch_table(tally):
    text = batch_table(tally.summary())
    assert text.startswith(f"morale under {STORED}: 30 encounters, seed 2")
    assert "0.833 (0.664-0.927)" in text and "74 (2.47/fight)" in text
    assert "108 (3.60/fight)" in text
    # rows that predate the tended/untended split: in the fight and after, as they were
    assert text.endswith("lethality: 3.400 deaths/fight, P(any death) 1.000, death rate per "
                         "combatant 0.486\ndeaths/fight: 3.400 in the fight + 0.000 after")
    assert max(len(line) for line in text.splitlines()) <= 100


def test_compare_table_has_every_ruleset_and_the_verdict(doc):
    text = compare_table(doc)
    header = next(line for line in text.splitlines() if "┃" in line)
    assert STORED in header and "copy" in header
    assert "heroes (3 per fight)" in text and "bandits (4 per fight)" in text
    # the verdict, wrapped at 100 columns like every line of the table
    assert " ".join(text.split()).endswith(f"verdict: {doc['verdict']['text']}")
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "about as often" in doc["verdict"]["text"]  # the same numbers twice


def test_report_markdown_reads_only_the_document(doc):
    text = report_markdown(doc, charts=False)
    assert text.startswith("# Lethality: Morale at the ford\n")
    assert f"`fray compare morale.yaml --rulesets {STORED},copy -n 30 --seed 2`" in text
    assert "| death rate per combatant | 0.617 [0.527, 0.699] | 0.617 [0.527, 0.699] |" in text
    for key, method in doc["methods"].items():
        assert f"- `{key}`: {method}" in text
    assert "## Charts" not in text
    assert "![survival by round](survival.png)" in report_markdown(doc)


def test_compare_charts_write_png_whatever_the_file_name(doc, tmp_path):
    for name, draw in COMPARE_CHARTS.items():
        path = tmp_path / f".{name}.tmp"  # what files.atomic_path hands a writer
        assert draw(doc, path) == path
        assert path.read_bytes()[:8] == PNG_SIGNATURE


def test_sweep_table_and_chart(tmp_path):
    rows = [{"path": "max_rounds", "value": v, "ruleset": any_ruleset(), "encounters": 10,
             "draw_rate": 0.1, "rounds_mean": 3.0, "a_members": 1,
             "a_win_rate": 0.5, "a_win_lo": 0.2, "a_win_hi": 0.8,
             "a_death_rate": 0.3, "a_death_lo": 0.1, "a_death_hi": 0.6} for v in (2, 4)]
    text = sweep_table(rows, ["a"], "max_rounds")
    assert "sweep over max_rounds" in text and "0.500" in text and "0.200-0.800" in text
    path = sweep_chart(rows, ["a"], "max_rounds", tmp_path / ".sweep.png.tmp")
    assert path.read_bytes()[:8] == PNG_SIGNATURE


def test_conversion_text_names_every_combatant_and_builder():
    scen = scenario_mod.load(SCENARIOS / "duel.yaml")
    names = two_rulesets()
    text = conversion_text(scen, names)
    lines = text.splitlines()
    assert lines[0] == f"{scen.name} ({scen.source}): combatants under {', '.join(names)}"
    for side in scen.sides:
        for member in side.members:
            assert f"{member.name} ({side.name}): {neutral(member)}" in lines
    width = max(map(len, names)) + 2  # the names in a column
    for name in names:
        assert any(line.startswith(f"{name:<{width}}built by ") for line in lines), name


def test_summary_file_renders_like_the_tally(tally):
    on_disk = json.loads((DATA / "summary.json").read_text())  # made before the aftermath
    assert batch_table(on_disk) == batch_table(without_added_keys(tally.summary()))


def test_aftermath_lines_count_rounds_from_the_end_of_the_fight():
    """In-round times would read out of order after the fight: rounds since its end instead."""
    from sim.report.log import render

    events = [
        {"round": 12, "t": 4.0, "type": "hit", "text": "A hits B."},
        {"round": 12, "t": 5.0, "type": "end", "text": "a win after 12 rounds."},
        {"round": 12, "t": 5.0, "type": "aftermath", "text": "Aftermath: nobody tends."},
        {"round": 44, "t": 0.5, "type": "status", "text": "B is dead."},
        {"round": 45, "t": 5.0, "type": "rollcall", "text": "  B (b): dead"},
    ]
    text = render(events, "text").splitlines()
    assert text[-3:] == ["  [+ 0 rd] Aftermath: nobody tends.", "  [+32 rd] B is dead.",
                         "    B (b): dead"]
    assert "  [ 4.00s] A hits B." in text
    markdown = render(events, "markdown").splitlines()
    assert markdown[-3:] == ["- `+ 0 rd` Aftermath: nobody tends.", "- `+32 rd` B is dead.",
                             "- B (b): dead"]


# ---------------------------------------------------------------------------- campaigns
def _campaign_summaries(clears: dict[str, float]) -> list[dict]:
    """A campaign's per-ruleset summaries, as far as ``compare_markdown`` reads them."""
    return [{"name": "Road", "campaign": "road", "runs": 20, "seed": 1, "party": "heroes",
             "members": 3, "ruleset": name, "stages": [],
             "p_clear": {"value": p, "ci95": [max(0.0, p - 0.1), min(1.0, p + 0.1)]},
             "deaths_per_run": {"value": 1.0}} for name, p in clears.items()]


def test_campaign_compare_names_every_ruleset_of_a_tie_whatever_the_order():
    import itertools

    from sim.report.campaign import compare_markdown

    # labels, not registered rulesets: the report words whatever the summaries name
    clears = {"ember": 0.2, "bolt": 0.7, "cinder": 0.0, "dusk": 0.0, "dusk-hp": 0.0}
    texts = {compare_markdown(_campaign_summaries(dict(order)), chart=False).split("\n")[2]
             for order in itertools.permutations(clears.items())}
    assert len(texts) == 1  # only the table's rows follow the order given
    assert texts.pop().endswith("The party clears every stage most often under **bolt** "
                                "(70.0%) and least under **cinder**, **dusk** and "
                                "**dusk-hp** (0.0%).")
    same = compare_markdown(_campaign_summaries({"ember": 0.5, "bolt": 0.5}), chart=False)
    assert "clears every stage equally often under **bolt** and **ember** (50.0%)." in same
    one = compare_markdown(_campaign_summaries({"ember": 0.5}), chart=False)
    assert "clears every stage in 50.0% of runs under **ember**." in one


def test_report_markdown_escapes_the_users_names(doc):
    """A name is never markup: no HTML, no link, no extra table cell (report.html escapes)."""
    hostile = {"heroes": "<script>alert('side')</script>", "bandits": "a|b*c [x](javascript:y)",
               "Morale at the ford": "<script>alert('scen')</script>"}
    text = json.dumps(doc)
    for name, evil in hostile.items():
        text = text.replace(json.dumps(name)[1:-1], json.dumps(evil)[1:-1])
    report = report_markdown(json.loads(text), charts=False)
    import re

    assert not re.search(r"(?<!\\)<script", report)  # every < escaped
    assert not re.search(r"(?<!\\)\]\(javascript", report)  # no link
    assert report.startswith("# Lethality: \\<script\\>alert('scen')\\</script\\>\n")
    assert "a\\|b\\*c \\[x\\](javascript:y)" in report
    widths = {line.count("|") - line.count("\\|") for line in report.splitlines()
              if line.startswith("| death rate per combatant")}
    assert widths == {4}  # metric, two rulesets: no cell split by a name


def test_a_rare_draw_reads_as_under_a_tenth_of_a_percent_not_zero():
    # 1 draw in 2,250 fights read "(0.0%; ...)" in report.md, beside "<0.1%" in its table
    from sim.report.compare import round_limit
    doc = {"rulesets": {"cinder": {"encounters": 2250, "draws": {
        "fights": 1, "standing": {"fencer": 0, "bruiser": 0}}}}}
    text = round_limit(doc)
    assert "cinder 1 of 2250 (<0.1%;" in text and "0.0%" not in text


def test_a_comparison_run_until_sure_names_its_seed_before_the_rates_it_knows_less_well():
    # "... may be known less closely, seed 1, the same encounter seeds ..." read the seed as
    # one of the rates known less closely
    from sim.report.compare import _title
    doc = {"scenario": "neutral_duel", "scenario_name": "Neutral duel", "seed": 1,
           "encounters": 20000, "precision": 0.02, "rulesets": {"bolt": {"encounters": 1800}}}
    assert _title(doc).startswith("Neutral duel: seed 1, the same encounter seeds under every "
                                  "ruleset; encounters run until")
    assert _title(doc).endswith("may be known less closely")
    fixed = {**doc, "precision": None, "encounters": 200}
    assert _title(fixed) == ("Neutral duel: 200 encounters per ruleset, seed 1, the same "
                             "encounter seeds under every ruleset")
