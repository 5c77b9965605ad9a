"""Shared test helpers: hand-set dice and small scenarios."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import icepool

from sim import scenario as scenario_mod
from sim.rulesets import registry

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
# fray's command line in a child process (signals, exit codes, stderr as a user sees them)
FRAY_COMMAND = [sys.executable, "-c", "from sim.cli.main import main; main()"]


def wait_for_state(out: Path, proc: subprocess.Popen, timeout: float = 120) -> None:
    """Wait until a batch run by ``proc`` has kept its first chunk (its checkpoint exists)."""
    from sim.batch.files import STATE

    deadline = time.time() + timeout
    while not (out / STATE).exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert (out / STATE).exists(), proc.stderr.read() if proc.poll() is not None \
        and proc.stderr else "no checkpoint"


def default_sigint() -> None:
    """A child's SIGINT raises KeyboardInterrupt, as a terminal user's has it.

    For ``preexec_fn``: a run started as a background job (or under nohup) inherits SIGINT
    ignored, and so would the child.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def killed_at_exit(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    """``proc``, killed when the block ends if it is still running (a failed test)."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (not gone, not a zombie)."""
    running = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            running.append(pid)
    return running


def workers_of(proc: subprocess.Popen, timeout: float = 60) -> list[int]:
    """The worker processes of a running fray, once at least two have started."""
    deadline = time.time() + timeout
    while len(children(proc.pid)) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    workers = children(proc.pid)
    assert len(workers) >= 2, "no workers started"
    return workers


def killed_leaves_no_worker(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc`` once its workers run; fail if one outlives it or holds its stdout.

    Survivors are killed before the failure: a failed test leaves nothing running either.
    """
    workers = workers_of(proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 10
    while alive(workers) and time.time() < deadline:
        time.sleep(0.1)
    left = alive(workers)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
    assert proc.stdout is not None
    proc.stdout.read()  # ends: no worker holds fray's output pipe


def batch_outputs(folder: Path) -> tuple[bytes, bytes]:
    """A finished batch folder's ``encounters.csv`` and ``summary.json``, byte for byte."""
    return (folder / "encounters.csv").read_bytes(), (folder / "summary.json").read_bytes()


class StubRandom(random.Random):
    """A ``random.Random`` whose ``random()`` returns queued values.

    ``sim.rulesets.dice.roll`` maps ``random()`` to ``int(x * sides) + 1``, so ``face(f, sides)``
    gives the value that rolls face ``f``. Anything else falls back to a seeded generator.
    """

    def __init__(self, values=(), seed=0):
        super().__init__(seed)
        self.queue = list(values)
        self.drawn = 0

    def push(self, *values):
        self.queue.extend(values)

    def random(self):
        self.drawn += 1
        if self.queue:
            return self.queue.pop(0)
        return super().random()


def face(value: int, sides: int = 10) -> float:
    """The ``random()`` value that makes ``sim.rulesets.dice.roll`` show ``value``."""
    return (value - 0.5) / sides


def faces(*values: int, sides: int = 10) -> list[float]:
    """``face`` for several dice."""
    return [face(v, sides) for v in values]


def any_ruleset() -> str:
    """A ruleset for a test that needs one but not a particular one: the registry's default."""
    return registry.default()


def two_rulesets() -> list[str]:
    """Two distinct rulesets, for a test that compares or lists several: the first two."""
    return registry.names()[:2]


def longest_ruleset(besides: str | None = None) -> str:
    """The ruleset whose name is longest (other than ``besides``): the widest in a table."""
    return max((name for name in registry.names() if name != besides), key=len)


def typo(name: str) -> str:
    """``name`` misspelt (its last letter dropped), for a did-you-mean message."""
    return name[:-1]


def scenario(sides: dict, **top) -> scenario_mod.Scenario:
    """A scenario from a dict of sides (members as dicts), validated like a file."""
    data = {"name": "test", "ruleset": registry.default(), **top, "sides": sides}
    return scenario_mod.parse(data, "test.yaml")


@dataclass
class Result:
    code: int
    out: str
    err: str


def fray(capsys, *args: str) -> Result:
    """Run ``fray ARGS`` in this process; return the exit code and what it printed."""
    from sim.cli.main import main

    capsys.readouterr()
    old = sys.argv
    sys.argv = ["fray", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = old
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


ADDED_KEYS = {"deaths_in_fight", "deaths_after", "deaths_in_fight_per_encounter",
              "deaths_after_per_encounter", "death_rate_after", "damaging_hits", "combatants",
              "digest", "aftermath", "deaths_after_tended", "deaths_after_untended",
              "deaths_after_untended_in_draws", "death_rate_after_untended", "death_split",
              "too_few", "examples", "spread", "coverage", "variants", "contribution"}
"""Keys summary.json and lethality.json gained with the aftermath, damaging hits, the
per-fighter results, the deaths split by who was tended (docs/deaths.md), and the fights
behind the numbers (docs/batches.md)."""


def without_added_keys(doc):
    """``doc`` without ``ADDED_KEYS`` (to compare with files made before they existed)."""
    if isinstance(doc, dict):
        return {k: without_added_keys(v) for k, v in doc.items() if k not in ADDED_KEYS}
    return doc


# ---------------------------------------------------------------- OpenD6's icepool oracle

TRUNCATION_MASS = 1e-9
# The wild die explodes on its first 6 (probability 1/6); the reroll die d6.explode(depth=D)
# stops exploding after D more sixes, which misplaces a mass of 6**-(D + 1) of that branch.
EXPLODE_DEPTH = next(d for d in range(50) if 6.0 ** -(d + 2) < TRUNCATION_MASS)
D6 = icepool.d6


def opend6_exact_roll(dice: int, pips: int, *, complication: bool = False) -> icepool.Die:
    """Exact distribution of dice D + pips under the wild-die rules, built from the rules text.

    Conditioned on the wild die's first face f:
      f = 1: fumble; remove the wild die and the highest normal die (the sum of the lowest
             dice - 2 normal dice), or count everything (complication);
      f = 6: 6 + an exploding d6 (a later 1 just adds 1) + the normal dice;
      else:  f + the normal dice.
    """
    others = dice - 1
    rest = others @ D6 if others else icepool.Die([0])
    if complication:
        fumble = 1 + rest
    elif others >= 2:
        fumble = D6.lowest(others, others - 1)
    else:
        fumble = icepool.Die([0])
    exploded = 6 + D6.explode(depth=EXPLODE_DEPTH) + rest

    def branch(face: int) -> icepool.Die:
        if face == 1:
            return fumble
        if face == 6:
            return exploded
        return face + rest

    return D6.map(branch) + pips


class StopAfter:
    """A progress callback that presses Ctrl-C after ``chunks`` chunks."""

    def __init__(self, chunks):
        self.left = chunks

    def __call__(self, n):
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt


# a stored morale batch (its rows, summary and scenario), kept to check folds and reports
MORALE_RUN = Path(__file__).parent / "results" / "data" / "morale-opend6"


def stored_ruleset(folder: Path) -> str:
    """The ruleset a stored batch in ``folder`` ran under, as its ``summary.json`` says."""
    return json.loads((folder / "summary.json").read_text())["ruleset"]


def morale_document(max_rounds: int = 12) -> dict:
    """A two-ruleset ``lethality.json`` (the stored morale batch, twice) with a round limit."""
    import csv

    from sim.results.lethality import document
    from sim.results.tally import Tally

    ruleset = stored_ruleset(MORALE_RUN)
    tally = Tally.for_sides("morale", ruleset, 2, {"heroes": 3, "bandits": 4})
    with open(MORALE_RUN / "encounters.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            tally.add(row)
    entry = tally.lethality()
    doc = document("morale", 30, 2, {ruleset: entry, "copy": {**entry, "ruleset": "copy"}})
    doc.update(scenario_name="Morale at the ford", scenario_file="morale.yaml",
               members={"heroes": 3, "bandits": 4}, max_rounds=max_rounds)
    return doc


def fighter_slots(f) -> dict:
    """Every slot a fighter has set (and its ``__dict__``, for a fighter class without
    ``__slots__``), to compare a copied or rebuilt fighter with a built one.

    The attacks kept on it (``plain_attack``, ``called_attacks``) are told by aiming at it,
    not by identity: a copy's and a build's are distinct objects.
    """
    names = [n for cls in type(f).__mro__ for n in getattr(cls, "__slots__", ())]
    state = {n: getattr(f, n) for n in names if hasattr(f, n)}
    state.update(getattr(f, "__dict__", {}))
    state["plain_attack"] = state["plain_attack"].target is f
    state["called_attacks"] = {where: a.target is f for where, a in f.called_attacks.items()}
    return state


def act(enc, f, *intents) -> None:
    """Plan and resolve ``intents`` of ``f`` now, under any ruleset.

    Declared at the round's start (passed to ``plan_round``) or at its own turn
    (``Ruleset.declares_at_turn``: a mind answers for it when its turn asks).
    """
    saved = enc.minds
    enc.minds = {**saved, f.name: lambda _enc, _c: list(intents)}
    try:
        for action in enc.ruleset.plan_round(enc, [(f, list(intents))]):
            enc.ruleset.resolve(enc, action)
    finally:
        enc.minds = saved


def watch_declarations(enc, check) -> None:
    """Call ``check(enc, c, intents)`` on every declaration of ``enc``, as it is made.

    At the round's start or at a fighter's own turn (``Ruleset.declares_at_turn``): a
    watch on ``plan_round`` would see OpenD6's turns with no intents yet.
    """
    declare = enc.declare

    def watched(c):
        intents = declare(c)
        check(enc, c, intents)
        return intents

    enc.declare = watched


RULESETS_TESTS = Path(__file__).parent / "rulesets"


def support(ruleset: str) -> ModuleType:
    """What a ruleset's own test folder gives the shared tests: its ``support.py``.

    ``tests/rulesets/<folder>/support.py`` (``<folder>`` that of ``sim/rulesets/<folder>/``)
    holds ``RULESETS`` (the names it answers for), ``check_conversion(fighter, unarmed)``
    (the neutral hero's numbers under its conversion), ``hurt(fighter, share)`` (wound a
    fighter so that its threat reads about ``share``) and ``NATIVE_BLOCK`` (a valid native
    block, for a member that holds every ruleset's).
    """
    folder = registry.get(ruleset).__module__.split(".")[2]
    path = RULESETS_TESTS / folder / "support.py"
    assert path.exists(), (
        f"{ruleset}: no {path.relative_to(ROOT)}; it holds RULESETS, "
        "check_conversion(fighter, unarmed) and hurt(fighter, share) (adding-a-ruleset.md)")
    module = _support_modules.get(path)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"{folder}_support", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _support_modules[path] = module
    assert ruleset in module.RULESETS, f"{path} does not name {ruleset} in RULESETS"
    return module


_support_modules: dict[Path, ModuleType] = {}


def hurt(enc, f, share: float) -> None:
    """Wound ``f`` so that its ``threat`` reads about ``share`` (its ruleset's ``support``)."""
    support(enc.ruleset.name).hurt(f, share)


def schema_errors(data: dict) -> list:
    """What ``fray schema``'s JSON Schema finds wrong in a scenario ``data``."""
    import jsonschema

    from sim.scenario.schema import scenario_schema

    return list(jsonschema.Draft202012Validator(scenario_schema()).iter_errors(data))


def accepted_by_both(capsys, tmp_path: Path, data: dict) -> None:
    """``data`` written as a scenario passes ``fray validate`` and ``fray schema``'s schema."""
    import yaml

    path = tmp_path / "ok.yaml"
    path.write_text(yaml.safe_dump(data))
    assert fray(capsys, "validate", str(path)).code == 0
    assert not [e.message for e in schema_errors(data)]


def schema_paths(errors) -> Iterator[list]:
    """Where each schema error (and each alternative of an anyOf that failed) points."""
    for e in errors:
        yield list(e.absolute_path)
        yield from schema_paths(e.context)


def ambush_with(change: Callable[[dict], object]) -> dict:
    """``scenarios/ambush.yaml`` as a dict, changed by ``change`` (which edits it in place)."""
    import yaml

    data = yaml.safe_load((SCENARIOS / "ambush.yaml").read_text())
    change(data)
    return data


def pitted(scenario, looking: int, **settings):
    """``scenario`` with side ``looking`` on ``lookahead`` (with ``settings``), the other on
    ``tactical``."""
    from dataclasses import replace

    from sim.scenario.specs import Doctrine

    sides = []
    for k, side in enumerate(scenario.sides):
        doctrine = Doctrine("lookahead", **settings) if k == looking else Doctrine("tactical")
        sides.append(replace(side, members=tuple(
            replace(m, ai=doctrine.profile, doctrine=doctrine) for m in side.members)))
    return replace(scenario, sides=tuple(sides))


def lookahead_share(ruleset: str, fights: int = 30) -> tuple[int, int]:
    """``lookahead`` against ``tactical`` in the mirror duel: its wins and losses.

    The sides swap every other fight; the seeds are ``encounter_seed(11, i)``.
    """
    from sim.core.engine import Encounter
    from sim.core.seeds import encounter_seed

    duel = scenario_mod.load(ROOT / "tests" / "data" / "mirror_duel.yaml")
    won = lost = 0
    for i in range(fights):
        pit = pitted(duel, i % 2)
        winner = Encounter(pit, ruleset, encounter_seed(11, i)).run().winner
        if winner == pit.sides[i % 2].name:
            won += 1
        elif winner is not None:
            lost += 1
    return won, lost


def validated_with_imports(tmp_path: Path, text: str) -> str:
    """``fray validate`` of a scenario ``text`` in a fresh process: what it printed, and
    after ``LOADED`` the ruleset modules (and ``networkx``, the engine, ``rich``) it imported."""
    path = tmp_path / "checked.yaml"
    path.write_text(text)
    code = ("import sys; from sim.cli.main import main; sys.argv = ['fray', 'validate', {!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith('sim.rulesets.') "
            "or m in ('networkx', 'sim.core.engine', 'rich')))")
    out = subprocess.run([sys.executable, "-c", code.format(str(path))],
                         capture_output=True, text=True, check=True).stdout
    assert f"{path}: OK" in out
    return out.split("LOADED ")[1]


def ruleset_modules() -> set[str]:
    """Each built-in ruleset's registering module and its folder's ``ruleset`` module."""
    return set(registry.BUILTIN) | {f"sim.rulesets.{module.split('.')[2]}.ruleset"
                                    for module in registry.BUILTIN}

