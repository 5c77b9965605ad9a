"""A commented scenario to start from (``fray new``): two sides, a small map with cover.

Every key is explained beside it; the native block and the options of the chosen ruleset
are listed from the registry's models, so they stay true as the rulesets change.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from string import Template

from pydantic import BaseModel

from sim import registry
from sim.scenario import vocabulary as catalog

_TEXT = Template("""\
# $title: a fray scenario. Only `name` and `sides` are required; every other key may go.
#   check it:  fray validate $file
#   run it:    fray run $file --seed 1
#   see it:    fray map $file --output $stem.png
# Completion and inline errors in an editor (the YAML extension): save the schema with
# `fray schema --output fray-scenario.schema.json` and add, as this file's first line:
#   # yaml-language-server: $$schema=fray-scenario.schema.json
name: $name
ruleset: $ruleset$pad# the default ruleset; `fray rulesets` lists them
max_rounds: 20                   # a fight still undecided after this many rounds is a draw
map:                             # optional; without it everyone stands at one node, "field"
  nodes:                         # the places, by name
    camp: {}                     # open ground: no cover, clear visibility
    hedge: {cover: light}        # cover: none | light | medium | heavy
    barn: {cover: heavy, visibility: poor}   # visibility: clear | poor | very_poor
    gate: {width: 1}             # width: at most that many of a side fight here at once
    lane: {exit: true}           # exit: a fleeing fighter that gets here leaves the field
  edges:                         # paths as [node, node, metres]; every node must be reachable
    - [camp, hedge, 10]
    - [camp, barn, 15]
    - [hedge, barn, 8]
    - [camp, gate, 6]
    - [gate, lane, 20]
sides:                           # two or more sides, each a list of members
  heroes:
    - name: Ada                  # unique in the scenario
      at: camp                   # the node it starts at (default: the first node)
$ai      traits: {strength: 3, endurance: 3, agility: 3, dexterity: 2, perception: 3}
                                 # strength endurance agility dexterity perception: 1-5,
                                 # 2 is an average person, 5 peak human; left out: 2
      skills: {melee: 3, dodge: 2, parry: 2}
                                 # melee brawl ranged dodge parry: 0-5, 0 untrained,
                                 # 3 professional; left out: 0
$weapon$armor      shield: true               # carries a shield (default false)
$native    - name: Bram
      at: camp
      ai: tactical
      traits: {dexterity: 4, perception: 3}
      skills: {ranged: 3, dodge: 1}
      weapon: crossbow
      sidearm: knife             # a hand weapon beside the crossbow, drawn when a foe
                                 # closes in (part of a move, not an action)
      armor: leather
  raiders:
    - name: Raider
      count: 3                   # three copies, named "Raider 1" to "Raider 3"
      at: barn
      ai: {profile: aggressive, focus: weakest, morale: 0.6}
                                 # a doctrine: focus nearest | weakest | most_dangerous;
                                 # morale 0-1: it flees or yields once that share of its
                                 # side is out; retreat_at 0-1: falls back when that hurt;
                                 # hold: a node it fights from and does not chase off
      traits: {strength: 3, endurance: 3}
      skills: {melee: 2, dodge: 1}
      weapon: club
      armor: leather
options:                         # optional: each ruleset's options, by ruleset name
  $ruleset: {}$opad# its keys, and their defaults:
$options
aftermath: {tend: own}           # who tends the fallen once the fight is over: own (the side
                                 # holding the field tends its own), all, none
escape: 30                       # metres beyond every foe at which a flight has got away
""")

COMMENT_AT = 33  # the column the comments line up at
WIDTH = 92


def template_path(name: str) -> Path:
    """Where ``fray new NAME`` writes: ``NAME.yaml``, or ``NAME`` itself if it ends so."""
    return Path(name if re.search(r"\.ya?ml$", name, re.IGNORECASE) else f"{name}.yaml")


def scenario_template(file: str | Path, ruleset: str) -> str:
    """The commented template written to ``file``, for ``ruleset``.

    The scenario's name comes from the file's: ``night_raid.yaml`` is "Night raid".
    """
    cls = registry.get(ruleset)
    file = Path(file).as_posix()
    stem = re.sub(r"\.ya?ml$", "", Path(file).name, flags=re.IGNORECASE)
    words = re.sub(r"[_\-\s]+", " ", stem).strip() or "New scenario"
    name = words[0].upper() + words[1:]
    return _TEXT.substitute(
        title=name, name=json.dumps(name, ensure_ascii=False), ruleset=ruleset, file=file,
        stem=stem, pad=_pad(f"ruleset: {ruleset}"), opad=_pad(f"  {ruleset}: {{}}"),
        native=_native(cls.native_key, cls.NativeBlock, ruleset),
        ai=_beside("      ai: cautious", f"{' | '.join(catalog.AI_PROFILES)} (default basic), "
                   f"or a doctrine, as the raiders below have"),
        weapon=_beside("      weapon: sword", " ".join(
            json.dumps(w) if " " in w else w for w in catalog.WEAPONS)
            + " (default unarmed); a thrown weapon takes carry: N, how many "
            f"({', '.join(f'{w} {n}' for w, n in catalog.THROWN_WEAPONS.items())} unless set)"),
        armor=_beside("      armor: chain", f"{' '.join(catalog.ARMORS)} (default none)"),
        options=_keys(cls.Options, "  #   "))


def _beside(code: str, comment: str) -> str:
    """``code`` with ``comment`` beside it, wrapped onto comment lines lined up under it."""
    lines = textwrap.wrap(comment, width=WIDTH - COMMENT_AT - 2)
    first = f"{code}{_pad(code)}# {lines[0]}"
    return "\n".join([first, *(f"{' ' * COMMENT_AT}# {line}" for line in lines[1:])]) + "\n"


def _pad(text: str) -> str:
    return " " * max(1, COMMENT_AT - len(text))


def _native(key: str | None, block: type[BaseModel] | None, ruleset: str) -> str:
    """The commented native block of the ruleset, inside the first member."""
    if not key or block is None:
        return ""
    readers = [name for name in registry.names() if registry.get(name).native_key == key]
    return "\n".join([
        f"      # {key}:{_pad(f'      # {key}:')}# optional, read only by {', '.join(readers)}:",
        f"      #{' ' * (COMMENT_AT - 7)}# overrides the neutral conversion key by key; "
        f"its keys:",
        _keys(block, "      #   "), ""])


def _keys(model: type[BaseModel], indent: str) -> str:
    """Comment lines naming each key of ``model``: a nested block's keys, or the default."""
    lines = []
    for field, info in model.model_fields.items():
        nested = info.annotation if isinstance(info.annotation, type) else None
        if nested is not None and issubclass(nested, BaseModel):
            lines += textwrap.wrap(" ".join(nested.model_fields), width=WIDTH,
                                   initial_indent=f"{indent}{field}: ",
                                   subsequent_indent=f"{indent}{' ' * (len(field) + 2)}")
        else:
            default = ("(required)" if info.is_required()  # a block that must set it
                       else json.dumps(info.default) if info.default is not None else "(unset)")
            lines.append(f"{indent}{info.alias or field}: {default}")
    return "\n".join(lines)
