"""MiniMax M3: calls as XML nested in values, every tag after the namespace token.

    ]<]minimax[>[<tool_call>
    ]<]minimax[>[<invoke name="NAME">]<]minimax[>[<k>v]<]minimax[>[</k>
    ]<]minimax[>[<list>]<]minimax[>[<item>a]<]minimax[>[</item>...]<]minimax[>[</list>
    ]<]minimax[>[<map>]<]minimax[>[<a>1]<]minimax[>[</a>...]<]minimax[>[</map>]<]minimax[>[</invoke>
    ]<]minimax[>[</tool_call>

An element holding ``<item>`` elements is a list, one holding other elements an
object, one holding text that text (typed by the tool's schema when tools are
given, as every value written as text is); ``null`` is never written (its
parameter is left out). Read with an explicit stack: nesting deeper than JSON
can carry is refused with its reason, never a crash. Text between the elements
of a list or an object, an element closed by another's tag, or a key given
twice makes the call not ok; a call whose text ends before its ``</invoke>`` is
cut.
"""

from __future__ import annotations

import re
from typing import Any

from .._strategies import json_text
from .._toolcalls import _NAME, ToolCall
from ._base import Ctx, cut_call
from ._schema import _types, typed_value

__all__ = ["NS", "read_block"]

NS = "]<]minimax[>["
_OPEN = NS + "<tool_call>"
_CLOSE = re.compile("(?:" + re.escape(NS) + ")?</tool_call>")
# (the models write the token before every opening tag, and at times leave it out before an
# invoke and before closing tags: a closer is read with or without it)
_INVOKE = re.compile("(?:" + re.escape(NS) + r")?<invoke name="
                     r"(?:\"([^\"\n<>]{1,256})\"|'([^'\n<>]{1,256})')\s*>")
_INVOKE_CLOSE = re.compile("(?:" + re.escape(NS) + ")?</invoke>")
_TAG = re.compile(r"<(/?)([^<>/\s\"]{1,256})>")


class _Broken(Exception):
    """The call's text is not the format's: why, and where it stops."""

    def __init__(self, why: str, at: int, inside: str = "") -> None:
        super().__init__(why)
        self.at = at
        self.inside = inside  # (cut: the element the text ended in)


def read_block(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """The invokes of the block opened at ``i``, to its ``</tool_call>``."""
    k = i + len(_OPEN)
    calls: list[ToolCall] = []
    while True:
        while k < limit and text[k] in " \t\r\n":
            k += 1
        close = _CLOSE.match(text, k, limit)
        if close is not None:
            return calls, close.end()
        m = _INVOKE.match(text, k, limit)
        if m is None:
            rest = text[k:limit]
            if limit == len(text) and (not rest or (NS + "</tool_call>").startswith(rest) or (
                    (NS + '<invoke name="').startswith(rest[:len(NS) + 14]) and ">" not in rest[len(NS):])):
                return calls, limit  # cut before the block's end or inside an invoke's head
            # (the parse's remembered search: a run of openers with no closer costs one search)
            c = ctx.find(text, "</tool_call>", k, limit)
            if c < 0:
                return (calls or None), k + (0 if calls else len(_OPEN))
            start, end = (c - len(NS) if text.endswith(NS, k, c) else c), c + len("</tool_call>")
            # text the block holds that is no invoke: reported, and never read as text (a call it
            # shows would be taken for one)
            calls.append(ToolCall("", text[k:start], None, False, (k, end),
                                  f"the block holds text that is not an invoke ({rest[:40]!r})"))
            return calls, end
        name = m.group(1) if m.group(1) is not None else m.group(2)
        props = ctx.tools.properties(name) if ctx.tools is not None else None
        call, k = _invoke(name, text, k, m.end(), limit, props)
        if not _NAME.match(name):  # (a call the block holds, to no tool: reported, and the block read on)
            call = ToolCall("", call.raw_args, None, False, call.span, f"the invoke's name {name[:60]!r} is "
                                                                          "not a tool's name")
        calls.append(call)
        if not call.ok and call.span[1] >= limit:
            return calls, limit


def _invoke(name: str, text: str, i: int, j: int, limit: int,
            props: dict[str, Any] | None) -> tuple[ToolCall, int]:
    """The call whose parameters start at ``j``: (the call, where it ends); ``props``:
    its tool's properties (None: no tools given), which say what an empty element is."""
    try:
        args, end = _elements(text, j, limit)
    except _Broken as exc:
        if exc.at >= limit:
            return cut_call(name, text[j:limit], (i, limit), f"inside {exc.inside!r}" if exc.inside
                            else str(exc)), limit
        why = f"the call to {name!r}: {exc}"
        # (to its own closer: what it holds is never read as text, a call it shows included)
        close = _INVOKE_CLOSE.search(text, exc.at, limit)
        end = exc.at if close is None else close.end()
        return ToolCall(name, text[j:exc.at], None, False, (i, end), why), end
    raw = text[j:end - len("</invoke>")]
    raw = raw[:-len(NS)] if raw.endswith(NS) else raw
    empty = _fill_empty(args, props or {})
    if empty is not None:
        return ToolCall(name, raw, None, False, (i, end), f"the call to {name!r}: {empty}"), end
    for key, value in args.items():  # a parameter written as text, typed by its schema (a list is <item>s)
        if isinstance(value, str) and props and key in props:
            typed, wrong = typed_value(value, props[key])
            if wrong is not None:
                why = f"parameter {key!r} of {name!r} {wrong}"
                return ToolCall(name, raw, None, False, (i, end), why), end
            args[key] = typed
    try:
        json_text(args)
    except ValueError as exc:
        return ToolCall(name, raw, None, False, (i, end), f"the arguments of {name!r}: {exc}"), end
    return ToolCall(name, raw, args, True, (i, end), None), end


def _elements(text: str, j: int, limit: int) -> tuple[dict[str, Any], int]:
    """The invoke's elements from ``j`` as one object, and where its ``</invoke>`` ends.
    Each open element is a frame on the stack: [its tag, its value so far (None:
    nothing yet, a list, a dict), where its text starts]."""
    stack: list[list[Any]] = [["invoke", {}, j]]
    pos = j
    while True:
        n = text.find(NS, pos, limit)
        frame = stack[-1]
        plain = _plain_closer(text, pos, n if n >= 0 else limit, frame)
        tag: re.Match[str] | None
        if plain is not None:  # </k> without the token: the models leave it out at times
            n, tag = plain.start(), plain
        elif n < 0:
            raise _Broken("text after its last element", limit if limit == len(text) else pos, stack[-1][0])
        else:
            tag = _TAG.match(text, n + len(NS), limit)
        if tag is None:
            if limit == len(text) and text.find(">", n + len(NS), limit) < 0:
                raise _Broken("cut inside a tag", limit, stack[-1][0])
            raise _Broken(f"a namespace token not followed by a tag at offset {n - j}", n)
        closing, key = tag.group(1) == "/", tag.group(2)
        between = text[pos:n]
        if not closing:
            if frame[1] is None and between.strip():
                raise _Broken(f"{frame[0]!r} holds text and then an element {key!r}", n)
            if isinstance(frame[1], (list, dict)) and between.strip():
                raise _Broken(f"text between the elements of {frame[0]!r}", pos)
            if frame[1] is None:
                frame[1] = [] if key == "item" else {}
            # (a parameter may be named "item": only below the invoke does it make a list)
            if isinstance(frame[1], list) != (key == "item") and len(stack) > 1:
                raise _Broken(f"{frame[0]!r} mixes <item> elements and keys", n)
            stack.append([key, None, tag.end()])
            pos = tag.end()
            continue
        if key != frame[0]:
            raise _Broken(f"</{key}> closes {frame[0]!r}", n)
        if isinstance(frame[1], (list, dict)) and between.strip():
            raise _Broken(f"text between the elements of {frame[0]!r}", pos)
        value = frame[1] if frame[1] is not None else text[frame[2]:n] or _EMPTY
        stack.pop()
        pos = tag.end()
        if not stack:
            assert isinstance(value, dict)  # (the invoke's frame starts as one)
            return value, pos  # </invoke>
        parent = stack[-1][1]
        if isinstance(parent, list):
            parent.append(value)
        elif frame[0] in parent:
            raise _Broken(f"{frame[0]!r} is given twice in {stack[-1][0]!r}", n)
        else:
            parent[frame[0]] = value


def _plain_closer(text: str, pos: int, stop: int, frame: list[Any]) -> re.Match[str] | None:
    """The frame's closing tag written without the token, before ``stop`` (the next
    token): anywhere in a value's text, or right after an object's or a list's elements."""
    closer = "</" + frame[0] + ">"
    if frame[1] is None:
        k = text.find(closer, pos, stop)
    else:
        k = pos
        while k < stop and text[k] in " \t\r\n":
            k += 1
        k = k if text.startswith(closer, k) else -1
    return None if k < 0 else _TAG.match(text, k, k + len(closer))


class _Empty:
    """An element written with nothing in it: an empty string, list or object (the format
    writes all three so), which only the tool's schema can tell apart."""


_EMPTY = _Empty()
_EMPTY_AS = {"string": "", "array": [], "object": {}}


def _fill_empty(args: dict[str, Any], props: dict[str, Any]) -> str | None:
    """Each empty element of ``args`` made what its property's schema says it is; why
    not (None: done). Only a parameter's own schema is looked at: a nested one is refused."""
    for key, value in args.items():
        if value is _EMPTY:
            kinds = _types(props.get(key))
            fits = [k for k in kinds if k in _EMPTY_AS]
            if len(fits) != 1:
                return (f"parameter {key!r} is written empty: an empty string, list or object, which "
                        "is a guess without its schema saying one")
            args[key] = _EMPTY_AS[fits[0]]
    stack: list[Any] = [v for v in args.values() if isinstance(v, (list, dict))]
    while stack:  # (nested: an explicit stack, as the reading)
        v = stack.pop()
        for x in (v.values() if isinstance(v, dict) else v):
            if x is _EMPTY:
                return "a nested element is written empty: an empty string, list or object, which is a guess"
            if isinstance(x, (list, dict)):
                stack.append(x)
    return None
