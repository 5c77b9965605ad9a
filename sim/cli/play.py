"""``fray play``: fight as your own characters while the AI runs everyone else.

The player's fighters are asked at each declaration (``Encounter(minds=...)``): a situation
panel and a numbered menu of the legal declarations (``sim.ai.menu``), each attack with its
exact odds, and 0 for what the fighter's own AI profile would do: a short first menu whose
grouped lines open a second menu of their details (``menus.top``). ``?`` (or ``odds``) at a
menu weighs every line by playing the fight on from there (``sim.ai.whatif``); it is not an
answer and is not recorded. Answers come from the terminal, or one
a line from a script when stdin is not a terminal; at the end of a script the fighters'
own AI profiles take over. Every answer is recorded, so ``--replay`` fights the same fight.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import click

from sim.ai import menu as menus
from sim.ai import profiles as ai
from sim.ai import rollout
from sim.ai import whatif as engine
from sim.batch import files
from sim.batch.chunks import scenario_digest
from sim.batch.stops import STOPS_ASKED
from sim.cli import answers, params, records, whatif
from sim.core.actions import Yield
from sim.core.doctrine import Policy
from sim.core.engine import Encounter
from sim.report import replay
from sim.report.log import render
from sim.report.panel import group_text, menu_text, situation, top_text
from sim.scenario.errors import FrayInputError

PLAYER = Policy(spends=True, reacts=True)
EPILOG_PLAY = ("Example: fray play duel --as 'Ser Aldric' --seed 3 --log journal.md "
               f"(then: fray play --replay journal.md{records.SUFFIX})")


# what a player types to stop a fight at the prompt: refused (it is no answer) with the way
QUIT_WORDS = ("q", "quit", "exit", "stop", "end")
STOP_HINT = "to stop the fight, press Ctrl-C (what --log and --record wrote so far is kept)"
WEIGHING_STOPPED = ("What if? stopped: back to the same menu (Ctrl-C again ends the fight; "
                    "what --log and --record wrote so far is kept).")
# said under the first menu of a play: how to weigh the lines, which no menu line offers
ODDS_HINT = ("(At any menu, '?' weighs each line by playing the rest of the fight out, "
             "'? 50' with 50 rollouts a line.)")


class Player:
    """The mind of the player's fighters: shows the panel and the menu, reads an answer.

    Args:
        lines: the answers, one per line (a script or a record); None reads the terminal.
        say: where the fight and the prompts are written.
        grouped: the two-step menu (the default); False: the one long list of a record
            made before it, whose numbers count in that list.
        source: where the answers come from, named in a refused answer's error (a
            replay's record; None: a script or the terminal).
        rollouts: how many times ``?`` plays the fight on for each line of the menu.
        race: a line that could not be the best stops sooner (``sim.ai.whatif.weigh``).
        asks_single: a question after a roll with one choice is asked too (a record made
            when it was, ``records.Start.asks_single``); else it is taken unasked.
    """

    def __init__(self, lines: Iterator[str] | None, say: Callable[[str], None],
                 fmt: str = "text", grouped: bool = True, source: Path | None = None,
                 rollouts: int = 200, race: bool = True, asks_single: bool = False):
        self.lines = lines
        self.asks_single = asks_single
        self.rollouts, self.race = rollouts, race
        self.source = source
        self.say = say
        self.fmt = fmt
        self.grouped = grouped
        self.answers: list[str] = []  # every answer read, in order: the record
        self.shown = 0  # log events already written
        self.done = False  # the script ran out: the AI profiles decide from here on
        self.policies: dict = {}  # the played fighters' own spending policies, for then
        self.enc: Encounter | None = None  # the fight being told (a campaign has several)
        self.hinted = False  # ODDS_HINT said

    def __call__(self, enc: Encounter, c) -> list:
        """Declare for ``c``: the player's choice (or, after the script, its AI's)."""
        self.show_log(enc)
        if self.done:
            return ai.decide(enc, c)
        if c.policy is not PLAYER:  # the player decides what to spend, whatever the profile
            # (set at its first declaration: nothing asks a fighter's policy before it
            # declares: most rulesets declare before anything is rolled in a round, and
            # OpenD6, declaring at each turn, reads a policy only at its owner's own rolls)
            self.policies[c.name], c.policy = c.policy, PLAYER
        # its own profile's choice: what it does unplayed, on the fight's dice as they stand
        # (asked first: the menu's own ties would draw from the copy before it), then the
        # menu; neither changes the fight (``rollout.aside``)
        with rollout.aside(enc, c):
            suggested = ai.decide(enc, c)
            why = c.why
        with rollout.aside(enc, c):
            menu = menus.options(enc, c)
        same = next((o for o in menu if list(o.intents) == suggested), None)
        suggestion = f"{same.label if same else answers.intents_text(suggested) or 'hold'} ({why})"
        whose = f"{c.name}'s profile ({c.ai})"
        # the menu first, the situation last: what the player weighs stays beside the prompt
        entries: list[menus.Option | menus.Group]
        if self.grouped:
            entries = menus.top(menu)
            first = top_text(entries, suggestion, same, whose)
        else:
            entries, first = list(menu), menu_text(menu, suggestion, whose)
        self.say(first + "\n" + situation(enc, c))
        if not self.hinted:
            self.say(ODDS_HINT)  # (the words it uses: the log's legend, at the start)
            self.hinted = True
        return self._choose(enc, c, menu, suggested, entries, first)

    def _choose(self, enc: Encounter, c, menu: list, suggested: list, entries: list,
                first: str) -> list:
        """The first menu's answer; a group's line opens its second menu (0 comes back).

        ``entries``: the first menu's lines (``menus.top``, or ``menu`` itself for a record
        of the one long list); ``first``: its text, shown again when a second menu goes back.
        """
        while True:
            answer = self._read(c)
            if answer is None:
                self._end(enc, c)
                return ai.decide(enc, c)
            asked = answers.odds_asked(answer, self.rollouts)
            if asked is not None:
                self.what_if(enc, c, rollouts=asked)
                self.say(first)
                continue
            self.answers.append(answer)
            option: menus.Option | menus.Group | Literal[answers.Pick.AI] | None
            if answer.strip().lower() in ("", "0", "ai"):
                option = answers.AI
            else:
                option = (answers.dotted(entries, answer) or menus.find_top(entries, menu, answer)
                          if self.grouped else menus.find(menu, answer))
            if option is None:
                hint = answers.hint(entries + menu, answer)  # the groups' keywords too
                self._refuse(f"{answers.shown(answer)} is not on the menu{hint}: answer "
                             f"0-{len(entries)} or a keyword in brackets")
                continue
            if isinstance(option, menus.Group):
                picked = self._detail(enc, c, menu, option, suggested, entries)
                if picked is None:  # back: the first menu again
                    self.say(first)
                    continue
                if picked is answers.ENDED:
                    return ai.decide(enc, c)
                option = picked
            if option is answers.AI:
                # decided again, for real: the same intents, drawn from the fight's own
                # generator as an unplayed fighter's are, so that taking the profile's choice
                # at every menu plays the fight its AI would
                intents = ai.decide(enc, c)
                c.why = f"the player takes its profile's choice ({c.ai})"
                return intents
            yields = option.intents and type(option.intents[0]) is Yield
            c.why = "the player yields" if yields else f"the player's choice: {option.label}"
            return list(option.intents)

    def _detail(self, enc: Encounter, c, menu: list, group: menus.Group, suggested: list,
                entries: list) -> menus.Option | answers.Pick | None:
        """The second menu of ``group``: an option, None to go back, ``AI`` or ``ENDED``.

        Enter takes the AI's choice when it is in the group (it is marked), else goes back;
        0 goes back; a keyword is taken as on the first menu (another group's opens that).
        """
        while True:
            mine = next((o for o in group.options if list(o.intents) == suggested), None)
            self.say(group_text(group, mine))
            found = self._detail_answer(enc, c, menu, group, mine, entries)
            if not isinstance(found, menus.Group):
                return found
            group = found

    def _detail_answer(self, enc: Encounter, c, menu: list, group: menus.Group, mine,
                       entries: list) -> menus.Option | menus.Group | answers.Pick | None:
        while True:
            answer = self._read(c)
            if answer is None:
                self._end(enc, c)
                return answers.ENDED
            asked = answers.odds_asked(answer, self.rollouts)
            if asked is not None:
                self.what_if(enc, c, group, asked)
                self.say(group_text(group, mine))
                continue
            self.answers.append(answer)
            text = answer.strip()
            if not text:
                return answers.AI if mine is not None else None
            if text.lower() in ("0", "back"):
                return None
            if text.lower() == "ai":  # its profile's choice, wherever it is listed
                return answers.AI
            found = (menus.find(list(group.options), text) if menus.number(text) is not None
                     else menus.find_top(entries, menu, text))  # a keyword, as at the first
            if found is not None:
                return found
            self._refuse(f"{answers.shown(answer)} is not one of these"
                         f"{answers.hint(list(group.options), answer)}: answer 1-"
                         f"{len(group.options)}, 0 to go back, or a keyword")

    def choose(self, enc: Encounter, c, question: str, labels: list[str], default: int) -> int:
        """A choice a ruleset asks after a roll: a number, or Enter for the AI's (default)."""
        if self.done:  # the answers ran out: the AI's choice, without asking
            return default
        if len(labels) == 1 and not self.asks_single:  # nothing to choose: not asked
            return 0
        self.show_log(enc)
        self.say("\n".join([question] + [
            f"  {k}. {label}{'   <- the AI would (Enter)' if k - 1 == default else ''}"
            for k, label in enumerate(labels, start=1)]))
        while not self.done:
            answer = self._read(c)
            if answer is None:
                self._end(enc, c)
                break
            self.answers.append(answer)
            text = answer.strip().lower()
            if not text:
                return default
            k = menus.number(text)
            if k is not None and 1 <= k <= len(labels):
                return k - 1
            if text in (label.lower() for label in labels):
                return [label.lower() for label in labels].index(text)
            self._refuse(f"{answers.shown(answer)} is not one of the choices: answer "
                         f"1-{len(labels)}, or an empty line for the AI's choice")
        return default

    def what_if(self, enc: Encounter, c, group: menus.Group | None = None,
                rollouts: int | None = None) -> None:
        """Weigh the lines of ``c``'s menu by rollouts and show them, best first.

        ``rollouts``: of each line (``? 50``; default ``--rollouts``); 0: a number out of
        range, said and nothing weighed.
        ``group``: asked in that group's second menu: its lines only, and the profile's
        choice beside them (a few seconds, where a long melee menu takes several times as
        long: a long first menu says so first). The fight itself is untouched
        (``sim.ai.whatif.question``): nothing is drawn from its generator and nothing is
        recorded.
        """
        n = self.rollouts if rollouts is None else rollouts
        if n == 0:
            self.say(f"'? N' weighs each line by N rollouts: N from 1 to "
                     f"{params.MAX_ROLLOUTS}; '?' alone by {self.rollouts} (--rollouts)")
            return
        asked = engine.question(enc, c, group.key if group is not None else None,
                                self.grouped)
        if group is None and self.grouped and asked.lines > answers.LONG_MENU and asked.groups:
            self.say(f"Weighing all {asked.lines} lines (those in the groups too). In a "
                     f"group's menu (such as '{asked.groups[0].key}'), `?` weighs only that "
                     f"group's lines and the profile's choice, sooner; `? 50` weighs "
                     f"each line by 50 rollouts.")
        stops_before = len(STOPS_ASKED)
        try:
            weighed = whatif.weigh(asked.moment, asked.choices, n, shown=self.lines is None,
                                   race=self.race)
        except KeyboardInterrupt:  # the weighing stops, the play goes on at the same menu
            if len(STOPS_ASKED) > stops_before + 1:  # a second Ctrl-C while it stopped: the end
                raise
            self.say(WEIGHING_STOPPED)
            return
        self.say(whatif.table(weighed, c.side, c.name, n,
                              "each line on this menu, and of the profile's choice," if group
                              else None, asked.numbers, not_now=asked.not_now))

    def _refuse(self, reason: str) -> None:
        """A bad answer: in a script it is an error naming the answer; at a prompt, ask again."""
        number = len(self.answers)
        answer = self.answers.pop()  # a refused answer is never recorded
        if self.lines is not None:
            where = f"answer {number}"
            raise FrayInputError(where if self.source is None else f"{self.source}: answers: "
                                 f"{where}", [("", reason)])
        if answer.strip().lower() in QUIT_WORDS:  # no menu has a line to stop the fight
            reason += f"; {STOP_HINT}"
        self.say(reason)

    def _end(self, enc: Encounter, c) -> None:
        self.done = True
        for f in enc.combatants:  # the profiles decide again, spending points included
            f.policy = self.policies.get(f.name, f.policy)
        enc.emit("note", text=f"End of the player's answers: the AI profiles of the "
                              f"player's fighters decide from here on ({c.name}: {c.ai}).")
        self.show_log(enc)

    def _read(self, c) -> str | None:
        """The next answer; an empty one (Enter) takes the AI's choice."""
        if self.lines is None:
            try:
                return click.prompt(f"{c.name}", prompt_suffix="> ", default="",
                                    show_default=False)
            except click.exceptions.Abort:
                raise KeyboardInterrupt from None
        answer = next(self.lines, None)
        if answer is not None:
            self.say(f"{c.name}> {answer}")  # a script's answers show in the story
        return answer

    def show_log(self, enc: Encounter) -> None:
        """Write the log events not written yet."""
        if enc is not self.enc:  # a new fight (the next stage of a campaign)
            self.enc, self.shown = enc, 0
        log = enc.log or []  # (a played fight keeps its log)
        new = log[self.shown:]
        self.shown = len(log)
        if new:
            self.say(render(new, self.fmt).rstrip("\n"))


@click.command(epilog=EPILOG_PLAY)
@params.scenario_argument(required=False)
@click.option("--as", "names",
              help="The combatants you play, comma-separated (any side); a --replay knows.")
@params.ruleset_option(allow_all=False, help="Ruleset to use (default: the scenario's).")
@params.seed_option("Encounter seed.")
@click.option("--log", "log_file", type=params.FilePath(),
              help="Also write the whole fight as markdown to FILE (a solo journal).")
@records.options("--log")
@click.option("--format", "fmt", type=click.Choice(("text", "markdown")), default="text",
              show_default=True, help="How the fight is told on the terminal.")
@click.option("--html", "html_file", metavar="FILE",
              type=params.FilePath(),
              help="Also write the fight as one HTML page to watch it again on its map "
                   "(docs/replay.md).")
@params.force_option("Overwrite --log, --record and --html if they exist.")
@params.rollouts_option("How many times '?' at a menu plays the fight on for each line "
                        "('? N' at the menu: N).")
@params.all_rollouts_option()
def play(scenario_file, names, ruleset, seed, log_file, record_file, replay_file, fmt, force,
         html_file, rollouts, all_rollouts):
    """Play your own combatants; the AI runs everyone else.

    At a menu, Enter takes the AI's choice and `?` weighs its lines by playing the fight on
    (in a group's menu, that group's lines only); Ctrl-C stops the fight (what --log and
    --record wrote so far is kept). When stdin is not a terminal, each line is one answer (a
    menu number or a keyword such as `attack Bandit 1`); at the end of the input the
    fighters' own AI profiles decide.
    """
    if scenario_file is None:  # a record names its scenario
        if replay_file is None:
            raise FrayInputError("SCENARIO", [("", "give the scenario to play (a file, or a "
                                                   "bundled one's name such as duel), or "
                                                   "--replay a record")])
        scenario_file = records.file_of(replay_file)
    scenario = params.load_scenario(scenario_file)
    everyone = [m.name for side in scenario.sides for m in side.members]
    begun = records.start(replay_file, names, ruleset, seed, kind="play", name=scenario.slug,
                          digest=scenario_digest(scenario), members=everyone,
                          member="combatant", fixed="the fighters, the ruleset and the seed")
    if begun.names is None:
        raise FrayInputError("--as", [("", "name the combatants you play, e.g. --as 'Ser "
                                       "Aldric' (or --replay a record)")])
    played = records.played(begun.names, everyone, "--as", "combatant")
    record_file = records.claim(record_file, log_file, "--log", force)
    if html_file is not None:
        files.claim_out_file(html_file, force)
    player = Player(begun.answers, click.echo, fmt, begun.grouped, replay_file, rollouts,
                    not all_rollouts, begun.asks_single)
    enc = Encounter(scenario, begun.ruleset, begun.seed, log=True,
                    minds=dict.fromkeys(played, player))
    record = records.Record("play", scenario.slug, scenario_digest(scenario), enc.ruleset.name,
                            begun.seed, tuple(played), menu=begun.menu,
                            file=str(Path(scenario_file).resolve()))
    player.answers = records.Recorder(record_file, record)  # each answer kept as given
    try:
        enc.run()
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        _keep(record_file, record, player.answers, log_file, enc)
        sys.exit(130)
    except FrayInputError:  # a bad answer in a script: keep the answers that were good
        _keep(record_file, record, player.answers, log_file, enc)
        raise
    player.show_log(enc)
    records.note_unused(replay_file, begun.answers)
    _keep(record_file, record, player.answers, log_file, enc)
    if html_file is not None:
        files.write_out_file(html_file, replay.fight_page(scenario, enc.log or []))
        click.echo(f"wrote {html_file}", err=True)


def _keep(record_file, record: records.Record, answers: list[str], log_file,
          enc: Encounter) -> None:
    """Write the record and the journal as far as the play went (whatever ended it)."""
    records.write(record_file, record, answers)
    if log_file is not None:
        files.write_out_file(log_file, render(enc.log or [], "markdown"))
        click.echo(f"wrote {log_file}", err=True)
