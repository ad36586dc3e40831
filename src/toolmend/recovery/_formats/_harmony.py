"""gpt-oss's harmony messages: a call is a message to a tool, its arguments JSON.

    <|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>
    ...assistantcommentary to=functions.NAME json{...}   its special tokens stripped (a server decoding them)

The ``analysis`` channel with no recipient is reasoning; a message a tool wrote, or one sent to
the assistant, is a tool's result; the rest with no recipient is text to show.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from .._jsonish import extent, skip_space
from .._result import Fix
from .._toolcalls import _NAME, ToolCall, two_ways
from ._base import Ctx, cut_call, named_call, open_string_rest, string_open_at

__all__ = ["harmony_message", "harmony_tool", "models_message", "read_harmony", "read_stripped_harmony",
           "STRIPPED_HARMONY", "STRIPPED_HARMONY_OPENING"]


_H_TO = re.compile(r"\bto=([^\s<]{1,160})")
_H_CHANNEL = re.compile(r"<\|channel\|>\s*(\w+)")
# (a message with its <|start|> dropped begins at its <|channel|>)
_H_ENDS = ("<|call|>", "<|end|>", "<|return|>", "<|start|>", "<|channel|>")


def harmony_message(text: str, i: int, limit: int, find: Callable[[str, str, int, int], int] | None = None
                    ) -> tuple[str, str | None, int, int, int, bool] | None:
    """The harmony message at ``i``: (channel, recipient, body start, body end, end, closed),
    None when no ``<|message|>`` header starts there. A message ends at its end token or
    where the next one starts; reasoning (``analysis`` with no recipient) at its ``<|end|>``
    (or ``<|return|>``), when it has one: it is text the model thinks in, which may quote a
    whole message, ``<|start|>`` and ``<|call|>`` with it. ``find``: the
    parse's remembered search (``Ctx.find``), so that a run of messages costs one search
    for a token that never comes."""
    h = text.find("<|message|>", i, min(limit, i + 400))
    if h < 0:
        return None
    head = text[i:h]
    if "<|end|>" in head or "<|call|>" in head or "<|start|>" in head[1:]:
        return None
    ch = _H_CHANNEL.search(head)
    to = _H_TO.search(head)
    channel = ch.group(1) if ch else ""
    a = h + len("<|message|>")
    search = find or _find
    ends: list[int] = []
    if channel == "analysis" and to is None:
        ends = [x for x in (search(text, t, a, limit) for t in ("<|end|>", "<|return|>")) if x >= 0]
    if not ends:  # (reasoning whose end token was dropped ends where the next message starts)
        ends = [x for x in (search(text, t, a, limit) for t in _H_ENDS) if x >= 0]
    b = min(ends) if ends else limit
    v = skip_space(text, a, limit)
    q = b
    while q > v and text[q - 1].isspace():
        q -= 1
    # (a whole call's JSON ends in its closer, as most messages' do: no count of its quotes then)
    if to is not None and ends and v < q and text[v] in "{[" and text[q - 1] not in "}]" and \
            string_open_at(text, v, b, single_quotes=False):
        # (a call's JSON whose string holds an end token: the message ends after the JSON, which
        # never runs on into the next message)
        nxt = search(text, "<|start|>", a, limit)
        e = extent(text, v, nxt if nxt >= 0 else limit)
        after = [x for x in (search(text, t, e, limit) for t in _H_ENDS) if x >= 0] if e is not None else []
        if after and not text[e:min(after)].strip():
            b = min(after)
    end = b
    for t in _H_ENDS[:3]:
        if text.startswith(t, b):
            end = b + len(t)
    return (channel, to.group(1) if to else None, a, b, end, bool(ends))


def _find(text: str, needle: str, start: int, limit: int) -> int:
    return text.find(needle, start, limit)


_H_AUTHOR = re.compile(r"<\|start\|>\s*([^\s<]*)")
# recipients whose message holds no call: the model's own reasoning (Glimmer), the answer,
# and the assistant (the author of a message to it is a tool, answering: its result)
_NO_CALL_TO = frozenset(("self", "user", "assistant"))


def _no_call_in(text: str, i: int, msg: tuple[str, str | None, int, int, int, bool]) -> bool:
    """The harmony message ``msg`` read at ``i`` holds no call: reasoning (``analysis``
    with no recipient, a message to ``self``), the answer, a tool's result (a message to
    the assistant, or one a tool, the user or the system wrote)."""
    channel, to = msg[0], msg[1]
    if (channel == "analysis" and to is None) or to in _NO_CALL_TO:
        return True
    author = _H_AUTHOR.match(text, i, msg[2])
    return author is not None and author.group(1).lower() not in ("assistant", "")


def models_message(text: str, i: int, msg: tuple[str, str | None, int, int, int, bool]) -> bool:
    """The harmony message ``msg`` read at ``i`` is the model's own: no other author (the
    user's, the system's, a tool's) and not sent to the assistant (a tool's result)."""
    author = _H_AUTHOR.match(text, i, msg[2])
    return msg[1] != "assistant" and (author is None or author.group(1).lower() in ("assistant", ""))


def _tool_result(text: str, i: int, msg: tuple[str, str | None, int, int, int, bool]) -> bool:
    """The harmony message ``msg`` read at ``i`` is a tool's result: sent to the
    assistant, or written by a tool (an author other than the assistant, the
    user, the system or the developer, whose messages a prompt holds before the reply)."""
    if msg[1] == "assistant":
        return True
    author = _H_AUTHOR.match(text, i, msg[2])
    return author is not None and author.group(1).lower() not in _NOT_A_TOOL


_NOT_A_TOOL = frozenset(("assistant", "", "user", "system", "developer"))


def harmony_tool(text: str, i: int, msg: tuple[str, str | None, int, int, int, bool]) -> str | None:
    """The recipient of the harmony message ``msg`` read at ``i`` when it is a call
    to a tool, else None. A recipient makes a call on any channel: gpt-oss calls its
    built-in tools (and at times functions) from ``analysis``; no recipient (or
    ``all``) is text to show."""
    to = msg[1]
    if to is None or to == "all" or _no_call_in(text, i, msg):
        return None
    return to


_H_HEAD_TOKEN = re.compile(r"<\|constrain\|>|<\|channel\|>\s*\w+")
_CONTENT_TYPES = frozenset(("json", "code", "text", "python"))


def _words_after_recipient(head: str) -> str:
    """The words a harmony header holds after its recipient that are none of its parts
    (a channel, ``<|constrain|>``, a content type as its last word): "" when none."""
    to = _H_TO.search(head)
    if to is None:
        return ""
    rest = head[to.end():]
    rest = rest[:rest.find("<|constrain|>")] if "<|constrain|>" in rest else rest  # (then its type)
    words = _H_HEAD_TOKEN.sub(" ", rest).split()
    last = words[-1].lower() if words else ""
    if words and (last in _CONTENT_TYPES or last.startswith(("application/", "text/"))):
        words.pop()
    if words == [to.group(1).rsplit(".", 1)[-1]]:  # (to=functions.shell shell: the name written again)
        return ""
    return " ".join(words)


def read_harmony(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    msg = harmony_message(text, i, limit, ctx.find)
    if msg is None:
        if limit == len(text) and len(text) - i < 400 and ctx.find(text, "<|message|>", i, limit) < 0:
            return [], limit  # cut inside a header
        return None, i + 1
    a, b, end, closed = msg[2:]
    if _no_call_in(text, i, msg):
        if _tool_result(text, i, msg):  # the model's turn ended before it: a call after it is a
            return [], limit            # later turn's (or one made on a result the model made up)
        return [], end  # reasoning or the answer: no call in it
    if text.startswith("<atem:", skip_space(text, a, limit)):
        return None, a  # Glimmer's message to a tool: its calls are read at their own marker
    to = harmony_tool(text, i, msg)
    if to is None:
        return [], end  # text to show
    name = to[len("functions."):] if to.startswith("functions.") else to
    if len(set(_H_TO.findall(text, i, a))) > 1:
        return [two_ways(name, text[a:b].strip(), (i, end), "the message names two recipients")], end
    more = _words_after_recipient(text[i:a - len("<|message|>")])
    if more:  # (to=functions.Web Search <|constrain|>json: an MCP tool's name holding a space)
        spaced = name + " " + more
        if ctx.tools is not None and ctx.tools.declared(spaced) in ctx.tools.schemas:
            name = spaced
        else:
            return [ToolCall(name, text[a:b].strip(), None, False, (i, end),
                             f"the recipient {to!r} is followed by {more[:40]!r} in its header: a name "
                             "holding a space, or words the header does not hold, which cannot be told")], end
    if not _NAME.match(name) and " " not in name:
        return None, a
    # (a message the next one's header ends, its own end token not written, may be cut short)
    call = _unglued(named_call(name, text[a:b], (i, end), cut=not closed or end == b), ctx)
    v = skip_space(text, a, b)
    if not call.ok and v < b and text[v] in "{[" and text[end:limit].strip():
        # its JSON has a string open where the message ends, and more follows: that token, and all
        # that follows (another message's call too), may be the string's, so none of it is read
        token = next((t for t in _H_ENDS if text.startswith(t, b)), "its end")
        rest = open_string_rest([call], text, v, b, limit, token, ctx)
        if rest is not None:
            return rest, rest[-1].span[1]
    return [call], end


def _unglued(call: ToolCall, ctx: Ctx) -> ToolCall:
    """The call under the tool's name when gpt-oss glued its constraint to the recipient
    (``to=functions.shelljson<|message|>``, a known slip of its): with tools only, when
    the name is no tool's and the name less ``json`` is one (``to_json`` stays itself)."""
    tools = ctx.tools
    if tools is None or not call.name.endswith("json") or tools.declared(call.name) in tools.schemas:
        return call
    name = call.name[:-len("json")]
    if not name or tools.declared(name) not in tools.schemas:
        return call
    return replace(call, name=name, fixes=(*call.fixes, Fix(
        "tool_name", -1, f"the model wrote {call.name!r}, the tool's name and harmony's json run together")))


# gpt-oss's call with its special tokens decoded away (a server that strips them): what is left of
# <|start|>assistant<|channel|>commentary to=functions.NAME<|constrain|>json<|message|>{...}<|call|>
STRIPPED_HARMONY, STRIPPED_HARMONY_OPENING = "assistantcommentary to=", "commentary to="
_STRIPPED_OPENER = "analysis"  # (the stripped text's first channel: its reasoning)
_STRIPPED_HEAD = re.compile(r"(?:assistant)?commentary to=functions\.([A-Za-z_][\w.\-]{0,255})([ \t]+json)?"
                            r"[ \t]*(?=\{)")


def read_stripped_harmony(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """``assistantcommentary to=functions.NAME json{...}`` (the reasoning's text glued before it),
    or ``commentary to=functions.NAME json{...}`` opening the text: the call, its JSON whole and
    ending the text (its ``<|call|>`` ended the turn). Its constraint glued to the name
    (``NAMEjson{``, as ``<|constrain|>json`` stripped leaves it) is read with tools only, to the
    declared name: without them, whether ``json`` is the name's is a guess. Only a whole
    message so stripped is read: one that opens with it, or with harmony's first channel's
    name (``analysis``) and the header glued to the reasoning's last word; never in a fence
    or in a sentence (a log quoted, a bug report: the only sign it holds is its place)."""
    if limit < len(text) or (i > 0 and not (text.startswith(STRIPPED_HARMONY, i) and
                                            text.startswith(_STRIPPED_OPENER) and not text[i - 1].isspace())):
        return None, i + len(STRIPPED_HARMONY_OPENING)
    head = _STRIPPED_HEAD.match(text, i, limit)
    if head is None:
        return None, i + len(STRIPPED_HARMONY_OPENING)
    name, spaced = head.group(1), head.group(2) is not None
    x = extent(text, head.end(), limit)
    if x is None:
        return [cut_call(name, text[head.end():limit], (i, limit), "by the end of the text")], limit
    call = named_call(name, text[head.end():x], (i, x))
    rest = text[x:limit].strip()
    if rest:
        return [ToolCall(name, call.raw_args, None, False, (i, x),
                         f"the call to {name!r} (gpt-oss's, its tokens stripped) is followed by "
                         f"{rest[:40]!r}: its turn ends at its call, and where it ends is a guess")], limit
    if not spaced and name.endswith("json") and call.ok:
        unglued = _unglued(call, ctx)
        if unglued is call and (ctx.tools is None or ctx.tools.declared(name) not in ctx.tools.schemas):
            call = ToolCall(name, call.raw_args, None, False, (i, x),
                            f"{name!r} runs the tool's name and harmony's json together (its tokens "
                            "stripped): which is the name is a guess without the tools")
        else:
            call = unglued
    return [call], limit
