"""Records of played fights and their replay, for ``fray play`` and ``fray campaign --as``.

A record is a JSON object: ``kind`` (``play`` or ``campaign``), the name of what was played
under the key of its kind (``scenario`` or ``campaign``, the file's stem), its ``digest``
(the fingerprint of what the file says), ``ruleset``, ``seed``, ``as`` (the combatants the
player played) and ``answers`` (every answer given, in order, one string each). A replay
reads it back, checks every field against the file it is replayed with, and feeds the
answers to the player's fighters one by one: the same fight (or chain of fights) again.
Records of ``fray play`` written before ``kind`` existed hold a ``scenario`` and no
``kind``: they are read as ``play`` records. ``menu`` says which menu the answers were
given to (``MENU``); a record without it was made with the one long list, and is replayed
with that list. ``code`` is the digest of fray's own code that made it
(``batch.runner.code_digest``): a replay under other code is told that the fight may differ.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, SupportsIndex

import click

from sim import registry
from sim.ai import menu as menus
from sim.batch import files
from sim.batch.executors import say
from sim.batch.runner import code_digest
from sim.scenario import bundled, safefile
from sim.scenario.errors import FrayInputError, unknown

# each kind: the key naming what was played, the command that writes it, what it names
KINDS = {"play": ("scenario", "fray play", "scenario"),
         "campaign": ("campaign", "fray campaign --as", "campaign")}
SUFFIX = ".record.json"
MAX_RECORD_BYTES = 20_000_000  # a long fight's answers take some kilobytes
MAX_ANSWER_CHARS = 400  # a menu number or a keyword ("attack <an 80-character name> twice")
MAX_RECORD_ROLLOUTS = 1000  # a '? N' a record holds weighs again when replayed: this many at most
MENU = 3
"""The menu a record's answers were given to: 3, the two-step menu (a short first menu, the
details of a group in a second, ``menus.top``), a question after a roll with one choice
taking it unasked; 2, the same menu when that question was asked (and answered); a record
without ``menu`` is of the one long list before both, and is replayed with that list
(``Player(grouped=False)``)."""
MENUS = (1, 2, MENU)
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True)
class Record:
    """What a play fixes: what was played, under which ruleset and seed, by whom, and how.

    ``answers`` holds the answers read back by a replay; a play being recorded keeps its
    own (``Player.answers``) and hands them to ``write``.
    """

    kind: str
    name: str  # the scenario's or the campaign's slug
    digest: str
    ruleset: str
    seed: int
    played: tuple[str, ...]
    answers: tuple[str, ...] = field(default=())
    menu: int = MENU  # the menu the answers are to (``MENU``)
    file: str = ""  # the scenario's file, for a replay given no scenario ("": not noted)

    def document(self, answers: Sequence[str]) -> dict[str, Any]:
        """The record as written, with ``answers`` and the ``check`` of what decides the fight."""
        key = KINDS[self.kind][0]
        doc = {"kind": self.kind, key: self.name, "digest": self.digest,
               "ruleset": self.ruleset, "seed": self.seed, "as": list(self.played),
               "menu": self.menu, "code": code_digest(), "answers": list(answers)}
        if self.file:
            doc["file"] = self.file
        return {**doc, "check": check(doc)}


CHECKED = ("seed", "ruleset", "as", "answers")
"""The fields a record's ``check`` holds a digest of, one each: what decides the fight."""


def check(doc: dict[str, Any]) -> dict[str, str]:
    """A short SHA-256 of each of a record's ``CHECKED`` fields, as JSON.

    One per field, so that a replay of an edited record names what was changed.
    """
    return {k: hashlib.sha256(json.dumps(doc.get(k), sort_keys=True).encode()).hexdigest()[:16]
            for k in CHECKED}


class Recorder(list[str]):
    """A play's answers, each written to its record as it is given (and taken back).

    A play killed at any moment keeps the answers given so far, and replays up to there;
    the record is rewritten atomically (``files.write_json``) at each change.
    """

    def __init__(self, path: Path | None, record: Record):
        super().__init__()
        self.path, self.record = path, record
        self._save()

    def _save(self) -> None:
        if self.path is not None:
            try:
                files.write_json(self.path, self.record.document(self))
            except OSError as exc:
                raise FrayInputError(str(self.path), [("", f"cannot write the record: "
                                                           f"{exc.strerror}")]) from None

    def append(self, answer: str) -> None:
        """Keep ``answer``, on disk at once."""
        super().append(answer)
        self._save()

    def pop(self, index: SupportsIndex = -1) -> str:
        """Take an answer back (a refused one), on disk at once."""
        answer = super().pop(index)
        self._save()
        return answer


def options(beside: str) -> Decorator:
    """``--record FILE`` and ``--replay FILE``; ``beside``: the option the default follows."""
    record = click.option(
        "--record", "record_file", type=click.Path(dir_okay=False, path_type=Path),
        help=f"Write the record (seed, ruleset, answers) to FILE; default: beside {beside} "
             f"({beside.lstrip('-').upper()}{SUFFIX}).")
    replay = click.option(
        "--replay", "replay_file", type=click.Path(dir_okay=False, path_type=Path),
        help="Play a recorded play again, answer for answer (the record gives who is "
             "played, the ruleset and the seed).")

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        return record(replay(command))

    return decorate


def record_path(record_file: Path | None, journal: Path | None) -> Path | None:
    """Where the record goes: ``--record``, else beside the journal, else nowhere."""
    if record_file is None and journal is not None:
        return journal.with_name(journal.name + SUFFIX)
    return record_file


@dataclass(frozen=True)
class Start:
    """How a play begins: who is played, under which ruleset and seed, and its answers.

    ``answers``: a replay's, or standard input's lines when it is not a terminal; None
    reads the terminal. ``menu``: the menu the answers are to (``MENU``, or 1 for a record
    made with the one long list).
    """

    names: str | None
    ruleset: str | None
    seed: int
    answers: Iterator[str] | None
    menu: int = MENU

    @property
    def grouped(self) -> bool:
        """The two-step menu (``Player(grouped=...)``)."""
        return self.menu >= 2

    @property
    def asks_single(self) -> bool:
        """A question with one choice is asked (a record made when it was)."""
        return self.menu < MENU


def start(replay_file: Path | None, names: str | None, ruleset: str | None, seed: int, *,
          kind: str, name: str, digest: str, members: Sequence[str], member: str,
          fixed: str) -> Start:
    """The start of ``fray play`` or ``fray campaign --as``: a replay's, or the options'.

    A replay takes ``fixed`` (who is played, the ruleset, the seed) from its record
    (``refuse_overrides``, ``read``: ``kind``, ``name``, ``digest``, ``members`` and
    ``member`` as there); otherwise the options give them, and a script on standard input
    the answers.
    """
    if replay_file is not None:
        refuse_overrides(click.get_current_context(), ("names", "ruleset", "seed"), fixed)
        replayed = read(replay_file, kind, name, digest, members, member)
        return Start(",".join(replayed.played), replayed.ruleset, replayed.seed,
                     iter(replayed.answers), replayed.menu)
    answers = None if sys.stdin.isatty() else (line.rstrip("\n") for line in sys.stdin)
    return Start(names, ruleset, seed, answers)


def played(names: str, members: Sequence[str], option: str, member: str) -> list[str]:
    """Who ``names`` (``option``'s comma-separated value) plays, each checked in ``members``.

    Once each, in the order given; ``member`` is what they are called in an error.
    """
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    bad = [n for n in wanted if n not in members]
    if bad or not wanted:
        raise FrayInputError(option, [("", unknown(member, n, members)) for n in bad]
                             or [("", f"name at least one {member}")])
    return list(dict.fromkeys(wanted))


def claim(record_file: Path | None, journal: Path | None, journal_option: str,
          force: bool) -> Path | None:
    """Claim the record's path and the journal's (``files.claim_out_file``); the record's.

    The record goes to ``--record``, else beside the journal (``record_path``); one file
    cannot be both.
    """
    if journal is not None and not journal.name:  # '' or a folder's own name ('.', '..')
        raise FrayInputError(journal_option, [("", f"{str(journal)!r} names no file; give a "
                                                   "file name")])
    record_file = record_path(record_file, journal)
    if record_file is not None and journal is not None and (
            record_file.resolve() == journal.resolve()):
        raise FrayInputError("--record", [("", f"{record_file} is also the {journal_option} "
                                               f"file: give the record a file of its own")])
    for path in (journal, record_file):
        if path is not None:
            files.claim_out_file(path, force)
            files.check_writable(path)  # before the fight, not after it
    return record_file


def file_of(path: Path, kind: str = "play") -> str:
    """The file a record was made from, for ``--replay`` given no file.

    Its own note of it (``Record.file``) while that file is there, else the bundled one of
    its name.

    Raises:
        FrayInputError: naming ``--replay``: the record is unreadable, or neither is found
            (the file must then be given, as before).
    """
    doc = safefile.read_json(path, MAX_RECORD_BYTES, what="record")
    key, command, what = KINDS[kind]
    noted = doc.get("file") if isinstance(doc, dict) else None
    if isinstance(noted, str) and noted and Path(noted).is_file():
        return noted
    name = doc.get(key) if isinstance(doc, dict) else None
    found = bundled.named(name) if isinstance(name, str) else None
    if found is None:
        raise FrayInputError("--replay", [("", f"{path}: its {what} {_short(name)} is not "
                                               f"a bundled one and its file is not noted "
                                               f"or gone: give the {what} file ({command} "
                                               f"FILE --replay {path})")])
    return str(found)


def refuse_overrides(ctx: click.Context, names: Sequence[str], fixed: str) -> None:
    """A replay takes ``fixed`` from its record: given as well, they would be ignored."""
    given = [p.opts[0] for p in ctx.command.params if p.name in names
             and ctx.get_parameter_source(p.name) is click.core.ParameterSource.COMMANDLINE]
    if given:
        raise FrayInputError(given[0], [("", f"--replay takes {fixed} from its record; drop "
                                             f"{', '.join(given)}")])


def read(path: Path, kind: str, name: str, digest: str, members: Sequence[str],
         member: str = "combatant") -> Record:
    """The record at ``path``, checked field by field against what it is replayed with.

    Args:
        path: the record (``--replay FILE``).
        kind: ``play`` or ``campaign``: the command replaying it.
        name: the slug of the file given on the command line.
        digest: that file's fingerprint.
        members: whom a record of it may have played.
        member: what they are called in an error (``combatant``, ``party member``).

    Raises:
        FrayInputError: naming ``path``, the field and what is allowed: unreadable or not
            JSON, of the other command, of another file (or of this one before it
            changed), or a field missing or of the wrong kind.
    """
    doc = safefile.read_json(path, MAX_RECORD_BYTES, what="record")
    if not isinstance(doc, dict):
        raise FrayInputError(str(path), [("", "not a record: expected a JSON object with "
                                              "kind, digest, ruleset, seed, as and answers")])
    bad = _Problems(str(path))
    key, command, what = KINDS[kind]
    found = doc.get("kind", "play" if "scenario" in doc else None)
    if found != kind:
        if isinstance(found, str) and found in KINDS:
            other_key, other_command, other_what = KINDS[found]
            of = f" ({other_what} {_short(doc[other_key])})" if other_key in doc else ""
            bad.stop("kind", f"a record of {other_command}{of}; here --replay takes a "
                             f"record of {command}")
        bad.stop("kind", f"expected {kind!r} (a record of {command}), got {found!r}")
    missing = [k for k in (key, "digest", "ruleset", "seed", "as", "answers") if k not in doc]
    for k in missing:
        bad.add(k, f"missing: a record of {command} holds {key}, digest, ruleset, seed, as "
                   f"and answers")
    bad.raise_any()
    if doc["digest"] != digest:  # the name alone may differ: a copy, or a renamed file
        bad.stop("digest", f"the record was made from another {what} file, or from this one "
                           f"before it changed (recorded: {_short(doc[key])}, digest "
                           f"{_short(doc['digest'])}; this file: {name!r}, digest "
                           f"{digest!r}); replay it with the file it was made from")
    ruleset = doc["ruleset"]
    if ruleset not in registry.names():
        bad.add("ruleset", unknown("ruleset", ruleset, registry.names()))
    seed = doc["seed"]
    if type(seed) is not int or seed < 0:
        bad.add("seed", f"expected an integer of 0 or more, got {seed!r}")
    played = doc["as"]
    if not isinstance(played, list) or not played or not all(
            isinstance(n, str) for n in played):
        bad.add("as", f"expected a list of the names of the {member}s played, got "
                      f"{_short(played)}")
    else:
        for n in played:
            if n not in members:
                bad.add("as", unknown(member, n, members))
    answers = doc["answers"]
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        bad.add("answers", f"expected a list of answers (strings, one per answer), got "
                           f"{_short(answers)}")
    else:
        _bound_answers(answers, bad)
    menu = doc.get("menu", 1)  # made before the two-step menu: the one long list
    if type(menu) is not int or menu not in MENUS:
        bad.add("menu", f"the record's answers are to menu {_short(menu)}, which this fray "
                        f"does not know (it knows 1, the one long list, 2 and {MENU}, the "
                        "two-step menu)")
    bad.raise_any()
    if "check" in doc:  # records made before it have none
        stored = doc["check"] if isinstance(doc["check"], dict) else {}
        for k, value in check(doc).items():
            if stored.get(k) != value:
                bad.add(k, "changed since the record was written (its check differs): the "
                           "replay would be another fight than the one recorded; to replay "
                           "it as edited, remove the record's 'check'")
        bad.raise_any()
    if doc.get("code") != code_digest():  # a warning, not a refusal: the record may still do
        made = (f"by another version of fray (code {_short(doc['code'])}, this one "
                f"{code_digest()!r})" if "code" in doc else "by a version of fray that did "
                "not note its code")
        say(f"note: {path}: recorded {made}; a rule changed since can make this replay "
            "a different fight from the one recorded")
    return Record(kind, name, digest, ruleset, seed, tuple(played), tuple(answers), menu)


def _bound_answers(answers: list[str], bad: _Problems) -> None:
    """Refuse a record's answer that no menu needs, naming it and the bound.

    Past ``MAX_ANSWER_CHARS`` characters, or a ``? N`` asking more than
    ``MAX_RECORD_ROLLOUTS`` rollouts (fray records no ``?``: one there was written by hand,
    and its weighing is paid again at every replay).
    """
    for k, answer in enumerate(answers):
        where = f"answers[{k}]"
        if len(answer) > MAX_ANSWER_CHARS:
            bad.stop(where, f"an answer of {len(answer):,} characters; an answer is a menu "
                            f"number or a keyword of at most {MAX_ANSWER_CHARS}")
        words = answer.lower().split()
        if len(words) == 2 and words[0] in ("?", "odds"):
            n = menus.number(words[1])
            if n is not None and n > MAX_RECORD_ROLLOUTS:
                shown = f"{n:,}" if n < 10 ** menus.MAX_DIGITS else "a number that long"
                bad.stop(where, f"'? N' with N = {shown}; in a record, '? N' weighs again at "
                                f"every replay, so N is from 1 to {MAX_RECORD_ROLLOUTS}")


def note_unused(replay_file: Path | None, answers: Iterator[str] | None) -> None:
    """After a replay's fight: say how many of its record's answers were never asked for.

    A record with answers past the end of its fight (edited, or of another fight) would
    otherwise pass in silence. A script on standard input is not read to its end.
    """
    if replay_file is None or answers is None:
        return
    left = sum(1 for _ in answers)
    if left:
        say(f"note: {replay_file}: the fight ended with {left} of the record's answers not "
            "asked for; they were ignored")


def write(path: Path | None, record: Record, answers: Sequence[str]) -> None:
    """Write the record with ``answers`` to ``path`` (if any), and say so on stderr."""
    if path is not None:
        files.write_json(path, record.document(answers))
        click.echo(f"wrote {path}", err=True)


class _Problems:
    """The problems found in one record, raised together (the first fatal one at once)."""

    def __init__(self, source: str):
        self.source = source
        self.found: list[tuple[str, str]] = []

    def add(self, where: str, message: str) -> None:
        self.found.append((where, message))

    def stop(self, where: str, message: str) -> None:
        self.found.append((where, message))
        self.raise_any()

    def raise_any(self) -> None:
        if self.found:
            raise FrayInputError(self.source, self.found)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
