"""The replay page: one HTML file holding its data, script and style, fetching nothing.

The page's parts ship beside this module (``replay.html``, ``replay.css``, ``replay.js``)
and are put together here with the fights' data as JSON. A Content-Security-Policy that
allows no source at all keeps the page offline: whatever its script asked for, the browser
would refuse to fetch it.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

from sim.report.replay.data import style


def _part(name: str) -> str:
    return (resources.files("sim.report.replay") / name).read_text(encoding="utf-8")


def page(fights: Sequence[dict[str, Any]], title: str) -> str:
    """The whole page for ``fights`` (one, or a campaign's stages) under ``title``."""
    data = json.dumps({"title": title, "style": style(), "fights": list(fights)},
                      ensure_ascii=False, separators=(",", ":"))
    # inside <script>, "</script" or "<!--" in a line of the log would end or change the
    # element: no "<" at all, JSON reads "\u003c" back as one
    parts = {"title": html.escape(title), "style": _part("replay.css"),
             "data": data.replace("<", "\\u003c"), "script": _part("replay.js")}
    # one pass: a title holding "{{data}}" stays a title
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _part("replay.html"))
