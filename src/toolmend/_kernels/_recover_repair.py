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

from typing import Any

from .._text import MAX_DEPTH, QUOTED_KEY, TOO_DEEP
from ._recover_tokens import (
    _AFTER,
    _ARR,
    _COLON,
    _DOUBLE_ENCODED,
    _IDENT,
    _KEY,
    _KEY_FIRST,
    _KEY_NEXT,
    _NAN,
    _NUMBER,
    _OBJ,
    _TOP,
    _TRAILING_OK,
    _TUP,
    _UNESCAPE,
    _VALUE,
    _WORDS,
    _WS,
    STRAY_OR_MISTYPED,
    Refused,
    _json_string,
    _Scanner,
    _unescape_one,
)


class _Engine(_Scanner):
    # the last searches for '{' and '[': char -> (where it started, what it found); see next_opener
    __slots__ = ("seek",)

    def __init__(self, s: str) -> None:
        super().__init__(s)
        self.seek = {"{": (self.n + 1, -1), "[": (self.n + 1, -1)}  # no search made yet

    def start(self) -> int:
        """Where the JSON begins: after prose, fences, chat-template tokens."""
        s, n = self.s, self.n
        i = self.skip(0)
        if i >= n:
            raise Refused(0, "no JSON value in the text (only whitespace or comments)")
        i = self.past_reasoning(i)
        c = s[i]
        if c in "{[\"'" or (c == "(" and self.tuple_start(i) and (self.ends_with_paren(i)
                                                               or self.next_value(i) < 0)):
            return i
        if c in "+-.0123456789":
            m = _NUMBER.match(s, i)
            e = m.end() if m else i
            if e > i and (e >= n or not (s[e].isalnum() or s[e] in "._")):
                if _WS.match(s, e).end() >= n:  # type: ignore[union-attr]
                    return i
        signed = c in "+-"  # -Infinity as Infinity
        m = _IDENT.match(s, i + 1 if signed else i)
        if m is not None and m.group(0).lower() in (_NAN if signed else _WORDS):
            if _WS.match(s, m.end()).end() >= n:  # type: ignore[union-attr]
                return i
        p = self.next_value(i)
        if p < 0:
            raise Refused(i, "no JSON value in the text (prose, not arguments)")
        t = s.find("<think>", i, p)  # (no </think> follows: a value after a <think> is reasoning)
        if t >= 0:
            raise Refused(t, "only reasoning: <think> is not closed, no answer follows")
        self.fix("prose", i, "text before the JSON dropped")
        return p

    def tuple_start(self, i: int) -> bool:
        """Whether the '(' at i opens a Python tuple: ')' or a value that is no
        bare word follows it (``(see below)`` is prose)."""
        s = self.s
        j = _WS.match(s, i + 1).end()  # type: ignore[union-attr]
        if j >= self.n:
            return False
        if s[j] in ")([{\"'-0123456789":
            return True
        m = _IDENT.match(s, j)
        return m is not None and m.group(0).lower() in ("true", "false", "null", "none")

    def ends_with_paren(self, i: int) -> bool:
        """Whether the text ends (but for whitespace) with ')': a '(' at i that
        does not may start a numbered note, prose before the JSON."""
        s = self.s
        k = self.n - 1
        while k > i and (s[k].isspace() or s[k] in "\u180e\u200b\u200c\u200d\u2060\ufeff"):
            k -= 1
        return s[k] == ")"

    def next_value(self, i: int) -> int:
        """The first '{' or '[' from i that starts a plausible value, or -1.
        Called after each value that prose follows: the searches go through
        next_opener, which keeps them linear in all."""
        a = self.next_opener("{", i)
        b = self.next_opener("[", i)
        while True:
            if a < 0 and b < 0:
                return -1
            if b < 0 or 0 <= a < b:
                p, a = a, self.next_opener("{", a + 1)
            else:
                p, b = b, self.next_opener("[", b + 1)
            if self.plausible(p):
                return p

    def next_opener(self, c: str, i: int) -> int:
        """s.find(c, i) for c '{' or '[', answered from the last search for c
        while that answer holds (it was made from i or before, and found c at
        i or after, or found none): a search after each of many values would
        otherwise read to the end each time when c does not come again
        (quadratic); this way each character is read once a pass."""
        start, at = self.seek[c]
        if start <= i and (at < 0 or at >= i):
            return at
        at = self.s.find(c, i)
        self.seek[c] = (i, at)
        return at

    def past_reasoning(self, i: int) -> int:
        """Past the model's reasoning: text up to a ``</think>`` (with or
        without its ``<think>``) is never the value. Refused when nothing but
        reasoning is there."""
        s, n = self.s, self.n
        while s[i] not in "{[\"'":
            t = s.find("</think>", i)
            if t < 0:
                if s.startswith("<think>", i):
                    raise Refused(i, "only reasoning: <think> is not closed, no answer follows")
                return i
            self.fix("prose", i, "reasoning dropped (up to </think>)")
            i = self.skip(t + 8)
            if i >= n:
                raise Refused(t, "only reasoning: no answer after </think>")
        return i

    def no_reasoning_between(self, i: int, p: int) -> None:
        """Refused when reasoning opens or closes between two values (from i to p): which value is
        the answer, and which was reasoning (the one before a </think> is), is a guess."""
        found = [t for t in (self.s.find("<think>", i, p), self.s.find("</think>", i, p)) if t >= 0]
        if found:
            raise Refused(min(found), "reasoning (<think> or </think>) between two values: which is the "
                                      "answer, and which was reasoning, is a guess")

    def fence(self, i: int) -> int:
        """A Markdown fence marker inside a container (three backticks and a
        language tag) is not data: the index past it, or -1."""
        s, n = self.s, self.n
        if not s.startswith("```", i):
            return -1
        j = i + 3
        while j < n and (s[j] == "`" or s[j].isalnum() or s[j] in "_+.-"):
            j += 1
        self.fix("prose", i, "code fence inside the value dropped")
        return j

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
        # frame: [kind, state, container, pending key text, pending key, count, open pos,
        #         the index in out of its opener]
        tops: list[Any] = []
        top_texts: list[str] = []
        stack: list[list[Any]] = [[_TOP, _VALUE, tops, None, None, 0, i, 0]]
        out: list[str] = []
        mark = 0
        top_paren = False  # the value is in parentheses: nothing may follow it
        while True:
            f = stack[-1]
            kind, state = f[0], f[1]
            i = self.skip(i, not (kind == _OBJ and state == _VALUE))
            c = s[i] if i < n else ""
            if kind == _TOP:
                if state == _AFTER:
                    if len(out) > mark:
                        top_texts.append("".join(out[mark:]))
                        mark = len(out)
                    if not c:
                        break
                    if top_paren:
                        raise Refused(i, "text after a value in parentheses: a tuple, or prose "
                                         "that starts with parentheses, two readings")
                    if c in "}]":
                        self.fix("bracket", i, f"extra '{c}' dropped")
                        i += 1
                        continue
                    if c == ",":
                        j = self.skip(i + 1)
                        if j >= n:
                            self.fix("comma", i, "comma after the document dropped")
                            break
                        i = j
                        c = s[j]
                    if c in "{[":
                        self.fix("concatenated", i, "another value follows: the values as a list")
                        f[1] = _VALUE
                        continue
                    if c in "\"':0123456789-":
                        raise Refused(i, "unexpected text after the end of the value")
                    if c.isalpha() or c == "_" or c == "$":
                        m = _KEY.match(s, i)
                        e = _WS.match(s, m.end()).end()  # type: ignore[union-attr,union-attr]
                        if e < n and s[e] == ":":
                            raise Refused(i, "a member after the end of the object")
                    if _TRAILING_OK.match(c):
                        p = self.next_value(i)
                        if p < 0:
                            member = QUOTED_KEY.search(s, i)
                            if member is not None:  # ("He typed "} and left", "rm": true})
                                raise Refused(member.start(), "text after the end of the value holds a "
                                                              "member (a quoted key and a colon): the "
                                                              "value may end later, a guess")
                            self.fix("prose", i, "text after the JSON dropped")
                            break
                        self.no_reasoning_between(i, p)
                        # skipping is not deleting: the value after the prose is kept too
                        self.fix("prose", i, "text between the values dropped")
                        self.fix("concatenated", p, "another value follows: the values as a list")
                        f[1] = _VALUE
                        i = p
                        continue
                    raise Refused(i, "unexpected text after the end of the value")
                if not c:
                    raise Refused(i, "no JSON value in the text")
                got = self.value_token(i, _TOP)
                if got is None:
                    raise Refused(i, "no JSON value in the text")
                f[1] = _AFTER
                if got[0] == "open":
                    tops.append(got[1][2])
                    self.enter(stack, got[1])
                    out.append(got[2])
                    got[1][7] = len(out) - 1
                    top_paren = got[1][0] == _TUP
                    i = got[3]
                    continue
                tops.append(got[1])
                out.append(got[2])
                i = got[3]
                continue
            if kind == _OBJ:
                i = self.in_object(stack, out, f, state, i, c)
            else:
                i = self.in_array(stack, out, f, state, i, c)
        if len(tops) == 1:
            return tops[0], top_texts[0]
        return tops, "[" + ",".join(top_texts) + "]"

    def in_object(self, stack: list[list[Any]], out: list[str], f: list[Any], state: int, i: int,
                  c: str) -> int:
        """One step inside an object (``state``: before a key, after it, before
        the value, after the member); the index where the next step starts."""
        s, n = self.s, self.n
        if state == _KEY_FIRST or state == _KEY_NEXT:
            j = self.at_member(stack, out, i, c, state == _KEY_NEXT, "}")
            if j >= 0:
                return j
            if c == ",":
                self.fix("comma", i, "stray comma dropped")
                return i + 1
            if s.startswith("...", i) or c == "\u2026":
                return self.ellipsis(i, c)
            if c == "`" and (j := self.fence(i)) >= 0:
                return j
            if c in "uU" and s[i + 1:i + 2] in ("'", '"'):
                self.fix("quote", i, "Python's u prefix dropped")
                i += 1
                c = s[i]
            if c in "\"'":
                key, j, done = self.string(i, -1)
                if not done:
                    if any(ch in key for ch in ":}{,"):
                        raise Refused(i, "an unterminated key")
                    self.fix("truncated", i, "cut key dropped")
                    self.close_all(stack, out, n)
                    return n
            elif c == ":":
                raise Refused(i, "a member with no key: a key would have to be invented")
            elif c in "{[":
                raise Refused(i, "an object or array where a key belongs")
            else:
                m = _KEY.match(s, i)
                if m is None:
                    raise Refused(i, "unexpected character where a key belongs")
                key, j = m.group(0), m.end()
                e = self.skip(j)
                if e < n and s[e] != ":" or (e >= n and j < n):
                    raise Refused(i, f"piece {key!r} has no colon")
                self.fix("key", i, "key quoted")
            f[3] = _json_string(key)
            f[4] = key
            f[1] = _COLON
            return j
        if state == _COLON:
            if not c:
                self.fix("cut", i, "cut after a key")
                self.close_all(stack, out, n)
                return i
            if c == ":":
                j = self.skip(i + 1, False)
                if j < n and s[j] == ":":
                    raise Refused(j, "two colons after a key")
                f[1] = _VALUE
                return i + 1
            if c in ",}":
                if not f[5] and not self.key_follows(i):
                    raise Refused(i, "keys with neither colon nor value: a set, "
                                     "not an object")
                # ({"a": 1, "force"}: a flag's true, a null, a string in a list: what it holds is a guess)
                raise Refused(i, "a key with neither colon nor value: what it was meant to hold is a guess")
            if f[4] == "":
                raise Refused(i, "an empty key with no colon after it: stray quotes, not a member")
            self.fix("colon", i, "missing colon added")
            f[1] = _VALUE
            return i
        if state == _VALUE:
            if not c:
                self.fix("cut", i, "cut after a colon")
                self.close_all(stack, out, n)
                return i
            if c in ",}":
                return self.null_value(f, out, i)
            if c == "]":
                raise Refused(i, "']' where a value belongs")
            if c == ":":
                raise Refused(i, "two colons after a key")
            return self.take_value(stack, out, f, i, _OBJ)
        # _AFTER
        j = self.after_member(stack, out, f, i, c, "}", _KEY_NEXT)
        if j >= 0:
            return j
        if c == ":":
            raise Refused(i, "a colon after a value")
        if c == "`" and (j := self.fence(i)) >= 0:
            return j
        if c in "\"'" or _KEY.match(s, i):
            self.fix("comma", i, "missing comma added")
            f[1] = _KEY_NEXT
            return i
        if c == "\u2026" or s.startswith("...", i):
            f[1] = _KEY_NEXT
            return i
        raise Refused(i, "expected ',' or '}' after a member")

    def in_array(self, stack: list[list[Any]], out: list[str], f: list[Any], state: int, i: int,
                 c: str) -> int:
        """One step inside an array (before an element, after it)."""
        s, n = self.s, self.n
        closer = ")" if f[0] == _TUP else "]"
        if state == _VALUE or state == _KEY_FIRST:  # _KEY_FIRST: right after '['
            j = self.at_member(stack, out, i, c, state == _VALUE, closer)
            if j >= 0:
                return j
            if c == ",":  # [1,,2] as {"a":1,,"b":2}
                self.fix("comma", i, "stray comma dropped")
                return i + 1
            if c == ":":
                raise Refused(i, "a colon where a value belongs")
            if c == "\u2026" or s.startswith("...", i):
                return self.ellipsis(i, c)
            if c == "`" and (j := self.fence(i)) >= 0:
                return j
            return self.take_value(stack, out, f, i, f[0])
        # array _AFTER
        j = self.after_member(stack, out, f, i, c, closer, _VALUE)
        if j >= 0:
            return j
        if c == ":":
            raise Refused(i, "a key inside an array")
        if c == "`" and (j := self.fence(i)) >= 0:
            return j
        if c == "\u2026" or s.startswith("...", i):
            f[1] = _VALUE
            return i
        if c == "0" and i + 1 < n and s[i + 1].isdigit() and s[i - 1] in " \t" \
                and self.digit_before_blanks(i):
            raise Refused(i, "digits after a number and a space: a digit group (1 000) or two "
                             "values, two readings")
        if (c == '"' or c == "'") and f[0] == _TUP:  # ("a" "b": Python's one string "ab")
            raise Refused(i, "a string after another in parentheses, no comma between: Python joins "
                             "them into one string, or a comma is missing and they are a tuple's two; "
                             "two readings")
        if c in "\"'{[+-.0123456789" or c.isalpha():
            self.fix("comma", i, "missing comma added")
            f[1] = _VALUE
            return i
        raise Refused(i, "expected ',' or ']' after an element")

    def digit_before_blanks(self, i: int) -> bool:
        """Whether a digit stands before the spaces and tabs that end at i: read
        back over the blanks only (copying the text before i, once an element,
        made a long array quadratic)."""
        s = self.s
        p = i - 1
        while p >= 0 and s[p] in " \t":
            p -= 1
        return p >= 0 and s[p].isdigit()

    def at_member(self, stack: list[list[Any]], out: list[str], i: int, c: str, after_comma: bool,
                  closer: str) -> int:
        """Where a member or an element may start, the same in an object and an
        array: the end of the text (cut), the container's ``closer`` (after a
        comma: a trailing comma) or the other closer; the index where the next
        step starts, or -1 for anything else."""
        if not c:
            n = self.n
            self.fix("cut", n, "cut after a comma" if after_comma else "cut after an opening bracket")
            self.close_all(stack, out, n)
            return i
        if c == closer:
            if after_comma:
                self.fix("comma", i, "trailing comma dropped")
            self.close(stack, out)
            return i + 1
        if c == "}" or c == "]":
            return self.mismatched(stack, out, i)
        return -1

    def after_member(self, stack: list[list[Any]], out: list[str], f: list[Any], i: int, c: str,
                     closer: str, next_state: int) -> int:
        """After a member or an element, the same in an object and an array:
        the end of the text (every bracket closed), a comma (then
        ``next_state``), the container's ``closer`` or the other closer; the
        index where the next step starts, or -1 for anything else."""
        if not c:
            self.close_all(stack, out, self.n)
            return i
        if c == ",":
            f[1] = next_state
            return i + 1
        if c == closer:
            if c == ")" and f[5] == 1:  # (1): parentheses around one value, no comma
                self.ungroup(stack, out, i)
            else:
                self.close(stack, out)
            return i + 1
        if c == "}" or c == "]":
            return self.mismatched(stack, out, i)
        return -1

    def ungroup(self, stack: list[list[Any]], out: list[str], i: int) -> None:
        """The tuple frame on top holds one value and no comma (``(1)``): as in
        Python, the value itself."""
        f = stack.pop()
        self.fix("tuple", i, "one value in parentheses, no comma: the value itself")
        out[f[7]] = ""
        value = f[2][0]
        parent = stack[-1][2]
        if type(parent) is dict:
            parent[stack[-1][4]] = value
        else:
            parent[-1] = value

    # -- values and containers ---------------------------------------------
    def take_value(self, stack: list[list[Any]], out: list[str], f: list[Any], i: int,
                   ctx: int) -> int:
        """The value step, the same for an object member and an array element:
        the value at i goes into frame f (a container opens its frame); a value
        cut before it starts is dropped and every bracket closed."""
        got = self.value_token(i, ctx)
        f[1] = _AFTER
        if got is None:
            self.fix("cut", i, "cut inside a number")
            self.close_all(stack, out, self.n)
            return self.n
        if got[0] == "open":
            self.attach_open(f, got[1], got[2], out)
            got[1][7] = len(out) - 1
            self.enter(stack, got[1])
        else:
            self.attach(f, got[1], got[2], out)
        end: int = got[3]
        return end

    def null_value(self, f: list[Any], out: list[str], i: int) -> int:
        """A member whose value is missing: null."""
        self.fix("value", i, "missing value written as null")
        self.attach(f, None, "null", out)
        f[1] = _AFTER
        return i

    def ellipsis(self, i: int, c: str) -> int:
        """An ellipsis (... or U+2026) where a member or an element belongs, and
        the comma after it, dropped."""
        self.fix("ellipsis", i, "ellipsis dropped")
        i += 1 if c == "\u2026" else 3
        j = self.skip(i)
        if j < self.n and self.s[j] == ",":
            return j + 1
        return i

    def value_token(self, i: int, ctx: int) -> tuple[Any, ...] | None:
        s = self.s
        c = s[i]
        if c in "uU" and s[i + 1:i + 2] in ("'", '"'):  # u'...': Python's unicode prefix
            self.fix("quote", i, "Python's u prefix dropped")
            i += 1
            c = s[i]
        if c == "{" or c == "[":
            kind = _OBJ if c == "{" else _ARR
            frame = [kind, _KEY_FIRST, {} if c == "{" else [], None, None, 0, i, 0]
            return ("open", frame, c, i + 1)
        if c == "(":
            self.fix("tuple", i, "parentheses: a Python tuple, written as an array")
            return ("open", [_TUP, _KEY_FIRST, [], None, None, 0, i, 0], "[", i + 1)
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
                    raise Refused(k, "a concatenation with something that is not a string")
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
            got = self.word(i, ctx)
            return ("value", got[0], got[1], got[2]) if got else None
        if c.isalpha() or c == "_" or c == "$":
            got = self.word(i, ctx)
            return ("value", got[0], got[1], got[2]) if got else None
        raise Refused(i, "unexpected character where a value belongs")

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

    @staticmethod
    def enter(stack: list[list[Any]], frame: list[Any]) -> None:
        """Open a container; the stack holds the top frame and the containers."""
        if len(stack) > MAX_DEPTH:
            raise Refused(frame[6], TOO_DEEP)
        stack.append(frame)

    def close(self, stack: list[list[Any]], out: list[str]) -> None:
        f = stack.pop()
        out.append("}" if f[0] == _OBJ else "]")

    def close_all(self, stack: list[list[Any]], out: list[str], i: int) -> None:
        if any(f[0] == _TUP and f[1] == _AFTER and f[5] == 1 for f in stack):
            # ("x" cut: ("x") is "x", ("x",) a tuple
            self.fix("cut", self.n, "cut inside a tuple")
        if len(stack) > 1 and self.stray_closer >= 0:
            raise Refused(self.stray_closer, STRAY_OR_MISTYPED)
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
            j = self.skip(i + 1)
            if self.stray_closer < 0 and j < n and s[j] not in "}]":  # (more follows: where it goes)
                self.stray_closer = i
            return i + 1
        j = self.skip(i + 1)
        if j < n and s[j] not in "}]":
            if depth == 1:
                # closing the outermost container would leave what follows
                # outside the document: the closer can only be a typo
                closer = "}" if stack[-1][0] == _OBJ else "]"
                self.fix("bracket", i, f"'{c}' read as '{closer}'")
                self.close(stack, out)
                return i + 1
            raise Refused(i, f"'{c}' does not close the innermost bracket, and what follows "
                             "belongs to a different container in each reading")
        self.fix("bracket", i, f"'{c}' also closes the brackets inside it")
        while len(stack) > depth:
            self.close(stack, out)
        return i + 1


def repair_json(s: str) -> tuple[Any, str, list[tuple[str, int, str]]]:
    """Repair ``s`` into JSON: ``(value, json_text, fixes)``, each fix a tuple
    ``(code, offset, message)``. Raises Refused (what and where) when no
    reading is safe."""
    eng = _Engine(s)
    start = eng.start()
    if _DOUBLE_ENCODED.match(s, start):
        inner = _Engine(_UNESCAPE.sub(_unescape_one, s[start:]))
        inner.fixes.append(("double_encoded", start, "backslash-escaped JSON unescaped"))
        value, text = inner.run()
        return value, text, eng.log() + inner.log()
    eng.fixes.clear()
    eng.more = 0
    value, text = eng.run()
    return value, text, eng.log()
