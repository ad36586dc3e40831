"""Tool-call arguments checked against the tool's own JSON Schema, and
repaired where exactly one reading fits.

    Schema(schema)            compiled once (cached by the schema), reused:
      .is_valid(value)        the verdict, on generated code (no coercion)
      .check(value)           -> Checked(ok, value, problems, fixes, defaults)
      .validate(value)        the value, coerced, or RecoveryError listing the problems
    tool_schemas(tools)       OpenAI / Anthropic / MCP tool lists -> {name: Schema}
    check_tool_calls(calls, tools)  each call's arguments checked against its tool's schema
    recover_with_schema(...)  recovery, then the check (normalize_tool_args(schema=))

A schema is compiled into a tree of nodes (``$ref`` cycles are links between
nodes), from it into one Python function per node, each with the checks of
its keywords written out, and into the plan of records the schema-check
kernel walks (``_kernels.schemacheck``: exact types checked in C, anything
else handed to the node's function, so the verdict is the generated code's).
Only a value that does not fit is walked again, by the interpreter of the
same nodes, which lists every problem by JSON path and makes the coercions
that have one reading.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

import orjson

from .._kernels import schemacheck
from ..errors import RecoveryError, SchemaError, SchemaWarning
from ._result import Fix, Recovered
from ._schemagen import _Gen, plan
from ._schemanodes import PATTERN_TIMEOUT, _Compiler, _fold, _key, _short
from ._schemawalk import Problem, _collect_defaults, _Walk

if TYPE_CHECKING:
    from ._toolcalls import ToolCall

__all__ = ["Schema", "Checked", "Problem", "SchemaRecovered", "tool_schemas", "recover_with_schema",
           "check_tool_calls", "SCHEMA_CACHE_SIZE", "PATTERN_TIMEOUT"]

#: Compiled schemas kept (by their canonical JSON text, or the model class).
SCHEMA_CACHE_SIZE = 512


@dataclass(slots=True, repr=False, eq=False)
class Checked:
    """The outcome of :meth:`Schema.check`: ``ok``; ``value`` (the coerced
    value: the input itself when nothing changed, never mutated); ``problems``
    (every way it does not fit); ``fixes`` (the coercions made, code
    ``schema``); ``defaults`` (``(path, default)`` of the absent properties
    that have one; inserted only with ``fill_defaults=True``)."""

    ok: bool
    value: Any
    problems: list[Problem]
    fixes: list[Fix]
    _defaults: list[tuple[str, Any]] | None
    _schema: Schema | None

    @property
    def defaults(self) -> list[tuple[str, Any]]:
        if self._defaults is None:
            assert self._schema is not None
            found: list[tuple[str, Any]] = []
            try:
                _collect_defaults(self._schema._root, self.value, (), found, set())
            except RecursionError:
                pass
            self._defaults = found
        return self._defaults

    @property
    def error(self) -> str | None:
        """The problems in one line (None when ok)."""
        if self.ok:
            return None
        return "; ".join(str(p) for p in self.problems)

    def __repr__(self) -> str:
        return f"Checked(ok={self.ok}, value={self.value!r}, problems={self.problems!r})"


class SchemaRecovered(Recovered):
    """:class:`Recovered` for arguments checked against a schema: ``problems``
    lists every way they do not fit (empty when ``ok``); when they do not,
    ``candidate`` is the recovered value (after the coercions that could be
    made), for telling the model what was wrong; ``value`` is then None."""

    __slots__ = ("problems", "candidate")

    def __init__(self, text: str, ok: bool, strategy: str | None, value: Any,
                 error: str | None, fixes: list[Fix], problems: list[Problem],
                 candidate: Any = None) -> None:
        super().__init__(text, ok, strategy, value, error, fixes)
        self.problems = problems
        self.candidate = candidate


# -- the public face -----------------------------------------------------------------------------

_cache: dict[Any, Schema] = {}


def _schema_of(source: Any) -> tuple[Any, Any]:
    """(the schema as a JSON value, the cache key) of a dict, a bool or a
    Pydantic v2 model class."""
    if isinstance(source, type) and hasattr(source, "model_json_schema"):
        return source.model_json_schema(), source
    if isinstance(source, (dict, bool)):
        try:
            key: Any = orjson.dumps(source, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError):
            try:  # integers past 64 bits, nesting past orjson's depth
                key = json.dumps(source, sort_keys=True)
            except RecursionError:
                raise SchemaError("the schema is nested past the supported schema recursion depth "
                                  "(what Python's stack can walk)") from None
            except (TypeError, ValueError) as exc:
                raise SchemaError(f"the schema is not JSON: {exc}") from None
        return source, key
    raise TypeError("Schema: a JSON Schema is a dict (or a boolean), or a Pydantic v2 model "
                    f"class, not {type(source).__name__}")


def _no_empty_cycle(nodes: list[Any]) -> None:
    """Refuse a ``$ref`` that leads back to itself through nodes that are only
    ``$ref``: it checks nothing and never ends."""
    for start in nodes:
        seen = {start.index}
        n = start
        while n.ref is not None and n.only_ref:
            n = n.ref
            if n.index in seen:
                raise SchemaError(f"Circular $ref detected: {start.where} leads back to itself "
                                  "through $ref alone, checking nothing", start.where)
            seen.add(n.index)


class Schema:
    """A JSON Schema compiled into a reusable check of tool-call arguments.

    ``Schema(schema)`` takes a dict (or ``True``/``False``), a Pydantic v2
    model class (its ``model_json_schema()``) or a Schema (itself); equal
    schemas share one compiled checker. Raises SchemaError for a schema that
    cannot be compiled. ``unsupported`` names the keywords not checked (said
    once, as a SchemaWarning, when compiled).
    """

    __slots__ = ("source", "unsupported", "_root", "_nodes", "primary_field", "top_properties",
                 "_wants_object", "is_valid", "validate", "__weakref__")

    source: Any
    unsupported: tuple[str, ...]
    primary_field: str | None
    top_properties: frozenset[str]  # the properties the top object names
    #: ``is_valid(value)``: whether the value fits as it is (no coercion); the
    #: kernel's check itself, called with no wrapper.
    is_valid: Callable[[Any], bool]
    #: ``validate(value, *, coerce=True, fill_defaults=False)``: the value,
    #: coerced where one reading fits; RecoveryError listing every problem
    #: otherwise (a value that fits is returned by the kernel's check itself).
    validate: Callable[..., Any]

    def __new__(cls, schema: Any) -> Schema:
        if isinstance(schema, Schema):
            return schema
        value, key = _schema_of(schema)
        known = _cache.get(key)
        if known is not None:
            return known
        self = object.__new__(cls)
        self._compile(value)
        if len(_cache) >= SCHEMA_CACHE_SIZE:
            del _cache[next(iter(_cache))]
        _cache[key] = self
        return self

    def _compile(self, value: Any) -> None:
        comp = _Compiler(value)
        try:
            root = comp.node(value, "#")
        except RecursionError:
            raise SchemaError("the schema is nested past the supported schema recursion depth "
                              "(what Python's stack can walk)") from None
        _no_empty_cycle(comp.nodes)
        fns = _Gen(comp.nodes).build()
        for n, fn in zip(comp.nodes, fns, strict=True):
            n.fn = fn
        checker = schemacheck.make_checker(plan(comp.nodes), _key, self._validate)
        self.is_valid = checker.is_valid
        self.validate = checker.validate
        self.source = value
        self._root = root
        self._nodes = comp.nodes
        self.unsupported = tuple(comp.unsupported)
        if self.unsupported:
            warnings.warn(SchemaWarning("JSON Schema keywords not checked: "
                                        + ", ".join(self.unsupported)), stacklevel=4)
        top = root.ref if root.ref is not None and not root.props else root
        self._wants_object = bool(top.types == ("object",) or
                                  (top.types is None and (top.props or top.required)))
        self.top_properties = frozenset(top.props)
        if len(top.required) == 1:
            self.primary_field = top.required[0]
        elif not top.required and len(top.props) == 1:
            self.primary_field = next(iter(top.props))
        else:
            self.primary_field = None

    def check(self, value: Any, *, coerce: bool = True, fill_defaults: bool = False) -> Checked:
        """Check ``value``: the coercions with one reading made (unless
        ``coerce=False``), every problem listed. The input is never mutated."""
        if not fill_defaults and self.is_valid(value):
            return Checked(True, value, [], [], None, self)
        walk = _Walk(coerce, fill_defaults)
        try:
            out = walk.node(self._root, value, ())
        except RecursionError:
            return Checked(False, value, [Problem("$", "nested too deeply to check", "depth")], [],
                           [], self)
        if not walk.problems and fill_defaults and out is not value and not self.is_valid(out):
            # a default that does not fit its own schema: said, never passed off
            again = _Walk(False, False)
            try:
                again.node(self._root, out, ())
            except RecursionError:  # pragma: no cover - the first walk went as deep
                pass
            walk.problems = [p._replace(message=p.message + " (after the defaults were inserted)")
                             for p in again.problems] or [
                Problem("$", "does not fit once the defaults are inserted", "default")]
        if walk.problems:
            return Checked(False, out, walk.problems, walk.fixes, None, self)
        return Checked(True, out, [], walk.fixes, None, self)

    def _validate(self, value: Any, coerce: bool, fill_defaults: bool) -> Any:
        """``validate`` past its generated fast path."""
        result = self.check(value, coerce=coerce, fill_defaults=fill_defaults)
        if not result.ok:
            raise RecoveryError(f"the arguments do not fit the schema: {result.error}",
                                _short(value))
        return result.value

    def __repr__(self) -> str:
        return f"Schema({_short(self.source)})"


# -- tool definitions ----------------------------------------------------------------------------

def _tool_entries(tools: Any) -> Iterator[tuple[str, Any, str]]:
    if isinstance(tools, dict):
        if "tools" in tools and isinstance(tools["tools"], list):  # an MCP tools/list result
            yield from _tool_entries(tools["tools"])
            return
        if "result" in tools and isinstance(tools["result"], dict):  # its JSON-RPC response
            yield from _tool_entries(tools["result"])
            return
        for name, schema in tools.items():  # {name: schema}
            yield name, schema, f"[{name!r}]"
        return
    if not isinstance(tools, (list, tuple)):
        raise SchemaError(f"tool definitions are a list (or an MCP tools/list result), not "
                          f"{type(tools).__name__}")
    for i, t in enumerate(tools):
        if hasattr(t, "model_dump"):  # an SDK object (OpenAI, Anthropic, MCP types)
            t = t.model_dump(by_alias=True, exclude_none=True)
        if not isinstance(t, dict):
            raise SchemaError(f"tool definition {i} is a {type(t).__name__}, not an object", f"[{i}]")
        fn: dict[str, Any] = t["function"] if isinstance(t.get("function"), dict) else t
        name = fn.get("name")
        if not isinstance(name, str) or not name:
            raise SchemaError(f"tool definition {i} has no name", f"[{i}]")
        for key in ("parameters", "input_schema", "inputSchema", "parametersJsonSchema"):
            if key in fn:
                yield name, fn[key], f"[{i}].{key}"
                break
        else:
            yield name, {"type": "object", "properties": {}}, f"[{i}]"


def tool_schemas(tools: Any) -> dict[str, Schema]:
    """Tool name -> compiled :class:`Schema`, from the tool definitions of a
    request: OpenAI (``{"type": "function", "function": {"name", "parameters"}}``
    or the Responses form with ``name``/``parameters`` at the top), Anthropic
    (``name``/``input_schema``), MCP (``name``/``inputSchema``, or a whole
    ``tools/list`` result or response), SDK objects of those, or a plain
    ``{name: schema}`` mapping. A tool without a schema takes no arguments
    (an empty object); a name given twice is a SchemaError."""
    out: dict[str, Schema] = {}
    for name, schema, where in _tool_entries(tools):
        if name in out:
            raise SchemaError(f"tool {name!r} is defined twice", where)
        if schema is None:
            schema = {"type": "object", "properties": {}}
        try:
            out[name] = Schema(schema)
        except SchemaError as exc:
            raise SchemaError(f"tool {name!r}: {exc}", where) from None
    return out


def check_tool_calls(calls: Iterable[ToolCall], tools: Any) -> list[ToolCall]:
    """Each call's arguments checked against the schema of its tool among
    ``tools`` (what :func:`parse_tool_calls` takes: OpenAI, Anthropic or MCP
    definitions, an MCP ``tools/list`` result or its JSON-RPC response, SDK
    objects). A call that fits
    keeps its value, coerced where one reading fits (``fixes``, code
    ``schema``); one that does not is not ok, ``problems`` listing every way
    by JSON path and ``error`` saying them in one line; a call to a tool not
    among ``tools`` is not ok, naming the tools given. A bare value (step 6)
    goes into the schema's one property. Calls already not ok pass through."""
    from dataclasses import replace

    from ._formats._schema import read_tools

    known = read_tools(unwrap_response(tools))
    compiled: dict[str, Schema | None] = {}
    for name, schema in known.schemas.items():
        try:
            compiled[name] = Schema(schema) if schema is not None else None
        except SchemaError as exc:
            raise SchemaError(f"the schema of tool {name!r}: {exc}") from None
    from ._strategies import NO_PRIMARY_FIELD

    out: list[ToolCall] = []
    for c in calls:
        c = known.as_declared(c)  # (functions.x calls the tool x given)
        if not c.ok:
            s = compiled.get(c.name)
            if s is not None and c.cut is None and NO_PRIMARY_FIELD in (c.error or "") and _bare(c.raw_args):
                # a bare value to a tool the name table does not know: the schema's one property
                r = recover_with_schema(c.raw_args, c.name, s)
                if r.ok:
                    out.append(replace(c, args=r.value, ok=True, error=None,
                                       fixes=c.fixes + tuple(f for f in r.fixes if f.code == "schema")))
                    continue
            if s is not None and c.cut is None and NO_PRIMARY_FIELD in (c.error or "") and s.primary_field \
                    and isinstance(c.raw_args, str) and c.raw_args.lstrip().startswith(("```", "~~~")):
                # a code block holding no JSON, to a tool with one field: the schema names the field,
                # but not whether it takes the block or the code in it
                out.append(replace(c, error=(
                    f"the arguments of {c.name!r} are a code block, not JSON: whether its field "
                    f"{s.primary_field!r} takes the block or the code in it is a guess")))
                continue
            out.append(c)
            continue
        if c.name not in compiled:
            out.append(replace(c, args=None, ok=False, error=(
                f"the model called {c.name!r}, which is not among the tools given ({known.known()})")))
            continue
        s = compiled[c.name]
        if s is None:  # a tool known by name only (a provider's server tool)
            out.append(c)
            continue
        if _wrapped_by_name(c):
            r = recover_with_schema(c.raw_args, c.name, s)
        else:
            r = _check_value(c.args, s)
        if r.ok:
            out.append(replace(c, args=r.value,
                               fixes=c.fixes + tuple(f for f in r.fixes if f.code == "schema")))
        else:
            out.append(replace(c, args=None, ok=False, problems=tuple(r.problems),
                               error=f"the arguments of {c.name!r} do not fit its schema: "
                                     + "; ".join(str(p) for p in r.problems) if r.problems
                               else f"the arguments of {c.name!r}: {r.error}"))
    return out


def unwrap_response(tools: Any) -> Any:
    """The ``result`` of the JSON-RPC response of an MCP ``tools/list``; other
    tool definitions as they are."""
    if isinstance(tools, dict) and "tools" not in tools and isinstance(tools.get("result"), dict):
        return tools["result"]
    return tools


def _wrapped_by_name(c: ToolCall) -> bool:
    """Whether the call's arguments are its bare text wrapped by the tool-name
    table (step 6 without a schema): then the schema's one property decides."""
    from ._strategies import normalize_tool_args

    if not isinstance(c.raw_args, str) or not _bare(c.raw_args):
        return False
    r = normalize_tool_args(c.raw_args, c.name)
    return r.ok and r.strategy == "wrap_plain" and r.value == c.args


def _check_value(value: Any, s: Schema) -> SchemaRecovered:
    """An already parsed value checked against ``s`` (as check_recovered)."""
    checked = s.check(value)
    return SchemaRecovered("", checked.ok, None, checked.value if checked.ok else None, checked.error,
                           checked.fixes, checked.problems, None if checked.ok else checked.value)


# -- recovery, then the check ----------------------------------------------------------------------

_FLAG = re.compile(r"(?:^|\s)--?([A-Za-z][\w-]*)")


def _bare(text: str) -> bool:
    s = text.strip()
    return bool(s) and s[0] not in "{[" and not s.startswith(("```", "~~~"))


def recover_with_schema(raw: Any, tool: str | None, schema: Any, *, quotes: str = "structural",
                        fill_defaults: bool = False) -> SchemaRecovered:
    """``normalize_tool_args(raw, tool, schema=schema)``: recovery (a bare
    value wrapped into the schema's one property before the tool-name table
    is tried), then :meth:`Schema.check`."""
    from ._strategies import json_text, normalize_tool_args

    compiled = Schema(schema)
    field = compiled.primary_field if compiled._wants_object else None
    text = raw if isinstance(raw, str) else None
    if isinstance(raw, (bytes, bytearray, memoryview)):
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            text = None
    wrapped = None
    if field is not None and text is not None and _bare(text):
        wrapped = _wrap_bare(text, field, compiled, quotes)
    if wrapped is not None:
        if isinstance(wrapped, SchemaRecovered):
            return wrapped
        r, value, fixes = wrapped
        strategy: str | None = "wrap_plain"
    else:
        r = normalize_tool_args(raw, tool, quotes=quotes)
        if r.ok and r.strategy == "wrap_plain" and compiled.top_properties and isinstance(r.value, dict) \
                and not set(r.value) <= compiled.top_properties:
            # the tool-name table's field for a bare value, which the schema does not have: the
            # schema cannot say which of its parameters the value is
            named = ", ".join(map(repr, sorted(compiled.top_properties)[:6]))
            return SchemaRecovered(r.text, False, None, None,
                                   f"a bare value for {tool!r}, whose schema has {named}: which one it is "
                                   "cannot be told", [], [], r.value)
        return check_recovered(objects_array_reading(text, r, compiled) or r, compiled,
                               fill_defaults, text)
    checked = compiled.check(value, fill_defaults=fill_defaults)
    fixes += checked.fixes
    if not checked.ok:
        return SchemaRecovered(text.strip() if text is not None else r.text, False, strategy, None,
                               "the arguments do not fit the tool's schema: " + (checked.error or ""),
                               fixes, checked.problems, checked.value)
    return SchemaRecovered(json_text(checked.value), True, strategy, checked.value, None, fixes, [])


# ``["a": 1]``: a key (quoted or bare) and its colon right after an array's opening bracket.
_KEY_IN_ARRAY = re.compile(r"""\s*\[\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[\w$@.\-]+)\s*:""")


def objects_array_reading(text: Any, r: Recovered, compiled: Schema) -> Recovered | None:
    """``["a": 1]`` was refused (a key inside an array): the braces of an
    object may be missing (``[{"a": 1}]``) or the brackets written for braces
    (``{"a": 1}``), two readings the schema may tell apart. The array's one
    member is read as an object when that fits the schema and the object
    alone does not; else None (the refusal stands). Several members stay
    refused: one object or several is a third reading."""
    from ._strategies import normalize_tool_args

    if r.ok or r.cut is not None or not isinstance(text, str) \
            or "a key inside an array" not in (r.error or ""):
        return None
    if _KEY_IN_ARRAY.match(text) is None:
        return None
    at = text.index("[")
    braced = normalize_tool_args(text[:at + 1] + "{" + text[at + 1:])
    value = braced.value
    if not braced.ok or type(value) is not list or len(value) != 1 or type(value[0]) is not dict \
            or len(value[0]) != 1:
        return None
    alone = compiled.check(value[0])
    if not compiled.check(value).ok or (alone.ok and not alone.fixes):  # (not coerced into a list)
        return None
    fixes = [Fix("schema", at, "braces added around the member in the array: the schema wants an "
                               "array of objects, and the object alone does not fit")]
    fixes += [Fix(f.code, f.offset - 1 if f.offset > at else f.offset, f.message) for f in braced.fixes]
    return Recovered(braced.text, True, "repair", value, None, fixes, text)


def check_recovered(r: Recovered, compiled: Schema, fill_defaults: bool = False,
                    text: str | None = None) -> SchemaRecovered:
    """A recovery's result checked against ``compiled``: not ok (and the
    value None, the ``candidate`` kept) when it does not fit; the text
    rewritten when a coercion changed the value. ``text``: the input."""
    from ._strategies import json_text

    if not r.ok:
        return SchemaRecovered(r.text, False, r.strategy, None, r.error, r.fixes, [])
    checked = compiled.check(r.value, fill_defaults=fill_defaults)
    fixes = list(r.fixes) + checked.fixes
    if not checked.ok:
        original = text.strip() if text is not None else r.text
        return SchemaRecovered(original, False, r.strategy, None,
                               "the arguments do not fit the tool's schema: " + (checked.error or ""),
                               fixes, checked.problems, checked.value)
    if checked.value is r.value:
        return SchemaRecovered(r.text, True, r.strategy, r.value, None, fixes, [])
    return SchemaRecovered(json_text(checked.value), True, r.strategy, checked.value, None, fixes, [])


def _wrap_bare(text: str, field: str, compiled: Schema, quotes: str
               ) -> tuple[Recovered, Any, list[Fix]] | SchemaRecovered | None:
    """Step 6 with a schema: the bare value as ``{field: value}`` (a JSON
    string by its content, a number or boolean as it is, other text as the
    model wrote it); None when the text is JSON null (left to the check);
    a refusal when the text names the schema's properties as ``--flags``."""
    from ._strategies import bare_key_of, normalize_tool_args

    r = normalize_tool_args(text, None, quotes=quotes)
    original = text.strip()
    if r.ok and r.value is None:
        return None
    if r.ok and isinstance(r.value, str) and r.value.strip().startswith("{"):
        inner = recover_with_schema(r.value.strip(), None, compiled, quotes=quotes)
        if inner.ok:  # a JSON string holding the object: double encoded
            return SchemaRecovered(inner.text, True, "double_encoded", inner.value, None,
                                   inner.fixes, [])
    if r.ok and not isinstance(r.value, (dict, list)):
        bare: Any = r.value
    else:
        bare = original
    if isinstance(bare, str):
        key = bare_key_of(bare)
        if key is not None and _fold(key) in {_fold(p) for p in compiled._root.props}:
            return SchemaRecovered(original, False, None, None,
                                   f"the bare text opens with {key!r} and a colon ({original[:60]!r}), as "
                                   "the tool's arguments do without their object's '{': where the object "
                                   "begins is a guess", [], [])
        flags = {_fold(m.group(1)) for m in _FLAG.finditer(bare)}
        if flags & {_fold(p) for p in compiled._root.props}:
            return SchemaRecovered(original, False, None, None,
                                   f"the bare text names the tool's parameters as flags "
                                   f"({original[:60]!r}): CLI arguments, left for the tool's "
                                   "argument parser", [], [])
    lead = len(text) - len(text.lstrip())
    only = "only required" if compiled._root.required else "only"
    fix = Fix("schema", lead, f"$: the bare value wrapped into `{field}`, the schema's {only} "
                              "property")
    return r, {field: bare}, [fix]


def schema_loads(raw: Any, tool: str | None, schema: Any, fill_defaults: bool = False) -> Any:
    """``loads(raw, tool, schema=schema)``: the checked value, or RecoveryError."""
    result = recover_with_schema(raw, tool, schema, fill_defaults=fill_defaults)
    if not result.ok:
        raise RecoveryError(f"could not recover the tool-call arguments: {result.error}",
                            result.text)
    return result.value
