"""What recovery returns: ``Recovered``, its repair log (``Fix``) and where the
text was cut (``Cut``)."""

from __future__ import annotations

from typing import Any, Iterator, NamedTuple

__all__ = ["Recovered", "Fix", "FIX_CODES", "Cut", "CUT_KINDS"]

#: Every ``Fix.code``: the repair engine's, then one per text-rewriting strategy.
FIX_CODES = (
    "prose", "comment", "whitespace", "literal", "nan", "number", "comma", "colon", "value",
    "truncated", "cut", "control", "escape", "inner_quote", "quote", "key", "double_encoded",
    "concatenated", "ellipsis", "mongo", "concat", "bracket", "word", "tuple", "more",
    "curly_quotes", "single_quotes", "unquoted_keys", "quotes_and_keys", "trailing_commas",
    "comments", "wrap_plain", "object_literal", "empty", "code_fence",
    "schema",
    # the tool-call readers' (a ToolCall's fixes): the tool a name written otherwise calls, the
    # arguments object passed as a Python call's one argument, and a Python call's name written
    # as a string ('f'(a=1)), and a call's opening token put back where the model dropped it
    "tool_name", "positional_object", "quoted_name", "opener",
)

_MESSAGES = {
    "curly_quotes": "curly quotes standing where JSON needs a quote straightened",
    "single_quotes": "single-quoted strings written with double quotes",
    "unquoted_keys": "bare keys quoted",
    "quotes_and_keys": "single-quoted strings double-quoted and bare keys quoted",
    "trailing_commas": "trailing commas dropped (after the quote and key fixes)",
    "comments": "comments removed",
    "object_literal": "object literal rebuilt as JSON (bare words as strings)",
    "wrap_plain": "bare value wrapped into the tool's primary field",
    "empty": "no arguments: an empty object",
    "code_fence": "Markdown code fence around the JSON dropped",
    "double_encoded": "a JSON string holding the object decoded",
}


class Fix(NamedTuple):
    """One entry of the repair log: a stable ``code``, the ``offset`` in the
    input where it applies, and a short ``message``."""

    code: str
    offset: int
    message: str


#: Every ``Cut.what``: where in the text the input ended, in the repair engine's words.
CUT_KINDS = (
    "inside a string", "inside a key", "inside an escape", "inside a number", "inside a literal",
    "inside a word", "inside a tuple", "after a key", "after a colon", "after a comma",
    "after an opening bracket",
)


class Cut(NamedTuple):
    """Where the text was cut: it ends ``what`` (one of :data:`CUT_KINDS`:
    "inside a string", "after a comma", ...). ``offset`` is where the cut
    token starts in the input (a string's opening quote, a number's first
    character, the backslash of an escape) or, for a cut between tokens
    ("after a comma", "after a colon", ...), where the text ends.
    ``message`` says both in words."""

    offset: int
    what: str
    message: str


def cut_from_log(log: list[tuple[str, int, str]], lead: int = 0) -> Cut | None:
    """The first ``cut`` entry of the repair engine's log as a :class:`Cut`
    (offsets moved by ``lead``), or None when the text was whole or lacked
    only closing brackets. The engine logs a ``cut`` fix, always kept in its
    log, where the text ends before a value is whole; this is the one place
    that reads it."""
    for code, offset, message in log:
        if code == "cut":  # (the kind is one of CUT_KINDS; the message keeps what the engine adds to it)
            said = message[4:]
            what = next((k for k in CUT_KINDS if said.startswith(k)), said)
            return Cut(offset + lead, what, f"cut off {said} at offset {offset + lead}")
    return None


def make_cut(offset: int, what: str) -> Cut:
    return Cut(offset, what, f"cut off {what} at offset {offset}")


def cut_error(cut: Cut) -> str:
    """The ``error`` of a cut result."""
    return (f"the arguments were {cut.message}: the text ends before they are whole, so they "
            "are not to be used or run (value and text show the completed reading, for display)")


def _first_difference(a: str, b: str) -> int:
    """The first index where ``a`` and ``b`` differ (bisection on slices)."""
    lo, hi = 0, min(len(a), len(b))
    if a[:hi] == b[:hi]:
        return hi
    while lo < hi:
        mid = (lo + hi) // 2
        if a[lo:mid + 1] == b[lo:mid + 1]:
            lo = mid + 1
        else:
            hi = mid
    return lo


class Recovered:
    """The outcome of :func:`normalize_tool_args`.

    ``text`` is the recovered JSON text (or, when ``ok`` is False, the trimmed
    original, untouched, so that a CLI parser can try it; for a ``cut`` result,
    the completed reading); ``strategy`` names
    the step at which the text first became valid; ``value`` is the parsed
    value; ``error`` says why recovery failed (None when ``ok``); ``fixes`` is
    the repair log, a list of :class:`Fix`. Unpacks as ``text, ok, strategy,
    value``.

    ``cut`` is None when the text was whole, or lacked only closing brackets
    after complete values; else a :class:`Cut` saying where the text ended
    inside a value (a string, a number, a key, after a comma or a colon...).
    A cut result has ``ok=False`` and an ``error`` that says what was cut
    and where; ``value`` and ``text`` still hold the best completed reading
    (for display, never to run) and ``strategy`` is ``"repair"``, the step
    that made that reading.
    """

    __slots__ = ("text", "ok", "strategy", "value", "error", "_fixes", "_source", "_raw", "cut")

    def __init__(self, text: str, ok: bool, strategy: str | None, value: Any,
                 error: str | None = None, fixes: list[Fix] | None = None,
                 source: str | None = None,
                 raw: tuple[list[tuple[str, int, str]], int] | None = None,
                 cut: Cut | None = None) -> None:
        self.text = text
        self.ok = ok
        self.strategy = strategy
        self.value = value
        self.error = error
        self._fixes = fixes
        self._source = source
        self._raw = raw  # the engine's log and the offset of its text in the input
        self.cut = cut

    @property
    def fixes(self) -> list[Fix]:
        """What was changed, in input order (built on first access)."""
        if self._fixes is None:
            self._fixes = self._derive()
        return self._fixes

    def _derive(self) -> list[Fix]:
        if self._raw is not None:
            log, lead = self._raw
            return [Fix(code, offset + lead, message) for code, offset, message in log]
        strategy = self.strategy
        if not self.ok or strategy is None or strategy in ("parse", "parsed"):
            return []
        source = self._source if self._source is not None else ""
        lead = len(source) - len(source.lstrip())
        if strategy in ("wrap_plain", "empty", "double_encoded"):
            offset = lead
        else:
            offset = lead + _first_difference(source.strip(), self.text)
        return [Fix(strategy, offset, _MESSAGES.get(strategy, strategy))]

    def __iter__(self) -> Iterator[Any]:
        return iter((self.text, self.ok, self.strategy, self.value))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Recovered):
            return NotImplemented
        return (self.text, self.ok, self.strategy, self.value, self.error, self.cut) == (
            other.text, other.ok, other.strategy, other.value, other.error, other.cut)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        tail = f", error={self.error!r}" if self.error else ""
        if self.cut is not None:
            tail += f", cut={self.cut!r}"
        return (f"Recovered(text={self.text!r}, ok={self.ok}, strategy={self.strategy!r}, "
                f"value={self.value!r}{tail})")
