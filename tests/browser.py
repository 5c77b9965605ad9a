"""Headless Chromium for the tests, driven by Playwright, never fetching a browser of its own.

The Debian package ``chromium`` (``.ci/run`` installs it when missing) is launched by path,
with the flags that let it run as root in a container and keep it off the network on its
own account (updates, sync, field trials); Playwright gives it a fresh profile each launch.
"""

from __future__ import annotations

import shutil
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]

# everything a page asks for, as the page itself sees it: loads the browser reports, and
# those a Content-Security-Policy refused (which never become requests)
WATCH_NETWORK = """
window.__asked = [];
document.addEventListener("securitypolicyviolation",
                          (e) => window.__asked.push(e.blockedURI || e.violatedDirective));
"""


def chromium() -> str | None:
    """The path of the system's Chromium, or None."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def launch(playwright):
    """A headless Chromium browser (the system's)."""
    return playwright.chromium.launch(executable_path=chromium(), headless=True,
                                      args=CHROMIUM_FLAGS)


def open_page(browser, path: Path, asked: list[str], width: int = 1400, height: int = 900):
    """``path`` opened in a new page; every request other than the page itself lands in
    ``asked`` (with ``page.evaluate("window.__asked")``, those a policy refused)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    url = path.resolve().as_uri()
    page.on("request", lambda r: None if r.url == url else asked.append(r.url))
    page.add_init_script(WATCH_NETWORK)
    page.goto(url)
    return page
