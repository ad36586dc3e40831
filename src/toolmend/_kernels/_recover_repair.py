"""The repair engine of the pure-Python recovery twin (``repair_json``).

One string-aware pass over the text with an explicit stack (no recursion, no
backtracking): it adds structure (quotes, commas, colons, closing brackets,
``null`` for a missing value) and drops what is not data (comments, prose,
fences, chat-template tokens, stray commas and brackets), and refuses with
the reason and the offset where no reading is safe. It returns the value, its
compact JSON text (numbers digit for digit) and the log of what it changed.
The compiled twin is ``repair_json`` in ``ext/_recover.pyx``.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import LiteralError

# Whitespace outside strings: Unicode spaces and the invisible ones.
_WS = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff]*")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_KEY = re.compile(r"[\w$@.\-]+")
_NUMBER = re.compile(
    r"[-+]?(?:0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*"
    r"|(?:[0-9]+(?:_[0-9]+)*)?(?:\.(?:[0-9]+(?:_[0-9]+)*)?)?(?:[eE][-+]?[0-9]*)?)")
_STRING_STOP = {'"': re.compile(r'["\\\x00-\x1f]'), "'": re.compile(r"['\\\x00-\x1f]")}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "'": "'"}
_JSON_SPECIAL = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                 "\b": "\\b", "\f": "\\f"}
_DOUBLE_ENCODED = re.compile(r'[\[{][\s\[{]*\\"')
_UNESCAPE = re.compile(r"\\(.)", re.S)
_LITERALS = {"true": True, "false": False, "null": None, "none": None, "undefined": None}
_NAN = ("nan", "infinity", "inf")
_MONGO_STR = ("ObjectId", "ISODate", "UUID", "Date", "Timestamp")
_MONGO_NUM = ("NumberLong", "NumberInt", "NumberDecimal")
_TRAILING_OK = re.compile(r"[A-Za-z<`~;)!?.*|>_\u0080-\U0010ffff]")
# How far a look-ahead (is this quote a closing one?) may read: keeps the pass linear.
_LOOK = 256

# frame kinds and states
_OBJ, _ARR, _TOP = 0, 1, 2
_KEY_FIRST, _KEY_NEXT, _COLON, _VALUE, _AFTER = range(5)


def _esc(m: re.Match[str]) -> str:
    c = m.group(0)
    return _JSON_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _json_string(v: str) -> str:
    return '"' + _JSON_SPECIAL.sub(_esc, v) + '"'


def _unescape_one(m: re.Match[str]) -> str:
    e = m.group(1)
    return e if e in "\"\\/" else m.group(0)


class _Refuse(Exception):
    def __init__(self, pos: int, what: str) -> None:
        self.pos = pos
        self.what = what


class _Engine:
    __slots__ = ("s", "n", "fixes")

    def __init__(self, s: str) -> None:
        self.s = s
        self.n = len(s)
        self.fixes: list[tuple[str, int, str]] = []

    def fix(self, code: str, pos: int, message: str) -> None:
        self.fixes.append((code, pos, message))

    # -- whitespace and comments ------------------------------------------
    def skip(self, i: int, hash_ok: bool = True) -> int:
        s, n = self.s, self.n
        while True:
            j = _WS.match(s, i).end()  # type: ignore[union-attr]
            if j > i and s[i:j].strip(" \t\r\n"):
                self.fix("whitespace", i, "odd whitespace treated as a space")
            i = j
            if i >= n:
                return i
            c = s[i]
            if c == "/" and i + 1 < n and s[i + 1] == "/":
                k = s.find("\n", i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            elif c == "/" and i + 1 < n and s[i + 1] == "*":
                k = s.find("*/", i + 2)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k + 2
            elif c == "#" and hash_ok:
                k = s.find("\n", i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            else:
                return i

    # -- strings -----------------------------------------------------------
    def closes(self, i: int, ctx: int, ws_before: bool) -> bool:
        """Whether the quote just before ``i`` ends the string (ctx: the
        frame kind the string is a value of; -1 for a key, 3 in a call)."""
        s, n = self.s, self.n
        if ctx == -1:
            return True
        j = _WS.match(s, i).end()  # type: ignore[union-attr]
        if j >= n:
            return True
        c = s[j]
        if ctx == 3:
            return c == ")"
        if ctx == _TOP:
            return True
        if c == "}" or c == "]" or c == ":":
            return True
        if c == ",":
            k = _WS.match(s, j + 1).end()  # type: ignore[union-attr]
            if k >= n:
                return True
            d = s[k]
            if ctx == _ARR:
                return True
            if d in "\"'}/#.":
                return True
            m = _KEY.match(s, k)
            if m is not None:
                e = _WS.match(s, m.end()).end()  # type: ignore[union-attr]
                return e < n and s[e] == ":"
            return False
        if c == "+":
            return True
        if c == "/" and j + 1 < n and s[j + 1] in "/*":
            return True
        if c == "\"" or c == "'":
            if ctx == _ARR:
                return j > i
            # a quoted key follows (a comma is missing)?
            end = s.find(c, j + 1, j + _LOOK)
            if end < 0:
                return False
            body = s[j + 1:end]
            if "\n" in body:
                return False
            e = _WS.match(s, end + 1).end()  # type: ignore[union-attr]
            return e < n and s[e] in ":{["
        if ctx == _ARR and (c == "{" or c == "[") and j > i:
            return True
        return False

    def string(self, i: int, ctx: int) -> tuple[str, int, bool]:
        """s[i] opens a string; return (value, index past it, complete)."""
        s, n = self.s, self.n
        q = s[i]
        stop = _STRING_STOP[q]
        parts: list[str] = []
        j = i + 1
        while True:
            m = stop.search(s, j)
            if m is None:
                parts.append(s[j:])
                self.fix("truncated", n, "unterminated string closed")
                return "".join(parts), n, False
            k = m.start()
            if k > j:
                parts.append(s[j:k])
            c = s[k]
            if c == "\\":
                if k + 1 >= n:
                    self.fix("truncated", k, "cut escape dropped, string closed")
                    return "".join(parts), n, False
                e = s[k + 1]
                if e == "u":
                    if _HEX4.match(s, k + 2):
                        code = int(s[k + 2:k + 6], 16)
                        j = k + 6
                        if 0xD800 <= code < 0xDC00 and s.startswith("\\u", j) and _HEX4.match(s, j + 2):
                            low = int(s[j + 2:j + 6], 16)
                            if 0xDC00 <= low < 0xE000:
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                                j += 6
                        parts.append(chr(code))
                        continue
                    if k + 6 > n and all(ch in "0123456789abcdefABCDEF" for ch in s[k + 2:]):
                        self.fix("truncated", k, "cut escape dropped, string closed")
                        return "".join(parts), n, False
                    parts.append("\\u")
                    self.fix("escape", k, "invalid escape kept as a backslash")
                elif e in _ESCAPES:
                    parts.append(_ESCAPES[e])
                else:
                    parts.append("\\" + e)
                    self.fix("escape", k, "invalid escape kept as a backslash")
                j = k + 2
            elif c == q:
                if self.closes(k + 1, ctx, False):
                    return "".join(parts), k + 1, True
                parts.append(q)
                self.fix("inner_quote", k, "quote inside a string escaped")
                j = k + 1
            else:
                parts.append(c)
                self.fix("control", k, "control character inside a string escaped")
                j = k + 1

    # -- scalars -----------------------------------------------------------
    def number(self, i: int) -> tuple[Any, str, int] | None:
        """A number form at i: (value, JSON text, end); None when it is cut
        before its first digit (the value is dropped)."""
        s, n = self.s, self.n
        end = _NUMBER.match(s, i).end()  # type: ignore[union-attr]
        tok = s[i:end]
        if end < n and (s[end].isalnum() or s[end] in "_.$"):
            raise _Refuse(i, "a bare word where a value belongs")
        sign = ""
        body = tok
        if tok[:1] in "+-":
            sign, body = ("-" if tok[0] == "-" else ""), tok[1:]
            if tok[0] == "+":
                self.fix("number", i, "'+' sign dropped")
        if "_" in body:
            body = body.replace("_", "")
            self.fix("number", i, "digit separators dropped")
        if body[:2] in ("0x", "0X"):
            self.fix("number", i, "hexadecimal number written in decimal")
            v = int(body, 16)
            v = -v if sign else v
            return v, str(v), end
        mant, _, exp = body.partition("e") if "e" in body else body.partition("E")
        has_exp = ("e" in body) or ("E" in body)
        ip, dot, fp = mant.partition(".")
        if not ip and not fp:
            if end >= n:
                return None
            raise _Refuse(i, "a number with no digits")
        cut = end >= n
        if has_exp and not exp.lstrip("+-"):
            if not cut:
                raise _Refuse(i, "a number with an empty exponent")
            self.fix("truncated", i, "cut exponent dropped")
            has_exp = False
        if not ip:
            ip = "0"
            self.fix("number", i, "leading zero added")
        elif len(ip) > 1 and ip[0] == "0":
            ip = ip.lstrip("0") or "0"
            self.fix("number", i, "leading zeros dropped")
        if dot and not fp:
            if cut and not has_exp:
                self.fix("truncated", i, "cut decimal point dropped")
                dot = ""
            else:
                fp = "0"
                self.fix("number", i, "zero added after the decimal point")
        text = sign + ip + ("." + fp if dot else "") + ("e" + exp if has_exp else "")
        if dot or has_exp:
            return float(text), text, end
        try:
            return int(text), text, end
        except ValueError:  # more digits than int() accepts
            raise _Refuse(i, "an integer too long to convert") from None

    def word(self, i: int, ctx: int) -> tuple[Any, str, int] | None:
        """A bare word at i: a literal, NaN/Infinity, a MongoDB call."""
        s, n = self.s, self.n
        sign = ""
        j = i
        if s[i] in "+-":
            sign = s[i]
            j += 1
        m = _IDENT.match(s, j)
        if m is None:
            raise _Refuse(i, "unexpected character where a value belongs")
        w = m.group(0)
        end = m.end()
        low = w.lower()
        if not sign and low in _LITERALS:
            v = _LITERALS[low]
            text = "null" if v is None else ("true" if v else "false")
            if w != text:
                self.fix("literal", i, f"{w} written as {text}")
            return v, text, end
        if low in _NAN:
            self.fix("nan", i, f"{sign}{w} written as null")
            return None, "null", end
        if not sign and end >= n:
            for full in ("true", "false", "null", "none", "undefined"):
                if full.startswith(low):
                    self.fix("truncated", i, f"cut literal {w!r} completed")
                    v = _LITERALS[full]
                    return v, "null" if v is None else ("true" if v else "false"), end
        k = _WS.match(s, end).end()  # type: ignore[union-attr]
        if not sign and k < n and s[k] == "(" and (w in _MONGO_STR or w in _MONGO_NUM):
            return self.call(i, w, k + 1)
        raise _Refuse(i, "a bare word where a value belongs")

    def call(self, i: int, name: str, j: int) -> tuple[Any, str, int]:
        s, n = self.s, self.n
        j = self.skip(j)
        if j >= n:
            raise _Refuse(i, f"unclosed {name}(")
        if s[j] in "\"'":
            arg, j, done = self.string(j, 3)
            if not done:
                raise _Refuse(i, f"unclosed {name}(")
            v: Any = arg
        elif s[j] in "+-0123456789":
            got = self.number(j)
            if got is None:
                raise _Refuse(i, f"unclosed {name}(")
            v, _, j = got
        else:
            raise _Refuse(j, f"{name}( takes a string or a number")
        j = self.skip(j)
        if j >= n or s[j] != ")":
            raise _Refuse(j, f"expected ')' to close {name}(")
        self.fix("mongo", i, f"{name}(...) written as its value")
        if name in _MONGO_NUM:
            if isinstance(v, str):
                t = v.strip()
                if re.fullmatch(r"-?(?:0|[1-9][0-9]*)", t):
                    v = int(t)
                elif re.fullmatch(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", t):
                    return float(t), t, j + 1
                else:
                    raise _Refuse(i, f"{name}( of something that is not a number")
            return v, str(v) if not isinstance(v, float) else repr(v), j + 1
        if not isinstance(v, str):
            raise _Refuse(i, f"{name}( of a number")
        return v, _json_string(v), j + 1

    # -- the document ------------------------------------------------------
    def start(self) -> int:
        """Where the JSON begins: after prose, fences, chat-template tokens."""
        s, n = self.s, self.n
        i = self.skip(0)
        if i >= n:
            raise _Refuse(0, "no JSON value in the text (only whitespace or comments)")
        c = s[i]
        if c in "{[\"'":
            return i
        if c in "+-.0123456789":
            m = _NUMBER.match(s, i)
            e = m.end() if m else i  # type: ignore[union-attr]
            if e > i and (e >= n or not (s[e].isalnum() or s[e] in "._")):
                if _WS.match(s, e).end() >= n:  # type: ignore[union-attr]
                    return i
        m = _IDENT.match(s, i)
        if m is not None and m.end() >= n - 0 and m.group(0).lower() in _NAN + tuple(_LITERALS):
            return i
        k = i
        while True:
            a = s.find("{", k)
            b = s.find("[", k)
            if a < 0 and b < 0:
                raise _Refuse(i, "no JSON value in the text (prose, not arguments)")
            p = a if b < 0 or (0 <= a < b) else b
            if self.plausible(p):
                self.fix("prose", i, "text before the JSON dropped")
                return p
            k = p + 1

    def plausible(self, p: int) -> bool:
        s, n = self.s, self.n
        j = _WS.match(s, p + 1).end()  # type: ignore[union-attr]
        if j >= n:
            return False
        c = s[j]
        if s[p] == "{":
            if c in "\"'}":
                return True
            m = _KEY.match(s, j)
            if m is None:
                return False
            e = _WS.match(s, m.end()).end()  # type: ignore[union-attr]
            return e < n and s[e] == ":"
        if c in "{[\"]-0123456789":
            return True
        m = _IDENT.match(s, j)
        return m is not None and m.group(0) in ("true", "false", "null")

    def run(self) -> tuple[Any, str]:
        s, n = self.s, self.n
        i = self.start()
        # frame: [kind, state, container, pending key text, pending key, count, open pos]
        tops: list[Any] = []
        top_texts: list[str] = []
        stack: list[list[Any]] = [[_TOP, _VALUE, tops, None, None, 0, i]]
        out: list[str] = []
        mark = 0
        while True:
            f = stack[-1]
            kind, state = f[0], f[1]
            i = self.skip(i, not (kind == _OBJ and state == _VALUE))
            c = s[i] if i < n else ""
            if kind == _TOP:
                if state == _AFTER:
                    top_texts.append("".join(out[mark:]))
                    mark = len(out)
                    if not c:
                        break
                    if c in "}]":
                        self.fix("bracket", i, f"extra '{c}' dropped")
                        i += 1
                        continue
                    if c == ",":
                        j = self.skip(i + 1)
                        if j >= n:
                            self.fix("comma", i, "comma after the document dropped")
                            break
                        if s[j] in "{[":
                            i = j
                            c = s[j]
                        else:
                            self.fix("prose", i, "text after the JSON dropped")
                            break
                    if c in "{[":
                        self.fix("concatenated", i, "another value follows: the values as a list")
                        f[1] = _VALUE
                        continue
                    if c in "\"':0123456789-":
                        raise _Refuse(i, "unexpected text after the end of the value")
                    if c.isalpha() or c == "_" or c == "$":
                        m = _KEY.match(s, i)
                        e = _WS.match(s, m.end()).end()  # type: ignore[union-attr,union-attr]
                        if e < n and s[e] == ":":
                            raise _Refuse(i, "a member after the end of the object")
                    if _TRAILING_OK.match(c):
                        self.fix("prose", i, "text after the JSON dropped")
                        break
                    raise _Refuse(i, "unexpected text after the end of the value")
                if not c:
                    raise _Refuse(i, "no JSON value in the text")
                got = self.value_token(i, _TOP)
                if got is None:
                    break
                f[1] = _AFTER
                if got[0] == "open":
                    tops.append(got[1][2])
                    stack.append(got[1])
                    out.append(got[2])
                    i = got[3]
                    continue
                tops.append(got[1])
                out.append(got[2])
                i = got[3]
                continue
            if kind == _OBJ:
                if state == _KEY_FIRST or state == _KEY_NEXT:
                    if not c:
                        self.close_all(stack, out, n)
                        continue
                    if c == "}":
                        if state == _KEY_NEXT:
                            self.fix("comma", i, "trailing comma dropped")
                        self.close(stack, out)
                        i += 1
                        continue
                    if c == ",":
                        self.fix("comma", i, "stray comma dropped")
                        i += 1
                        continue
                    if c == "]":
                        i = self.mismatched(stack, out, i)
                        continue
                    if s.startswith("...", i) or c == "\u2026":
                        self.fix("ellipsis", i, "ellipsis dropped")
                        i += 1 if c == "\u2026" else 3
                        j = self.skip(i)
                        if j < n and s[j] == ",":
                            i = j + 1
                        continue
                    if c in "\"'":
                        key, j, done = self.string(i, -1)
                        if not done:
                            if any(ch in key for ch in ":}{,"):
                                raise _Refuse(i, "an unterminated key")
                            self.fix("truncated", i, "cut key dropped")
                            self.close_all(stack, out, n)
                            i = n
                            continue
                    elif c == ":":
                        raise _Refuse(i, "a member with no key: a key would have to be invented")
                    elif c in "{[":
                        raise _Refuse(i, "an object or array where a key belongs")
                    else:
                        m = _KEY.match(s, i)
                        if m is None:
                            raise _Refuse(i, "unexpected character where a key belongs")
                        key, j = m.group(0), m.end()
                        e = self.skip(j)
                        if e < n and s[e] != ":" or (e >= n and j < n):
                            raise _Refuse(i, f"piece {key!r} has no colon")
                        self.fix("key", i, "key quoted")
                    f[3] = _json_string(key)
                    f[4] = key
                    f[1] = _COLON
                    i = j
                    continue
                if state == _COLON:
                    if not c:
                        self.fix("truncated", i, "dangling key dropped")
                        self.close_all(stack, out, n)
                        continue
                    if c == ":":
                        j = self.skip(i + 1, False)
                        if j < n and s[j] == ":":
                            raise _Refuse(j, "two colons after a key")
                        f[1] = _VALUE
                        i += 1
                        continue
                    if c in ",}":
                        self.fix("value", i, "missing value written as null")
                        self.attach(f, None, "null", out)
                        f[1] = _AFTER
                        continue
                    self.fix("colon", i, "missing colon added")
                    f[1] = _VALUE
                    continue
                if state == _VALUE:
                    if not c:
                        self.fix("truncated", i, "key without a value dropped")
                        self.close_all(stack, out, n)
                        continue
                    if c in ",}":
                        self.fix("value", i, "missing value written as null")
                        self.attach(f, None, "null", out)
                        f[1] = _AFTER
                        continue
                    if c == "]":
                        raise _Refuse(i, "']' where a value belongs")
                    if c == ":":
                        raise _Refuse(i, "two colons after a key")
                    got = self.value_token(i, _OBJ)
                    f[1] = _AFTER
                    if got is None:
                        self.fix("truncated", i, "cut value dropped")
                        self.close_all(stack, out, n)
                        continue
                    if got[0] == "open":
                        self.attach_open(f, got[1], got[2], out)
                        stack.append(got[1])
                    else:
                        self.attach(f, got[1], got[2], out)
                    i = got[3]
                    continue
                # _AFTER
                if not c:
                    self.close_all(stack, out, n)
                    continue
                if c == ",":
                    f[1] = _KEY_NEXT
                    i += 1
                    continue
                if c == "}":
                    self.close(stack, out)
                    i += 1
                    continue
                if c == "]":
                    i = self.mismatched(stack, out, i)
                    continue
                if c == ":":
                    raise _Refuse(i, "a colon after a value")
                if c in "\"'" or _KEY.match(s, i):
                    self.fix("comma", i, "missing comma added")
                    f[1] = _KEY_NEXT
                    continue
                if c == "\u2026" or s.startswith("...", i):
                    f[1] = _KEY_NEXT
                    continue
                raise _Refuse(i, "expected ',' or '}' after a member")
            # array
            if state == _VALUE or state == _KEY_FIRST:  # _KEY_FIRST: right after '['
                if not c:
                    self.close_all(stack, out, n)
                    continue
                if c == "]":
                    if state == _VALUE:
                        self.fix("comma", i, "trailing comma dropped")
                    self.close(stack, out)
                    i += 1
                    continue
                if c == ",":
                    if state == _KEY_FIRST:
                        self.fix("comma", i, "stray comma dropped")
                        i += 1
                        continue
                    raise _Refuse(i, "an empty element between commas")
                if c == "}":
                    i = self.mismatched(stack, out, i)
                    continue
                if c == ":":
                    raise _Refuse(i, "a colon where a value belongs")
                if c == "\u2026" or s.startswith("...", i):
                    self.fix("ellipsis", i, "ellipsis dropped")
                    i += 1 if c == "\u2026" else 3
                    j = self.skip(i)
                    if j < n and s[j] == ",":
                        i = j + 1
                    continue
                got = self.value_token(i, _ARR)
                f[1] = _AFTER
                if got is None:
                    self.fix("truncated", i, "cut value dropped")
                    self.close_all(stack, out, n)
                    continue
                if got[0] == "open":
                    self.attach_open(f, got[1], got[2], out)
                    stack.append(got[1])
                else:
                    self.attach(f, got[1], got[2], out)
                i = got[3]
                continue
            # array _AFTER
            if not c:
                self.close_all(stack, out, n)
                continue
            if c == ",":
                f[1] = _VALUE
                i += 1
                continue
            if c == "]":
                self.close(stack, out)
                i += 1
                continue
            if c == "}":
                i = self.mismatched(stack, out, i)
                continue
            if c == ":":
                raise _Refuse(i, "a key inside an array")
            if c == "\u2026" or s.startswith("...", i):
                f[1] = _VALUE
                continue
            if c in "\"'{[+-.0123456789" or c.isalpha():
                self.fix("comma", i, "missing comma added")
                f[1] = _VALUE
                continue
            raise _Refuse(i, "expected ',' or ']' after an element")
        if len(tops) == 1:
            return tops[0], top_texts[0]
        return tops, "[" + ",".join(top_texts) + "]"

    # -- values and containers ---------------------------------------------
    def value_token(self, i: int, ctx: int) -> tuple[Any, ...] | None:
        s = self.s
        c = s[i]
        if c == "{" or c == "[":
            kind = _OBJ if c == "{" else _ARR
            frame = [kind, _KEY_FIRST, {} if c == "{" else [], None, None, 0, i]
            return ("open", frame, c, i + 1)
        if c == '"' or c == "'":
            v, j, _ = self.string(i, ctx)
            if c == "'":
                self.fix("quote", i, "single-quoted string")
            # "a" + "b": string concatenation
            while True:
                k = _WS.match(s, j).end()  # type: ignore[union-attr]
                if k < self.n and s[k] == "+":
                    e = self.skip(k + 1)
                    if e < self.n and s[e] in "\"'":
                        w, j, _ = self.string(e, ctx)
                        v += w
                        self.fix("concat", k, "strings joined")
                        continue
                    raise _Refuse(k, "a concatenation with something that is not a string")
                break
            return ("value", v, _json_string(v), j)
        if c in "0123456789.":
            got = self.number(i)
            if got is None:
                return None
            return ("value", got[0], got[1], got[2])
        if c in "+-":
            if i + 1 < self.n and (s[i + 1] in "0123456789."):
                got = self.number(i)
                if got is None:
                    return None
                return ("value", got[0], got[1], got[2])
            if i + 1 >= self.n:
                return None
            w = self.word(i, ctx)
            return ("value", w[0], w[1], w[2]) if w else None
        if c.isalpha() or c == "_" or c == "$":
            w = self.word(i, ctx)
            return ("value", w[0], w[1], w[2]) if w else None
        raise _Refuse(i, "unexpected character where a value belongs")

    @staticmethod
    def attach(f: list[Any], value: Any, text: str, out: list[str]) -> None:
        if f[5]:
            out.append(",")
        f[5] += 1
        if f[0] == _OBJ:
            out.append(f[3])
            out.append(":")
            f[2][f[4]] = value
        else:
            f[2].append(value)
        out.append(text)

    @staticmethod
    def attach_open(f: list[Any], child: list[Any], opener: str, out: list[str]) -> None:
        _Engine.attach(f, child[2], opener, out)

    def close(self, stack: list[list[Any]], out: list[str]) -> None:
        f = stack.pop()
        out.append("}" if f[0] == _OBJ else "]")

    def close_all(self, stack: list[list[Any]], out: list[str], i: int) -> None:
        if len(stack) > 1:
            self.fix("truncated", i, f"{len(stack) - 1} unclosed bracket(s) closed")
        while len(stack) > 1:
            self.close(stack, out)

    def mismatched(self, stack: list[list[Any]], out: list[str], i: int) -> int:
        """A closer that does not close the innermost container."""
        s, n = self.s, self.n
        c = s[i]
        want = _OBJ if c == "}" else _ARR
        depth = None
        for k in range(len(stack) - 1, 0, -1):
            if stack[k][0] == want:
                depth = k
                break
        if depth is None:
            self.fix("bracket", i, f"stray '{c}' dropped")
            return i + 1
        j = self.skip(i + 1)
        if j < n and s[j] not in "}]":
            raise _Refuse(i, f"'{c}' does not close the innermost bracket, and what follows "
                             "belongs to a different container in each reading")
        self.fix("bracket", i, f"'{c}' also closes the brackets inside it")
        while len(stack) > depth:
            self.close(stack, out)
        return i + 1


def repair_json(s: str) -> tuple[Any, str, list[tuple[str, int, str]]]:
    """Repair ``s`` into JSON: ``(value, json_text, fixes)``, each fix a tuple
    ``(code, offset, message)``. Raises LiteralError (what and where) when no
    reading is safe."""
    eng = _Engine(s)
    try:
        start = eng.start()
        if _DOUBLE_ENCODED.match(s, start):
            inner = _Engine(_UNESCAPE.sub(_unescape_one, s[start:]))
            inner.fixes.append(("double_encoded", start, "backslash-escaped JSON unescaped"))
            value, text = inner.run()
            return value, text, eng.fixes + inner.fixes
        eng.fixes.clear()
        value, text = eng.run()
    except _Refuse as exc:
        raise LiteralError(s, exc.pos, exc.what) from None
    return value, text, eng.fixes
