"""JSON Schema, read: the JSON semantics the checks share (types, JSON
equality, paths) and the compiler from a schema to a tree of nodes, one per
(sub)schema, ``$ref`` cycles being links between nodes."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable

import orjson

from .._regex import RegexRefused, compile_bounded
from ..errors import SchemaError

#: Seconds one ``pattern`` match may take before the value is refused.
PATTERN_TIMEOUT = 0.25

# Keywords that only annotate (checked by nothing, per JSON Schema), and the
# ones this checker reads. Any other JSON Schema keyword is reported.
_ANNOTATIONS = frozenset((
    "title", "description", "examples", "$schema", "$id", "$comment", "$anchor", "$vocabulary",
    "default", "format", "readOnly", "writeOnly", "deprecated", "contentMediaType",
    "contentEncoding", "$defs", "definitions",
))
_CHECKED = frozenset((
    "type", "properties", "required", "additionalProperties", "patternProperties",
    "propertyNames", "minProperties", "maxProperties", "dependentRequired", "items",
    "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "enum", "const",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
    "maxLength", "pattern", "anyOf", "oneOf", "allOf", "not", "$ref", "nullable",
))
_UNSUPPORTED = frozenset((
    "if", "then", "else", "contains", "minContains", "maxContains", "dependentSchemas",
    "dependencies", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor",
    "$recursiveRef", "$recursiveAnchor", "contentSchema",
))
# keywords read alike: a count, an array of schemas, one schema (keyword, _Node attribute)
_COUNTS = (("minLength", "min_len"), ("maxLength", "max_len"), ("minItems", "min_items"),
           ("maxItems", "max_items"), ("minProperties", "min_props"), ("maxProperties", "max_props"))
_SCHEMA_LISTS = (("allOf", "all_of"), ("anyOf", "any_of"), ("oneOf", "one_of"))
_SUBSCHEMAS = (("additionalProperties", "additional"), ("propertyNames", "names"), ("not", "not_"))
_TYPES = ("null", "boolean", "object", "array", "number", "integer", "string")
# exact Python types of each JSON type (subclasses are judged by _type_ok)
_EXACT: dict[str, tuple[type, ...]] = {
    "null": (type(None),), "boolean": (bool,), "object": (dict,), "array": (list,),
    "number": (int, float), "integer": (int,), "string": (str,),
}
_INT_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_NUM_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_MISSING = object()


# -- JSON semantics ------------------------------------------------------------------------------

def _json_type(x: Any) -> str:
    """The JSON type name of a Python value (``integer`` for whole numbers)."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, int):
        return "integer"
    if isinstance(x, float):
        if not math.isfinite(x):  # (JSON has none: Python's json writes them, JSON's readers refuse)
            return "NaN" if x != x else "Infinity" if x > 0 else "-Infinity"
        return "integer" if x.is_integer() else "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, list):
        return "array"
    if isinstance(x, dict):
        return "object"
    return type(x).__name__


def _type_ok(x: Any, names: tuple[str, ...]) -> bool:
    """Whether ``x`` is of one of the JSON types ``names`` (booleans are not
    numbers; a float with no fraction is an integer)."""
    kind = _json_type(x)
    if kind in names:
        return True
    return kind == "integer" and "number" in names


def _key(x: Any) -> Any:
    """A hashable key equal for JSON-equal values: ``1`` and ``1.0`` share a
    key, ``True`` and ``1`` do not; arrays and objects compare by content."""
    t = type(x)
    if t is str:
        return x
    if x is None or t is bool:
        return ("b", x)
    if t is int:
        return ("n", x)
    if t is float:
        return ("n", int(x) if x.is_integer() else x)
    if isinstance(x, str):
        return str(x)
    if isinstance(x, bool):
        return ("b", bool(x))
    if isinstance(x, (int, float)):
        return _key(int(x) if isinstance(x, int) else float(x))
    if isinstance(x, (list, tuple)):
        return ("l", tuple(_key(y) for y in x))
    if isinstance(x, dict):
        return ("d", frozenset((k, _key(v)) for k, v in x.items()))
    return ("?", id(x))


def _unique(x: list[Any]) -> bool:
    return len({_key(y) for y in x}) == len(x)


def _multiple(x: Any, m: Any) -> bool:
    """``x`` is a multiple of ``m``: by the remainder for an integer ``m``, exact
    for a float ``x`` too (1e20 is no multiple of 3, though 1e20 / 3 rounds to a
    whole float); by the quotient for a float ``m``, as JSON Schema validators do
    (its decimal is not the float's)."""
    try:
        if isinstance(m, float):
            q = x / m
            return bool(int(q) == q)
        return bool(x % m == 0)
    except (OverflowError, ValueError):
        return False


def _json_path(path: tuple[Any, ...]) -> str:
    out = ["$"]
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


def _short(x: Any) -> str:
    try:
        text = orjson.dumps(x).decode()
    except (TypeError, orjson.JSONEncodeError):
        text = repr(x)
    return text if len(text) <= 60 else text[:45] + "..." + text[-10:]


def _fold(name: str) -> str:
    """A property name with case and ``-``/``_`` ignored."""
    return name.lower().replace("-", "").replace("_", "")


# -- compiling -----------------------------------------------------------------------------------

class _Node:
    """One (sub)schema, its keywords read and checked for form."""

    __slots__ = (
        "index", "where", "always", "ref", "types", "enum", "enum_keys", "const", "minimum",
        "maximum", "exmin", "exmax", "multiple", "min_len", "max_len", "pattern", "pattern_text",
        "min_items", "max_items", "unique", "items", "prefix", "props", "required", "additional",
        "pattern_props", "names", "min_props", "max_props", "dep_required", "all_of", "any_of",
        "one_of", "not_", "has_default", "default", "fn", "simple", "only_ref",
    )

    def __init__(self, index: int, where: str) -> None:
        self.index = index
        self.where = where
        self.always: bool | None = None  # a boolean schema
        self.ref: _Node | None = None
        self.types: tuple[str, ...] | None = None
        self.enum: list[Any] | None = None
        self.enum_keys: frozenset[Any] = frozenset()
        self.const: Any = _MISSING
        self.minimum: Any = None
        self.maximum: Any = None
        self.exmin: Any = None
        self.exmax: Any = None
        self.multiple: Any = None
        self.min_len: int | None = None
        self.max_len: int | None = None
        self.pattern: Any = None
        self.pattern_text = ""
        self.min_items: int | None = None
        self.max_items: int | None = None
        self.unique = False
        self.items: _Node | None = None
        self.prefix: list[_Node] = []
        self.props: dict[str, _Node] = {}
        self.required: tuple[str, ...] = ()
        self.additional: _Node | None = None
        self.pattern_props: list[tuple[Any, str, _Node]] = []
        self.names: _Node | None = None
        self.min_props: int | None = None
        self.max_props: int | None = None
        self.dep_required: dict[str, tuple[str, ...]] = {}
        self.all_of: list[_Node] = []
        self.any_of: list[_Node] = []
        self.one_of: list[_Node] = []
        self.not_: _Node | None = None
        self.has_default = False
        self.default: Any = None
        self.fn: Callable[[Any], bool] = _never
        self.simple: tuple[str, ...] | None = None  # only a type: checked inline by its parent
        self.only_ref = False  # only a $ref: its parent checks the node it names


def _never(x: Any) -> bool:  # pragma: no cover - replaced when the schema is compiled
    raise AssertionError("a schema node used before it was compiled")


def _unescape(token: str) -> str:
    from urllib.parse import unquote

    return unquote(token).replace("~1", "/").replace("~0", "~")


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.nodes: list[_Node] = []
        self.by_pointer: dict[str, _Node] = {}
        self.by_id: dict[int, _Node] = {}
        self.unsupported: list[str] = []

    def fail(self, message: str, where: str) -> SchemaError:
        return SchemaError(message, where)

    def node(self, schema: Any, where: str) -> _Node:
        known = self.by_id.get(id(schema))
        if known is not None and isinstance(schema, dict):
            return known
        n = _Node(len(self.nodes), where)
        self.nodes.append(n)
        self.by_pointer.setdefault(where, n)
        if isinstance(schema, bool):
            n.always = schema
            return n
        if not isinstance(schema, dict):
            raise self.fail(f"a schema is an object or a boolean, not {_json_type(schema)}", where)
        self.by_id[id(schema)] = n
        self.read(n, schema, where)
        return n

    def sub(self, schema: dict[str, Any], key: str, where: str) -> _Node:
        return self.node(schema[key], f"{where}/{key}")

    def count(self, schema: dict[str, Any], key: str, where: str) -> int:
        v = schema[key]
        if type(v) is float and v.is_integer():
            v = int(v)
        if type(v) is not int or v < 0:
            raise self.fail(f"{key} must be a non-negative integer, not {_short(v)}", f"{where}/{key}")
        return int(v)

    def number(self, schema: dict[str, Any], key: str, where: str) -> Any:
        v = schema[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.fail(f"{key} must be a number, not {_short(v)}", f"{where}/{key}")
        return v

    def schemas(self, schema: dict[str, Any], key: str, where: str) -> list[_Node]:
        v = schema[key]
        if not isinstance(v, list) or not v:
            raise self.fail(f"{key} must be a non-empty array of schemas", f"{where}/{key}")
        return [self.node(s, f"{where}/{key}/{i}") for i, s in enumerate(v)]

    def read(self, n: _Node, s: dict[str, Any], where: str) -> None:
        for key in s:
            if key in _UNSUPPORTED:
                self.unsupported.append(f"{key} (at {where})")
        if "$ref" in s:
            n.ref = self.resolve(s["$ref"], f"{where}/$ref")
        if "type" in s:
            t = s["type"]
            names = (t,) if isinstance(t, str) else t
            if not isinstance(names, list | tuple) or not names or \
                    any(not isinstance(x, str) or x not in _TYPES for x in names):
                bad = t if isinstance(t, str) else _short(t)
                raise self.fail(f"Unsupported schema type {bad}: type must be one of "
                                f"{', '.join(_TYPES)} or an array of them", f"{where}/type")
            n.types = tuple(dict.fromkeys(names))
            if s.get("nullable") is True and "null" not in n.types:
                # OpenAPI 3.0's way of allowing null (Gemini's declarations, transformers'
                # get_json_schema): what a tool's author means by it
                n.types += ("null",)
        if "enum" in s:
            if not isinstance(s["enum"], list):
                raise self.fail("enum must be an array", f"{where}/enum")
            n.enum = list(s["enum"])
            n.enum_keys = frozenset(_key(x) for x in n.enum)
        if "const" in s:
            n.const = s["const"]
        for key in ("minimum", "maximum"):
            if key in s:
                setattr(n, key, self.number(s, key, where))
        for key, attr, plain in (("exclusiveMinimum", "exmin", "minimum"),
                                 ("exclusiveMaximum", "exmax", "maximum")):
            if key in s:
                v = s[key]
                if isinstance(v, bool):  # draft 4: a flag on minimum / maximum
                    if v and getattr(n, plain) is not None:
                        setattr(n, attr, getattr(n, plain))
                        setattr(n, plain, None)
                else:
                    setattr(n, attr, self.number(s, key, where))
        if "multipleOf" in s:
            n.multiple = self.number(s, "multipleOf", where)
            if n.multiple <= 0:
                raise self.fail("multipleOf must be greater than 0", f"{where}/multipleOf")
        for key, attr in _COUNTS:
            if key in s:
                setattr(n, attr, self.count(s, key, where))
        if "pattern" in s:
            p = s["pattern"]
            if not isinstance(p, str):
                raise self.fail("pattern must be a string", f"{where}/pattern")
            try:
                n.pattern = compile_bounded(p)
            except RegexRefused as exc:
                raise self.fail(f"the pattern {_short(p)} {exc}", f"{where}/pattern") from None
            n.pattern_text = p
        if "uniqueItems" in s:
            n.unique = bool(s["uniqueItems"])
        if "prefixItems" in s:
            n.prefix = self.schemas(s, "prefixItems", where)
        if "items" in s:
            if isinstance(s["items"], list):  # draft 4-7: the array form is prefixItems
                n.prefix = [self.node(x, f"{where}/items/{i}") for i, x in enumerate(s["items"])]
                if "additionalItems" in s:
                    n.items = self.sub(s, "additionalItems", where)
            else:
                n.items = self.sub(s, "items", where)
        if "properties" in s:
            props = s["properties"]
            if not isinstance(props, dict):
                raise self.fail("properties must be an object", f"{where}/properties")
            n.props = {k: self.node(v, f"{where}/properties/{k}") for k, v in props.items()}
        if "required" in s:
            req = s["required"]
            if not isinstance(req, list) or any(not isinstance(x, str) for x in req):
                raise self.fail("required must be an array of strings", f"{where}/required")
            n.required = tuple(dict.fromkeys(req))
        if "patternProperties" in s:
            pp = s["patternProperties"]
            if not isinstance(pp, dict):
                raise self.fail("patternProperties must be an object", f"{where}/patternProperties")
            for p, sub in pp.items():
                try:
                    rx = compile_bounded(p)
                except RegexRefused as exc:
                    raise self.fail(f"the pattern {_short(p)} {exc}",
                                    f"{where}/patternProperties") from None
                n.pattern_props.append((rx, p, self.node(sub, f"{where}/patternProperties/{p}")))
        if "dependentRequired" in s:
            dr = s["dependentRequired"]
            if not isinstance(dr, dict) or any(not isinstance(v, list) for v in dr.values()):
                raise self.fail("dependentRequired must map names to arrays of names",
                                f"{where}/dependentRequired")
            n.dep_required = {k: tuple(v) for k, v in dr.items()}
        for key, attr in _SCHEMA_LISTS:
            if key in s:
                setattr(n, attr, self.schemas(s, key, where))
        for key, attr in _SUBSCHEMAS:
            if key in s:
                setattr(n, attr, self.sub(s, key, where))
        if "default" in s:
            n.has_default = True
            n.default = s["default"]
        if (n.types is not None and n.ref is None and len(s.keys() - _ANNOTATIONS - {"nullable"}) == 1):
            n.simple = n.types
        if n.ref is not None and len(s.keys() - _ANNOTATIONS) == 1:
            n.only_ref = True

    def resolve(self, ref: Any, where: str) -> _Node:
        if not isinstance(ref, str):
            raise self.fail("$ref must be a string", where)
        if not ref.startswith("#"):
            raise self.fail(f"$ref {ref!r} points outside this schema: only local references "
                            "(#/$defs/...) are followed", where)
        pointer = ref[1:]
        key = "#" + pointer
        if key in self.by_pointer and self.by_pointer[key].where == key:
            return self.by_pointer[key]
        target: Any = self.root
        if pointer:
            if not pointer.startswith("/"):
                raise self.fail(f"$ref {ref!r}: anchors are not followed, only JSON pointers",
                                where)
            for token in pointer[1:].split("/"):
                token = _unescape(token)
                if isinstance(target, dict) and token in target:
                    target = target[token]
                elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
                    target = target[int(token)]
                else:
                    raise self.fail(f"$ref {ref!r} leads nowhere (no {token!r})", where)
        known = self.by_id.get(id(target))
        if known is not None and isinstance(target, dict):
            return known
        return self.node(target, key)
