"""What in a streamed message may begin a call: text before it can be shown.

``TRIGGER`` finds the first character that could begin a marker, a call body,
a fence, a reasoning block or a JSON or pythonic value (``<``, ``[``, ``{``,
a backtick, ``~``, ``>``, ``\u25c1``, ``\u273f``), or a marker that begins with another character
(``Action:``, ``functools``, ``function call<|role_sep|>``, MiniMax's ``]~b]`` and
``]<]minimax[>[``).
``partial_tail(text)`` is the length of the longest end of ``text`` that may
still grow into one of those words (``functo``): it is held back until it is
whole or proves to be prose. ``PROSE_STOP`` finds either, in one search: a
delta it finds nothing in is prose (the live reading's common case).
``opens_prefilled(text, kinds)`` says whether a message's start is the body of a
call whose opener the prompt held (held to the end, where the whole text is read);
``dropped_follows`` whether such a body follows a call's closer (the next call, its
opener dropped).
"""

from __future__ import annotations

import re

import regex  # type: ignore[import-untyped]

from ._formats._context import (
    CALL_LABEL,
    INSTRUCTION,
    RESPONSE,
    ROLE_TOKENS,
    STRING_QUOTES,
    TOOL_HEAD,
    head_name,
)
from ._formats._harmony import STRIPPED_HARMONY, STRIPPED_HARMONY_OPENING
from ._formats._nestedxml import NS as _MINIMAX_NS
from ._formats._prefilled import DROPPED_AFTER, DROPPED_BODIES, DROPPED_CLOSERS, PREFILLED, PREFILLED_OPENERS
from ._formats._schema import NAMESPACES, declared_name

__all__ = ["TRIGGER", "PROSE_STOP", "partial_tail", "opens_prefilled", "reads_prefilled", "opens_with_tool",
           "dropped_follows"]

# the literal markers that do not begin with one of the trigger characters
_WORD_MARKERS = ("Action:", "functools", "function call<|role_sep|>", *ROLE_TOKENS, _MINIMAX_NS,
                 INSTRUCTION, RESPONSE, *STRING_QUOTES, STRIPPED_HARMONY, STRIPPED_HARMONY_OPENING)
TRIGGER = re.compile(r"[<\[{`~>\u25c1\u273f]|" + "|".join(re.escape(m) for m in _WORD_MARKERS))
_LONGEST = max(len(m) for m in _WORD_MARKERS)
_WORD_PREFIXES = frozenset(m[:k] for m in _WORD_MARKERS for k in range(1, len(m)))
_WORD_FIRSTS = "".join(sorted({m[0] for m in _WORD_MARKERS}))
_WORD_FIRST = re.compile("[" + re.escape(_WORD_FIRSTS) + "]")


def _word_or_its_start_at_end(words: tuple[str, ...], k: int = 0) -> str:
    """A pattern for one of ``words`` (which share their first ``k`` characters)
    whole, or any start of one at the end of the text: a trie, so that a
    search tries the words only where one of their first letters stands (one
    alternative of a start per prefix, ``\\Z`` after each, made the search
    try them all at every position: 0.53 us a prose delta, now 0.19 us)."""
    branches = []
    for c in sorted({w[k] for w in words if len(w) > k}):
        if any(len(w) == k + 1 and w[k] == c for w in words):
            branches.append(re.escape(c))  # a word ends here: found whatever follows
            continue
        rest = _word_or_its_start_at_end(tuple(w for w in words if len(w) > k and w[k] == c), k + 1)
        branches.append(f"{re.escape(c)}(?:{rest}|\\Z)")
    return "|".join(branches)


PROSE_STOP = re.compile(r"[<\[{`~>\u25c1\u273f]|" + _word_or_its_start_at_end(_WORD_MARKERS))


def _start_at_end(words: tuple[str, ...], k: int = 0) -> str:
    """A pattern for a proper start of one of ``words`` (which share their
    first ``k`` characters) standing at the end of the text: a trie."""
    branches = []
    for c in sorted({w[k] for w in words if len(w) > k + 1}):
        rest = _start_at_end(tuple(w for w in words if len(w) > k + 1 and w[k] == c), k + 1)
        branches.append(f"{re.escape(c)}(?:{rest}|\\Z)" if rest else f"{re.escape(c)}\\Z")
    return "|".join(branches)


_TAIL = re.compile(_start_at_end(_WORD_MARKERS))


def partial_tail(text: str) -> int:
    """The length of the longest end of ``text`` that is the start of a word
    marker (the leftmost place, among the last few, where one stands to the end)."""
    n = len(text)
    k = max(0, n - _LONGEST + 1)
    if _WORD_FIRST.search(text, k) is None:  # the common case: no tail can begin a word marker
        return 0
    m = _TAIL.search(text, k)
    return 0 if m is None else n - m.start()


# a call whose opener the prompt held, at the message's start (the scan's PREFILLED; here
# matched on the text so far, which may still become one)
_PREFILLED = regex.compile(PREFILLED.pattern)
_DROPPED = {closer: regex.compile(pattern) for closer, pattern in DROPPED_BODIES.items()}


def reads_prefilled(kinds: frozenset[str]) -> bool:
    """A format of ``kinds`` reads a call whose opener the prompt held (a stream
    then looks at a message's start with ``opens_prefilled``)."""
    return not kinds.isdisjoint(PREFILLED_OPENERS)


def opens_prefilled(text: str, kinds: frozenset[str]) -> bool | None:
    """Whether ``text``, a message's start, opens with a call whose opener the prompt
    held (``PREFILLED``, in a family of ``kinds``): None while it may still become
    one (the pattern is bounded: a few hundred characters decide)."""
    if _NOT_PREFILLED.match(text) is not None:
        return False  # (most messages: a first word that goes on as prose, or a tag of another kind)
    m = _PREFILLED.match(text, partial=True)
    if m is None:
        return False
    return None if m.partial else m.lastgroup in kinds


def dropped_follows(text: str, k: int, kinds: frozenset[str]) -> bool | None:
    """After a call's closer (ending at ``k``): the next call follows it with its opener
    dropped (``DROPPED_AFTER``, the scan's ``read_dropped``: True), something else (False), or
    what follows is not known yet (None)."""
    closer = next((c for c in DROPPED_CLOSERS if text.endswith(c, 0, k)), None)
    if closer is None or DROPPED_AFTER[closer][0] not in kinds:
        return False
    m = _DROPPED[closer].match(text, k, partial=True)
    return False if m is None else None if m.partial else True


# what no body of PREFILLED begins with, decided on the first characters: a first word followed
# by another character than a name's, blanks, "<" or ":" (or by blanks and a word), or a tag
# other than <invoke
_NOT_PREFILLED = re.compile(r"[ \t\r\n]{0,64}(?:(?!to=)[A-Za-z_][\w.-]{0,127}(?:[^\w.\-\s<:]|[ \t]+[^\s<])"
                            r"|<(?:[^i]|i[^n]|in[^v]|inv[^o]|invo[^k]|invok[^e]|invoke[^ \t])|[^A-Za-z_<\s])")


# GLM-4's call known by a tool's name, at the message's start (the scan's TOOL_HEAD; here
# matched on the text so far, which may still become one)
_TOOL_HEAD = regex.compile(TOOL_HEAD.pattern)
_CALL_LABEL = regex.compile(CALL_LABEL.pattern, regex.I)


def opens_with_tool(text: str, names: frozenset[str]) -> bool | None:
    """Whether ``text``, a message's start, opens with GLM-4's call of one of the tools
    ``names`` (``TOOL_HEAD``, the format not named): None while it may still become one
    (while the name so far begins a tool's name; the pattern is bounded)."""
    m = _TOOL_HEAD.match(text, partial=True)
    if m is None:
        label = _CALL_LABEL.match(text, partial=True)  # (a list of calls after a label: the end decides)
        return False if label is None else (None if label.partial else True)
    name = head_name(m.group(1) or "").rstrip("\\")  # (a backslash at the end: an escape begun)
    if not m.partial:
        return declared_name(name, names) in names
    if not name or any(n.startswith(name) or any((ns + n).startswith(name) for ns in NAMESPACES)
                       for n in names):
        return None
    return False
