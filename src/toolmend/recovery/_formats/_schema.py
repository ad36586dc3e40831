"""The tools a request offered, read for their names and their parameters' types.

``tools=`` takes what a backend already holds: OpenAI tool definitions
(``{"type": "function", "function": {"name", "parameters"}}``, or the
Responses API's flat ``{"type": "function", "name", "parameters"}``),
Anthropic ones (``{"name", "input_schema"}``), MCP ones (``{"name",
"inputSchema"}``) or a whole MCP ``tools/list`` result (``{"tools": [...]}``),
as dicts or as the SDKs' objects (anything with ``model_dump()`` or those
attributes). A tool without a schema (a provider's server tool) is known by
name and its parameters stay untyped.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..._text import too_many_digits
from .._result import Fix
from .._strategies import normalize_tool_args
from .._toolcalls import ToolCall

__all__ = ["Tools", "read_tools", "typed_value"]


class Tools:
    """Tool name -> the JSON Schema of its arguments (None when it has none)."""

    def __init__(self, schemas: dict[str, dict[str, Any] | None]) -> None:
        self.schemas = schemas
        self._props: dict[str, dict[str, Any]] = {}

    def known(self) -> str:
        return ", ".join(repr(n) for n in sorted(self.schemas)) or "none"

    def declared(self, name: str) -> str:
        """The tool given that a call's ``name`` calls: itself, or ``x`` for
        ``functions.x`` when only ``x`` is given (the namespace OpenAI's format puts
        user tools in, which models trained on it write; Gemini's ``default_api.x``
        too; any other namespace may
        hold a tool of its own, as harmony's ``browser.search``); else ``name``."""
        return declared_name(name, self.schemas)

    def as_declared(self, call: ToolCall) -> ToolCall:
        """The call under the name of the tool given that it calls (``functions.x`` is ``x``),
        a fix saying what the model wrote."""
        name = self.declared(call.name)
        if name == call.name:
            return call
        return replace(call, name=name, fixes=(*call.fixes, Fix(
            "tool_name", -1, f"the model called {call.name!r}: the tool given is {name!r}")))

    def properties(self, name: str) -> dict[str, Any]:
        """The tool's properties, each schema with its local references followed (what
        types a text is what the reference leads to, as if written inline)."""
        found = self._props.get(name)
        if found is None:
            schema = self.schemas.get(self.declared(name))
            props = schema.get("properties") if isinstance(schema, dict) else None
            found = {k: _followed(v, schema) for k, v in props.items()} if isinstance(props, dict) else {}
            self._props[name] = found
        return found


# the namespaces user tools are put in: OpenAI's format's, and Gemini's code's (default_api.x(...),
# as Gemma writes its tool_code after it): Tools.declared
NAMESPACES = ("functions.", "default_api.")


def declared_name(name: str, names: Container[str]) -> str:
    """``name``, or ``x`` for ``functions.x`` (or ``default_api.x``) when ``x`` is among
    ``names`` and ``name`` is not (see ``Tools.declared``)."""
    if name in names or not name.startswith(NAMESPACES):
        return name
    bare = name[name.index(".") + 1:]
    return bare if bare in names else name


_REF_HOPS = 16  # (references through references: a loop ends here, typing nothing)


def _followed(sub: Any, root: Any, hops: int = 0) -> Any:
    """``sub`` with its local references (``$ref: "#/..."``, and ``allOf`` of one schema,
    pydantic's way of pointing) replaced by what they lead to, in it and in its
    ``anyOf``/``oneOf``: the types a text may take. One that leads nowhere is kept."""
    if not isinstance(sub, dict) or hops > _REF_HOPS:
        return {} if hops > _REF_HOPS else sub
    ref = sub.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for token in ref[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        if isinstance(target, dict):
            rest = {k: v for k, v in sub.items() if k != "$ref"}
            return _followed({**target, **rest}, root, hops + 1)
        return sub
    all_of = sub.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and "type" not in sub:
        rest = {k: v for k, v in sub.items() if k != "allOf"}
        return _followed({**(all_of[0] if isinstance(all_of[0], dict) else {}), **rest}, root, hops + 1)
    out = sub
    for key in ("anyOf", "oneOf"):
        subs = sub.get(key)
        if isinstance(subs, list) and any(isinstance(x, dict) and x.keys() & {"$ref", "allOf"} for x in subs):
            out = {**out, key: [_followed(x, root, hops + 1) for x in subs]}
    return out


def _as_dict(obj: Any) -> Any:
    """An SDK object as a plain dict (pydantic v2 or v1, dataclass-like, attributes)."""
    if isinstance(obj, Mapping):
        return obj
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", by_alias=True, exclude_none=True)
        except TypeError:
            return dump()
    legacy = getattr(obj, "dict", None)
    if callable(legacy):
        return legacy()
    out = {k: getattr(obj, k) for k in ("type", "name", "function", "parameters", "input_schema",
                                        "inputSchema", "input_schema", "tools")
           if getattr(obj, k, None) is not None}
    return out or obj


def read_tools(tools: Any) -> Tools:
    """The tools given to ``parse_tool_calls``, or TypeError saying which one is not a tool."""
    tools = _as_dict(tools)
    if isinstance(tools, Mapping) and "tools" in tools and "name" not in tools:
        tools = tools["tools"]  # an MCP tools/list result
    if isinstance(tools, Mapping):
        tools = [tools]
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Iterable):
        raise TypeError("parse_tool_calls: tools must be a list of tool definitions (OpenAI, Anthropic or "
                        f"MCP) or an MCP tools/list result, not {type(tools).__name__}")
    schemas: dict[str, dict[str, Any] | None] = {}
    for n, tool in enumerate(tools):
        d = _as_dict(tool)
        if not isinstance(d, Mapping):
            raise TypeError(f"parse_tool_calls: tools[{n}] is not a tool definition "
                            f"({type(tool).__name__})")
        fn = _as_dict(d.get("function")) if d.get("function") is not None else d
        name = fn.get("name") if isinstance(fn, Mapping) else None
        if not isinstance(name, str) or not name:
            raise TypeError(f"parse_tool_calls: tools[{n}] has no name")
        schema = None
        for key in ("parameters", "input_schema", "inputSchema"):
            value = _as_dict(fn.get(key)) if fn.get(key) is not None else None
            if isinstance(value, Mapping):
                schema = dict(value)
                break
        schemas[name] = _null_defaults(schema) if schema is not None else None
    return Tools(schemas)


# where a schema holds schemas: under these keys one, a list of them, or a name -> schema mapping
_ONE, _LIST, _NAMED = ("items", "additionalProperties", "not"), ("anyOf", "oneOf", "allOf", "prefixItems"), \
    ("properties", "$defs", "definitions", "patternProperties")


def _null_defaults(schema: Any, depth: int = 0) -> Any:
    """The tool's schema with null allowed where a property's default is null and its type
    says otherwise (``{"type": "integer", "default": null}``, as a Python signature's
    ``x: int = None`` is written): passing null passes the default, which is what the
    model means. The caller's schema is not changed: the parts that change are copies."""
    if not isinstance(schema, dict) or depth > _REF_HOPS * 4:
        return schema
    out = schema
    for key in (*_ONE, *_LIST, *_NAMED):
        sub = schema.get(key)
        if key in _ONE:
            new: Any = _null_defaults(sub, depth + 1)
        elif key in _LIST and isinstance(sub, list):
            new = [_null_defaults(x, depth + 1) for x in sub]
            new = sub if all(a is b for a, b in zip(new, sub, strict=True)) else new
        elif key in _NAMED and isinstance(sub, dict):
            new = {k: _null_defaults(v, depth + 1) for k, v in sub.items()}
            new = sub if all(new[k] is v for k, v in sub.items()) else new
        else:
            continue
        if new is not sub:
            out = {**out, key: new} if out is schema else out | {key: new}
    t = schema.get("type")
    if "default" in schema and schema["default"] is None and isinstance(t, (str, list)) and \
            "null" not in ([t] if isinstance(t, str) else t) and schema.get("nullable") is not True:
        out = {**out, "nullable": True}  # (OpenAPI's null, which typing and check read)
    return out


# numbers as JSON writes them: "007" or "+5" for an integer is refused, not guessed
# (ASCII digits only: "1\u0662" is no number JSON writes, though int() would read it as 12)
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_NUM = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")
_ORDER = ("null", "boolean", "integer", "number", "object", "array")
_ARTICLE = {"null": "null", "boolean": "a boolean", "integer": "an integer", "number": "a number",
            "object": "an object", "array": "an array", "string": "a string"}


def _types(schema: Any) -> list[str]:
    """The JSON types a property's schema allows (``type``, a list of them, ``anyOf``/``oneOf``,
    and null with ``nullable``)."""
    if not isinstance(schema, Mapping):
        return []
    t = schema.get("type")
    if isinstance(t, (str, list)):
        named = [t] if isinstance(t, str) else [x for x in t if isinstance(x, str)]
        # OpenAPI 3.0's nullable: true (Gemini, transformers' get_json_schema) allows null
        return named + ["null"] if schema.get("nullable") is True and "null" not in named else named
    out: list[str] = []
    for key in ("anyOf", "oneOf"):
        subs = schema.get(key)
        for sub in subs if isinstance(subs, list) else ():  # (a schema that is no schema: its check says so)
            out.extend(x for x in _types(sub) if x not in out)
    return out


# the repairs that say a text is not one whole JSON value, with what each says of it: a
# parameter marked as JSON, or typed an object or an array, with one of them fits neither
# (and one that gives a key no value: null in its place is a value never written, as in a call's arguments)
NOT_ONE_VALUE = {"truncated": "it is cut off", "nan": "it holds a number JSON cannot carry",
                 "prose": "words follow its value", "concatenated": "it holds more than one value",
                 "value": "it gives a key no value", "ellipsis": "it elides part of itself (...)"}


def _fit(text: str, kind: str) -> tuple[bool, Any]:
    s = text.strip()
    if kind == "null":
        return (True, None) if s in ("null", "None") else (False, None)
    if kind == "boolean":
        low = s.lower()
        return (True, low == "true") if low in ("true", "false") else (False, None)
    if kind == "integer":
        return (True, int(s)) if _INT.match(s) else (False, None)
    if kind == "number":
        if not _NUM.match(s):
            return False, None
        if _INT.match(s):
            return True, int(s)  # (typed_value refused first the digits Python does not convert)
        value = float(s)
        return (value not in (float("inf"), float("-inf")), value)
    if kind in ("object", "array"):
        if s[:1] not in "{[":
            return False, None
        r = normalize_tool_args(s)
        # a value cut short, several values read as one list ([1, 2]\n[3] as [[1, 2], [3]],
        # which an array schema would take), or one with words after it ([1, 2] and 3) is not
        # the one value the parameter holds
        if not r.ok or any(f.code in NOT_ONE_VALUE for f in r.fixes):
            return False, None
        want = dict if kind == "object" else list
        return (isinstance(r.value, want), r.value)
    return False, None


def _allowed(schema: Any) -> list[Any] | None:
    """The values a property's ``enum`` or ``const`` allows, or None."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return [schema["const"]]
    enum = schema.get("enum")
    return enum if isinstance(enum, list) else None


def _kinds_of(values: list[Any]) -> list[str]:
    """The JSON types of ``values``."""
    return [next(kind for t, kind in _JSON_KINDS if isinstance(v, t)) for v in values]


# (bool before int: a boolean is an int in Python)
_JSON_KINDS: tuple[tuple[Any, str], ...] = ((type(None), "null"), (bool, "boolean"), (int, "integer"),
                                            (float, "number"), (str, "string"), (list, "array"),
                                            (object, "object"))


def _same(a: Any, b: Any) -> bool:
    """JSON equality: a boolean is no number (``True == 1`` in Python)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def typed_value(text: str, schema: Any, marked_string: bool = False) -> tuple[Any, str | None]:
    """``text`` typed by a property's schema: (value, None), or (text, what it should be)
    when it fits none of the non-string types the schema allows and the schema does
    not allow a string either. No type (or an unknown property): the text as it is;
    ``marked_string`` (the format says the value is a string) and a string allowed: too."""
    kinds = _types(schema)
    allowed = _allowed(schema)
    if allowed is not None and not (marked_string and "string" in kinds):
        # an enum or a const: the reading among the values it allows (["1", 2] with "1" is the
        # string; an enum with no type is typed by its values' types)
        for kind in [k for k in (*_ORDER, "string") if k in (kinds or _kinds_of(allowed))]:
            ok, value = (True, text) if kind == "string" else _fit(text, kind)
            if ok and any(_same(value, a) for a in allowed):
                return value, None
    if not kinds or kinds == ["string"] or (marked_string and "string" in kinds):
        return text, None
    too_long = too_many_digits(text) if _INT.match(text.strip()) else None
    if too_long is not None:
        return (text, None) if "string" in kinds else (text, f"is {too_long}")
    for kind in _ORDER:
        if kind in kinds and not (kind == "null" and "string" in kinds and text.strip() != "null"):
            # (Python's None beside a string allowed: the text "None" is that string, as written)
            ok, value = _fit(text, kind)
            if ok:
                return value, None
    if "string" in kinds:
        return text, None
    want = " or ".join(_ARTICLE.get(k, k) for k in kinds)
    return text, f"is {text.strip()[:60]!r}, which is not {want} as its schema says"
