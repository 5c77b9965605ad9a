"""One writer per output folder: a lock file naming the run that holds the folder.

A second run into a held folder is refused, naming the holder; a lock whose process is
gone (on this host) is taken over.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from sim.scenario import safefile
from sim.scenario.errors import FrayInputError

LOCK = ".fray.lock"  # held by the run writing into a folder
LOCK_WRITE_GRACE = 5.0  # seconds an unreadable lock counts as a run starting, not a stale one


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one run: a second run into it refuses, naming the holder.

    The lock is a file made with ``O_EXCL`` holding the process id, the host and the start
    time; a lock whose process is gone (this host) is taken over.

    Raises:
        FrayInputError: another live run holds the folder.
    """
    path = folder / LOCK
    me = f"{os.getpid()} {socket.gethostname()} {time.strftime('%Y-%m-%d %H:%M:%S')}"
    for _ in range(3):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            refuse_if_in_use(folder)
            path.unlink(missing_ok=True)  # a stale lock: its run is gone
            continue
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(me)
        except OSError as exc:  # a full disk: no empty lock is left behind
            path.unlink(missing_ok=True)
            raise FrayInputError(str(path), [("", f"cannot write the folder's lock: "
                                                  f"{exc.strerror}")]) from None
        break
    else:  # pragma: no cover - three runs racing for one stale lock
        raise FrayInputError(str(folder), [("", "could not take the folder's lock")])
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def refuse_if_in_use(folder: Path) -> None:
    """Refuse ``folder`` while a live run holds its lock, naming the holder.

    Asked before anything judges what the folder holds: a running batch's checkpoint is not
    an interrupted batch.

    Raises:
        FrayInputError: another live run holds the folder.
    """
    path = folder / LOCK
    if not path.exists():
        return
    holder = _holder(path)
    if holder is None and _younger_than(path, LOCK_WRITE_GRACE):
        # made (O_EXCL) but not yet written by a run starting this moment
        raise FrayInputError(str(folder), [("", "in use by another fray run that is just "
                             "starting; wait for it or choose another --out")])
    if holder is not None and _alive(*holder[:2]):
        pid, host, since = holder
        raise FrayInputError(str(folder), [("", f"in use by another fray run (process {pid} "
                             f"on {host}, since {since}); wait for it or choose another --out "
                             f"(if that run is gone, remove {path})")])


def _younger_than(path: Path, seconds: float) -> bool:
    """Whether ``path`` was last written less than ``seconds`` ago (False if it is gone)."""
    try:
        return time.time() - path.stat().st_mtime < seconds
    except OSError:
        return False


def _holder(path: Path) -> tuple[int, str, str] | None:
    """``(pid, host, since)`` from a lock file, or None when it cannot be read."""
    try:  # checked: a FIFO planted as the lock would block a plain read forever
        text = safefile.read_bytes(path, 4096, nofollow=True, what="lock").decode()
        pid, host, since = text.split(" ", 2)
        return int(pid), host, since
    except (FrayInputError, ValueError):
        return None


def _alive(pid: int, host: str) -> bool:
    """Whether the lock's process still runs (another host's is taken to)."""
    if host != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
