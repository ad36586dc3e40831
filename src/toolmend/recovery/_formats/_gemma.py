"""Gemma's calls: ``call:NAME{key:value,...}`` with its own string quotes.

    <|tool_call>call:NAME{city:<|"|>Paris<|"|>,days:3}<tool_call|>      gemma4
    <start_function_call>call:NAME{city:<escape>Paris<escape>}<end_function_call>   functiongemma

Keys are bare; strings sit between the quote tokens (``<|"|>`` or
``<escape>``); numbers, booleans, ``null``, objects and arrays are written as
JSON writes them. The body is rewritten to JSON (each quoted string encoded,
each key quoted) and read with the repair engine; ``raw_args`` keeps the text
as the model wrote it. FunctionGemma quotes every value, so with ``tools=``
its values are typed by the schema as the XML formats' are.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from ..._text import skip_blanks, string_end
from .._toolcalls import _NAME, NAME_PATTERN, NO_ARGUMENTS, ToolCall, two_ways
from ._base import Ctx, cut_call, named_call, not_an_envelope, opener_put_back, string_rest_end, xml_call
from ._pythonic import pythonic_at

__all__ = ["gemma_reader"]

_KEY = re.compile(r"\s*((?:[^\W\d]|\$)[\w.$-]*)\s*:")  # (in any script: {城市:...})
# a bare value: to the next ",}]", blanks around it left out (greedy: a long run of blanks is read once)
_BARE = re.compile(r"\s*([^,{}\[\]\s](?:[^,{}\[\]]*[^,{}\[\]\s])?)\s*(?=[,}\]])")
_WORD_RUN = re.compile(r"\s*[\w.$-]+")
_KEY_CUT = re.compile(r"\s*(?:(?:[^\W\d]|\$)[\w.$-]*\s*)?")  # the end of the text inside a key, or before one
_RUN_ON = re.compile(r"\s(?:[^\W\d]|\$)[\w.$-]*\s*:")  # a key and its colon after a space, in a bare value
# Python's literals, as small models write them ({a:False}): the boolean and null they are, as in
# Gemma's call:f(a=False) (the string "False" is truthy)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_JSON_BARE = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\Z|true\Z|false\Z|null\Z")


class _Refused(ValueError):
    """A value no reading of which is safe: the call is not ok, for this reason."""


def _quoted(text: str, k: int, limit: int) -> tuple[str | None, int]:
    """The string in quotes at ``k`` (None: cut off) and where its value ends.
    In double quotes it is a JSON string (an escape JSON has not is refused:
    ``"C:\\users"`` would read ``\\u`` as one); in single quotes the text between
    them, ``\\'`` read as a quote. The value must end there."""
    end = string_end(text, k, limit)
    if end is None:
        return None, limit
    raw = text[k:end]
    if raw[0] == '"':
        try:
            v = json.loads(raw)
        except ValueError:
            raise _Refused(f"the string {raw[:40]!r} is in JSON's quotes but is not a JSON string "
                           "(a backslash JSON does not know?); which text was meant cannot be told") from None
    else:
        v = raw[1:-1].replace("\\'", "'")
    return v, _value_ends(text, end, limit, "quoted string")


def _quoted_key(text: str, k: int, limit: int) -> tuple[str | None, int]:
    """The key in quotes at ``k`` and where what follows its colon begins; (None, k) when no colon
    follows it (no key), (None, ``limit``) when the text is cut before its colon."""
    end = string_end(text, k, limit)
    if end is None:
        return None, limit
    colon = skip_blanks(text, end, limit)
    if colon >= limit:
        return None, limit
    if text[colon] != ":":
        return None, k
    try:
        return (json.loads(text[k:end]) if text[k] == '"' else text[k + 1:end - 1]), colon + 1
    except ValueError:
        raise _Refused(f"the key {text[k:end][:40]!r} is in JSON's quotes but is not a JSON string: which "
                       "key was meant cannot be told") from None


def _note_key(key: str, top: bool, keys: set[str], twice: list[str]) -> None:
    """A top-level key read: one written again goes on ``twice``."""
    if top:
        if key in keys:
            twice.append(key)
        keys.add(key)


def _value_ends(text: str, j: int, limit: int, what: str) -> int:
    """Past the blanks after a value that ended at ``j``: what follows must end
    it (``,}]``, or the text's end); anything else is refused, since the model
    then wrote more of the value than its quotes hold (``<|"|>b<|"|>c``)."""
    while j < limit and text[j].isspace():
        j += 1
    if j < limit and text[j] not in ",}]":
        raise _Refused(f"a {what} is followed by more of its value; where the value ends cannot be told")
    return j


def _to_json(text: str, a: int, limit: int, quote: str,
             twice: list[str]) -> tuple[str | None, int, list[tuple[str, str]]]:
    """The body at ``a`` (a ``{``) as JSON text: (json or None when cut, end, top-level string members);
    the top-level keys written again go on ``twice``."""
    out: list[str] = []
    stack: list[str] = []
    expect_key = False
    top: list[tuple[str, str]] = []
    keys: set[str] = set()  # the top level's
    key: str | None = None
    want_value = False  # a key was read and its value not begun: {a:,b:1} gives it none
    k = a
    while k < limit:
        if text.startswith(quote, k):
            close = text.find(quote, k + len(quote), limit)
            if close < 0:
                return None, limit, top
            s = text[k + len(quote):close]
            k = close + len(quote)
            if expect_key:  # a key in the format's quotes: {<|"|>path<|"|>:...}
                while k < limit and text[k].isspace():
                    k += 1
                if k >= limit:
                    return None, limit, top
                if text[k] != ":":
                    raise _Refused(f"the quoted key {s!r} is not followed by a colon")
                key, k, expect_key, want_value = s, k + 1, False, True
                _note_key(key, len(stack) == 1, keys, twice)
                out.append(json.dumps(key, ensure_ascii=False) + ":")
                continue
            k = _value_ends(text, k, limit, "quoted string")
            want_value = False
            out.append(json.dumps(s, ensure_ascii=False))
            if len(stack) == 1 and key is not None:
                top.append((key, s))
            expect_key = False
            continue
        c = text[k]
        if want_value and c in ",}]":
            raise _Refused(f"parameter {key!r} is given no value")
        if c in "{[":
            want_value = False
            stack.append(c)
            out.append(c)
            expect_key = c == "{"
            k += 1
            continue
        if c in "}]":
            if not stack:
                return None, k, top
            stack.pop()
            out.append(c)
            k += 1
            if not stack:
                return "".join(out), k, top
            k = _value_ends(text, k, limit, "nested value")  # ({a:[]x}: x is no member)
            continue
        if c == ",":
            out.append(c)
            expect_key = stack[-1] == "{" if stack else False
            k += 1
            continue
        if expect_key and c in "\"'":  # a key in JSON's quotes (or single ones): {"path":<|"|>..<|"|>}
            quoted, after = _quoted_key(text, k, limit)
            if after >= limit:
                return None, limit, top  # (cut inside the key or before its colon)
            if quoted is not None:
                key = quoted
                _note_key(key, len(stack) == 1, keys, twice)
                out.append(json.dumps(key, ensure_ascii=False) + ":")
                k, expect_key, want_value = after, False, True
                continue
        if expect_key:
            m = _KEY.match(text, k, limit)
            if m is None:
                if _KEY_CUT.fullmatch(text, k, limit) is not None:  # cut inside a key (or before one)
                    return None, limit, top
                run = _WORD_RUN.match(text, k, limit)  # (a word that is no key: passed on whole, once)
                step = run.end() - k if run is not None else 1
                out.append(text[k:k + step])
                k += step
                continue
            key = m.group(1)
            _note_key(key, len(stack) == 1, keys, twice)
            out.append(json.dumps(key) + ":")
            k = m.end()
            expect_key, want_value = False, True
            continue
        if c in "\"'":  # a string in JSON's quotes (or single ones) where the format wants its own
            v, k = _quoted(text, k, limit)
            if v is None:
                return None, limit, top
            want_value = False
            out.append(json.dumps(v, ensure_ascii=False))
            if len(stack) == 1 and key is not None:
                top.append((key, v))
            continue
        m = _BARE.match(text, k, limit)
        if m is not None and not c.isspace():
            v = m.group(1)
            if quote in v:  # (the quote token is never a value's text: its opening one dropped?)
                raise _Refused(f"the bare value {v[:40]!r} holds the format's quote {quote}: its opening "
                               "quote dropped, or more than one value, which cannot be told")
            if _RUN_ON.search(v) or (" " in v and all(_JSON_BARE.match(w) for w in v.split())):
                # {a:1 b:2}, [1 2]: a comma dropped, or one value with spaces; which cannot be told
                raise _Refused(f"the bare value {v[:40]!r} reads as more than one value")
            want_value = False
            out.append(v if _JSON_BARE.match(v) else _PY_LITERALS.get(v) or json.dumps(v))
            k = m.end()
            continue
        if c.isspace():
            k += 1
            continue
        if m is None and k < limit:
            # a bare value running to the end of the text: cut
            return None, limit, top
        out.append(c)
        k += 1
    return None, limit, top


_NEXT_CALL = re.compile(r"\s*[,;]?\s*call:(" + NAME_PATTERN + r")\s*(?=[{(<])")


def _body_call(name: str, text: str, i: int, a: int, limit: int, ctx: Ctx, quote: str, closer: str,
               typed: bool, marker: str) -> tuple[ToolCall, int, bool]:
    """The call whose body's ``{`` is at ``a`` (its head at ``i``): (call, where
    it ends, whether it is whole, so that another may follow)."""
    twice: list[str] = []
    try:
        body, e, top = _to_json(text, a, limit, quote, twice)
    except _Refused as exc:
        # (the closer is looked for only up to the next block: a run of refused calls stays linear)
        nxt = text.find(marker, a, limit)
        c = text.find(closer, a, nxt if nxt >= 0 else limit)  # the next block begins first: it ends there
        if c < 0 and nxt >= 0 and text.count(quote, a, nxt) % 2:
            # a string still open at the next block's marker: the marker may be that string's text (a
            # value showing a call; the quote token has no escape), and so may all that follows
            stop = string_rest_end(text, nxt, limit, ctx)
            if stop >= 0:  # (else the scan's reasoning rule reads it)
                return ToolCall(name, text[a:stop].rstrip(), None, False, (i, stop), (
                    f"the call to {name!r}: {exc}; a string it opened is still open at the next "
                    f"{marker} at offset {nxt}: all the text from there on, calls too, may be part of "
                    "that string, so none of it is read")), stop, False
        stop = c if c >= 0 else nxt if nxt >= 0 else limit
        end = c + len(closer) if c >= 0 else stop
        return ToolCall(name, text[a:stop], None, False, (i, end),
                        f"the call to {name!r}: {exc}"), end, False
    if body is None:
        return cut_call(name, text[a:limit], (i, limit), "inside its arguments"), limit, False
    raw = text[a:e]
    if twice:
        return two_ways(name, raw, (i, e), f"the call gives parameter {twice[0]!r} twice"), e, True
    call = named_call(name, body, (i, e))
    if typed and ctx.tools is not None:
        if not call.ok or not isinstance(call.args, dict):
            return ToolCall(name, raw, None, False, (i, e), call.error), e, True
        strings = dict(top)
        params: list[tuple[str, str, bool | None]] = []
        for k, v in call.args.items():
            if k in strings and v == strings[k]:
                params.append((k, v, None))  # (quoted: a string, as the model wrote it)
            else:
                params.append((k, json.dumps(v), True))
        return xml_call(name, params, raw, (i, e), ctx), e, True
    return ToolCall(name, raw, call.args, call.ok, call.span, call.error, call.id), e, True


# names a bare head never gives: a fence's language or an envelope's word before a JSON body
# (<|tool_call>json{"name": ...}), not a tool
_NOT_BARE_NAMES = frozenset({"json", "call", "function", "tool_call", "tool", "functions"})


def _bare_fix(found: list[ToolCall], text: str, i: int, bare: re.Match[str], marker: str,
              ctx: Ctx) -> list[ToolCall]:
    """``found``, read after ``bare``, a head whose call: was written ":" or "-" (or with a blank,
    or not at all), its first call with a fix saying so; or, when the name is a fence's language
    or an envelope's word, or alone on its line, of no tool given, an entry not ok for the block
    (what it holds is a guess, and never nothing)."""
    name, call = bare.group(1), found[0]
    known = ctx.tools is not None and name in ctx.tools.schemas
    if not known and (name.lower() in _NOT_BARE_NAMES or "\n" in text[bare.end(1):bare.end()]):
        end = found[-1].span[1]  # (a name alone on its line before the body: a fence's language too)
        return [ToolCall("", text[bare.start(1):end], None, False, (i, end),
                         f"the {marker} block at offset {i} holds {name!r} and then a body: a word "
                         "before the call, or its name, which cannot be told; it is not run")]
    written = text[i + len(marker):bare.start(1)].strip()
    said = repr(written) if written else "nothing"
    return [opener_put_back(call, f"the call's 'call:' after {marker} was written {said}: read as the call "
                                  "it opens"), *found[1:]]


def gemma_reader(marker: str, closer: str, quote: str, typed: bool):  # type: ignore[no-untyped-def]
    head = re.compile(re.escape(marker) + r"\s*call:(" + NAME_PATTERN + r")\s*")
    # (checkpoints of Gemma 4 write its call: as a bare ":" or "-", with a blank, or leave it out:
    # the token says a call follows, so NAME{ right after it is one; read, with a fix saying so)
    bare_head = re.compile(re.escape(marker) + r"\s*(?:(?i:call)\s*)?[:-]{0,2}\s*(" + NAME_PATTERN
                           + r")\s*(?=[{(])")

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        """The calls in the block at ``i``: one, or several one after the other
        (``call:f{..}call:g{..}``) before the closer."""
        m = head.match(text, i, limit)
        if m is not None:
            return calls_at(text, i, limit, ctx, m)
        bare = bare_head.match(text, i, limit)
        if bare is not None and _NAME.match(bare.group(1)):
            found, end = calls_at(text, i, limit, ctx, bare)
            if found:
                return _bare_fix(found, text, i, bare, marker, ctx), end
        if limit == len(text) and limit - i - len(marker) < 140 and text.find("{", i, limit) < 0:
            return [], limit  # cut before the body
        return None, i + len(marker)

    def calls_at(text: str, i: int, limit: int, ctx: Ctx,
                 m: re.Match[str]) -> tuple[list[ToolCall] | None, int]:
        """The calls of the block at ``i`` from its first head ``m`` (the name its group 1)."""
        calls: list[ToolCall] = []
        at: int = i
        while True:
            name = m.group(1)
            if not _NAME.match(name):
                return (calls or None), m.end()
            a = m.end()
            if a >= limit:
                calls.append(cut_call(name, "", (at, limit), "before its arguments"))
                return calls, limit
            if text[a] == "(":  # call:NAME(k="v"): small Gemma 4 models write Python
                found, e = pythonic_at(text, m.start(1), limit)
                if found is None:
                    return (calls or None), a
                calls.append(not_an_envelope(replace(found, span=(at, found.span[1])), ctx))
                nxt = _NEXT_CALL.match(text, e, limit)
                if nxt is None:
                    break
                m, at = nxt, nxt.start(1) - len("call:")
                continue
            if text.startswith(closer, a):  # call:b<tool_call|>: b written with no arguments
                calls.append(ToolCall(name, "", None, False, (at, a),
                                      f"the call to {name!r} writes no arguments; {NO_ARGUMENTS}"))
                e = a
                nxt = _NEXT_CALL.match(text, a, limit)
                if nxt is None:
                    break
                m, at = nxt, a
                continue
            if text[a] != "{":
                return (calls or None), a
            call, e, whole = _body_call(name, text, at, a, limit, ctx, quote, closer, typed, marker)
            call = not_an_envelope(call, ctx)
            if call.ok and "call:" in name.lower() and (ctx.tools is None or name not in ctx.tools.schemas):
                # (call:bcall:c{..}: b with no arguments then c, or one name holding "call:")
                call = ToolCall(name, call.raw_args, None, False, call.span,
                                f"the name {name!r} holds 'call:': a call written with no arguments and "
                                "then another, or one name, which cannot be told")
            calls.append(call)
            if not whole:
                return calls, e
            nxt = _NEXT_CALL.match(text, e, limit)
            if nxt is None:
                break
            m, at = nxt, nxt.start(1) - len("call:")
        c = ctx.find(text, closer, e, limit)
        if c >= 0 and text.find(marker, e, c) < 0:  # (the block's closer, not a later block's)
            last = calls[-1]
            stray = text[e:c].strip()
            if stray and last.ok:  # call:f{a:1},b:2}: more of its arguments, perhaps
                calls[-1] = ToolCall(last.name, last.raw_args, None, False, last.span,
                                     f"the call to {last.name!r} is followed by {stray[:40]!r} inside its "
                                     "block: more of its arguments, perhaps; the call without it is a guess")
            elif not stray:  # the last call's span takes in the closer
                calls[-1] = replace(last, span=(last.span[0], c + len(closer)))
                e = c + len(closer)
        return calls, e

    return read
