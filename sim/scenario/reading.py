"""Reading a YAML file safely: the checks made before a scenario's model sees it.

A key given twice is an error at its line; a document nested too deep for LibYAML's
composer is parsed by PyYAML's own; an alias bomb, a number too long to convert, a binary
or non-UTF-8 file, a FIFO or a file too large are refused, each as a ``ScenarioError``
naming the file (``sim.scenario.loader`` validates what this returns).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from sim.scenario import safefile
from sim.scenario.errors import FrayInputError, ScenarioError


class _UniqueKeys:
    """Safe YAML that rejects a key given twice in one mapping (a loader's mixin).

    Plain YAML keeps the last value, so a second ``heroes:`` side would silently replace
    the first; here it is an error at the line of the repeat.
    """

    def construct_mapping(self, node, deep=False):  # PyYAML hook
        seen: dict[tuple[str, str], int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            ident = (key_node.tag, key_node.value)
            if ident in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{key_node.value}' (first given on line "
                    f"{seen[ident] + 1}); each key may appear once", key_node.start_mark)
            seen[ident] = key_node.start_mark.line
        return super().construct_mapping(node, deep)  # type: ignore[misc]  # a mixin's super


class _PyUniqueKeyLoader(_UniqueKeys, yaml.SafeLoader):
    """PyYAML's own parser: a deep document is a ``RecursionError``, said as such."""


_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_UniqueKeys, _FAST):  # type: ignore[misc,valid-type]  # chosen at run time
    """LibYAML's parser when it is installed (10x faster): the same documents and errors.

    Its composer recurses in C, where a deep document would crash the process
    (``_loader_for`` keeps such a text away from it).
    """


C_SAFE_DEPTH = 1000  # flow brackets LibYAML's composer is trusted with (it crashed at 50,000)
_BRACKETS = re.compile(r"[\[\]{}]")


def _loader_for(text: str) -> type:
    """LibYAML's loader, or PyYAML's own for a text that may nest past ``C_SAFE_DEPTH``.

    Counted over every bracket, quoted or not: a text that only looks deep is parsed
    more slowly, never refused for it.
    """
    depth = top = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        top = max(top, depth)
        if top > C_SAFE_DEPTH:
            return _PyUniqueKeyLoader
    return _UniqueKeyLoader


MAX_FILE_BYTES = 2_000_000  # a scenario or campaign file: far below this
MAX_EXPANDED_NODES = 200_000  # YAML nodes once aliases are expanded (an alias bomb: billions)
MAX_NUMBER_CHARS = 40  # a number's digits: Python refuses ints past 4,300 (ValueError)
NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


def read_yaml(source: str) -> Any:
    """Read a YAML file, turning every way it can fail into a ``ScenarioError``.

    Only a regular file of at most ``MAX_FILE_BYTES`` is read (``safefile``: a FIFO or a
    device never is); the text is parsed once, with LibYAML when it is installed, and a
    document whose aliases expand past ``MAX_EXPANDED_NODES`` nodes, or with a number of
    more than ``MAX_NUMBER_CHARS`` characters, is refused before it is built.
    """
    try:
        raw = safefile.read_bytes(source, MAX_FILE_BYTES, what="scenario file")
    except FrayInputError as exc:
        raise ScenarioError(exc.source, exc.problems) from None
    if b"\x00" in raw:
        raise ScenarioError(source, [("", "not a text file (binary data); expected YAML")])
    try:
        text = raw.decode("utf-8-sig")  # -sig: tolerate the byte-order mark some editors add
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ScenarioError(source, [("", f"not UTF-8 text (bad byte 0x{raw[exc.start]:02x} "
                                      f"on line {line}); save the file as UTF-8")]) from None
    loader = _loader_for(text)(text)
    try:
        root = loader.get_single_node()
        _check_nodes(root, source)
        return None if root is None else loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise ScenarioError(source, [("", f"YAML error at {where}: {exc.problem}")]) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(source, [("", f"YAML error: {exc}")]) from None
    except RecursionError:
        raise ScenarioError(source, [("", "YAML nested too deeply")]) from None
    finally:
        loader.dispose()


def _key_path(path: str, key: yaml.Node) -> str:
    """The field path of a mapping's value: ``sides.heroes[0]`` and key ``traits``."""
    name = key.value if isinstance(key, yaml.ScalarNode) else "?"
    return f"{path}.{name}" if path else str(name)


def _check_nodes(root: yaml.Node | None, source: str) -> None:
    """Refuse a document before it is built: an alias bomb or a number too long.

    Aliases that would expand past ``MAX_EXPANDED_NODES`` nodes, or a number longer than
    ``MAX_NUMBER_CHARS`` characters (named by its field and its line).
    """
    sizes: dict[int, int] = {}

    def size(node: yaml.Node, path: str) -> int:
        if id(node) in sizes:  # an alias: the same node again, counted in full each time
            return sizes[id(node)]
        sizes[id(node)] = 1  # a cycle counts once
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child, f"{path}[{i}]") for i, child in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k, path) + size(v, _key_path(path, k)) for k, v in node.value)
        elif node.tag in NUMBER_TAGS and len(node.value) > MAX_NUMBER_CHARS:
            # the field, as every other error names it, and the line, for a long file
            raise ScenarioError(source, [(path, f"line {node.start_mark.line + 1}: a number "
                                          f"of {len(node.value):,} characters; a number in "
                                          f"a scenario has at most {MAX_NUMBER_CHARS}")])
        sizes[id(node)] = min(total, MAX_EXPANDED_NODES + 1)
        return sizes[id(node)]

    if root is not None and size(root, "") > MAX_EXPANDED_NODES:
        raise ScenarioError(source, [("", f"its aliases expand to more than "
                                      f"{MAX_EXPANDED_NODES:,} values (an alias bomb?); "
                                      "write the values out")])
