"""The import graph of ``sim``: no module cycle, and the packages a DAG of layers.

Walked with ``ast``; imports inside functions count (a local import that dodges a cycle is
still a cycle), imports under ``if TYPE_CHECKING:`` do not (they never run). The layers,
from the ground up (docs/architecture.md): the scenario specs and the results; the engine
(``core``); the AI and the rulesets above it; batches and reports; the CLI on top. The
registry (``sim.registry``) is the one plug-in point: it imports nothing of ``sim`` and
names the rulesets and the engine's default mind by module name, as entry points would, so
that any layer may ask it. No package imports another that imports it back, and nothing
outside ``sim/rulesets`` names a ruleset.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import networkx as nx
from helpers import ROOT

from sim import registry

SIM = ROOT / "sim"

# What each layer may import at run time (besides itself), in the order of the layers.
ALLOWED = {
    "sim.registry": set(),
    "sim.results": set(),
    "sim.scenario": {"sim.registry"},
    "sim.core": {"sim.scenario", "sim.registry"},
    "sim.ai": {"sim.scenario", "sim.core", "sim.results"},  # (the what-if's intervals)
    "sim.rulesets": {"sim.scenario", "sim.core", "sim.registry"},
    "sim.report": {"sim.results", "sim.scenario", "sim.core", "sim.registry"},
    "sim.batch": {"sim.scenario", "sim.core", "sim.registry", "sim.results", "sim.report"},
    "sim.cli": {"sim.scenario", "sim.core", "sim.registry", "sim.rulesets", "sim.batch",
                "sim.results", "sim.report", "sim.ai"},
}


def _modules() -> dict[str, ast.Module]:
    out = {}
    for path in SIM.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = ast.parse(path.read_text(), str(path))
    return out


def _runtime_imports(name: str, tree: ast.Module, modules) -> set[str]:
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
            and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    package = name if name in modules and _is_package(name) else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            # ``from pkg import sub`` imports the module; ``from mod import name``, the module
            targets = subs if len(subs) == len(node.names) else [*subs, base]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target.startswith("sim") and target != name:
                found.add(target)
    return found


def _is_package(name: str) -> bool:
    return (SIM.parent / name.replace(".", "/") / "__init__.py").exists()


def _graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, tree in modules.items():
        for target in _runtime_imports(name, tree, modules):
            if not (name.startswith(target + ".") and _is_package(target)):
                graph.add_edge(name, target)  # a package's own __init__ is not an edge
    return graph


def _layer(name: str) -> str | None:
    return next((layer for layer in ALLOWED if name == layer or name.startswith(layer + ".")),
                None)


def test_the_import_graph_has_no_cycle():
    cycles = list(nx.simple_cycles(_graph()))
    assert not cycles, f"import cycles: {cycles[:3]}"


def test_no_two_packages_import_each_other():
    packages = nx.DiGraph()
    for a, b in _graph().edges:
        la, lb = _layer(a), _layer(b)
        if la and lb and la != lb:
            packages.add_edge(la, lb)
    cycles = list(nx.simple_cycles(packages))
    assert not cycles, f"packages that import each other: {cycles}"


def test_the_engine_loads_no_yaml_pydantic_ai_or_ruleset():
    code = ("import sys; import sim.core.engine; print(sorted(m for m in sys.modules if "
            "m.split('.')[0] in ('yaml', 'pydantic') or m.startswith(('sim.ai', "
            "'sim.rulesets', 'sim.scenario.loader'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]", out


def test_each_layer_imports_only_what_it_may():
    wrong = []
    for a, b in _graph().edges:
        la, lb = _layer(a), _layer(b)
        if la is None or lb is None or la == lb:
            continue
        if not any(b == ok or b.startswith(ok + ".") for ok in ALLOWED[la]):
            wrong.append(f"{a} -> {b}")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_nothing_outside_rulesets_names_a_ruleset():
    # every built-in ruleset's folder, read from the registry: a new one is checked too
    names = {module.split(".")[2] for module in registry.BUILTIN}
    wrong = [f"{a} -> {b}" for a, b in _graph().edges
             if not a.startswith("sim.rulesets") and b.startswith("sim.rulesets.")
             and b.split(".")[2] in names]
    assert not wrong, wrong


def test_rules_never_call_the_ai_profiles():
    wrong = [f"{a} -> {b}" for a, b in _graph().edges
             if a.startswith("sim.rulesets") and b.startswith("sim.ai.profiles")]
    assert not wrong, wrong


def test_rules_never_read_a_profile_name():
    """Rules read a fighter's ``policy`` and ``doctrine``, never ``.ai`` (the profile name)."""
    wrong = []
    for path in (SIM / "rulesets").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "ai":
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not wrong, wrong


def test_the_walk_sees_local_imports():
    """The walker counts an import inside a function (so the tests above can fail)."""
    tree = ast.parse("def f():\n    from sim.core import engine\n")
    assert _runtime_imports("sim.scenario.loader", tree, _modules()) == {"sim.core.engine"}
