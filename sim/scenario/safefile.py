"""The one checked way fray opens a file: read or written, named by the user or by fray.

Every file fray reads (a scenario, a campaign, a record, a batch's checkpoint and part file)
goes through ``open_read``/``read_bytes``/``read_json``, every file it makes by a fixed name
through ``create_new``/``open_existing``, every folder it names itself (``OUT/<ruleset>``)
through ``make_dir`` (never through a link), so a new kind of file gets the same checks:

- only a regular file: a FIFO would block forever, ``/dev/zero`` fill memory; the file is
  opened without blocking and checked with ``fstat`` on the open descriptor (what is read
  is what was checked, whatever is renamed meanwhile);
- a size cap, given by the caller (what that kind of file can sensibly hold);
- ``nofollow``: a file fray names itself inside an output folder (``.encounters.csv.part``,
  ``.batch-state.json``) is opened with ``O_NOFOLLOW``, so a symbolic link planted under
  that name is refused, never followed; a path the user typed (a scenario, a record) may be
  a link they made;
- JSON nested deeper than ``MAX_JSON_DEPTH`` is refused before Python recurses into it.

Each failure is a ``FrayInputError`` naming the file and what was wrong (exit 2).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import IO, Any

from sim.scenario.errors import FrayInputError

MAX_JSON_DEPTH = 64  # a record or a checkpoint nests two or three levels
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def _refuse(path: Path | str, why: str) -> FrayInputError:
    return FrayInputError(str(path), [("", why)])


def _os_reason(exc: OSError, path: Path | str, nofollow: bool, what: str) -> FrayInputError:
    """An ``OSError`` from ``os.open`` as the user's problem, in words."""
    if isinstance(exc, FileNotFoundError):
        return _refuse(path, "file not found")
    if isinstance(exc, IsADirectoryError):
        return _refuse(path, f"is a directory, not a {what}")
    if nofollow and Path(path).is_symlink():  # ELOOP: O_NOFOLLOW met a link
        return _refuse(path, "is a symbolic link, which fray never follows for a file it "
                             "names itself; remove it")
    return _refuse(path, f"cannot read file: {exc.strerror}")


def open_read(path: Path | str, cap: int, *, nofollow: bool = False,
              what: str = "file") -> IO[bytes]:
    """Open ``path`` to read bytes: a regular file of at most ``cap`` bytes.

    ``what`` names the kind of file in the refusal of a large one.

    Raises:
        FrayInputError: missing, unreadable, a link (``nofollow``), not a regular file
            (a pipe, a device, a folder), larger than ``cap``, or a name holding NUL.
    """
    flags = os.O_RDONLY | _NONBLOCK | _BINARY | (_NOFOLLOW if nofollow else 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _os_reason(exc, path, nofollow, what) from None
    except ValueError:  # a NUL byte: no file can be named so (os.open refuses the name)
        raise _refuse(repr(str(path))[1:-1], "the file name holds a NUL byte (\\x00), which "
                                             "no file name can; name the file") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _refuse(path, f"is a directory, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(path, f"not a regular file (a pipe or a device); name a {what}")
        if info.st_size > cap:
            raise _refuse(path, f"larger than {cap:,} bytes; no {what} needs that much")
        if _NONBLOCK:  # a regular file never blocks; reads from here on are plain
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: Path | str, cap: int, *, nofollow: bool = False,
               what: str = "file") -> bytes:
    """The bytes of a checked file (``open_read``), never more than ``cap`` of them.

    A file that grows while it is read is cut at ``cap + 1`` bytes and refused.
    """
    with open_read(path, cap, nofollow=nofollow, what=what) as handle:
        blocks, total = [], 0
        try:  # in blocks: read(cap) would allocate cap bytes whatever the file holds
            while total <= cap:
                block = handle.read(min(1 << 16, cap + 1 - total))
                if not block:
                    break
                blocks.append(block)
                total += len(block)
        except OSError as exc:
            raise _refuse(path, f"cannot read file: {exc.strerror}") from None
    if total > cap:
        raise _refuse(path, f"larger than {cap:,} bytes; no {what} needs that much")
    return b"".join(blocks)


def json_depth_over(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects deeper than ``limit``.

    A linear scan that skips strings, so the parser never meets a depth that would exhaust
    Python's recursion (a record nested 100,000 deep).
    """
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def read_json(path: Path | str, cap: int, *, nofollow: bool = False,
              what: str = "JSON file") -> Any:
    """A checked file's JSON document (UTF-8, at most ``MAX_JSON_DEPTH`` deep).

    Raises:
        FrayInputError: as ``open_read``; or not UTF-8, not JSON, or nested too deep.
    """
    raw = read_bytes(path, cap, nofollow=nofollow, what=what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _refuse(path, f"not a {what}: not UTF-8 text (bad byte at {exc.start})") from None
    if json_depth_over(text, MAX_JSON_DEPTH):
        raise _refuse(path, f"not a {what}: nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise _refuse(path, f"not a {what} (not JSON: {exc})") from None


# ---------------------------------------------------------------------------- writing
def create_new(path: Path) -> IO[bytes]:
    """Make ``path`` as a new file to write (``O_CREAT | O_EXCL | O_NOFOLLOW``).

    For a file fray names itself in an output folder: whatever had that name is removed
    first (a link is removed, never followed), and the exclusive create makes sure that
    what is written is a file this run made.
    """
    try:
        path.unlink(missing_ok=True)
    except IsADirectoryError:
        raise _refuse(path, "is a directory; fray writes a file of its own there, "
                            "remove it") from None
    except PermissionError:  # some systems say so for a folder: the create then names it
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, 0o666)
    return os.fdopen(fd, "wb")


def make_dir(path: Path) -> None:
    """Make ``path``, a folder fray names itself (``OUT/<ruleset>``), never through a link.

    A folder already there is kept; a symbolic link planted under its name is refused, not
    followed (``mkdir(exist_ok=True)`` would accept a link to any folder, and write there).

    Raises:
        FrayInputError: a link, or something else than a folder, is there; or the folder
            cannot be made.
    """
    try:
        os.mkdir(path)
    except FileExistsError:
        pass
    except OSError as exc:
        raise _refuse(path, f"cannot create the folder: {exc.strerror}") from None
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(path, "is a symbolic link, which fray never follows for a folder it "
                            "names itself; remove it")
    if not stat.S_ISDIR(info.st_mode):
        raise _refuse(path, "exists and is not a folder; fray writes a folder of its own "
                            "there, remove it")


def open_existing(path: Path, cap: int, what: str) -> IO[bytes]:
    """Open a file fray made earlier to read and append to (a part file to resume).

    No link followed, only a regular file, at most ``cap`` bytes.

    Raises:
        FrayInputError: as ``open_read``.
    """
    try:
        fd = os.open(path, os.O_RDWR | _NOFOLLOW | _NONBLOCK | _BINARY)
    except OSError as exc:
        raise _os_reason(exc, path, True, what) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(path, f"the {what} is not a regular file")
        if info.st_size > cap:
            raise _refuse(path, f"larger than {cap:,} bytes; no {what} needs that much")
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "r+b")
    except BaseException:
        os.close(fd)
        raise
