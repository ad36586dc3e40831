"""How much of a streamed JSON value is valid so far: a strict reader that
takes the text in pieces and reads each character once. Pure-Python twin of
``ext/_markers_prefix.pxi`` (the marker kernel exports both as ``JsonPrefix``).

``JsonPrefix().feed(piece)`` returns the text it read and found valid (a
token cut at the end of the piece waits for the next one: a number, too,
until a character that cannot continue it comes); ``done`` is set when the
value's last bracket is read, ``failed`` at the first character that is not
JSON, or at one of ``stops`` written inside it (``<tool_call`` and
``</tool_call`` by default; Kimi's and DeepSeek's closing tokens: a reader
ends the call's body there, so what follows is never certain to be part of
the value). ``buf`` holds what was fed and not read yet; ``in_string`` says
that what was read ends inside a string. Whitespace is
JSON's four characters only. The stream of tool calls uses it to pass on
an argument's text while it arrives: what was read valid is certain to
start the call's ``raw_args`` whatever comes next.
"""

from __future__ import annotations

import re

__all__ = ["JsonPrefix"]

# what comes next
_VALUE, _FIRST_VALUE, _FIRST_KEY, _KEY, _COLON, _NEXT = range(6)

_JSON_WS = re.compile(r"[ \t\n\r]*")
_STRING_RUN = re.compile(r'[^"\\\x00-\x1f<]*')  # a string's plain characters (before a tag)
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_SO_FAR = re.compile(r"-?[0-9]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]*)?")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_TAGS = ("</tool_call", "<tool_call")
_for_stops: dict[tuple[str, ...], tuple[int, re.Pattern[str]]] = {_TAGS: (len(_TAGS[0]), _STRING_RUN)}


def _stops_reading(stops: tuple[str, ...]) -> tuple[int, re.Pattern[str]]:
    """The longest of ``stops``, and a string's plain characters: none that may
    begin one of them (made once per set of stops)."""
    found = _for_stops.get(stops)
    if found is None:
        firsts = "".join(sorted({t[0] for t in stops}))
        found = _for_stops[stops] = (max((len(t) for t in stops), default=0),
                                     re.compile(r'[^"\\\x00-\x1f' + re.escape(firsts) + "]*"))
    return found
_LITERALS = {"t": "true", "f": "false", "n": "null"}


class JsonPrefix:
    """A strict reader of one JSON value arriving in pieces (see the module)."""

    # the reader's state at its start: class values, which an instance shadows
    # as it changes them (a reader is made per call: this keeps making one cheap)
    buf = ""  # fed, not yet read (a token cut at the end of a piece)
    expect = _VALUE
    in_string = False
    key = False  # the open string is a key
    done = False
    failed = False

    def __init__(self, stops: tuple[str, ...] = _TAGS) -> None:
        # what ends a call's body wherever it stands, in a string too (lower case)
        self.stops = stops
        self.stop_len, self.run = _stops_reading(stops)
        self.stack: list[str] = []  # the open brackets

    def feed(self, piece: str) -> str:
        """Take the next piece; return the text newly read and valid."""
        if self.done or self.failed:
            return ""
        if self.in_string and not self.buf and \
                self.run.match(piece).end() == len(piece):  # type: ignore[union-attr]
            return piece  # the common case: more of a long string
        buf = self.buf + piece if self.buf else piece
        i = self._read(buf)
        self.buf = buf[i:]
        return buf[:i]

    def _read(self, buf: str) -> int:
        """Read from the start of ``buf``; where reading stopped."""
        i, n = 0, len(buf)
        while i < n:
            if self.in_string:
                j = self._string(buf, i, n)
                if j < 0:
                    return i
            else:
                i = _JSON_WS.match(buf, i).end()  # type: ignore[union-attr]
                if i >= n:
                    return i
                j = self._token(buf, i, n)
                if j < 0 or self.failed:
                    return i
            i = j
            if not self.stack and self.expect == _NEXT and not self.in_string:
                self.done = True  # the value is whole (a string at the top too)
                return i
        return i

    def _string(self, buf: str, i: int, n: int) -> int:
        """Read inside a string from ``i``: where reading goes on, or -1 to wait."""
        i = self.run.match(buf, i).end()  # type: ignore[union-attr]
        if i >= n:
            return i
        c = buf[i]
        if c == '"':
            self.in_string = False
            self.expect = _COLON if self.key else _NEXT
            return i + 1
        if c == "\\":
            if i + 1 >= n:
                return -1
            e = buf[i + 1]
            if e in '"\\/bfnrt':
                return i + 2
            if e == "u":
                if i + 6 > n:
                    return -1
                if _HEX4.match(buf, i + 2, i + 6):
                    return i + 6
            return self._fail()
        if c >= " ":  # the first character of a stop
            rest = buf[i:i + self.stop_len].lower()
            if any(rest.startswith(t) for t in self.stops):
                return self._fail()
            if len(rest) < self.stop_len and any(t.startswith(rest) for t in self.stops):
                return -1  # it may still become one
            return i + 1
        return self._fail()  # a control character

    def _token(self, buf: str, i: int, n: int) -> int:
        """Read the token at ``i`` (not whitespace, not in a string): where
        reading goes on, or -1 to wait for more."""
        c = buf[i]
        expect = self.expect
        if expect in (_FIRST_KEY, _KEY):
            if c == '"':
                self.in_string, self.key = True, True
                return i + 1
            if c == "}" and expect == _FIRST_KEY:
                return self._close("{", i)
            return self._fail()
        if expect == _COLON:
            if c != ":":
                return self._fail()
            self.expect = _VALUE
            return i + 1
        if expect == _NEXT:
            if c == ",":
                self.expect = _KEY if self.stack[-1] == "{" else _VALUE
                return i + 1
            if c in "}]":
                return self._close("{" if c == "}" else "[", i)
            return self._fail()
        # a value (or, first in an array, its end)
        if c == "]" and expect == _FIRST_VALUE:
            return self._close("[", i)
        if c in "{[":
            self.stack.append(c)
            self.expect = _FIRST_KEY if c == "{" else _FIRST_VALUE
            return i + 1
        if c == '"':
            self.in_string, self.key = True, False
            return i + 1
        if c == "-" or "0" <= c <= "9":
            if _NUMBER_SO_FAR.match(buf, i).end() >= n:  # type: ignore[union-attr]
                return -1  # it may go on ("1." and "1e" too: the digits may come next)
            m = _NUMBER.match(buf, i)
            if m is None:
                return self._fail()
            self.expect = _NEXT
            return m.end()
        word = _LITERALS.get(c)
        if word is None:
            return self._fail()
        if buf.startswith(word, i):
            self.expect = _NEXT
            return i + len(word)
        if n - i < len(word) and word.startswith(buf[i:]):
            return -1
        return self._fail()

    def _close(self, opener: str, i: int) -> int:
        if not self.stack or self.stack[-1] != opener:
            return self._fail()
        self.stack.pop()
        self.expect = _NEXT
        return i + 1

    def _fail(self) -> int:
        self.failed = True
        return -1
