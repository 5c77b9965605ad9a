"""Input errors that name the file, the field and what is allowed.

Every problem a user can cause (a bad scenario, a bad option) becomes a ``FrayInputError``;
the CLI prints it and exits with code 2, never with a traceback.
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pydantic is imported only when there is an error to describe
    from pydantic import BaseModel, ValidationError
    from pydantic.fields import FieldInfo
    from pydantic_core import ErrorDetails


MAX_SHOWN = 50  # problems listed in one error; the rest are counted


class FrayInputError(Exception):
    """Bad input: one or more problems, each with a field path and a message."""

    def __init__(self, source: str, problems: Sequence[tuple[str, str]]):
        self.source = source
        self.problems = list(problems)
        super().__init__(self.render())

    def render(self) -> str:
        """One line per problem: ``FILE: FIELD: message``; past ``MAX_SHOWN``, a count."""
        lines = []
        for field, message in self.problems[:MAX_SHOWN + 1]:  # (+1: a count already made)
            where = f"{self.source}: {field}" if field else self.source
            lines.append(f"{where}: {message}")
        if len(self.problems) > MAX_SHOWN + 1:
            lines[MAX_SHOWN:] = [f"{self.source}: ... and {len(self.problems) - MAX_SHOWN:,} "
                                 f"more problems (the first {MAX_SHOWN} are listed)"]
        return "\n".join(lines)


class ScenarioError(FrayInputError):
    """A scenario file that cannot be read or is not valid."""


def suggest(word: str, choices: Iterable[str]) -> str:
    """A ``" (did you mean 'x'?)"`` hint for a typo, or an empty string.

    Case is ignored in the comparison (``ORE`` and ``OpenD6`` are a ruleset's name in other
    capitals, not typos far from it); the hint spells the choice as it is allowed.
    """
    spelled: dict[str, str] = {}
    for choice in choices:
        spelled.setdefault(choice.lower(), choice)
    close = difflib.get_close_matches(str(word).lower(), list(spelled), n=1, cutoff=0.6)
    return f" (did you mean '{spelled[close[0]]}'?)" if close else ""


def unknown(kind: str, word: object, choices: Iterable[str]) -> str:
    """Message for an unknown name: the hint and the allowed names."""
    choices = list(choices)
    return f"unknown {kind} '{word}'{suggest(str(word), choices)}; allowed: {', '.join(choices)}"


def not_a_name(kind: str, value: object, choices: Iterable[str]) -> str:
    """Message for a value that is no name at all (``armor: 5``): what is wanted, and the names."""
    return f"expected the name of {kind}, got {_show(value)}; allowed: {', '.join(choices)}"


def field_path(loc: Iterable[object]) -> str:
    """``('sides', 'heroes', 0, 'weapon')`` -> ``sides.heroes[0].weapon``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


# ---------------------------------------------------------------------------- pydantic errors
# pydantic's own messages ("Input should be ...") name neither the allowed values nor the
# fix; these helpers rewrite them as ``(field path, message)`` pairs in fray's words.
_TYPE_WORDS = {
    "int_type": "an integer", "float_type": "a number", "string_type": "a string",
    "bool_type": "true or false", "dict_type": "a mapping", "list_type": "a list",
    "tuple_type": "a list", "model_type": "a mapping", "model_attributes_type": "a mapping",
}
_BOUNDS = ("greater_than_equal", "less_than_equal", "greater_than", "less_than")


@dataclass
class _Walk:
    """Where a pydantic ``loc`` leads through the models."""

    loc: list[Any] = dc_field(default_factory=list)  # loc without pydantic's union tags
    union_at: int | None = None  # len(loc) where the first union was entered
    owner: Any = None  # the model whose field the last part names, if any
    field: FieldInfo | None = None  # that field
    reached: Any = None  # the type the whole loc leads to
    key: bool = False  # the error is about a mapping key, not its value


def pydantic_problems(
    exc: ValidationError, root: type[BaseModel], prefix: str = ""
) -> list[tuple[str, str]]:
    """Rewrite a ``ValidationError`` raised by ``root`` as ``(field path, message)`` pairs.

    Args:
        exc: the error pydantic raised.
        root: the model that was validated.
        prefix: the path of ``root`` in the file (``sides.heroes[0].ore``), or "".
    """
    groups: dict[Any, list[tuple[_Walk, ErrorDetails]]] = {}
    errors, left = exc.errors(), 0
    for i, err in enumerate(errors):
        walk = _walk(err["loc"], root)
        key = (None, *walk.loc[: walk.union_at]) if walk.union_at is not None else i
        if key not in groups and len(groups) == MAX_SHOWN:  # the rest counted, not described
            left = len(errors) - i
            break
        groups.setdefault(key, []).append((walk, err))
    out: dict[tuple[str, str], None] = {}  # in order, each once (a list was quadratic)
    for group in groups.values():
        for path, message in _describe_group(group):
            if prefix:
                path = f"{prefix}{path}" if path.startswith("[") else (
                    f"{prefix}.{path}" if path else prefix)
            out[(path, message)] = None
    if left:
        out[("", f"... and {left:,} more problem{'s' if left > 1 else ''} (the first "
                 f"{len(out)} are listed)")] = None
    return list(out)


def _describe_group(group: list[tuple[_Walk, ErrorDetails]]) -> list[tuple[str, str]]:
    """One message per error, except that failed union members merge into one."""
    if len(group) == 1 or group[0][0].union_at is None:
        return [_describe(w, e) for w, e in group]
    # A member that got past the type check (a list whose item is wrong) says more than
    # the members that rejected the value outright.
    deeper = [(w, e) for w, e in group if w.union_at is not None and len(w.loc) > w.union_at]
    if deeper:
        return [_describe(w, e) for w, e in deeper]
    if all(e["type"] in _TYPE_WORDS for _, e in group):
        words = list(dict.fromkeys(_TYPE_WORDS[e["type"]] for _, e in group))
        walk, err = group[0]
        return [(field_path(walk.loc), f"expected {' or '.join(words)}, got "
                 f"{_show(err.get('input'))}")]
    return [_describe(w, e) for w, e in group]


def _describe(walk: _Walk, err: ErrorDetails) -> tuple[str, str]:
    loc, kind, given = walk.loc, err["type"], err.get("input")
    if walk.key:
        return field_path(loc[:-1]), (f"names here must be strings; got {_show(given)}; "
                                       f"put it in quotes: '{given}'")
    if kind == "extra_forbidden":
        key = loc[-1]
        if walk.owner is None:
            return field_path(loc), f"unknown key '{key}'"
        allowed = list(walk.owner.model_fields)
        if not allowed:
            return field_path(loc), f"unknown key '{key}'; this block takes no keys"
        return field_path(loc), unknown("key", key, allowed)
    if kind == "missing":
        return field_path(loc), "required key is missing"
    if kind == "value_error":
        message = str(err["ctx"]["error"])
        # A model-level check may start its message with the field it is about: move it
        # into the path (``ore: expert: unknown skill`` -> ``ore.expert: unknown skill``).
        head, sep, rest = message.partition(": ")
        if sep and _is_model(walk.reached) and head in walk.reached.model_fields:
            return field_path([*loc, head]), rest
        return field_path(loc), message
    if kind == "literal_error":
        choices = _literal_choices(walk, err)
        return field_path(loc), unknown(str(loc[-1]) if loc else "value", given, choices)
    if kind in _TYPE_WORDS:
        return field_path(loc), f"expected {_TYPE_WORDS[kind]}, got {_show(given)}"
    if kind in _BOUNDS:
        return field_path(loc), f"{_range_text(walk, err)}; got {_show(given)}"
    if kind in ("too_short", "string_too_short"):
        return field_path(loc), "must not be empty"
    if kind in ("too_long", "string_too_long"):
        most = err["ctx"]["max_length"]
        unit = "characters" if kind == "string_too_long" else "items"
        length = len(given) if isinstance(given, str | list | tuple | dict) else "more"
        return field_path(loc), f"too long: at most {most} {unit}, got {length}"
    return field_path(loc), f"{err['msg']}; got {_show(given)}"


def _range_text(walk: _Walk, err: ErrorDetails) -> str:
    """``must be from 1 to 5`` when the field has both bounds, else pydantic's one bound."""
    low = high = None
    for meta in walk.field.metadata if walk.field else ():
        low = getattr(meta, "ge", low)
        high = getattr(meta, "le", high)
    if low is not None and high is not None:
        return f"must be from {low} to {high}"
    return err["msg"].replace("Input should be", "must be")


def _literal_choices(walk: _Walk, err: ErrorDetails) -> list[str]:
    args = typing.get_args(_unwrap(walk.field.annotation)) if walk.field else ()
    if args:
        return [str(a) for a in args]
    expected = err["ctx"]["expected"].replace("'", "")
    return expected.replace(" or ", ", ").split(", ")


def _show(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, dict | list):
        return f"a {type(value).__name__}"
    if isinstance(value, str | int | float | bool):
        return f"{value!r} ({type(value).__name__})"
    return f"{value} ({type(value).__name__})"  # e.g. YAML reads 2024-01-01 as a date


def _walk(loc: Iterable[Any], root: type[BaseModel]) -> _Walk:
    """Follow ``loc`` through ``root``'s fields, dropping the tags pydantic adds for unions."""
    walk = _Walk()
    current: Any = root
    after_key = False
    for part in loc:
        if after_key and part == "[key]":  # the mapping key itself is wrong
            walk.key = True
            continue
        after_key = False
        current = _unwrap(current)
        origin = typing.get_origin(current)
        walk.owner = walk.field = None
        if _is_union(current):
            # The part is a tag naming the union member ('str', 'list[str]', 'NodeModel').
            if walk.union_at is None:
                walk.union_at = len(walk.loc)
            current = next((a for a in typing.get_args(current) if _type_name(a) == part), None)
            continue
        walk.loc.append(part)
        if _is_model(current):
            walk.owner = current
            walk.field = current.model_fields.get(str(part))
            current = walk.field.annotation if walk.field else None
        elif origin is dict:
            current = typing.get_args(current)[1]
            after_key = True
        elif origin in (list, tuple):
            args = typing.get_args(current)
            current = args[0] if args else None
        else:
            current = None
    walk.reached = _unwrap(current)
    return walk


def _is_model(tp: Any) -> bool:
    from pydantic import BaseModel

    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _type_name(tp: Any) -> str:
    return tp.__name__ if isinstance(tp, type) else str(tp)


def _is_union(tp: Any) -> bool:
    return isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union


def _unwrap(tp: Any) -> Any:
    """Strip ``Annotated[X, ...]`` and ``X | None`` to ``X``."""
    if typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    if _is_union(tp):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return args[0] if len(args) == 1 else tp
    return tp
