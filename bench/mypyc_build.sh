#!/usr/bin/env bash
# The fight path compiled with mypyc, in a scratch copy of the committed tree (never in the tree).
#
# Usage: bench/mypyc_build.sh [DEST] [MODULE ...]
#   DEST    where the copy goes (default /tmp/fray-mypyc); it is replaced
#   MODULE  more modules to compile beside sim/core, sim/ai and sim/registry.py (type-clean
#           ones only: mypyc refuses a module mypy rejects), e.g. sim/rulesets/dice.py;
#           `rulesets` stands for every ruleset module mypyc can build today (below)
#
# `rulesets` leaves out, interpreted: the modules of the ruleset classes, their advisors and
# mixins (base, ruleset, advisor, hp, and ORE's choices, planner, recovery: a class under
# @register cannot be native, an interpreted class with a closure crashes mypyc 2.4, and
# OreRuleset's mixins and the narrowed `rules`/`options`/`advisor` need native changes), and
# those of the pydantic blocks (fighter, blocks: pydantic types Field() as its default,
# None, and compiled code checks that). docs/performance.md, "A compiled fight path".
#
# bench/mypyc.patch makes the core compile (docs/performance.md, "A compiled fight path"):
# ruleset classes may subclass Combatant, Advisor and Encounter, the import cycle of
# actions and combatant is ordered, a Generic dataclass stays interpreted. Then, from DEST,
# the compiled tree against the pure one, in pairs:
#   python bench/versus.py PURE_TREE --rulesets ore,opend6 --scenarios duel,mirror
# and `python tests/regression.py` in DEST, then `git diff` of tests/data/regression against
# the tree's (byte for byte the same).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$(realpath -m "${1:-/tmp/fray-mypyc}")
shift || true
case "$DEST/" in
    "$ROOT"/*) echo "DEST must be outside the tree ($ROOT)" >&2; exit 2 ;;
esac

rm -rf "$DEST"
mkdir -p "$DEST"
git -C "$ROOT" archive HEAD | tar -x -C "$DEST"
cd "$DEST"
patch -p1 --no-backup-if-mismatch --quiet < bench/mypyc.patch
modules=()
for m in "$@"; do
    if [ "$m" = rulesets ]; then
        mapfile -t -O "${#modules[@]}" modules < <(find sim/rulesets -name '*.py' | sort \
            | grep -v -E '/(base|ruleset|advisor|hp|choices|planner|recovery|fighter|blocks)\.py$')
    else
        modules+=("$m")
    fi
done
export MYPYC_OPT_LEVEL="${MYPYC_OPT_LEVEL:-3}"
mypyc sim/core sim/ai sim/registry.py "${modules[@]}" > mypyc.log 2>&1 || { tail -20 mypyc.log >&2; exit 1; }
rm -rf build
echo "compiled: $(find sim -name '*.so' | wc -l) modules in $DEST (the log: $DEST/mypyc.log)"
