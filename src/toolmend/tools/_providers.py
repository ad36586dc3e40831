"""Provider responses in, tool results out: OpenAI and Anthropic shapes.

    from_openai(obj)    a ChatCompletion, its message, a list of tool calls, one tool call, a Responses
                        API function_call item, or the same as dicts  -> [ToolCall]
    from_anthropic(obj) a Message, its content list, one content block, or the same as dicts -> [ToolCall]
                        (both take tools=, the request's tool definitions: arguments checked
                        against each tool's schema)
    to_openai(call, result)     -> {"role": "tool", "tool_call_id": ..., "content": ...}
    to_anthropic(call, result)  -> {"type": "tool_result", "tool_use_id": ..., "content": ...,
                                    "is_error": True when the result is not ok}

The SDK objects are read by attribute, dicts by key, so neither SDK is needed
here. ``arguments`` (a JSON string that models break) goes through argument
recovery; a call whose arguments cannot be recovered, or were cut off inside
a value, comes back with ``ok=False`` and the reason, never dropped. A message
with no native tool calls is searched for calls written in its text
(``text=False`` turns that off).

A response that stopped at its token limit (OpenAI ``finish_reason:
"length"``, a Responses API response or item with ``status: "incomplete"``,
Anthropic ``stop_reason: "max_tokens"`` or ``"model_context_window_exceeded"``)
may end inside its last
call; one rule for both: that last call is ok only when it is provably whole.
A native OpenAI call is when the model closed every bracket of its
``arguments`` and no value in them was cut (any repair that had to close
something refuses it); a call written in the text is when more text follows
it; an Anthropic ``tool_use`` that is the last block never is (its ``input``
arrives parsed, so whether it was whole cannot be told). The calls before the
last are judged as in any response: the model wrote past them.
"""

from __future__ import annotations

from typing import Any, Iterable

from .._text import plural
from ..errors import ToolError
from ..recovery import ToolCall, parse_tool_calls
from ..recovery._toolcalls import call_from_parts
from ._runner import ToolResult

__all__ = ["from_openai", "from_anthropic", "to_openai", "to_anthropic", "anthropic_results"]


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


def _is_list(obj: Any) -> bool:
    return isinstance(obj, (list, tuple))


def _openai_call(item: Any, cut: bool = False) -> ToolCall:
    """One entry of ``tool_calls`` (or a legacy ``function_call``, or a Responses item);
    ``cut``: the response stopped at its token limit inside this call."""
    fn = _get(item, "function")
    source = fn if fn is not None else item
    name = _get(source, "name")
    call_id = _get(item, "id") if fn is not None else (_get(item, "call_id") or _get(item, "id"))
    if not isinstance(name, str) or not name:
        return ToolCall("", "", None, False, (0, 0), "a tool call without a function name",
                        call_id if isinstance(call_id, str) else None)
    return call_from_parts(name, _get(source, "arguments"), (0, 0),
                           call_id if isinstance(call_id, str) else None, cut=cut)


def _custom_call(item: Any) -> ToolCall:
    """A Responses API ``custom_tool_call``: free-form input, no JSON arguments to read; an entry
    not ok in its place (never dropped: the calls beside it are not all there are)."""
    name, call_id = _get(item, "name"), _get(item, "call_id") or _get(item, "id")
    given = _get(item, "input")
    return ToolCall(name if isinstance(name, str) else "", given if isinstance(given, str) else "", None,
                    False, (0, 0), "a custom tool call: its input is free-form text, not JSON arguments "
                    "to recover", call_id if isinstance(call_id, str) else None)


def from_openai(obj: Any, *, text: bool = True, tools: Any = None) -> list[ToolCall]:
    """The tool calls of an OpenAI response (SDK object or dict), arguments recovered.

    A ``ChatCompletion`` gives its first choice's calls. With ``text`` (the
    default), a message without native ``tool_calls`` is searched for calls
    the model wrote in its content. ``tools``: the request's tool definitions
    (as ``parse_tool_calls`` takes them); each call's arguments are then
    checked against its tool's schema (``check_tool_calls``).
    """
    calls = _openai_calls(obj, text)
    return calls if tools is None else _checked(calls, tools)


def _openai_calls(obj: Any, text: bool) -> list[ToolCall]:
    if obj is None:
        return []
    if isinstance(obj, str):
        return parse_tool_calls(obj) if text else []
    if _is_list(obj):
        return [c for item in obj for c in _openai_calls(item, text)]
    choices = _get(obj, "choices")
    if _is_list(choices):
        if not choices:
            return []
        message = _get(choices[0], "message") or _get(choices[0], "delta")
        calls = _openai_calls(message, text)
        if calls and _get(choices[0], "finish_reason") == "length":
            # the token limit stopped the response: the last call may be cut
            native = _get(message, "tool_calls")
            if _is_list(native) and native:
                calls[-1] = _openai_call(native[-1], cut=True)
            else:
                content = _get(message, "content")
                tail = content if isinstance(content, str) else _last_text(content)
                calls[-1] = _at_limit(calls[-1], tail, "its token limit")
        return calls
    output = _get(obj, "output")
    if _is_list(output) and _get(obj, "object") == "response":  # the Responses API
        # a response stopped short (status "incomplete": max_output_tokens...) may end inside its last
        # item; an item still in progress says so itself
        last = output[-1] if _get(obj, "status") == "incomplete" else None
        return [_openai_call(item, cut=_get(item, "status") == "incomplete" or item is last)
                if _get(item, "type") == "function_call" else _custom_call(item)
                for item in output if _get(item, "type") in ("function_call", "custom_tool_call")]
    if _get(obj, "type") == "function_call" or _get(obj, "function") is not None:
        return [_openai_call(obj)]
    calls = _get(obj, "tool_calls")
    if _is_list(calls) and calls:
        return [_openai_call(item) for item in calls]
    legacy = _get(obj, "function_call")
    if legacy is not None:
        return [_openai_call(legacy)]
    content = _get(obj, "content")
    if text and isinstance(content, str):
        return parse_tool_calls(content)
    if text and _is_list(content):  # content parts
        return [c for part in content if isinstance(_get(part, "text"), str)
                for c in parse_tool_calls(_get(part, "text"))]
    if calls is None and content is None and _get(obj, "role") is None:
        raise ToolError(f"from_openai: not an OpenAI response, message or tool call: {type(obj).__name__}")
    return []


def _anthropic_block(block: Any) -> ToolCall | None:
    kind = _get(block, "type")
    if kind != "tool_use":
        return None
    name = _get(block, "name")
    call_id = _get(block, "id")
    call_id = call_id if isinstance(call_id, str) else None
    if not isinstance(name, str) or not name:
        return ToolCall("", "", None, False, (0, 0), "a tool_use block without a name", call_id)
    value = _get(block, "input")
    if value is None:
        value = {}
    return call_from_parts(name, value, (0, 0), call_id)


def from_anthropic(obj: Any, *, text: bool = True, tools: Any = None) -> list[ToolCall]:
    """The ``tool_use`` blocks of an Anthropic message (SDK object or dict), as ToolCalls.

    With ``text`` (the default), a message without ``tool_use`` blocks is
    searched for calls the model wrote in its text blocks. ``tools``: the
    request's tool definitions; each call's arguments are then checked
    against its tool's schema (``check_tool_calls``).
    """
    calls = _anthropic_calls(obj, text)
    return calls if tools is None else _checked(calls, tools)


def _anthropic_calls(obj: Any, text: bool) -> list[ToolCall]:
    if obj is None:
        return []
    content = obj if _is_list(obj) else _get(obj, "content")
    if isinstance(content, str):
        return parse_tool_calls(content) if text else []
    if not _is_list(content):
        if _get(obj, "type") is not None:  # one block
            content = [obj]
        else:
            raise ToolError(f"from_anthropic: not an Anthropic message or content block: "
                            f"{type(obj).__name__}")
    calls = [c for c in (_anthropic_block(b) for b in content) if c is not None]
    reason = _get(obj, "stop_reason")
    at_limit = reason in _ANTHROPIC_LIMITS
    if calls and at_limit and _get(content[-1], "type") == "tool_use":
        # the response stopped at its limit inside its last tool_use: its input may be cut
        calls[-1] = _refused(calls[-1], f"the response stopped at {reason} inside this call")
    if calls or not text:
        return calls
    calls = [c for b in content if _get(b, "type") == "text" and isinstance(_get(b, "text"), str)
             for c in parse_tool_calls(_get(b, "text"))]
    if calls and at_limit:
        calls[-1] = _at_limit(calls[-1], _last_text(content), reason)
    return calls


# the stop reasons of a message the model did not end (its output cut where the limit fell)
_ANTHROPIC_LIMITS = ("max_tokens", "model_context_window_exceeded")


def _checked(calls: list[ToolCall], tools: Any) -> list[ToolCall]:
    from ..recovery import check_tool_calls  # the schema checker loads on first use

    return check_tool_calls(calls, tools)


def _last_text(content: Any) -> str | None:
    """The text of the last text part of a content list (where a cut response ends)."""
    if not _is_list(content):
        return None
    for part in reversed(content):
        piece = _get(part, "text")
        if isinstance(piece, str):
            return piece
    return None


def _at_limit(call: ToolCall, text: str | None, limit: str) -> ToolCall:
    """The last call found in the text of a response stopped at ``limit``: whole only
    when the model wrote more text after it. ``text`` is the last text part."""
    if not call.ok:
        return call
    if isinstance(text, str):
        found = parse_tool_calls(text)
        if not found:  # the last call sits in an earlier part: text follows it
            return call
        if text[found[-1].span[1]:].strip():
            return call
    return _refused(call, f"the response stopped at {limit} right after this call, so it may be cut")


def _refused(call: ToolCall, why: str) -> ToolCall:
    return ToolCall(call.name, call.raw_args, None, False, call.span, f"{why}; it is not whole", call.id,
                    call.cut)


def _need_id(call: ToolCall, provider: str, field: str) -> str:
    if not call.id:
        raise ToolError(f"to_{provider}: the call to {call.name!r} has no id; {provider.capitalize()} "
                        f"needs it as {field} (calls found in model text have none: send their "
                        f"results as a user message)")
    return call.id


def _content(result: ToolResult | str) -> tuple[str, bool]:
    if isinstance(result, ToolResult):
        return result.output, result.ok
    if isinstance(result, str):
        return result, True
    raise ToolError(f"a tool result must be a ToolResult or a string, not {type(result).__name__}")


def to_openai(call: ToolCall, result: ToolResult | str) -> dict[str, Any]:
    """The Chat Completions message that answers ``call``: ``{"role": "tool", "tool_call_id", "content"}``."""
    output, _ = _content(result)
    return {"role": "tool", "tool_call_id": _need_id(call, "openai", "tool_call_id"), "content": output}


def to_anthropic(call: ToolCall, result: ToolResult | str) -> dict[str, Any]:
    """The ``tool_result`` content block that answers ``call`` (``is_error`` when not ok)."""
    output, ok = _content(result)
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _need_id(call, "anthropic", "tool_use_id"),
                             "content": output}
    if not ok:
        block["is_error"] = True
    return block


def anthropic_results(calls: Iterable[ToolCall], results: Iterable[ToolResult | str]) -> dict[str, Any]:
    """One user message holding the ``tool_result`` block of every call, in order."""
    calls, results = list(calls), list(results)
    if len(calls) != len(results):
        raise ToolError(f"anthropic_results: {plural(len(calls), 'call')} but "
                        f"{plural(len(results), 'result')}")
    return {"role": "user", "content": [to_anthropic(c, r) for c, r in zip(calls, results, strict=False)]}
