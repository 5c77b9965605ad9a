"""A batch's report.html in a real browser: headless Chromium opens it, then an example's
replay page through its link, and neither page asks the network for anything."""

from __future__ import annotations

import pytest
from browser import chromium, launch, open_page
from helpers import SCENARIOS, fray

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="no Chromium: install the Debian package 'chromium'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is in the test extra: pip install -e '.[test]'")


def test_report_links_each_example_to_a_replay_that_plays(tmp_path, capsys):
    out = fray(capsys, "batch", str(SCENARIOS / "ambush.yaml"), "-n", "20", "--workers", "1",
               "--out", str(tmp_path / "b"), "--html", str(tmp_path / "h"), "-q")
    assert out.code == 0, out.err
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        try:
            asked: list[str] = []
            page = open_page(browser, tmp_path / "h" / "report.html", asked)
            names = page.eval_on_selector_all("table.examples a", "as => as.map(a => a.text)")
            assert names == ["disaster", "struggle", "typical", "heroic", "legend"]
            assert "how bad it can get" in page.inner_text("#spread")
            page.click("table.examples a >> text=typical")
            page.wait_for_selector("#map .token")
            assert page.url.endswith(".html") and "typical-" in page.url
            assert page.eval_on_selector_all("#log li", "ls => ls.length") > 3
            # the one load besides the report: the replay page it links, beside it
            here = (tmp_path / "h").resolve().as_uri()
            assert [url for url in asked if not url.startswith(here + "/typical-")] == []
            assert not page.evaluate("window.__asked")
        finally:
            browser.close()
