"""Claude 2's and Claude 3's prompted tool use (Anthropic's tool-use prompt of 2023-24):
the tool's name in an element of its own, each parameter an element named for it.

    <function_calls>
    <invoke>
    <tool_name>get_weather</tool_name>
    <parameters>
    <city>Paris</city>
    <days>3</days>
    </parameters>
    </invoke>
    </function_calls>

The prompt stopped the model at ``</function_calls>``, so a block often ends
after its last ``</invoke>``. A value is the text up to its element's closing
tag, typed by the tool's schema as every value written as text is. A value
holding its own element's opening tag (where it ends is a guess), a value made
of elements (a list or an object written as XML, which the prompt never
defined) unless its schema says it is a string, text that is no element, and a
call whose text ends before its ``</invoke>`` are not ok.
"""

from __future__ import annotations

import re

from .._jsonish import skip_space
from .._toolcalls import NAME_PATTERN, ToolCall
from ._base import Ctx, cut_call, xml_call
from ._schema import _types
from ._xml import _value

__all__ = ["read_tool_name_invoke"]

_HEAD = re.compile(r"<invoke>\s*<tool_name>\s*(" + NAME_PATTERN + r")\s*</tool_name>\s*")
_NAME_SO_FAR = re.compile(r"[\w.:@/-]*\s*")
_TAG_SO_FAR = re.compile(r"</?[\w.-]{0,128}")  # (the text ends inside a tag's name)
_KEY = re.compile(r"<([A-Za-z_][\w.-]{0,127})>")
_OPENS = re.compile(r"<[A-Za-z_][\w.-]{0,127}>")
_CLOSES = re.compile(r"</[A-Za-z_][\w.-]{0,127}>\Z")


def read_tool_name_invoke(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """The ``<invoke>`` at ``i`` written with ``<tool_name>``: (its call, where it ends), or
    (None, i) when it is not so written."""
    m = _HEAD.match(text, i, limit)
    if m is None:
        if limit == len(text) and _cut_in_head(text[i:limit]):
            return [], limit  # (cut before its name is whole: no call yet, as in the other formats)
        return None, i
    name, j = m.group(1), m.end()
    params: list[tuple[str, str, bool | None]] = []
    k = j
    if limit == len(text) and k < limit and "<parameters>".startswith(text[k:limit]):
        return [cut_call(name, text[j:limit].strip(), (i, limit), "before its parameters")], limit
    if text.startswith("<parameters/>", k):
        k += len("<parameters/>")
    elif text.startswith("<parameters>", k):
        k += len("<parameters>")
        while True:
            k = skip_space(text, k, limit)
            if text.startswith("</parameters>", k):
                k += len("</parameters>")
                break
            pm = _KEY.match(text, k, limit)
            if pm is None:
                if k >= limit or (limit == len(text) and _TAG_SO_FAR.fullmatch(text, k, limit) is not None):
                    return [cut_call(name, text[j:limit].strip(), (i, limit), "before </parameters>")], limit
                return _broken(name, text, i, j, k, limit, ctx,
                               f"the call to {name!r} holds text that is not a parameter at offset {k - i} "
                               "of the call")
            key, v = pm.group(1), pm.end()
            close = "</" + key + ">"
            e = text.find(close, v, limit)
            if e < 0:
                if limit == len(text):
                    cut = cut_call(name, text[j:limit].strip(), (i, limit), f"inside parameter {key!r}")
                    return [cut], limit
                return _broken(name, text, i, j, v, limit, ctx, f"parameter {key!r} of {name!r} has no "
                                                                 "closing tag")
            if text.find("<" + key + ">", v, e) >= 0:
                return _broken(name, text, i, j, e, limit, ctx,
                               f"parameter {key!r} of {name!r} holds its own opening tag before its closing "
                               "tag: where its value ends is a guess")
            value = _value(text, v, e, "pair")  # (a line break on each side is the layout's)
            why = _written_as_elements(ctx, name, key, value)
            if why is not None:
                return _broken(name, text, i, j, e, limit, ctx, why)
            params.append((key, value, False))
            k = e + len(close)
    k = skip_space(text, k, limit)
    if text.startswith("</invoke>", k):
        end = k + len("</invoke>")
        return [xml_call(name, params, text[j:k].strip(), (i, end), ctx)], end
    if limit == len(text) and "</invoke>".startswith(text[k:limit]):
        return [cut_call(name, text[j:limit].strip(), (i, limit), "before </invoke>")], limit
    return _broken(name, text, i, j, k, limit, ctx,
                   f"the call to {name!r} holds text that is not a parameter at offset {k - i} of the call")


def _cut_in_head(rest: str) -> bool:
    """``rest``, the text's end, is the start of an invoke's head (``<invoke>\n<tool_na``)."""
    k = 0
    for part in ("<invoke>", "<tool_name>"):
        if len(rest) - k < len(part):
            return part.startswith(rest[k:])
        if not rest.startswith(part, k):
            return False
        k = skip_space(rest, k + len(part), len(rest))
    m = _NAME_SO_FAR.match(rest, k)
    return m is not None and "</tool_name>".startswith(rest[m.end():])


def _written_as_elements(ctx: Ctx, name: str, key: str, value: str) -> str | None:
    """Why a value made of elements is not read (None: it is text): a list or an object written
    as XML is not the format's, and reading it as text is a guess unless its schema says text."""
    v = value.strip()
    if _OPENS.match(v) is None or _CLOSES.search(v, max(0, len(v) - 131)) is None:
        return None
    props = ctx.tools.properties(name) if ctx.tools is not None else {}
    if _types(props.get(key)) == ["string"]:
        return None
    return (f"parameter {key!r} of {name!r} is written as elements (a list or an object as XML, "
            "which the format does not define): reading it is a guess")


def _broken(name: str, text: str, i: int, j: int, at: int, limit: int, ctx: Ctx,
            why: str) -> tuple[list[ToolCall], int]:
    """The call not ok, read to its ``</invoke>`` (what it holds, a call a value shows, is
    never read as text), or to ``at`` when it has none."""
    c = ctx.find(text, "</invoke>", at, limit)
    end = c + len("</invoke>") if c >= 0 else max(at, i + 1)
    return [ToolCall(name, text[j:end].strip(), None, False, (i, end), why)], end
