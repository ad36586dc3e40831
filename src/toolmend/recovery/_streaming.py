"""Tool-call arguments that arrive a few characters at a time.

``StreamingArgs`` reads a JSON document incrementally: each ``feed(chunk)``
advances a parser whose whole state is an explicit stack of the open
containers, the mode it is in and the token being read, so no character is
read twice and the total cost of a stream is linear in its length (serving
stacks that call a partial-JSON parser on the whole prefix at every token pay
for the prefix again each time: quadratic).

``feed`` reads a chunk and returns nothing: the cost of a stream is the cost
of its characters, whatever the chunks. The best value so far is
:attr:`StreamingArgs.value`: the containers opened so far with the members
read so far, a string cut in the middle closed where it was cut; a number or
``true``/``false``/``null`` still being read, and a key without its value, are
left out until they are whole (``2`` may become ``20``). The value is built in
place (each read gives the same object, grown: copy it to keep a snapshot); a
string still being read is joined only when the value is read, so reading it
costs the length of that string, and a stream read at every chunk costs the
square of its longest string. The linear way to follow a long string (the
``content`` of a file being written) is :meth:`StreamingArgs.appended`: the
text it gained since the last call, never read twice. ``finish()`` returns a
:class:`~toolmend.recovery.Recovered` for the whole text, through argument
recovery: a stream cut off anywhere but after a complete value gives
``ok=False`` with ``cut`` saying where (the repair engine's record, as for
any text).
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from .._text import MAX_DEPTH, SURROGATE, TOO_DEEP, too_many_digits
from ._strategies import Recovered, normalize_tool_args

Path = tuple[str | int, ...]

__all__ = ["StreamingArgs"]

_VALUE, _KEY, _COLON, _AFTER, _STRING, _TOKEN, _DONE, _ERROR = range(8)
_NOTHING: Any = object()

_SPACE = re.compile(r"[ \t\r\n]*")
_STR_RUN = re.compile(r'[^"\\]*')
_str_run = _STR_RUN.match
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_TOKEN_CHARS = frozenset("0123456789+-.eEtrufalsn")
_LITERALS = {"true": True, "false": False, "null": None}
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")


_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _join_pair(m: re.Match[str]) -> str:
    pair = m.group()
    return chr(0x10000 + ((ord(pair[0]) - 0xD800) << 10) + ord(pair[1]) - 0xDC00)


def _fix_surrogates(s: str) -> str:
    """Join \\uD83D\\uDE00-style pairs; a lone surrogate stays as it is."""
    return _PAIR.sub(_join_pair, s)


class _Watch:
    """What :meth:`StreamingArgs.appended` has handed out of the string at one path."""

    __slots__ = ("path", "cursor", "pending", "started", "closed", "repeated")

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cursor = 0         # the open string's pieces handed out (or moved to pending)
        self.pending = ""       # text read but not handed out yet
        self.started = False    # the string at the path was seen opening
        self.closed = False
        self.repeated = False   # a second string at the same path (a repeated key)


_INFINITE = (float("inf"), float("-inf"))


class _Parser:
    """The incremental JSON parser under :class:`StreamingArgs`."""

    __slots__ = ("stack", "keys", "mode", "first", "root", "pieces", "is_key", "esc", "tok",
                 "surrogates", "consumed", "error", "error_at", "watch", "watched", "shown", "beyond")

    def __init__(self) -> None:
        self.stack: list[Any] = []      # the open containers, innermost last
        self.keys: list[Any] = []       # for each open object: the key being filled (or None)
        self.mode = _VALUE
        self.first = True               # right after an opening bracket (or at the start)
        self.root: Any = _NOTHING
        self.pieces: list[str] = []     # the string being read
        self.is_key = False
        self.esc = ""                   # an escape cut between chunks: "\\", "\\u0"...
        self.tok = ""                   # a number or literal being read
        self.surrogates = False
        self.beyond = False             # a number past a double's range was read (1e999: inf)
        self.consumed = 0
        self.error: str | None = None
        self.error_at = -1
        self.watch: dict[Path, _Watch] = {}     # the paths StreamingArgs.appended follows
        self.watched: _Watch | None = None      # the one the open string is at
        self.shown: str | None = None           # the open string as last put in the value

    # -- building the value -------------------------------------------------

    def _fail(self, at: int, message: str) -> None:
        self.mode = _ERROR
        self.error = message
        self.error_at = at

    def _put(self, value: Any) -> None:
        """A value read whole (or a container just opened) goes into its place."""
        stack = self.stack
        if not stack:
            self.root = value
        elif type(stack[-1]) is list:
            stack[-1].append(value)
        else:
            stack[-1][self.keys[-1]] = value

    def _replace(self, value: Any) -> None:
        """The value in the innermost place (a string being read) becomes ``value``."""
        stack = self.stack
        if not stack:
            self.root = value
        elif type(stack[-1]) is list:
            stack[-1][-1] = value
        else:
            stack[-1][self.keys[-1]] = value

    def _value_done(self) -> None:
        self.mode = _AFTER if self.stack else _DONE

    def _end_token(self, at: int) -> bool:
        tok = self.tok
        self.tok = ""
        if tok in _LITERALS:
            self._put(_LITERALS[tok])
        elif _NUMBER.fullmatch(tok):
            whole = tok.lstrip("-").isdigit()
            too_long = too_many_digits(tok) if whole else None
            if too_long is not None:
                self._fail(at - len(tok), f"{too_long}, not read")
                return False
            number = int(tok) if whole else float(tok)
            if number in _INFINITE:
                self.beyond = True  # (JSON has no infinity: the recovery's mapping says what it is)
            self._put(number)
        else:
            self._fail(at - len(tok), f"{tok!r} is not a JSON value")
            return False
        self._value_done()
        return True

    def path(self) -> Path:
        """Where the innermost place is: keys of objects, indexes of arrays."""
        out: list[str | int] = []
        keys = iter(self.keys)
        for container in self.stack:
            out.append(len(container) - 1 if type(container) is list else next(keys))
        return tuple(out)

    def lookup(self, path: Path) -> Any:
        """The value at ``path`` so far (_NOTHING when there is none yet)."""
        value = self.root
        for key in path:
            if type(value) is dict and type(key) is str and key in value:
                value = value[key]
            elif type(value) is list and type(key) is int and -1 < key < len(value):
                value = value[key]
            else:
                return _NOTHING
        return value

    def _start_string(self) -> None:
        self._put("")
        self.is_key = False
        self.mode = _STRING
        self.shown = None
        if self.watch:
            w = self.watched = self.watch.get(self.path())
            if w is not None:
                w.repeated = w.started
                w.started, w.cursor = True, 0

    def _end_string(self) -> None:
        s = "".join(self.pieces)
        w = self.watched
        if w is not None and not self.is_key:
            w.pending += "".join(self.pieces[w.cursor:])
            w.closed = True
            self.watched = None
        self.pieces = []
        if self.surrogates:
            s = _fix_surrogates(s)
            self.surrogates = False
        if self.is_key:
            self.keys[-1] = s
            self.mode = _COLON
        else:
            self._replace(s)
            self._value_done()

    # -- reading ------------------------------------------------------------

    def feed(self, s: str) -> None:
        base = self.consumed
        self.consumed += len(s)
        i, n = 0, len(s)
        while i < n:
            mode = self.mode
            if mode == _STRING:
                if self.esc:
                    i = self._escape(s, i, base)
                    continue
                j = _str_run(s, i).end()  # type: ignore[union-attr]
                if j > i:
                    self.pieces.append(s[i:j])
                if j >= n:
                    break
                if s[j] == '"':
                    self._end_string()
                    i = j + 1
                else:  # a backslash
                    self.esc = "\\"
                    i = j + 1
                continue
            if mode == _TOKEN:
                j = i
                while j < n and s[j] in _TOKEN_CHARS:
                    j += 1
                self.tok += s[i:j]
                if j >= n:
                    if self.tok in _LITERALS:  # true/false/null cannot go on
                        self._end_token(base + j)
                    break
                if not self._end_token(base + j):
                    return
                i = j
                continue
            c = s[i]
            if c in " \t\r\n":
                i = _SPACE.match(s, i).end()  # type: ignore[union-attr]
                continue
            if mode == _VALUE:
                if c in "{[" and len(self.stack) >= MAX_DEPTH:
                    return self._fail(base + i, TOO_DEEP)
                if c == "{":
                    d: dict[str, Any] = {}
                    self._put(d)
                    self.stack.append(d)
                    self.keys.append(None)
                    self.mode, self.first = _KEY, True
                elif c == "[":
                    lst: list[Any] = []
                    self._put(lst)
                    self.stack.append(lst)
                    self.mode, self.first = _VALUE, True
                elif c == '"':
                    self._start_string()
                elif c in _TOKEN_CHARS:
                    self.mode = _TOKEN
                    continue
                elif c == "]" and self.first and self.stack and type(self.stack[-1]) is list:
                    self._close(list)
                else:
                    return self._fail(base + i, f"expected a value, found {c!r}")
            elif mode == _AFTER:
                if c == ",":
                    if type(self.stack[-1]) is list:
                        self.mode = _VALUE
                    else:
                        self.mode = _KEY
                    self.first = False
                elif c == "}" and type(self.stack[-1]) is dict:
                    self._close(dict)
                elif c == "]" and type(self.stack[-1]) is list:
                    self._close(list)
                else:
                    return self._fail(base + i, f"expected ',' or a closing bracket, found {c!r}")
            elif mode == _KEY:
                if c == '"':
                    self.is_key = True
                    self.mode = _STRING
                elif c == "}" and self.first:
                    self._close(dict)
                else:
                    return self._fail(base + i, f"expected a key in double quotes, found {c!r}")
            elif mode == _COLON:
                if c != ":":
                    return self._fail(base + i, f"expected ':' after the key, found {c!r}")
                self.mode = _VALUE
                self.first = False
            else:  # _DONE: only whitespace may follow; _ERROR: nothing more is read
                if mode == _DONE:
                    self._fail(base + i, "unexpected text after the end of the value")
                return
            i += 1

    def _close(self, kind: type) -> None:
        self.stack.pop()
        if kind is dict:
            self.keys.pop()
        self._value_done()

    def _escape(self, s: str, i: int, base: int) -> int:
        """Continue the escape in ``self.esc`` with ``s[i:]``; returns the new position."""
        esc = self.esc
        n = len(s)
        if len(esc) == 1:  # just the backslash
            c = s[i]
            if c in _ESCAPES:
                self.pieces.append(_ESCAPES[c])
                self.esc = ""
                return i + 1
            if c != "u":
                self._fail(base + i - 1, f"invalid escape '\\{c}' in a string")
                return n
            esc += "u"
            i += 1
        while i < n and len(esc) < 6:
            if s[i] not in _HEX:
                self._fail(base + i, f"invalid \\u escape in a string: {esc + s[i]!r}")
                return n
            esc += s[i]
            i += 1
        if len(esc) < 6:
            self.esc = esc
            return i
        code = int(esc[2:], 16)
        if 0xD800 <= code < 0xE000:
            self.surrogates = True
        self.pieces.append(chr(code))
        self.esc = ""
        return i

    # -- what the end of the text means -------------------------------------

    def end(self) -> None:
        """The end of the text: a number or literal at the top level is whole."""
        if self.mode == _TOKEN and not self.stack:
            self._end_token(self.consumed)

    def value(self) -> Any:
        """The value so far, the string being read put in its place (joined
        once: reading it again before more of it comes costs nothing)."""
        if self.mode == _STRING and not self.is_key and self.pieces:
            pieces = self.pieces
            if len(pieces) > 1 or pieces[0] is not self.shown:
                w = self.watched
                if w is not None:  # the pieces become one: what was not handed out waits
                    w.pending += "".join(pieces[w.cursor:])
                    w.cursor = 1
                s = pieces[0] if len(pieces) == 1 else "".join(pieces)
                self.pieces = [s]
                self.shown = s
                self._replace(_fix_surrogates(s) if self.surrogates else s)
        return None if self.root is _NOTHING else self.root

    def appended(self, path: Path) -> str:
        """The text the string at ``path`` gained since the last call."""
        w = self.watch.get(path)
        if w is None:
            w = self.watch[path] = _Watch(path)
            if self.mode == _STRING and not self.is_key and self.path() == path:
                w.started = True
                self.watched = w
        if not w.started:
            found = self.lookup(path)
            if type(found) is str:  # a string read whole before the first call
                w.started = w.closed = True
                w.pending = found
            elif found is not _NOTHING:
                raise TypeError(f"StreamingArgs.appended: the value at {list(path)} is "
                                f"{type(found).__name__}, not a string")
        if w.repeated:
            raise ValueError(f"StreamingArgs.appended: a second string at {list(path)} "
                             "(a repeated key): the text handed out so far was the first one's")
        out, w.pending = w.pending, ""
        if self.watched is w:
            pieces = self.pieces
            if w.cursor < len(pieces):
                out += pieces[w.cursor] if w.cursor == len(pieces) - 1 else "".join(pieces[w.cursor:])
                w.cursor = len(pieces)
            if out and "\ud800" <= out[-1] <= "\udbff":  # half a pair: its other half may follow
                out, w.pending = out[:-1], out[-1]
        return _fix_surrogates(out) if SURROGATE.search(out) else out


class StreamingArgs:
    """Arguments streamed in chunks: ``feed(chunk)`` reads one, :attr:`value`
    is the best value so far, :meth:`appended` the text a string gained since
    it was last asked, ``finish()`` -> :class:`Recovered` for the whole text.

    ``tool`` (optional) is the tool's name, used by :meth:`finish` as in
    :func:`normalize_tool_args`. Chunks are ``str``, or ``bytes`` decoded as
    UTF-8 incrementally (a character split between chunks is fine; bytes that are not
    UTF-8 end the stream, and :meth:`finish` refuses it with their offset).
    ``schema`` (optional, as in :func:`normalize_tool_args`) is compiled at
    once; :meth:`finish` checks the whole value against it.
    """

    __slots__ = ("tool", "schema", "_parser", "_chunks", "_decoder", "_finished", "_nbytes", "_bad_utf8")

    def __init__(self, tool: str | None = None, *, schema: Any = None) -> None:
        if tool is not None and not isinstance(tool, str):
            raise TypeError(f"StreamingArgs: tool must be a str or None, not {type(tool).__name__}")
        self.tool = tool
        self.schema: Any = None
        if schema is not None:
            from ._toolschema import Schema

            self.schema = Schema(schema)
        self._parser = _Parser()
        self._chunks: list[str] = []
        self._decoder: Any = None
        self._finished = False
        self._nbytes = 0                      # bytes fed so far (bytes chunks)
        self._bad_utf8: str | None = None     # why the bytes stopped being text

    def feed(self, chunk: str | bytes) -> None:
        """Read ``chunk`` (the value so far is :attr:`value`)."""
        if self._finished:
            raise ValueError("StreamingArgs.feed: the stream was already finished")
        parser = self._parser
        if type(chunk) is str:  # the common cases, kept short
            if parser.mode == _STRING:
                if not parser.esc and '"' not in chunk and "\\" not in chunk:
                    self._chunks.append(chunk)  # more of a string: a piece of it
                    parser.pieces.append(chunk)
                    parser.consumed += len(chunk)
                    return
                if chunk == "\\" and not parser.esc or parser.esc == "\\" and chunk in _ESCAPES:
                    self._chunks.append(chunk)  # an escape, a character at a time
                    if parser.esc:
                        parser.pieces.append(_ESCAPES[chunk])
                        parser.esc = ""
                    else:
                        parser.esc = "\\"
                    parser.consumed += 1
                    return
            if parser.mode != _ERROR:
                self._chunks.append(chunk)
                parser.feed(chunk)
                return
        if isinstance(chunk, (bytes, bytearray, memoryview)):
            if self._bad_utf8 is not None:
                return  # nothing after bytes that are not UTF-8 is read
            text = self._decode(bytes(chunk))
        elif isinstance(chunk, str):
            text = chunk
        else:
            raise TypeError(f"StreamingArgs.feed: chunk must be str or bytes, not {type(chunk).__name__}")
        if text:
            self._chunks.append(text)
            if self._parser.mode != _ERROR:
                self._parser.feed(text)
        if self._bad_utf8 is not None:
            self._parser.mode = _ERROR  # nothing after the bad bytes is read

    def _decode(self, data: bytes, final: bool = False) -> str:
        """UTF-8, strictly: a character split between chunks waits for its
        end; bytes that are not UTF-8 stop the stream there (the text before
        them is kept), and :meth:`finish` refuses it with the byte offset.
        Replacing them would pass a changed value off as what was sent."""
        if self._decoder is None:
            self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        pending = len(self._decoder.getstate()[0])
        start = self._nbytes - pending
        self._nbytes += len(data)
        try:
            return str(self._decoder.decode(data, final))
        except UnicodeDecodeError as exc:
            self._bad_utf8 = f"the arguments are not valid UTF-8 (byte {start + exc.start})"
            return bytes(exc.object[:exc.start]).decode("utf-8")

    @property
    def value(self) -> Any:
        """The best value so far (None before any): the same object at every
        read, grown. A string still being read is joined here, once per read
        that follows new text of it: follow a long one with :meth:`appended`."""
        return self._parser.value()

    def appended(self, *path: str | int) -> str:
        """The text the string at ``path`` (keys of objects, indexes of arrays;
        none for a string at the top) gained since the last call for that
        path: all of it so far at the first call, ``""`` while it has not
        begun or has not grown. Each character is handed out once, so
        following a string costs its length, whatever the chunks. A
        ``\\uD83D\\uDE00``-style pair waits until both halves have come.
        Raises TypeError when the value at ``path`` is not a string, and
        ValueError when a second string comes at the same path (a repeated
        key: JSON keeps the last, and what was handed out was the first)."""
        parser = self._parser
        w = parser.watched
        if w is not None and w.path == path and not w.pending and not parser.surrogates:
            cursor = w.cursor  # the common case, kept short: the open string, a piece more
            pieces = parser.pieces
            n = len(pieces)
            if cursor == n - 1:
                w.cursor = n
                return pieces[cursor]
            if cursor == n:
                return ""
        if not all(type(k) is str or type(k) is int for k in path):
            raise TypeError("StreamingArgs.appended: a path is keys (str) and indexes (int)")
        return parser.appended(path)

    @property
    def text(self) -> str:
        """Everything read so far."""
        if len(self._chunks) > 1:
            self._chunks[:] = ["".join(self._chunks)]
        return self._chunks[0] if self._chunks else ""

    @property
    def complete(self) -> bool:
        """True once a whole JSON value has been read."""
        return self._parser.mode == _DONE

    def finish(self) -> Recovered:
        """The whole text, recovered; ``ok=False`` with ``cut`` and the reason
        when the stream was cut off inside a value (nothing cut is passed off
        as whole: ``value`` then shows the completed reading, for display)."""
        if self.schema is None:
            return self._finish()
        from ._toolschema import SchemaRecovered, check_recovered

        result = self._finish()
        if isinstance(result, SchemaRecovered):  # recovery ran with the schema
            return result
        if result.ok and not isinstance(result.value, dict):  # a bare value, read whole
            return normalize_tool_args(self.text, self.tool, schema=self.schema)
        return check_recovered(result, self.schema, False, self.text)

    def _finish(self) -> Recovered:
        if self._decoder is not None and not self._finished and self._bad_utf8 is None:
            tail = self._decode(b"", True)
            if tail:
                self._chunks.append(tail)
                if self._parser.mode != _ERROR:
                    self._parser.feed(tail)
        self._finished = True
        text = self.text
        if self._bad_utf8 is not None:
            return Recovered(text.strip(), False, None, None, self._bad_utf8)
        parser = self._parser
        parser.end()
        if parser.mode == _DONE and not parser.beyond and (
                self.tool is None or isinstance(parser.root, dict)):
            # read whole already: the value is the parser's (integers of any size exact; one past a
            # double's range, 1e999, is the recovery's to map)
            return Recovered(text.strip(), True, "parse", parser.root)
        return normalize_tool_args(text, self.tool, schema=self.schema)
