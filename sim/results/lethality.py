"""Lethality across rulesets: the ``lethality.json`` document and its plain-language verdict.

Each ruleset's entry is ``sim.results.tally.Tally.lethality()`` (the same fold that gives the
batch's ``summary.json``); the intervals and their methods are those of ``sim.results.stats``.
"""

from __future__ import annotations

from typing import Any

from sim.results.stats import METHODS

__all__ = ["METHODS", "MIN_EVENTS", "document", "names_text", "times", "tied", "verdict"]

# Ruling: no ratio of two rates is stated when either rests on fewer deaths than this (one
# death in 600 fights would read "600x"); the verdict says the counts are too small instead.
MIN_EVENTS = 10


# ---------------------------------------------------------------------------- ties
def tied(values: dict[str, float], pick: Any = max) -> list[str]:
    """Every name whose value is the highest (``pick=max``) or lowest (``min``), by name.

    A shared value names them all, in name order, so no ruleset is picked over another by
    the order the rulesets were given in.
    """
    best = pick(values.values())
    return sorted(name for name, value in values.items() if value == best)


def names_text(names: list[str]) -> str:
    """``ore``, ``ore and opencore``, ``bgrade, ore and opencore``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# ---------------------------------------------------------------------------- the verdict
def verdict(rulesets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The comparison (``compare_deaths``), and what it means for the side listed first.

    A game master's party is the side listed first: ``party`` names it, with its deadliest
    and safest rulesets by its death rate per combatant (``party_deadliest``,
    ``party_safest``, every one of them on a tie, in name order). When the comparison
    speaks of another side, the text adds a sentence for the party.
    """
    out = compare_deaths(rulesets)
    names = list(rulesets)
    if len(names) < 2:
        return out
    party = next(iter(rulesets[names[0]]["sides"]))
    values = {r: rulesets[r]["sides"][party]["death_rate"]["value"] for r in names}
    deadliest, safest = tied(values, max), tied(values, min)
    out.update(party=party, party_deadliest=deadliest, party_safest=safest)
    if out.get("side") == party:
        return out
    if values[deadliest[0]] == values[safest[0]]:
        said = (f"for the {party} (listed first) every ruleset is as deadly (death rate per "
                f"combatant {rate_text(values[safest[0]])})")
    else:
        said = (f"for the {party} (listed first) the deadliest is {names_text(deadliest)} "
                f"({rate_text(values[deadliest[0]])}), the safest {names_text(safest)} "
                f"({rate_text(values[safest[0]])})")
    out["text"] = f"{out['text']}; {said}"
    return out


def compare_deaths(rulesets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A plain-language comparison computed from the per-ruleset summaries.

    The side is the one with the most deaths over all rulesets (a tie: the first by name,
    never by the scenario's order); the most and least lethal rulesets are those with the
    highest and lowest death rate per combatant for that side, every one of them when
    several share that rate (``most_rulesets``, ``least_rulesets``,
    in name order; ``most`` and ``least`` name the first of each, as before ties were kept).
    Their 95% intervals overlapping (any ruleset of one group with any of the other) reads
    "about as often"; otherwise the ratio of the rates, unless a ruleset of either group
    counts fewer than ``MIN_EVENTS`` deaths of that side: then the counts are too small to
    compare (``too_few``). Nothing depends on the order the rulesets were given in.
    """
    names = list(rulesets)
    if not names:
        return {"text": "nothing was run"}
    sides = list(rulesets[names[0]]["sides"])
    totals = {s: sum(rulesets[r]["sides"][s]["counts"]["deaths"] for r in names) for s in sides}
    side = max(sorted(sides), key=lambda s: totals[s])  # a tie: the first by name, not file order
    fights = sum(rulesets[r]["encounters"] for r in names)
    if totals[side] == 0:
        return {"side": None, "text": f"nobody died under any ruleset ({fights} fights)"}
    rate = {r: rulesets[r]["sides"][side]["death_rate"] for r in names}
    deaths = {r: rulesets[r]["sides"][side]["counts"]["deaths"] for r in names}
    values = {r: rate[r]["value"] for r in names}
    top, bottom = tied(values, max), tied(values, min)
    most, least = top[0], bottom[0]
    hi_rate, lo_rate = values[most], values[least]
    out = {"side": side, "most": most, "least": least, "most_rate": hi_rate,
           "least_rate": lo_rate, "most_ci95": rate[most]["ci95"],
           "least_ci95": rate[least]["ci95"], "overlap": None, "ratio": None,
           "most_rulesets": top, "least_rulesets": bottom, "too_few": False}
    # one member: "the fencer dies"; several: "the heroes die"
    die, they = ("die", "they") if rulesets[most]["sides"][side]["members"] > 1 else \
        ("dies", "it")
    if len(names) == 1:
        out["text"] = (f"under {most} the {side} {die} at a rate of {rate_text(hi_rate)} per "
                       f"combatant per fight (one ruleset, nothing to compare)")
        return out
    lows = [rate[r]["ci95"][0] for r in top]
    highs = [rate[r]["ci95"][1] for r in bottom]
    overlap = (hi_rate == lo_rate or None in lows or None in highs
               or min(lows) <= max(highs))
    out["overlap"] = overlap
    under_most, under_least = names_text(top), names_text(bottom)
    if hi_rate == lo_rate:  # every ruleset the same rate
        out["text"] = (f"under {under_most} the {side} {die} about as often (death rate per "
                       f"combatant {rate_text(hi_rate)} under each)")
        return out
    numbers = f"death rate per combatant {rate_text(hi_rate)} vs {rate_text(lo_rate)}"
    if overlap:
        out["text"] = (f"under {under_most} the {side} {die} about as often as under "
                       f"{under_least} ({numbers}; the 95% intervals overlap)")
    elif lo_rate == 0:
        out["text"] = (f"under {under_most} the {side} {die} ({numbers}), under "
                       f"{under_least} {they} never died in {rulesets[least]['encounters']} "
                       f"fights")
    elif min(deaths[r] for r in top + bottom) < MIN_EVENTS:
        out["too_few"] = True
        counted = "; ".join(f"{count(deaths[r], 'death')} in {rulesets[r]['encounters']} "
                            f"fights under {r}" for r in sorted(top + bottom)
                            if deaths[r] < MIN_EVENTS)
        out["text"] = (f"under {under_most} the {side} {die} more often than under "
                       f"{under_least} ({numbers}), but the counts are too small to compare "
                       f"as a ratio ({counted}; a ratio needs at least {MIN_EVENTS} on "
                       f"each side)")
    else:
        out["ratio"] = round(hi_rate / lo_rate, 6)
        out["text"] = (f"under {under_most} the {side} {die} {times(hi_rate / lo_rate)} as "
                       f"often as under {under_least} ({numbers})")
    return out


def count(k: int, word: str) -> str:
    """``1 death``, ``3 deaths``."""
    return f"{k} {word}{'' if k == 1 else 's'}"


def rate_text(rate: float) -> str:
    """A rate as the verdict prints it: three decimals, three significant digits below 0.1.

    So that the rates shown give the ratio shown to within 1%: ``1.000 vs 0.00179`` for
    559x, where ``0.002`` would read as 500x, and ``0.0105`` for 95x, not ``0.011`` (91x).
    """
    return f"{rate:.3g}" if 0 < rate < 0.1 else f"{rate:.3f}"


def times(ratio: float) -> str:
    """A ratio as ``2.4×``: two decimals below 1.1, none from 10 on (``40×``).

    Two decimals near 1 so that a small but real difference does not read ``1.0×``.
    """
    if ratio < 1.095:
        return f"{ratio:.2f}×"
    return f"{ratio:.1f}×" if ratio < 9.95 else f"{ratio:.0f}×"


def document(scenario: str, n: int, seed: int,
             rulesets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The whole ``lethality.json``: per-ruleset entries, the verdict, the methods.

    ``rulesets`` maps each ruleset to its entry, ``sim.results.tally.Tally.lethality()``.
    """
    return {"scenario": scenario, "encounters": n, "seed": seed,
            "rulesets": rulesets, "verdict": verdict(rulesets), "methods": METHODS}
