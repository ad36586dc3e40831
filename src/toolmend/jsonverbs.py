"""``@json``: structured questions about JSON/YAML without dumping it whole.

Library functions, one per verb (``source`` is a :class:`Document`, or the
JSON/YAML text as ``str``/``bytes``; open files with :func:`load_file`)::

    get(source, path="")                      -> the value (a list when * fans out)
    keys(source, path="")                     -> [[key, summary], ...]
    query(source, path="", where="", select=None, limit=20) -> QueryResult
    schema(source, path="", depth=3)          -> schema dict
    validate(source)                          -> {valid, line, column, message, snippet, format}
    pretty(source, path="", compact=False)    -> text

and ``VERBS``, the tool entry ``run_tool("@json", {"cmd": VERB, "args": {...}})``
dispatches to: each returns ``ToolResult(ok, output, data)`` where ``output``
is at most :data:`OUTPUT_LIMIT` bytes, cut while it is produced, with a notice
that says what was left out and how to narrow the request.

Numbers are exact everywhere: output copies number tokens verbatim from the
document, and data holds them as ``int``, ``float`` or
:class:`~toolmend.exactjson.JSONNumber` (see there). Every verb is read-only
and keeps no state between calls, so calls can run in parallel threads.
"""

from __future__ import annotations

import re
import time
from array import array
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Mapping, Sequence, Union

import regex  # type: ignore[import-untyped]

from ._kernels import jsonscan as _k
from .errors import ToolError
from .exactjson import JSONNumber, JSONSyntaxError, NestingError, dumps, load_span
from .jsondoc import (
    FILE_LIMIT, Document, Matches, describe_value, from_value, load_file, parse_document,
    resolve, values,
)
from .jsonpath import WILD, format_path, format_segment, parse_path
from .jsonyaml import YAMLDocumentError
from .output import NOTICE_ROOM, CappedOutput
from .runner import ToolArgs, ToolResult
from .workspace import Workspace, decode_utf8, human_size

__all__ = [
    "VERBS", "OUTPUT_LIMIT", "Document", "JSONNumber", "QueryResult",
    "get", "keys", "query", "schema", "validate", "pretty",
    "load_file", "parse_document", "dumps",
]

#: Bytes an agent reads at most (notice included).
OUTPUT_LIMIT = 24_000
QUERY_LIMIT = 20
QUERY_LIMIT_MAX = 200
SCHEMA_DEPTH = 3
SCHEMA_DEPTH_MAX = 8
#: Elements looked at per array (evenly spread) and values visited per call.
SCHEMA_SAMPLE = 50
SCHEMA_BUDGET = 20_000
#: Objects with more keys than this are summarized as maps (sampled values).
SCHEMA_KEYS_MAX = 200
#: Entries ``keys`` returns as data at most.
KEYS_DATA_LIMIT = 10_000
#: Largest text ``pretty`` returns as data (output is capped regardless).
PRETTY_DATA_LIMIT = 64 * 1024 * 1024
#: Time all regex matches of one query may take together, in seconds.
REGEX_BUDGET = 2.0

Source = Union[Document, str, bytes, bytearray]


def _doc(source: Source, format: str = "auto") -> Document:
    if isinstance(source, Document):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = decode_utf8(bytes(source), "the text")
    if not isinstance(source, str):
        raise TypeError(f"source must be a Document, str or bytes, not {type(source).__name__}")
    return parse_document(source, format=format)


# ---------------------------------------------------------------------------
# Library functions


def get(source: Source, path: Any = "") -> Any:
    """The value at ``path``; with ``*`` in the path, the list of values.
    Raises PathNotFound (a ValueError) naming the failing segment."""
    doc = _doc(source)
    m = resolve(doc, path)
    vals = values(doc, m.spans)
    return vals if m.fanned else vals[0]


def _summary_pairs(doc: Document, pos: int, limit: int | None
                   ) -> tuple[list[list[Any]], int, list[int], array[int]]:
    """[[key, summary], ...] of the container at pos (duplicate keys: the
    last value at the first place), the distinct member count, the member
    index of each pair and the member spans."""
    text = doc.text
    names, spans = _k.members(text, pos)
    idx: list[int]
    if names is None:
        total = len(spans) // 2
        idx = list(range(total if limit is None else min(total, limit)))
        return [[i, describe_value(doc, spans[2 * i])] for i in idx], total, idx, spans
    where: dict[str, int] = {}
    for i, name in enumerate(names):
        where[name] = i  # last one wins, first place kept
    pairs: list[list[Any]] = []
    idx = []
    for name, i in where.items():
        if limit is not None and len(pairs) >= limit:
            break
        pairs.append([name, describe_value(doc, spans[2 * i])])
        idx.append(i)
    return pairs, len(where), idx, spans


def keys(source: Source, path: Any = "") -> list[list[Any]]:
    """``[[key, summary], ...]`` one level below ``path``: keys of an object
    (indexes of an array) with ``object{n}``, ``array[n]``, ``string(len)``,
    number, bool or null."""
    doc = _doc(source)
    m = _single(doc, path, "keys")
    start = m.spans[0]
    if doc.text[start] not in "{[":
        raise ToolError(f"keys: {m.label(0)} is {describe_value(doc, start)}, which has no keys")
    return _summary_pairs(doc, start, None)[0]


def _single(doc: Document, path: Any, verb: str) -> Matches:
    m = resolve(doc, path)
    if m.fanned:
        raise ToolError(f"{verb} needs a path to one value; {format_path(parse_path(path))!r} "
                        f"holds * and matched {len(m):,} values (use get for those)")
    return m


@dataclass
class QueryResult:
    """Rows of a query: ``rows`` (at most ``limit``, select applied),
    ``paths`` their concrete paths, ``matched`` how many rows matched in all,
    ``total`` how many rows were searched."""

    rows: list[Any]
    paths: list[str]
    matched: int
    total: int
    limit: int
    spans: array[int] = field(default_factory=lambda: array("q"), repr=False)


def query(source: Source, path: Any = "", where: str = "", select: Sequence[str] | None = None,
          limit: int = QUERY_LIMIT) -> QueryResult:
    """Filter the elements of the array at ``path`` (or the values of an
    object) with ``where``: conditions ``field=value``, ``field!=value``,
    ``field~regex``, ``field!~regex``, ``field<value`` (also ``<=``, ``>``,
    ``>=``) joined by ``&&``; ``select`` keeps only some (dotted) fields.
    ``limit`` rows at most (any number here; the tool caps it at 200)."""
    doc = _doc(source)
    plan = _Query(doc, path, where, select, limit)
    return plan.run()


def schema(source: Source, path: Any = "", depth: int = SCHEMA_DEPTH) -> dict[str, Any]:
    """The inferred shape of the value at ``path`` (see :class:`_Schema`)."""
    doc = _doc(source)
    if not 1 <= depth <= SCHEMA_DEPTH_MAX:
        raise ToolError(f"schema: depth must be between 1 and {SCHEMA_DEPTH_MAX}, not {depth}")
    m = resolve(doc, path)
    return _Schema(doc, depth).run(m)


def validate(source: str | bytes | bytearray, format: str = "auto",
             name: str = "the text") -> dict[str, Any]:
    """``{valid, line, column, message, snippet, format}`` for the text:
    line and column are 1-based, the column in characters; ``snippet`` shows
    the line with a caret. Data after the end of the value is an error."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        try:
            source = decode_utf8(bytes(source), name)
        except ToolError as exc:
            return {"valid": False, "line": None, "column": None, "message": str(exc),
                    "snippet": None, "format": format}
    try:
        doc = parse_document(source, name=name, format=format)
    except JSONSyntaxError as exc:
        return {"valid": False, "line": exc.line, "column": exc.column,
                "message": exc.message, "snippet": exc.snippet, "format": "json"}
    except YAMLDocumentError as exc:
        return {"valid": False, "line": exc.line, "column": exc.column,
                "message": exc.message, "snippet": exc.snippet or None, "format": "yaml"}
    except NestingError as exc:
        return {"valid": False, "line": None, "column": None, "message": str(exc),
                "snippet": None, "format": format}
    return {"valid": True, "line": None, "column": None, "message": None, "snippet": None,
            "format": doc.format}


def pretty(source: Source, path: Any = "", compact: bool = False) -> str:
    """The value at ``path`` re-indented by 2 spaces (``compact``: no
    whitespace at all), key order and number text kept."""
    doc = _doc(source)
    m = _single(doc, path, "pretty")
    s, e = m.span(0)
    return _k.reformat(doc.text, s, e, 0 if compact else 2, -1)[0]


# ---------------------------------------------------------------------------
# query


_OPERATORS = ("!=", "!~", "==", ">=", "<=", "=", "~", ">", "<")
_NUMERIC = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def _split_where(where: str) -> list[str]:
    """Split on && outside quotes."""
    parts: list[str] = []
    buf: list[str] = []
    quote = ""
    i = 0
    while i < len(where):
        c = where[i]
        if quote:
            buf.append(c)
            if c == "\\" and i + 1 < len(where):
                buf.append(where[i + 1])
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
            buf.append(c)
        elif where.startswith("&&", i):
            parts.append("".join(buf))
            buf = []
            i += 2
            continue
        elif where.startswith("||", i):
            raise ToolError("query: only && (and) joins conditions; run one query per "
                            "alternative instead of ||")
        else:
            buf.append(c)
        i += 1
    if quote:
        raise ToolError(f"query: unterminated quote in where {where!r}")
    parts.append("".join(buf))
    return parts


def _find_operator(cond: str) -> tuple[int, str]:
    """Offset and text of the first operator outside quotes and brackets."""
    quote = ""
    depth = 0
    i = 0
    while i < len(cond):
        c = cond[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif depth == 0:
            for op in _OPERATORS:
                if cond.startswith(op, i):
                    return i, op
        i += 1
    return -1, ""


def _unquote(value: str) -> str:
    """Strip matching quotes; inside, only an escaped quote (\\" or \\')
    is unescaped, so regexes keep their backslashes."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        quote = value[0]
        return value[1:-1].replace("\\" + quote, quote)
    return value


@dataclass
class _Cond:
    text: str
    field: tuple[Any, ...]
    op: str
    value: str
    number: Decimal | None = None
    pattern: Any = None
    json: Any = None


def _parse_condition(cond: str) -> _Cond:
    text = cond.strip()
    pos, op = _find_operator(text)
    if pos < 0:
        raise ToolError(f"query: condition {text!r} has no operator; write field=value, "
                        "field!=value, field~regex (or !~, <, <=, >, >=)")
    field_text = text[:pos].strip()
    value = _unquote(text[pos + len(op):].strip())
    if op == "==":
        op = "="
    if field_text in ("", ".", "@", "$"):
        segs: tuple[Any, ...] = ()
    else:
        segs = parse_path(field_text)
        if WILD in segs:
            raise ToolError(f"query: field {field_text!r} cannot hold *; a field names one value "
                            "in each row")
    c = _Cond(text, segs, op, value)
    if _NUMERIC.fullmatch(value):
        try:
            c.number = Decimal(value)
        except InvalidOperation:  # pragma: no cover - the regex admits only numbers
            c.number = None
    if op in ("~", "!~"):
        try:
            c.pattern = regex.compile(value)
        except regex.error as exc:
            raise ToolError(f"query: invalid regex {value!r}: {exc}") from None
    elif op in ("<", "<=", ">", ">=") and c.number is None and not value:
        raise ToolError(f"query: {op} needs a value in {text!r}")
    elif value[:1] in ("{", "["):
        try:
            c.json = _k.reformat(value, 0, len(value), 0, -1)[0] if not _k.scan(value)[1] else None
        except ValueError:  # pragma: no cover
            c.json = None
    return c


def _decode_string(raw: str) -> str:
    if "\\" not in raw:
        return raw[1:-1]
    return load_span(raw)  # type: ignore[no-any-return]


class _Query:
    def __init__(self, doc: Document, path: Any, where: str, select: Sequence[str] | None,
                 limit: int) -> None:
        self.doc = doc
        self.path = path
        self.where = where or ""
        self.conds = [_parse_condition(c) for c in _split_where(self.where)] if self.where.strip() else []
        self.select = list(select) if select else []
        self.select_segs = []
        for name in self.select:
            segs = parse_path(name)
            if WILD in segs:
                raise ToolError(f"query: select field {name!r} cannot hold *")
            self.select_segs.append(segs)
        if limit < 0:
            raise ToolError(f"query: limit must be at least 0, not {limit}")
        self.limit = limit
        self.regex_time = 0.0  # seconds spent in regex matching so far

    def rows(self) -> Matches:
        segs = parse_path(self.path) + (WILD,)
        try:
            return resolve(self.doc, segs)
        except ToolError as exc:
            msg = str(exc)
            if "* needs an object or array" in msg:
                target = format_path(parse_path(self.path))
                raise ToolError(f"query: {target} is not an array or object of rows: "
                                f"{msg.split(' but ', 1)[-1]}") from None
            raise

    def run(self) -> QueryResult:
        rows = self.rows()
        text = self.doc.text
        alive = list(range(len(rows)))
        for cond in self.conds:
            if not alive:
                break
            spans = array("q")
            for k in alive:
                spans.append(rows.spans[2 * k])
                spans.append(rows.spans[2 * k + 1])
            found = _k.lookup_many(text, spans, cond.field) if cond.field else spans
            test = self._tester(cond)
            alive = [k for j, k in enumerate(alive) if test(found[2 * j], found[2 * j + 1])]
        shown = alive[:self.limit]
        out_spans = array("q")
        for k in shown:
            out_spans.append(rows.spans[2 * k])
            out_spans.append(rows.spans[2 * k + 1])
        if self.select_segs:
            data = [self._selected(out_spans[2 * j], out_spans[2 * j + 1]) for j in range(len(shown))]
        else:
            data = values(self.doc, out_spans)
        return QueryResult(data, [rows.label(k) for k in shown], len(alive), len(rows),
                           self.limit, out_spans)

    def _selected(self, start: int, end: int) -> dict[str, Any]:
        row: dict[str, Any] = {}
        for name, segs in zip(self.select, self.select_segs):
            s, e, failed = _k.lookup(self.doc.text, start, segs)
            if failed == -1:
                row[name] = load_span(self.doc.text, s, e, None if self.doc.lossy else False)
        return row

    def _tester(self, cond: _Cond) -> Callable[[int, int], bool]:
        text = self.doc.text
        op = cond.op

        def raw_of(s: int, e: int) -> str:
            return text[s:e]

        if op in ("~", "!~"):
            pattern = cond.pattern
            negate = op == "!~"

            def test_regex(s: int, e: int) -> bool:
                if s < 0:
                    return negate
                c = text[s]
                if c == '"':
                    subject = _decode_string(text[s:e])
                elif c in "{[":
                    subject = _k.reformat(text, s, e, 0, -1)[0]
                else:
                    subject = text[s:e]
                remaining = REGEX_BUDGET - self.regex_time
                if remaining <= 0:
                    raise self._timeout(cond)
                began = time.monotonic()
                try:
                    hit = pattern.search(subject, timeout=remaining) is not None
                except TimeoutError:
                    raise self._timeout(cond) from None
                finally:
                    self.regex_time += time.monotonic() - began
                return hit != negate

            return test_regex

        if op in ("=", "!="):
            negate = op == "!="

            def test_eq(s: int, e: int) -> bool:
                if s < 0:
                    return negate
                return self._equals(cond, text, s, e) != negate

            return test_eq

        def test_order(s: int, e: int) -> bool:
            if s < 0:
                return False
            c = text[s]
            if c == '"':
                left: Any = _decode_string(raw_of(s, e))
                right: Any = cond.value
            elif (c == "-" or c.isdigit()) and cond.number is not None:
                left = Decimal(raw_of(s, e))
                right = cond.number
            else:
                return False
            if op == "<":
                return bool(left < right)
            if op == "<=":
                return bool(left <= right)
            if op == ">":
                return bool(left > right)
            return bool(left >= right)

        return test_order

    @staticmethod
    def _equals(cond: _Cond, text: str, s: int, e: int) -> bool:
        c = text[s]
        if c == '"':
            return _decode_string(text[s:e]) == cond.value
        if c == "-" or c.isdigit():
            return cond.number is not None and Decimal(text[s:e]) == cond.number
        if c in "tfn":
            return text[s:e] == cond.value.strip().lower()
        if cond.json is None:
            return False
        return bool(_k.reformat(text, s, e, 0, -1)[0] == cond.json)

    def _timeout(self, cond: _Cond) -> ToolError:
        return ToolError(f"query: the regex in {cond.text!r} took more than {REGEX_BUDGET:g} s "
                         "over the rows (catastrophic backtracking?); simplify it")


# ---------------------------------------------------------------------------
# schema


class _Var:
    """One type seen at a schema position."""

    __slots__ = ("kind", "count", "keys", "key_order", "more_keys", "sizes", "items", "sampled",
                 "example", "map_values", "cut")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.count = 0
        self.keys: dict[str, _SNode] = {}
        self.more_keys: set[str] = set()
        self.sizes: list[int] = []  # [min, max]
        self.items: _SNode | None = None
        self.sampled = 0
        self.example: Any = None
        self.map_values: _SNode | None = None
        self.cut = False  # keys not listed: depth limit


class _SNode:
    __slots__ = ("count", "variants")

    def __init__(self) -> None:
        self.count = 0
        self.variants: dict[str, _Var] = {}


def _sample_indexes(n: int, k: int) -> list[int]:
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


class _Schema:
    """Breadth-first over the value: each array (and map-like object)
    contributes up to SCHEMA_SAMPLE evenly spread elements, each object its
    keys down to ``depth`` object levels (stepping into array elements does
    not count as a level), and at most SCHEMA_BUDGET values are visited in
    all. A key's ``count`` against its object's ``count`` is how often it
    occurs among the sampled objects (47/50)."""

    def __init__(self, doc: Document, depth: int) -> None:
        self.doc = doc
        self.depth = depth
        self.visited = 0
        self.complete = True

    def run(self, m: Matches) -> dict[str, Any]:
        root = _SNode()
        queue: list[tuple[_SNode, int, int]] = [(root, s, 0) for s, _ in m]
        head = 0
        while head < len(queue):
            if self.visited >= SCHEMA_BUDGET:
                self.complete = False
                break
            node, pos, level = queue[head]
            head += 1
            self._visit(node, pos, level, queue)
        out = self._export(root)
        out["sampling"] = {"visited": self.visited, "complete": self.complete,
                           "sample_per_array": SCHEMA_SAMPLE, "depth": self.depth}
        if m.fanned:
            out["sampling"]["values"] = len(m)
        return out

    def _visit(self, node: _SNode, pos: int, level: int,
               queue: list[tuple[_SNode, int, int]]) -> None:
        text = self.doc.text
        self.visited += 1
        c = text[pos]
        kind = ("object" if c == "{" else "array" if c == "[" else "string" if c == '"'
                else "bool" if c in "tf" else "null" if c == "n" else "number")
        var = node.variants.get(kind)
        if var is None:
            var = node.variants[kind] = _Var(kind)
        var.count += 1
        node.count += 1
        if kind == "object":
            names, spans = _k.members(text, pos)
            unique: dict[str, int] = {}
            for i, name in enumerate(names or ()):
                unique[name] = i
            self._size(var, len(unique))
            if level >= self.depth:
                var.cut = var.cut or bool(unique)
                return
            if len(unique) > SCHEMA_KEYS_MAX:
                if var.map_values is None:
                    var.map_values = _SNode()
                idx = list(unique.values())
                for j in _sample_indexes(len(idx), SCHEMA_SAMPLE):
                    queue.append((var.map_values, spans[2 * idx[j]], level + 1))
                return
            for name, i in unique.items():
                child = var.keys.get(name)
                if child is None:
                    if len(var.keys) >= SCHEMA_KEYS_MAX:
                        if len(var.more_keys) < 100_000:
                            var.more_keys.add(name)
                        continue
                    child = var.keys[name] = _SNode()
                queue.append((child, spans[2 * i], level + 1))
        elif kind == "array":
            _, spans = _k.members(text, pos)
            n = len(spans) // 2
            self._size(var, n)
            if n:
                if var.items is None:
                    var.items = _SNode()
                picks = _sample_indexes(n, SCHEMA_SAMPLE)
                var.sampled += len(picks)
                for j in picks:
                    queue.append((var.items, spans[2 * j], level))
        elif kind in ("string", "number") and var.example is None:
            end = _k.value_end(text, pos)
            if kind == "string" and end - pos > 200:
                var.example = _decode_string(text[pos:end])[:60]
            else:
                var.example = load_span(text, pos, end, None if self.doc.lossy else False)

    @staticmethod
    def _size(var: _Var, n: int) -> None:
        if not var.sizes:
            var.sizes = [n, n]
        else:
            var.sizes[0] = min(var.sizes[0], n)
            var.sizes[1] = max(var.sizes[1], n)

    def _export(self, node: _SNode) -> dict[str, Any]:
        variants = sorted(node.variants.values(), key=lambda v: -v.count)
        if len(variants) == 1:
            return self._export_var(variants[0])
        return {"type": "mixed", "count": node.count,
                "variants": [self._export_var(v) for v in variants]}

    def _export_var(self, var: _Var) -> dict[str, Any]:
        out: dict[str, Any] = {"type": var.kind, "count": var.count}
        if var.kind == "object":
            out["size"] = list(var.sizes)
            if var.keys:
                out["keys"] = {name: self._export(child) for name, child in var.keys.items()}
            if var.more_keys:
                out["more_keys"] = len(var.more_keys)
            if var.map_values is not None:
                out["values"] = self._export(var.map_values)
            if var.cut:
                out["truncated"] = True
        elif var.kind == "array":
            out["length"] = list(var.sizes)
            out["sampled"] = var.sampled
            if var.items is not None and var.items.count:
                out["items"] = self._export(var.items)
        elif var.example is not None:
            out["example"] = var.example
        return out


def _type_text(node: Mapping[str, Any]) -> str:
    if node["type"] == "mixed":
        return "|".join(_type_text(v) for v in node["variants"])
    kind = node["type"]
    if kind == "object":
        lo, hi = node["size"]
        return f"object{{{lo}}}" if lo == hi else f"object{{{lo}..{hi}}}"
    if kind == "array":
        lo, hi = node["length"]
        return f"array[{lo}]" if lo == hi else f"array[{lo}..{hi}]"
    return str(kind)


def _example_text(value: Any) -> str:
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "..."
        return dumps(shown)
    return dumps(value)


def _render_schema(out: CappedOutput, node: Mapping[str, Any], label: str, indent: int,
                   of: int | None) -> bool:
    """Write one schema line per node, depth first; False once the output is full."""
    stack: list[tuple[Mapping[str, Any], str, int, int | None]] = [(node, label, indent, of)]
    while stack:
        node, label, indent, of = stack.pop()
        line = "  " * indent + (f"{label}: " if label else "") + _type_text(node)
        if of is not None and of > 1:
            line += f"  {node['count']}/{of}"
        variants = node["variants"] if node["type"] == "mixed" else [node]
        for var in variants:
            if var["type"] == "array" and var["length"][1] > var.get("sampled", 0):
                line += f" (sampled {var['sampled']})"
            if var["type"] == "object" and var.get("values") is not None:
                line += " (map: sampled values below)"
            if var["type"] == "object" and var.get("truncated"):
                line += " ..."
            if "example" in var:
                line += f"  e.g. {_example_text(var['example'])}"
        if not out.write(line + "\n"):
            return False
        children: list[tuple[Mapping[str, Any], str, int, int | None]] = []
        for var in variants:
            if var["type"] == "object":
                for name, child in var.get("keys", {}).items():
                    children.append((child, format_segment(name, True), indent + 1, var["count"]))
                if var.get("more_keys"):
                    children.append(({"type": "note", "count": 0,
                                      "text": f"... and {var['more_keys']:,} more keys"},
                                     "", indent + 1, None))
                if var.get("values") is not None:
                    children.append((var["values"], "[*]", indent + 1, var["count"]))
            elif var["type"] == "array" and "items" in var:
                children.append((var["items"], "[*]", indent + 1, None))
        for child in reversed(children):
            if child[0]["type"] == "note":
                if not out.write("  " * child[2] + child[0]["text"] + "\n"):
                    return False
                continue
            stack.append(child)
    return True


# ---------------------------------------------------------------------------
# The tool


_COMMON = {"file", "text", "format"}


def _tool_doc(args: ToolArgs, ws: Workspace) -> Document:
    has_file = args.has("file")
    has_text = "text" in args.raw and args.raw["text"] is not None
    fmt = args.text("format", "auto")
    if has_file and has_text:
        raise ToolError(f"@json {args.verb}: give either 'file' or 'text', not both")
    if has_file:
        return load_file(args.text("file", allow_empty=False), ws, format=fmt)
    if not has_text:
        raise ToolError(f"@json {args.verb} needs 'file' (a path inside the workspace) or "
                        "'text' (the JSON/YAML document itself)")
    raw = args.raw["text"]
    if isinstance(raw, (dict, list)):
        return from_value(raw)
    text = args.text("text")
    if len(text) > FILE_LIMIT // 4 and len(text.encode("utf-8", "surrogatepass")) > FILE_LIMIT:
        raise ToolError(f"@json {args.verb}: the text is larger than the limit of "
                        f"{FILE_LIMIT // (1024 * 1024)} MB")
    return parse_document(text, name="the text", format=fmt)


def _finish(out: CappedOutput, notice: str) -> str:
    """The output text: the notice when it was cut, no trailing newline."""
    text = out.getvalue(notice)
    return text if out.truncated else text.rstrip("\n")


def _room(out: CappedOutput) -> int:
    return out.limit - NOTICE_ROOM - out.size


def _write_json(out: CappedOutput, text: str, start: int, end: int, indent: int) -> bool:
    """Write the value at [start, end) re-indented; False once the output is full."""
    room = _room(out)
    if room <= 0:
        out.write(" ")
        return False
    piece, complete = _k.reformat(text, start, end, indent, room)
    out.write(piece)
    if not complete:
        out.truncated = True
    return complete and not out.full


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _path_arg(args: ToolArgs) -> str:
    value = args.raw.get("path")
    if isinstance(value, list):
        return format_path(parse_path(value))
    path: str = args.text("path", "")
    return path


def _tool_get(args: ToolArgs, ws: Workspace) -> ToolResult:
    args.check_known(_COMMON | {"path"})
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    m = resolve(doc, path)
    data = values(doc, m.spans)
    out = CappedOutput(OUTPUT_LIMIT)
    text = doc.text
    shown_path = format_path(parse_path(path))
    if not m.fanned:
        s, e = m.span(0)
        _write_json(out, text, s, e, 2)
        notice = (f"[output cut at {OUTPUT_LIMIT:,} bytes: {shown_path} is "
                  f"{describe_value(doc, s)}, {human_size(e - s)} of JSON. Narrow it: a deeper path "
                  f"(keys lists what is below {shown_path}), query with select and limit, or "
                  "schema for its shape]")
        return ToolResult(True, _finish(out, notice), data[0])
    header = f"{_plural(len(m), 'value')} for {shown_path}"
    if m.skipped:
        header += f" ({_plural(m.skipped, 'branch')} skipped where the path did not apply)"
    out.write(header + "\n")
    shown = 0
    for k in range(len(m)):
        s, e = m.span(k)
        if not out.write(f"{m.label(k)}: "):
            break
        if not _write_json(out, text, s, e, 2) or not out.write("\n"):
            break
        shown += 1
    notice = (f"[output cut at {OUTPUT_LIMIT:,} bytes after {shown:,} of {len(m):,} values: "
              "narrow the path (an index or key instead of *, or a deeper path), or use query "
              "with where, select and limit]")
    return ToolResult(True, _finish(out, notice), data)


def _tool_keys(args: ToolArgs, ws: Workspace) -> ToolResult:
    args.check_known(_COMMON | {"path"})
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    m = _single(doc, path, "keys")
    start = m.spans[0]
    label = m.label(0)
    if doc.text[start] not in "{[":
        raise ToolError(f"keys: {label} is {describe_value(doc, start)}, which has no keys; "
                        "use get to read it")
    pairs, total, idx, spans = _summary_pairs(doc, start, KEYS_DATA_LIMIT)
    out = CappedOutput(OUTPUT_LIMIT)
    is_array = doc.text[start] == "["
    out.write(f"{label}: {describe_value(doc, start)}\n")
    shown = 0
    for (key, summary), i in zip(pairs, idx):
        shown_key = f"[{key}]" if is_array else format_segment(key, True)
        line = f"  {shown_key}: {summary}{_scalar_preview(doc, spans[2 * i], spans[2 * i + 1])}\n"
        if not out.write(line):
            break
        shown += 1
    if total > len(pairs) and not out.full:
        out.write(f"  ... data holds the first {len(pairs):,} of {total:,}\n")
    noun = "elements" if is_array else "keys"
    notice = (f"[output cut at {OUTPUT_LIMIT:,} bytes after {shown:,} of {total:,} {noun}: "
              f"use a deeper path, get {label}[N] for one element, or schema for the shape]")
    return ToolResult(True, _finish(out, notice), pairs)


def _scalar_preview(doc: Document, s: int, e: int, width: int = 60) -> str:
    c = doc.text[s]
    if c in "{[":
        return ""
    raw = doc.text[s:min(e, s + width + 1)]
    return " " + (raw if e - s <= width else raw[:width] + "...")


def _tool_query(args: ToolArgs, ws: Workspace) -> ToolResult:
    args.check_known(_COMMON | {"path", "where", "select", "limit"})
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    where = args.text("where", "")
    select = args.strings("select")
    asked = args.integer("limit", QUERY_LIMIT, minimum=0)
    limit = min(asked, QUERY_LIMIT_MAX)
    plan = _Query(doc, path, where, select, limit)
    result = plan.run()
    text = doc.text
    target = format_path(parse_path(path))
    out = CappedOutput(OUTPUT_LIMIT)
    cond = f" where {where.strip()}" if where.strip() else ""
    head = (f"{result.matched:,} of {_plural(result.total, 'row')} in {target} matched{cond}"
            f"; showing {len(result.rows):,}")
    if asked > QUERY_LIMIT_MAX:
        head += f" (limit {asked:,} is above the maximum of {QUERY_LIMIT_MAX}: capped)"
    elif result.matched > len(result.rows):
        head += f" (limit {limit}; raise it, up to {QUERY_LIMIT_MAX}, or narrow where)"
    out.write(head + "\n")
    shown = 0
    for j, label in enumerate(result.paths):
        s, e = result.spans[2 * j], result.spans[2 * j + 1]
        if not out.write(f"{label}: "):
            break
        if plan.select_segs:
            ok = _write_selected(out, text, s, plan)
        else:
            ok = _write_json(out, text, s, e, 0)
        if not ok or not out.write("\n"):
            break
        shown += 1
    notice = (f"[output cut at {OUTPUT_LIMIT:,} bytes after {shown:,} of {len(result.rows):,} "
              f"rows ({result.matched:,} matched): keep fewer fields with select, lower the limit, "
              "or narrow where]")
    return ToolResult(True, _finish(out, notice), result.rows)


def _write_selected(out: CappedOutput, text: str, start: int, plan: _Query) -> bool:
    parts = []
    for name, segs in zip(plan.select, plan.select_segs):
        s, e, failed = _k.lookup(text, start, segs)
        if failed == -1:
            parts.append((name, s, e))
    if not out.write("{"):
        return False
    for i, (name, s, e) in enumerate(parts):
        if not out.write(("," if i else "") + dumps(name) + ":"):
            return False
        if not _write_json(out, text, s, e, 0):
            return False
    return out.write("}")


def _tool_schema(args: ToolArgs, ws: Workspace) -> ToolResult:
    args.check_known(_COMMON | {"path", "depth"})
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    depth = args.integer("depth", SCHEMA_DEPTH, minimum=1, maximum=SCHEMA_DEPTH_MAX)
    m = resolve(doc, path)
    result = _Schema(doc, depth).run(m)
    out = CappedOutput(OUTPUT_LIMIT)
    target = format_path(parse_path(path))
    sampling = result["sampling"]
    head = f"schema of {target}"
    if m.fanned:
        head += f" ({_plural(len(m), 'value')} merged)"
    head += f" (depth {depth}"
    if doc.format == "yaml":
        head += ", YAML"
    head += ")"
    if not sampling["complete"]:
        head += (f"; sampling stopped after {SCHEMA_BUDGET:,} values: ask for a deeper path "
                 "for the rest")
    out.write(head + "\n")
    _render_schema(out, result, "", 0, None)
    notice = (f"[output cut at {OUTPUT_LIMIT:,} bytes: ask for the schema of a deeper path, "
              "or a smaller depth]")
    return ToolResult(True, _finish(out, notice), result)


def _tool_validate(args: ToolArgs, ws: Workspace) -> ToolResult:
    args.check_known(_COMMON)
    fmt = args.text("format", "auto")
    has_file = args.has("file")
    if has_file and "text" in args.raw and args.raw["text"] is not None:
        raise ToolError("@json validate: give either 'file' or 'text', not both")
    if has_file:
        path = args.text("file", allow_empty=False)
        raw = ws.read_bytes(path, FILE_LIMIT, what="file")
        name = f"file {path!r}"
        if fmt.strip().lower() == "auto" and path.lower().endswith((".yaml", ".yml")):
            fmt = "yaml"
        result = validate(raw, fmt, name)
    elif "text" in args.raw and args.raw["text"] is not None:
        if isinstance(args.raw["text"], (dict, list)):
            raise ToolError("@json validate: 'text' must be the document as a string; an object "
                            "was sent, which is already parsed")
        text = args.text("text")
        name = "the text"
        result = validate(text, fmt, name)
    else:
        raise ToolError("@json validate needs 'file' (a path inside the workspace) or 'text'")
    kind = "YAML" if result["format"] == "yaml" else "JSON"
    if result["valid"]:
        output = f"valid {kind}" + (" (the text is not JSON; it is read as YAML)"
                                    if kind == "YAML" and fmt == "auto" and not has_file else "")
    elif result["line"] is not None:
        output = (f"invalid {kind}: {result['message']} at line {result['line']}, column "
                  f"{result['column']}\n{result['snippet']}")
    else:
        output = f"invalid {kind}: {result['message']}"
    out = CappedOutput(OUTPUT_LIMIT)
    out.write(output)
    return ToolResult(True, out.getvalue("[cut]"), result)


def _tool_pretty(args: ToolArgs, ws: Workspace) -> ToolResult:
    args.check_known(_COMMON | {"path", "compact"})
    doc = _tool_doc(args, ws)
    path = _path_arg(args)
    compact = args.flag("compact", False)
    m = _single(doc, path, "pretty")
    s, e = m.span(0)
    full, complete = _k.reformat(doc.text, s, e, 0 if compact else 2, PRETTY_DATA_LIMIT)
    out = CappedOutput(OUTPUT_LIMIT)
    out.write(full)
    data = full if complete else None
    notice = (f"[output cut at {OUTPUT_LIMIT:,} bytes of {human_size(len(full)) if complete else 'more than 64 MB'}"
              f"{'' if complete else ' (too large to return as data)'}: pretty a deeper path, "
              "or use get/keys/query to read parts]")
    if not complete and not out.full:
        out.truncated = True
    return ToolResult(True, _finish(out, notice), data)


VERBS: dict[str, Callable[[ToolArgs, Workspace], ToolResult]] = {
    "get": _tool_get,
    "keys": _tool_keys,
    "query": _tool_query,
    "schema": _tool_schema,
    "validate": _tool_validate,
    "pretty": _tool_pretty,
}
