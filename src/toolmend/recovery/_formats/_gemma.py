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

from .._toolcalls import _NAME, ToolCall, two_ways
from ._base import Ctx, cut_call, named_call, xml_call

__all__ = ["gemma_reader"]

_KEY = re.compile(r"\s*([A-Za-z_$][\w.$-]*)\s*:")
_BARE = re.compile(r"\s*([^,{}\[\]\s][^,{}\[\]]*?)\s*(?=[,}\]])")
_JSON_BARE = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\Z|true\Z|false\Z|null\Z")


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
    k = a
    while k < limit:
        if text.startswith(quote, k):
            close = text.find(quote, k + len(quote), limit)
            if close < 0:
                return None, limit, top
            s = text[k + len(quote):close]
            out.append(json.dumps(s, ensure_ascii=False))
            if len(stack) == 1 and key is not None:
                top.append((key, s))
            k = close + len(quote)
            expect_key = False
            continue
        c = text[k]
        if c in "{[":
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
            continue
        if c == ",":
            out.append(c)
            expect_key = stack[-1] == "{" if stack else False
            k += 1
            continue
        if expect_key:
            m = _KEY.match(text, k, limit)
            if m is None:
                if not text[k:limit].strip() or _KEY.match(text[k:limit] + ":") is not None:
                    return None, limit, top
                out.append(c)
                k += 1
                continue
            key = m.group(1)
            if len(stack) == 1:
                if key in keys:
                    twice.append(key)
                keys.add(key)
            out.append(json.dumps(key) + ":")
            k = m.end()
            expect_key = False
            continue
        m = _BARE.match(text, k, limit)
        if m is not None and not c.isspace():
            v = m.group(1)
            out.append(v if _JSON_BARE.match(v) else json.dumps(v))
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


def gemma_reader(marker: str, closer: str, quote: str, typed: bool):  # type: ignore[no-untyped-def]
    head = re.compile(re.escape(marker) + r"\s*call:([@A-Za-z_][\w.:@/-]{0,127})\s*")

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        m = head.match(text, i, limit)
        if m is None:
            rest = text[i + len(marker):limit]
            if limit == len(text) and "{" not in rest and len(rest) < 140:
                return [], limit  # cut before the body
            return None, i + len(marker)
        name = m.group(1)
        if not _NAME.match(name):
            return None, m.end()
        a = m.end()
        if a >= limit:
            return [cut_call(name, "", (i, limit), "before its arguments")], limit
        if text[a] != "{":
            return None, a
        twice: list[str] = []
        body, e, top = _to_json(text, a, limit, quote, twice)
        c = text.find(closer, e, min(limit, e + 40))
        end = c + len(closer) if c >= 0 and not text[e:c].strip() else e
        if body is None:
            return [cut_call(name, text[a:limit], (i, limit), "inside its arguments")], limit
        raw = text[a:e]
        if twice:
            return [two_ways(name, raw, (i, end), f"the call gives parameter {twice[0]!r} twice")], end
        if typed and ctx.tools is not None:
            call = named_call(name, body, (i, end))
            if not call.ok or not isinstance(call.args, dict):
                return [ToolCall(name, raw, None, False, (i, end), call.error)], end
            strings = dict(top)
            params: list[tuple[str, str, bool]] = []
            for k, v in call.args.items():
                if k in strings and v == strings[k]:
                    params.append((k, v, False))
                else:
                    params.append((k, json.dumps(v), True))
            return [xml_call(name, params, raw, (i, end), ctx)], end
        call = named_call(name, body, (i, end))
        return [ToolCall(name, raw, call.args, call.ok, call.span, call.error, call.id)], end

    return read


