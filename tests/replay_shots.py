"""Take the README's pictures of the replay page: round 1 and the last round of a fight.

``python tests/replay_shots.py`` writes ``docs/images/replay-round-1.png`` and
``docs/images/replay-last-round.png`` from ``fray run scenarios/ambush.yaml --seed 4
--html``, in the system's headless Chromium (``tests/browser.py``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from browser import launch, open_page  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from sim import registry  # noqa: E402
from sim import scenario as scenario_mod  # noqa: E402
from sim.core.engine import run_encounter  # noqa: E402
from sim.report import replay  # noqa: E402

IMAGES = HERE.parent / "docs" / "images"


def main() -> None:
    scenario = scenario_mod.load(HERE.parent / "scenarios" / "ambush.yaml")
    _, events = run_encounter(scenario, registry.default(), 4, log=True)
    # round 1 as its first hit lands; the last round at the line that ends the fight
    first = next(i for i, e in enumerate(events) if e["round"] == 1 and e["type"] == "hit")
    end = next(i for i, e in enumerate(events) if e["type"] == "end")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        page_file = Path(tmp) / "fight.html"
        page_file.write_text(replay.fight_page(scenario, events), encoding="utf-8")
        browser = launch(p)
        page = open_page(browser, page_file, [], width=1280, height=860)
        for i, name in ((first, "replay-round-1.png"), (end, "replay-last-round.png")):
            page.evaluate("(i) => window.fray.go(i)", i)
            page.wait_for_function("() => document.body.dataset.busy !== '1'")
            page.screenshot(path=str(IMAGES / name))
            print(f"wrote {IMAGES / name}")
        browser.close()


if __name__ == "__main__":
    main()
