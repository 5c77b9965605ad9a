"""The types of the values ``fray``'s options take, each checked with a clear error.

A ruleset's name (``RulesetType``) and a list of them (``RulesetListType``), a whole
number and a number within bounds (``WholeNumber``, ``Number``), an interval's width
(``Width``). The options themselves: ``sim.cli.params``.
"""

from __future__ import annotations

import click

from sim import registry
from sim.scenario.errors import unknown
from sim.scenario.reading import MAX_NUMBER_CHARS

MAX_COUNT = 100_000_000  # encounters or runs in one batch: days of CPU, far beyond any table


class RulesetType(click.ParamType):
    """A registered ruleset name (``all`` too where allowed), with a suggestion on typos."""

    name = "ruleset"

    def __init__(self, allow_all: bool = False):
        self.allow_all = allow_all

    def convert(self, value, param, ctx):
        """Return ``value`` if registered (or ``all``), else fail with the nearest name."""
        allowed = registry.names() + (["all"] if self.allow_all else [])
        if value in allowed:
            return value
        self.fail(unknown("ruleset", value, allowed), param, ctx)


class RulesetListType(click.ParamType):
    """A comma-separated list of registered ruleset names (or ``all``)."""

    name = "a,b,..."

    def convert(self, value, param, ctx):
        """``"ore, bgrade"`` -> ``["ore", "bgrade"]``; an unknown name fails with a hint."""
        if isinstance(value, list):
            return value
        names = [v.strip() for v in str(value).split(",") if v.strip()]
        if not names:
            self.fail("name at least one ruleset", param, ctx)
        if names == ["all"]:
            return registry.names()
        for name in names:
            if name not in registry.names():
                self.fail(unknown("ruleset", name, registry.names()), param, ctx)
        return list(dict.fromkeys(names))  # a name given twice runs once


class WholeNumber(click.IntRange):
    """A whole number in a range, refused in plain terms (not "integer range", ``1<=x``)."""

    name = "whole number"

    def convert(self, value, param, ctx):
        """``int(value)`` checked against the range; each refusal says what is allowed."""
        if not isinstance(value, int):
            text = str(value).strip()
            digits = text.lstrip("+-")
            if digits.isdigit() and len(digits) > MAX_NUMBER_CHARS:
                # refused before int(), which stops at 4,300 digits with advice about Python
                self.fail(f"a number of {len(digits):,} digits; allowed: {self._allowed()}, "
                          f"written in at most {MAX_NUMBER_CHARS} digits", param, ctx)
            try:
                value = int(text)
            except ValueError:
                shown = repr(text if len(text) <= 40 else text[:37] + "...")
                self.fail(f"{shown} is not a whole number; allowed: {self._allowed()}",
                          param, ctx)
        if ((self.min is not None and value < self.min)
                or (self.max is not None and value > self.max)):
            self.fail(f"{value} is out of range; allowed: {self._allowed()}", param, ctx)
        return value

    def _describe_range(self) -> str:
        """The range in the help's words (click writes ``x>=0``)."""
        return self._allowed()

    def _allowed(self) -> str:
        if self.max is None:
            return f"{self.min} or more"
        if self.min is None:
            return f"{self.max} or less"
        return f"{self.min} to {self.max}"


class Number(click.FloatRange):
    """A number in a range, refused in plain terms (not "float range", ``0<=x<0.5``)."""

    name = "number"

    def convert(self, value, param, ctx):
        """``float(value)`` checked against the range; each refusal says what is allowed."""
        if not isinstance(value, int | float) or isinstance(value, bool):
            text = str(value).strip()
            try:
                value = float(text)
            except ValueError:
                shown = repr(text if len(text) <= 40 else text[:37] + "...")
                self.fail(f"{shown} is not a number; allowed: {self._allowed()}", param, ctx)
        low, high = self.min, self.max
        if (value != value  # NaN
                or (low is not None and (value < low or (self.min_open and value == low)))
                or (high is not None and (value > high or (self.max_open and value == high)))):
            self.fail(f"{value:g} is out of range; allowed: {self._allowed()}", param, ctx)
        return float(value)

    def _describe_range(self) -> str:
        """The range in the help's words (click writes ``0<=x<0.5``)."""
        return self._allowed()

    def _allowed(self) -> str:
        low, high = self.min, self.max
        if low is not None and high is not None and not (self.min_open or self.max_open):
            return f"{low:g} to {high:g}"
        parts = []
        if low is not None:
            parts.append(f"above {low:g}" if self.min_open else f"{low:g} or more")
        if high is not None:
            parts.append(f"below {high:g}" if self.max_open else f"{high:g} or less")
        return ", ".join(parts)


MIN_PRECISION = 1e-4  # +-W narrower than this takes more fights than -n allows (MAX_COUNT)


class Width(Number):
    """``--precision W``: 0 (none), or a width from ``MIN_PRECISION`` up to (not) 0.5.

    A width nearer 0 than that is refused: no batch -n allows could reach it, and the
    fights it would ask for overflow a float (the review's 1e-200).
    """

    def __init__(self, zero: bool = True) -> None:
        super().__init__(0, 0.5, min_open=not zero, max_open=True)
        self.zero = zero

    def convert(self, value, param, ctx):
        """``Number.convert``, then a width that is not 0 must be ``MIN_PRECISION`` or more."""
        value = super().convert(value, param, ctx)
        if 0 < value < MIN_PRECISION:
            self.fail(f"{value:g} is out of range; allowed: {self._allowed()}", param, ctx)
        return value

    def _allowed(self) -> str:
        return (("0 (none), or " if self.zero else "")
                + f"{MIN_PRECISION:g} or more and below 0.5 (a narrower interval needs more "
                  f"fights than -n allows, {MAX_COUNT:,})")


def expand_rulesets(value: str | None) -> list[str] | None:
    """A ``RulesetType(allow_all=True)`` value as a list: ``all`` is every ruleset."""
    if value is None:
        return None
    return registry.names() if value == "all" else [value]


