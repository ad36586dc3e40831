"""The query language of ``@json query``: conditions on the rows of an array.

    where   field=value  field!=value  field~regex  field!~regex
            field<value  field<=value  field>value  field>=value
            joined by &&
    select  dotted fields to keep from each row

Conditions are tested on the document's text: a row's field is looked up by
the scanner, and only the rows that match are turned into Python values.
Numbers compare as decimals (``1.10`` equals ``1.1``); strings compare after
decoding; a regex is ``regex``'s, and all the matches of one query together
get ``REGEX_BUDGET`` seconds (catastrophic backtracking is refused, not run
forever).
"""

from __future__ import annotations

import re
import time
from array import array
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Sequence

import regex  # type: ignore[import-untyped]

from .._kernels import jsonscan as _k
from ..errors import PathNotFound, QueryError
from ._document import Document, Matches, resolve, values
from ._exact import decode_string, load_span
from ._path import WILD, format_path, parse_path

__all__ = ["QueryResult", "Query", "QUERY_LIMIT", "REGEX_BUDGET"]

QUERY_LIMIT = 20
#: Rows whose field is looked up in one kernel call.
_CHUNK = 1 << 14
#: Time all regex matches of one query may take together, in seconds.
REGEX_BUDGET = 2.0


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
            raise QueryError("query: only && (and) joins conditions; run one query per "
                            "alternative instead of ||")
        else:
            buf.append(c)
        i += 1
    if quote:
        raise QueryError(f"query: unterminated quote in where {where!r}")
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
        raise QueryError(f"query: condition {text!r} has no operator; write field=value, "
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
            raise QueryError(f"query: field {field_text!r} cannot hold *; a field names one value "
                             "in each row", field=field_text)
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
            raise QueryError(f"query: invalid regex {value!r}: {exc}") from None
    elif op in ("<", "<=", ">", ">=") and c.number is None and not value:
        raise QueryError(f"query: {op} needs a value in {text!r}")
    elif value[:1] in ("{", "["):
        try:
            c.json = _k.reformat(value, 0, len(value), 0, -1)[0] if not _k.scan(value)[1] else None
        except ValueError:  # pragma: no cover
            c.json = None
    return c


class Query:
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
                raise QueryError(f"query: select field {name!r} cannot hold *", field=name)
            self.select_segs.append(segs)
        if limit < 0:
            raise QueryError(f"query: limit must be at least 0, not {limit}")
        self.limit = limit
        self.regex_time = 0.0  # seconds spent in regex matching so far

    def rows(self) -> Matches:
        segs = parse_path(self.path) + (WILD,)
        try:
            return resolve(self.doc, segs)
        except PathNotFound as exc:
            if exc.reason != "not_container" or exc.segment != "*":
                raise
            target = format_path(parse_path(self.path))
            raise QueryError(f"query: {target} is not an array or object of rows: "
                             f"{exc.path} is {exc.found}") from None

    def run(self) -> QueryResult:
        rows = self.rows()
        doc = self.doc
        # the rows still in the running (None: all of them), each condition
        # tested a chunk of rows at a time: memory stays small next to the text
        alive: array[int] | None = None
        for cond in self.conds:
            if alive is not None and not alive:
                break
            test = self._tester(cond)
            kept = array("q")
            count = len(rows) if alive is None else len(alive)
            for first in range(0, count, _CHUNK):
                if alive is None:
                    spans = rows.spans[2 * first:2 * min(count, first + _CHUNK)]
                else:
                    spans = array("q")
                    for k in alive[first:first + _CHUNK]:
                        spans.append(rows.spans[2 * k])
                        spans.append(rows.spans[2 * k + 1])
                found = doc.lookup_many(spans, cond.field) if cond.field else spans
                for j in range(len(spans) // 2):
                    if test(found[2 * j], found[2 * j + 1]):
                        kept.append(first + j if alive is None else alive[first + j])
            alive = kept
        matched = len(rows) if alive is None else len(alive)
        shown = range(min(matched, self.limit)) if alive is None else alive[:self.limit]
        out_spans = array("q")
        for k in shown:
            out_spans.append(rows.spans[2 * k])
            out_spans.append(rows.spans[2 * k + 1])
        if self.select_segs:
            data = [self._selected(out_spans[2 * j], out_spans[2 * j + 1]) for j in range(len(shown))]
        else:
            data = values(self.doc, out_spans)
        return QueryResult(data, [rows.label(k) for k in shown], matched, len(rows),
                           self.limit, out_spans)

    def _selected(self, start: int, end: int) -> dict[str, Any]:
        row: dict[str, Any] = {}
        for name, segs in zip(self.select, self.select_segs, strict=True):
            s, e, failed = self.doc.lookup(start, segs)
            if failed == -1:
                row[name] = load_span(self.doc.text, s, e, None if self.doc.lossy else False)
        return row

    def _tester(self, cond: _Cond) -> Callable[[int, int], bool]:
        doc = self.doc
        op = cond.op
        raw_of = doc.slice

        if op in ("~", "!~"):
            pattern = cond.pattern
            negate = op == "!~"

            def test_regex(s: int, e: int) -> bool:
                if s < 0:
                    return negate
                c = doc.lead(s)
                if c == '"':
                    subject = decode_string(raw_of(s, e))
                elif c in "{[":
                    subject = _k.reformat(doc.text, s, e, 0, -1)[0]
                else:
                    subject = raw_of(s, e)
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
                return self._equals(cond, doc, s, e) != negate

            return test_eq

        def test_order(s: int, e: int) -> bool:
            if s < 0:
                return False
            c = doc.lead(s)
            if c == '"':
                left: Any = decode_string(raw_of(s, e))
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
    def _equals(cond: _Cond, doc: Document, s: int, e: int) -> bool:
        c = doc.lead(s)
        if c == '"':
            return decode_string(doc.slice(s, e)) == cond.value
        if c == "-" or c.isdigit():
            return cond.number is not None and Decimal(doc.slice(s, e)) == cond.number
        if c in "tfn":
            return doc.slice(s, e) == cond.value.strip().lower()
        if cond.json is None:
            return False
        return bool(_k.reformat(doc.text, s, e, 0, -1)[0] == cond.json)

    def _timeout(self, cond: _Cond) -> QueryError:
        return QueryError(f"query: the regex in {cond.text!r} took more than {REGEX_BUDGET:g} s "
                         "over the rows (catastrophic backtracking?); simplify it")


