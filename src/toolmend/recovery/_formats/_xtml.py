"""Arguments between special tokens: Kimi K3's XTML and Solar Open 2's calls.

Kimi K3's XTML, structural tokens around plain-text tag names:

    <|open|>tools<|sep|>
    <|open|>call tool="NAME" index="1"<|sep|>
    <|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|>
    <|open|>json type="object"<|sep|>{...}<|close|>json<|sep|>      (arguments that are no object's members)
    <|close|>call<|sep|>
    <|close|>tools<|sep|>

An argument's ``type`` says how its text reads: ``string`` is the text as
written (typed by the tool's schema when tools are given), ``null`` is null,
any other type is JSON (text that is not JSON makes the call not ok). The
attributes escape ``&`` and ``"`` as ``&amp;`` and ``&quot;``. A call whose text
ends before ``<|close|>call<|sep|>`` is cut: another argument may have followed.

Solar Open 2, each argument's text between tokens (typed by the tool's schema):

    <|tool_call:start|>NAME
    <|tool_arg:start|>k<|tool_arg:value|>v<|tool_arg:end|>
    <|tool_call:end|>

A value cannot hold a special token, so a dropped ``<|tool_arg:end|>`` is where
the next token stands (the next argument, the call's end, the next call), and
a dropped ``<|tool_call:end|>`` is where the next call begins. A head with no
line end before the next token was abandoned (the format's parser skips it).
"""

from __future__ import annotations

import re

from .._toolcalls import _NAME, NAME_PATTERN, ToolCall
from ._base import Ctx, cut_call, named_call, xml_call

__all__ = ["read_xtml_call", "XTML_CALL", "read_solar", "SOLAR_CALL"]

XTML_CALL = '<|open|>call tool="'
_HEAD = re.compile(r'<\|open\|>call tool="([^"\n<]{1,256})"(?: index="(\d{1,9})")?<\|sep\|>')
_ARG = re.compile(r'<\|open\|>argument key="([^"\n<]{1,256})" type="([a-z]{1,16})"<\|sep\|>')
_JSON = '<|open|>json type="object"<|sep|>'
_ARG_CLOSE, _JSON_CLOSE = "<|close|>argument<|sep|>", "<|close|>json<|sep|>"
_CALL_CLOSE = "<|close|>call<|sep|>"
_OPENS = re.compile(r"<\|open\|>(?:argument|call|json)[ <]")
_ARG_OPEN = '<|open|>argument key="'
_TYPES = frozenset({"string", "null", "number", "integer", "boolean", "object", "array"})


def _unescape(v: str) -> str:
    return v.replace("&quot;", '"').replace("&amp;", "&")


def read_xtml_call(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    m = _HEAD.match(text, i, limit)
    if m is None:
        sep = text.find("<|sep|>", i, min(limit, i + 400))
        if sep < 0:
            if limit == len(text) and ctx.find(text, "<|sep|>", i, limit) < 0:
                return [], limit  # cut inside the call's head: nothing to report yet
            return None, i + len(XTML_CALL)
        return _unread(text, i, sep, _CALL_CLOSE, "a call head XTML does not write "
                                                  f"({text[i:sep][:60]!r})", ctx)
    name = _unescape(m.group(1))
    if not _NAME.match(name):
        return _unread(text, i, m.end(), _CALL_CLOSE, f"the call's tool {name[:60]!r} is not a name", ctx)
    j = k = m.end()
    params: list[tuple[str, str, bool | None]] = []
    json_args: str | None = None
    while True:
        while k < limit and text[k] in " \t\r\n":
            k += 1
        if text.startswith(_CALL_CLOSE, k):
            break
        arg = _ARG.match(text, k, limit)
        if arg is not None:
            if json_args is not None:  # (arguments in a json block and as arguments: which are meant)
                return _broken(ctx, name, text, i, j, k, f"the call to {name!r} gives its arguments in a "
                                                         "json block and as arguments after it")
            e = ctx.find(text, _ARG_CLOSE, arg.end(), limit)
            if e < 0:
                return [cut_call(name, text[j:limit], (i, limit), f"inside argument {arg.group(1)!r}")], limit
            key, kind, value = _unescape(arg.group(1)), arg.group(2), text[arg.end():e]
            if _OPENS.search(value) is not None:  # (a value holding an argument's or a call's opening)
                return _broken(ctx, name, text, i, j, e, f"argument {key!r} holds the opening of another "
                                                         "argument or call: its closer was dropped or the "
                                                         "value shows the format, which cannot be told")
            if kind not in _TYPES:
                return _broken(ctx, name, text, i, j, e,
                               f"argument {key!r} has a type XTML does not have: {kind!r}")
            if kind == "null":
                if value.strip() not in ("", "null"):
                    return _broken(ctx, name, text, i, j, e,
                                   f"argument {key!r} is typed null but holds {value[:40]!r}")
                value = "null"
            params.append((key, value, None if kind == "string" else True))  # (None: a string, said so)
            k = e + len(_ARG_CLOSE)
            continue
        if text.startswith(_JSON, k) and not params and json_args is None:
            e = ctx.find(text, _JSON_CLOSE, k + len(_JSON), limit)
            if e < 0:
                return [named_call(name, text[k + len(_JSON):limit], (i, limit), cut=True)], limit
            json_args = text[k + len(_JSON):e]
            k = e + len(_JSON_CLOSE)
            continue
        if k >= limit or (limit == len(text) and _cut_at(text, k, ctx)):
            return [cut_call(name, text[j:limit], (i, limit), f"before {_CALL_CLOSE}")], limit
        return _broken(ctx, name, text, i, j, k, f"the call to {name!r} holds text that is not an argument "
                                                 f"at offset {k - i} of the call")
    end = k + len(_CALL_CLOSE)
    if json_args is not None:
        return [named_call(name, json_args, (i, end))], end
    return [xml_call(name, params, text[j:k], (i, end), ctx)], end


def _broken(ctx: Ctx, name: str, text: str, i: int, j: int, at: int, why: str,
            closer: str = _CALL_CLOSE) -> tuple[list[ToolCall], int]:
    """A call not ok, which runs to its own closer: what it holds is never read as
    text (a call shown in a value it was writing). (The closer's search is the parse's,
    remembered: a run of heads that never close costs one search.)"""
    c = ctx.find(text, closer, at, len(text))
    end = at if c < 0 else c + len(closer)
    return [ToolCall(name, text[j:at], None, False, (i, end), why)], end


def _unread(text: str, i: int, j: int, closer: str, why: str, ctx: Ctx) -> tuple[list[ToolCall], int]:
    """A call the format's tokens open but that names no tool: not ok, to its closer."""
    return _broken(ctx, "", text, i, j, j, why, closer)


def _cut_at(text: str, k: int, ctx: Ctx) -> bool:
    """The text, ending after ``k``, may be cut in the call's closer, a json block's or an
    argument's opening (read in place, not copied: this runs at every head that fails)."""
    n = len(text) - k
    if any(n <= len(t) and t.startswith(text[k:]) for t in (_CALL_CLOSE, _JSON, _ARG_OPEN)):
        return True
    return text.startswith(_ARG_OPEN, k) and ctx.find(text, "<|sep|>", k, len(text)) < 0


SOLAR_CALL = "<|tool_call:start|>"
_SOLAR_HEAD = re.compile(r"<\|tool_call:start\|>[ \t]*(" + NAME_PATTERN + r")[ \t]*\r?\n")
_SOLAR_ARG = re.compile(r"<\|tool_arg:start\|>([^<\n]{1,256}?)<\|tool_arg:value\|>")
_SOLAR_TOKEN = re.compile(r"<\|tool_(?:arg:end|arg:start|arg:value|call:end|call:start)\|>")
_SOLAR_ARG_END, _SOLAR_END, _SOLAR_VALUE = "<|tool_arg:end|>", "<|tool_call:end|>", "<|tool_arg:value|>"


def read_solar(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    m = _SOLAR_HEAD.match(text, i, limit)
    if m is None:
        nxt = _SOLAR_TOKEN.search(text, i + len(SOLAR_CALL), limit)
        if nxt is None:
            if limit == len(text) and text.find("<|", i + len(SOLAR_CALL), limit) < 0:
                return [], limit  # cut inside the name: not a call yet
            return None, i + len(SOLAR_CALL)
        if nxt.group() == SOLAR_CALL:
            return None, nxt.start()  # a head abandoned for the next call (the format's parser skips it)
        head = text[i + len(SOLAR_CALL):nxt.start()][:60]
        return _unread(text, i, nxt.start(), _SOLAR_END,
                       f"a call head that is not a tool's name on its line ({head!r})", ctx)
    name = m.group(1)
    j = k = m.end()
    params: list[tuple[str, str, bool | None]] = []
    while True:
        while k < limit and text[k] in " \t\r\n":
            k += 1
        if text.startswith(_SOLAR_END, k):
            end = k + len(_SOLAR_END)
            break
        if text.startswith(SOLAR_CALL, k):  # (its end dropped: the next call ends it)
            end = k
            break
        arg = _SOLAR_ARG.match(text, k, limit)
        if arg is None:
            rest = text[k:limit]
            if limit == len(text) and (not rest or _SOLAR_END.startswith(rest) or (
                    rest.startswith("<|tool_arg:start|>") and "<|tool_arg:value|>" not in rest) or
                    "<|tool_arg:start|>".startswith(rest)):
                return [cut_call(name, text[j:limit], (i, limit), f"before {_SOLAR_END}")], limit
            return _broken(ctx, name, text, i, j, k, f"the call to {name!r} holds text that is not an "
                                                     f"argument at offset {k - i} of the call", _SOLAR_END)
        stop = _SOLAR_TOKEN.search(text, arg.end(), limit)
        if stop is None:
            if limit == len(text):
                return [cut_call(name, text[j:limit], (i, limit), f"inside argument {arg.group(1)!r}")], limit
            why = f"argument {arg.group(1)!r} of {name!r} runs past its block"
            return _broken(ctx, name, text, i, j, limit, why)
        if stop.group() == _SOLAR_VALUE:  # (a value holding another's value token: an argument end dropped)
            return _broken(ctx, name, text, i, j, stop.start(), f"argument {arg.group(1)!r} of {name!r} "
                           "holds another argument's value token", _SOLAR_END)
        params.append((arg.group(1).strip(), text[arg.end():stop.start()], False))
        k = stop.end() if stop.group() == _SOLAR_ARG_END else stop.start()
    after = _SOLAR_TOKEN.search(text, end, limit)
    if after is not None and after.group() not in (SOLAR_CALL, _SOLAR_END) and end > k:
        # an argument's token after the call's end, before any other call: the end was inside a value
        return _broken(ctx, name, text, i, j, k, "an argument's token follows the end of the call to "
                       f"{name!r}: a value may have held that end, so where the call ends is a guess",
                       _SOLAR_END)
    return [xml_call(name, params, text[j:end].strip(), (i, end), ctx)], end
