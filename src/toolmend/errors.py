"""Exceptions raised by toolmend. All of them are ``ValueError`` subclasses:
they describe bad input, and their message says what was wrong and where."""

from __future__ import annotations


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column (in characters) of offset ``pos`` in ``text``."""
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


class LiteralError(ValueError):
    """The object-literal parser refused the text (raised by both kernels)."""

    def __init__(self, text: str, pos: int, what: str) -> None:
        self.pos = pos
        self.line, self.column = line_col(text, pos)
        self.what = what
        super().__init__(f"{what} at line {self.line}, column {self.column}")


class RecoveryError(ValueError):
    """Tool-call arguments could not be recovered; the message says why."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class PatchError(ValueError):
    """A patch does not match the text it is applied to.

    ``hunk`` is the 1-based hunk number, ``line`` the 1-based line in the
    original text, ``expected`` the line the patch wanted and ``actual`` the
    line the text has there (``None`` past the end of the text).
    """

    def __init__(
        self,
        message: str,
        *,
        hunk: int | None = None,
        line: int | None = None,
        expected: str | None = None,
        actual: str | None = None,
    ) -> None:
        super().__init__(message)
        self.hunk = hunk
        self.line = line
        self.expected = expected
        self.actual = actual


class ToolError(ValueError):
    """A tool verb refused its input; ``run_tool`` turns it into ``ok=False``."""
