"""Every exception toolmend raises, under one base: :class:`ToolmendError`.

All of them are ``ValueError`` subclasses (they describe bad input) and carry
structured fields beside their message, so callers branch on attributes, never
on the wording::

    ToolmendError
    ├── RecoveryError        tool-call arguments that could not be recovered
    ├── LiteralError         the object-literal parser's refusal (pos, line, column)
    ├── PatchError           a patch that does not apply (hunk, line, expected, actual)
    ├── EncodingError        bytes that are not UTF-8 (offset, line, column)
    ├── JSONError            the @json library refused a document, path or query
    │   ├── JSONSyntaxError  not JSON (pos, line, column, message, snippet, code)
    │   ├── YAMLDocumentError not YAML the verbs accept (line, column, message, snippet)
    │   ├── NestingError     nested deeper than a parser can follow
    │   ├── PathError        a path that does not parse (path, pos)
    │   ├── PathNotFound     a path that leads nowhere (path, segment, reason)
    │   └── QueryError       a where/select that does not parse or matches no field
    ├── PartialJSONError     a JSON prefix cut where the allowed partial kinds do not reach (pos)
    ├── MalformedJSONError   a JSON prefix that no continuation can make valid (pos)
    ├── SchemaError          a JSON Schema that cannot be compiled (path in the schema)
    └── ToolError            a tool call's arguments are wrong (the tool layer)
        └── WorkspaceError   a path outside the workspace, or a file that cannot be read

The warnings (``UserWarning``): ``BudgetWarning``, a diff past its edit budget;
``SchemaWarning``, a JSON Schema keyword that is not checked (said once per schema).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ToolmendError", "RecoveryError", "LiteralError", "PatchError", "EncodingError",
    "JSONError", "JSONSyntaxError", "YAMLDocumentError", "NestingError", "PathError",
    "PathNotFound", "QueryError", "ToolError", "WorkspaceError", "BudgetWarning",
    "PartialJSONError", "MalformedJSONError", "SchemaError", "SchemaWarning",
]


class ToolmendError(ValueError):
    """The base of every exception toolmend raises."""


class RecoveryError(ToolmendError):
    """Tool-call arguments could not be recovered; the message says why.
    ``text`` is the (trimmed) input, handed back untouched; ``cut`` is the
    ``toolmend.Cut`` when the text was cut inside a value (else None)."""

    def __init__(self, message: str, text: str = "", *, cut: Any = None) -> None:
        super().__init__(message)
        self.text = text
        self.cut = cut


class LiteralError(ToolmendError):
    """The object-literal parser refused the text (raised by both kernels):
    ``what`` went wrong at offset ``pos`` (1-based ``line``/``column``)."""

    def __init__(self, text: str, pos: int, what: str) -> None:
        from ._text import line_col

        self.pos = pos
        self.line, self.column = line_col(text, pos)
        self.what = what
        super().__init__(f"{what} at line {self.line}, column {self.column}")


class PatchError(ToolmendError):
    """A patch that cannot be applied, or does not match the text.

    ``hunk`` is the 1-based hunk number, ``line`` the 1-based line in the
    original text, ``expected`` the line the patch wanted and ``actual`` the
    line the text has there (``None`` past the end of the text). ``reason`` is
    a stable code: ``mismatch``, ``malformed``, ``incomplete`` (a cut patch),
    ``no_file`` (no section for the file), ``empty``.
    """

    def __init__(
        self,
        message: str,
        *,
        hunk: int | None = None,
        line: int | None = None,
        expected: str | None = None,
        actual: str | None = None,
        reason: str = "mismatch",
    ) -> None:
        super().__init__(message)
        self.hunk = hunk
        self.line = line
        self.expected = expected
        self.actual = actual
        self.reason = reason


class EncodingError(ToolmendError):
    """Bytes that are not UTF-8: the bad byte is at ``offset`` (1-based
    ``line``, ``column`` in bytes)."""

    def __init__(self, message: str, *, offset: int = 0, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.offset = offset
        self.line = line
        self.column = column


class JSONError(ToolmendError):
    """The @json library refused a document, a path or a query."""


class _DocumentError(JSONError):
    """A document refused at a place: ``message`` (why), ``pos`` (0-based),
    ``line`` and ``column`` (1-based), ``snippet`` (the line, a caret under
    the place); the error's text is ``text``."""

    def __init__(self, text: str, message: str, pos: int | None, line: int | None,
                 column: int | None, snippet: str) -> None:
        super().__init__(text)
        self.message = message
        self.pos, self.line, self.column = pos, line, column
        self.snippet = snippet


class JSONSyntaxError(_DocumentError):
    """Text that is not valid JSON. ``message`` says what was found and what
    was expected, ``line``/``column`` are 1-based (column in characters),
    ``pos`` the 0-based offset, ``snippet`` the line with a caret under the
    place, ``code`` the scanner's error code."""

    pos: int
    line: int
    column: int

    def __init__(self, message: str, *, pos: int, line: int, column: int, snippet: str,
                 code: int = 0, what: str = "the text") -> None:
        super().__init__(f"{what} is not valid JSON: {message} at line {line}, "
                         f"column {column}\n{snippet}", message, pos, line, column, snippet)
        self.code = code


class YAMLDocumentError(_DocumentError):
    """Text that is not YAML the verbs accept; ``line``/``column`` (1-based,
    None when unknown), ``pos``, ``message`` and ``snippet`` say where and why."""

    def __init__(self, message: str, *, what: str = "the text", line: int | None = None,
                 column: int | None = None, pos: int | None = None, snippet: str = "") -> None:
        where = f" at line {line}, column {column}\n{snippet}" if line is not None else ""
        super().__init__(f"{what}: {message}{where}", message, pos, line, column, snippet)


class NestingError(JSONError):
    """A document nested deeper than a parser or writer can follow."""


class PathError(JSONError):
    """A path expression that does not parse: ``path`` at offset ``pos``."""

    def __init__(self, message: str, *, path: str = "", pos: int = 0) -> None:
        super().__init__(message)
        self.path = path
        self.pos = pos


class PathNotFound(JSONError):
    """A path that does not lead to a value. ``path`` is the concrete path
    that was reached, ``segment`` the one that could not be followed, and
    ``reason`` one of ``missing_key``, ``out_of_range``, ``not_index`` (a key
    that is not an index, on an array), ``not_array`` (an index on an
    object), ``not_container`` (a step below a scalar); ``found`` describes
    the value at ``path`` (``object{3}``, ``string(5) "abc"``, ...)."""

    def __init__(self, message: str, *, path: str = "", segment: str = "",
                 reason: str = "missing_key", found: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.segment = segment
        self.reason = reason
        self.found = found


class QueryError(JSONError):
    """A query whose where, select or target cannot be used; ``field`` names
    the field at fault when there is one."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PartialJSONError(ToolmendError):
    """A JSON prefix is cut inside a kind of value the caller did not allow to be
    partial (``toolmend.compat.partial_json_parser``); ``pos`` is where that value starts."""

    def __init__(self, message: str, *, pos: int = 0) -> None:
        super().__init__(message)
        self.pos = pos


class MalformedJSONError(ToolmendError):
    """Text that is not the beginning of any JSON document; ``pos`` is the first
    character that cannot continue it."""

    def __init__(self, message: str, *, pos: int = 0) -> None:
        super().__init__(message)
        self.pos = pos


class ToolError(ToolmendError):
    """A tool call's arguments are wrong; ``run_tool`` turns it into ``ok=False``."""


class WorkspaceError(ToolError):
    """A path that leaves the workspace, or a file that cannot be read as asked."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class BudgetWarning(UserWarning):
    """A diff went past its edit budget: the differing middle is one block."""


class SchemaError(ToolmendError):
    """A JSON Schema that cannot be compiled: ``where`` is the JSON pointer of
    the offending part in the schema (``#`` for its root)."""

    def __init__(self, message: str, where: str = "#") -> None:
        super().__init__(f"{message} (at {where} in the schema)")
        self.where = where


class SchemaWarning(UserWarning):
    """A JSON Schema keyword that toolmend does not check: the value is
    checked against the rest of the schema, and the keyword is named."""
