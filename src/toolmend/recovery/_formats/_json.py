"""Families whose arguments are JSON, after a marker of their own.

    [TOOL_CALLS] [{"name", "arguments"}, ...]       mistral before v11 (anywhere in the text), xlam
    [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...}          mistral v11+ (also NAME[ARGS]{...}, NAME{...})
    <|python_tag|>{"name", "parameters"}; {...}     llama3_json
    <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{...}
        <|tool_call_end|><|tool_calls_section_end|>                             kimi_k2
    <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\\n```json\\n{...}\\n```<｜tool▁call▁end｜>
                                                    deepseek_v3 / r1
    <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>                          deepseek_v31
    <|tools_prefix|>[{"NAME": {...}}]<|tools_suffix|>                            apertus
    >>>NAME\\n{...}                                   functionary v3.2 (``>>>all`` is text)
    <tool_calls>[...] or {...}\\n{...}</tool_calls>  jamba, hunyuan_a13b, apriel, minimax (M1)
    <|tool_call|>[...]  <function_call> {...}  <|action_start|><|plugin|>{...}<|action_end|>
    <|START_ACTION|>[...]<|END_ACTION|>  functools[...]  <TOOLCALL>[...]</TOOLCALL>
    <|function_call|>{...}  function call<|role_sep|>\\n{...}  <longcat_tool_call>{...}</longcat_tool_call>
                                                    granite, granite_20b_fc, internlm, command, phi4_mini /
                                                    firefunction, nemotron_v2, gigachat3, longcat
"""

from __future__ import annotations

import re

from .._jsonish import elements, extent, members, skip_space
from .._toolcalls import _NAME, _PLACEHOLDER_NAME, NAME_PATTERN, ToolCall, two_ways
from ._base import (
    MEMBER_FIRST,
    Ctx,
    Reader,
    cut_call,
    json_run,
    more_after,
    named_call,
    opener_put_back,
    string_open_at,
    unbraced_call,
    unclosed_json,
)
from ._context import after_markup, frames

__all__ = ["block_reader", "read_mistral", "read_kimi", "read_deepseek", "read_kimi_section",
           "read_deepseek_section", "SECTION_DROPPED", "kimi_name", "read_apertus",
           "read_arrow", "read_functools", "read_glm4", "read_glm4_next"]


def _respan(calls: list[ToolCall], span: tuple[int, int]) -> list[ToolCall]:
    """A marker holding one call: the call's span is the marker's whole block."""
    if len(calls) != 1:
        return calls
    c = calls[0]
    return [ToolCall(c.name, c.raw_args, c.args, c.ok, span, c.error, c.id)]


def block_reader(marker: str, closers: tuple[str, ...] = (), seps: str = ",;",
                 tags_inside: bool = False) -> Reader:
    """JSON calls after ``marker``, up to one of ``closers`` (when present)."""
    n = len(marker)

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        j = i + n
        k = skip_space(text, j, limit)
        if tags_inside and text.startswith("<", k):
            return None, j  # <tool_calls><tool_call>...: the inner tags are the calls
        calls, end, found = json_run(text, j, limit, seps)
        if not found:
            if k >= limit == len(text):
                return [], limit  # the text stops after the marker
            return None, j
        if end >= limit and closers:
            # its JSON ran to the limit: cut, unless it never closes and a closer of the block follows,
            # then broken. Where it was meant to end is not known (the closer may stand in one of its
            # strings), so it still runs to the limit: the rest is one entry not ok, never dropped
            shut = _first_closer(text, closers, k, limit, ctx)
            if shut >= 0 and _unclosed(text, k, limit, seps):
                closer = next(c for c in closers if text.startswith(c, shut))
                return _respan(unclosed_json(calls, text, k, shut, closer, limit), (i, limit)), limit
        # text after the JSON inside the block, before its closer, is more of it: a guess without it
        shut = _first_closer(text, closers, end, limit, ctx)
        inside = shut >= 0 and text.find(marker, end, shut) < 0
        calls = more_after(calls, text, end, shut if inside else limit, closed=inside)
        k = skip_space(text, end, limit)
        for c in closers:
            if text.startswith(c, k):
                end = k + len(c)
                break
        return _respan(calls, (i, end)), end

    return read


def _first_closer(text: str, closers: tuple[str, ...], start: int, limit: int, ctx: Ctx) -> int:
    """Where the first of ``closers`` after ``start`` stands (-1: none)."""
    return min((x for x in (ctx.find(text, c, start, limit) for c in closers) if x >= 0), default=-1)


def _unclosed(text: str, k: int, limit: int, seps: str) -> bool:
    """The run of JSON values at ``k`` ends in one that never closes before ``limit``."""
    while k < limit and text[k] in "{[":
        e = extent(text, k, limit)
        if e is None:
            return True
        k = skip_space(text, e, limit)
        while k < limit and text[k] in seps:
            k = skip_space(text, k + 1, limit)
    return False


def read_functools(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    k = i + len("functools")
    if not text.startswith(("[", "{"), k):  # (Phi-4-mini writes a list; one call alone at times)
        return None, k
    calls, end, found = json_run(text, k, limit)
    return (_respan(more_after(calls, text, end, limit), (i, end)), end) if found else (None, k)


_V11_HEAD = r"[ \t]*(" + NAME_PATTERN + r")(?:\[CALL_ID\]([^\[\s]{0,64}))?"  # NAME[CALL_ID]ID
# (blanks around the name and [ARGS], as some detokenizers write them: "[TOOL_CALLS] f [ARGS]{")
_V11 = re.compile(_V11_HEAD + r"(?:\s*(\[ARGS\])\s*|[ \t]*)(?=\{)")  # ([ARGS] may stand on a line of its own)
# NAME[ARGS] and no arguments before the next call, the line's end or the end of the turn (</s>);
# at the text's end: cut before them
_V11_EMPTY = re.compile(_V11_HEAD + r"[ \t]*\[ARGS\][ \t]*(?=\[TOOL_CALLS\]|\r?\n|</s>|\Z)")
_ID_RUNS_ON = re.compile(r"[{}\"':,]")  # an id with no [ARGS] after it that holds the arguments' text
_V11_CUT = re.compile(r"\s*[\w.:@/-]*(?:\[[A-Z_]*\]?[^\[{]*)?")  # the text ran out in a v11 head
# a v11 head whose arguments open with no brace (their first key, ``g"b": 2}``; a parenthesis glued
# to the name, ``g('b', 2)``), or that the text's end cuts: a call broken there, not prose's words
_V11_BROKEN = re.compile(_V11_HEAD + r"(?:(?=\()|[ \t]*(?:\[ARGS\][ \t]*)?"
                         r"(?=[\"'][\w.-]{1,64}[\"'][ \t]*:|\Z))")


def _broken_v11(text: str, m: re.Match[str], start: int, limit: int, ctx: Ctx) -> ToolCall | None:
    """The call a broken v11 head ``m`` begins at its marker ``start``, as unbraced_call reads
    it; cut when the text ends in its head."""
    name, a = m.group(1), m.end()
    if a == limit == len(text):
        return cut_call(name, "", (start, a), "inside its name or before its arguments", m.group(2))
    nxt = ctx.find(text, "[TOOL_CALLS]", a, limit)
    return unbraced_call(name, text, start, a, limit if nxt < 0 else nxt, limit, ctx, m.group(2))


def read_mistral(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    j = i + len("[TOOL_CALLS]")
    k = skip_space(text, j, limit)
    while text.startswith("[TOOL_CALLS]", k):  # a run of markers: read once, from its last one
        j = k + len("[TOOL_CALLS]")          # (each read from its own would pass the rest over)
        k = skip_space(text, j, limit)
    if k < limit and text[k] in "[{":  # before v11: a JSON list (or one object)
        calls, end, found = json_run(text, k, limit)
        calls = more_after(calls, text, end, limit)
        close = skip_space(text, end, limit)
        if found and text.startswith("[/TOOL_CALLS]", close):
            end = close + len("[/TOOL_CALLS]")
        return (_respan(calls, (i, end)), end) if found else (None, j)
    calls = []
    start = i
    while True:
        m = _V11.match(text, k, limit)
        empty = _V11_EMPTY.match(text, k, limit) if m is None else None
        if empty is not None:  # NAME[ARGS] and nothing after: a call that writes no arguments
            stop = empty.end()
            if stop == limit == len(text) and not after_markup(text, i):
                return [], limit  # (a sentence ending with the markers: "calls look like [TOOL_CALLS]f")
            calls.append(cut_call(empty.group(1), "", (start, stop), "before its arguments", empty.group(2))
                         if stop == limit == len(text) else
                         named_call(empty.group(1), "", (start, stop), empty.group(2)))
            k = skip_space(text, stop, limit)
            if not text.startswith("[TOOL_CALLS]", k):
                return calls, stop
            start, k = k, k + len("[TOOL_CALLS]")
            continue
        if m is None:
            if not calls:
                nl = text.find("\n", k, min(limit, k + 200))
                lst = text.find("[{", k, nl if nl >= 0 else min(limit, k + 200))
                if lst >= 0 and not frames(text[k:lst]):  # [TOOL_CALLS] junk [{...}]: the list after
                    # the stray word ("[TOOL_CALLS] and a list, for instance [{...}]": shown, not made)
                    listed, end, any_found = json_run(text, lst, limit)
                    if any_found:
                        return _respan(listed, (i, end)), end
                if limit == len(text) and _V11_CUT.fullmatch(text, k, limit):
                    return [], limit  # cut before the arguments began: nothing to run
                broken = _V11_BROKEN.match(text, j, limit) if after_markup(text, i) else None
                if broken is not None and (broken.end() == limit or text[broken.end()] == "("):
                    broken = None  # (a first marker counts with a key after it only)
                entry = None if broken is None else _broken_v11(text, broken, start, limit, ctx)
                if entry is None and after_markup(text, i):
                    entry = _args_unread(text, start, k, limit)
                if entry is None:
                    return None, j
            else:  # after a call the marker is the model's: a head there that does not read is broken
                broken = _V11_BROKEN.match(text, k, limit)
                entry = _broken_v11(text, broken, start, limit, ctx) if broken is not None else None
                if entry is None:
                    entry = _args_unread(text, start, k, limit)
                if entry is None:  # (from the marker: a list after it, [TOOL_CALLS][{..}], is read as one)
                    return calls, start
            # (what follows it is the scan's to read: prose may stand between, "for example [TOOL_CALLS]..")
            return [*calls, entry], entry.span[1]
        name, call_id = m.group(1), m.group(2)
        if call_id and m.group(3) is None and _ID_RUNS_ON.search(call_id):
            # f[CALL_ID]a{"x":{"a":1}}: the id's end and the arguments' start are a guess (the regex
            # would take a{"x": for the id and {"a":1} for the arguments): not ok, never a guess run
            a = text.find("{", m.start(2))
            e = extent(text, a, limit)
            end = limit if e is None else e
            return [*calls, ToolCall(name, text[a:end], None, False, (start, end),
                                     f"the call to {name!r} gives no [ARGS] after its [CALL_ID], and its id "
                                     "runs into its arguments: where they begin cannot be told", None)], end
        a = m.end()
        e = extent(text, a, limit)
        end = limit if e is None else e
        calls.append(named_call(name, text[a:end], (start, end), call_id, cut=e is None))
        if e is None:
            return calls, limit
        calls = more_after(calls, text, e, limit)
        k = skip_space(text, e, limit)
        if text.startswith("[ARGS]", k):  # NAME[ARGS]{...}[ARGS]{...}: which one is meant?
            q = skip_space(text, k + len("[ARGS]"), limit)
            again = extent(text, q, limit) if q < limit and text[q] in "{[" else q
            end = limit if again is None else again
            calls[-1] = two_ways(name, text[a:end], (start, end), f"the call to {name!r} gives [ARGS] twice",
                                 call_id)
            return calls, end
        if text.startswith("[TOOL_CALLS]", k):
            start = k
            k += len("[TOOL_CALLS]")
        elif (nxt := _V11.match(text, k, limit)) is None or (
                "[ARGS]" not in text[k:k + 140] and not (k == e and m.group(3) is None is nxt.group(3))):
            apart = _head_apart(text, e, limit)
            if apart is None and "\n" not in text[e:k]:  # (g[CALL_ID]a b[ARGS]{..} on the call's line)
                apart = _args_unread(text, k, k, limit)
            if apart is not None:
                return [*calls, apart], apart.span[1]
            return calls, e  # (NAME{...} after a call with a blank between is prose's, as it may be)
        else:
            start = k  # NAME[ARGS]{...} again, or NAME{...} glued to the call before it


def _head_apart(text: str, e: int, limit: int) -> ToolCall | None:
    """A Mistral head after the call that ended at ``e``, with only blanks and a comma or a
    semicolon between (``sh{..} rm{..}``, ``sh{..},\ng{..}``), whose arguments close and end
    their line: a call the model wrote apart, or text, which cannot be told: an entry not ok,
    never left out while the call before it runs. None for anything else (a sentence is prose's)."""
    k = skip_space(text, e, limit)
    if k < limit and text[k] in ",;":
        k = skip_space(text, k + 1, limit)
    nxt = _V11.match(text, k, limit) if text[e:k].count("\n") <= 1 else None
    if nxt is None:
        return None
    a = nxt.end()
    x = extent(text, a, limit)
    if nxt.group(3) is not None:  # [ARGS] is no word of prose (the scan does not read it alone): a call
        x = limit if x is None else x  # (cut, or closing where it may: an entry, never left out)
    elif x is None:
        return None
    nl = text.find("\n", x, limit)
    if nxt.group(3) is None and text[x:limit if nl < 0 else nl].strip():
        return None
    return ToolCall(nxt.group(1), text[a:x], None, False, (k, x), (
        f"the call to {nxt.group(1)!r} at offset {k} stands apart from the call before it "
        "(Mistral writes its calls one after the other, or each after [TOOL_CALLS]): a call, or text "
        "that shows one, which cannot be told"), nxt.group(2))


_NAME_BEFORE_TOKEN = re.compile(r"[ \t]*(" + NAME_PATTERN + r")\[")  # (f[CALL_ID]..., f[ARGS]...)


def _args_unread(text: str, start: int, k: int, limit: int) -> ToolCall | None:
    """The head at ``k`` after the marker at ``start`` that no v11 head reads but that gives
    ``[ARGS]`` before any brace on its line (``f[CALL_ID]a b[ARGS]{..}``, ``get weather[ARGS]{..}``,
    ``f[ARGS][ARGS]{..}``): a call its token shows, not ok, never left out. Where its arguments
    end is a guess unless they open right after the token and close: else the entry reaches
    ``limit`` and nothing in it is read. None when the head gives no ``[ARGS]``."""
    stop = min(limit, k + 200)
    for c in ("\n", "{", "[TOOL_CALLS]"):
        f = text.find(c, k, stop)
        stop = f if f >= 0 else stop
    t = text.find("[ARGS]", k, stop)
    if t < 0:
        return None
    q = skip_space(text, t + len("[ARGS]"), limit)
    x = extent(text, q, limit) if q < limit and text[q] == "{" else None
    end = limit if x is None else x
    m = _NAME_BEFORE_TOKEN.match(text, k, t + 1)
    name = m.group(1) if m is not None else ""
    return ToolCall(name, text[t + len("[ARGS]"):end].strip(), None, False, (start, end),
                    f"the call at offset {start} has a head its format does not write "
                    f"({text[k:t].strip()[:60]!r} before [ARGS]): it is not run")


_KIMI = re.compile(r"<\|tool_call_begin\|>\s*([^\s<]{1,160}?)\s*<\|tool_call_argument_begin\|>")


# the ids serving stacks give calls (vLLM's chatcmpl-tool-HEX, OpenAI's call_..., Anthropic's
# toolu_...): one in Kimi's id slot is no tool's name
_SERVER_CALL_ID = re.compile(r"(?:chatcmpl-tool-|chatcmpl-|call_|toolu_)[A-Za-z0-9]{12,}\Z")


def kimi_name(call_id: str) -> str:
    """The tool Kimi's call id ``functions.NAME:IDX`` names (an id without ``functions.`` is
    the name, its index dropped); "" for ``functions.NAME:abc``, where the name ends is a guess."""
    if _SERVER_CALL_ID.match(call_id):
        return ""  # a serving stack's call id (chatcmpl-tool-..., call_...), which names no tool
    name = call_id[len("functions."):] if call_id.startswith("functions.") else call_id
    indexed = re.search(r":\d+\Z", name)
    if indexed is not None:
        return name[:indexed.start()]  # (an MCP name may hold colons: functions.mcp:srv:tool:0)
    return "" if call_id.startswith("functions.") and ":" in name else name


_KIMI_BARE_HEAD = re.compile(r"<\|tool_call_begin\|>\s*([^\s<]{1,160}?)\s*(?=<\|tool_call_begin\|>)")
_KIMI_AFTER_HEAD = ("<|tool_call_argument_begin|>", "<|tool_call_end|>", "<|tool_calls_section_end|>")


def _read_kimi(text: str, i: int, limit: int, ctx: Ctx,
               m: re.Match[str] | None = None) -> tuple[list[ToolCall] | None, int]:
    """Kimi's call at ``i`` (``m``: its head, when its opening token was dropped)."""
    m = m or _KIMI.match(text, i, limit)
    if m is None:
        if limit == len(text) and not any(ctx.find(text, t, i, limit) >= 0 for t in _KIMI_AFTER_HEAD):
            return [], limit  # cut inside the name (a call's or the section's end after it: a head that
            # does not read, which the scan reports)
        head = _KIMI_BARE_HEAD.match(text, i, limit)
        if head is not None:  # its arguments dropped, the next call begun: a call, never left out
            name = kimi_name(head.group(1))
            return [ToolCall(name if _NAME.match(name) else "", "", None, False, (i, head.end()),
                             f"the call {head.group(1)!r} at offset {i} gives no arguments before the "
                             "next call begins: it is not whole", head.group(1))], head.end()
        return None, i + len("<|tool_call_begin|>")
    call_id = m.group(1)
    name = kimi_name(call_id)
    a = m.end()
    if not _NAME.match(name):  # <|tool_call_begin|>0<|tool_call_argument_begin|>: which tool is a guess
        e = ctx.find(text, "<|tool_call_end|>", a, limit)
        end = e + len("<|tool_call_end|>") if e >= 0 else limit
        return [ToolCall("", text[a:e if e >= 0 else limit].strip(), None, False, (i, end),
                         f"the call's id {call_id!r} names no tool")], end
    k = skip_space(text, a, limit)
    e = ctx.find(text, "<|tool_call_end|>", a, limit)  # (remembered: a run of calls without it, one search)
    nxt = text.find("<|tool_call_begin|>", a, e if e >= 0 else limit)
    if nxt >= 0 and string_open_at(text, a, nxt, single_quotes=False):
        nxt = -1  # inside a string of its arguments: the arguments' text
    bound = nxt if nxt >= 0 else limit  # (a next call ends this one's arguments, whole or not)
    x = extent(text, k, bound) if k < bound and text[k] in "{[" else None
    q = skip_space(text, x, limit) if x is not None else -1
    if x is not None and text.startswith("<|tool_call_end|>", q):
        # (a token inside a string of the arguments is the arguments': the extent reads strings)
        end = q + len("<|tool_call_end|>")
        return [named_call(name, text[k:x], (i, end), call_id)], end
    if x is not None and text.startswith("<|tool_call_begin|>", q):
        # whole arguments, then the next call: this one's end marker was dropped
        return [named_call(name, text[k:x], (i, x), call_id)], x
    if nxt >= 0:  # its end marker dropped and the next call begun: this one, not whole, ends there
        return [named_call(name, text[a:nxt], (i, nxt), call_id, cut=True)], nxt
    if e >= 0:
        end = e + len("<|tool_call_end|>")
        return [named_call(name, text[a:e], (i, end), call_id)], end
    stop = limit if x is None else x
    return [named_call(name, text[a:stop], (i, stop), call_id, cut=True)], stop


def _in_section(reader: Reader, begin: str, shut: str, dropped: Reader) -> Reader:
    """``reader`` with what stands after its call in the family's section looked at (``_section_rest``)."""
    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        found, end = reader(text, i, limit, ctx)
        return _section_rest(text, found, end, limit, ctx, begin, shut, dropped)
    return read


def _section_opened(opener: str, begin: str, shut: str, dropped: Reader) -> Reader:
    """The section's opener followed by its first call with that call's opening token dropped
    (``<|tool_calls_section_begin|>functions.f:0<|tool_call_argument_begin|>{..}``): read as if
    it stood there; None (the scan reads on) for anything else."""
    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        k = skip_space(text, i + len(opener), limit)
        found, end = dropped(text, k, limit, ctx)
        if not found:
            return None, i + len(opener)
        return _section_rest(text, [_put_back(found[0], k, begin), *found[1:]], end, limit, ctx, begin, shut,
                             dropped)
    return read


def _put_back(call: ToolCall, k: int, begin: str) -> ToolCall:
    return opener_put_back(call, f"the call's opening {begin} at offset {k} was dropped: read as if it "
                                 "stood there")


def _section_rest(text: str, found: list[ToolCall] | None, end: int, limit: int, ctx: Ctx, begin: str,
                  shut: str, dropped: Reader) -> tuple[list[ToolCall] | None, int]:
    """The calls ``found`` in a family's section, to ``end``, and what follows them: the next
    calls with their opening token dropped (``dropped``: a call's head with no ``begin``), read
    as if it stood there; then text that is no call before the section's end ``shut`` or the
    next call's ``begin`` is an entry not ok, so that a section never loses a call. (The live
    stream holds a call in a section until what follows its end shows another call or the
    section's end.)"""
    k = skip_space(text, end, limit) if found else limit
    found = list(found) if found else found  # (extended in place: a long run stays linear)
    placeholder = False
    while k < limit and not text.startswith((begin, shut), k):
        more, e = dropped(text, k, limit, ctx)
        placeholder = bool(more and more[0].ok and _PLACEHOLDER_NAME.match(more[0].name))
        if not more or placeholder:
            break  # (a placeholder's, NAME: the format described, text that is no call here)
        assert found is not None
        found += [_put_back(more[0], k, begin), *more[1:]]
        end, k = e, skip_space(text, e, limit)
    if k >= limit or text.startswith((begin, shut), k):
        return found, end
    assert found is not None
    if not placeholder and not _section_open(text, found[0].span[0], shut, ctx):
        return found, end  # (text between calls that no section holds is prose, as a stream shows it)
    closed = ctx.find(text, shut, k, limit)
    nxt = text.find(begin, k, closed if closed >= 0 else limit)
    # (to the next call, or to the section's end; a placeholder's call where neither follows, to
    # the text's end: what follows it may be its format's calls too)
    stop = nxt if nxt >= 0 else closed if closed >= 0 or not placeholder else limit
    if stop < 0:
        return found, end
    while text[stop - 1].isspace():
        stop -= 1
    return [*found, ToolCall("", text[k:stop], None, False, (k, stop),
                             f"the tool-call section holds text that is no call after the call at "
                             f"offset {found[-1].span[0]}, before the next call or the section's end: "
                             "it is not run")], stop


_SECTION_OPENERS = {"<|tool_calls_section_end|>": "<|tool_calls_section_begin|>",
                    "<｜tool▁calls▁end｜>": "<｜tool▁calls▁begin｜>"}


def _section_open(text: str, i: int, shut: str, ctx: Ctx) -> bool:
    """Whether a section of the family whose section ends with ``shut`` is open at ``i``: its
    opener written before ``i`` and not closed since. (One closed only later, its opener dropped,
    is no section a stream can know of while it reads the text between the calls.)"""
    return ctx.last(text, _SECTION_OPENERS[shut], i) > ctx.last(text, shut, i)


_DS_BEGIN = "<｜tool▁call▁begin｜>"
_DS_SEP = "<｜tool▁sep｜>"
_DS_END = "<｜tool▁call▁end｜>"


def _read_deepseek(text: str, i: int, limit: int, ctx: Ctx, j: int = -1) -> tuple[list[ToolCall] | None, int]:
    """DeepSeek's call at ``i`` (``j``: where its head begins, ``i`` when its opening token was dropped)."""
    j = i + len(_DS_BEGIN) if j < 0 else j
    e = ctx.find(text, _DS_END, j, limit)  # (remembered: a run of calls without it costs one search)
    nxt = text.find(_DS_BEGIN, j, e if e >= 0 else limit)
    if nxt >= 0 and not string_open_at(text, j, nxt, single_quotes=False):
        limit, e = nxt, -1  # (as for Kimi's): this one, not whole, ends there
    body_end = e if e >= 0 else limit
    s = text.find(_DS_SEP, j, body_end)
    if s < 0:
        if e >= 0 and "{" in text[j:e]:  # (its separator dropped before its arguments)
            return [_unread_head(text, i, j, e, text[j:text.find("{", j, e)])], e + len(_DS_END)
        return ([], limit) if e < 0 and limit == len(text) else (None, j)
    left = text[j:s].strip()
    a = s + len(_DS_SEP)
    end = e + len(_DS_END) if e >= 0 else limit
    if left == "function":  # V3 / R1: the name on the line, the arguments in a json fence
        nl = text.find("\n", a, body_end)
        if nl < 0:
            name = text[a:body_end].strip()
            if e < 0 and _NAME.match(name or "x"):
                return ([cut_call(name, "", (i, limit), "before its arguments")] if name else []), limit
            if e >= 0:  # (function<sep>f<sep>{..}, f{..} on the name's line: a call, never left out;
                # f alone: its json block left out, and an empty object would be a guess)
                return ([ToolCall(name, "", None, False, (i, end), f"the call to {name!r} gives no "
                                  "json block of arguments after its name: it is not run")]
                        if _NAME.match(name) else [_unread_head(text, i, j, e, name)]), end
            return None, j
        name = text[a:nl].strip()
        k = skip_space(text, nl, body_end)
        fused = text.find("```", a, nl)
        if fused >= 0:  # get_weather```json: the fence opened on the name's line
            name, k = text[a:fused].strip(), fused
        if not _NAME.match(name):
            return ([_unread_head(text, i, j, e, name)], end) if e >= 0 else (None, j)
        if text.startswith("```", k):
            k2 = text.find("\n", k, body_end)
            if k2 < 0:
                return [cut_call(name, "", (i, end), "before its arguments")], end
            close = text.find("```", k2, body_end)
            v = skip_space(text, k2, body_end)
            if 0 <= close and v < body_end and text[v] in "{[":  # (a fence inside a string of the JSON)
                ve = extent(text, v, body_end)
                c2 = skip_space(text, ve, body_end) if ve is not None else -1
                if c2 >= 0 and text.startswith("```", c2):
                    close = c2
            if close < 0:
                raw = text[k2 + 1:body_end]
                return [named_call(name, raw, (i, end), cut=True)], end
            if "```" in text[close + 3:body_end]:  # a second block: which one is meant?
                return [two_ways(name, text[k2 + 1:body_end].strip(), (i, end),
                                 f"the call to {name!r} gives its arguments in two code blocks")], end
            return [named_call(name, text[k2 + 1:close], (i, end))], end
        return [named_call(name, text[k:body_end], (i, end), cut=e < 0)], end
    name = left
    if not _NAME.match(name):
        return ([_unread_head(text, i, j, e, name)], end) if e >= 0 else (None, j)
    return [named_call(name, text[a:body_end], (i, end), cut=e < 0)], end


def _kimi_dropped(text: str, k: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """Kimi's call at ``k`` with its opening token dropped (``functions.f:0<|tool_call_argument_begin|>``)."""
    m = _KIMI_DROPPED.match(text, k, limit)
    return (None, k) if m is None else _read_kimi(text, k, limit, ctx, m)


def _deepseek_dropped(text: str, k: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """DeepSeek's call at ``k`` with its opening token dropped (``f<｜tool▁sep｜>{..}``)."""
    return (None, k) if _DS_DROPPED.match(text, k, limit) is None else _read_deepseek(text, k, limit, ctx, k)


# the head of a call in a section whose opening token was dropped: Kimi's id (functions.NAME:IDX,
# never a word) then its argument token, DeepSeek's name (or V3's "function") then its separator
_KIMI_DROPPED = re.compile(r"(functions\.[^\s<]{1,150}|[^\s<]{1,150}:\d+)\s*<\|tool_call_argument_begin\|>")
_DS_DROPPED = re.compile(r"[^\s<]{1,160}?\s*" + re.escape(_DS_SEP))
# a call's marker -> the head of the next call, its opening token dropped (a stream holds at one)
SECTION_DROPPED = {"<|tool_call_begin|>": _KIMI_DROPPED.pattern, _DS_BEGIN: _DS_DROPPED.pattern}
_KIMI_SECTION = ("<|tool_call_begin|>", "<|tool_calls_section_end|>", _kimi_dropped)
_DS_SECTION = (_DS_BEGIN, "<｜tool▁calls▁end｜>", _deepseek_dropped)
read_kimi = _in_section(_read_kimi, *_KIMI_SECTION)
read_deepseek = _in_section(_read_deepseek, *_DS_SECTION)
read_kimi_section = _section_opened("<|tool_calls_section_begin|>", *_KIMI_SECTION)
read_deepseek_section = _section_opened("<｜tool▁calls▁begin｜>", *_DS_SECTION)


def _unread_head(text: str, i: int, j: int, e: int, head: str) -> ToolCall:
    """The DeepSeek call at ``i``, its end marker at ``e``, whose head (``head``) gives no
    name its format writes: an entry not ok in its place, never left out."""
    return ToolCall("", text[j:e].strip(), None, False, (i, e + len(_DS_END)),
                    f"the call at offset {i} gives no tool's name its format reads ({head.strip()[:40]!r} "
                    f"before its arguments): it is not run")


def read_apertus(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    j = skip_space(text, i + len("<|tools_prefix|>"), limit)
    if j >= limit or text[j] != "[":
        return ([], limit) if j >= limit == len(text) else (None, j)
    scan = elements(text, j, limit)
    calls: list[ToolCall] = []
    for el in scan.items:
        stop = el.end if el.end is not None else limit
        if text[el.start] != "{":
            calls.append(ToolCall("", text[el.start:stop], None, False, (el.start, stop),
                                  "an apertus call is an object {NAME: {arguments}}"))
            continue
        obj = members(text, el.start, stop)
        if len(obj.items) != 1 or (obj.closed and obj.items[0].end is None):
            if not obj.items:
                continue  # cut before the name
            calls.append(ToolCall(obj.items[0].key, text[el.start:stop], None, False, (el.start, stop),
                                  "an apertus call is an object with one member, {NAME: {arguments}}"))
            continue
        mem = obj.items[0]
        raw = text[mem.start:mem.end if mem.end is not None else limit]
        calls.append(named_call(mem.key, raw, (el.start, stop), cut=el.end is None or mem.end is None))
    end = scan.end if scan.end is not None else limit
    k = skip_space(text, end, limit)
    if text.startswith("<|tools_suffix|>", k):
        end = k + len("<|tools_suffix|>")
    return _respan(calls, (i, end)), end


_ARROW = re.compile(r">>>[ \t]*(" + NAME_PATTERN + r")[ \t]*\r?\n")


def read_arrow(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    m = _ARROW.match(text, i, limit)
    if m is None:
        return None, i + 3
    if m.group(1) == "all":  # >>>all: text for the user
        return [], m.end()
    k = skip_space(text, m.end(), limit)
    if MEMBER_FIRST.match(text, k, limit) and after_markup(text, i) and text[i + 3] not in " \t":
        # >>>NAME\n"key": ..}: its brace missing (not ">>> x", a Python session's prompt)
        stop = ctx.find(text, ">>>", k, limit)
        call = unbraced_call(m.group(1), text, i, k, limit if stop < 0 else stop, limit, ctx)
        if call is not None:
            return [call], call.span[1]
    if k >= limit or text[k] not in "{[":
        return None, m.end()
    e = extent(text, k, limit)
    end = limit if e is None else e
    return more_after([named_call(m.group(1), text[k:end], (i, end), cut=e is None)], text, end, limit), end


# GLM-4's call: its name alone on the message's first line (or after <|assistant|>), its arguments next
_GLM4_HEAD = re.compile(r"[ \t\r\n]*(" + NAME_PATTERN + r")[ \t]*(?:\r?\n[ \t]*)?(?=[{\[])")
_GLM4_NEXT = "<|assistant|>"


def read_glm4_next(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    """GLM-4's ``<|assistant|>NAME\n{...}`` after text: its template writes a call as a
    message whose header holds the name (``<|assistant|>`` then a line break is a
    message of text: no call)."""
    a = i + len(_GLM4_NEXT)
    if a < limit and text[a] in " \t\r\n" or _GLM4_HEAD.match(text, a, limit) is None:
        return None, a
    return read_glm4(text, a, limit, ctx)


def read_glm4(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall], int]:
    """GLM-4's calls (GLM-4-9B-Chat, GLM-4-0414), which have no marker: the message opens
    with a tool's name on a line of its own and its JSON arguments after it; the next
    call follows ``<|assistant|>`` (its chat template's), and ``<|observation|>`` ends
    the turn. A line of text after the arguments makes the call not ok (a value talked
    about). Read only where the scan says the message opens (the format named)."""
    calls: list[ToolCall] = []
    k = i
    while True:
        m = _GLM4_HEAD.match(text, k, limit)
        if m is None:
            return calls, k
        a = m.end()
        e = extent(text, a, limit)
        if e is None:
            calls.append(named_call(m.group(1), text[a:limit], (m.start(1), limit), cut=True))
            return calls, limit
        nl = text.find("\n", e, limit)
        rest = text[e:limit if nl < 0 else nl].strip()
        if rest and not rest.startswith(("<|assistant|>", "<|observation|>", "<|user|>", "<|endoftext|>")):
            calls.append(ToolCall(m.group(1), text[a:e], None, False, (m.start(1), e),
                                  f"the arguments of {m.group(1)!r} are followed by {rest[:40]!r} on their "
                                  "line: a value in a sentence, or more of the arguments, is a guess"))
            return calls, e
        calls.append(named_call(m.group(1), text[a:e], (m.start(1), e)))
        j = skip_space(text, e, limit)
        if not text.startswith(_GLM4_NEXT, j):
            return calls, e
        k = j + len(_GLM4_NEXT)
