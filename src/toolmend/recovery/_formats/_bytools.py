"""Calls that no marker begins, known by a tool's name: with ``tools=`` given and the
format not named, a message that opens with a tool's name (``TOOL_HEAD``) followed by
GLM-4's line break and JSON arguments (GLM-4-9B-Chat: ``NAME\\n{...}``), or by the
parenthesis of a Python call with no list around it (gorilla-openfunctions-v2's
``f(a=1), g(b=2)``, NexusRaven's ``f(a=1); g(b=2)``, small models' bare call), inside
Markdown's inline code (a call or a list of them between backticks), or inside Python strings (Snowflake
Arctic's and DBRX's ``['f(a=1)', 'g(b=2)']``); and JSON objects
keyed by a tool's name (``[{"f": {"a": 1}}]``, as GPT-3.5, GPT-4o and Claude 3 write calls
when asked for a list without a format). Without the tools, or where the name is no tool's,
such text is prose, code or data."""

from __future__ import annotations

import ast
import json

import orjson

from ..._text import skip_blanks
from .._jsonish import Member, decode_key, elements, members
from .._toolcalls import MARKUP_ONLY, ToolCall, _json_calls, call_from_parts
from ._base import Ctx
from ._context import CALL_LABEL, TOOL_HEAD, head_name, says_shown
from ._json import read_glm4
from ._pythonic import bare_calls, lines_of, paren_end, quoted_calls, read_list
from ._schema import Tools

__all__ = ["calls_by_tools", "fenced_calls", "keyed_calls"]


def calls_by_tools(text: str, ctx: Ctx, at: int = 0) -> tuple[list[ToolCall], int] | None:
    """The calls the message opens with (from ``at``: where its reasoning ended), known by
    a tool's name, and where the scan goes on; None when it opens with no such call."""
    tools = ctx.tools
    head = TOOL_HEAD.match(text, at) if tools is not None and ctx.fmt is None else None
    label = CALL_LABEL.match(text, at) if tools is not None and ctx.fmt is None and head is None else None
    if label is not None and tools is not None:  # tools call: [f(a=1)] (Claude Instant's)
        found, end = read_list(text, label.end(), len(text), ctx)
        nl = text.find("\n", end)
        if found and all(tools.declared(c.name) in tools.schemas for c in found) and \
                MARKUP_ONLY.fullmatch(text, end, nl if nl >= 0 else len(text)) is not None:
            return found, end  # (a period, a turn's end token after it: markup)
        return None
    if head is None or tools is None or tools.declared(head_name(head.group(1))) not in tools.schemas:
        return None
    lead = head.start(1)
    if text[lead - 1:lead] == "`":  # `f(a=1)`: calls in Markdown's inline code, the message's line
        return _in_code(text, at, lead, ctx)
    opener = text.rfind("[", at, lead)
    if opener > at and text[opener - 1] == "`" and not text[at:opener - 1].strip():
        return _in_code(text, at, opener, ctx)  # `[f(a=1)]`: a list of calls in it (DeepSeek-Coder's)
    if text[lead - 1:lead] in ("'", '"'):  # ['f(a=1)', 'g(b=2)']: calls in strings
        if text[head.end() - 1] == "{":
            return None
        opener = text.rfind("[", at, lead)
        return quoted_calls(text, opener if opener >= 0 else lead - 1, len(text))
    if lead > at and text[at:lead].strip():  # ([f(a=1)]: a list of calls, the scan's)
        return None
    if text[head.end() - 1] == "{":  # GLM-4's: the name, a line break, the arguments
        return read_glm4(text, lead, len(text), ctx)
    return bare_calls(text, lead, len(text))


def _in_code(text: str, at: int, lead: int, ctx: Ctx) -> tuple[list[ToolCall], int] | None:
    """The calls of the inline code span whose content starts at ``lead`` (a call between
    backticks, as Mistral's small models write one, or a list of them), when they are all it
    holds, the span is the message's line, and no later span holds other calls."""
    close = text.find("`", lead, len(text))
    if close < 0 or text[at:lead - 1].strip():
        return None
    found = _span_calls(text, lead, close, ctx)
    nl = text.find("\n", close)
    if found is None or text[close + 1:nl if nl >= 0 else len(text)].strip() or \
            _other_code_calls(text, close + 1, found, ctx):
        return None
    return found, close + 1


def _span_calls(text: str, lead: int, close: int, ctx: Ctx) -> list[ToolCall] | None:
    """The calls that are all a code span's content ``text[lead:close]`` holds (a list of
    them, or calls one after the other, on one line); None when it holds anything else."""
    if "\n" in text[lead:close]:
        return None
    if text[lead] == "[":
        listed, end = read_list(text, lead, close, ctx)
        return listed if listed and text[end - 1] == "]" and not text[end:close].strip() else None
    found = bare_calls(text, lead, close)
    return found[0] if found is not None and found[1] >= close else None


def _other_code_calls(text: str, k: int, first: list[ToolCall], ctx: Ctx) -> bool:
    """Inline code after ``k`` holds calls of a tool given, one not among the ``first``
    span's (```[f(a=2)]``` under "Corrected call:" or "Or:"): the model wrote calls in code
    more than once, and which span holds the ones it meant cannot be told. The first
    span's calls again, or some of them, are a restatement ("so the call would be
    ```f(a=1)```"); a span that is no call, or none ok (```f(...)```), is a mention."""
    tools = ctx.tools
    said = [(c.name, c.args) for c in first]
    while tools is not None:
        k = text.find("`", k)
        close = text.find("`", k + 1) if k >= 0 else -1
        if close < 0:
            return False
        m = TOOL_HEAD.match(text, k + 1, close)  # (a name, then its parenthesis, a list's bracket before it)
        if m is not None and "\n" not in text[k:m.end()] and text[m.end() - 1] == "(" and \
                tools.declared(head_name(m.group(1))) in tools.schemas:
            again = _span_calls(text, skip_blanks(text, k + 1, close), close, ctx)
            if again is not None and any(c.ok and (c.name, c.args) not in said for c in again):
                return True  # (`f(...)`, `f(city: str)`: a mention; the calls again, or some: restated)
        k = close + 1
    return False


def _call_objects(text: str, a: int, b: int, ctx: Ctx | None = None) -> tuple[list[ToolCall], int]:
    """The call objects a Python fence's content (``text[a:b]``) is, read as Python reads
    them (a variable, 'Par' 'is', an escape: what the JSON reading would take otherwise
    is no call), and where they end; none when it is not such a literal."""
    j = a
    while j < b and text[j].isspace():
        j += 1
    if j >= b or text[j] not in "[{":
        return [], j
    try:  # (as JSON holds it: a tuple is a list; a set or bytes is nothing JSON holds)
        literal = json.loads(json.dumps(ast.literal_eval(text[j:b].strip())))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return [], j
    found, k = _json_calls(text, j, b, False)
    if found is None and ctx is not None:  # [{'f': {'a': 1}}]: keyed by the tools' names
        found, k = keyed_calls(text, j, b, ctx), b
    items = literal if isinstance(literal, list) else [literal]
    if not found or len(found) != len(items) or not all(
            call.ok and isinstance(item, dict) and (call.name in item.values() and call.args in item.values()
                                                    or item.get(call.name) == call.args)
            for call, item in zip(found, items, strict=True)):
        return [], j
    return found, k


def fenced_calls(text: str, a: int, b: int, ctx: Ctx) -> list[ToolCall]:
    """A Python fence's calls (``text[a:b]``, its content) when it holds nothing but calls
    of tools given (a list of them, or calls one after the other, as small models fence
    their calls, or a list of call objects, as DeepSeek-Coder does); else none: it is code."""
    tools = ctx.tools
    if tools is None:
        return []
    calls, k = lines_of(text, a, b)
    if not calls:  # [{'name': 'f', 'parameters': {...}}]: the calls as a Python list of call objects
        calls, k = _call_objects(text, a, b, ctx)
    lead = len(text[a:b]) - len(text[a:b].lstrip()) + a
    if not calls and text.startswith(("['", '["'), lead):  # ['f(a=1)', 'g(b=2)']: calls in strings
        calls, k = quoted_calls(text, lead, b) or ([], a)
    if not calls or text[k:b].strip() or any(tools.declared(c.name) not in tools.schemas for c in calls):
        return []
    comments = (line.strip().lstrip("#") for line in text[a:b].splitlines() if line.lstrip().startswith("#"))
    return [] if any(says_shown(c) for c in comments) else calls  # ("# Example usage:": shown)


# the keys a call object's arguments are written under beside its "name", besides the formats' own
_ARGUMENTS_KEYS = frozenset({"params", "args", "kwargs", "input", "parameters", "arguments"})


def keyed_calls(text: str, i: int, end: int, ctx: Ctx) -> list[ToolCall] | None:
    """The calls of the JSON value ``text[i:end]`` (a list of objects, or one alone) when
    each object is keyed by a tool's name (``{"f": {"a": 1}}``), or names the tool and
    gives its arguments under another key (``{"name": "f", "params": {"a": 1}}``), and
    the arguments (an object, or its JSON text in a string) fit the tool: every key one
    of its properties, every property it requires given. Keyed by a name alone, an object
    is data unless the tool lists its properties (or it holds none: ``{"now": {}}``); named,
    a tool without a schema takes any. None for anything else (data that names a tool, a
    tool's definition)."""
    tools = ctx.tools
    if tools is None or ctx.fmt not in (None, "json"):
        return None
    calls = _keyed(text, i, end, tools)
    if not calls:
        return calls
    try:
        orjson.loads(text[i:end])
    except orjson.JSONDecodeError:  # a Python literal: what Python reads it as must be what was read
        try:
            literal = ast.literal_eval(text[i:end].strip())
            as_json = json.dumps(literal)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None  # (a variable, an expression: no literal, no call)
        again = _keyed(as_json, 0, len(as_json), tools)  # ('Par' 'is' is 'Paris' to Python)
        if again is None or [(c.name, c.args) for c in again] != [(c.name, c.args) for c in calls]:
            return None
    return calls


def _keyed(text: str, i: int, end: int, tools: Tools) -> list[ToolCall] | None:
    """keyed_calls' reading of ``text[i:end]``."""
    if text[i] == "[":
        scan = elements(text, i, end)
        if not scan.closed or not scan.items:
            return None
        if text[scan.items[0].start] == "(":  # [('f', {'a': 1})]
            return _tuple_pairs(text, scan.items[0].start, end, tools)
        pair = _pair(text, scan.items, (i, end), tools)  # ['f', {'a': 1}]
        if pair is not None or text[scan.items[0].start] != "[":
            return pair if pair is not None else _objects(text, [(m.start, m.end) for m in scan.items], tools)
        pairs = [_pair(text, elements(text, m.start, m.end).items, (m.start, m.end), tools)  # [['f', {}]]
                 if m.end is not None and text[m.start] == "[" else None for m in scan.items]
        return None if any(p is None for p in pairs) else [c for p in pairs if p is not None for c in p]
    return _objects(text, [(i, end)], tools)


def _pair(text: str, items: list[Member], span: tuple[int, int], tools: Tools) -> list[ToolCall] | None:
    """``['f', {'a': 1}]``: a tool's name and its arguments as a list of two (Llama 3 8B's and
    Mistral 7B's, asked for calls), when the arguments fit the tool (its listed properties)."""
    if len(items) != 2 or items[0].end is None or items[1].end is None or \
            text[items[0].start] not in "\"'" or text[items[1].start] != "{":
        return None
    call = _fitting(text, decode_key(text[items[0].start:items[0].end]), items[1], span, tools, True)
    return None if call is None else [call]


def _tuple_pairs(text: str, k: int, end: int, tools: Tools) -> list[ToolCall] | None:
    """``[('f', {'a': 1}), ('g', {})]`` from the first tuple at ``k``: the pairs written as
    Python tuples (Mistral 7B's), each read as ``_pair`` reads a list of two; None when an
    element is no such pair."""
    calls: list[ToolCall] = []
    while True:
        e, joined = paren_end(text, k, end)
        if e is None or e < 0 or joined:
            return None
        scan = elements(text, k, e - 1)  # (the tuple's two items; its closer is no list's)
        last = scan.items[-1].end if scan.items else None
        pair = None if last is None or text[last:e - 1].strip(", \t\r\n") else \
            _pair(text, scan.items, (k, e), tools)
        if pair is None:
            return None
        calls.extend(pair)
        k = skip_blanks(text, e, end)
        if k < end and text[k] == ",":
            k = skip_blanks(text, k + 1, end)
        if k >= end or text[k] == "]":
            return calls
        if text[k] != "(":
            return None


def _objects(text: str, spans: list[tuple[int, int | None]], tools: Tools) -> list[ToolCall] | None:
    """The calls of the objects at ``spans`` (see keyed_calls), or None when one is no call."""
    calls = []
    for a, b in spans:
        if b is None or text[a] != "{":
            return None
        inner = members(text, a, b)
        if not inner.closed or inner.broken or not inner.items or any(m.end is None for m in inner.items):
            return None
        named = next((m for m in inner.items if m.key == "name"), None)
        if len(inner.items) > 2 or (named is not None and len(inner.items) == 2 and all(
                m.key not in _ARGUMENTS_KEYS for m in inner.items)):
            call = _flat(text, named, inner.items, (a, b), tools)  # {"name": "f", "a": 1, "b": 2}
        elif len(inner.items) == 1:
            call = _fitting(text, inner.items[0].key, inner.items[0], (a, b), tools, True)
        else:
            args = inner.items[1] if inner.items[0] is named else inner.items[0]
            if named is None or args.key not in _ARGUMENTS_KEYS or text[named.start] not in "\"'":
                return None
            call = _fitting(text, decode_key(text[named.start:named.end]), args, (a, b), tools, False)
        if call is None:
            return None
        calls.append(call)
    return calls


# keys a call object, a tool's definition or a data record writes beside a name: never a flat call's
_NOT_FLAT = _ARGUMENTS_KEYS | {"description", "type", "id", "function", "tool", "tool_name"}


def _flat(text: str, named: Member | None, items: list[Member], span: tuple[int, int],
          tools: Tools) -> ToolCall | None:
    """``{"name": "f", "a": 1, "b": 2}``: the arguments written beside the tool's name (as
    GPT-3.5 and Mistral NeMo write them when asked for a list of calls), when the name is a
    tool's and the other keys are all properties its schema lists, its required ones among them."""
    if named is None or text[named.start] not in "\"'" or any(m.key in _NOT_FLAT for m in items) or \
            len({m.key for m in items}) < len(items):  # (a key twice: which value is meant is a guess)
        return None
    name = decode_key(text[named.start:named.end])
    declared = tools.declared(name)
    schema = tools.schemas.get(declared) if declared in tools.schemas else None
    props = schema.get("properties") if isinstance(schema, dict) else None
    required = schema.get("required") if isinstance(schema, dict) else None
    keys = {m.key for m in items if m is not named}
    if not isinstance(props, dict) or not keys <= set(props) or (
            isinstance(required, list) and not set(required) <= keys):
        return None
    parts = [f"{json.dumps(m.key)}: {text[m.start:m.end]}" for m in items if m is not named]
    call = call_from_parts(name, "{" + ", ".join(parts) + "}", span)
    return call if call.ok else None


def _fitting(text: str, name: str, args: Member, span: tuple[int, int], tools: Tools,
             listed: bool) -> ToolCall | None:
    """The call to ``name`` with the arguments member ``args`` when they fit the tool;
    ``listed``: only the properties its schema lists fit (none listed, no arguments do)."""
    declared = tools.declared(name)
    if declared not in tools.schemas or text[args.start] not in "{\"":
        return None
    schema = tools.schemas[declared] or {}
    raw = text[args.start:args.end] if text[args.start] == "{" else decode_key(text[args.start:args.end])
    if not raw.lstrip().startswith("{"):  # (the arguments as a JSON string: an object's text)
        return None
    call = call_from_parts(name, raw, span)
    props, required = schema.get("properties"), schema.get("required")
    if listed and not isinstance(props, dict):
        props = {}
    if not call.ok or isinstance(props, dict) and not set(call.args) <= set(props) or \
            isinstance(required, list) and not set(required) <= set(call.args):
        return None
    return call
