"""One writer per ``--out`` folder, from the first fight to the last byte, for every command.

A second run into a folder another run holds is refused at its start (exit 2, the holder
named), and nothing is run in vain: a folder that cannot be written, or that holds a
result, is refused before the first fight.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from helpers import FRAY_COMMAND, ROOT, SCENARIOS, fray, killed_at_exit

from sim.batch import files, lock
from sim.batch import sweep as sweep_mod
from sim.cli import balance as balance_cli
from sim.scenario.errors import FrayInputError

DUEL = str(SCENARIOS / "duel.yaml")
LONG = "100000"  # fights enough that the first run still holds the folder
COMMANDS = {
    "sweep": ("sweep", DUEL, "--set", "max_rounds=1..40", "-n", LONG, "--precision", "0"),
    "balance": ("balance", DUEL, "--vary", "max_rounds", "--range", "1..40", "--target",
                "0.5", "-n", LONG),
    "compare": ("compare", DUEL, "-n", LONG, "--precision", "0"),
    "batch": ("batch", DUEL, "--ruleset", "all", "-n", LONG),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_second_run_into_a_held_folder_is_refused_at_its_start(capsys, tmp_path, name):
    out = tmp_path / "out"
    command = [*COMMANDS[name], "--workers", "1", "-q", "--out", str(out)]
    with killed_at_exit(subprocess.Popen([*FRAY_COMMAND, *command], cwd=ROOT,
                                         stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)) as first:
        deadline = time.time() + 60
        while not (out / lock.LOCK).exists() and first.poll() is None \
                and time.time() < deadline:
            time.sleep(0.05)
        assert (out / lock.LOCK).exists(), first.stderr.read() if first.poll() is not None \
            else "no lock"
        started = time.time()
        second = fray(capsys, *command, "--force")
        assert second.code == 2, second.err
        assert "in use by another fray run" in second.err and str(first.pid) in second.err
        assert time.time() - started < 20  # refused at the start, not after its fights
        assert first.poll() is None  # the first run goes on


def _holds(out: Path) -> None:
    """Fail unless a live run holds ``out`` (a second run would be refused)."""
    with pytest.raises(FrayInputError, match="in use"):
        lock.refuse_if_in_use(out)


def _watch(monkeypatch, owner, name: str, out: Path, seen: list[str]) -> None:
    """Replace ``owner.name`` by itself, first checking that a live run holds ``out``."""
    real = getattr(owner, name)

    def watched(*args, **kwargs):
        _holds(out)
        seen.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, watched)


def test_a_sweep_holds_its_folder_while_it_fights_and_writes(capsys, tmp_path, monkeypatch):
    out, seen = tmp_path / "out", []
    _watch(monkeypatch, sweep_mod, "run_sweep", out, seen)
    _watch(monkeypatch, sweep_mod, "write_outputs", out, seen)
    result = fray(capsys, "sweep", DUEL, "--set", "max_rounds=2,3", "-n", "20", "--no-charts",
                  "--out", str(out))
    assert result.code == 0, result.err
    assert seen == ["run_sweep", "write_outputs"] and not (out / lock.LOCK).exists()


def test_a_balance_holds_its_folder_while_it_searches_and_writes(capsys, tmp_path,
                                                                 monkeypatch):
    out, seen = tmp_path / "out", []
    _watch(monkeypatch, balance_cli, "search", out, seen)
    _watch(monkeypatch, files, "write_json", out, seen)
    result = fray(capsys, "balance", DUEL, "--vary", "max_rounds", "--range", "1..3",
                  "--target", "0.5", "-n", "40", "--no-charts", "--out", str(out))
    assert result.code == 0, result.err
    assert seen == ["search", "write_json"] and not (out / lock.LOCK).exists()


def _no_fight(monkeypatch) -> None:
    def refuse(*_args, **_kwargs):
        raise AssertionError("a fight ran before the folder was checked")

    monkeypatch.setattr(balance_cli, "search", refuse)
    monkeypatch.setattr(sweep_mod, "run_sweep", refuse)


BEFORE_A_FIGHT = {
    "balance": ("balance", DUEL, "--vary", "max_rounds", "--range", "1..3", "--target", "0.5",
                "-n", "40"),
    "sweep": ("sweep", DUEL, "--set", "max_rounds=2,3", "-n", "20"),
}


@pytest.mark.parametrize("name", sorted(BEFORE_A_FIGHT))
def test_an_existing_result_is_refused_before_the_first_fight(capsys, tmp_path, monkeypatch,
                                                              name):
    out = tmp_path / "out"
    out.mkdir()
    held = {"balance": "balance.json", "sweep": "sweep.csv"}[name]
    (out / held).write_text("mine\n")
    _no_fight(monkeypatch)
    result = fray(capsys, *BEFORE_A_FIGHT[name], "--out", str(out))
    assert result.code == 2 and held in result.err and "--force" in result.err, result.err
    assert (out / held).read_text() == "mine\n"


@pytest.mark.parametrize("name", sorted(BEFORE_A_FIGHT))
@pytest.mark.parametrize("errno, words", [(30, "Read-only file system"),
                                          (28, "No space left on device")])
def test_a_folder_that_cannot_be_written_is_refused_before_the_first_fight(
        capsys, tmp_path, monkeypatch, name, errno, words):
    out = tmp_path / "out"
    real = files.temporary

    def cannot(path):  # as the system says it, for a read-only or full folder
        if path.parent == out:
            raise OSError(errno, words, str(path))
        return real(path)

    monkeypatch.setattr(files, "temporary", cannot)
    _no_fight(monkeypatch)
    result = fray(capsys, *BEFORE_A_FIGHT[name], "--out", str(out))
    first = {"balance": "balance.json", "sweep": "sweep.csv"}[name]
    assert result.code == 2, result.err
    assert f"{out / first}: cannot write: {words}" in result.err
    assert not (out / lock.LOCK).exists()


def test_a_full_disk_in_the_middle_of_a_write_names_the_file(capsys, tmp_path, monkeypatch):
    out = tmp_path / "out"
    real, opened = files._no_link, []

    def full(name, flags):  # the check at the start passes; the disk fills before the write
        if Path(name).name.startswith(".sweep.csv."):
            opened.append(name)
            if len(opened) > 1:
                raise OSError(28, "No space left on device")  # as a write() says it: no file
        return real(name, flags)

    monkeypatch.setattr(files, "_no_link", full)
    result = fray(capsys, "sweep", DUEL, "--set", "max_rounds=2,3", "-n", "20", "--no-charts",
                  "--out", str(out))
    assert result.code == 1 and len(opened) == 2
    assert f"{out / 'sweep.csv'}: No space left on device" in result.err, result.err
    assert not [p for p in out.iterdir() if p.name.startswith(".sweep.csv.")]


def test_a_lock_that_cannot_be_written_is_not_left_empty(tmp_path, monkeypatch):
    real = lock.os.fdopen

    class Full:
        def __init__(self, fd, mode):
            self.handle = real(fd, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, _text):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(lock.os, "fdopen", Full)
    with pytest.raises(FrayInputError, match="cannot write the folder's lock: No space"):
        with lock.locked(tmp_path):
            pass
    assert not (tmp_path / lock.LOCK).exists()


@pytest.mark.parametrize("flag", ["--output", "--html"])
def test_fray_run_refuses_a_file_it_cannot_write_before_the_fight(capsys, tmp_path,
                                                                  monkeypatch, flag):
    """``fray run --output`` and ``--html``: a read-only folder is said before the fight."""
    from sim.cli import run as run_cli

    out = tmp_path / "fight.txt"
    real = files.temporary

    def cannot(path):
        if path.parent == tmp_path:
            raise OSError(30, "Read-only file system", str(path))
        return real(path)

    def no_fight(*args, **kwargs):
        raise AssertionError("the fight ran before the file was checked")

    monkeypatch.setattr(files, "temporary", cannot)
    monkeypatch.setattr(run_cli, "run_encounter", no_fight)
    result = fray(capsys, "run", "duel", flag, str(out))
    assert result.code == 2, result.err
    assert f"{out}: cannot write: Read-only file system" in result.err
