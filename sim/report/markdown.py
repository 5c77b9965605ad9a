"""Names a user wrote, made safe to put in a Markdown file (``report.md``).

A scenario's, a side's or a fighter's name is the user's text: written verbatim into
Markdown, ``<script>`` becomes HTML in a viewer, ``|`` splits a table cell, ``*`` or ``[``
start emphasis or a link. ``report.html`` escapes with ``html.escape``; ``report.md``
escapes the names here, once, in a copy of the document it is written from, so every
sentence and table built from that copy is safe.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# what Markdown (CommonMark, GitHub's tables) reads as markup inside a line; not '_',
# which names and stage labels hold (keep_gate) and which marks nothing inside a word
_SPECIAL = re.compile(r"([\\`*\[\]<>|~!#&])")


def md_escape(text: str) -> str:
    """``text`` as literal Markdown: each special character backslash-escaped, on one line."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).splitlines()))


def escaped_names(doc: Any, names: Iterable[str], texts: Iterable[str] = ()) -> Any:
    """A copy of ``doc`` with every key or string equal to one of ``names`` escaped.

    ``texts``: keys whose string values are plain sentences that may hold a name (the
    verdict's ``text``), escaped whole.
    """
    names, texts = set(names), set(texts)

    def walk(node: Any, key: Any = None) -> Any:
        if isinstance(node, dict):
            return {(md_escape(k) if k in names else k): walk(v, k) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        if isinstance(node, str) and (node in names or key in texts):
            return md_escape(node)
        return node

    return walk(doc)


def lethality_names(doc: dict[str, Any]) -> set[str]:
    """The user's names in a ``lethality.json`` document: scenario, sides, combatants."""
    names = {doc.get("scenario_name", "")}  # not the file's stem: it is in a command
    for entry in doc.get("rulesets", {}).values():
        names.update(entry.get("sides", {}))
        names.update(entry.get("combatants") or {})
    names.update(doc.get("members", {}))
    return {n for n in names if isinstance(n, str) and n}
