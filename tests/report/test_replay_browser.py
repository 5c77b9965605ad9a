"""The replay page in a real browser: headless Chromium steps through a fight line by line.

It fails if a token stays put through a move (or stands away from the place the log
gives), if the map and the log disagree on the round, or if the page asks the network for
anything. Skipped only where no Chromium is installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import math

import pytest
from browser import chromium, launch, open_page
from helpers import SCENARIOS, any_ruleset

from sim import scenario as scenario_mod
from sim.core.engine import run_encounter
from sim.report import replay
from sim.rulesets import registry

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="no Chromium: install the Debian package 'chromium'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is in the test extra: pip install -e '.[test]'")

# the page as the test reads it after each step: where it is, what the log and map show
STATE = """() => {
  const map = document.getElementById("map"), log = document.getElementById("log");
  const now = log.querySelector("li.now");
  const tokens = {};
  for (const g of map.querySelectorAll(".token")) {
    const m = /translate\\(([-\\d.]+),([-\\d.]+)\\)/.exec(g.getAttribute("transform") || "");
    tokens[g.dataset.name] = m ? [+m[1], +m[2]] : null;
  }
  const places = {};
  for (const c of map.querySelectorAll("circle.place")) {
    places[c.dataset.place] = [+c.getAttribute("cx"), +c.getAttribute("cy"), +c.getAttribute("r")];
  }
  return {event: +document.body.dataset.event, mapRound: map.dataset.round,
          logRound: log.dataset.round, slider: document.getElementById("round").value,
          mapLabel: document.getElementById("map-round").textContent,
          logTitle: document.getElementById("log-title").textContent,
          now: now ? +now.dataset.i : null,
          nowText: now ? now.querySelector(".text").textContent : null,
          tokens, places};
}"""


def segments(events: list[dict]) -> list[int]:
    """The round each event is told under in the text log: 0 before the fight, the round,
    and one past the last round for the aftermath and the roll call."""
    rounds = next(e["rounds"] for e in events if e["type"] == "end")
    after = next((i for i, e in enumerate(events) if e["type"] == "aftermath"), len(events))
    return [rounds + 1 if i >= after else min(e["round"], rounds) for i, e in enumerate(events)]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def fight_page(tmp_path, ruleset: str):
    scenario = scenario_mod.load(SCENARIOS / "ambush.yaml")
    _, events = run_encounter(scenario, ruleset, 4, log=True)
    path = tmp_path / f"fight-{ruleset}.html"
    path.write_text(replay.fight_page(scenario, events), encoding="utf-8")
    return path, events


def settle(page) -> dict:
    page.wait_for_function("() => document.body.dataset.busy !== '1'")
    return page.evaluate(STATE)


@pytest.mark.parametrize("ruleset", registry.names())
def test_the_replay_follows_the_log_line_by_line(browser, tmp_path, ruleset):
    path, events = fight_page(tmp_path, ruleset)
    asked: list[str] = []
    page = open_page(browser, path, asked)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.select_option("#speed", "4")
    seg = segments(events)
    state = settle(page)
    assert state["event"] == 0
    moves = 0
    for i in range(1, len(events)):
        before = state
        page.keyboard.press("ArrowRight")
        state = settle(page)
        where = f"{ruleset}, line {i}: {events[i]['text']!r}"
        assert state["event"] == i, where
        # the map and the log on one round, the one the text log tells the line under
        assert state["mapRound"] == state["logRound"] == state["slider"] == str(seg[i]), where
        assert state["mapLabel"] == state["logTitle"], where
        assert state["now"] == i and state["nowText"] == events[i]["text"].strip(), where
        for name, place in (events[i].get("positions") or {}).items():
            moves += 1
            assert state["tokens"][name] != before["tokens"][name], f"{name} stayed put: {where}"
            if "node" in place:  # drawn in (or at the edge of) the place the log names
                x, y, r = state["places"][place["node"]]
                tx, ty = state["tokens"][name]
                assert math.hypot(tx - x, ty - y) <= r + 40, f"{name} not at {place}: {where}"
    assert moves > 0, "the fight had no move to watch"
    assert not errors
    assert asked == [] and page.evaluate("() => window.__asked") == []
    assert page.evaluate("() => performance.getEntriesByType('resource').length") == 0
    page.close()


def test_the_slider_keys_and_a_click_take_map_and_log_together(browser, tmp_path):
    path, events = fight_page(tmp_path, any_ruleset())
    asked: list[str] = []
    page = open_page(browser, path, asked)
    seg = segments(events)
    last = max(seg)
    for rnd in (3, 1, last, 0):
        page.eval_on_selector("#round", "(el, v) => { el.value = v; "
                              "el.dispatchEvent(new Event('input', {bubbles: true})); }", str(rnd))
        state = settle(page)
        assert state["mapRound"] == state["logRound"] == str(rnd)
        assert state["event"] == seg.index(rnd)  # the round's first line: as it began
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    state = settle(page)
    assert state["mapRound"] == state["logRound"] == "2"
    line = seg.index(2) + 3
    page.click(f"#log li[data-i='{line}']")
    state = settle(page)
    assert state["event"] == line and state["now"] == line and state["mapRound"] == "2"
    page.keyboard.press("End")
    state = settle(page)
    assert state["mapRound"] == state["logRound"] == str(last)
    assert events[state["event"]]["type"] == "rollcall"
    assert "Roll call" in page.inner_text("#log")
    page.keyboard.press("Home")
    assert settle(page)["event"] == 0
    assert asked == [] and page.evaluate("() => window.__asked") == []
    page.close()


def test_play_walks_on_by_itself(browser, tmp_path):
    path, _ = fight_page(tmp_path, any_ruleset())
    page = open_page(browser, path, [])
    page.select_option("#speed", "4")
    page.keyboard.press("Space")
    page.wait_for_function("() => +document.body.dataset.event >= 5", timeout=10_000)
    page.keyboard.press("Space")
    stopped = settle(page)["event"]
    page.wait_for_timeout(700)
    assert settle(page)["event"] == stopped
    page.close()


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_scenario_replays_round_by_round(browser, tmp_path, path):
    scenario = scenario_mod.load(path)
    _, events = run_encounter(scenario, None, 2, log=True)
    page_file = tmp_path / "fight.html"
    page_file.write_text(replay.fight_page(scenario, events), encoding="utf-8")
    asked: list[str] = []
    page = open_page(browser, page_file, asked)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    seg = segments(events)
    for rnd in range(1, max(seg) + 1):
        page.keyboard.press("ArrowDown")
        state = settle(page)
        assert state["mapRound"] == state["logRound"] == str(rnd), path.stem
        assert all(xy is not None for xy in state["tokens"].values())
    assert not errors and asked == []


def test_a_campaign_page_switches_between_its_stages(browser, tmp_path):
    from sim.core.campaign import run_campaign
    from sim.scenario.campaign import load_campaign

    camp = load_campaign(SCENARIOS / "campaigns" / "road_to_the_keep.yaml")
    fights: list[dict] = []
    run_campaign(camp, None, 7, log=True, after_stage=lambda outcome, enc: fights.append(
        replay.fight(enc.scenario, enc.log, f"Stage {outcome.stage}")) if enc else None)
    page_file = tmp_path / "road.html"
    page_file.write_text(replay.page(fights, "Road"), encoding="utf-8")
    page = open_page(browser, page_file, [])
    assert page.eval_on_selector_all("#fight option", "os => os.map(o => o.textContent)") == [
        f["title"] for f in fights]
    for k, f in enumerate(fights):
        page.select_option("#fight", str(k))
        state = settle(page)
        assert state["event"] == 0
        assert set(state["tokens"]) == {p["name"] for p in f["fighters"]}
        assert set(state["places"]) == {p["name"] for p in f["places"]}


BENT = """
name: Bent paths
max_rounds: 10
map:
  nodes: {west: {}, middle: {cover: light}, east: {}}
  edges: [[west, middle, 10], [middle, east, 10], [west, east, 21]]
sides:
  a:
    - {name: Archer, at: west, weapon: bow, skills: {ranged: 3}}
    - {name: Runner, at: west, weapon: sword, skills: {melee: 2}}
  b:
    - {name: Brute, at: east, weapon: club, skills: {melee: 2}}
"""


def test_a_path_through_another_place_bows_around_it_inside_the_map(browser, tmp_path):
    """As fray map draws it: west-east would run through the middle, so it bows."""
    (tmp_path / "bent.yaml").write_text(BENT)
    scenario = scenario_mod.load(tmp_path / "bent.yaml")
    _, events = run_encounter(scenario, None, 1, log=True)
    page_file = tmp_path / "bent.html"
    page_file.write_text(replay.fight_page(scenario, events), encoding="utf-8")
    page = open_page(browser, page_file, [])
    curves = page.eval_on_selector_all("#map path.path", """ps => ps.map(p => {
        const box = p.getBBox(); return [box.y, box.height]; })""")
    height = float(page.eval_on_selector("#map", "m => m.viewBox.baseVal.height"))
    flat = [c for c in curves if c[1] < 1]
    bowed = [c for c in curves if c[1] >= 1]
    assert len(flat) == 2 and len(bowed) == 1  # the two short paths straight, the long bowed
    assert bowed[0][0] + bowed[0][1] < height  # and inside the drawing
