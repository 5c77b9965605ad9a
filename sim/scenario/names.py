"""What a name in a scenario may hold: characters a reader sees, and no two names alike.

A name is printed to terminals, tables, CSV headers and pages. A control character (ESC,
BEL, the C1 range) printed to a terminal clears the screen or sets the window's title; a
bidi override turns the rest of a line around; a zero-width character makes two different
names look the same. Such names are refused at load, the character shown escaped; so are
two names that differ only by what cannot be seen (spacing, compatibility forms).
"""

from __future__ import annotations

import unicodedata

# Unicode categories a name may not hold: controls (C0, DEL, C1), format characters (bidi
# overrides and marks, zero-width spaces and joiners, the BOM), surrogates, private use,
# unassigned code points, and the line and paragraph separators
HIDDEN = {"Cc": "a control character", "Cf": "an invisible formatting character",
          "Cs": "a surrogate", "Co": "a private-use character", "Cn": "an unassigned character",
          "Zl": "a line separator", "Zp": "a paragraph separator"}


def escaped(char: str) -> str:
    r"""``char`` as a reader can see it: ``\x1b``, ``\u202e``."""
    return repr(char)[1:-1] if char.isascii() else f"\\u{ord(char):04x}"


def visible(name: str) -> str:
    r"""``name`` with what a reader cannot tell apart escaped.

    Hidden characters, and any space but the plain one (a no-break space: ``\u00a0``).
    """
    return "".join(escaped(c) if unicodedata.category(c) in HIDDEN
                   or (c.isspace() and c != " ") else c for c in name)


def unseen(name: str) -> str | None:
    """Why ``name`` cannot be shown as it is, naming its first hidden character; or None."""
    for position, char in enumerate(name, start=1):
        kind = HIDDEN.get(unicodedata.category(char))
        if kind is not None:
            return (f"'{visible(name[:40])}' holds {kind} ({escaped(char)}, character "
                    f"{position}); a name holds only characters a reader sees: a "
                    "terminal would act on it, or two names would look the same")
    return None


def shape(name: str) -> str:
    """What a reader sees of ``name``: its compatibility form, runs of spaces as one.

    Two names of one shape look the same (``Bob`` and ``Bob`` with a no-break space).
    """
    return " ".join(unicodedata.normalize("NFKC", name).split())
