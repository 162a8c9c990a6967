"""The games the rules engines know, and the small interface each engine implements.

A board file names its format (``"format": "golfscan/<game>"``) and version; :func:`load_board`
validates it against that game's JSON Schema (readable errors naming the place) and hands it to the
game's ``parse``. Engines register in :data:`GAMES`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any, Protocol

import jsonschema
from jsonschema.protocols import Validator

from rules.common import BoardError, GameResult

FORMAT_PREFIX = "golfscan/"

# game id -> module implementing RulesGame (imported lazily so one broken engine cannot stop the others)
GAME_MODULES = {
    "minigolf-designer": "rules.minigolf",
    "18-holes": "rules.eighteen",
    "gnoming-a-round": "rules.gnoming",
    "the-front-nine": "rules.frontnine",
}


class RulesGame(Protocol):
    """What every game's rules engine module provides."""

    GAME: str  # id, e.g. "minigolf-designer"
    TITLE: str  # human name
    FORMAT_VERSION: int
    SCHEMA: dict[str, Any]

    def parse(self, data: dict[str, Any]) -> Any:
        """Turn schema-valid JSON into the engine's board object; raise BoardError on semantic errors."""

    def score(self, boards: list[Any], options: dict[str, Any] | None = None) -> GameResult:
        """Score one or more boards of this game (several boards give standings)."""


def game(name: str) -> RulesGame:
    if name not in GAME_MODULES:
        raise BoardError(f"unknown game {name!r}; known: {', '.join(GAME_MODULES)}")
    return import_module(GAME_MODULES[name])  # type: ignore[return-value]


def format_name(game_id: str) -> str:
    return FORMAT_PREFIX + game_id


def _json_place(path) -> str:
    place = ""
    for part in path:
        place += f"[{part}]" if isinstance(part, int) else (f".{part}" if place else str(part))
    return place or "(top level)"


# the distinct items found valid against each ``items`` schema (by id, with the schema itself: an id outlives its
# object), kept from one validation to the next: a scan's board is validated each time it is scored
_valid_items: dict[int, tuple[Any, set[str]]] = {}
REMEMBERED_ITEMS = 10_000  # items remembered for one schema at most (then forgotten at once and found anew)
_ITEMS = jsonschema.Draft202012Validator.VALIDATORS["items"]


def _items_once(validator: Validator, items: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """The ``items`` keyword, with an item equal to one already found valid against the same schema taken
    as valid: whether a value is valid is a matter of the value and the schema alone, and a board's hundred
    or so squares are a few dozen distinct values, most of them the last board's too (validating a course plan:
    19 ms; remembering the items of one validation, 5 ms; of the last ones too, 1 ms). Anything else, and every
    item that is not valid, is checked as the keyword always checks it, errors and places the same; only objects
    are remembered (a row of squares is seldom repeated)."""
    if not isinstance(items, dict) or "prefixItems" in schema or not validator.is_type(instance, "array"):
        yield from _ITEMS(validator, items, instance, schema)
        return
    known = _valid_items.get(id(items))
    if known is None or known[0] is not items or len(known[1]) >= REMEMBERED_ITEMS:
        known = _valid_items[id(items)] = (items, set())
    seen = known[1]
    for index, item in enumerate(instance):
        key = _json_key(item) if isinstance(item, dict) else None  # an array is seldom repeated
        if key is not None and key in seen:
            continue
        errors = list(validator.descend(item, items, path=index))
        if not errors and key is not None:
            seen.add(key)
        yield from errors


def _json_key(value: Any) -> str | None:
    """A key that two values share only when they are the same JSON value; None for a value that JSON does
    not hold as it is (a tuple, a dict with number keys, NaN), which is then checked every time.

    >>> _json_key({"k": "fairway", "edges": ["N", "S"]}), _json_key((1, 2)), _json_key({1: "a"})
    ('{"edges": ["N", "S"], "k": "fairway"}', None, None)
    """
    try:
        key = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return None
    return key if json.loads(key) == value else None


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"items": _items_once})


def validate(data: Any, schema: dict[str, Any]) -> None:
    """Raise BoardError for the first schema violation, naming the JSON place."""
    errors = sorted(_Validator(schema).iter_errors(data),
                    key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        err = jsonschema.exceptions.best_match(errors)
        raise BoardError(_readable(err), _json_place(err.absolute_path))


def _readable(err: jsonschema.ValidationError) -> str:
    """Schema messages that quote a whole sub-document are restated by size or expected type."""
    instance, value = err.instance, err.validator_value
    if err.validator in ("minItems", "maxItems") and isinstance(instance, list):
        bound = "at least" if err.validator == "minItems" else "at most"
        return f"expected {bound} {value} item(s), found {len(instance)}"
    if err.validator in ("type", "enum") and isinstance(instance, list | dict):
        return f"expected {value if err.validator == 'type' else 'one of ' + repr(value)}, found a {type(instance).__name__}"
    return err.message


def parse_board(data: Any, source: str = "") -> tuple[RulesGame, Any]:
    """Check a board's format and version, validate it, and parse it with its game's engine."""
    try:
        if not isinstance(data, dict):
            raise BoardError("a board file must be a JSON object")
        fmt = data.get("format")
        if not isinstance(fmt, str) or not fmt.startswith(FORMAT_PREFIX):
            raise BoardError(f"missing or unknown format {fmt!r} (expected 'golfscan/<game>')", "format")
        engine = game(fmt[len(FORMAT_PREFIX):])
        version = data.get("version")
        if version != engine.FORMAT_VERSION:
            raise BoardError(
                f"format version {version!r} is not supported (this golfscan reads version {engine.FORMAT_VERSION})",
                "version",
            )
        validate(data, engine.SCHEMA)
        return engine, engine.parse(data)
    except BoardError as err:
        err.file = err.file or source
        raise


def load_board(path: str | Path) -> tuple[RulesGame, Any]:
    """Read and parse a board file; every problem becomes a BoardError naming the file and place."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardError(f"cannot read file ({exc.__class__.__name__}: {exc})", file=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"not valid JSON: {exc.msg}", f"line {exc.lineno} column {exc.colno}", str(path)) from None
    return parse_board(data, str(path))


# Keys every board format allows, written by the scanner (see docs/boards/README.md).
COMMON_PROPERTIES: dict[str, Any] = {
    "source": {"type": "object", "description": "photo and scanner that produced the file; ignored by the rules"},
    "review": {
        "type": "array",
        "description": "reads the scanner was unsure of; each becomes a warning",
        "items": {
            "type": "object",
            "required": ["where"],
            "properties": {
                "where": {"type": "string"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                "note": {"type": "string"},
            },
        },
    },
}


def load_schema(module_file: str, name: str = "schema.json") -> dict[str, Any]:
    """Load the JSON Schema that sits beside an engine module, with the keys common to every game."""
    schema = json.loads((Path(module_file).parent / name).read_text(encoding="utf-8"))
    schema["properties"].update(COMMON_PROPERTIES)
    return schema
