"""The event stream of one encounter rendered as text, markdown or JSON lines."""

from __future__ import annotations

import json
from typing import Any

FORMATS = ("text", "markdown", "jsonl")


def render(events: list[dict[str, Any]], fmt: str = "text") -> str:
    """Render a fight's events in ``fmt`` (``text``, ``markdown`` or ``jsonl``)."""
    if fmt == "jsonl":
        return "\n".join(json.dumps(e, sort_keys=False) for e in events) + "\n"
    lines: list[str] = []
    for e in events:
        kind, text = e["type"], e.get("text", "")
        if fmt == "markdown":
            if kind == "start":
                lines += [f"# {text}", ""]
            elif kind == "round":
                lines += ["", f"## {text}", ""]
            elif kind == "end":
                lines += ["", f"**{text}**"]
            elif kind == "combatant":
                lines.append(f"- {text.strip()}")
            else:
                lines.append(f"- `{e['t']:>5.2f}s` {text}")
        else:
            if kind == "round":
                lines += ["", f"== {text} =="]
            elif kind in ("start", "end", "combatant"):
                lines.append(text if kind != "end" else f"\n{text}")
            else:
                lines.append(f"  [{e['t']:5.2f}s] {text}")
    return "\n".join(lines) + "\n"
