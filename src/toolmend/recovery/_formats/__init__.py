"""The tool-call formats of open models: one reader per family, one registry, one scan.

``parse(text, format, tools)`` is ``parse_tool_calls``' engine. ``FORMATS``
maps each format name (the serving stacks' parser names, with their aliases)
to the kinds of markers it reads; with ``format=None`` every kind is read and
the markers in the text decide. The readers live beside this module, grouped
by how the family writes its arguments: ``_json`` (JSON after a marker),
``_xml`` (each parameter as text between tags), ``_nestedxml`` (MiniMax M3's
values as nested elements), ``_xtml`` (Kimi K3's tokens around typed
arguments), ``_pythonic`` (Python call syntax, read by :mod:`ast`, never run)
and ``_gemma`` (Gemma's own quoting).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..._text import skip_blanks
from ...errors import ToolmendError
from .._guidance import shown_as_guidance
from .._jsonish import extent, skip_space
from .._restated import restated
from .._toolcalls import MARKUP_ONLY, NAME_PATTERN, NO_ARGUMENTS, ToolCall, two_ways
from .._toolschema import check_tool_calls
from ._base import Ctx, json_run, more_after, named_call, unclosed_json
from ._context import HY3_OPENER, HY3_SUFFIX, OBSERVATION, ROLE_HEAD, TURN_END, framed_as_example, framed_line
from ._elements import read_tool_name_invoke
from ._gemma import gemma_reader
from ._harmony import STRIPPED_HARMONY, STRIPPED_HARMONY_OPENING, read_harmony, read_stripped_harmony
from ._hashrocket import HASHROCKET_CALL, read_hashrocket
from ._hermes import read_tag_at
from ._json import (
    block_reader,
    read_apertus,
    read_arrow,
    read_deepseek,
    read_deepseek_section,
    read_functools,
    read_glm4_next,
    read_kimi,
    read_kimi_section,
    read_mistral,
)
from ._nestedxml import NS, read_block
from ._pythonic import builtin_calls, object_by_position, pythonic_at, pythonic_reader, read_list
from ._reply import scan
from ._schema import Tools, read_tools
from ._tokens import token_pattern
from ._xml import glm_reader, invoke_reader, read_function
from ._xmlblock import unread_invoke
from ._xtml import SOLAR_CALL, XTML_CALL, read_solar, read_xtml_call

__all__ = ["FORMATS", "parse", "read_marker", "format_names"]

def _wrapped_invokes(marker: str, closer: str, fallback: Any = None, prefix: str = "") -> Any:
    """``<{prefix}invoke>`` elements inside ``marker`` ... ``closer`` (MiniMax M2;
    ``<function_calls>``; Glimmer's ``<atem:function_calls>``)."""
    invoke, invoke_close = "<" + prefix + "invoke", "</" + prefix + "invoke>"
    _invokes = invoke_reader(prefix, closer, openers=(marker,))

    def next_invoke(text: str, k: int, limit: int, ctx: Ctx) -> int:
        """The block's next invoke from ``k``, before its closer (``k`` when none)."""
        c = ctx.find(text, closer, k, limit)
        after = text.find(invoke, k, c if c >= 0 else limit)
        return after if after >= 0 else k

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        j = i + len(marker)
        k = j
        while k < limit and text[k].isspace():
            k += 1
        if fallback is None and text.startswith("<" + prefix + "parameter", k):
            k = next_invoke(text, k, limit, ctx)  # (the invoke after it is not ok: it is its or not)
        if not text.startswith(invoke, k):
            if fallback is not None:
                return fallback(text, i, limit, ctx)  # type: ignore[no-any-return]
            return ([], limit) if k >= limit == len(text) else (None, j)
        calls: list[ToolCall] = []
        while text.startswith(invoke, k):
            found, end = _invokes(text, k, limit, ctx)
            if found is None and not prefix:  # (Claude 2's and 3's <invoke><tool_name>NAME</tool_name>)
                found, end = read_tool_name_invoke(text, k, limit, ctx)
            if found is None:  # an invoke its reader cannot read, closed before the next: not ok
                found, end = unread_invoke(text, k, limit, ctx, invoke, invoke_close, closer)
            if not found:
                break
            calls.extend(found)
            k = end
            while k < limit and text[k].isspace():
                k += 1
            if not text.startswith(invoke, k):
                # text that is no invoke (a stray closing tag, words) before the block's closer:
                # the invokes after it in the block are calls of the block too
                k = next_invoke(text, k, limit, ctx)
        if text.startswith(closer, k):
            k += len(closer)
        return calls, k

    return read


_llama_json = block_reader("<|python_tag|>", (), ",;")  # (calls joined by ";" or ",", as Llama 3 writes them)


def _python_tag(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Llama 3's ``<|python_tag|>``: JSON calls, or a built-in tool's ``brave_search.call(query=...)``,
    or a list of Python calls (Llama 3.2's and 3.3's when prompted for them: ``[f(a=1)]``)."""
    k = skip_blanks(text, i + len("<|python_tag|>"), limit)
    if k < limit and text[k] == "[":
        listed, e = read_list(text, k, limit, ctx)
        if listed is not None:
            return listed, e
    found, end = _llama_json(text, i, limit, ctx)
    if found is None:
        call, e = pythonic_at(text, k, limit)
        if call is not None:
            return builtin_calls(call, text, e, limit)
    return found, end


# Action: NAME (on the next line too; a remark in brackets after it: "add (add two numbers)"),
# blank lines, then Action Input:, the keywords in bold or not (**Action:** NAME)
_BOLD = r"(?:\*\*)?"
_INPUT_AFTER = r"[ \t]*\r?\n(?:[ \t]*\r?\n)*[ \t]*" + _BOLD + r"Action Input:" + _BOLD + r"[ \t]*"
_REMARK = r"(?:[ \t]+\([^\n()]{0,200}\))?"
_REACT = re.compile(r"Action:" + _BOLD + r"[ \t]*(?:\r?\n[ \t]*)?(" + NAME_PATTERN + ")" + _REMARK + r"[ \t]*"
                    + _BOLD + _INPUT_AFTER)
# the same with anything on the Action line: a call is meant, to which tool is a guess
_REACT_LOOSE = re.compile(r"Action:" + _BOLD + r"[ \t]*([^\n]{0,200}?)" + _INPUT_AFTER)
# a line that begins ReAct's next step: where an input written as text ends
_REACT_STEP = re.compile(r"[ \t]*" + _BOLD + r"(?:Observation|Thought|Action|Action Input|Final Answer)"
                         r"[ \t]*" + _BOLD + r"[ \t]*:")
_BOLD_BEFORE_JSON = re.compile(r"\*\*[ \t]*(?=[{\[])")  # Action Input: ** {...}: the bold's end


def _react(text: str, i: int, limit: int, m: re.Match[str],
           loose: bool = False) -> tuple[list[ToolCall] | None, int]:
    """ReAct (LangChain's agents, Qwen's ReAct template): ``Action: NAME`` then ``Action
    Input:`` and the input, JSON or text (over lines, to ReAct's next step or the end of the
    turn, as LangChain reads it: the model stops at ``Observation:``). ``loose``: the Action
    line holds more than a name (``Action: search the web``): a call is meant, not ok."""
    floor = max(0, i - 400)
    prior = text.rfind("Action Input:", floor, i)
    if prior >= 0:  # (the input of a step before is no words that frame this one: {"q": "e.g."})
        floor = _react_input(text, prior + len("Action Input:"), i)[1]
    if framed_line(text, i, floor):  # (its last line with words: the words that say so outright, as above
        return None, m.end()  # a bare call: "For example:" then Action:, the format shown, not a call)
    k, end, cut = _react_input(text, m.end(), limit)
    raw = text[k:end].strip()
    name = m.group(1).strip()
    if loose:
        call = ToolCall("", raw, None, False, (i, end),
                        f"the Action line says {name[:80]!r}, not a tool's name alone: which tool is "
                        "meant is a guess" if name.strip() else "the Action line names no tool")
    elif cut is not None:  # JSON
        call = more_after([named_call(name, raw, (i, end), cut=cut)], text, end, limit)[0]
    elif raw[:1] in ("\"", "'") and (len(raw) < 2 or raw[-1] != raw[0]):
        call = ToolCall(name, raw, None, False, (i, end),
                        f"the input of {name!r} opens a quoted string that does not close: "
                        + ("the call is not whole" if end == len(text) else "where it ends is a guess"))
    elif _held_turn_end(text, end, limit, _REACT_NEXT):
        call = _turn_in_input(name, raw, (i, end))
    else:
        call = named_call(name, raw, (i, end), bare=True)
    # an observation after the action: the turn ends here, and past the limit (the end of a
    # fenced block that holds the action) the scan stops too
    return [call], (len(text) if OBSERVATION.match(text, end, limit) else end)


def _react_input(text: str, k: int, limit: int) -> tuple[int, int, bool | None]:
    """Where the input after ``Action Input:`` (at ``k``) begins and ends, and, for JSON
    (on its line or the next, after the bold's end: ``** {...}``), whether it is cut (None:
    written as text, which ends at ReAct's next step or the end of the turn)."""
    bold = _BOLD_BEFORE_JSON.match(text, k, limit)
    if bold is not None:
        k = bold.end()
    j = skip_space(text, k, limit)
    if j < limit and text[j] in "{[":
        e = extent(text, j, limit)
        return j, (limit if e is None else e), e is None
    return k, _text_input_end(text, k, limit), None


# a line that begins ReAct's next step, anywhere after a point
_REACT_NEXT = re.compile(r"\n[ \t]*" + _BOLD + r"(?:Observation|Thought|Action|Action Input|Final Answer)"
                         r"[ \t]*" + _BOLD + r"[ \t]*:")


def _held_turn_end(text: str, end: int, limit: int, next_step: re.Pattern[str]) -> bool:
    """An input written as text ended at ``end`` by a turn end or another's header, and the
    format's next step stands after it: the model wrote on in its format, so the token may
    be the input's own (a string in code), and where the input ends is a guess."""
    k = skip_space(text, end, limit)
    if k >= limit or _turn_over(text, k, min(limit, k + 64) + 1) != k:
        return False
    return next_step.search(text, k, limit) is not None


def _turn_in_input(name: str, raw: str, span: tuple[int, int]) -> ToolCall:
    return ToolCall(name, raw, None, False, span,
                    f"the input of {name!r} meets a turn's end or another's header, and the format's next "
                    "step follows it: whether the input holds that token is a guess")


def _turn_over(text: str, a: int, b: int) -> int:
    """Where a token ending the model's turn, or the header of a turn that is not its own,
    first stands in ``text[a:b]`` (-1: none): an input written as text ends there."""
    ends = [m.start() for m in (TURN_END.search(text, a, b), ROLE_HEAD.search(text, a, b)) if m is not None]
    return min(ends) if ends else -1


def _text_input_end(text: str, k: int, limit: int) -> int:
    """Where an input written as text from ``k`` ends: at the line that begins ReAct's next
    step, at the end of the model's turn, or at the end of the text; blanks before left out.
    (Read a line at a time: each line is looked at once.)"""
    a = k
    while True:
        nl = text.find("\n", a, limit)
        turn = _turn_over(text, a, limit if nl < 0 else nl + 1)  # (with its line break: what ends a header)
        if turn >= 0:
            end = turn
            break
        if nl < 0 or _REACT_STEP.match(text, nl + 1, limit):
            end = limit if nl < 0 else nl
            break
        a = nl + 1
    while end > k and text[end - 1].isspace():
        end -= 1
    return end


# Qwen-Agent's own format (its default function-calling prompt): "\u273fFUNCTION\u273f: NAME", then
# "\u273fARGS\u273f: " and the input (JSON, or text: a code block for its code interpreter), to the
# next of its tokens. The model is stopped at \u273fRESULT\u273f (the tools' results) and
# \u273fRETURN\u273f (its reply on them): one it wrote on to ends the turn (a result made up)
_QA_FUNCTION, _QA_ARGS = "\u273fFUNCTION\u273f", "\u273fARGS\u273f"
# (the name ends its line, or the input's token follows it on the line: "NAME \u273fARGS\u273f: {...}")
_QA_HEAD = re.compile("\u273fFUNCTION\u273f[ \t]*:?[ \t]*([^\n\u273f]{0,200}?)[ \t]*(?:\r?\n|\\Z|(?=\u273f))")
_QA_TOKEN = re.compile("\u273f(?:FUNCTION|ARGS|RESULT|RETURN)\u273f")
_QA_NAME = re.compile(NAME_PATTERN + r"\Z")


def _qwen_agent(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Qwen-Agent's calls: a name, then each input after it is a call of that tool (as
    its own parser reads two inputs after one name)."""
    m = _QA_HEAD.match(text, i, limit)
    if m is None:  # a name line running past the limit: cut inside it at the text's end
        return ([], limit) if limit == len(text) else (None, i + len(_QA_FUNCTION))
    name, end = m.group(1), m.end()
    if not _QA_NAME.match(name):
        why = (f"the {_QA_FUNCTION} line says {name[:80]!r}, not a tool's name alone: which tool is meant "
               "is a guess") if name else f"the {_QA_FUNCTION} line names no tool"
        name = ""
    calls: list[ToolCall] = []
    k = skip_space(text, end, limit)
    while text.startswith(_QA_ARGS, k):
        a = k + len(_QA_ARGS) + (text[k + len(_QA_ARGS):k + len(_QA_ARGS) + 1] == ":")
        token = _QA_TOKEN.search(text, a, limit)
        stop = limit if token is None else token.start()
        turn = _turn_over(text, a, stop)
        stop = stop if turn < 0 else turn
        j = skip_space(text, a, stop)
        at = i if not calls else k  # (a second input of one name: a call from its own token)
        if j < stop and text[j] in "{[":
            e = extent(text, j, stop)
            end = stop if e is None else e
            call = named_call(name, text[j:end], (at, end), cut=e is None and stop == len(text))
            rest = skip_space(text, end, stop)
            if e is not None and rest < stop and MARKUP_ONLY.fullmatch(text, rest, stop) is None:
                # (its input runs to the next token: text after the JSON is more of it)
                extra = text[rest:stop].strip()[:40]
                call = ToolCall(name, text[j:stop].rstrip(), None, False, (at, end),
                                f"the input of {name!r} holds {extra!r} after its JSON: more of its "
                                "arguments, perhaps; the call without it is a guess")
        else:
            end = stop
            while end > j and text[end - 1].isspace():
                end -= 1
            raw = text[j:end]
            # (the model is stopped at its next token, so text to the end is whole: cut when
            # nothing was written yet, or a code block it opened is not closed)
            cut = stop == len(text) and (not raw or (raw[:3] in ("```", "~~~") and not raw.endswith(raw[:3])))
            call = _turn_in_input(name, raw, (at, end)) if turn >= 0 and _QA_TOKEN.search(text, turn, limit) \
                else named_call(name, raw, (at, end), cut=cut, bare=True)
        calls.append(call if name else ToolCall("", call.raw_args, None, False, call.span, why))
        k = skip_space(text, end, limit)
    if not calls:
        call = named_call(name, "", (i, end), cut=k >= limit == len(text))
        calls.append(call if name else ToolCall("", "", None, False, call.span, why))
    if text.startswith(("\u273fRESULT\u273f", "\u273fRETURN\u273f"), k):
        return calls, len(text)  # a result the model made up after its calls: its turn is over
    return calls, end


def _action_fence(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Command R+: ``Action:`` then a json fence holding ``[{"tool_name", "parameters"}]``
    (LangChain's structured chat agent: ``{"action", "action_input"}``); or ReAct's
    ``Action: NAME`` and ``Action Input:``."""
    react = _REACT.match(text, i, limit)
    if react is not None:
        return _react(text, i, limit, react)
    # (tried only where an input follows soon: a bounded search costs less than the pattern)
    near = text.find("Action Input:", i, min(limit, i + 400)) >= 0
    loose = _REACT_LOOSE.match(text, i, limit) if near else None
    if loose is not None:
        # (a name with spaces, "Calculator Tool", is a name when the tools given have it)
        named = ctx.tools is not None and loose.group(1).strip() in ctx.tools.schemas
        return _react(text, i, limit, loose, loose=not named)
    k = i + len("Action:")
    while k < limit and text[k].isspace():
        k += 1
    if not text.startswith("```", k):
        return None, k
    nl = text.find("\n", k, limit)
    close = text.find("```", k + 3, limit if nl < 0 else nl)
    if close >= 0:  # a fence on one line: ```{"action": ...}```
        body = k + 3 + 4 * text.startswith("json", k + 3)
    elif nl < 0:
        return ([], limit) if limit == len(text) else (None, k)
    else:
        body = nl + 1
        close = text.find("```", nl, limit)
    body_end = close if close >= 0 else limit
    if framed_as_example(text, i, max(0, i - 400), text[body:body_end]):
        return None, k  # "for example, ... Action:": the format shown, not a call
    calls, end, found = json_run(text, body, body_end)
    stop = close + 3 if close >= 0 else limit
    fence_line = close >= 0 and _FENCE_CLOSE.match(text, text.rfind("\n", 0, close) + 1) is not None
    named = any(c.name for c in calls)  # (a call object broken before its name names none)
    if found and not named and fence_line and "final answer" not in text[body:body_end].lower():
        action = _BROKEN_ACTION.match(text, body, body_end)  # (a quote dropped: {action": "f", ..})
        if action is not None and extent(text, action.start(1), body_end) is None:
            return [ToolCall(action.group(2), text[body:body_end].strip(), None, False, (i, stop), "the JSON "
                             "after Action: is broken (a quote dropped?): the call meant is a guess")], stop
    if fence_line and calls and extent(text, skip_blanks(text, body, body_end), body_end) is None:
        calls = unclosed_json(calls, text, body, close, "```")  # (one broken among them: the rest not ok)
    if not found or not named:
        return None, k  # JSON that names no tool (LangChain's "Final Answer"): read as any fence is
    return calls, stop


# the tool an action object names first, its quotes as written or not; a fence's closing line
_BROKEN_ACTION = re.compile(r'\s*(\[?\s*\{)\s*"?(?:action|tool_name)"?\s*:\s*"?(' + NAME_PATTERN + r')"?\s*,')
_FENCE_CLOSE = re.compile(r"[ \t]*```[ \t]*(?:\r?\n|\Z)")


_RECIPIENT = re.compile(r"<\|recipient\|>[ \t]*(" + NAME_PATTERN + r")[ \t]*\n?[ \t]*<\|content\|>")
_RECIPIENT_ENDS = ("<|from|>", "<|stop|>", "<|recipient|>")


def _recipient(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Functionary v2: ``<|recipient|>NAME`` then ``<|content|>`` and the JSON
    arguments (``<|recipient|>all``: text for the user), to ``<|from|>`` or ``<|stop|>``."""
    m = _RECIPIENT.match(text, i, limit)
    if m is None:
        if limit == len(text) and limit - i < 200 and text.find("<|content|>", i, limit) < 0:
            return [], limit  # cut inside the header
        return None, i + len("<|recipient|>")
    ends = [x for x in (ctx.find(text, t, m.end(), limit) for t in _RECIPIENT_ENDS) if x >= 0]
    stop = min(ends) if ends else limit
    end = stop + len("<|stop|>") if text.startswith("<|stop|>", stop) else stop
    if m.group(1) == "all":
        return [], end
    return [named_call(m.group(1), text[m.end():stop], (i, end), cut=not ends)], end


def _glimmer(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Glimmer's ``<atem:function_calls>``. Its chat template writes a tool's name
    twice (``get_weather.get_weather``): with the tools given, a call to ``x.x``
    where ``x`` is a tool and ``x.x`` is not is a call to ``x``."""
    found, end = _atem(text, i, limit, ctx)
    to = _recipient_before(text, i)
    if found and to is not None and to not in ("self", "user", "all"):
        found = [c if not c.ok or not _another_tool(to, c.name, ctx.tools) else
                 two_ways(c.name, c.raw_args, c.span, f"the message is addressed to {to!r} and its "
                          f"call names {c.name!r}", c.id) for c in found]
    if found and ctx.tools is not None:
        schemas = ctx.tools.schemas
        found = [replace(c, name=_undoubled(c.name))
                 if c.name not in schemas and _undoubled(c.name) in schemas else c for c in found]
    return found, end


_GLIMMER_TO = re.compile(r"\bto=([^\s<]{1,160})")
_HEADER_STARTS = ("<|start|>", "<|eom|>", "<|eot|>", "<|end|>", "<|call|>", "<|return|>")


def _recipient_of(text: str, h: int) -> str | None:
    """The recipient the header of the Glimmer message whose ``<|message|>`` is at ``h``
    names (``to=R``, before it in the header, with a channel or a constraint beside it),
    or None."""
    a = max(0, h - 200)
    a = max([a] + [k + len(t) for t in _HEADER_STARTS if (k := text.rfind(t, a, h)) >= 0])
    found = _GLIMMER_TO.findall(text, a, h)
    return found[-1] if found else None


def _recipient_before(text: str, i: int) -> str | None:
    """The recipient of the Glimmer message whose body holds the block at ``i`` (its
    ``<|message|>`` before it, no message's end between), or None."""
    h = text.rfind("<|message|>", max(0, i - 4000), i)
    if h < 0 or any(text.find(t, h, i) >= 0 for t in _HEADER_STARTS):
        return None
    return _recipient_of(text, h)


_TOOL_NAME = re.compile(NAME_PATTERN)


def _another_tool(to: str, name: str, tools: Tools | None) -> bool:
    """The recipient ``to`` names a tool other than the invoke's ``name``: a tool
    given (with tools), a name (without); not the invoke's namespace (``to=muse``
    for ``muse.bash``) nor markup (``to=atem:function_calls``), which models write
    when they fumble the recipient."""
    to = _one_tool(to)
    if to == _one_tool(name) or name.startswith(to + ".") or ":" in to or _TOOL_NAME.fullmatch(to) is None:
        return False
    return tools is None or to in tools.schemas


def _undoubled(name: str) -> str:
    """``x`` for ``x.x`` (Glimmer's chat template writes a tool's name twice), else ``name``."""
    parts = name.split(".")
    return parts[0] if len(parts) > 1 and len(set(parts)) == 1 else name


def _one_tool(name: str) -> str:
    """A tool's name as Glimmer's headers and invokes may write it: ``functions.x``,
    ``x.x`` and ``x`` name one tool."""
    return _undoubled(name.removeprefix("functions."))
_GLIMMER_ENDS = ("<|eom|>", "<|eot|>", "<|start|>", "<|end|>", "<|call|>")


def _glimmer_message(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Glimmer's message header ``to=RECIPIENT<|message|>`` (the prompt may hold the
    ``<|start|>assistant`` before it). A message to ``self`` is reasoning and one to
    ``user`` the answer: no call is read in either, to the message's end, unless the
    answer is a ``<atem:function_calls>`` block alone (the recipient fumbled: the
    model wrote nothing but calls). A message to a tool is read on (its
    ``<atem:function_calls>`` at its own marker)."""
    recipient = _recipient_of(text, i)
    if recipient not in ("self", "user"):
        return None, i + len("<|message|>")
    ends = [x for x in (ctx.find(text, t, i, limit) for t in _GLIMMER_ENDS) if x >= 0]
    end = min(ends) if ends else limit
    body = text[i + len("<|message|>"):end].strip()
    if recipient == "user" and body.startswith("<atem:function_calls>") and \
            body.endswith("</atem:function_calls>") and body.count("<atem:function_calls>") == 1:
        return None, i + len("<|message|>")
    if text.startswith(("<|eom|>", "<|eot|>"), end):
        end += len("<|eom|>")
    return [], end


_atem = _wrapped_invokes("<atem:function_calls>", "</atem:function_calls>", prefix="atem:")

# marker (as the model writes it) -> (kind, reader)
_LONGCAT_JSON = block_reader("<longcat_tool_call>", ("</longcat_tool_call>",))
_LONGCAT_GLM = glm_reader("longcat_")


def _longcat(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """LongCat: ``<longcat_tool_call>`` holding a JSON call, or GLM's form with its tags prefixed."""
    k = skip_space(text, i + len("<longcat_tool_call>"), limit)
    if k >= limit or text[k] in "{[":
        found: tuple[list[ToolCall] | None, int] = _LONGCAT_JSON(text, i, limit, ctx)
        return found
    found = _LONGCAT_GLM(text, i, limit, ctx)
    return found


_HY3_CLOSER, _HY3_END = "</tool_call" + HY3_SUFFIX + ">", "<end_of_tool_call" + HY3_SUFFIX + ">"
_HY3_READERS = (glm_reader(suffix=HY3_SUFFIX), glm_reader(suffix=HY3_SUFFIX, end=_HY3_END))


def _hy3(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Hy3's call, closed by ``</tool_call:opensource>`` or (its preview checkpoints')
    ``<end_of_tool_call:opensource>``: the first of the two after its opener."""
    closed, ended = ctx.find(text, _HY3_CLOSER, i, limit), ctx.find(text, _HY3_END, i, limit)
    found: tuple[list[ToolCall] | None, int] = _HY3_READERS[0 <= ended and not 0 <= closed < ended](
        text, i, limit, ctx)
    return found


MARKERS: dict[str, tuple[str, Any]] = {
    "<longcat_tool_call>": ("hermes", _longcat),
    HY3_OPENER: ("glm", _hy3),  # Hy3's tokens: <tool_call:opensource>...
    "<function=": ("xml_function", read_function),
    # (MiniMax M1's JSON lines; DeepSeek V4's invokes with its DSML tokens dropped)
    "<tool_calls>": ("tool_calls", _wrapped_invokes("<tool_calls>", "</tool_calls>", block_reader(
        "<tool_calls>", ("</tool_calls>",), tags_inside=True))),
    "<minimax:tool_call>": ("minimax_m2", _wrapped_invokes("<minimax:tool_call>", "</minimax:tool_call>")),
    "<\uff5cDSML\uff5cinvoke": ("dsml", invoke_reader("\uff5cDSML\uff5c", (
        "</\uff5cDSML\uff5cfunction_calls>", "</\uff5cDSML\uff5ctool_calls>"), openers=(
        "<\uff5cDSML\uff5cfunction_calls>", "<\uff5cDSML\uff5ctool_calls>"))),
    "<steptml:invoke": ("step3", invoke_reader("steptml:")),
    "<\uff5ctool\u2581call\u2581begin\uff5c>": ("deepseek", read_deepseek),
    "<|tool_call_begin|>": ("kimi", read_kimi),
    # (a section's opener, its first call's own token dropped: the call read there; else nothing)
    "<|tool_calls_section_begin|>": ("kimi", read_kimi_section),
    "<\uff5ctool\u2581calls\u2581begin\uff5c>": ("deepseek", read_deepseek_section),
    "<|start|>": ("harmony", read_harmony),
    "<|channel|>": ("harmony", read_harmony),
    # (gpt-oss's with its special tokens stripped: the reasoning's text glued before it, or the text's first)
    STRIPPED_HARMONY: ("harmony", read_stripped_harmony),
    STRIPPED_HARMONY_OPENING: ("harmony", read_stripped_harmony),
    "[TOOL_CALLS]": ("mistral", read_mistral),
    "<|python_tag|>": ("llama3", _python_tag),
    "Action:": ("command_r_plus", _action_fence),
    "<|python_start|>": ("pythonic", pythonic_reader("<|python_start|>", "<|python_end|>")),
    "<|tool_call_start|>": ("lfm2", pythonic_reader("<|tool_call_start|>", "<|tool_call_end|>")),
    "<function_calls>": ("olmo3", _wrapped_invokes("<function_calls>", "</function_calls>",
                                                   pythonic_reader("<function_calls>", "</function_calls>"))),
    "<atem:function_calls>": ("glimmer", _glimmer),
    "<|message|>": ("glimmer", _glimmer_message),
    "<|tool_call>": ("gemma4", gemma_reader("<|tool_call>", "<tool_call|>", '<|"|>', False)),
    "<start_function_call>": ("functiongemma", gemma_reader("<start_function_call>", "<end_function_call>",
                                                            "<escape>", True)),
    "<|tool_call|>": ("granite", block_reader("<|tool_call|>", ("<|/tool_call|>",))),
    "<function_call>": ("granite_20b_fc", block_reader("<function_call>", ("</function_call>",))),
    "<|action_start|><|plugin|>": ("internlm", block_reader("<|action_start|><|plugin|>",
                                                            ("<|action_end|>",))),
    "<|START_ACTION|>": ("command", block_reader("<|START_ACTION|>", ("<|END_ACTION|>",))),
    "<|tools_prefix|>": ("apertus", read_apertus),
    "functools": ("functools", read_functools),
    "<TOOLCALL>": ("nemotron_v2", block_reader("<TOOLCALL>", ("</TOOLCALL>",))),
    "<toolcall>": ("nemotron_v2", block_reader("<toolcall>", ("</toolcall>",))),  # (Nemotron-Mini's)
    "<|recipient|>": ("functionary_v2", _recipient),
    _QA_FUNCTION: ("qwen_agent", _qwen_agent),
    "<function name=": ("minicpm5", invoke_reader("", call="function", param="param", cdata=True)),
    XTML_CALL: ("kimi_k3", read_xtml_call),
    NS + "<tool_call>": ("minimax_m3", read_block),
    SOLAR_CALL: ("solar_open2", read_solar),
    # Inkling: a call block {"name", "args"} to the end of its block (or of the sampling)
    "<|content_invoke_tool_json|>": ("inkling", block_reader("<|content_invoke_tool_json|>", (
        "<|end_message|>", "<|content_model_end_sampling|>"))),
    "<|function_call|>": ("gigachat", block_reader("<|function_call|>", ())),
    "function call<|role_sep|>": ("gigachat", block_reader("function call<|role_sep|>", ())),
    # glaive-function-calling's: <functioncall> {"name": ..., "arguments": '{...}'} <|endoftext|>
    "<functioncall>": ("glaive", block_reader("<functioncall>", ())),
    "<|assistant|>": ("glm4", read_glm4_next),  # (GLM-4's calls after text; the format named only)
    HASHROCKET_CALL: ("minimax_arrows", read_hashrocket),  # [TOOL_CALL]{tool => NAME, args => {--k v}}
}
_ARROW_READER = ("functionary", read_arrow)

# (not GLM-4's: its <|assistant|>NAME is many families' reply header too, read only when named)
_ALL = frozenset({k for k, _ in MARKERS.values()} - {"glm4"} | {"hermes", "glm", "json", "pythonic",
                                                                  "arrow", "functionary", "nexusraven"})

# format name -> the kinds it reads (aliases share their entry)
_KINDS: dict[str, frozenset[str]] = {
    "hermes": frozenset({"hermes", "json"}),
    "qwen3_coder": frozenset({"xml_function"}),
    "mimo": frozenset({"hermes", "json", "xml_function"}),  # (Qwen3-Coder's parameters in <tool_call>)
    "seed_oss": frozenset({"xml_function"}),
    "minimax": frozenset({"tool_calls"}),
    "minimax_m2": frozenset({"minimax_m2"}),
    "deepseek_v3": frozenset({"deepseek"}),
    "deepseek_r1": frozenset({"deepseek", "hermes", "json"}),
    "deepseek_v32": frozenset({"dsml", "olmo3", "tool_calls"}),  # (its invokes without DSML's tokens too)
    "kimi_k2": frozenset({"kimi"}),
    "glm45": frozenset({"glm"}),
    "hy_v3": frozenset({"glm", "tool_calls"}),
    "hunyuan_a13b": frozenset({"tool_calls", "glm"}),
    "harmony": frozenset({"harmony"}),
    "mistral": frozenset({"mistral", "json"}),
    "llama3_json": frozenset({"llama3", "json", "json_inline", "xml_function"}),  # (3.1: <function=f>{..})
    "pythonic": frozenset({"pythonic", "pythonic_inline"}),  # (named: a list inside prose too)
    "lfm2": frozenset({"lfm2", "pythonic"}),
    "olmo3": frozenset({"olmo3"}),
    "gemma4": frozenset({"gemma4"}),
    "functiongemma": frozenset({"functiongemma"}),
    "granite": frozenset({"granite", "hermes"}),  # (Granite 3.1 writes <tool_call>[{..}])
    "granite_20b_fc": frozenset({"granite_20b_fc"}),
    "internlm": frozenset({"internlm"}),
    "command": frozenset({"command"}),
    "command_r_plus": frozenset({"command_r_plus"}),
    "apertus": frozenset({"apertus"}),
    "phi4_mini_json": frozenset({"functools", "granite"}),
    "xlam": frozenset({"json", "mistral", "hermes"}),
    "gigachat3": frozenset({"gigachat"}),
    "functionary": frozenset({"functionary", "arrow", "xml_function", "name_head", "functionary_v2"}),
    "glm4": frozenset({"glm4", "name_head"}),  # (no marker: the message opens with the name)
    "nemotron_v2": frozenset({"nemotron_v2"}),
    "step3": frozenset({"step3"}),
    "glimmer": frozenset({"glimmer"}),
    "glaive": frozenset({"glaive"}),
    "qwen_agent": frozenset({"qwen_agent"}),
    "minicpm5": frozenset({"minicpm5"}),
    "kimi_k3": frozenset({"kimi_k3"}),
    "minimax_m3": frozenset({"minimax_m3"}),
    "solar_open2": frozenset({"solar_open2"}),
    "inkling": frozenset({"inkling"}),
    "minimax_arrows": frozenset({"minimax_arrows"}),
    "nexusraven": frozenset({"nexusraven"}),  # (Call: f(a=1); g(b=2)<bot_end>, which opens the answer)
    "json": frozenset({"json"}),
}
_ALIASES = {
    "react": "command_r_plus",  # (Command R+ writes ReAct's Action: too)
    "qwen25": "hermes", "qwen2_5": "hermes", "longcat": "hermes", "ernie45": "hermes",
    "granite4": "hermes", "qwen3_xml": "qwen3_coder", "step3p5": "qwen3_coder", "nemotron3": "qwen3_coder",
    "nemotron_v3": "qwen3_coder", "deepseek_v31": "deepseek_v3",
    "deepseekv3": "deepseek_v3", "deepseekv31": "deepseek_v3", "deepseek_v4": "deepseek_v32",
    "deepseekv32": "deepseek_v32", "deepseekv4": "deepseek_v32", "glm47": "glm45", "glm4_moe": "glm45",
    "jamba": "hunyuan_a13b", "hunyuan": "hunyuan_a13b", "apriel": "hunyuan_a13b", "openai": "harmony",
    "gpt_oss": "harmony", "gpt-oss": "harmony", "llama3": "llama3_json", "llama4_json": "llama3_json",
    "llama4_pythonic": "pythonic", "internlm2": "internlm", "interns1": "internlm",
    "cohere_command3": "command", "cohere_command4": "command", "command_r7b": "command",
    "command_a": "command", "apertus2509": "apertus", "phi4_mini": "phi4_mini_json",
    "firefunction": "phi4_mini_json", "gigachat": "gigachat3", "nemotron_nano_v2": "nemotron_v2",
    "minimax_m1": "minimax", "minimax-m2": "minimax_m2", "kimi_k2_thinking": "kimi_k2",
    "granite-20b-fc": "granite_20b_fc", "step3_5": "qwen3_coder", "qwen_fncall": "qwen_agent",
    "claude_xml": "olmo3", "anthropic_xml": "olmo3",  # (the same <function_calls> block)
}
FORMATS: dict[str, frozenset[str]] = {**_KINDS, **{a: _KINDS[t] for a, t in _ALIASES.items()}}


def format_names() -> list[str]:
    return sorted(FORMATS)


_readers_cache: dict[frozenset[str], tuple[dict[str, Any], Any]] = {}


def _readers(kinds: frozenset[str]) -> tuple[dict[str, Any], Any]:
    """The readers of a format's markers and the scan's pattern for them, built once per format."""
    cached = _readers_cache.get(kinds)
    if cached is None:
        r = {m: reader for m, (kind, reader) in MARKERS.items() if kind in kinds}
        if "arrow" in kinds:
            r[">>>"] = _ARROW_READER[1]
        cached = _readers_cache[kinds] = (r, token_pattern(kinds, tuple(r)))
    return cached


def kinds_of(format: str | None) -> frozenset[str]:
    """What a format reads (every family for None); an unknown name is refused, naming them."""
    if format is None:
        return _ALL
    found = FORMATS.get(format) if isinstance(format, str) else None
    if found is None:
        raise ToolmendError(f"parse_tool_calls: unknown format {format!r}; the formats are "
                            f"{', '.join(format_names())} (or None to detect)")
    return found


def read_marker(text: str, at: int, marker: str, format: str | None,
                tools: Any) -> tuple[list[ToolCall] | None, int]:
    """What the reader of ``marker`` (a family's, or ``<tool_call>``) reads
    at ``at``, as the scan calls it: the calls there (None: not a call) and
    where the scan goes on."""
    known = read_tools(tools) if tools is not None else None
    kinds = kinds_of(format)
    if marker == "<tool_call>":
        tag: tuple[Any, int] = read_tag_at(text, at, len(text), Ctx(known, format), kinds)
        return (tag[0] if isinstance(tag[0], list) else None), tag[1]
    reader = _readers(kinds)[0][marker]
    found: tuple[list[ToolCall] | None, int] = reader(text, at, len(text), Ctx(known, format))
    return found


def _no_arguments_taken(call: ToolCall, known: Tools) -> bool:
    """A call that writes no arguments to a tool whose schema takes none: ``{}`` is no guess."""
    if call.ok or call.raw_args or call.cut is not None or NO_ARGUMENTS not in (call.error or ""):
        return False
    schema = known.schemas.get(call.name)
    return isinstance(schema, dict) and not schema.get("properties") and not schema.get("required") and \
        not schema.get("patternProperties") and schema.get("type", "object") == "object"


def parse(text: Any, format: str | None, tools: Any, thinking: bool | None = None, start: int = 0,
          after_calls: bool = False, hidden: list[tuple[int, int]] | None = None) -> list[ToolCall]:
    if type(text) is not str:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8", "replace")
        if not isinstance(text, str):
            raise TypeError(f"parse_tool_calls: text must be str or bytes, not {type(text).__name__}")
        text = str(text)  # a str subclass: its text (the kernels read str itself)
    kinds = _ALL if format is None else kinds_of(format)
    known = read_tools(tools) if tools is not None else None
    readers = _readers_cache.get(kinds) or _readers(kinds)
    calls = scan(text, Ctx(known, format), kinds, *readers, thinking, start, after_calls, hidden)
    if known is not None:
        calls = [object_by_position(known.as_declared(c), known) for c in calls]
        calls = [replace(c, raw_args="", args={}, ok=True, error=None) if _no_arguments_taken(c, known) else c
                 for c in calls]
        calls = [c if c.name in known.schemas or not c.ok else
                 ToolCall(c.name, c.raw_args, None, False, c.span,
                          f"the model called {c.name!r}, which is not among the tools given "
                          f"({known.known()})", c.id)
                 for c in calls]
        calls = check_tool_calls(calls, tools)
    # (after the checks, as a stream's reading applies them to its calls and the rest it read on)
    if start == 0 and calls:
        calls = shown_as_guidance(text, restated(text, calls) if len(calls) > 1 else calls)
    return calls
