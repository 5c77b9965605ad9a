"""A JSON Schema of the scenario file, derived from the pydantic models (``fray schema``).

The schema is the file model of ``sim.scenario.models`` with each registered ruleset's
native block and options typed by the ruleset's own model (the loader reads them in a
second pass; here an editor can complete them too), plus what the loader checks by hand
and pydantic cannot see: the names of weapons, armor, AI profiles and rulesets, the
``[node, node, metres]`` shape of an edge, at least two sides. What a schema cannot say
(a member's ``at`` must name a node of the map, the map must be connected, names must be
unique) stays the loader's: ``fray validate`` is the last word.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import AliasChoices, BaseModel, Field, ValidationError, create_model

from sim import registry
from sim.scenario import vocabulary as catalog
from sim.scenario.models import MemberModel, ScenarioModel, Strict, sides_of

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# What each key means, for an editor's hover text (docs/scenarios.md's walk-through, shortened)
_SCENARIO_KEYS = {
    "name": "The scenario's name, shown in logs, tables and charts.",
    "ruleset": "The default ruleset; `fray run --ruleset` overrides it.",
    "max_rounds": "A fight still undecided after this many rounds is a draw.",
    "map": "Places (nodes) and the paths between them (edges, in metres). Default: one "
           "node called 'field'.",
    "sides": "Two or more sides, each a list of members.",
    "options": "Ruleset options, per ruleset (docs/rules/<ruleset>.md).",
    "aftermath": "What happens once the fight is over.",
    "escape": "Metres beyond every foe at which a fleeing fighter has got away (default 30).",
    "variants": "Named changes of this scenario (name, note, set: ['PATH=VALUE', ...] as "
                "--set writes them); fray batch fights each on the same seeds.",
}
_MEMBER_KEYS = {
    "name": "The combatant's name; with count > 1 the copies are named 'NAME 1'..'NAME N'.",
    "at": "The node it starts at (default: the map's first node).",
    "ai": "An AI profile, or a doctrine: {profile: ..., focus: ..., retreat_at: ..., "
          "morale: ..., prefers: ...}.",
    "count": "How many copies of this member.",
    "traits": "Neutral traits, 1-5 (2 is an average person).",
    "skills": "Neutral skills, 0-5 (0 untrained, 3 professional).",
    "weapon": "The weapon, by its neutral name.",
    "sidearm": "A shooter's hand weapon (knife, sword, ...), drawn as part of a move when a "
               "foe closes in.",
    "carry": "How many thrown weapons it carries; each throw spends one. Default: "
             + ", ".join(f"{w} {n}" for w, n in catalog.THROWN_WEAPONS.items()) + ".",
    "armor": "The armor, by its neutral name.",
    "shield": "Whether it carries a shield.",
    "kind": "person or beast: a beast never surrenders and nobody surrenders to it; "
            "default: beast when its weapon is natural (claws, bite, horns).",
}
_OTHER_KEYS = {
    "MapModel": {"nodes": "Places by name; each may set cover and visibility.",
                 "edges": "Paths as [node, node, metres]; the map must be connected."},
    "NodeModel": {"cover": "Cover at this place.", "visibility": "How well one sees here.",
                  "width": "At most this many fighters of a side fight here at once (a "
                           "footbridge or a door 1, a lane 2); default room for all.",
                  "exit": "A way out: a fleeing fighter that reaches it leaves the field."},
    "VariantModel": {"name": "The variant's name, in the table.",
                     "note": "What the variant tries, printed beside its numbers.",
                     "set": "Changes as --set writes them, one value each: "
                            "'sides.bandits[1].count=4'."},
    "AftermathModel": {"tend": "Who tends the fallen: own (the side holding the field "
                               "tends its own), all, none."},
    "DoctrineModel": {
        "profile": "The AI profile this doctrine tunes.",
        "focus": "Which foe it attacks: the nearest, the weakest, the most dangerous.",
        "retreat_at": "How near to death (0..1) it is when it falls back or yields.",
        "morale": "The share of its side out of the fight (0..1) at which it breaks.",
        "prefers": "Ranged or melee, when it could do either.",
        "budget": "lookahead: the fights it plays out for each decision.",
        "horizon": "lookahead: how many rounds each of them is played.",
        "hold": "A map node it fights from, goes back to, and does not chase off.",
    },
}


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file under the registered rulesets."""
    natives = registry.native_blocks()
    # field definitions as ``Any``: a type checker matches a ``**`` mapping against every
    # keyword of ``create_model`` (``__config__`` too)
    blocks: dict[str, Any] = {
        key: (block | None, Field(default=None, description=_native_help(key)))
        for key, block in natives.items()}
    member = create_model(
        "Member", __base__=MemberModel, __doc__="One entry of a side's member list.", **blocks)
    option_fields: dict[str, Any] = {
        _field_name(name): (block | None, Field(default=None, alias=name,
                                                description=f"Options of {name}."))
        for name, block in registry.option_blocks().items()}
    options = create_model(
        "Options", __base__=Strict, __doc__="Ruleset options, one block per ruleset.",
        **option_fields)
    scenario = create_model(
        "Scenario", __base__=ScenarioModel, __doc__="A fray scenario file.",
        sides=(sides_of(member), ...), options=(options, options()))
    schema = scenario.model_json_schema(by_alias=True)
    _refine(schema)
    _other_spellings(schema, [*natives.values(), *registry.option_blocks().values()])
    return {"$schema": DIALECT, "title": "fray scenario",
            **{k: v for k, v in schema.items() if k != "title"}}


def _field_name(ruleset: str) -> str:
    return ruleset.replace("-", "_")


def _native_help(key: str) -> str:
    users = [name for name in registry.names() if registry.get(name).native_key == key]
    return (f"Native block read only by {', '.join(users)}: overrides the conversion from the "
            f"neutral traits key by key.")


def _refine(schema: dict[str, Any]) -> None:
    """Add what the loader checks by hand, and the hover text of each key."""
    defs = schema["$defs"]
    props = schema["properties"]
    props["ruleset"] = {"enum": [*registry.names(), None], "default": registry.default()}
    props["options"]["default"] = {}
    props["sides"].update(minProperties=2, additionalProperties={
        "type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Member"}})
    _describe(props, _SCENARIO_KEYS)
    member = defs["Member"]["properties"]
    member["weapon"].update(enum=[*catalog.WEAPONS, *catalog.WEAPON_ALIASES])
    member["armor"].update(enum=list(catalog.ARMORS))
    member["ai"] = {"anyOf": [{"enum": list(catalog.AI_PROFILES)},
                              {"$ref": "#/$defs/DoctrineModel"}], "default": "basic"}
    _describe(member, _MEMBER_KEYS)
    defs["DoctrineModel"]["properties"]["profile"] = {"enum": list(catalog.AI_PROFILES)}
    defs["MapModel"]["properties"]["edges"] = {
        "type": "array", "default": [],
        "items": {"type": "array", "minItems": 3, "maxItems": 3,
                  "prefixItems": [{"type": "string"}, {"type": "string"},
                                  {"type": "number", "exclusiveMinimum": 0}]}}
    for name, keys in _OTHER_KEYS.items():
        _describe(defs[name]["properties"], keys)


def _other_spellings(schema: dict[str, Any], roots: list[type[BaseModel]]) -> None:
    """Accept every spelling the models accept: alias choices, and keys in capitals.

    pydantic's schema names one spelling per field; a field with alias choices (an old
    name kept) or a model that reads keys in capitals too (``CON: 60``) accepts more. The
    capitals are found by asking the model, so the schema follows whatever the rulesets
    accept without naming any of them.
    """
    defs = schema["$defs"]
    for name, model in _reachable(roots).items():
        props = defs.get(name, {}).get("properties")
        if not props:
            continue
        for field_name, info in model.model_fields.items():
            key = info.alias or field_name
            if key not in props:
                continue
            others = []
            if isinstance(info.validation_alias, AliasChoices):
                others += [c for c in info.validation_alias.choices if isinstance(c, str)]
            if info.default is None and _accepts(model, {key.upper(): None}):
                others.append(key.upper())
            for other in dict.fromkeys(o for o in others if o != key and o not in props):
                props[other] = {**props[key], "description": f"Another spelling of {key}."}


def _reachable(roots: list[type[BaseModel]]) -> dict[str, type[BaseModel]]:
    """Every model reachable from ``roots`` through field types, by schema definition name."""
    found: dict[str, type[BaseModel]] = {}
    stack = list(roots)
    while stack:
        model = stack.pop()
        if model.__name__ in found:
            continue
        found[model.__name__] = model
        for info in model.model_fields.values():
            stack += [t for t in _types(info.annotation)
                      if isinstance(t, type) and issubclass(t, BaseModel)]
    return found


def _types(annotation: Any) -> list[Any]:
    return [annotation, *(t for arg in typing.get_args(annotation) for t in _types(arg))]


def _accepts(model: type[BaseModel], data: dict[str, Any]) -> bool:
    try:
        model.model_validate(data)
    except ValidationError:
        return False
    return True


def _describe(props: dict[str, Any], text: dict[str, str]) -> None:
    for key, description in text.items():
        props[key]["description"] = description
