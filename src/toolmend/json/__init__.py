"""``toolmend.json``: questions about JSON/YAML payloads, answered on the text.

A library of its own (the ``@json`` tool in :mod:`toolmend.tools` adapts it)::

    get(source, path)        keys(source, path)       query(source, path, where, select, limit)
    schema(source, path)     validate(source)         pretty(source, path, compact, max_bytes)

``source`` is a :class:`Document` (from :func:`parse_document`,
:func:`parse_bytes` or :func:`load_file`), text, bytes, or a parsed
``dict``/``list``. Numbers stay exact: :class:`JSONNumber` keeps a number's
text, :func:`loads` reads with it and :func:`dumps` writes it back (with orjson:
``orjson.dumps(value, default=toolmend.json.default)``).

A caller that lays out its own output takes the verbs in steps: :func:`resolve`
(or :func:`resolve_one`) gives the spans a path matches, :meth:`Document.reformat`
writes the value of a span re-indented under a byte cap (``(text, whole)``),
:func:`summary_pairs` the members of a container, :class:`Query` and
:class:`Schema` a query's plan and result, an inferred shape.

Errors are :class:`~toolmend.errors.JSONError` subclasses with structured
fields (line, column, segment, reason, ...).
"""

from __future__ import annotations

from ..errors import (
    JSONError,
    JSONSyntaxError,
    NestingError,
    PathError,
    PathNotFound,
    QueryError,
    YAMLDocumentError,
)
from ._document import (
    FILE_LIMIT,
    FORMATS,
    Document,
    Matches,
    describe_value,
    format_of_name,
    from_value,
    load_file,
    parse_bytes,
    parse_document,
    resolve,
    values,
)
from ._exact import JSONNumber, default, dumps, load_span, loads
from ._path import WILD, Segment, format_path, format_segment, parse_path
from ._query import QUERY_LIMIT, REGEX_BUDGET, REGEX_STEPS_MAX, Query, QueryResult
from ._schema import SCHEMA_BUDGET, SCHEMA_DEPTH, SCHEMA_DEPTH_MAX, SCHEMA_SAMPLE, Schema
from ._verbs import (
    PRETTY_LIMIT,
    Source,
    get,
    keys,
    pretty,
    query,
    resolve_one,
    schema,
    summary_pairs,
    validate,
)

__all__ = [
    # the verbs
    "get", "keys", "query", "schema", "validate", "pretty", "PRETTY_LIMIT", "QueryResult", "Source",
    # the verbs' steps, for callers that lay out their own output (the @json tool)
    "Query", "Schema", "resolve_one", "summary_pairs",
    # documents
    "Document", "Matches", "parse_document", "parse_bytes", "load_file", "from_value",
    "resolve", "values", "describe_value", "format_of_name", "FILE_LIMIT", "FORMATS",
    # exact numbers
    "JSONNumber", "loads", "dumps", "default", "load_span",
    # paths
    "WILD", "Segment", "parse_path", "format_path", "format_segment",
    # limits
    "QUERY_LIMIT", "REGEX_BUDGET", "REGEX_STEPS_MAX", "SCHEMA_DEPTH", "SCHEMA_DEPTH_MAX", "SCHEMA_SAMPLE",
    "SCHEMA_BUDGET",
    # errors
    "JSONError", "JSONSyntaxError", "YAMLDocumentError", "NestingError", "PathError",
    "PathNotFound", "QueryError",
]
