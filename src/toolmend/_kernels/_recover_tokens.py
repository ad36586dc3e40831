"""The scanner half of the repair engine (see ``_recover_repair``): whitespace
and comments, strings, numbers, bare words and MongoDB calls, each read at an
offset with the repairs it needs logged."""

from __future__ import annotations

import re
from typing import Any

# Whitespace outside strings: Unicode spaces and the invisible ones.
_WS = re.compile(r"[\s\u180e\u200b\u200c\u200d\u2060\ufeff]*")
_INF = float("inf")
_EOL = re.compile(r"[\n\r]")
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
_WORDS = frozenset(_NAN + tuple(_LITERALS))
_MONGO_STR = ("ObjectId", "ISODate", "UUID", "Date", "Timestamp")
_MONGO_NUM = ("NumberLong", "NumberInt", "NumberDecimal")
_TRAILING_OK = re.compile(r"[A-Za-z<`~;)!?.*|>_\u0080-\U0010ffff]")
# The log keeps this many entries, then counts the rest.
MAX_FIXES = 100
# Integers longer than this are refused (Python's conversion limit).
MAX_DIGITS = 4300
# How far a look-ahead (is this quote a closing one?) may read: keeps the pass linear.
_LOOK = 256

# frame kinds and states (a tuple's frame: an array closed by ')'; 3 is a call's context)
_OBJ, _ARR, _TOP, _TUP = 0, 1, 2, 4
# (C:\Users\bob\test: \U is no escape, so the writer did not escape its backslashes; \b and \t
# then may be text too, and so may \\: \\server\share is a UNC path as written)
MIXED_ESCAPES = ("a string holding a backslash JSON does not read (\\U) and one it reads as a "
                  "control character or a backslash (\\b, \\\\): whether its backslashes are escapes "
                  "or text (a path, a regex, LaTeX) is a guess")
# ('It''s': the quote written twice, as SQL and YAML escape one; Python joins two strings there,
# 'It' 's' is 'Its'; JSON has neither. In double quotes, print("") is code far more often than
# an escape: read as written, as other quotes inside a string are)
DOUBLED_QUOTE = ("a quote written twice inside a string ('It''s'): one quote, as SQL and YAML escape it, "
                 "two quotes, or two strings Python joins (Its): which was meant cannot be told")
# ("C:\Users\me\", "b": 1: the quote before the comma escaped, the string never closed: a text
# ending in a backslash, a Windows path's, then its closing quote, or a quote in the text)
ESCAPED_CLOSER = ("a string that never closes holds an escaped quote right before a comma and a key: "
                  "a backslash ending the text (a path's) and its closing quote, or a quote in the text "
                  "and the closing one left out, two readings")


# ("x”, "b": 1: a curly quote right before the comma, the string never closed: its closing quote
# typed curly, or a quote of the text ("He said “hi”) and the closing one left out)
CURLY_CLOSER = ("a string that never closes holds a curly quote right before a comma and a key: its "
                "closing quote typed curly, or a quote in the text and the closing one left out, "
                "two readings")
_TYPOGRAPHIC_QUOTES = frozenset("\u2018\u2019\u2032\u201c\u201d\u2033\u201e\u00ab\u00bb\u2039\u203a")


def _escaped_quote_before(s: str, i: int, p: int) -> bool:
    """The string opened at ``i`` ends, right before ``p``, in its quote, escaped by a backslash."""
    if p - 2 <= i or s[p - 1] != s[i] or s[p - 2] != "\\":
        return False
    k = p - 2
    while k > i and s[k - 1] == "\\":
        k -= 1
    return (p - 1 - k) % 2 == 1


# ({"a": {"x": 1], "b": 4}: a ']' no array takes, dropped, then the text ends with its objects open:
# a mistyped '}' puts "b" in the outer object, a stray ']' in the inner one)
STRAY_OR_MISTYPED = ("a closer that no open container takes, and the text then ends with its containers "
                     "open: a stray closer or one mistyped for the closer it lacks, which put what follows "
                     "in different containers, two readings")
# Characters a bare value of several words may not hold: structure, quotes, comments, escapes.
_NOT_IN_WORDS = frozenset('"`{[():#\\') | frozenset(map(chr, range(0x20))) - {"\t"} \
    | frozenset("\u180e\u200b\u200c\u200d\u2060\ufeff")
_KEY_FIRST, _KEY_NEXT, _COLON, _VALUE, _AFTER = range(5)


def _esc(m: re.Match[str]) -> str:
    c = m.group(0)
    return _JSON_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _json_string(v: str) -> str:
    return '"' + _JSON_SPECIAL.sub(_esc, v) + '"'


def _unescape_one(m: re.Match[str]) -> str:
    e = m.group(1)
    return e if e in "\"\\/" else m.group(0)


class Refused(ValueError):
    """No reading is safe: ``what`` went wrong at offset ``pos`` (raised by the
    object literal and the repair engine; toolmend.recovery turns it into
    LiteralError)."""

    def __init__(self, pos: int, what: str) -> None:
        super().__init__(pos, what)
        self.pos = pos
        self.what = what


class _Scanner:
    __slots__ = ("s", "n", "fixes", "more", "more_at", "split_end", "split_ctx", "stray_closer")

    def __init__(self, s: str) -> None:
        self.s = s
        self.n = len(s)
        self.fixes: list[tuple[str, int, str]] = []
        self.more = 0
        self.more_at = 0
        # where the last string holding unescaped quotes ended at a comma (-1: none), and the
        # frame it was a value of: a string of unescaped quotes right after it is a second guess
        self.split_end = -1
        self.stray_closer = -1  # where a closer no container takes was dropped (-1: none)
        self.split_ctx = _OBJ

    def fix(self, code: str, pos: int, message: str) -> None:
        if len(self.fixes) < MAX_FIXES or code == "cut":  # where the text was cut is always kept
            self.fixes.append((code, pos, message))
        else:
            if not self.more:
                self.more_at = pos
            self.more += 1

    def log(self) -> list[tuple[str, int, str]]:
        if self.more:
            return self.fixes + [("more", self.more_at, f"{self.more} more fixes not listed")]
        return self.fixes

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
                k = self.line_end(i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            elif c == "/" and i + 1 < n and s[i + 1] == "*":
                k = s.find("*/", i + 2)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k + 2
            elif c == "#" and hash_ok:
                k = self.line_end(i)
                self.fix("comment", i, "comment removed")
                i = n if k < 0 else k
            else:
                return i

    def line_end(self, i: int) -> int:
        """Where the line at i ends (its \\n or \\r), or -1."""
        m = _EOL.search(self.s, i)
        return -1 if m is None else m.start()

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
            return self.closes_top(j, s[i - 1])
        if ctx == _TUP:  # inside a tuple: as in an array, and ')' closes too
            if c == ")":
                return True
            ctx = _ARR
        if c == "}" or c == "]" or c == ":":
            return True
        if c == ",":
            k = _WS.match(s, j + 1).end()  # type: ignore[union-attr]
            if k >= n:
                return True
            d = s[k]
            if ctx == _ARR:
                return True
            if d in "\"'}/#.[{,":
                return True
            m = _KEY.match(s, k)
            if m is not None:
                e = _WS.match(s, m.end()).end()  # type: ignore[union-attr]
                return e < n and s[e] == ":"
            return False
        if c == "+" or (c == "`" and s.startswith("```", j)):  # a join; the closing fence
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
        if ctx == _ARR and j > i and (c.isdigit() or c == "-"):  # ["a" 1]: a comma is missing
            e = _WS.match(s, _NUMBER.match(s, j).end()).end()  # type: ignore[union-attr,union-attr]
            return e >= n or s[e] in ",]"
        return False

    def comma_before(self, i: int, k: int) -> int:
        """Where the comma before the quote at k is (only whitespace between,
        inside the string opened at i), or -1."""
        s = self.s
        p = k - 1
        while p > i and s[p] in " \t\r\n":
            p -= 1
        return p if p > i + 1 and s[p] == "," and s[p - 1] != "\\" else -1

    def member_before(self, i: int, k: int) -> bool:
        """Whether the string opened at i reads ``, name:`` (a bare key and its
        colon after a comma, whitespace around) right before the quote at k."""
        s = self.s
        p = k - 1
        while p > i and s[p] in " \t\r\n":
            p -= 1
        if p <= i or s[p] != ":":
            return False
        p -= 1
        while p > i and s[p] in " \t\r\n":
            p -= 1
        end = p
        while p > i and (s[p].isalnum() or s[p] in "_$@.-"):
            p -= 1
        return p < end and self.comma_before(i, p + 1) >= 0

    def quoted_key_at(self, k: int) -> bool:
        """Whether the quote at k opens a key: closed on its line, then a colon."""
        s, n = self.s, self.n
        end = s.find(s[k], k + 1, k + _LOOK)
        if end < 0 or "\n" in s[k + 1:end]:
            return False
        e = _WS.match(s, end + 1).end()  # type: ignore[union-attr]
        return e < n and s[e] == ":"

    def key_follows(self, i: int) -> bool:
        """Whether a comma at i is followed by a key and its colon."""
        s, n = self.s, self.n
        if s[i] != ",":
            return False
        k = _WS.match(s, i + 1).end()  # type: ignore[union-attr]
        if k >= n:
            return False
        if s[k] in "\"'":
            end = s.find(s[k], k + 1, k + _LOOK)
            if end < 0:
                return False
            e = _WS.match(s, end + 1).end()  # type: ignore[union-attr]
            return e < n and s[e] == ":"
        m = _KEY.match(s, k)
        if m is None:
            return False
        e = _WS.match(s, m.end()).end()  # type: ignore[union-attr]
        return e < n and s[e] == ":"

    def separator_only(self, a: int, b: int) -> bool:
        """Whether only the separator before the next value stands in s[a:b]: a comma (and in
        an object a key and its colon), blanks around."""
        s = self.s
        k = _WS.match(s, a, b).end()  # type: ignore[union-attr]
        if self.split_ctx != _OBJ and k == b:
            return True  # (two elements with no comma between them)
        if k >= b or s[k] != ",":
            return False
        k = _WS.match(s, k + 1, b).end()  # type: ignore[union-attr]
        if self.split_ctx != _OBJ:
            return k == b
        if k < b and s[k] in "\"'":
            end = k + 1
            while end < b and s[end] not in (s[k], "\\", "\n"):
                end += 1
            if end >= b or s[end] != s[k]:
                return False
            k = end + 1
        else:
            m = _KEY.match(s, k, b)
            if m is None:
                return False
            k = m.end()
        k = _WS.match(s, k, b).end()  # type: ignore[union-attr]
        if k >= b or s[k] != ":":
            return False
        return _WS.match(s, k + 1, b).end() == b  # type: ignore[union-attr]

    def closes_top(self, j: int, q: str) -> bool:
        """Whether a quote ends a string that is the whole value, text (from j)
        following it: the end, a join, a comma, a comment or another value
        does; text with another quote further on, or a word, does not (the
        quote is content: nothing after it is dropped)."""
        s = self.s
        c = s[j]
        if c in "+,{[" or (c == "/" and s[j + 1:j + 2] in ("/", "*")):
            return True
        return not (c.isalnum() or c == "_" or s.find(q, j) >= 0)

    def string(self, i: int, ctx: int) -> tuple[str, int, bool]:
        """s[i] opens a string; return (value, index past it, complete)."""
        s, n = self.s, self.n
        q = s[i]
        if s.startswith(q * 3, i) and s[i + 3:i + 4] not in ("", q) and ctx != -1:
            raise Refused(i, "a Python triple-quoted string, not JSON: where its text ends is a guess")
        stop = _STRING_STOP[q]
        parts: list[str] = []
        j = i + 1
        inner = False
        kept = letter = False  # a backslash kept as text, one read as a control character (or \\)
        while True:
            m = stop.search(s, j)
            if m is None:
                if inner:
                    raise Refused(i, "a string with unescaped quotes in it runs to the end: "
                                     "where it ends is not known")
                parts.append(s[j:])
                self.fix("cut", i, "cut inside a key" if ctx == -1 else "cut inside a string")
                return "".join(parts), n, False
            k = m.start()
            if k > j:
                parts.append(s[j:k])
            c = s[k]
            if c == "\\":
                if k + 1 >= n:
                    self.fix("cut", k, "cut inside an escape")
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
                        self.fix("cut", k, "cut inside an escape")
                        return "".join(parts), n, False
                    parts.append("\\u")
                    self.fix("escape", k, "invalid escape kept as a backslash")
                    kept = True
                elif e in _ESCAPES:
                    parts.append(_ESCAPES[e])
                    if e == "'" and q == '"':  # not a JSON escape: the text changes
                        self.fix("escape", k, "\\' read as ' (not a JSON escape)")
                    letter = letter or e in "bfnrt\\"
                else:
                    parts.append("\\" + e)
                    self.fix("escape", k, "invalid escape kept as a backslash")
                    kept = True
                if kept and letter:
                    raise Refused(i, MIXED_ESCAPES)
                j = k + 2
            elif c == q:
                if self.closes(k + 1, ctx, False):
                    if inner and ctx in (_OBJ, _ARR, _TUP):
                        after = _WS.match(s, k + 1).end()  # type: ignore[union-attr]
                        if after >= n:  # the text ends there, its container open: cut, maybe before its end
                            self.fix("cut", i, "cut inside a string (its last quote may be one of the "
                                               "unescaped ones it holds)")
                            return "".join(parts), n, False
                        if s[after] == "," or (ctx != _OBJ and s[after] in "\"'"):  # (in an array, no comma)
                            self.split_end, self.split_ctx = k + 1, ctx
                    return "".join(parts), k + 1, True
                if q == "'" and k > i + 1 and s.startswith(q, k + 1) and not self.closes(k + 2, ctx, False):
                    # (72"": an inch mark, then the string's end; """" opening it: stray quotes)
                    raise Refused(k, DOUBLED_QUOTE)
                p = self.comma_before(i, k) if (ctx == _OBJ and not inner) or ctx == _ARR else -1
                if p < 0 and ctx == _OBJ and not inner and self.member_before(i, k):
                    raise Refused(k, "a quote after ', name:' inside a string: a missing closing "
                                     "quote before a member or a quote in the text, two readings")
                if p >= 0:
                    if ctx == _ARR:
                        raise Refused(k, "a quote after a comma inside a string: a missing closing "
                                         "quote or a quote in the text, two readings")
                    if self.quoted_key_at(k):  # "b,"c": the string ended at the comma
                        if _escaped_quote_before(s, i, p):
                            raise Refused(p - 1, ESCAPED_CLOSER)
                        if s[p - 1] in _TYPOGRAPHIC_QUOTES:
                            raise Refused(p - 1, CURLY_CLOSER)
                        self.fix("quote", p, "missing closing quote added before the comma")
                        text = "".join(parts)
                        return text[:len(text) - (k - p)], p, True
                parts.append(q)
                if not inner and self.split_end >= 0 and self.separator_only(self.split_end, i):
                    raise Refused(self.split_end - 1, "a string holding unescaped quotes, then another "
                                                      "after a comma: the quotes between them may be the "
                                                      "text's (one string) or end the first, two readings")
                inner = True
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
            raise Refused(i, "a bare word where a value belongs")
        digits = tok[1:] if tok[:1] in "+-" else tok
        if len(digits) > 1 and digits[0] == "0" and digits[1] in "0123456789_":
            if i >= 2 and s[i - 1] == "," and s[i - 2] in "0123456789":
                raise Refused(i, "digits after a number and a comma: a digit group (1,000) or two values, "
                                 "two readings")
            # 007, 02134: a number would drop the zeros, so the digits stay as written
            if end >= n:
                self.fix("cut", i, "cut inside a number")
            self.fix("number", i, f"{tok} has leading zeros: kept as the string {tok!r}")
            return tok, _json_string(tok), end
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
            if end >= n:
                self.fix("cut", i, "cut inside a number")
            if len(body) > MAX_DIGITS // 2:
                raise Refused(i, "an integer too long to convert")
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
            raise Refused(i, "a number with no digits")
        cut = end >= n
        if cut:
            self.fix("cut", i, "cut inside a number")
        if has_exp and not exp.lstrip("+-"):
            if not cut:
                raise Refused(i, "a number with an empty exponent")
            self.fix("truncated", i, "cut exponent dropped")
            has_exp = False
        if not ip:
            ip = "0"
            self.fix("number", i, "leading zero added")
        if dot and not fp:
            if cut and not has_exp:
                self.fix("truncated", i, "cut decimal point dropped")
                dot = ""
            else:
                fp = "0"
                self.fix("number", i, "zero added after the decimal point")
        text = sign + ip + ("." + fp if dot else "") + ("e" + exp if has_exp else "")
        if dot or has_exp:
            x = float(text)
            if x in (_INF, -_INF):  # JSON has no Infinity: null, as NaN and Infinity are
                self.fix("nan", i, f"{tok} is too large for a double: written as null")
                return None, "null", end
            return x, text, end
        if len(ip) > MAX_DIGITS:
            raise Refused(i, "an integer too long to convert")
        return int(text), text, end

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
            raise Refused(i, "unexpected character where a value belongs")
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
            if end >= n and ctx != _TOP:  # (Inf ending an open value: Info, Infra cut as well)
                self.fix("cut", i, "cut inside a word")
            return None, "null", end
        if not sign and end >= n:
            for full in ("true", "false", "null", "none", "undefined"):
                if full.startswith(low):
                    self.fix("cut", i, "cut inside a literal")
                    v = _LITERALS[full]
                    return v, "null" if v is None else ("true" if v else "false"), end
        k = _WS.match(s, end).end()  # type: ignore[union-attr]
        if not sign and k < n and s[k] == "(" and (w in _MONGO_STR or w in _MONGO_NUM):
            return self.call(i, w, k + 1)
        if not sign and (ctx == _OBJ or ctx == _ARR):
            # one word alone, as an object literal would read it
            e = end
            while e < n and s[e] in " \t":
                e += 1
            if e >= n or s[e] in ",}]\n\r":
                if e >= n:  # (a space after it, then the end: more words may have followed)
                    self.fix("cut", i, "cut inside a word")
                self.fix("word", i, f"bare word {w!r} written as a string")
                return w, _json_string(w), end
            if k < n and s[k] == "(":
                raise Refused(i, "a call where a value belongs: code, not data")
            if e > end or s[end] == "'":  # another word after a space; it's
                return self.words(i, ctx)
        raise Refused(i, "a bare word where a value belongs")

    def words(self, i: int, ctx: int) -> tuple[Any, str, int]:
        """A bare value of several words at i (``read the file``), in an object
        or an array: a string, when where it ends is known: at a line break,
        at the container's closer, or at a comma that a key (in an object) or
        a value that is no bare word (in an array) follows, or before a quoted
        key and its colon (a comma missing). It may not hold structure, a
        quote, a comment or an escape."""
        s, n = self.s, self.n
        k = i
        while k < n and s[k] not in ",}]\n\r":
            c = s[k]
            if ctx == _OBJ and (c == '"' or c == "'") and s[k - 1] in " \t" and self.quoted_key_at(k):
                break  # value "key": a comma is missing before the key
            if c in _NOT_IN_WORDS or (c == "/" and s[k + 1:k + 2] in ("/", "*")) \
                    or (c.isspace() and c != " " and c != "\t") \
                    or (c == "'" and not (s[k - 1].isalnum() and s[k + 1:k + 2].isalnum())):
                raise Refused(k, f"{c!r} inside a bare value of several words: where the value "
                                 "ends is not known")
            k += 1
        if k < n and s[k] == ",":
            j = _WS.match(s, k + 1).end()  # type: ignore[union-attr]
            if j < n and not (self.key_follows(k) or s[j] == "}" if ctx == _OBJ
                              else s[j] in "]\"'{[-0123456789"):
                raise Refused(k, "a comma after a bare value of several words: inside the value or "
                                 "after it, two readings")
        e = k
        while s[e - 1] in " \t":
            e -= 1
        if k >= n:
            self.fix("cut", i, "cut inside a word")
        w = s[i:e]
        self.fix("word", i, f"bare words {w!r} written as a string")
        return w, _json_string(w), e

    def call(self, i: int, name: str, j: int) -> tuple[Any, str, int]:
        s, n = self.s, self.n
        j = self.skip(j)
        if j >= n:
            raise Refused(i, f"unclosed {name}(")
        num_text = ""
        if s[j] in "\"'":
            arg, j, done = self.string(j, 3)
            if not done:
                raise Refused(i, f"unclosed {name}(")
            v: Any = arg
        elif s[j] in "+-0123456789":
            got = self.number(j)
            if got is None:
                raise Refused(i, f"unclosed {name}(")
            v, num_text, j = got
        else:
            raise Refused(j, f"{name}( takes a string or a number")
        j = self.skip(j)
        if j >= n or s[j] != ")":
            raise Refused(j, f"expected ')' to close {name}(")
        self.fix("mongo", i, f"{name}(...) written as its value")
        if name in _MONGO_NUM:
            if isinstance(v, str):
                t = v.strip()
                if re.fullmatch(r"-?(?:0|[1-9][0-9]*)", t):
                    return int(t), t, j + 1
                if re.fullmatch(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", t):
                    return float(t), t, j + 1
                raise Refused(i, f"{name}( of something that is not a number")
            return v, num_text, j + 1
        if not isinstance(v, str):
            raise Refused(i, f"{name}( of a number")
        return v, _json_string(v), j + 1

    # -- the document ------------------------------------------------------
