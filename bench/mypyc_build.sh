#!/usr/bin/env bash
# The fight path compiled with mypyc, in a scratch copy of the committed tree (never in the tree).
#
# Usage: bench/mypyc_build.sh [DEST] [MODULE ...]
#   DEST    where the copy goes (default /tmp/fray-mypyc); it is replaced
#   MODULE  more modules to compile beside sim/core, sim/ai and sim/registry.py (type-clean
#           ones only: mypyc refuses a module mypy rejects), e.g. sim/rulesets/dice.py
#
# bench/mypyc.patch makes the core compile (docs/performance.md, "A compiled fight path"):
# ruleset classes may subclass Combatant, Advisor and Encounter, the import cycle of
# actions and combatant is ordered, a Generic dataclass stays interpreted. Then, from DEST,
# the compiled tree against the pure one, in pairs:
#   python bench/versus.py PURE_TREE --rulesets ore,opend6 --scenarios duel,mirror
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
mypyc sim/core sim/ai sim/registry.py "$@" > mypyc.log 2>&1 || { tail -20 mypyc.log >&2; exit 1; }
rm -rf build
echo "compiled: $(find sim -name '*.so' | wc -l) modules in $DEST (the log: $DEST/mypyc.log)"
