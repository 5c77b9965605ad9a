"""Input errors that name the file, the field and what is allowed.

Every problem a user can cause (a bad scenario, a bad option) becomes a ``FrayInputError``;
the CLI prints it and exits with code 2, never with a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence


class FrayInputError(Exception):
    """Bad input: one or more problems, each with a field path and a message."""

    def __init__(self, source: str, problems: Sequence[tuple[str, str]]):
        self.source = source
        self.problems = list(problems)
        super().__init__(self.render())

    def render(self) -> str:
        """One line per problem: ``FILE: FIELD: message``."""
        lines = []
        for field, message in self.problems:
            where = f"{self.source}: {field}" if field else self.source
            lines.append(f"{where}: {message}")
        return "\n".join(lines)


class ScenarioError(FrayInputError):
    """A scenario file that cannot be read or is not valid."""


def suggest(word: str, choices: Iterable[str]) -> str:
    """A ``" (did you mean 'x'?)"`` hint for a typo, or an empty string."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def unknown(kind: str, word: object, choices: Iterable[str]) -> str:
    """Message for an unknown name: the hint and the allowed names."""
    choices = list(choices)
    return f"unknown {kind} '{word}'{suggest(str(word), choices)}; allowed: {', '.join(choices)}"


def field_path(loc: Iterable[object]) -> str:
    """``('sides', 'heroes', 0, 'weapon')`` -> ``sides.heroes[0].weapon``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
