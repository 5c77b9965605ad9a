"""Where deaths come from, in words: in the fight, or after it among the tended or untended.

Every function reads the ``aftermath`` block of ``summary.json`` or of a ruleset's entry in
``lethality.json`` (``sim.results.tally.Tally.aftermath``); nothing is counted here.
docs/deaths.md says what each number counts.
"""

from __future__ import annotations

from typing import Any

# what each ``aftermath: {tend: ...}`` setting does, as RULES.md's aftermath says it
TEND_TEXT = {
    "own": "the side holding the field tends only its own fallen",
    "all": "the side holding the field tends every fallen fighter, foes too",
    "none": "nobody tends the fallen",
}
# the three parts of the split, in the order they are shown: (key, short label)
PARTS = (("deaths_in_fight", "in the fight"), ("deaths_after_tended", "after, tended"),
         ("deaths_after_untended", "after, untended"))


def setting(block: dict[str, Any]) -> str:
    """``aftermath: tend own (the side holding the field tends only its own fallen)``."""
    tend = block.get("tend")
    if tend is None:
        return "aftermath: not recorded"
    return f"aftermath: tend {tend} ({TEND_TEXT.get(tend, tend)})"


def _deaths(k: int) -> str:
    return f"{k} death{'' if k == 1 else 's'}"


def explain(block: dict[str, Any] | None) -> str:
    """The aftermath setting, then where the deaths after the fight came from.

    ``aftermath: tend own (...). All 199 deaths after the fight were of fighters left
    untended; with tend: all, all 199 would have been tended.`` Without a death after the
    fight, the setting and "Nobody died after the fight."; '' for a block that is None
    (rows that predate the split).
    """
    if not block:
        return ""
    tail = after_text(block)
    return (f"{setting(block)}. "
            + (f"{tail[0].upper()}{tail[1:]}." if tail else "Nobody died after the fight."))


def explain_rulesets(blocks: dict[str, dict[str, Any] | None]) -> str:
    """``explain`` for several rulesets of one scenario: the setting once, then each ruleset.

    Rulesets under which nobody died after the fight are named together at the end; '' when
    no ruleset's block is known.
    """
    known = {name: b for name, b in blocks.items() if b}
    if not known:
        return ""
    first = setting(next(iter(known.values())))
    text = first[0].upper() + first[1:] + "."
    calm = []
    for name, b in known.items():
        tail = after_text(b)
        if tail:
            text += f" Under {name}, {tail}."
        else:
            calm.append(name)
    if calm:
        names = calm[0] if len(calm) == 1 else f"{', '.join(calm[:-1])} and {calm[-1]}"
        text += f" Under {names} nobody died after the fight."
    return text


def after_text(block: dict[str, Any]) -> str:
    """Who died after the fight, tended or not, and what ``tend: all`` would change.

    ``all 199 deaths after the fight were of fighters left untended; with tend: all, all
    199 would have been tended``; '' when nobody died after the fight.
    """
    untended, tended = block["deaths_after_untended"], block["deaths_after_tended"]
    after = untended + tended
    if after == 0:
        return ""
    in_draws, would = block["deaths_after_untended_in_draws"], block["tend_all_would_tend"]
    share = (f"all {after} deaths" if untended == after > 1 else
             f"{untended} of the {_deaths(after)}")
    text = (f"{share} after the fight {'was' if untended == 1 else 'were'} of fighters left "
            f"untended")
    if tended:
        text += f", {tended} of fighters tended"
    if would:
        text += (f"; with tend: all, {'all ' if would == untended > 1 else ''}{would} would "
                 f"have been tended")
        if in_draws:
            text += f" (the other {in_draws} died after a draw, which nobody tends)"
    elif in_draws:
        text += (f"; {'all' if in_draws == untended else in_draws} after a draw, which nobody "
                 f"tends (tend: all would not change that)")
    return text


def per_fight(block: dict[str, Any]) -> list[float]:
    """Deaths a fight in the fight, after it among the tended, among the untended."""
    return [block[f"{key}_per_encounter"] for key, _ in PARTS]


def split_line(block: dict[str, Any] | None) -> str:
    """``0.000 in the fight + 0.000 after, tended + 0.980 after, untended``; '' unknown."""
    if not block:
        return ""
    return " + ".join(f"{value:.3f} {label}"
                      for value, (_, label) in zip(per_fight(block), PARTS, strict=True))
