"""Nothing outside a ruleset's own folder and the registry names a ruleset.

A ruleset is one folder (``sim/rulesets/<folder>/``, its tests in ``tests/rulesets/<folder>/``)
and one registry line: code and tests elsewhere take ruleset names from ``sim.registry``, so
that adding or removing a ruleset breaks nothing else. Walked with ``ast``: a string constant
(an f-string's text too) holding a built-in ruleset's name (or its native block's) as a word
is a mention (``"ore"``, ``"--ruleset ore"``, ``"a duel under ore"``; not a path such as
``sim/rulesets/ore/`` or a data folder such as ``morale-opend6``); a docstring is prose and
may name one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from helpers import ROOT

from sim import registry

# The built-ins' names and native blocks, read from the registry without importing a ruleset.
NAMES = frozenset(name for name, _ in registry.BUILTIN_RULESETS.values()) \
    | frozenset(registry.native_keys())
_ALTERNATIVES = "|".join(sorted(map(re.escape, NAMES), key=len, reverse=True))
# a name as a word: not inside a longer name, a path or a hyphenated folder name
_WORD = re.compile(rf"(?<![\w/.-])({_ALTERNATIVES})(?![\w/-])")

# path (from the repository's root) -> why it may name a ruleset (none today)
EXCEPTIONS: dict[str, str] = {}


def _docstrings(tree: ast.Module) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr):
            value = node.body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def mentions(source: str) -> list[int]:
    """Lines of ``source`` where a string constant (not a docstring) names a ruleset."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    return sorted({node.lineno for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and id(node) not in prose
                   and _WORD.search(node.value)})


def _own_folder(path: Path, top: str) -> bool:
    """``path`` is inside ``<top>/rulesets/<folder>/`` (a ruleset's own code or tests)."""
    parts = path.relative_to(ROOT).parts
    return len(parts) > 3 and parts[:2] == (top, "rulesets")


def _checked() -> list[Path]:
    paths = [p for top in ("sim", "tests") for p in (ROOT / top).rglob("*.py")
             if not _own_folder(p, top)]
    return [p for p in paths if p != ROOT / "sim" / "registry.py"]


def test_nothing_outside_a_rulesets_folder_names_one():
    wrong = []
    for path in _checked():
        where = path.relative_to(ROOT).as_posix()
        lines = mentions(path.read_text())
        if lines and where not in EXCEPTIONS:
            wrong.append(f"{where}:{','.join(map(str, lines))}")
    assert not wrong, ("ruleset names written out (take them from sim.registry, or move the "
                       "test to tests/rulesets/<folder>/):\n" + "\n".join(sorted(wrong)))


def test_every_exception_still_needs_to_be_one():
    stale = [where for where in EXCEPTIONS if not mentions((ROOT / where).read_text())]
    assert not stale, f"no longer name a ruleset, drop from EXCEPTIONS: {stale}"


def test_the_walk_tells_code_from_docstrings():
    name = min(NAMES)
    source = (f'"""A module about {name!r}."""\n'
              f'def f():\n    """Uses {name!r}."""\n    return {name!r}\n'
              f'ARGS = "run x.yaml --ruleset {name}"\n'
              f'TOLD = f"a duel under {name}: {{1}} fights"\n'
              f'OTHER = "{name}s and more"\n'
              f'PATH = "sim/rulesets/{name}/ruleset.py"\n'
              f'DATA = "morale-{name}"\n')
    assert mentions(source) == [4, 5, 6]
