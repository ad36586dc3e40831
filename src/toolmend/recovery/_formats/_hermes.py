"""The Hermes tag: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
(Qwen 2.5, Hermes, and the many models trained on it), its attribute form
``<tool_call name="..." args='...' />``, and the text body between the tags.

``_tag`` reads the tag at ``i``; the everyday body is read with one parse of
its arguments (``_whole_call``), anything else by the general JSON reader.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from typing import Any

from ..._kernels import markers
from .._jsonish import extent, members, skip_space
from .._strategies import normalize_tool_args
from .._toolcalls import (
    _NAME,
    NAME_PATTERN,
    ToolCall,
    _is_placeholder,
    _json_calls,
    _skip_ws,
    call_from_parts,
    cut_call,
    plain_call,
    two_ways,
)
from ._base import Ctx, json_run, more_after, open_string_rest, unclosed_json
from ._context import TURN_END
from ._xml import glm_head, read_glm

__all__ = ["read_tag", "NOT_A_TAG", "read_tag_at"]

_tag_body = markers.tag_body  # the everyday body's parts (the marker kernel)

_TAG_NAME = "<tool_call"
_OPENER = "<tool_call>"
_CLOSE = re.compile(r"</tool_call\s*>", re.I)
_ATTR_NAME = re.compile(r"[A-Za-z_][\w:.-]*")
_BARE_VALUE = re.compile(r"[^\s>]+")
_ENTITY = re.compile(r"&(?:quot|apos|lt|gt|amp|#\d+|#x[0-9a-fA-F]+);")
NOT_A_TAG: Any = object()
_BLANK = re.compile(r"\s*")
_TAG_WINDOW = 512  # characters of a tag's head searched for the next tag at a time


def _partial_close(text: str, j: int, limit: int) -> bool:
    """Only the start of ``</tool_call>`` stands between ``j`` and the end of the text."""
    if limit != len(text):
        return False
    k = _skip_ws(text, j, limit)
    if k >= limit or (limit - k > len("</tool_call>") and _BLANK.fullmatch(text, k + 12, limit) is None):
        return False  # (each check reads a few characters: a run of broken tags stays linear)
    return "</tool_call>".startswith(text[k:k + 12].rstrip().lower())


def _attr_value(text: str, j: int, limit: int) -> tuple[str | None, int]:
    """The attribute value at ``j``: (value, end), value None when it does not
    end: cut off (end = ``limit``) or running into the next ``<tool_call``
    (end = where that starts; a value never holds one, so each tag reads only
    up to the next and a run of broken tags stays linear)."""
    c = text[j]
    nxt = text.find(_TAG_NAME, j, limit)
    bound = limit if nxt < 0 else nxt
    if c in "\"'":
        s = skip_space(text, j + 1, bound)
        if s < bound and text[s] in "{[":
            e = extent(text, s, bound, _TAG_NAME)
            if e is not None:
                k = skip_space(text, e, bound)
                if k < bound and text[k] == c:
                    return text[j + 1:k], k + 1
        # the value ends at a quote followed by the end of the tag or another attribute
        # (models do not escape the attribute's own quote inside the JSON)
        # (the end of the text counts, after the "/" of a "/>" cut there too; the start of
        # the next tag does not)
        ender = re.compile(re.escape(c) + r"(?=\s*(?:/?>|[A-Za-z_][\w:.-]*\s*=" +
                           (r"|/?\Z))" if bound == limit else "))"))
        m = ender.search(text, j + 1, bound)
        if m is None:
            return None, bound
        return text[j + 1:m.start()], m.end()
    if c in "{[":
        e = extent(text, j, bound, _TAG_NAME)
        if e is None:
            return None, bound
        return text[j:e], e
    m = _BARE_VALUE.match(text, j, limit)
    if m is None:  # name=> : an empty value
        return "", j
    value, end = m.group(), m.end()
    if value.endswith("/") and text.startswith(">", end):
        value, end = value[:-1], end - 1
    return value, end


def _unescape(value: str) -> str:
    return html.unescape(value) if _ENTITY.search(value) else value


def _tag_head(text: str, i: int, limit: int) -> tuple[
        dict[str, str], set[str], str | None, int, bool, bool, int, set[str]] | None:
    """The attributes of the tag at ``i`` (None: no tag there): its attributes,
    those written twice with two values, the attribute cut off by the end of
    the text and where its value starts, whether the tag closes itself or
    opens a body, where its head ends, and the attributes written with no value."""
    j = i + len(_TAG_NAME)
    attrs: dict[str, str] = {}
    twice: set[str] = set()  # attributes written again with another value
    valueless: set[str] = set()  # (``args`` with no "=": a value never written)
    cut_attr: str | None = None
    cut_at = -1  # where the value of the cut attribute starts
    self_closing = False
    opened = False
    # a tag's attributes never run into the next tag: each tag reads only up
    # to it, so a run of broken tags costs time linear in the text (the next
    # tag is searched for ahead of the reading, a window at a time: a tag's
    # head is short, its body is not searched here)
    nxt, searched = -1, j
    while True:
        j = _skip_ws(text, j, limit)
        if nxt < 0 and j >= searched and searched < limit:
            window = min(limit, max(j + 1, searched) + _TAG_WINDOW)
            nxt = text.find(_TAG_NAME, searched, window)
            # the next window overlaps this one by a tag's length less one: a tag
            # across the edge is found there
            searched = window if window >= limit else window - len(_TAG_NAME) + 1
        if 0 <= nxt <= j:
            return None
        if j >= limit:
            break
        if text.startswith("/>", j):
            self_closing, j = True, j + 2
            break
        if j + 1 == limit == len(text) and text[j] == "/":
            j = limit  # cut inside "/>": as if cut before it
            break
        if text[j] == ">":
            opened, j = True, j + 1
            break
        m = _ATTR_NAME.match(text, j, limit)
        if m is None:
            return None
        key = m.group().lower()
        j = _skip_ws(text, m.end(), limit)
        if j < limit and text[j] == "=":
            j = _skip_ws(text, j + 1, limit)
            if j >= limit:
                cut_attr, cut_at = key, j
                break
            start = j
            value, j = _attr_value(text, j, limit)
            if value is None and j < limit:  # it runs into the next tag: this one is broken
                return None
            if value is None or (j >= limit == len(text) and text[j - 1] not in "\"'}]"):
                cut_attr, cut_at = key, start
                break
            value = _unescape(value)
        elif j >= limit == len(text):
            cut_attr, cut_at = key, j  # (the text ends after the name: its "=" may be yet to come)
            break
        else:
            value = ""
            valueless.add(key)
        if attrs.get(key, value) != value:
            twice.add(key)
        attrs[key] = value
    return attrs, twice, cut_attr, cut_at, self_closing, opened, j, valueless


_NEXT_TAG = re.compile(r"<(/?)tool_call\b", re.I)


def _second_closer(text: str, end: int, limit: int) -> bool:
    """The next ``<tool_call`` or ``</tool_call>`` after ``end`` is a closer: one with
    no call of its own, so the one before it may be part of a call's text."""
    m = _NEXT_TAG.search(text, end, limit)
    return m is not None and m.group(1) == "/" and _CLOSE.match(text, m.start(), limit) is not None


def read_tag(text: str, i: int, limit: int, ctx: Ctx) -> tuple[Any, int]:
    """The call(s) in the tag at ``i``, the everyday body tried before (``read_tag_at``):
    (list of calls | NOT_A_TAG, end)."""
    head = _tag_head(text, i, limit)
    if head is None:
        return NOT_A_TAG, i + len(_TAG_NAME)
    attrs, twice, cut_attr, cut_at, self_closing, opened, j, valueless = head
    at_end = not (self_closing or opened)
    if at_end and limit < len(text):
        return NOT_A_TAG, i + len(_TAG_NAME)
    name = attrs.get("name", attrs.get("tool"))
    if name is not None:
        args = attrs.get("args", attrs.get("arguments"))
        if not _NAME.match(name) or _is_placeholder(name, args):
            return NOT_A_TAG, i + len(_TAG_NAME)
        if cut_attr in ("args", "arguments"):
            raw = text[cut_at:limit]
            if raw[:1] in "\"'":
                raw = raw[1:]
            return [cut_call(name, _unescape(raw), (i, limit),
                             "the call was cut off inside its arguments; it is not whole")], limit
        if cut_attr is not None:
            return [ToolCall(name, args or "", None, False, (i, limit),
                             f"the call was cut off inside its {cut_attr!r} attribute")], limit
        if at_end and args is None:
            return [ToolCall(name, "", None, False, (i, limit),
                             "the call was cut off before its arguments")], limit
        clash = _two_readings(attrs, twice)
        if args is not None and valueless.intersection(("args", "arguments")):
            end = j if not opened else max(j, _body_end(text, j, limit)[1])
            return [ToolCall(name, "", None, False, (i, end),
                             "the tag's args attribute is written with no value: its arguments are "
                             "never given, and an empty object would be a guess")], end
        if args is not None or self_closing or at_end:
            end = j
            if opened:  # <tool_call name=.. args=..></tool_call>
                close = _CLOSE.match(text, _skip_ws(text, j, limit), limit)
                if close is not None:
                    end = close.end()
                else:
                    body_end, close_end, closed, _ = _body_end(text, j, limit)
                    if closed and text[j:body_end].strip():  # arguments in the tag and in its body
                        end, clash = close_end, clash or "arguments in its args attribute and in its body"
            if clash:
                return [two_ways(name, args or "", (i, end), f"the tag gives {clash}")], end
            return [call_from_parts(name, args or "", (i, end))], end
        body_start = j
        body_end, end, closed, _ = _body_end(text, j, limit)
        raw = text[body_start:body_end].strip()
        if clash:
            return [two_ways(name, raw, (i, end), f"the tag gives {clash}")], end
        if not closed:
            b = _skip_ws(text, body_start, limit)
            whole_json = b < limit and text[b] in "{[" and extent(text, b, body_end) is not None
            if not whole_json:
                if b < limit and text[b] in "{[":
                    return [call_from_parts(name, raw, (i, end), cut=True)], end
                return [ToolCall(name, raw, None, False, (i, end),
                                 "the call has no closing </tool_call>, so its body may be cut off")], end
        inner = _body_call(raw)
        if inner is not None:  # <tool_call name="f">{"name": ..., "arguments": ...}</tool_call>
            if inner.name != name:
                clash = f"the tag names {name!r} and its body calls {inner.name!r}"
                return [two_ways(name, raw, (i, end), clash)], end
            return [replace(inner, span=(i, end))], end
        if raw[:1] not in "{[" and (raw.count('"') - raw.count('\\"')) % 2:
            # grep -n "</tool_call>" x: a quote the text opened and never closed before the
            # closer, which may then be the text's own
            return [ToolCall(name, raw, None, False, (i, end),
                             "a quote in the tag's text opens and does not close before </tool_call>: "
                             "the closer may be part of the text, so where it ends is a guess")], end
        if raw[:1] not in "{[" and closed and _second_closer(text, end, limit):
            return [ToolCall(name, raw, None, False, (i, end),
                             "a second </tool_call> follows the tag's text before any other call: the "
                             "first may be part of the text, so where it ends is a guess")], end
        return [call_from_parts(name, raw, (i, end))], end
    if cut_attr is not None or (at_end and attrs):
        return [], limit  # cut inside the tag before any name: nothing to report
    if not opened:
        return (NOT_A_TAG, i + len(_TAG_NAME)) if not at_end else ([], limit)
    b = _skip_ws(text, j, limit)
    named = _FUNCTION_ELEMENT.match(text, b, limit)
    if named is not None:
        return _element_named(text, i, named, limit, ctx.tools)
    if text.startswith("```", b):
        fenced = _fenced_body(text, i, b, limit)
        if fenced is not None:
            return fenced
    if b >= limit or text[b] not in "{[":
        headed = _named_head(text, i, j, b, limit, ctx)  # (a word before a body: a tool's name?)
        if headed is not None:
            return headed
        return NOT_A_TAG, i + len(_TAG_NAME)
    fast = _whole_call(text, i, b, limit)
    if fast is not None:
        return [fast], fast.span[1]
    body_end, end, closed, known = _body_end(text, j, limit)
    calls, json_end, _ = json_run(text, b, body_end, ",", known)  # ({..}, {..}: both, as a list's)
    if json_end >= body_end and (closed or text.startswith(_TAG_NAME, body_end)):
        # (its JSON, or the last value of it, runs to its closer or the next opener: a string open
        # there may hold them, and the rest; a first value whole has its strings closed)
        rest = open_string_rest(calls, text, b if known is None else known[1], body_end, limit,
                                "</tool_call>" if closed else "the next <tool_call>", ctx)
        if rest is not None:
            stop = rest[-1].span[1]
            return ([replace(rest[0], span=(i, stop))] if len(rest) == 1 else rest), stop
    if known is None and closed:  # (its JSON never closes before its </tool_call>: broken, not cut)
        calls = unclosed_json(calls, text, b, body_end, "</tool_call>")
    calls = more_after(calls, text, json_end, body_end, closed)
    if len(calls) == 1:
        only = calls[0]
        calls = [replace(only, span=(i, end))]
    return calls, end


def _named_head(text: str, i: int, j: int, b: int, limit: int,
                ctx: Ctx) -> tuple[list[ToolCall], int] | None:
    """The tag at ``i`` whose body (at ``b``) opens with a word, not JSON: not ok when the word names
    one tool and the JSON after it calls another (GLM's head before a Hermes body), or when it
    names a tool given and no arguments follow in any format; None for anything else."""
    word = _HEAD_WORD.match(text, b, limit)
    tool = _NAME_WORD.match(text, b, limit) if ctx.tools is not None else None
    if tool is not None and tool.group() not in ctx.tools.schemas:  # type: ignore[union-attr]
        tool = None
    if (word is None or word.group(1).lower() in _LABELS) and tool is None:
        return None
    body_end, end, closed, _ = _body_end(text, j, limit)
    if word is not None and word.group(1).lower() not in _LABELS:
        names = _body_names(text, word.end(), body_end)
        other = next((n for n in names if n != word.group(1)), None)
        if other is not None:  # (GLM's head, a Hermes body: closed or not, one call or a list)
            return [two_ways(word.group(1), text[b:body_end].strip(), (i, end),
                             f"the tag's head names {word.group(1)!r} and its body calls {other!r}")], end
        if names:
            return None  # (the body's own call, of the name its head gives: read as the body)
    if tool is not None:
        if closed and text[tool.end():body_end].strip():  # (<tool_call>f city=Paris</tool_call>)
            return [ToolCall(tool.group(), text[tool.end():body_end].strip(), None, False, (i, end),
                             f"the tag names the tool {tool.group()!r}, then text that is no arguments "
                             "any format writes: what they are is a guess, and the call is not run")], end
    return None


_FENCE_HEAD = re.compile(r"```[ \t]*(?:json)?[ \t]*\r?\n", re.I)
_FENCE_TAIL = re.compile(r"\s*```\s*</tool_call\s*>", re.I)


def _fenced_body(text: str, i: int, b: int, limit: int) -> tuple[list[ToolCall], int] | None:
    """The tag at ``i`` whose body is a JSON fence (small models fence the body): the calls its
    JSON holds, read as the body's, when the fence holds that JSON only and the tag's closer
    follows it; None for anything else (the tag is read as before)."""
    head = _FENCE_HEAD.match(text, b, limit)
    if head is None:
        return None
    k = _skip_ws(text, head.end(), limit)
    e = extent(text, k, limit) if k < limit and text[k] in "{[" else None
    tail = None if e is None else _FENCE_TAIL.match(text, e, limit)
    if e is None or tail is None:
        return None
    calls, stop = _json_calls(text, k, e, True, (k, e))
    if not calls or stop != e:
        return None
    calls = [replace(c, span=(i, tail.end())) for c in calls] if len(calls) == 1 else calls
    return calls, tail.end()


# the tool's name in an element, then its JSON arguments (Gemma 3's and Qwen 3.6's at times:
# <tool_call>\n<function>terminal</function>\n{"command": "ls"}\n</tool_call>)
_FUNCTION_ELEMENT = re.compile(r"<function>[ \t]*(" + NAME_PATTERN + r")[ \t]*</function>\s*(?=\{)")


def _element_named(text: str, i: int, m: re.Match[str], limit: int, tools: Any) -> tuple[list[ToolCall], int]:
    """The call of the tag at ``i`` whose body names its tool in ``<function>`` (``m``) and
    writes its arguments as JSON after it; text after the arguments inside the tag makes it
    not ok (more of them, perhaps)."""
    name, k = m.group(1), m.end()
    body_end, end, closed, known = _body_end(text, k, limit)
    raw = text[k:body_end].strip()
    if known is None:  # (arguments not whole: cut, or broken before the closer, recovered as any are)
        return [call_from_parts(name, raw, (i, end), cut=not closed)], end
    if text[known[1]:body_end].strip():
        return [ToolCall(name, raw, None, False, (i, end),
                         f"the call to {name!r} holds more than its arguments before </tool_call>")], end
    body = text[known[0]:known[1]]
    keys = [m.key for m in members(body, 0, len(body)).items]
    props = tools.properties(name) if tools is not None else None
    if props and keys and set(keys) <= set(props):  # (the tool's own parameters: "name", "input"...)
        return [call_from_parts(name, body, (i, end))], end
    inner = _body_call(body)
    if inner is not None:  # (a call object under the name: the same tool's, or two readings)
        if inner.name != name:
            why = f"the tag names {name!r} and its body calls {inner.name!r}"
            return [two_ways(name, raw, (i, end), why)], end
        return [replace(inner, span=(i, end))], end
    if len(keys) == 1 and keys[0] in _ARGS_KEYS:  # {"arguments": {...}}: wrapped, or a parameter so named
        return [two_ways(name, raw, (i, end), f"the body of the call to {name!r} holds only {keys[0]!r}: its "
                         "arguments wrapped, or a parameter so named")], end
    return [call_from_parts(name, body, (i, end))], end


def _whole_call(text: str, i: int, b: int, limit: int) -> ToolCall | None:
    """The everyday tag body read with one parse of its arguments:
    ``{"name": "...", "arguments": {...}}`` (an ``"id"`` string may come
    before the arguments), valid JSON as written, ended by the first
    ``</tool_call>`` (a tag inside one of its strings is text, and one
    outside would leave no valid JSON). None for anything else,
    which the general reader takes (it gives this call the same, walking the
    arguments twice more: their end, then the members). The marker kernel
    finds the parts (``tag_body``); ``plain_call`` reads them, as it does a
    plain call object anywhere."""
    found = _tag_body(text, b, limit)
    if found is None:
        return None
    name_start, name_end, id_start, id_end, k, end, close_end = found
    return plain_call(text, name_start, name_end, id_start, id_end, k, end, (i, close_end))


def _body_call(raw: str) -> ToolCall | None:
    """A tag body that is itself a call object (a name and its arguments, read as the
    everyday body is: a member written twice is two readings), else None."""
    if not raw.startswith("{") or '"name"' not in raw:
        return None
    keys = [m.key for m in members(raw, 0, len(raw)).items]
    if "name" not in keys or not any(k in _ARGS_KEYS for k in keys):
        return None  # no name and arguments: the tag's tool's own arguments
    others = [k for k in keys if k not in _BODY_CALL_KEYS]
    if others:
        return ToolCall(name_of(raw), raw, None, False, (0, len(raw)),
                        f"the tag's body is a call object holding {', '.join(map(repr, others[:3]))} beside "
                        "its name and arguments: which are the arguments is a guess")
    found, stop = _json_calls(raw, 0, len(raw), True)
    if not found or len(found) != 1:
        return None
    call = found[0]
    if not call.name:
        return None
    if raw[stop:].strip():
        return ToolCall(call.name, raw, None, False, call.span,
                        f"the tag's body holds more than the call object to {call.name!r}")
    return call


def _body_names(text: str, a: int, b: int) -> list[str]:
    """The names the call objects in ``text[a:b]`` give (one object, or a list of them; cut or not)."""
    k = _skip_ws(text, a, b)
    if k >= b or text[k] not in "{[" or '"name"' not in text[k:b]:
        return []
    found, _ = _json_calls(text, k, b, True)
    return [c.name for c in found or () if c.name]


_ARGS_KEYS = frozenset(("arguments", "parameters", "input", "args"))
# a name on the tag's first line before a JSON body, and the words there that label the body
# (a fence's language, the call's own words), never a tool's name
_NAME_WORD = re.compile(r"[A-Za-z_][\w.-]{0,127}(?![\w.-])")
_HEAD_WORD = re.compile(r"([A-Za-z_][\w.-]{0,127})[ \t]*\r?\n?[ \t]*(?=[{[])")
_LABELS = frozenset({"json", "python", "javascript", "js", "xml", "yaml", "call", "function", "functions",
                     "tool", "tool_call", "tool_calls"})
_BODY_CALL_KEYS = _ARGS_KEYS | {"name", "id", "type"}


def name_of(raw: str) -> str:
    """The ``"name"`` a call object's text gives ("" when it gives none as a string)."""
    r = normalize_tool_args(raw)
    value = r.value.get("name") if r.ok and isinstance(r.value, dict) else None
    return value if isinstance(value, str) else ""


def _two_readings(attrs: dict[str, str], twice: set[str]) -> str | None:
    """What a tag's attributes give twice (two names, two arguments), or None."""
    for key in ("name", "tool", "args", "arguments"):
        if key in twice:
            return f"its {key!r} attribute twice"
    for a, b in (("name", "tool"), ("args", "arguments")):
        if a in attrs and b in attrs and attrs[a] != attrs[b]:
            return f"both {a!r} and {b!r}"
    return None


def _body_end(text: str, j: int, limit: int) -> tuple[int, int, bool, tuple[int, int] | None]:
    """Where a tag's body ends: (body end, tag end, closed by </tool_call>,
    (start, end) of the JSON value it starts with, None when not whole).

    A JSON body ends where its value does (a ``</tool_call>`` inside one of its
    strings is text); any body ends at the next ``<tool_call`` at the latest, and
    one without its closer at the end of the model's turn (the turn's end token)."""
    b = _skip_ws(text, j, limit)
    search_from = j
    known = None
    if b < limit and text[b] in "{[":
        e = extent(text, b, limit, _TAG_NAME)
        if e is not None:
            search_from = e
            known = (b, e)
    nxt = text.find(_TAG_NAME, search_from, limit)
    bound = limit if nxt < 0 else nxt
    # (ChatML's turn opener ends it too: Hermes-2-Theta writes <|im_start|> for </tool_call>, then
    # its next call on a line of its own)
    im = text.find("<|im_start|>", search_from, bound)
    bound = bound if im < 0 else im
    close = _CLOSE.search(text, search_from, bound)
    if close is not None:
        return close.start(), close.end(), True, known
    turn = TURN_END.search(text, search_from, bound)
    if turn is not None:
        return turn.start(), turn.start(), False, known
    if bound == limit == len(text):
        lt = text.find("</", max(search_from, limit - 16), limit)
        if lt >= 0 and _partial_close(text, lt, limit):
            return lt, limit, True, known
    return bound, bound, False, known


def read_tag_at(text: str, i: int, limit: int, ctx: Ctx, kinds: frozenset[str]) -> tuple[Any, int]:
    """The ``<tool_call`` tag at ``i`` as the scan reads it: a GLM call, a
    Hermes body, or ``NOT_A_TAG`` (the format reads neither). The everyday
    tag first (``<tool_call>`` with no attributes, a JSON body read with one
    parse: ``_whole_call``; a GLM call's body starts with a name, not ``{``)."""
    if "hermes" in kinds and text.startswith(_OPENER, i, limit):
        b = _skip_ws(text, i + len(_OPENER), limit)
        fast = _whole_call(text, i, b, limit) if b < limit and text[b] == "{" else None
        if fast is not None:
            return [fast], fast.span[1]
    if "glm" in kinds and glm_head(text, i, limit):
        found: tuple[Any, int] = read_glm(text, i, limit, ctx)
        return found
    if "hermes" in kinds:
        return read_tag(text, i, limit, ctx)
    return NOT_A_TAG, i + len("<tool_call")
