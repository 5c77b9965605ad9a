"""The scenarios that ship with fray (``fray scenarios``), wherever fray is installed.

The repository's top-level ``scenarios/`` folder is their source. A wheel carries a copy as
``sim/scenarios/`` (pyproject.toml maps the folder into the package), found here through
``importlib.resources``; an editable install or a checkout has no such copy and reads the
repository's folder itself. Campaign files keep their stages' relative paths either way.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from sim.scenario import read_yaml
from sim.scenario.campaign import is_campaign, parse_campaign
from sim.scenario.errors import FrayInputError
from sim.scenario.loader import parse


def folder() -> Path:
    """The folder holding the bundled scenarios.

    Raises:
        FileNotFoundError: neither the installed copy nor the repository's folder is there.
    """
    installed = Path(str(resources.files("sim") / "scenarios"))
    if installed.is_dir():
        return installed
    checkout = Path(__file__).resolve().parents[2] / "scenarios"  # the repository's
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError("the bundled scenarios are missing from this installation")


def files() -> list[Path]:
    """Every bundled scenario and campaign file, top folder first, by name."""
    root = folder()
    return sorted(root.rglob("*.yaml"), key=lambda p: (len(p.relative_to(root).parts), p))


def named(name: str) -> Path | None:
    """The bundled file a bare name stands for (``duel``: ``duel.yaml``), or None.

    Only a name that is no path (no folder, no ``.yaml``) is looked up: the top folder
    first, then the campaigns' (``files``' order).
    """
    if not name or "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
        return None
    try:
        return next((path for path in files() if path.stem == name), None)
    except FileNotFoundError:
        return None


def scenario_files() -> list[Path]:
    """Every bundled scenario file, campaign stages included, no campaign file itself."""
    return [path for path in files() if not is_campaign(read_yaml(str(path)))]


@dataclass(frozen=True, slots=True)
class Entry:
    """One bundled file: where it is (relative to ``folder()``), its name, what it holds."""

    file: str
    name: str
    kind: str  # "scenario" or "campaign"
    summary: str  # the sides with their sizes, or a campaign's party and stages


def entries() -> list[Entry]:
    """A line's worth about every bundled file."""
    root = folder()
    out = []
    for path in files():
        data = read_yaml(str(path))
        rel = path.relative_to(root).as_posix()
        if is_campaign(data):
            campaign = parse_campaign(data, str(path))
            out.append(Entry(rel, campaign.name, "campaign",
                             f"party {campaign.party}, {len(campaign.stages)} stages"))
        else:
            scenario = parse(data, str(path))
            sides = " v ".join(f"{side.name} {len(side.members)}" for side in scenario.sides)
            out.append(Entry(rel, scenario.name, "scenario", sides))
    return out


def copies(target: Path, force: bool = False) -> list[tuple[Path, Path]]:
    """Each bundled file and where a copy into ``target`` puts it (sub-folders kept).

    The caller writes them (``sim.cli.authoring``: atomically, never through a link).

    Raises:
        FrayInputError: a file would be replaced and ``force`` is not given.
    """
    root = folder()
    pairs = [(path, target / path.relative_to(root)) for path in files()]
    there = [str(dest) for _, dest in pairs if os.path.lexists(dest)]
    if there and not force:
        raise FrayInputError(str(target), [("", f"{len(there)} of the files exist already "
                                            f"({there[0]}, ...); use --force to overwrite "
                                            f"them")])
    return pairs
