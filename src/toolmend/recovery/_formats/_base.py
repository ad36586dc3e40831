"""What every family's reader shares: the context of one parse and the making of calls.

A reader is ``read(text, i, limit, ctx) -> (calls | None, end)``: ``i`` is where
its marker starts, ``calls`` the calls it found there in order (None when the
marker is not the start of a call: prose that names it), ``end`` where the
scan goes on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..._text import skip_blanks
from .._jsonish import extent, skip_space
from .._result import Fix
from .._strategies import json_text, normalize_tool_args
from .._toolcalls import (
    _NAME,
    BROKEN_BEFORE_NAME,
    MARKUP_ONLY,
    NO_ARGUMENTS,
    ToolCall,
    _json_calls,
    call_from_parts,
    two_ways,
)
from ._context import MARKER_CLOSERS, ROLE_HEAD, TURN_END, TURN_ENDS
from ._schema import NOT_ONE_VALUE, Tools, typed_value
from ._tokens import BARE_CLOSER, REASONING_MARK

__all__ = ["Ctx", "Reader", "xml_call", "json_run", "cut_call", "named_call", "more_after", "named_in",
           "unreadable_block", "unclosed_json", "open_string_rest", "string_rest_end", "string_open_at",
           "unbraced_call", "opener_put_back", "not_an_envelope",
           "MEMBER_FIRST"]


_NO_MEMO: Any = MappingProxyType({})  # (read-only: an entry is written to a memo of the parse's own)


class Ctx:
    """One parse: the tools offered (None: none given) and the format forced (None: detect)."""

    __slots__ = ("tools", "fmt", "missing", "found", "searched", "before")

    def __init__(self, tools: Tools | None, fmt: str | None) -> None:
        self.tools = tools
        self.fmt = fmt
        # closing markers known to be absent from an offset to the end of the text, and the
        # last one found (searched from where): a run of openers before one closer, or
        # without any, costs one search, not one per opener (each memo made at its first
        # entry: most messages search for no closer this way)
        self.missing: dict[str, int] = _NO_MEMO
        self.found: dict[str, tuple[int, int]] = _NO_MEMO
        self.searched: dict[tuple[re.Pattern[str], int], tuple[int, int]] = _NO_MEMO
        self.before: dict[str, tuple[int, int]] = _NO_MEMO

    def find(self, text: str, needle: str, start: int, limit: int) -> int:
        """``text.find(needle, start, limit)``, remembered for searches to the end of the text."""
        whole = limit == len(text)
        if whole:
            hit = self.found.get(needle)
            if hit is not None and hit[0] <= start <= hit[1]:
                return hit[1]  # (none between where that search began and what it found)
            if start >= self.missing.get(needle, len(text) + 1):
                return -1
        k = text.find(needle, start, limit)
        if whole:
            if self.found is _NO_MEMO:
                self.missing, self.found = {}, {}
            if k < 0:
                self.missing[needle] = min(start, self.missing.get(needle, start))
            else:
                self.found[needle] = (start, k)
        return k

    def last(self, text: str, needle: str, end: int) -> int:
        """``text.rfind(needle, 0, end)``, remembered: asked at later and later offsets (the calls
        of a run, each asking what opened before it), the text is searched once in all."""
        upto, pos = self.before.get(needle, (0, -1))
        if end < upto:
            return text.rfind(needle, 0, end)
        k = text.rfind(needle, max(0, upto - len(needle) + 1), end)
        if k >= 0:
            pos = k
        if self.before is _NO_MEMO:
            self.before = {}
        self.before[needle] = (end, pos)
        return pos

    def search(self, text: str, pattern: re.Pattern[str], start: int, limit: int) -> int:
        """Where ``pattern`` (one whose matches do not depend on where a search starts) first
        matches in ``text[start:limit]``, -1 nowhere; remembered per limit, so that a run of
        searches from later and later offsets to one limit costs one search."""
        hit = self.searched.get((pattern, limit))
        if hit is not None and hit[0] <= start and (hit[1] < 0 or start <= hit[1]):
            return hit[1]
        m = pattern.search(text, start, limit)
        k = -1 if m is None else m.start()
        if self.searched is _NO_MEMO:
            self.searched = {}
        self.searched[(pattern, limit)] = (start, k)
        return k


Reader = Callable[[str, int, int, Ctx], "tuple[list[ToolCall] | None, int]"]


_MEMBER = re.compile(r',?\s*"(?:[^"\\\n]|\\.){0,256}"\s*:')  # (a member: , "key":)


# an object with a key (not a call object: a next call, {"name": ...}, is its own)
_OBJECT = re.compile(r'\{\s*"(?!(?:name|tool|tool_name|function)"\s*:)[^"\n]{0,128}"\s*:')


# what opens like a value and ends a run: a closing token ([/TOOL_CALLS], [/INST]), MiniMax's turn end,
# a bracketed token ([INST], [TOOL_RESULTS]); Mistral's [TOOL_CALLS] before the next value is passed over
_RUN_ENDS = ("[/", "[e~[")
_TOKEN = re.compile(r"\[[A-Z][A-Z_]+\]")


def _json_run(text: str, i: int, limit: int, seps: str = ",;",
             known: tuple[int, int] | None = None) -> tuple[list[ToolCall], int, bool]:
    """The JSON calls from ``i`` on: objects or lists of them, one after the other
    with whitespace or ``seps`` between. (calls, end of the last value, found any);
    ``known`` as for ``_toolcalls._json_calls``."""
    calls: list[ToolCall] = []
    k = skip_space(text, i, limit)
    found_any = False
    while k < limit and text[k] in "{[" and not text.startswith(_RUN_ENDS, k):
        token = _TOKEN.match(text, k)
        if token is not None:
            if token.group() != "[TOOL_CALLS]":
                break
            k = skip_space(text, token.end(), limit)
            continue
        found, stop = _json_calls(text, k, limit, True, known)
        if found is None:
            found = [ToolCall("", text[k:stop].strip(), None, False, (k, stop),
                              "a tool call without a tool name")]
        calls.extend(found)
        found_any = True
        i = stop
        k = skip_space(text, stop, limit)
        while k < limit and text[k] in seps:
            k = skip_space(text, k + 1, limit)
    return calls, i, found_any


def json_run(text: str, i: int, limit: int, seps: str = ",;",
             known: tuple[int, int] | None = None) -> tuple[list[ToolCall], int, bool]:
    """The JSON calls from ``i`` on, as ``_json_run`` reads them, but for a last
    call object broken before its name (``{name": ..``, not ok, to ``limit``) that covers a
    reading of the scan's (``_covers_readings``): not reported, so the scan's reading stands."""
    calls, end, found = _json_run(text, i, limit, seps, known)
    if _last_broken_before_name(calls) and _covers_readings(text, *calls[-1].span, None):
        calls.pop()
    return calls, end, found


def _last_broken_before_name(calls: list[ToolCall]) -> bool:
    """The last of ``calls`` is a call object broken before its name (``_toolcalls._torn``)."""
    return bool(calls) and (calls[-1].error or "").startswith(BROKEN_BEFORE_NAME)


# what the scan reads wherever it stands: a reasoning marker, a turn's end, another turn's head,
# a fence's marker (an entry over one would move where reasoning, a turn or a fence ends)
_READINGS = (REASONING_MARK, ROLE_HEAD, re.compile("|".join(map(re.escape, TURN_ENDS))),
             re.compile(r"```|~~~"))


def _covers_readings(text: str, a: int, b: int, ctx: Ctx | None) -> bool:
    """``text[a:b]`` holds one of the scan's readings (``_READINGS``; searched by ``ctx`` if given)."""
    if ctx is None:
        return any(mark.search(text, a, b) is not None for mark in _READINGS)
    return any(ctx.search(text, mark, a, b) >= 0 for mark in _READINGS)


def more_after(calls: list[ToolCall], text: str, end: int, limit: int,
               closed: bool = False) -> list[ToolCall]:
    """The calls read up to ``end``, where their JSON ends: when what follows reads
    as more of that JSON (a comma and a key, a key and its colon: the model closed its
    arguments early, ``{"path": "x"}}, "recursive": true}``), the last call is not ok,
    since its arguments would be partial. Closing brackets alone add nothing. Looked for
    up to ``limit`` when a closer ends it there (``closed``), else on the line only, or
    the next one after a comma ending it (a line of prose after a call may well start
    with a quoted word)."""
    line_end = limit
    if not closed:
        nl = text.find("\n", end, limit)
        line_end = limit if nl < 0 else nl
    k = end
    while k < line_end and (text[k].isspace() or text[k] in "}]"):
        k += 1
    after_comma = skip_blanks(text, k + 1, line_end) if closed and k < line_end and text[k] == "," else -1
    if after_comma >= 0 and after_comma < line_end and text[after_comma] not in "\"{[":
        k = after_comma  # ({..}, then Rome</tool_call>: words after a comma are more of it too)
    if calls and closed and k < line_end and text[k] not in ",\"" and \
            MARKUP_ONLY.fullmatch(text, k, line_end) is None:  # <tool_call>{..} recursive=true</tool_call>
        c = calls[-1]
        why = (f"the call to {c.name!r} is followed by {text[k:line_end].strip()[:40]!r} inside its tag: "
               "more of its arguments, perhaps; the call without it is a guess")
        return calls[:-1] + [ToolCall(c.name, c.raw_args, None, False, c.span, why, c.id)]
    if calls and k < line_end and text[k] == "{" and _OBJECT.match(text, k, line_end) is not None:
        c = calls[-1]  # ({"path": "a"} {"content": "x"}: a second object of arguments, or of what?)
        why = (f"the call to {c.name!r} is followed by another JSON object at offset {k - c.span[0]} of the "
               "call: more of its arguments, perhaps; the call without it is a guess")
        return calls[:-1] + [ToolCall(c.name, c.raw_args, None, False, c.span, why, c.id)]
    if not calls or k >= line_end or text[k] not in ",\"":
        return calls
    if _MEMBER.match(text, k, limit if text[k] == "," else line_end) is None:
        return calls  # (calls written one after the other: the next one is its own)
    c = calls[-1]
    why = (f"the call to {c.name!r} is followed by more JSON at offset {k - c.span[0]} of the call: "
           "its arguments closed early, and what was meant cannot be told")
    return calls[:-1] + [ToolCall(c.name, c.raw_args, None, False, c.span, why, c.id)]


_NAMED = re.compile(r'"name"\s*:\s*"([^"\\\n]{1,128})"')


def _unbroken(calls: list[ToolCall]) -> list[ToolCall]:
    """``calls`` without a last call object broken before its name: where a closer ends the
    block, what stands after the whole calls is reported whole, named by the name it holds."""
    return calls[:-1] if _last_broken_before_name(calls) else calls


def unclosed_json(calls: list[ToolCall], text: str, start: int, close_at: int, closer: str,
                  stop: int = -1) -> list[ToolCall]:
    """``calls``, read from the JSON at ``start`` that does not close before its block's
    ``closer`` at ``close_at``: broken there, not cut (a brace missing puts a call's name
    inside its arguments). What stands after the last call read (all of it, when none was)
    to ``stop`` (the closer, unless given) is reported not ok, so that the calls beside it
    never pass for all the block holds. (A quote left open before the closer: a quote
    dropped, or the text cut inside a string that holds the closer; not ok either way.)"""
    stop = close_at if stop < 0 else stop
    calls = _unbroken(calls)
    k = max((c.span[1] for c in calls), default=start)
    while k < close_at and (text[k].isspace() or text[k] in ",]}"):
        k += 1
    rest = text[k:stop].rstrip()
    if k >= close_at or not rest or BARE_CLOSER.search(text, k, stop) is not None:
        return calls  # (a reasoning closer in it: what stands before that is reasoning's, the scan's to say)
    named = _NAMED.search(rest, 0, close_at - k)  # (the name it holds: what the call not ok is called)
    name = named.group(1) if named is not None and _NAME.match(named.group(1)) else ""
    return [*calls, ToolCall(name, rest, None, False, (k, stop), (
        f"the JSON at offset {k} does not close before {closer} at offset {close_at} (a brace or "
        "bracket missing?): the call it writes is broken, and which of its members are the call's "
        "is a guess"))]


_QUOTE_OR_ESCAPE = re.compile(r"[\"'\\]")
_DOUBLE_QUOTE_OR_ESCAPE = re.compile(r'["\\]')


def string_open_at(text: str, a: int, b: int, single_quotes: bool = True) -> bool:
    """A string opened after ``a`` is still open at ``b``: one in double quotes, or (with
    ``single_quotes``) in single quotes where a key or a value begins (after ``{``, ``[``, ``,``
    or ``:``, not an apostrophe in a bare word), or in three of either (Python's); a backslash
    escapes the character after it. (Without ``single_quotes``: an odd count of unescaped
    double quotes, JSON's own strings only.)"""
    return open_string_start(text, a, b, single_quotes) >= 0


def open_string_start(text: str, a: int, b: int, single_quotes: bool = True) -> int:
    """Where the string ``string_open_at`` finds still open at ``b`` opens (its quote); -1: none."""
    stops = _QUOTE_OR_ESCAPE if single_quotes else _DOUBLE_QUOTE_OR_ESCAPE
    quote = ""
    k = opened = a
    while True:
        m = stops.search(text, k, b)
        if m is None:
            return opened if quote else -1
        k = m.start()
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if quote:
            if text.startswith(quote, k):
                k += len(quote)
                quote = ""
                continue
        elif ch == '"' or _value_begins(text, a, k):
            quote = ch * 3 if single_quotes and text.startswith(ch * 3, k) else ch
            opened = k
            k += len(quote)
            continue
        k += 1


def _value_begins(text: str, a: int, k: int) -> bool:
    """A key or a value may begin at ``k``: the text after ``a`` before it, blanks aside,
    is empty or ends in ``{``, ``[``, ``,`` or ``:``."""
    p = k - 1
    while p >= a and text[p].isspace():
        p -= 1
    return p < a or text[p] in "{[,:"


def string_rest_end(text: str, at: int, limit: int, ctx: Ctx) -> int:
    """Where the entry of a call whose string is still open at the marker at ``at`` ends: the
    first end of the model's turn after it, or ``limit`` (what follows that is no part of this
    message, as the scan reads there); -1 when a bare reasoning closer stands before that, whose
    reading is the scan's (an entry over it would have the scan read on from inside the string)."""
    turn = ctx.search(text, TURN_END, at, limit)
    limit = limit if turn < 0 else turn
    return -1 if ctx.search(text, BARE_CLOSER, at, limit) >= 0 else limit


def open_string_rest(calls: list[ToolCall], text: str, start: int, stop_at: int, limit: int,
                     marker: str, ctx: Ctx) -> list[ToolCall] | None:
    """``calls``, read from the JSON at ``start`` that does not close before ``marker`` at
    ``stop_at`` (its block's closer, or the next block's opener), where a string it opened is
    still open: the marker may be that string's text (code that writes a tool call), and so may
    all that follows it, calls too. The calls read whole before that string stay; the call cut
    there (or what stands after them) is not ok, its entry reaching ``limit`` or the first end
    of the model's turn after the marker (what follows that is no part of this message, as the
    scan reads there), and nothing in it is read. None when no string is open there, or when a
    bare reasoning closer stands in what it would cover: the scan's reasoning rule reads that
    text, as before (an entry over it would have the scan read on from inside the string)."""
    opened = open_string_start(text, start, stop_at)
    if opened < 0:
        return None
    limit = string_rest_end(text, stop_at, limit, ctx)
    if limit < 0:
        return None
    calls = _unbroken(calls)
    # (the last call, read not ok, or read across the quote that opens that string: a call whose
    # reading closed a string the quotes leave open is a guess, a quote dropped)
    cut = calls[-1] if calls and calls[-1].name and (not calls[-1].ok or calls[-1].span[1] > opened) else None
    kept = calls[:-1] if cut is not None else calls
    k = max((c.span[1] for c in kept), default=start)
    while k < stop_at and (text[k].isspace() or text[k] in ",]}"):
        k += 1
    why = (f"the JSON at offset {k} does not close before {marker} at offset {stop_at}, and a string "
           "it opened is still open there: all the text from there on, calls too, may be part of that "
           "string, so none of it is read; the call is broken, and where it ends is a guess")
    if cut is not None:  # (its arguments as read, to the marker: what a stream has passed on of them)
        return [*kept, replace(cut, args=None, ok=False, span=(cut.span[0], limit), error=why, cut=None,
                               fixes=(), problems=())]
    named = _NAMED.search(text, k, stop_at)
    name = named.group(1) if named is not None and _NAME.match(named.group(1)) else ""
    return [*kept, ToolCall(name, text[k:stop_at].rstrip(), None, False, (k, limit), why)]


# the first member of a JSON object written without its opening brace
MEMBER_FIRST = re.compile(r'"[\w.-]{1,64}"[ \t]*:')


# what may follow a call's arguments on their line: its end, the next call's marker, a tag or token
_AFTER_ARGUMENTS = re.compile(r"[ \t]*(?:\r?\n|\Z|\[TOOL_CALLS\]|>>>|<[|/A-Za-z\uff5c])")


def unbraced_call(name: str, text: str, start: int, a: int, stop: int, limit: int, ctx: Ctx,
                  id: str | None = None) -> ToolCall | None:
    """The call to ``name`` at ``start`` whose arguments at ``a`` open with no brace
    (``"b": 2}``), up to where they would close with it given (looked for up to ``stop``, the
    next call's marker), the line ending there or a marker or tag following. Where they do
    not, where they end is a guess, and so is all that follows (a call the broken text shows,
    "for example [TOOL_CALLS]..."): the entry reaches ``limit`` and nothing in it is read. Not
    ok, so that the calls beside it never pass for all the message holds. None when it would
    cover a reasoning marker, a turn's end, another turn's head or a fence's marker: the scan's
    reading of those stands (an entry over one would move where reasoning, a turn or a fence ends)."""
    braced = extent("{" + text[a:stop], 0, stop - a + 1)
    stop = limit if braced is None else a + braced - 1
    if braced is not None and _AFTER_ARGUMENTS.match(text, stop, limit) is None:
        stop = limit  # (closed inside what follows, `{"b": "x<|tool_call|>[{..}}, {..}]`: a guess too)
    if _covers_readings(text, a, stop, ctx):
        return None
    return ToolCall(name, text[a:stop].strip(), None, False, (start, stop), (
        f"the call to {name!r} at offset {start} has no JSON object of arguments (a brace missing?): "
        "what its arguments are is a guess"), id)


def cut_call(name: str, raw: str, span: tuple[int, int], where: str,
             id: str | None = None) -> ToolCall:
    return ToolCall(name, raw, None, False, span,
                    f"the call to {name!r} was cut off {where}; it is not whole", id)


def named_call(name: str, raw: str, span: tuple[int, int], id: str | None = None, *,
               cut: bool = False, bare: bool = False) -> ToolCall:
    """A call whose arguments are JSON text, recovered as every JSON call is. None
    written (the marker after the name, then nothing) is not ok: an empty object
    would be a guess, as for a JSON call that names no arguments. ``bare``: the
    format allows a bare value for arguments (ReAct's input), else bare text is
    not JSON."""
    raw = raw.strip()
    if not raw:
        return ToolCall(name, "", None, False, span,
                        "the call was cut off before its arguments" if cut else
                        f"the call to {name!r} writes no arguments; {NO_ARGUMENTS} "
                        "(a call without parameters writes {})", id)
    return call_from_parts(name, raw, span, id, cut=cut, bare=bare)


def xml_call(name: str, params: list[tuple[str, str, bool | None]], raw: str, span: tuple[int, int],
             ctx: Ctx, id: str | None = None) -> ToolCall:
    """A call whose parameters were written as text (``<parameter=k>v</parameter>``
    and the like): ``params`` is (key, value text, value is JSON as written: True; a
    string the format marks as one, DSML's ``string="true"``: None; text: False).

    With tools, each text value is typed by its property's schema; a value that
    fits no type its schema allows makes the call not ok. Without tools, text
    stays text (only values the format itself marks as JSON are parsed)."""
    props = ctx.tools.properties(name) if ctx.tools is not None else {}
    args: dict[str, Any] = {}
    written: dict[str, tuple[str, bool | None]] = {}
    for key, value, is_json in params:
        if key in written:
            if written[key] == (value, is_json):
                continue  # the same parameter written again as it was: one reading
            return two_ways(name, raw, span, f"the call to {name!r} gives parameter {key!r} twice", id)
        written[key] = (value, is_json)
        if is_json:
            r = normalize_tool_args(value.strip())
            why = r.error if not r.ok else next((NOT_ONE_VALUE[f.code] for f in r.fixes
                                                  if f.code in NOT_ONE_VALUE), None)
            if r.cut is not None and value.strip()[:1] in "[{\"":  # (its closer ended it: [1,2)
                why = f"{value.strip()[:40]!r} ends before its JSON closes"
            elif r.cut is not None and r.cut.what == "inside a number":  # (007, +5, .5)
                why = f"{value.strip()[:40]!r} is no number as JSON writes it"
            if why is not None:
                return ToolCall(name, raw, None, False, span,
                                f"parameter {key!r} of {name!r} is marked as JSON but is not: {why}", id)
            args[key] = r.value
            continue
        if key in props:
            # (a value marked as a string stays one when its schema allows a string)
            typed, error = typed_value(value, props[key], marked_string=is_json is None)
            if error is not None:
                return ToolCall(name, raw, None, False, span, f"parameter {key!r} of {name!r} {error}", id)
            args[key] = typed
        else:
            args[key] = value
    try:
        json_text(args)
    except ValueError as exc:  # RecoveryError: a value JSON cannot hold
        return ToolCall(name, raw, None, False, span, f"the arguments of {name!r}: {exc}", id)
    return ToolCall(name, raw, args, True, span, None, id)


_NAME_ATTR = re.compile(r"""\bname\s*=\s*["']?([^\s"'<>/]{1,128})""")


def named_in(head: str) -> str:
    """The tool a call's head no reader could read names (``<invoke name="b" id="1">``),
    or "" when it names none: what a call that is not ok is called."""
    m = _NAME_ATTR.search(head)
    return m.group(1) if m is not None and _NAME.match(m.group(1)) else ""


# what a call's body begins with in the families whose block may hold one: a JSON object or list
# (not a template's {{ or {%), or its first member with the brace dropped, a Python call or a list
# of them, a tag
_CALL_BEGINS = re.compile(r"\{(?![{%])|" + MEMBER_FIRST.pattern + "|"
                          r"\[[ \t\n]*[\[{\"]|\[?[ \t\n]*[A-Za-z_][\w.]*[ \t]*\(|<[A-Za-z_|]|"
                          # (Gemma 4's call:NAME, Kimi's functions.NAME, GLM's NAME then its tags)
                          r"call:[A-Za-z_]|functions\.[A-Za-z_]|[A-Za-z_][\w.-]*[ \t]*\r?\n?[ \t]*<[A-Za-z_]|"
                          r"name\s*=\s*[\"']")  # (an invoke's head: name="b")


# what begins a call of one of the formats whose block may hold one, inside the block after words: a
# call object's name, an invoke's or a function's tag, GLM's key, Gemma 4's call:NAME{
_CALL_INSIDE = re.compile(r'\{\s*"name"\s*:|<(?:[\w.:-]+:)?invoke\b|<function=|<parameter=|<arg_key>|'
                          r'\bcall:[A-Za-z_][\w.-]*\{')


def unreadable_block(text: str, marker: str, start: int, past: int) -> list[ToolCall]:
    """The block a family's marker opens on its own and its closer ends, which its reader
    could not read: a call not ok when it begins as a call does (nothing otherwise), so
    that a call written badly is never taken for an answer with no call."""
    body = text[start + len(marker):past]
    closer = next((c for c in MARKER_CLOSERS[marker] if body.endswith(c)), "")
    body = body[:len(body) - len(closer)].strip()
    if _CALL_BEGINS.match(body) is None:
        inside = _CALL_INSIDE.search(body)
        if inside is None:
            return []  # (words, a template's {{ }}, a placeholder: the block is talked about, not written)
        # ("Now the time: <invoke name=..>": words, then a call of the format's, in the call's block)
        named = _NAMED.match(body, inside.start())
        name = named.group(1) if named is not None else named_in(body[inside.start():inside.start() + 200])
        return [ToolCall(name if _NAME.match(name) else "", body, None, False, (start, past),
                         f"the {marker} block at offset {start} holds words before its call "
                         f"({body[:40] + ('...' if len(body) > 40 else '')!r}): where the call begins is a "
                         "guess, and it is not run")]
    return [ToolCall(named_in(body[:body.find(">") + 1 or 200]), body, None, False, (start, past),
                     f"the {marker} block at offset {start} holds no call its format writes "
                     f"({body[:40] + ('...' if len(body) > 40 else '')!r}): it is not run")]


def opener_put_back(call: ToolCall, why: str) -> ToolCall:
    """``call``, read with the opening token the model dropped or miswrote put back (``why``
    says which, and where): its ``opener`` fix first (offset -1: its span says where)."""
    return replace(call, fixes=(Fix("opener", -1, why), *call.fixes))


# a call's envelope as the arguments ({"name": "g", "arguments": {..}}, {"name": .., "input": ..}):
# a name and arguments an object (or its JSON), or such a call under a key of its own
# ({"function": {"name": ..}}, Gemini's {"functionCall": {"name": .., "args": ..}}, a list of them)
_ENVELOPE_NAMES = ("name", "function", "tool", "tool_name", "function_name")
_ENVELOPE_ARGS = ("arguments", "parameters", "args", "params", "input", "tool_input", "kwargs")


def _call_keys(d: object) -> list[str]:
    """The keys that make ``d`` a call: a name (text) and its arguments (an object, or its JSON);
    [] for anything else (keys compared in any case)."""
    if not isinstance(d, dict):
        return []
    low = {k.lower(): k for k in d if isinstance(k, str)}
    named = [low[n] for n in _ENVELOPE_NAMES if n in low and isinstance(d[low[n]], str)]
    given = [low[a] for a in _ENVELOPE_ARGS if a in low and isinstance(d[low[a]], (dict, str))]
    return named + given if named and given else []


def _envelope(args: object, name: str, ctx: Ctx) -> bool:
    """The arguments ``args`` of the call to ``name`` are a call's envelope, not its arguments
    (unless the tool given names every key that makes them one)."""
    if not isinstance(args, dict):
        return False
    keys = _call_keys(args) or [k for k, v in args.items()
                                if _call_keys(v[0] if isinstance(v, list) and v else v)]
    if not keys:
        return False
    props = ctx.tools.properties(name) if ctx.tools is not None and name in ctx.tools.schemas else {}
    return not props or not set(keys) <= props.keys()


def not_an_envelope(call: ToolCall, ctx: Ctx) -> ToolCall:
    """``call``, not ok when its arguments are a call's envelope (``_envelope``)."""
    if not call.ok or not _envelope(call.args, call.name, ctx):
        return call
    return ToolCall(call.name, call.raw_args, None, False, call.span, f"the arguments of the call to "
                    f"{call.name!r} are a call's envelope (a name and its arguments): which call is meant "
                    "is a guess", call.id)
