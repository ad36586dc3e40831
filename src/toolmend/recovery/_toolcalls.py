"""Tool calls written inside model text, found and recovered.

Models that call tools through text (rather than a native tool-use API) write
tags such as::

    <tool_call name="@json" args='{"cmd":"get","args":{"file":"r.json","path":"a"}}' />
    <tool_call name="read_file">main.go</tool_call>
    <tool_call>{"name": "read_file", "arguments": {"file": "main.go"}}</tool_call>

``parse_tool_calls(text)`` finds every such call, in order, and recovers its
arguments with :func:`toolmend.normalize_tool_args` (the tool's name selects
the field a bare value belongs in). A call whose arguments cannot be
recovered is still reported, with ``ok=False`` and the reason.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from ._strategies import json_text, normalize_tool_args

__all__ = ["ToolCall", "parse_tool_calls"]


@dataclass(frozen=True)
class ToolCall:
    """One tool call found in model text.

    ``raw_args`` is the argument text as the model wrote it, ``args`` the
    recovered value (a dict, or None when not ``ok``), ``span`` the
    ``(start, end)`` character offsets of the whole call in the text and
    ``error`` the reason when not ``ok``.
    """

    name: str
    raw_args: str
    args: Any
    ok: bool
    span: tuple[int, int]
    error: str | None = None


_OPEN = re.compile(r"<tool_call\b", re.I)
_CLOSE = re.compile(r"</tool_call\s*>", re.I)
# name="x" / name='x' / name=x ; an attribute value in single quotes may hold
# unescaped single quotes (models write args='{"a": "it's"}'), so it ends
# only at a quote followed by another attribute or the end of the tag.
_ATTR = re.compile(
    r"""\s*([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'(.*?)'(?=\s*(?:/?>|[A-Za-z_][\w-]*\s*=))|([^\s"'>/]+))""",
    re.S,
)
_TAG_END = re.compile(r"\s*(/?)>")
_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "args", "parameters", "input")


def _attrs(text: str, pos: int) -> tuple[dict[str, str], int, bool] | None:
    """Attributes from ``pos`` to the end of the tag: (attrs, end, self_closing)."""
    attrs: dict[str, str] = {}
    while True:
        end = _TAG_END.match(text, pos)
        if end:
            return attrs, end.end(), end.group(1) == "/"
        m = _ATTR.match(text, pos)
        if not m:
            return None
        name, dq, sq, bare = m.groups()
        value = dq if dq is not None else sq if sq is not None else bare
        attrs[name.lower()] = html.unescape(value)
        pos = m.end()


def _from_body(body: str) -> tuple[str, str] | None:
    """``{"name": ..., "arguments": ...}`` in a tag's body: (name, raw args)."""
    r = normalize_tool_args(body)
    if not r.ok or not isinstance(r.value, dict):
        return None
    name = next((r.value[k] for k in _NAME_KEYS if isinstance(r.value.get(k), str)), None)
    if name is None:
        return None
    args: Any = next((r.value[k] for k in _ARG_KEYS if k in r.value), {})
    raw = args if isinstance(args, str) else json_text(args)
    return name, raw


def _call(name: str, raw: str, span: tuple[int, int]) -> ToolCall:
    r = normalize_tool_args(raw, name)
    return ToolCall(name, raw, r.value if r.ok else None, r.ok, span, r.error)


def parse_tool_calls(text: str) -> list[ToolCall]:
    """Every ``<tool_call …>`` in ``text``, in order, with recovered arguments."""
    calls: list[ToolCall] = []
    pos = 0
    while (m := _OPEN.search(text, pos)) is not None:
        start = m.start()
        parsed = _attrs(text, m.end())
        if parsed is None:
            calls.append(ToolCall("", text[start:start + 200], None, False, (start, len(text)),
                                  "a <tool_call> tag that does not close"))
            break
        attrs, tag_end, self_closing = parsed
        end = tag_end
        body = None
        if not self_closing:
            close = _CLOSE.search(text, tag_end)
            if close is None:
                body, end = text[tag_end:], len(text)
            else:
                body, end = text[tag_end:close.start()], close.end()
        pos = end
        name = attrs.get("name") or attrs.get("tool")
        if name is not None:
            raw = attrs.get("args", attrs.get("arguments"))
            if raw is None:
                raw = (body or "").strip()
            calls.append(_call(name, raw, (start, end)))
            continue
        found = _from_body(body or "")
        if found is None:
            calls.append(ToolCall("", (body or "").strip(), None, False, (start, end),
                                  "a tool call without a tool name"))
            continue
        calls.append(_call(found[0], found[1], (start, end)))
    return calls
