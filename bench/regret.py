"""How well the profiles' first declarations hold up: each against the best line of its menu.

For each bundled scenario (``scenarios/*.yaml``), each ruleset and each fighter measured
(``--fighters`` a side, or ``--as``), with that fighter's side set to a profile (tactical,
basic, aggressive; its doctrine's other settings kept), this weighs every line of the
fighter's first menu as ``fray advise`` does (``sim.ai.whatif.weigh``, the engine of
``fray play``'s ``?``): ``-n`` fights seeded as ``fray batch`` seeds them run to that
fighter's first declaration, take the line, and play on with fresh dice, every fighter by its
profile. The profile's own line does in each fight what the profile does there.

A cell gives the profile's choice, the best line (the highest side-win share of the lines
weighed to the end), and the gap: the best line's win share less the choice's, on the same
dice, with its paired 95% interval. The best of many lines on few rollouts is partly best by
luck; so a cell whose gap is over ``MARGIN`` is weighed again (``--confirm`` rollouts of
the two lines only, on dice of their own: another seed) and the cell reports that second
weighing, which picked nothing. A gap is **real** when it is over ``MARGIN`` and its interval
lies above 0.

Results are kept in ``--out`` (JSON, one entry a cell, keyed by what the cell depends on: the
scenario, ruleset, fighter, profile, budget and a digest of the code under ``sim/``), so a
run again skips the cells already weighed; the tables are printed as markdown. Run from the
repository root:

    python bench/regret.py --profiles tactical      # docs/ai.md's tactical table
    python bench/regret.py --profiles basic,aggressive -n 40 --confirm 150   # and the others
    python bench/regret.py --scenarios mirror --rulesets opend6 --profiles tactical -n 200
    python bench/regret.py --as "West archer 1" --scenarios mirror -n 400
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.ai import ranking, rollout, whatif  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.registry import names  # noqa: E402
from sim.scenario.loader import load  # noqa: E402
from sim.scenario.specs import Scenario  # noqa: E402

MARGIN = 0.05  # a gap of more than this share of a win, with its interval above 0, is real
PROFILES = ("tactical", "basic", "aggressive")
CONFIRM_SEED = 1_000_003  # the confirming weighing's seed, added to --seed: dice of its own


def with_profile(scenario: Scenario, side: str, profile: str) -> Scenario:
    """``scenario`` with every member of ``side`` played by ``profile`` (doctrine kept)."""
    sides = tuple(replace(s, members=tuple(
        replace(m, ai=profile, doctrine=replace(m.doctrine, profile=profile))
        for m in s.members)) if s.name == side else s for s in scenario.sides)
    return replace(scenario, sides=sides)


def pick(scenario: Scenario, per_side: int) -> list[tuple[str, str]]:
    """``(side, name)`` of up to ``per_side`` fighters a side: one of each weapon, file order.

    A bench's choice of whom to measure, not a fight's: the order decides nothing in them.
    """
    out = []
    for side in scenario.sides:
        seen: set[str] = set()
        for m in side.members:
            if m.weapon not in seen and len(seen) < per_side:
                seen.add(m.weapon)
                out.append((side.name, m.name))
    return out


class _Reached(Exception):
    def __init__(self, asked: whatif.Question):
        self.asked = asked


def first_menu(scenario: Scenario, ruleset: str, seed: int, name: str) -> whatif.Question | None:
    """``name``'s first menu in fight 0, as ``fray advise`` reads it; None if it never comes."""
    def mind(enc: Encounter, c: Any) -> list:
        raise _Reached(whatif.question(enc, c, by_key=True))

    try:
        Encounter(scenario, ruleset, encounter_seed(seed, 0), minds={name: mind}).run()
    except _Reached as reached:
        return reached.asked
    return None


def _line(w: ranking.Weighed) -> dict[str, Any]:
    return {"label": w.choice.label, "key": w.choice.key, "p_win": w.p_win, "n": w.n}


def cell(scenario: Scenario, ruleset: str, side: str, name: str, profile: str, n: int,
         confirm: int, seed: int, workers: int) -> dict[str, Any] | None:
    """One cell: the profile's first declaration for ``name`` against the best line."""
    played = with_profile(scenario, side, profile)
    asked = first_menu(played, ruleset, seed, name)
    if asked is None:
        return None
    m = rollout.Moment(Encounter, played, ruleset, seed, name, 0, 1, varied=True)
    weighed = whatif.weigh(m, asked.choices, n, workers)
    mine = next(w for w in weighed if w.choice.ai)
    most = max(w.planned for w in weighed)
    full = [w for w in weighed if w.planned == most and w.n]
    # the best line: most wins; a tie goes to the profile's choice, then by keyword
    best = max(full, key=lambda w: (w.p_win, w.choice.ai, w.choice.key))
    out: dict[str, Any] = {
        "scenario": scenario.slug, "ruleset": ruleset, "side": side, "fighter": name,
        "profile": profile, "lines": len(asked.choices), "n": n,
        "rollouts": sum(w.planned for w in weighed),
        "choice": _line(mine), "best": _line(best),
        "gap": best.diff if best is not mine else 0.0,
        "low": best.diff_low if best is not mine else 0.0,
        "high": best.diff_high if best is not mine else 0.0,
        "as_good": sorted(w.choice.label for w in weighed if w.best),
        "confirmed": False}
    if best is not mine and out["gap"] > MARGIN and confirm:
        again = rollout.Moment(Encounter, played, ruleset, seed + CONFIRM_SEED, name, 0, 1,
                               varied=True)
        pair = whatif.weigh(again, [mine.choice, best.choice], confirm, workers, race=False)
        b = next(w for w in pair if not w.choice.ai)
        a = next(w for w in pair if w.choice.ai)
        out.update(gap=b.diff, low=b.diff_low, high=b.diff_high, confirmed=True,
                   search_gap=out["gap"], choice=_line(a), best=_line(b),
                   rollouts=out["rollouts"] + a.planned + b.planned)
    out["real"] = out["gap"] > MARGIN and out["low"] > 0
    return out


def code_digest() -> str:
    """A digest of the code under ``sim/``: a cached cell stands only for the same code."""
    h = hashlib.blake2b(digest_size=8)
    for path in sorted((ROOT / "sim").rglob("*.py")):
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def pts(d: float) -> str:
    """A share as signed points of 100 (``+4``, ``-12``, ``0``)."""
    k = round(100 * d)
    return f"{k:+d}" if k else "0"


def gap_text(c: dict[str, Any]) -> str:
    """The gap and its interval in points of 100, marked ``!`` when real."""
    if c["gap"] == 0 and c["low"] == 0 and c["high"] == 0:
        return "best"
    mark = " !" if c["real"] else ""
    return f"{pts(c['gap'])} [{pts(c['low'])}, {pts(c['high'])}]{mark}"


def short(label: str) -> str:
    """A line's words without the menu's note in brackets (``run at Bandit 2``)."""
    return label.split(" (")[0]


def tables(cells: list[dict[str, Any]], rulesets: list[str]) -> str:
    """A matrix a profile (rows: scenario and fighter; columns: rulesets), then the cells
    where the profile's choice trails the best line by more than ``MARGIN``."""
    out = []
    for profile in dict.fromkeys(c["profile"] for c in cells):
        mine = [c for c in cells if c["profile"] == profile]
        out += [f"**{profile}**: gap to the best line, points of 100 fights [95% paired "
                "interval]; `best`: its choice is the best line; `!`: real", "",
                "| scenario | fighter | " + " | ".join(rulesets) + " |",
                "|---|---|" + "---|" * len(rulesets)]
        rows = dict.fromkeys((c["scenario"], c["fighter"]) for c in mine)
        for scen, fighter in rows:
            by = {c["ruleset"]: c for c in mine if (c["scenario"], c["fighter"]) == (scen, fighter)}
            out.append(f"| {scen} | {fighter} | " + " | ".join(
                gap_text(by[r]) if r in by else "-" for r in rulesets) + " |")
        behind = [c for c in mine if c["gap"] > MARGIN]
        if behind:
            out += ["", "| scenario | ruleset | fighter | its choice (wins) | best line (wins) "
                    "| gap |", "|---|---|---|---|---|---|"]
            out += [f"| {c['scenario']} | {c['ruleset']} | {c['fighter']} | "
                    f"{short(c['choice']['label'])} ({c['choice']['p_win']:.2f}) | "
                    f"{short(c['best']['label'])} ({c['best']['p_win']:.2f}) | {gap_text(c)} |"
                    for c in behind]
        out.append("")
    return "\n".join(out)


def main() -> None:
    """Weigh the cells asked for (those not in ``--out`` already) and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=60, help="rollouts a line (the search)")
    parser.add_argument("--confirm", type=int, default=300,
                        help="rollouts of the choice and the best line when the gap is over "
                             f"{MARGIN} (0: none)")
    parser.add_argument("--scenarios", default="",
                        help="comma-separated stems (default: every bundled scenario)")
    parser.add_argument("--rulesets", default=",".join(names()))
    parser.add_argument("--profiles", default=",".join(PROFILES))
    parser.add_argument("--fighters", type=int, default=1,
                        help="fighters measured a side (one of each weapon, file order)")
    parser.add_argument("--as", dest="names", action="append", default=[],
                        help="measure this fighter only (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "results" / "regret.json"),
                        help="JSON of every cell weighed; cells there are not weighed again")
    args = parser.parse_args()
    wanted = [s for s in args.scenarios.split(",") if s]
    paths = [p for p in sorted((ROOT / "scenarios").glob("*.yaml"))
             if not wanted or p.stem in wanted]
    rulesets = args.rulesets.split(",")
    out = Path(args.out)
    kept: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    digest = code_digest()
    cells = []
    for path in paths:
        scenario = load(path)
        every = [(s.name, m.name) for s in scenario.sides for m in s.members]
        fighters = ([f for f in every if f[1] in args.names] if args.names
                    else pick(scenario, args.fighters))
        for ruleset in rulesets:
            for side, name in fighters:
                for profile in args.profiles.split(","):
                    key = (f"{path.stem}|{ruleset}|{name}|{profile}|n={args.n}|"
                           f"confirm={args.confirm}|seed={args.seed}|{digest}")
                    if key not in kept:
                        kept[key] = cell(scenario, ruleset, side, name, profile, args.n,
                                         args.confirm, args.seed, args.workers)
                        out.parent.mkdir(parents=True, exist_ok=True)
                        out.write_text(json.dumps(kept, indent=1))
                    c = kept[key]
                    if c is None:
                        print(f"{path.stem} {ruleset} {name}: never declares", file=sys.stderr)
                        continue
                    cells.append(c)
                    print(f"{path.stem:16s} {ruleset:9s} {name:16s} {profile:10s} "
                          f"{c['lines']:3d} lines {c['rollouts']:5d} rollouts  "
                          f"{gap_text(c)}", file=sys.stderr, flush=True)
    print(f"First declarations against the best line: {args.n} rollouts a line, "
          f"{args.confirm} to confirm a gap over {MARGIN}, seed {args.seed}\n")
    print(tables(cells, rulesets))


if __name__ == "__main__":
    main()
