"""Pure-Python twin of ``ext/_recover.pyx``.

Same functions, same results, same error messages; used where the compiled
extension is not available (PyPy, platforms without a wheel) or when
``TOOLMEND_PURE_PYTHON=1``. Written with regexes and ``str`` methods rather
than character loops: that is what is fast in Python.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import orjson

from .._text import CURLY_DOUBLE, CURLY_SINGLE, JSON_NUMBER, MAX_DEPTH
from ..errors import LiteralError

# Below this length a text that fails the pre-filter skips orjson; the twins
# share the threshold so that they take the same path.
PREFILTER_MAX = 512

# Step numbers returned by repair(); recovery.py names them.
STEP_NAMES = ("parse", "curly_quotes", "single_quotes", "unquoted_keys",
              "quotes_and_keys", "trailing_commas")

# A JSON-ish string token in either quote style; an unterminated one runs to
# the end of the text, as the character scanners treat it.
_DQ = r'"(?:[^"\\]|\\.)*"?'
_SQ = r"'(?:[^'\\]|\\.)*'?"


_LONG_DIGITS = re.compile(r"[0-9]{19}")


def needs_exact(s: str) -> bool:
    """Whether ``s`` holds a run of 19 or more digits: an integer orjson
    could turn into a float (beyond 64 bits) may be there."""
    return _LONG_DIGITS.search(s) is not None


def maybe_json(s: str) -> bool:
    """Whether orjson accepts ``s``: the pure build lets orjson itself be the
    pre-filter (a Python scanner would cost more than it saves)."""
    try:
        orjson.loads(s)
    except orjson.JSONDecodeError:
        return False
    return True


# ---------------------------------------------------------------------------
# Curly quotes standing where JSON needs a quote

_HAS_CURLY = re.compile(f"[{CURLY_DOUBLE}{CURLY_SINGLE}]")
_CLOSES = re.compile(r"\s*(?:[:,}\]]|\Z)")


def normalize_structural_quotes(s: str) -> str:
    """Turn curly quotes that delimit strings into ASCII quotes (see the
    compiled twin for the rules)."""
    if not _HAS_CURLY.search(s):
        return s
    out: list[str] = []
    last = "{"
    state = 0  # 0 out, 1 in "..", 2 in '..', 3 in curly "..", 4 in curly '..'
    converted = 0
    may_open = True
    open_in = open_out = 0
    i, n = 0, len(s)
    while True:
        if i >= n:
            if state < 3:
                break
            # The curly quote at open_in closed nothing: undo from there.
            del out[open_out:]
            last = s[open_in]
            out.append(last)
            i, state, may_open = open_in + 1, 0, False
            converted -= 1
            continue
        c = s[i]
        i += 1
        if state == 0:
            if c == '"':
                state = 1
            elif c == "'":
                state = 2
            elif may_open and (c in CURLY_DOUBLE or c in CURLY_SINGLE) and last in "{[,:":
                open_in, open_out = i - 1, len(out)
                state = 3 if c in CURLY_DOUBLE else 4
                c = '"' if state == 3 else "'"
                converted += 1
            elif not c.isspace():
                last = c
            out.append(c)
        elif state in (1, 2):
            out.append(c)
            if c == "\\" and i < n:
                out.append(s[i])
                i += 1
            elif c == ('"' if state == 1 else "'"):
                state = 0
                last = '"'
        else:
            curly = CURLY_DOUBLE if state == 3 else CURLY_SINGLE
            plain = '"' if state == 3 else "'"
            if c == "\\" and i < n:
                out.append(c + s[i])
                i += 1
            elif c in curly and _CLOSES.match(s, i):
                out.append(plain)
                state = 0
                last = '"'
            elif c == plain:
                out.append("\\" + c)
            else:
                out.append(c)
    return "".join(out) if converted else s


# ---------------------------------------------------------------------------
# Strategy 2: single-quoted strings -> double-quoted

_SQ_TOKENS = re.compile(rf"{_DQ}|'((?:[^'\\]|\\.)*)('?)", re.S)
_SQ_BODY = re.compile(r'\\(.)|"', re.S)


def _sq_body(m: re.Match[str]) -> str:
    if m.group(0) == '"':
        return '\\"'
    return "'" if m.group(1) == "'" else m.group(0)


def convert_single_quotes(s: str) -> str:
    """Single-quoted strings become double-quoted; ``s`` itself if none."""
    if "'" not in s:
        return s
    changed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed
        body = m.group(1)
        if body is None:
            return m.group(0)
        changed = True
        return '"' + _SQ_BODY.sub(_sq_body, body) + ('"' if m.group(2) else "")

    out = _SQ_TOKENS.sub(repl, s)
    return out if changed else s


# ---------------------------------------------------------------------------
# Strategy 3: bare keys -> quoted keys

_KEY_TOKENS = re.compile(rf"{_DQ}|{_SQ}|([{{,]\s*)([^\s:,{{}}\[\]\"']+)(?=\s*:)", re.S)


def quote_bare_keys(s: str) -> str:
    """Quote a bare key after ``{`` or ``,`` and before ``:``."""
    changed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed
        key = m.group(2)
        if key is None:
            return m.group(0)
        changed = True
        return m.group(1) + '"' + key.replace("\\", "\\\\") + '"'

    out = _KEY_TOKENS.sub(repl, s)
    return out if changed else s


# ---------------------------------------------------------------------------
# Strategy 5: trailing commas

_COMMA_TOKENS = re.compile(rf"{_DQ}|{_SQ}|,(?=\s*[}}\]])", re.S)


def remove_trailing_commas(s: str) -> str:
    """Drop commas that only whitespace separates from ``}`` or ``]``."""
    if "," not in s:
        return s
    out = _COMMA_TOKENS.sub(lambda m: "" if m.group(0) == "," else m.group(0), s)
    return out if len(out) != len(s) else s


# ---------------------------------------------------------------------------
# Comments: // to the end of the line, /* ... */

_COMMENT_TOKENS = re.compile(rf"{_DQ}|{_SQ}|//[^\n\r]*|/\*.*?\*/|/\*", re.S)


def strip_comments(s: str) -> str:
    """Remove ``//`` and ``/* */`` comments outside strings (see the compiled
    twin); ``s`` itself when there is none, or when a ``/*`` is unclosed."""
    if "/" not in s:
        return s
    changed = unclosed = False

    def repl(m: re.Match[str]) -> str:
        nonlocal changed, unclosed
        tok = m.group(0)
        if tok.startswith("//"):
            changed = True
            return ""
        if tok.startswith("/*"):
            if tok == "/*" or not tok.endswith("*/") or len(tok) < 4:
                unclosed = True
                return tok
            changed = True
            return " "
        return tok

    out = _COMMENT_TOKENS.sub(repl, s)
    return out if changed and not unclosed else s


# ---------------------------------------------------------------------------
# Strategy 7: the object-literal parser

_WS = re.compile(r"\s*")
_BARE_VALUE = re.compile(r"[^,}\]\n\r]*")
_BARE_KEY = re.compile(r"[^:,{}\[\]\n\r]*")
_NUMBER = re.compile(JSON_NUMBER + r"\Z")
_QUOTED = {
    '"': re.compile(r'"((?:[^"\\]|\\.)*)"', re.S),
    "'": re.compile(r"'((?:[^'\\]|\\.)*)'", re.S),
}
_ESCAPE = re.compile(
    r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
    r"|\\u([0-9a-fA-F]{4})|\\(.)",
    re.S,
)
_SIMPLE_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/",
                   "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}
_JSON_SPECIAL = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                 "\b": "\\b", "\f": "\\f"}


def _unescape(m: re.Match[str]) -> str:
    hi, lo, single, other = m.groups()
    if hi is not None:
        return chr(0x10000 + ((int(hi, 16) - 0xD800) << 10) + (int(lo, 16) - 0xDC00))
    if single is not None:
        return chr(int(single, 16))
    return _SIMPLE_ESCAPES.get(other, m.group(0))


def _json_escape(m: re.Match[str]) -> str:
    c = m.group(0)
    return _JSON_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _json_string(v: str) -> str:
    return '"' + _JSON_SPECIAL.sub(_json_escape, v) + '"'


def _read_quoted(s: str, i: int) -> tuple[str, int]:
    m = _QUOTED[s[i]].match(s, i)
    if m is None:
        raise LiteralError(s, i, "unterminated string")
    return _ESCAPE.sub(_unescape, m.group(1)), m.end()


# A number written in a form JSON lacks (007, 0x1F, +5, .5, 5., 1_000): the
# repair engine converts it, so the literal parser must not take it as text.
_NUMBER_FORM = re.compile(
    r"[-+]?(?:0[xX][0-9a-fA-F_]+|(?=[0-9_.]*[0-9])[0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]*)?)\Z")
_ENGINE_WORDS = frozenset(("nan", "-nan", "infinity", "-infinity", "inf", "-inf", "undefined"))
_ENGINE_CALLS = ("ObjectId(", "ISODate(", "UUID(", "Date(", "Timestamp(", "NumberLong(",
                 "NumberInt(", "NumberDecimal(")


def _bare_unsafe(tok: str) -> bool:
    """Whether a bare token holds structure or a form the repair engine reads
    otherwise (a quote, a comment, an ellipsis, a number form, several
    values, NaN, a MongoDB call): then it is not taken as a string."""
    if '"' in tok or tok.startswith(("#", "//", "/*", "...", "\u2026", "+", "(")):
        return True
    first = tok.split(None, 1)[0]
    if first[0] in "-.0123456789" and _NUMBER_FORM.match(first):  # (not _1: a name)
        return first != tok or not _NUMBER.match(tok)
    if first.lower() in ("true", "false", "null", "none"):
        return first != tok
    return tok.lower() in _ENGINE_WORDS or tok.startswith(_ENGINE_CALLS)


def _bare(tok: str) -> tuple[Any, str]:
    first = tok[0]
    if first in "tTfFnN":
        low = tok.lower()
        if low in ("true", "false"):
            return low == "true", low
        if low in ("null", "none"):
            return None, "null"
    elif _NUMBER.match(tok):
        try:
            value: Any = float(tok) if ("." in tok or "e" in tok or "E" in tok) else int(tok)
        except ValueError:  # more digits than int() accepts: keep the text
            pass
        else:
            return value, tok
    return tok, _json_string(tok)


_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _AFTER = range(5)


def parse_object_literal(s: str, max_depth: int = MAX_DEPTH) -> tuple[Any, str]:
    """Parse a JavaScript/Python-style object literal; return (value, json_text).

    See the compiled twin for the grammar. Raises LiteralError on anything
    ambiguous instead of guessing.
    """
    n = len(s)
    i = 0
    state = _VALUE
    stack: list[list[Any]] = []  # frames: [container, key, opening index]
    out: list[str] = []
    top: Any = None
    while True:
        ws = _WS.match(s, i).group(0)  # type: ignore[union-attr]
        newline = "\n" in ws or "\r" in ws
        i += len(ws)
        have_value = False
        value: Any = None
        if state == _AFTER:
            if not stack:
                if i < n:
                    raise LiteralError(s, i, "unexpected text after the end of the value")
                return top, "".join(out)
            frame = stack[-1]
            is_obj = type(frame[0]) is dict
            closer = "}" if is_obj else "]"
            if i >= n:
                raise LiteralError(s, frame[2], "unclosed '%s'" % ("{" if is_obj else "["))
            c = s[i]
            if c == closer:
                i += 1
                stack.pop()
                out.append(closer)
                value, have_value = frame[0], True
            elif c in "}]":
                raise LiteralError(s, i, "'%s' does not close '%s'" % (c, "{" if is_obj else "["))
            elif c == "," or newline:
                if c == ",":
                    i = _WS.match(s, i + 1).end()  # type: ignore[union-attr]
                    if i < n and s[i] == ",":
                        raise LiteralError(s, i, "empty piece between commas")
                if i < n and s[i] == closer:  # trailing separator
                    continue
                out.append(",")
                state = _KEY if is_obj else _VALUE
                continue
            else:
                raise LiteralError(s, i, "expected ',' or '%s'" % closer)
        elif state in (_KEY, _KEY_OR_CLOSE):
            if i >= n:
                raise LiteralError(s, stack[-1][2], "unclosed '{'")
            c = s[i]
            if c == "}" and state == _KEY_OR_CLOSE:
                i += 1
                value, have_value = stack.pop()[0], True
                out.append("}")
            else:
                start = i
                if c in "\"'":
                    key, i = _read_quoted(s, i)
                    i = _WS.match(s, i).end()  # type: ignore[union-attr]
                    if i >= n or s[i] != ":":
                        raise LiteralError(s, start, "expected ':' after key %r" % key)
                else:
                    j = _BARE_KEY.match(s, i).end()  # type: ignore[union-attr]
                    if j >= n or s[j] != ":":
                        raise LiteralError(s, start, "piece %r has no colon" % s[start:j].strip())
                    key = s[start:j].strip()
                    if not key:
                        raise LiteralError(s, start, "empty key")
                    if '"' in key:
                        raise LiteralError(s, start, "bare key %r holds a quote" % key)
                    i = j
                i += 1  # the colon
                stack[-1][1] = key
                out.append(_json_string(key) + ":")
                state = _VALUE
                continue
        else:  # _VALUE or _VALUE_OR_CLOSE
            if i >= n:
                raise LiteralError(s, i, "missing value" if stack else "empty text")
            c = s[i]
            if c == "]" and state == _VALUE_OR_CLOSE:
                i += 1
                value, have_value = stack.pop()[0], True
                out.append("]")
            elif c in "{[":
                if len(stack) >= max_depth:
                    raise LiteralError(s, i, "nesting deeper than %d levels" % max_depth)
                stack.append([{} if c == "{" else [], None, i])
                out.append(c)
                i += 1
                state = _KEY_OR_CLOSE if c == "{" else _VALUE_OR_CLOSE
                continue
            elif c in "\"'":
                value, i = _read_quoted(s, i)
                out.append(_json_string(value))
                have_value = True
            else:
                start = i
                i = _BARE_VALUE.match(s, i).end()  # type: ignore[union-attr]
                tok = s[start:i].strip()
                if not tok:
                    raise LiteralError(s, start, "missing value")
                if _bare_unsafe(tok):
                    raise LiteralError(s, start, "bare value %r is not plain text" % tok)
                value, text = _bare(tok)
                out.append(text)
                have_value = True
        if have_value:
            if stack:
                frame = stack[-1]
                if type(frame[0]) is dict:
                    frame[0][frame[1]] = value
                else:
                    frame[0].append(value)
            else:
                top = value
            state = _AFTER


# ---------------------------------------------------------------------------
# Steps 0-5 in one call

def _unclosed(text: str) -> bool:
    """Starts with { or [ but does not end with } or ]: no step before the
    repair engine can make it JSON (see the compiled twin)."""
    t = text.strip()
    return t[:1] in ("{", "[") and t[-1] not in "}]"


def repair(text: str, start: int = 0, curly: bool = True) -> tuple[int, str, str]:
    """Run the text-rewriting steps in contract order; return
    ``(step, candidate, base)`` (see the compiled twin)."""
    cut = _unclosed(text)
    if start <= 0 and not cut and (len(text) > PREFILTER_MAX or maybe_json(text)):
        return 0, text, text
    original = text.strip()
    if not original:
        return -1, original, original
    base = normalize_structural_quotes(original) if curly else original
    if cut:
        return -1, base, base
    if start <= 1 and base is not original and maybe_json(base):
        return 1, base, base
    quoted = convert_single_quotes(base)
    if start <= 2 and quoted is not base and maybe_json(quoted):
        return 2, quoted, base
    if quoted is base:
        keyed = quote_bare_keys(base)
        if start <= 3 and keyed is not base and maybe_json(keyed):
            return 3, keyed, base
        both = keyed
    else:  # step 3 cannot succeed: a single-quoted string stays outside strings
        both = quote_bare_keys(quoted)
        if start <= 4 and both is not quoted and maybe_json(both):
            return 4, both, base
    trimmed = remove_trailing_commas(both)
    if start <= 5 and trimmed is not both and maybe_json(trimmed):
        return 5, trimmed, base
    return -1, base, base


def recover_text(text: str, curly: bool = True) -> tuple[int, str, Any, str]:
    """Steps 0-5 with orjson as the judge: ``(step, candidate, value, base)``
    (see the compiled twin)."""
    start = 0
    while True:
        step, candidate, base = repair(text, start, curly)
        if step < 0:
            return -1, candidate, None, base
        try:
            return step, candidate, orjson.loads(candidate), base
        except orjson.JSONDecodeError:
            start = step + 1


def make_loads(fallback: Callable[[Any, str | None, tuple[str] | None], Any],
               with_schema: Callable[[Any, str | None, Any, bool], Any] | None = None
               ) -> Callable[..., Any]:
    """Build ``loads(raw, tool=None, *, schema=None, fill_defaults=False)`` on
    ``recover_value`` (see the compiled twin): ``fallback(raw, tool, found)``
    takes what it does not settle, ``with_schema(raw, tool, schema,
    fill_defaults)`` a call with a schema."""
    def loads(raw: Any, tool: str | None = None, *, schema: Any = None,
              fill_defaults: bool = False) -> Any:
        if schema is not None and with_schema is not None:
            return with_schema(raw, tool, schema, fill_defaults)
        if tool is None and type(raw) is str:
            value = recover_value(raw, True)
            if type(value) is not tuple:
                return value
            return fallback(raw, tool, value)
        return fallback(raw, tool, None)
    return loads


def recover_value(text: str, curly: bool = True) -> Any:
    """The value of ``recover_text`` (integers exact), else the object
    literal's, else a 1-tuple ``(base,)`` (see the compiled twin)."""
    step, candidate, value, base = recover_text(text, curly)
    if step >= 0:
        return repair_json(candidate)[0] if needs_exact(candidate) else value
    if base[:1] in ("{", "[") and "/" not in base and not _unclosed(base):
        try:
            return parse_object_literal(base)[0]
        except LiteralError:
            pass
    return (base,)


# ---------------------------------------------------------------------------
# The repair engine (after the seven strategies)

from ._recover_repair import repair_json as repair_json  # noqa: E402
