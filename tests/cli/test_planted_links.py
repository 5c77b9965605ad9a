"""A link planted where fray writes a file or folder it names itself is never written through.

Each command that names a path itself (a ruleset's subfolder, a round picture, a copied
scenario) either refuses the link (exit 2) or replaces it; the link's target keeps what
it held.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SCENARIOS, any_ruleset, fray, two_rulesets

from sim.scenario import bundled

DUEL = str(SCENARIOS / "duel.yaml")


def _victim(tmp_path: Path) -> Path:
    """A folder a link points to, holding one file that must stay as it is."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("IMPORTANT\n")
    return victim


def _untouched(victim: Path) -> None:
    assert sorted(p.name for p in victim.iterdir()) == ["keep.txt"]
    assert (victim / "keep.txt").read_text() == "IMPORTANT\n"


@pytest.mark.parametrize("command", [
    ("batch", DUEL, "--ruleset", "all", "-n", "10"),
    ("compare", DUEL, "-n", "10", "--no-charts"),
])
def test_a_link_planted_as_a_rulesets_folder_is_refused(capsys, tmp_path, command):
    victim = _victim(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / any_ruleset()).symlink_to(victim, target_is_directory=True)
    result = fray(capsys, *command, "-q", "--out", str(out))
    assert result.code == 2, result.err
    assert "symbolic link" in result.err and str(out / any_ruleset()) in result.err
    _untouched(victim)


def test_a_link_planted_as_a_rulesets_folder_is_refused_on_resume(capsys, tmp_path):
    victim = _victim(tmp_path)
    out = tmp_path / "out"
    pair = ",".join(two_rulesets())
    first = fray(capsys, "compare", DUEL, "-n", "10", "--no-charts", "-q", "--out", str(out),
                 "--rulesets", pair)
    assert first.code == 0, first.err
    sub = out / two_rulesets()[1]
    for kept in sub.iterdir():
        kept.unlink()
    sub.rmdir()
    sub.symlink_to(victim, target_is_directory=True)
    result = fray(capsys, "compare", DUEL, "-n", "10", "--no-charts", "-q", "--out", str(out),
                  "--rulesets", pair, "--resume")
    assert result.code == 2 and "symbolic link" in result.err, result.err
    _untouched(victim)


def test_round_pictures_replace_planted_links_and_never_write_through(capsys, tmp_path):
    victim = _victim(tmp_path)
    pictures = tmp_path / "maps"
    pictures.mkdir()
    for name in ("round-00.png", "round-01.png", "round-99.png"):
        (pictures / name).symlink_to(victim / "keep.txt")
    result = fray(capsys, "run", DUEL, "--ruleset", any_ruleset(), "--seed", "3",
                  "--map", str(pictures), "--force")
    assert result.code == 0, result.err
    _untouched(victim)
    drawn = sorted(pictures.iterdir())
    assert drawn and all(p.is_file() and not p.is_symlink() for p in drawn)
    assert drawn[0].read_bytes().startswith(b"\x89PNG")
    assert not (pictures / "round-99.png").exists()  # the stale link went, not its target


def test_a_copy_of_the_scenarios_replaces_a_planted_file_link(capsys, tmp_path):
    victim = _victim(tmp_path)
    target = tmp_path / "mine"
    target.mkdir()
    (target / "duel.yaml").symlink_to(victim / "keep.txt")
    assert fray(capsys, "scenarios", "--copy", str(target)).code == 2  # exists: --force
    result = fray(capsys, "scenarios", "--copy", str(target), "--force")
    assert result.code == 0, result.err
    _untouched(victim)
    assert not (target / "duel.yaml").is_symlink()
    assert (target / "duel.yaml").read_bytes() == (SCENARIOS / "duel.yaml").read_bytes()


def test_a_copy_of_the_scenarios_refuses_a_planted_folder_link_before_any_file(capsys,
                                                                                tmp_path):
    folders = {dest.parent.name for _, dest in bundled.copies(tmp_path / "probe")
               if dest.parent != tmp_path / "probe"}
    assert folders, "the bundled scenarios hold a sub-folder (campaigns)"
    victim = _victim(tmp_path)
    target = tmp_path / "mine"
    target.mkdir()
    (target / sorted(folders)[0]).symlink_to(victim, target_is_directory=True)
    result = fray(capsys, "scenarios", "--copy", str(target), "--force")
    assert result.code == 2 and "symbolic link" in result.err, result.err
    _untouched(victim)
    assert [p.name for p in target.iterdir()] == [sorted(folders)[0]]  # nothing else written
