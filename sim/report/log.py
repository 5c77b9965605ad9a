"""The event stream of one encounter rendered as text, markdown or JSON lines."""

from __future__ import annotations

import json
import textwrap
from typing import Any

FORMATS = ("text", "markdown", "jsonl")


def render(events: list[dict[str, Any]], fmt: str = "text") -> str:
    """Render a fight's events in ``fmt`` (``text``, ``markdown`` or ``jsonl``)."""
    if fmt == "jsonl":
        return "\n".join(json.dumps(e, sort_keys=False) for e in events) + "\n"
    lines: list[str] = []
    settled_at = None  # the round the fight ended, once the aftermath begins
    for e in events:
        kind, text = e["type"], e.get("text", "")
        if kind == "aftermath":
            settled_at = e["round"]
        if settled_at is not None:
            lines.append(_after_fight(e, settled_at, fmt))
            continue
        if fmt == "markdown":
            if kind == "start":
                lines += [f"# {text}", ""]
            elif kind == "legend":
                lines += [f"> {text}", ""]
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
            elif kind == "legend":
                lines += [*textwrap.wrap(text, 92, initial_indent="  ",
                                         subsequent_indent="  "), ""]
            elif kind in ("start", "end", "combatant"):
                lines.append(text if kind != "end" else f"\n{text}")
            else:
                lines.append(f"  [{e['t']:5.2f}s] {text}")
    return "\n".join(lines) + "\n"


def _after_fight(e: dict[str, Any], settled_at: int, fmt: str) -> str:
    """One line of the aftermath, stamped with the rounds since the fight ended (``+N rd``).

    After the fight rounds run on without headers, so an in-round time would read out of
    order; the roll call carries no stamp.
    """
    text = e.get("text", "")
    if e["type"] == "rollcall":
        return f"- {text.strip()}" if fmt == "markdown" else f"  {text}"
    stamp = f"+{e['round'] - settled_at:>2d} rd"
    return f"- `{stamp}` {text}" if fmt == "markdown" else f"  [{stamp}] {text}"
