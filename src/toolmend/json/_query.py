"""The query language of ``@json query``: conditions on the rows of an array.

    where   field=value  field!=value  field~regex  field!~regex
            field<value  field<=value  field>value  field>=value
            joined by &&
    select  dotted fields to keep from each row

Conditions are tested on the document's text: a row's field is looked up by
the scanner, and only the rows that match are turned into Python values.
Numbers compare as decimals (``1.10`` equals ``1.1``); strings compare after
decoding; a regex is ``regex``'s, and all the matches of one query together
get ``REGEX_BUDGET`` seconds of CPU time (catastrophic backtracking is
refused, not run forever).
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Iterator, Sequence

from .._kernels import jsonscan as _k
from .._regex import REGEX_STEPS_MAX, CpuBudget, RegexRefused, RegexTimeout, compile_bounded
from ..errors import PathNotFound, QueryError
from ._document import Document, Matches, nearest_keys, resolve, values
from ._duplicates import unique_members
from ._exact import decode_string, load_span
from ._path import WILD, Slice, format_path, is_fan_out, parse_path

__all__ = ["QueryResult", "Query", "QUERY_LIMIT", "REGEX_BUDGET", "REGEX_STEPS_MAX"]

QUERY_LIMIT = 20
def _refusal(value: str, why: str) -> str:
    """The words of a refused query regex (an invalid one is "invalid regex P: ...")."""
    if why.startswith("is invalid: "):
        return f"invalid regex {_short(value)}: {why[len('is invalid: '):]}"
    if why.startswith("turns on verbose"):
        why = "turns on verbose mode ((?x)), which query does not take: write the pattern without it"
    return f"the regex {_short(value)} {why}"


def _short(text: str) -> str:
    """``text`` quoted for a message, shortened in the middle when long."""
    return repr(text) if len(text) <= 200 else f"{text[:120]!r}...{text[-40:]!r}"


#: CPU time all regex matches of one query may take together, in seconds (of
#: the calling thread: a loaded machine does not make a query fail).
REGEX_BUDGET = 2.0
#: Rows whose field is looked up in one kernel call.
_CHUNK = 1 << 14


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
    offset: int = 0
    #: Notes about the query (a selected field no row has).
    notes: list[str] = field(default_factory=list)


_OPERATORS = ("!=", "!~", "==", ">=", "<=", "=", "~", ">", "<")
# " and ", " or " (any case) or a comma in an unquoted value: another condition?
_WORDS = re.compile(r"\s(and|or)\s", re.IGNORECASE)
_JOINERS = re.compile(r"\s(and|or)\s|\s*,\s*", re.IGNORECASE)
#: Rows whose field types a note looks at.
_KINDS_SAMPLE = 1000
_NUMERIC = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def _quoted_end(text: str, i: int) -> int:
    """Past the quoted string at ``i`` (a backslash escapes the next
    character); -1 when it is not closed."""
    quote = text[i]
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        j += 1
    return -1


def _split_where(where: str) -> list[list[str]]:
    """The conditions of ``where`` as alternatives (``||``) of conjunctions
    (``&&``, which binds tighter), split outside quotes."""
    alternatives: list[list[str]] = [[]]
    start = i = 0
    while i < len(where):
        if where[i] in "\"'":
            i = _quoted_end(where, i)
            if i < 0:
                raise QueryError(f"query: unterminated quote in where {where!r}")
            continue
        if where.startswith(("&&", "||"), i):
            alternatives[-1].append(where[start:i])
            if where.startswith("||", i):
                alternatives.append([])
            i += 2
            start = i
            continue
        i += 1
    alternatives[-1].append(where[start:])
    for conds in alternatives:
        for cond in conds:
            if not cond.strip():
                raise QueryError(f"query: an empty condition in where {where!r} (&& or || with "
                                 "nothing on one side)")
    return alternatives


def _find_operator(cond: str) -> tuple[int, str]:
    """Offset and text of the first operator outside quotes and brackets."""
    depth = 0
    i = 0
    while i < len(cond):
        c = cond[i]
        if c in "\"'":
            i = _quoted_end(cond, i)
            if i < 0:
                break
            continue
        if c == "[":
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
    name: str = "."
    number: Decimal | None = None
    pattern: Any = None
    json: Any = None
    quoted: bool = False
    #: rows tested and kept by this condition (for the notes of an idle one)
    tested: int = 0
    kept: int = 0


def _parse_condition(cond: str) -> _Cond:
    text = cond.strip()
    pos, op = _find_operator(text)
    if pos < 0:
        raise QueryError(f"query: condition {text!r} has no operator; write field=value, "
                        "field!=value, field~regex (or !~, <, <=, >, >=)")
    field_text = text[:pos].strip()
    written = text[pos + len(op):].strip()
    value = _unquote(written)
    if op == "==":
        op = "="
    if field_text in ("", ".", "@", "$"):
        segs: tuple[Any, ...] = ()
    else:
        segs = parse_path(field_text)
    c = _Cond(text, segs, op, value, name=field_text or ".", quoted=value != written)
    if _NUMERIC.fullmatch(value):
        try:
            c.number = Decimal(value)
        except InvalidOperation:  # pragma: no cover - the regex admits only numbers
            c.number = None
    if op in ("~", "!~"):
        try:
            c.pattern = compile_bounded(value)
        except RegexRefused as exc:
            raise QueryError(f"query: {_refusal(value, str(exc))}") from None
    elif op in ("<", "<=", ">", ">=") and c.number is None and not value:
        raise QueryError(f"query: {op} needs a value in {text!r}")
    elif value[:1] in ("{", "["):
        try:
            c.json = _k.reformat(value, 0, len(value), 0, -1)[0] if not _k.scan(value)[1] else None
        except ValueError:  # pragma: no cover
            c.json = None
    return c


class Query:
    """One query over the rows at ``path``: the plan is checked when made
    (conditions, select fields), then :meth:`run` walks the rows."""

    def __init__(self, doc: Document, path: Any, where: str, select: Sequence[str] | None,
                 limit: int, offset: int = 0, sort: str | None = None,
                 desc: bool = False) -> None:
        self.doc = doc
        self.path = path
        self.where = where or ""
        self.alternatives = ([[_parse_condition(c) for c in conj]
                              for conj in _split_where(self.where)] if self.where.strip() else [])
        self.select = list(select) if select else []
        self.select_segs = []
        for name in self.select:
            segs = parse_path(name)
            if any(is_fan_out(seg) for seg in segs):
                raise QueryError(f"query: select field {name!r} cannot hold * or a slice: a "
                                 "selected field is one value of each row", field=name)
            self.select_segs.append(segs)
        if limit < 0:
            raise QueryError(f"query: limit must be at least 0, not {limit}")
        if offset < 0:
            raise QueryError(f"query: offset must be at least 0, not {offset}")
        self.limit = limit
        self.offset = offset
        self.sort = sort.strip() if sort and sort.strip() else None
        self.sort_segs = parse_path(self.sort) if self.sort else ()
        if any(is_fan_out(seg) for seg in self.sort_segs):
            raise QueryError(f"query: sort field {sort!r} cannot hold * or a slice", field=sort)
        self.desc = desc
        self.regex_budget = CpuBudget(REGEX_BUDGET)  # what the regex matches may take

    def rows(self) -> Matches:
        segs = parse_path(self.path) + (WILD,)
        try:
            return resolve(self.doc, segs)
        except PathNotFound as exc:
            if exc.reason != "not_container" or exc.segment != "[*]":
                raise
            target = format_path(parse_path(self.path))
            raise QueryError(f"query: {target} is not an array or object of rows: "
                             f"{exc.path} is {exc.found}") from None

    def run(self) -> QueryResult:
        rows = self.rows()
        count = len(rows)
        alive: Sequence[int]
        if self.alternatives:
            # a row matches when one alternative does; each alternative only
            # tests the rows no earlier one took (a byte a row, not a set)
            if len(self.alternatives) == 1:
                alive = self._conjunction(rows, range(count), self.alternatives[0])
            else:
                taken = bytearray(count)
                for n, conj in enumerate(self.alternatives):
                    left = self._conjunction(rows, range(count) if n == 0 else array(
                        "q", (k for k in range(count) if not taken[k])), conj)
                    for k in left:
                        taken[k] = 1
                alive = array("q", (k for k in range(count) if taken[k]))
            if not alive:
                self._check_fields(rows)
        else:
            alive = range(count)
        notes: list[str] = list(rows.notes)
        for conj in self.alternatives:
            for cond in conj:
                notes.extend(self._condition_notes(rows, cond))
        if self.sort_segs:
            if len(rows) and not self._present(rows, self.sort_segs):
                raise QueryError(f"query: no row of {len(rows):,} has the sort field "
                                 f"{self.sort!r}, so the rows cannot be sorted by it"
                                 + self._hint(rows, self.sort_segs), field=self.sort)
            alive = self._sorted(rows, alive)
        shown = alive[self.offset:self.offset + self.limit]
        out_spans = array("q")
        for k in shown:
            out_spans.append(rows.spans[2 * k])
            out_spans.append(rows.spans[2 * k + 1])
        if self.select_segs:
            data = [self._selected(out_spans[2 * j], out_spans[2 * j + 1]) for j in range(len(shown))]
        else:
            data = values(self.doc, out_spans)
        result = QueryResult(data, [rows.label(k) for k in shown], len(alive), count,
                             self.limit, out_spans, offset=self.offset, notes=notes)
        if self.select_segs and data:
            for name in self.select:
                if not any(name in row for row in data):
                    result.notes.append(f"note: select: no row shown has the field {name!r}"
                                        + self._hint(rows, parse_path(name)))
        return result

    # -- conditions ------------------------------------------------------------

    def _conjunction(self, rows: Matches, alive: Sequence[int], conj: list[_Cond]) -> Sequence[int]:
        """The rows of ``alive`` that meet every condition of ``conj`` (the
        first condition walks a range: no array of every row is made)."""
        for cond in conj:
            if not alive:
                break
            alive = self._filter(rows, alive, cond)
        return alive

    @staticmethod
    def _spans_of(rows: Matches, picked: Sequence[int]) -> array[int]:
        spans = array("q")
        for k in picked:
            spans.append(rows.spans[2 * k])
            spans.append(rows.spans[2 * k + 1])
        return spans

    def _found(self, rows: Matches, picked: Sequence[int], segs: tuple[Any, ...]
               ) -> Iterator[tuple[int, int, int]]:
        """``(row, start, end)`` of the field ``segs`` in each picked row
        (start -1 where it is missing), a chunk of rows at a time."""
        doc = self.doc
        for first in range(0, len(picked), _CHUNK):
            chunk = picked[first:first + _CHUNK]
            spans = self._spans_of(rows, chunk)
            found = doc.lookup_many(spans, segs) if segs else spans
            for j, k in enumerate(chunk):
                yield k, found[2 * j], found[2 * j + 1]

    def _filter(self, rows: Matches, alive: Sequence[int], cond: _Cond) -> array[int]:
        kept = self._filter_rows(rows, alive, cond)
        cond.tested += len(alive)
        cond.kept += len(kept)
        return kept

    def _filter_rows(self, rows: Matches, alive: Sequence[int], cond: _Cond) -> array[int]:
        kept = array("q")
        if any(is_fan_out(seg) for seg in cond.field):
            # labels[*].name=bug: true when any element matches (!=, !~: when none does)
            negated = cond.op in ("!=", "!~")
            positive = self._tester(replace(cond, op=cond.op[1:] if negated else cond.op))
            for k in alive:
                hit = any(positive(s, e) for s, e in self._field_values(rows.spans[2 * k],
                                                                         cond.field))
                if hit != negated:
                    kept.append(k)
            return kept
        test = self._tester(cond)
        for k, s, e in self._found(rows, alive, cond.field):
            if test(s, e):
                kept.append(k)
        return kept

    def _field_values(self, start: int, segs: tuple[Any, ...]) -> list[tuple[int, int]]:
        """Spans of every value ``segs`` reaches from the row at ``start``."""
        doc = self.doc
        current = [start]
        run: list[Any] = []
        for seg in (*segs, None):
            if seg is not None and not is_fan_out(seg):
                run.append(seg)
                continue
            reached = []
            for pos in current:
                s, e, failed, _ = doc.lookup(pos, tuple(run)) if run else (pos, -1, -1, -1)
                if failed == -1:
                    reached.append((s, e))
            run = []
            if seg is None:
                return [(s, e if e >= 0 else doc.value_end(s)) for s, e in reached]
            current = []
            for s, _ in reached:
                lead = doc.lead(s)
                if lead not in "{[" or (isinstance(seg, Slice) and lead != "["):
                    continue
                _, members, _ = unique_members(doc, s)  # a key given twice: its last value
                count = len(members) // 2
                picks = seg.indexes(count) if isinstance(seg, Slice) else range(count)
                current.extend(members[2 * j] for j in picks)
        return []  # pragma: no cover - the loop returns at its sentinel

    def _present(self, rows: Matches, segs: tuple[Any, ...]) -> bool:
        if not segs:
            return True
        if any(is_fan_out(seg) for seg in segs):
            return any(self._field_values(rows.spans[2 * k], segs) for k in range(len(rows)))
        return any(s >= 0 for _, s, _ in self._found(rows, range(len(rows)), segs))

    def _condition_notes(self, rows: Matches, cond: _Cond) -> list[str]:
        """What may have gone wrong with a condition that had no effect (it
        kept no row, or, negated, dropped none): a value written as another
        operator (``name=~web``), as another condition (``a=1 and b>2``), or
        a number against text. And an order between text and a number, which
        compares as text (``"10" < "9"``) whatever it kept."""
        notes: list[str] = []
        where = f"note: where {_short(cond.text)}"
        negated = cond.op in ("!=", "!~")
        idle = cond.tested > 0 and (cond.kept == cond.tested if negated else cond.kept == 0)
        value = cond.value
        if idle and not cond.quoted and cond.op in ("=", "!=") and value.startswith("~"):
            regex_op = "~" if cond.op == "=" else "!~"
            notes.append(f"{where}: the value starts with '~'; a regex match is written "
                         f"{cond.name}{regex_op}{value[1:]} (the operator {regex_op}, not "
                         f"{cond.op}~)")
        if idle and not cond.quoted and _JOINERS.search(value):
            joined = _JOINERS.sub(lambda m: {"and": " && ", "or": " || "}.get(
                m.group(1).lower() if m.group(1) else "", " && "), cond.text)
            notes.append(f"{where}: the value {_short(value)} holds "
                         f"{'a comma' if ',' in value and not _WORDS.search(value) else 'and/or'}: "
                         f"conditions are joined with && and || (did you mean "
                         f"{_short(joined)}?); a value that holds them is written in quotes")
        if cond.op in ("~", "!~") or not cond.tested:
            return notes
        numbers, texts, numeric_texts = self._kinds(rows, cond.field)
        if idle and not notes and cond.number is None and numbers and not texts:
            notes.append(f"{where}: {cond.name} holds numbers and {_short(value)} is not one: "
                         "a number is never equal to, or ordered with, text")
        ordered = cond.op in ("<", "<=", ">", ">=") and cond.number is not None and not cond.quoted
        if ordered and numeric_texts:  # (beside numbers too: {"a": "10"} is not > 9 as text, unseen)
            notes.append(f"{where}: {cond.name} holds text{' among its numbers' if numbers else ''} (such "
                         f"as {_short(numeric_texts[0])}), "
                         f"compared as text with {value!r} (\"10\" < \"9\" as text): store "
                         "numbers as numbers, or compare with a text of the same width")
        return notes

    def _kinds(self, rows: Matches, segs: tuple[Any, ...]) -> tuple[int, int, list[str]]:
        """Among the first rows: how many values of the field are numbers, how
        many text, and a few texts that read as numbers."""
        numbers = texts = 0
        numeric: list[str] = []
        doc = self.doc
        sample = range(min(len(rows), _KINDS_SAMPLE))
        if any(is_fan_out(seg) for seg in segs):
            found = [(k, s, e) for k in sample
                     for s, e in self._field_values(rows.spans[2 * k], segs)]
        else:
            found = list(self._found(rows, sample, segs))
        for _, s, e in found:
            if s < 0:
                continue
            c = doc.lead(s)
            if c == "-" or c.isdigit():
                numbers += 1
            elif c == '"':
                texts += 1
                if len(numeric) < 3:
                    text = decode_string(doc.slice(s, e) if e - s < 100 else '""')
                    if _NUMERIC.fullmatch(text.strip()):
                        numeric.append(text)
        return numbers, texts, numeric

    def _check_fields(self, rows: Matches) -> None:
        """No row matched: refuse when a condition names a field no row has
        (a typo must not pass for an empty answer)."""
        if not len(rows):
            return
        for conj in self.alternatives:
            for cond in conj:
                if not self._present(rows, cond.field):
                    raise QueryError(f"query: no row of {len(rows):,} has the field "
                                     f"{cond.name!r}, so nothing can match {cond.text!r}"
                                     + self._hint(rows, cond.field), field=cond.name)

    def _hint(self, rows: Matches, segs: tuple[Any, ...]) -> str:
        """``" (did you mean 'status'?)"`` from the keys the rows have where
        the field is missing."""
        doc = self.doc
        keys: dict[str, None] = {}
        depth = 0
        for depth, seg in enumerate(segs):
            if not isinstance(seg, str):
                return ""
            prefix = tuple(segs[:depth])
            if not self._present(rows, prefix + (seg,)):
                break
        else:
            return ""
        prefix = tuple(segs[:depth])
        for k in range(min(len(rows), 200)):
            for s, _ in self._field_values(rows.spans[2 * k], prefix):
                if doc.lead(s) == "{":
                    for name in doc.members(s)[0] or ():
                        keys[name] = None
        near = nearest_keys(str(segs[depth]), list(keys))
        if near:
            return f" (did you mean {' or '.join(repr(format_path(prefix + (n,))) for n in near)}?)"
        return ""

    # -- order -----------------------------------------------------------------

    def _sorted(self, rows: Matches, alive: Sequence[int]) -> array[int]:
        """Rows by the value of the sort field (null < booleans < numbers <
        strings < containers); rows without it come last either way."""
        keyed: list[tuple[tuple[int, Any], int]] = []
        missing = array("q")
        for k, s, e in self._found(rows, alive, self.sort_segs):
            if s < 0:
                missing.append(k)
            else:
                keyed.append((_order_key(self.doc, s, e), k))
        keyed.sort(key=lambda item: item[0], reverse=self.desc)
        return array("q", (k for _, k in keyed)) + missing

    def _selected(self, start: int, end: int) -> dict[str, Any]:
        row: dict[str, Any] = {}
        for name, segs in zip(self.select, self.select_segs, strict=True):
            s, e, failed, _ = self.doc.lookup(start, segs)
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
                    subject = doc.reformat(s, e, 0)[0]
                else:
                    subject = raw_of(s, e)
                try:
                    hit = self.regex_budget.search(pattern, subject) is not None
                except RegexTimeout:
                    raise self._timeout(cond) from None
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
        return bool(doc.reformat(s, e, 0)[0] == cond.json)

    def _timeout(self, cond: _Cond) -> QueryError:
        return QueryError(f"query: the regex in {cond.text!r} took more than {REGEX_BUDGET:g} s "
                         "of CPU time over the rows (catastrophic backtracking?); simplify it")


def _order_key(doc: Document, s: int, e: int) -> tuple[int, Any]:
    c = doc.lead(s)
    if c == "n":
        return (0, 0)
    if c in "tf":
        return (1, c == "t")
    if c == "-" or c.isdigit():
        return (2, Decimal(doc.slice(s, e)))
    if c == '"':
        return (3, decode_string(doc.slice(s, e)))
    return (4, doc.reformat(s, e, 0)[0])
