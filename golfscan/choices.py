"""What a person may pick when correcting a read: every value the game's board format allows there.

The choices come from the game's own JSON Schema, at the read's JSON place: enums and consts, small
integer ranges, fixed-length arrays of them (sets when ``uniqueItems``), and objects built from their
required properties, with ``if``/``then`` variants (an 18 Holes square: each kind with its own fields).
Free-form properties (a tile id, a row number) keep the current value, unless the game names a
catalogue for them in :data:`CATALOGUES` (Minigolf Designer tile ids). The scanner's next-best
readings come first. One function serves every game; nothing is listed by hand in the review page.

Example:
    >>> board = {"format": "golfscan/gnoming-a-round", "version": 1,
    ...          "rounds": [{"grids": {"Ada": [["5"] * 3] * 3}}]}
    >>> [c.label for c in choices("gnoming-a-round", board, "rounds[0].grids.Ada[1][2]")][:4]
    ['3', '4', '5', '6']
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from golfscan.corrections import PlaceError, get_place, parse_place, set_place
from rules import registry
from rules.common import BoardError

MAX_CHOICES = 2000
MAX_INT_RANGE = 20


@dataclass(frozen=True)
class Choice:
    label: str
    value: Any
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "group": self.group}


def _minigolf_tile_ids() -> list[str]:
    path = Path(registry.game("minigolf-designer").__file__).parent / "tiles.json"
    return [tile["id"] for tile in json.loads(path.read_text(encoding="utf-8"))["tiles"]] + ["unknown"]


# game -> property name -> the catalogue of values a free-form string property takes
CATALOGUES: dict[str, dict[str, Callable[[], list[Any]]]] = {
    "minigolf-designer": {"tile": _minigolf_tile_ids},
}


def choices(game: str, board: dict[str, Any], where: str, alternatives: list[Any] = ()) -> list[Choice]:
    """The values a person may put at ``where`` in ``board`` (a board file dict of ``game``)."""
    engine = registry.game(game)
    root = engine.SCHEMA
    try:
        current = get_place(board, where)
    except PlaceError:
        current = None
    schema = schema_at(root, board, parse_place(where))
    catalogues = {name: cached_catalogue(game, name) for name in CATALOGUES.get(game, {})}
    found = Enumerator(root, catalogues).values(schema, current, parse_place(where)[-1]) or []
    validator = _validator(root, schema)
    seen: set[str] = set()
    picked: list[tuple[str, Any]] = []
    for group, values in (("the scanner's guesses", list(alternatives)), ("", found)):
        for value in values:
            key = json.dumps(value, sort_keys=True)
            if key not in seen and validator.is_valid(value) and _rules_accept(engine, board, where, value):
                seen.add(key)
                picked.append((group, value))
    same = _constant_keys([v for _, v in picked])
    return [Choice(label(_without(v, same)), v, g or _group(_without(v, same))) for g, v in picked][:MAX_CHOICES]


def _rules_accept(engine: Any, board: dict[str, Any], where: str, value: Any) -> bool:
    """False when the game's rules refuse ``value`` at ``where`` (e.g. a tee and green on one edge).

    Only the engine's own checks run (``parse``, no schema): fast enough for every choice. A problem
    elsewhere in the board says nothing about this value, so it does not drop the choice.
    """
    try:
        engine.parse(set_place(copy.deepcopy(board), where, value))
    except BoardError as err:
        return not (err.place == where or err.place.startswith((f"{where}.", f"{where}[")))
    except (KeyError, TypeError, ValueError):  # parse expects a schema-valid board elsewhere
        return True
    return True


def _constant_keys(values: list[Any]) -> set[str]:
    """Keys every choice has with the same value (a tile's row and column): left out of the labels."""
    dicts = [v for v in values if isinstance(v, dict)]
    if len(dicts) < 2 or len(dicts) < len(values):
        return set()
    return {k for k in dicts[0] if all(k in d and d[k] == dicts[0][k] for d in dicts)}


def _without(value: Any, keys: set[str]) -> Any:
    return {k: v for k, v in value.items() if k not in keys} if isinstance(value, dict) and keys else value


def check_value(game: str, board: dict[str, Any], where: str, value: Any) -> str:
    """Why ``value`` cannot stand at ``where`` (the schema's words), or "" when it can.

    >>> check_value("gnoming-a-round", {"rounds": [{"grids": {"Ada": [["5"] * 3] * 3}}]},
    ...             "rounds[0].grids.Ada[0][0]", "9")
    "'9' is not one of ['3', '4', '5', '6', '7', '8', '-1', '-2', '-3', '-4', 'hazard', 'mulligan', 'unknown']"
    """
    root = registry.game(game).SCHEMA
    error = jsonschema.exceptions.best_match(
        _validator(root, schema_at(root, board, parse_place(where))).iter_errors(value))
    return error.message if error else ""


@cache
def cached_catalogue(game: str, name: str) -> tuple[Any, ...]:
    return tuple(CATALOGUES[game][name]())


def label(value: Any) -> str:
    """A short human label.

    >>> label({"k": "teegreen", "green_edge": "W", "tee_edge": "E", "par": 3})
    'teegreen, green_edge W, tee_edge E, par 3'
    >>> label({"k": "fairway", "edges": ["W", "E"]})
    'fairway, edges W-E'
    """
    if isinstance(value, dict):
        items = list(value.items())
        head = [str(items[0][1])] if items and isinstance(items[0][1], str) else []
        rest = items[1:] if head else items
        return ", ".join(head + [f"{k} {label(v)}" for k, v in rest])
    if isinstance(value, list):
        return "-".join(label(v) for v in value)
    return "none" if value is None else str(value)


def _group(value: Any) -> str:
    """Choices group by their first text field (a square's kind, a tile's id)."""
    texts = [v for v in value.values() if isinstance(v, str)] if isinstance(value, dict) else []
    return texts[0] if texts else ""


def _validator(root: dict[str, Any], schema: Any) -> jsonschema.Draft202012Validator:
    if not isinstance(schema, dict):
        schema = {} if schema is True else {"not": {}}
    return jsonschema.Draft202012Validator({**schema, "$defs": root.get("$defs", {})})


# ---------------------------------------------------------------------------------------------- schema walking

def _resolve(schema: Any, root: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        node: Any = root
        for part in schema["$ref"][2:].split("/"):
            node = node[part]
        schema = node
    return schema


def _parts(schema: Any, root: dict[str, Any], data: Any) -> list[dict[str, Any]]:
    """The schema and the ``allOf`` members (and ``then`` of matching ``if``) that apply to ``data``."""
    schema = _resolve(schema, root)
    if not isinstance(schema, dict):
        return []
    out = [schema]
    for member in schema.get("allOf", []):
        member = _resolve(member, root)
        if "if" in member:
            if data is not None and _validator(root, member["if"]).is_valid(data) and "then" in member:
                out += _parts(member["then"], root, data)
        else:
            out += _parts(member, root, data)
    return out


def schema_at(root: dict[str, Any], data: Any, parts: list[str | int]) -> Any:
    """The schema for the value at a JSON place, given the board (conditional parts follow the data)."""
    schema: Any = root
    for part in parts:
        found = []
        for piece in _parts(schema, root, data):
            if isinstance(part, int):
                items = piece.get("prefixItems", [])
                child = items[part] if part < len(items) else piece.get("items")
            else:
                child = piece.get("properties", {}).get(part)
                if child is None and isinstance(piece.get("additionalProperties"), dict):
                    child = piece["additionalProperties"]
            if child is not None and child is not True:
                found.append(child)
        schema = found[0] if len(found) == 1 else ({"allOf": found} if found else True)
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            data = None
    return schema


@dataclass
class Enumerator:
    """Lists the finite set of values a schema allows (None when it is not small and finite)."""

    root: dict[str, Any]
    catalogues: dict[str, tuple[Any, ...]]

    def values(self, schema: Any, current: Any = None, name: str | int | None = None) -> list[Any] | None:
        schema = _resolve(schema, self.root)
        if not isinstance(schema, dict):
            return None
        if "const" in schema:
            return [schema["const"]]
        if "enum" in schema:
            return list(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [self.values(s, current, name) for s in schema[key]]
                return None if None in options else [v for opt in options for v in opt]
        types = schema.get("type")
        types = types if isinstance(types, list) else [types]
        if name in self.catalogues and "string" in types:
            return list(self.catalogues[name]) + ([None] if "null" in types else [])
        if "object" in types or "properties" in schema or "allOf" in schema:
            return self._objects(schema, current if isinstance(current, dict) else {})
        if "array" in types:
            return self._arrays(schema)
        if types == ["boolean"]:
            return [False, True]
        if "integer" in types and "minimum" in schema and "maximum" in schema:
            low, high = schema["minimum"], schema["maximum"]
            return list(range(low, high + 1)) if high - low < MAX_INT_RANGE else None
        return None

    def _objects(self, schema: dict[str, Any], current: dict[str, Any]) -> list[Any] | None:
        base = _parts(schema, self.root, None)
        props = {k: v for piece in base for k, v in piece.get("properties", {}).items() if v is not True}
        required = {k for piece in base for k in piece.get("required", [])}
        branches = [_resolve(m, self.root) for m in schema.get("allOf", [])]
        branches = [b for b in branches if "if" in b and "then" in b]
        keys = [k for k in props if all(k in b["if"].get("properties", {}) for b in branches)]
        if not branches or not keys:
            return self._product(props, required, current)
        tag = keys[0]
        out: list[Any] = []
        for value in self.values(props[tag], current.get(tag), tag) or []:
            active = _parts(schema, self.root, {tag: value})[len(base):]
            variant = dict(props)
            for piece in active:
                variant.update({k: v for k, v in piece.get("properties", {}).items() if v is not True})
            allowed = [set(p.get("properties", {})) for p in active if p.get("additionalProperties") is False]
            names = set(variant).intersection(*allowed) if allowed else set(variant)
            need = (required | {k for p in active for k in p.get("required", [])}) & names
            rest = self._product({k: v for k, v in variant.items() if k in names and k != tag}, need - {tag},
                                 {k: v for k, v in current.items() if k != tag})
            out += [{tag: value, **r} for r in rest or []]
        return out

    def _product(self, props: dict[str, Any], required: set[str], current: dict[str, Any]) -> list[Any] | None:
        names = [k for k in props if k in required or k in current]
        options = []
        for k in names:
            found = self.values(props[k], current.get(k), k)
            if found is None:
                if k not in current:
                    return None
                found = [current[k]]  # free-form: keep what is there (a tile's row and column)
            options.append(found)
        size = 1
        for opt in options:
            size *= len(opt)
        if size > MAX_CHOICES:
            return None
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*options)]

    def _arrays(self, schema: dict[str, Any]) -> list[Any] | None:
        count = schema.get("minItems")
        if count is None or count != schema.get("maxItems") or count > 4:
            return None
        items = self.values(schema.get("items", True))
        if items is None:
            return None
        combos = itertools.combinations(items, count) if schema.get("uniqueItems") else \
            itertools.product(items, repeat=count)
        return [list(c) for c in combos]
