"""The packages to ship, found rather than listed (pyproject.toml holds everything else).

Every package under ``sim/``, a new ruleset's folder included, and the repository's
``scenarios/`` folder shipped as ``sim.scenarios`` (pyproject.toml maps the folder and names
its data). setuptools' ``packages.find`` in pyproject.toml cannot find that mapped package
(it searches folders, not ``package-dir``), hence these two finds here.
"""

from setuptools import find_namespace_packages, find_packages, setup

SCENARIOS = ["sim." + p for p in find_namespace_packages(include=["scenarios", "scenarios.*"])]

setup(packages=[*find_packages(include=["sim", "sim.*"]), *SCENARIOS])
