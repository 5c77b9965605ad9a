"""The replay page's data and file: what the log says, drawn from nothing else (no browser)."""

from __future__ import annotations

import itertools
import json
import re
from importlib import resources

import pytest
from click.testing import CliRunner
from helpers import SCENARIOS, any_ruleset, fray

from sim import scenario as scenario_mod
from sim.cli.main import cli
from sim.core.battlefield import Position
from sim.core.engine import Encounter, battlefield_for, run_encounter
from sim.report import replay
from sim.report.battlemap import layout
from sim.report.mapparts import point
from sim.report.replay.data import labels, position, route
from sim.rulesets import registry

AMBUSH = SCENARIOS / "ambush.yaml"


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="fray-data">(.*?)</script>', html,
                      re.S)
    assert found, "no data in the page"
    return json.loads(found.group(1))


@pytest.mark.parametrize("ruleset", registry.names())
def test_the_log_alone_tells_where_everyone_ends_and_how(ruleset):
    """Folding the events' positions and states gives every fighter's place and state."""
    scenario = scenario_mod.load(AMBUSH)
    enc = Encounter(scenario, ruleset, 4, log=True)
    enc.run()
    at: dict = {}
    state: dict = {}
    for e in enc.log:
        at.update(e.get("positions") or {})
        state.update(e.get("states") or {})
    assert at == {c.name: enc.field.place(c.pos) for c in enc.combatants}
    assert state == {c.name: c.state() for c in enc.combatants}
    first = enc.log[0]
    assert first["type"] == "start" and set(first["positions"]) == set(first["states"]) == {
        c.name for c in enc.combatants}


def test_labels_are_short_distinct_and_keep_the_numbers():
    names = ["Wolfman", "Brother Ansel", "Kestrel", "Bandit archer 1", "Bandit archer 2",
             "Bandit 1", "Bandit 2", "Brute 1"]
    got = labels(names)
    assert len(set(got)) == len(got)
    assert all(len(lab) <= 5 for lab in got)
    assert got[0] == "W" and got[2] == "K"
    assert got[5].endswith("1") and got[6].endswith("2") and got[5][:-1] == got[6][:-1]
    assert got[5] != got[7]  # Bandit 1 and Brute 1 told apart


def test_a_route_follows_the_paths_through_the_places_between():
    field = battlefield_for(scenario_mod.load(AMBUSH).map)
    coords = layout(field)
    road, ford, treeline = (field.index[n] for n in ("road", "ford", "treeline"))
    # 10 m from road toward ford, to the treeline: by the ford (2 + 10 m), not the road
    p = Position(min(road, ford), max(road, ford), 10.0 if road < ford else 2.0)
    got = route(field, coords, p, field.node("treeline"))
    assert got == [tuple(round(v, 3) for v in xy) for xy in
                   (point(field, coords, p), coords[ford], coords[treeline])]
    # along one path: straight
    q = Position(p.a, p.b, 4.0)
    assert len(route(field, coords, p, q)) == 2


def test_every_move_of_a_fight_has_a_track_to_where_the_log_puts_it():
    scenario = scenario_mod.load(AMBUSH)
    _, events = run_encounter(scenario, any_ruleset(), 4, log=True)
    data = replay.fight(scenario, events)
    field = battlefield_for(scenario.map)
    coords = layout(field)
    moved = [(i, name, place) for i, e in enumerate(events) if i
             for name, place in (e.get("positions") or {}).items()]
    assert moved
    for i, name, place in moved:
        end = point(field, coords, position(field, place))
        assert data["tracks"][str(i)][name][-1] == pytest.approx(end, abs=1e-3)
    assert data["events"] == events
    assert [f["name"] for f in data["fighters"]] == [e["who"] for e in events
                                                      if e["type"] == "combatant"]
    assert {p["name"] for p in data["places"]} == set(field.names)
    assert {(p["a"], p["b"]) for p in data["paths"]} == {
        tuple(sorted(k)) for k in field.edge_len}


def test_the_page_holds_everything_and_names_no_address():
    scenario = scenario_mod.load(AMBUSH)
    _, events = run_encounter(scenario, any_ruleset(), 4, log=True)
    events[3] = {**events[3], "text": events[3]["text"] + " </script><b>"}  # cannot end it
    html = replay.page([replay.fight(scenario, events)], "A <fight>")
    assert "<title>A &lt;fight&gt;</title>" in html
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert "@import" not in html and "url(http" not in html
    assert page_data(html)["fights"][0]["events"][3]["text"].endswith("</script><b>")
    # the script and the style, inlined, cannot end their element either
    for part in ("replay.js", "replay.css"):
        text = (resources.files("sim.report.replay") / part).read_text()
        assert "</" not in text and "<!--" not in text, part
    titled = replay.page([], "{{data}} of a fight")
    assert "<title>{{data}} of a fight</title>" in titled


def test_a_thirty_round_fight_of_eight_stays_under_a_megabyte():
    scenario = scenario_mod.load(SCENARIOS / "shootout.yaml")
    assert sum(len(s.members) for s in scenario.sides) == 8
    # the first fight that goes all 30 rounds (under OpenCore about one in twelve): the
    # rulesets in turn, a hundred seeds each
    for ruleset, seed in itertools.product(registry.names(), range(100)):
        result, events = run_encounter(scenario, ruleset, seed, log=True)
        if result.rounds == 30:
            break
    assert result.rounds == 30
    size = len(replay.page([replay.fight(scenario, events)], "t").encode())
    assert size < 1_000_000, size


def test_fray_run_html_writes_the_page_and_keeps_an_existing_file(capsys, tmp_path):
    out = tmp_path / "fight.html"
    own = scenario_mod.load(AMBUSH).ruleset
    other = next(name for name in registry.names() if name != own)
    got = fray(capsys, "run", str(AMBUSH), "--seed", "4", "--ruleset", other,
               "--html", str(out))
    assert got.code == 0, got.err
    data = page_data(out.read_text())
    assert data["fights"][0]["ruleset"] == other
    assert data["fights"][0]["events"][-1]["type"] == "rollcall"
    assert [e["text"] for e in data["fights"][0]["events"] if e["type"] == "round"] == \
        re.findall(r"== (Round \d+) ==", got.out)
    out.write_text("mine")
    again = fray(capsys, "run", str(AMBUSH), "--html", str(out))
    assert again.code == 2 and "--force" in again.err
    assert out.read_text() == "mine"
    forced = fray(capsys, "run", str(AMBUSH), "--html", str(out), "--force",
                  "--map", str(tmp_path / "maps"))
    assert forced.code == 0, forced.err
    assert page_data(out.read_text())["fights"][0]["ruleset"] == own  # the scenario's


def test_a_solo_campaign_puts_every_stage_in_one_page(capsys, tmp_path):
    out = tmp_path / "road.html"
    camp = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"
    got = fray(capsys, "campaign", str(camp), "--solo", "--seed", "7", "--html", str(out))
    assert got.code == 0, got.err
    fights = page_data(out.read_text())["fights"]
    stages = re.findall(r"Stage \d+ of \d+: [^(\n]+", got.out)
    assert len(fights) == len(set(stages)) >= 2
    assert all(f["title"].startswith("Stage ") for f in fights)
    refused = fray(capsys, "campaign", str(camp), "-n", "3", "--html", str(tmp_path / "x.html"))
    assert refused.code == 2 and "--html" in refused.err
    assert not (tmp_path / "x.html").exists()


def test_fray_play_html_draws_the_played_fight(tmp_path):
    out = tmp_path / "play.html"
    got = CliRunner().invoke(cli, ["play", str(SCENARIOS / "duel.yaml"), "--as", "Ser Aldric",
                                   "--seed", "3", "--html", str(out)], input="")
    assert got.exit_code == 0, got.output
    data = page_data(out.read_text())
    assert data["fights"][0]["events"][0]["seed"] == 3


def test_a_played_campaign_puts_its_stages_in_one_page(tmp_path):
    out = tmp_path / "road.html"
    camp = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"
    got = CliRunner().invoke(cli, ["campaign", str(camp), "--play", "Kestrel", "--seed", "7",
                                   "--html", str(out), "--record", str(tmp_path / "r.json")],
                             input="")
    assert got.exit_code == 0, got.output
    fights = page_data(out.read_text())["fights"]
    assert fights and all(f["title"].startswith("Stage ") for f in fights)
