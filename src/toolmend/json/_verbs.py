"""The ``@json`` verbs as library functions, one per verb.

``source`` is a :class:`Document`, the JSON/YAML text as ``str``/``bytes``, or
an already-parsed ``dict``/``list`` (open files with :func:`load_file`)::

    get(source, path="")                      -> the value (a list when * fans out)
    keys(source, path="")                     -> [[key, summary], ...]
    query(source, path="", where="", select=None, limit=20) -> QueryResult
    schema(source, path="", depth=3)          -> schema dict
    validate(source)                          -> {valid, line, column, message, snippet, format}
    pretty(source, path="", compact=False)    -> text

Numbers are exact everywhere: data holds them as ``int``, ``float`` or
:class:`~toolmend.json.JSONNumber`. Every function is read-only and keeps no
state between calls, so calls can run in parallel threads.
"""

from __future__ import annotations

from array import array
from typing import Any, Sequence, Union

from .._text import human_size, plural
from ..errors import EncodingError, JSONError, JSONSyntaxError, NestingError, YAMLDocumentError
from ._document import (
    Document,
    Matches,
    describe_value,
    document_of_bytes,
    from_value,
    parse_document,
    resolve,
    values,
)
from ._duplicates import duplicate_notes, unique_members
from ._path import format_path, parse_path
from ._query import QUERY_LIMIT, Query, QueryResult
from ._schema import SCHEMA_DEPTH, SCHEMA_DEPTH_MAX, Schema

__all__ = ["Source", "get", "keys", "query", "schema", "validate", "pretty", "summary_pairs",
           "resolve_one"]

Source = Union[Document, str, bytes, bytearray, "dict[str, Any]", "list[Any]"]


def _doc(source: Source, format: str = "auto") -> Document:
    if isinstance(source, Document):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return document_of_bytes(bytes(source), "the text", format)
    if isinstance(source, (dict, list)):
        return from_value(source)
    if not isinstance(source, str):
        raise TypeError("source must be a Document, str, bytes, dict or list, not "
                        f"{type(source).__name__}")
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


def summary_pairs(doc: Document, pos: int, limit: int | None, notes: list[str] | None = None,
                  where: str = "$") -> tuple[list[list[Any]], int, list[int], array[int]]:
    """[[key, summary], ...] of the container at pos (duplicate keys: the
    last value at the first place, as ``unique_members`` reads them), the
    distinct member count, the index of each pair's span and the spans. A key
    given twice gets a note in ``notes`` (``where`` names the container)."""
    names, spans, dupes = unique_members(doc, pos)
    if dupes and notes is not None:
        notes.extend(duplicate_notes(where, dupes))
    total = len(spans) // 2
    idx = list(range(total if limit is None else min(total, limit)))
    # a member counted as written: decoding the keys of every object listed
    # would double the time of a listing (and duplicates are rare)
    return ([[i if names is None else names[i], describe_value(doc, spans[2 * i], False)] for i in idx],
            total, idx, spans)


def keys(source: Source, path: Any = "") -> list[list[Any]]:
    """``[[key, summary], ...]`` one level below ``path``: keys of an object
    (indexes of an array) with ``object{n}``, ``array[n]``, ``string(len)``,
    number, bool or null."""
    doc = _doc(source)
    m = resolve_one(doc, path, "keys")
    start = m.spans[0]
    if doc.lead(start) not in "{[":
        raise JSONError(f"keys: {m.label(0)} is {describe_value(doc, start)}, which has no keys")
    return summary_pairs(doc, start, None)[0]


def resolve_one(doc: Document, path: Any, verb: str) -> Matches:
    """The match of ``path``, refused (JSONError, naming ``verb``) when a ``*``
    in it fans out: for the verbs that read one value."""
    m = resolve(doc, path)
    if m.fanned:
        raise JSONError(f"{verb} needs a path to one value; {format_path(parse_path(path))!r} "
                        f"holds * and matched {plural(len(m), 'value')} (use get for those)")
    return m


def query(source: Source, path: Any = "", where: str = "", select: Sequence[str] | None = None,
          limit: int = QUERY_LIMIT, *, offset: int = 0, sort: str | None = None,
          desc: bool = False) -> QueryResult:
    """Filter the elements of the array at ``path`` (or the values of an
    object) with ``where``: conditions ``field=value``, ``field!=value``,
    ``field~regex``, ``field!~regex``, ``field<value`` (also ``<=``, ``>``,
    ``>=``) joined by ``&&`` and ``||`` (``&&`` binds tighter); a field with
    ``*`` (``labels[*].name=bug``) matches when any element does. ``sort``
    orders the rows by a field (``desc``: largest first), ``offset`` skips
    rows, ``select`` keeps only some (dotted) fields, ``limit`` rows at most
    (any number here; the tool caps it at 200). A condition on a field that
    no row has is refused (QueryError, with the near field names) rather than
    answered with no rows."""
    doc = _doc(source)
    plan = Query(doc, path, where, select, limit, offset, sort, desc)
    return plan.run()


def schema(source: Source, path: Any = "", depth: int = SCHEMA_DEPTH) -> dict[str, Any]:
    """The inferred shape of the value at ``path`` (see :class:`_Schema`)."""
    doc = _doc(source)
    if not 1 <= depth <= SCHEMA_DEPTH_MAX:
        raise JSONError(f"schema: depth must be between 1 and {SCHEMA_DEPTH_MAX}, not {depth}")
    m = resolve(doc, path)
    return Schema(doc, depth).run(m)


def validate(source: str | bytes | bytearray, format: str = "auto",
             name: str = "the text") -> dict[str, Any]:
    """``{valid, line, column, message, snippet, format}`` for the text:
    line and column are 1-based, the column in characters; ``snippet`` shows
    the line with a caret. Data after the end of the value is an error."""
    try:
        if isinstance(source, (bytes, bytearray, memoryview)):
            doc = document_of_bytes(bytes(source), name, format)
        else:
            doc = parse_document(source, name=name, format=format)
    except EncodingError as exc:
        return {"valid": False, "line": None, "column": None, "message": str(exc),
                "snippet": None, "format": format}
    except JSONSyntaxError as exc:
        lines = format.strip().lower() == "jsonl"
        return {"valid": False, "line": exc.line, "column": exc.column,
                "message": exc.message, "snippet": exc.snippet, "format": "jsonl" if lines else "json"}
    except YAMLDocumentError as exc:
        return {"valid": False, "line": exc.line, "column": exc.column,
                "message": exc.message, "snippet": exc.snippet or None, "format": "yaml"}
    except NestingError as exc:
        return {"valid": False, "line": None, "column": None, "message": str(exc),
                "snippet": None, "format": format}
    return {"valid": True, "line": None, "column": None, "message": None, "snippet": None,
            "format": doc.format}


#: The largest text :func:`pretty` returns unless told otherwise: the
#: indentation of deep nesting grows with the square of the depth (a million
#: levels would be a terabyte).
PRETTY_LIMIT = 256 * 1024 * 1024


def pretty(source: Source, path: Any = "", compact: bool = False,
           max_bytes: int | None = PRETTY_LIMIT) -> str:
    """The value at ``path`` re-indented by 2 spaces (``compact``: no
    whitespace at all), key order and number text kept. Raises JSONError when
    the result would pass ``max_bytes`` of UTF-8 (None: no limit); it stops
    there, without building the rest."""
    if max_bytes is not None and (type(max_bytes) is not int or max_bytes < 0):
        raise TypeError(f"pretty: max_bytes must be an int >= 0 or None, not {max_bytes!r}")
    doc = _doc(source)
    m = resolve_one(doc, path, "pretty")
    s, e = m.span(0)
    text, complete = doc.reformat(s, e, 0 if compact else 2, max_bytes)
    if not complete:
        raise JSONError(f"pretty: the result would be larger than {human_size(max_bytes or 0)}"
                        f"{'' if compact else ' (deep nesting indents every line)'}: pretty a "
                        "deeper path, ask for compact=True, or pass a larger max_bytes")
    return text


