"""Families that write each parameter as text between tags.

    <function=NAME><parameter=k>v</parameter></function>          qwen3_coder, seed_oss, step3p5,
                                                                   nemotron 3 (in <tool_call> or bare)
    <function=NAME>{json}</function>                               functionary v3.1
    <invoke name="NAME"><parameter name="k">v</parameter></invoke> minimax_m2 (<minimax:tool_call>)
    <｜DSML｜invoke name=..><｜DSML｜parameter name=.. string="true|false">   deepseek_v32 / v4
    <steptml:invoke name=..><steptml:parameter name=..>            step3
    <function name="NAME"><param name="k">v or <![CDATA[v]]></param></function>   minicpm5
    <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>  glm45 / glm47
    <tool_call>NAME<tool_sep><arg_key>..                           hy_v3 (its tags also as
    <tool_call:opensource>NAME<tool_sep:opensource><arg_key:opensource>...)

A value runs to its closing tag; one leading and one trailing newline are the
format's, not the value's. A call whose text ends before its closing tag is cut
and not ok (another parameter may have followed).
"""

from __future__ import annotations

import re
from typing import Literal

from ..._kernels import markers
from .._jsonish import extent, skip_space
from .._toolcalls import _NAME, NAME_PATTERN, ToolCall
from ._base import Ctx, cut_call, more_after, named_call, not_an_envelope, xml_call
from ._xmlblock import (
    CALL_OPENERS,
    FUNCTION_BLOCK_ENDS,
    PARAM,
    WRAP_CLOSE,
    WRAP_OPEN,
    closer_after,
    lost_before,
    parameter_before,
)

__all__ = ["read_function", "invoke_reader", "read_glm", "glm_reader"]


# how a format lays a value out between its tags: a line break on each side, which is not the
# value's (Qwen3-Coder); none, the value as it is (the others); or as it is, unless a line
# break stands on both sides (Seed-OSS' template writes values as they are, and a model
# writing Qwen3-Coder's layout in its tags puts one on both)
Layout = Literal["each", "none", "pair"]


def _value(text: str, a: int, b: int, newlines: Layout = "each") -> str:
    """The value between ``a`` and ``b``, less the line breaks its format's layout puts
    around it (Qwen3-Coder's template writes ``<parameter=k>\\nv\\n</parameter>``)."""
    v = text[a:b]
    if newlines == "none":
        return v
    if newlines == "pair" and not (v.startswith(("\n", "\r\n")) and v.endswith("\n")):
        return v
    if v.startswith("\r\n"):
        v = v[2:]
    elif v.startswith("\n"):
        v = v[1:]
    if v.endswith("\n"):
        v = v[:-1]
        if v.endswith("\r"):
            v = v[:-1]
    return v


def _separated(text: str, a: int, b: int) -> int:
    """Where a value from ``a`` whose closing tag was dropped ends, the next tag at ``b``:
    before the one line break the format writes between a closing tag and the next tag
    (``a.txt\n<parameter=...``: the value is ``a.txt``)."""
    if b > a and text[b - 1] == "\n":
        b -= 2 if b - 1 > a and text[b - 2] == "\r" else 1
    return b


def _wrap_span(text: str, i: int, end: int, opener: tuple[str, ...],
               closer: tuple[str, ...]) -> tuple[int, int]:
    """The span widened to the wrapper tag around the call (``<tool_call>`` ... ``</tool_call>``)."""
    seg = max(0, i - 40)
    before = text[seg:i].rstrip()
    for o in opener:
        if before.endswith(o):
            i = seg + len(before) - len(o)
            break
    k = skip_space(text, end, len(text))
    for c in closer:
        if text.startswith(c, k):
            end = k + len(c)
            break
    return i, end


class _Params:
    """The parameters of one call, read one after the other from where its name ends.

    Each value runs to its own closing tag, wherever that is: a value may hold any
    other tag of the format (a file being written that shows ``</function>``) and
    every character of it is kept. The call ends at the first of ``ends`` met
    between parameters. ``dropped``: the value's closing tag may be missing when no
    closing tag follows at all (Qwen3-Coder's models drop ``</parameter>``); the
    value then ends at the next parameter or at the end of the call."""

    # a value read as dropped: (key, the tag like its closer it ends in, or the call's closer written
    # again after it, and which of the two)
    miswritten: tuple[str, str, bool] | None = None
    unclosed: str | None = None  # a value read as dropped with its closing tag nowhere after it

    def __init__(self, ctx: Ctx, text: str, j: int, limit: int, opener: re.Pattern[str], open_prefix: str,
                 close: str, ends: tuple[str, ...], newlines: Layout, dropped: bool,
                 whole_values: bool = False, foreign: re.Pattern[str] | None = None,
                 cdata: bool = False) -> None:
        self.params: list[tuple[str, str, bool | None]] = []
        self.last = j          # where the last whole parameter ends
        self.end_at = -1       # where the end marker starts (-1: not reached)
        self.cut: str | None = None   # where the text ran out
        self.stray = -1        # where text that is not a parameter stands
        self.ambiguous: list[str] = []  # values holding the next parameter's tag before their closer
        self.overrun: str | None = None  # a value whose closer comes only after another call began
        self.shows: tuple[str, str] | None = None  # a value holding what ``foreign`` finds: (key, it)
        self.opens_call: str | None = None  # a value, read as dropped, holding another call's opening
        self.close = close     # a value's closing tag
        k = j
        while True:
            k = skip_space(text, k, limit)
            while "arg_key" in open_prefix and text.startswith("\\n", k):  # (GLM 4.6's "\n" between tags)
                k = skip_space(text, k + 2, limit)
            if k >= limit:
                self.cut = f"before {ends[0]}"
                return
            hit = next((e for e in ends if text.startswith(e, k)), None)
            if hit is not None:
                self.end_at = k
                return
            pm = opener.match(text, k, limit)
            if pm is None:
                rest = text[k:min(limit, k + max(len(open_prefix), *map(len, ends)) + 1)]
                # the text ends in a parameter's head (no tag after it) or inside an end marker
                in_end = any(e.startswith(rest) for e in ends)
                if limit == len(text) and (open_prefix.startswith(rest) or in_end or (
                        rest.startswith(open_prefix) and text.find("<", k + len(open_prefix), limit) < 0)):
                    self.cut = "inside a parameter's name" if rest.startswith(open_prefix[:2]) and \
                        not any(e.startswith(rest) for e in ends) else f"before {ends[0]}"
                    return
                self.stray = k
                return
            key = pm.group(1).strip().strip("\"'").strip()
            if not key:  # <arg_key></arg_key>, name="", name=" ": a value no parameter is named for
                self.stray = k
                return
            v = pm.end()
            w = skip_space(text, v, limit) if cdata else v
            if cdata and text.startswith(_CDATA, w):  # <param name="k"><![CDATA[...]]></param>
                c = text.find("]]>", w + len(_CDATA), limit)
                q = -1 if c < 0 else skip_space(text, c + 3, limit)  # (blanks around it are the format's)
                if c < 0 or not text.startswith(close, q):
                    # (the text ends inside the section or right after it: cut; else text that
                    # is no parameter stands there)
                    if limit == len(text) and (c < 0 or close.startswith(text[q:limit])):
                        self.cut = f"inside parameter {key!r}"
                    else:
                        self.stray = v if c < 0 else q
                    return
                self.params.append((key, text[w + len(_CDATA):c], False))
                k = self.last = q + len(close)
                continue
            e = ctx.find(text, close, v, limit)
            if cdata and e >= 0 and text.find(_CDATA, v, e) >= 0:
                self.stray = text.find(_CDATA, v, e)  # a section after text: which is the value is a guess
                return
            over = _overrun(ctx, text, v, e, ends)
            if over >= 0:  # the value would run past its call's end into another call
                self.overrun, self.end_at = key, over
                return
            if e >= 0 and not whole_values:
                if dropped:
                    nx = text.find(open_prefix, v, e)
                else:  # (only the parameter's own opening: <parameter=y> is text to MiniMax)
                    nm = opener.search(text, v, e)
                    nx = -1 if nm is None else nm.start()
                if nx >= 0:
                    tag = _miswritten_closer(text[v:nx], close, open_prefix)
                    if tag is not None:  # (a.md</paramter><parameter=...: the closer miswritten)
                        self.miswritten, self.end_at = (key, tag, False), nx
                        return
                    if self.opens_call is None and CALL_OPENERS.search(text, v, nx) is not None:
                        # ended there, the value holds another call's opening: the model began
                        # the next call before closing this one, or the value shows calls
                        self.opens_call = key
                    # either this closer was dropped, or the value shows the format: read it as
                    # dropped, and let the schema decide (or refuse) in _finish
                    self.ambiguous.append(key)
                    self.params.append((key, _value(text, v, _separated(text, v, nx), newlines), False))
                    k = self.last = nx
                    continue
            if e >= 0 and whole_values and self.opens_call is None and _unclosed_call(text, v, e):
                self.opens_call = key  # read whole, the value shows a call it never closes
            if e >= 0 and foreign is not None:
                shown = foreign.search(text, v, e)
                if shown is not None:  # a value holding a key's end and a value's start: a guess
                    self.shows = (key, shown.group())
                    self.end_at = k
                    return
            if e < 0 and dropped:
                stops = [x for x in [ctx.find(text, t, v, limit) for t in (open_prefix, *ends)] if x >= 0]
                if stops:
                    stop = min(stops)
                    tag = _miswritten_closer(text[v:stop], close, open_prefix)
                    again = _end_again(ctx, text, stop, limit, ends) if tag is None else None
                    if tag is not None or again is not None:  # (1</arg_key>, 1<parameter>: the closer
                        # miswritten, or the value's; the call's closer again: the value may hold the first)
                        self.miswritten = (key, tag or again or "", again is not None)
                        self.end_at = stop
                        return
                    self.params.append((key, _value(text, v, _separated(text, v, stop), newlines), False))
                    self.unclosed = key
                    k = self.last = stop
                    continue
            if e < 0:
                self.cut = f"inside parameter {key!r}"
                return
            # DSML's string="false": JSON as written; string="true": a string the model says it is
            marked = pm.group(2) if pm.lastindex is not None and pm.lastindex >= 2 else None
            is_json = True if marked == "false" else None if marked == "true" else False
            self.params.append((key, _value(text, v, e, newlines), is_json))
            k = self.last = e + len(close)


def _end_again(ctx: Ctx, text: str, stop: int, limit: int, ends: tuple[str, ...]) -> str | None:
    """The call's closer that ended a value read with its own closer dropped (at ``stop``),
    written again after it before another call opens (``<a></function> b</function>``: the
    value may hold the first, a file showing the format); None otherwise."""
    end = next((e for e in ends if text.startswith(e, stop)), None)
    if end is None:
        return None
    again = ctx.find(text, end, stop + len(end), limit)
    if again < 0 or CALL_OPENERS.search(text, stop + len(end), again) is not None:
        return None
    return end


def _miswritten_closer(value: str, close: str, open_prefix: str) -> str | None:
    """The tag that ``value``, read with its closing tag dropped, ends in when it is the
    format's own and so, most likely, its closer miswritten: GLM's ``</arg_key>`` or
    ``<arg_value>`` for ``</arg_value>``; Qwen3-Coder's ``<parameter>``, ``</param>``,
    ``</parameters>``, ``</paramter>``, ``</Parameter>``, ``</ parameter>`` or ``</parameter``
    for ``</parameter>`` (a value may also end in such a tag: which it is cannot be told)."""
    value = value.rstrip()
    lt = value.rfind("<")
    m = _END_TAG.fullmatch(value, lt) if lt >= 0 else None
    if m is None:
        return None
    name = m.group(1).lower()
    own = {n.group(1).lower() for n in (_END_TAG.match(close), _END_TAG.match(open_prefix + ">"))
           if n is not None}
    return m.group() if any(_like(name, n) for n in own) else None


def _like(name: str, own: str) -> bool:
    """``name`` is the tag name ``own`` cut short (to four letters at least), with a letter or
    two more, or one or two letters wrong, left out, added or swapped (``paramter``, ``arg_valeu``)."""
    if (own.startswith(name) and len(name) >= min(4, len(own))) or (name.startswith(own) and
                                                                    len(name) <= len(own) + 2):
        return True
    return len(own) >= 5 and abs(len(name) - len(own)) <= 2 and _edits(name, own) <= 2


def _edits(a: str, b: str) -> int:
    """The edits (a letter left out, added, changed, or two swapped) that make ``a`` ``b``."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


# a tag (its ">" may be dropped at the value's end, a blank may follow its "<" or "</")
_END_TAG = re.compile(r"</?[ \t]?([^\s<>/=]{1,64})[^<>\n]{0,64}(?:>|\Z)")
_CDATA = "<![CDATA["
_OPENER_CLOSES = {"tool_call": "</tool_call>", "function=": "</function>", "function name=": "</function>",
                  "|tool_call:start|": "<|tool_call:end|>",
                  "invoke": "</invoke>",
                  "|tool_call": "<tool_call|>", "minimax:tool_call": "</minimax:tool_call>",
                  "seed:tool_call": "</seed:tool_call>", "steptml:invoke": "</steptml:invoke>",
                  "\uff5cDSML\uff5cinvoke": "</\uff5cDSML\uff5cinvoke>",
                  "longcat_tool_call": "</longcat_tool_call>", "atem:invoke": "</atem:invoke>"}


def _unclosed_call(text: str, a: int, b: int) -> bool:
    """``text[a:b]`` opens a call that it does not close."""
    return any(text.find(_OPENER_CLOSES[op.group(1)], op.end(), b) < 0
               for op in CALL_OPENERS.finditer(text, a, b))


def _overrun(ctx: Ctx, text: str, v: int, e: int, ends: tuple[str, ...]) -> int:
    """Where the call's end marker stands in a value from ``v`` whose closing tag is at
    ``e``, when a call opens after it that does not close before ``e``: the value's
    closer was dropped and the next call began, or the value shows a call cut in two;
    either way this call's arguments are not known (-1: not so; a value may show the
    format's tags, whole calls too)."""
    if e < 0:
        return -1
    for end in ends:
        # (searched to the end of the text, remembered: many values before one far closer
        # cost one search, not one each)
        m = ctx.find(text, end, v, len(text))
        if m < 0 or m + len(end) > e:
            continue
        for op in CALL_OPENERS.finditer(text, m + len(end), e):
            if text.find(_OPENER_CLOSES[op.group(1)], op.end(), e) < 0:
                return m
    return -1


_FN = re.compile(r"<function=([^>\n<]{1,128})>")
# Llama 3's custom call with no ">" after the name (Groq's failed generations: <function=NAME{...}</function>)
_FN_GLUED = re.compile(r"<function=(" + NAME_PATTERN + r")(?=\{)")
# the ">" after the name left out, the line ending the name (LLaMA-Factory's Seed-OSS writer)
_FN_LINE = re.compile(r"<function=(" + NAME_PATTERN + r")[ \t]*\r?\n(?=[ \t]*<(?:parameter=|/function>))")
_ENDS_AT = ("</tool_call>", "</function>", "</seed:tool_call>", "</invoke>", "</steptml:invoke>",
            "</\uff5cDSML\uff5cinvoke>", "</atem:invoke>")


def _finish(name: str, ps: _Params, text: str, i: int, j: int, limit: int, end_len: int, ctx: Ctx,
            span_of: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
            block: str | tuple[str, ...] | None = None) -> tuple[list[ToolCall], int]:
    """The call the parameters make: cut, broken, or typed and whole; ``block``: the
    closer of the block holding the call (MiniMax's), when there is one."""
    if ps.cut is not None:
        return [cut_call(name, text[j:limit].strip(), (i, limit), ps.cut)], limit
    if ps.overrun is not None:
        end = ps.end_at + next((len(e) for e in _ENDS_AT if text.startswith(e, ps.end_at)), 0)
        return [ToolCall(name, text[j:ps.end_at].strip(), None, False, (i, end),
                         f"parameter {ps.overrun!r} of {name!r} has no closing tag before the call ends and "
                         "another call begins: its closing tag was dropped or the value shows a call, "
                         "which cannot be told")], end
    if ps.shows is not None:
        close = text.find(_ENDS_AT[0], ps.end_at, limit)
        end = close + len(_ENDS_AT[0]) if close >= 0 else limit
        return [ToolCall(name, text[j:end].strip(), None, False, (i, end),
                         f"parameter {ps.shows[0]!r} of {name!r} holds {ps.shows[1]} before its closing tag: "
                         "a tag of the format was dropped or the value shows it, which cannot be told")], end
    if ps.miswritten is not None:
        key, tag, twice = ps.miswritten
        start = ps.end_at + len(tag) if twice else ps.end_at  # (the closer again: to the second one)
        close = min((k for k in (text.find(e, start, limit) for e in _ENDS_AT) if k >= 0), default=-1)
        end = close + next(len(e) for e in _ENDS_AT if text.startswith(e, close)) if close >= 0 else limit
        span = (i, end) if span_of is None else _wrap_span(text, i, end, *span_of)
        why = (f"the call's closing tag {tag} stands twice after it: the value may hold "
               "the first" if twice else
               f"it ends in {tag}: its closing tag was miswritten or the value ends so")
        return [ToolCall(name, text[j:end].strip(), None, False, span,
                         f"parameter {key!r} of {name!r} has no closing tag {ps.close}, and {why}, which "
                         "cannot be told")], span[1]
    if ps.stray >= 0:
        return [ToolCall(name, text[j:ps.stray].strip(), None, False, (i, ps.stray),
                         f"the call to {name!r} holds text that is not a parameter "
                         f"at offset {ps.stray - i} of the call")], \
            ps.stray
    end = ps.end_at + end_len
    span = (i, end) if span_of is None else _wrap_span(text, i, end, *span_of)
    if ps.unclosed is not None and span_of is not None and (end_len == 0 or (span[0] < i and span[1] == end)):
        # (a value with no closing tag, and the call short of a closer of its own too: the text may be
        # cut inside the value, right after a closer it holds, or the model dropped both)
        missing = next((c for o, c in zip(*span_of, strict=True) if text.startswith(o, span[0])),
                       "closer") if end_len else "</function>"
        return [ToolCall(name, text[j:span[1]].strip(), None, False, span,
                         f"parameter {ps.unclosed!r} of {name!r} has no closing tag {ps.close}, and the call "
                         f"has no {missing} either: the text may be cut inside that value, which may hold "
                         "the closer it ends at, or the model dropped both, which cannot be told")], span[1]
    if ps.ambiguous:
        props = ctx.tools.properties(name) if ctx.tools is not None else {}
        keys = [key for key, _, _ in ps.params]
        # (read as dropped, a value giving its own parameter again: the model wrote the tag
        # twice, or the value shows it)
        if ps.opens_call is not None or not all(key in props for key in keys) or len(set(keys)) < len(keys):
            key = ps.ambiguous[0]
            why = ("read as dropped, it gives a parameter twice" if len(set(keys)) < len(keys) else
                   "without the tool's schema naming every parameter read")
            return [ToolCall(name, text[j:ps.last].strip(), None, False, span,
                             f"parameter {key!r} of {name!r} holds another parameter's tag before its "
                             "closing tag: either the model dropped that closing tag or the value shows the "
                             f"format, and {why}, which one cannot be told")], span[1]
    if span_of is not None and span[0] < i and span[1] == end:  # in its wrapper, which goes on
        block = next((c for o, c in zip(*span_of, strict=True) if text.startswith(o, span[0])), None)
    if block is not None and closer_after(ps.close, block, text, span[1], limit, ctx):
        if not ps.params:  # (no value could hold the call's closer: a parameter the call lost)
            return [ToolCall(name, text[j:ps.last].strip(), None, False, span,
                             f"a parameter follows the end of the call to {name!r} in its block, before "
                             "any other call: which call it belongs to cannot be told")], span[1]
        key = ps.params[-1][0]
        return [ToolCall(name, text[j:ps.last].strip(), None, False, span,
                         f"a value's closing tag {ps.close} follows the call to {name!r} before any other "
                         f"call: parameter {key!r} may hold the call's closing tag and more parameters after "
                         "it, which cannot be told")], span[1]
    return [xml_call(name, ps.params, text[j:ps.last].strip(), span, ctx)], span[1]


def _read_params(ctx: Ctx, name: str, text: str, j: int, limit: int, opener: re.Pattern[str],
                 open_prefix: str, close: str, ends: tuple[str, ...], newlines: Layout, dropped: bool = True,
                 foreign: re.Pattern[str] | None = None, cdata: bool = False) -> _Params:
    """The parameters of a call; ``dropped``: a family whose models drop a value's
    closing tag (Qwen3-Coder's ``</parameter>``, GLM's ``</arg_value>``). A value
    holding the next parameter's tag before its closer is read either way: as ended
    there (the closer dropped) or whole (the value shows the format); the schema
    decides, by the reading whose every parameter the tool has, and without one
    ``_finish`` refuses."""
    ps = _Params(ctx, text, j, limit, opener, open_prefix, close, ends, newlines, dropped, foreign=foreign,
                 cdata=cdata)
    if ps.ambiguous and ctx.tools is not None:
        props = ctx.tools.properties(name)
        if ps.opens_call is not None or not all(key in props for key, _, _ in ps.params):
            whole = _Params(ctx, text, j, limit, opener, open_prefix, close, ends, newlines, dropped,
                            whole_values=True, foreign=foreign, cdata=cdata)
            if whole.cut is None and whole.stray < 0 and whole.opens_call is None and \
                    all(key in props for key, _, _ in whole.params):
                ps = whole
    return ps


def read_function(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    found, end = _read_function(text, i, limit, ctx)
    lost = parameter_before(text, i, WRAP_OPEN, FUNCTION_BLOCK_ENDS, PARAM, "</parameter>") \
        if found and found[0].ok else None
    if lost is None or not found:
        return found, end
    return lost_before(found, lost, f"<function={found[0].name}>"), end


def _read_function(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    m = _FN.match(text, i, limit) or _FN_GLUED.match(text, i, limit) or _FN_LINE.match(text, i, limit)
    if m is None:
        if limit == len(text) and text.find(">", i, limit) < 0 and text.find("\n", i, limit) < 0:
            return [], limit  # cut inside the name: not a call yet
        return None, i + 1
    name = m.group(1).strip().strip("\"'")
    if not _NAME.match(name):
        return _no_name(text, i, m.end(), limit, name, ("</function>",) + WRAP_CLOSE)
    j = m.end()
    k = skip_space(text, j, limit)
    if k < limit and text[k] in "{[":  # functionary: the arguments as JSON
        e = extent(text, k, limit)
        if e is None:
            return [named_call(name, text[k:limit], (i, limit), cut=True)], limit
        close = skip_space(text, e, limit)
        if not text.startswith("</function>", close):  # (text before its closer: more of it, perhaps)
            c = ctx.find(text, "</function>", e, limit)
            close = c if c >= 0 and CALL_OPENERS.search(text, e, c) is None else -1
        end = close + len("</function>") if close >= 0 else e
        call = named_call(name, text[k:e], _wrap_span(text, i, end, WRAP_OPEN, WRAP_CLOSE))
        return more_after([call], text, e, close if close >= 0 else limit, closed=close >= 0), end
    # </function> ends the call; a dropped one is ended by </tool_call>
    ends = ("</function>",) + WRAP_CLOSE
    # (Seed-OSS' template writes each value as it is, <parameter=k>v</parameter>: a line break
    # after it is the value's, a file's last one too; Qwen3-Coder's writes one on each side)
    newlines: Layout = "pair" if ctx.fmt == "seed_oss" or _after_seed_opener(text, i) else "each"
    ps = _read_params(ctx, name, text, j, limit, PARAM, "<parameter=", "</parameter>", ends, newlines)
    end_len = len("</function>") if ps.end_at >= 0 and text.startswith("</function>", ps.end_at) else 0
    late = _late_closer(ctx, text, ps, limit) if end_len == 0 else -1
    if late >= 0:
        wrap = next(c for c in WRAP_CLOSE if text.startswith(c, ps.end_at))
        span = _wrap_span(text, i, late + len("</function>"), WRAP_OPEN, WRAP_CLOSE)
        return [ToolCall(name, text[j:late].strip(), None, False, span,
                         f"the call to {name!r} ends at {wrap} without its </function>, which follows before "
                         f"any other call: parameter {ps.params[-1][0]!r} may hold {wrap} and more, which "
                         "cannot be told")], span[1]
    return _finish(name, ps, text, i, j, limit, end_len, ctx, (WRAP_OPEN, WRAP_CLOSE))


def _late_closer(ctx: Ctx, text: str, ps: _Params, limit: int) -> int:
    """Where ``</function>`` stands after a call with parameters that its wrapper's closer
    ended (its own closer dropped), before any other call opens; -1: it does not. (A value
    may have held that closer: ``x</parameter></tool_call> y</parameter></function>``.)"""
    if not ps.params or ps.end_at < 0 or not text.startswith(WRAP_CLOSE, ps.end_at):
        return -1
    c = ctx.find(text, "</function>", ps.end_at, limit)
    return c if c >= 0 and CALL_OPENERS.search(text, ps.end_at, c) is None else -1


def _after_seed_opener(text: str, i: int) -> bool:
    """``<seed:tool_call>`` (and blanks) stands right before ``i``."""
    k = i
    while k > 0 and text[k - 1] in " \t\r\n" and i - k < 64:
        k -= 1
    return text.endswith("<seed:tool_call>", 0, k)


def _no_name(text: str, i: int, j: int, limit: int, name: str,
             closers: tuple[str, ...]) -> tuple[list[ToolCall], int]:
    """A call the format's tags open whose name is no tool's name: not ok, and read to its
    closer, so that what its values hold (a call a file shows) is never read as text."""
    found = [k for k in (text.find(c, j, limit) for c in closers) if k >= 0]
    k = min(found) if found else -1
    end = limit if k < 0 else k + next(len(c) for c in closers if text.startswith(c, k))
    return [ToolCall("", text[j:k if k >= 0 else limit].strip(), None, False, (i, end),
                     f"the call's name {name[:60]!r} is not a tool's name")], end


def _json_body(name: str, text: str, i: int, k: int, limit: int, ctx: Ctx, closer: str, stop: str,
               no_call_inside: bool) -> tuple[list[ToolCall], int]:
    """A call whose arguments are one JSON object at ``k``, then ``closer`` (the object's
    scan stops at ``stop``, the next call's opening). Not whole, the call ends at its
    closer, if it has one (and, ``no_call_inside``, no other call opens before it)."""
    e = extent(text, k, limit, stop)
    if e is None:
        close = ctx.find(text, closer, k, limit)
        if close < 0 or (no_call_inside and CALL_OPENERS.search(text, k, close) is not None):
            return [named_call(name, text[k:limit], (i, limit), cut=True)], limit
        end = close + len(closer)
        return [named_call(name, text[k:close], (i, end))], end
    close = skip_space(text, e, limit)
    if not text.startswith(closer, close):
        return [ToolCall(name, text[k:e], None, False, (i, e),
                         f"the call to {name!r} holds more than its arguments at offset {close - i} "
                         "of the call")], e
    end = close + len(closer)
    return [named_call(name, text[k:e], (i, end))], end


def invoke_reader(prefix: str, block: str | tuple[str, ...] | None = None,  # type: ignore[no-untyped-def]
                  call: str = "invoke",
                  param: str = "parameter", cdata: bool = False, openers: tuple[str, ...] = ()):
    """The reader of ``<{prefix}invoke name="f"><{prefix}parameter name="k">v</{prefix}parameter>``;
    ``block``: the closer of the block the invokes stand in (MiniMax's ``</minimax:tool_call>``),
    ``openers`` its openers (a parameter between one and the invoke makes the call not ok);
    ``call`` and ``param``: the tags' names (MiniCPM 5 writes ``<function name="f"><param
    name="k">v</param></function>``), ``cdata``: a value may be a CDATA section."""
    p = re.escape(prefix)
    inv = re.compile(r"<" + p + call + r"\s+name\s*=\s*(\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|[^\s>/]{1,128})"
                     r"\s*(/?)>")
    par = re.compile(r"<" + p + param + r"\s+name\s*=\s*(\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|[^\s>]{1,128})"
                     r"(?:\s+string\s*=\s*\"(true|false)\")?\s*>")
    inv_close = "</" + prefix + call + ">"
    closers = (block,) if isinstance(block, str) else block or ()
    par_close = "</" + prefix + param + ">"
    par_open = "<" + prefix + param

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        m = inv.match(text, i, limit)
        if m is None:
            if limit == len(text) and ctx.find(text, ">", i, limit) < 0:
                return [], limit
            return None, i + 1
        name = m.group(1).strip("\"'")
        if not _NAME.match(name):
            return _no_name(text, i, m.end(), limit, name, (inv_close,))
        j = m.end()
        if m.group(2):  # <invoke name="f"/>: a call without arguments
            return [xml_call(name, [], "", (i, j), ctx)], j
        k = skip_space(text, j, limit)
        if text.startswith("{", k):  # the arguments as one JSON object, not as parameters
            return _json_body(name, text, i, k, limit, ctx, inv_close, inv_close, False)
        ps = _read_params(ctx, name, text, j, limit, par, par_open, par_close, (inv_close,), "none", False,
                          cdata=cdata)
        # (a call standing alone, MiniCPM 5's: a value's closer after it may end a value that held
        # the call's closer, as in a block)
        alone = inv_close if cdata else None
        found, end = _finish(name, ps, text, i, j, limit, len(inv_close), ctx, block=block or alone)
        lost = parameter_before(text, i, openers, closers, par, par_close, ("<" + prefix + call, inv_close)) \
            if openers and found and found[0].ok else None
        return (found, end) if lost is None else (lost_before(found, lost, f"the invoke of {name!r}"), end)

    return read


# (the name may stand on the line after the opener: <tool_call>\nNAME\n<arg_key>...)
_GLM = re.compile(r"<tool_call>[ \t]*(?:\r?\n[ \t]*)?(" + NAME_PATTERN
                  + r")[ \t]*(\n|\\n)?[ \t]*(<tool_sep>)?")


def _glm_bad_name(text: str, i: int, limit: int, opener: str = "<tool_call>", key: str = "<arg_key>",
                  sep: str = "<tool_sep>") -> tuple[str, int] | None:
    """A GLM call whose name line is no tool's name (words with spaces, empty): (that line,
    where its first key opens), or None. (Looked at in the 200 characters after the opener:
    a run of blanks costs one search.)"""
    j = i + len(opener)
    if not text.startswith(opener, i):
        return None
    k = text.find(key, j, min(limit, j + 200))
    if k < 0:
        return None
    name = text[j:k].strip().removesuffix("\\n").strip().removesuffix(sep).strip()  # (hy_v3's <tool_sep>)
    if "\n" in name or "<" in name or name[:1] in ('{', '"', "["):
        return None  # (more than a name line, another tag, or a JSON body)
    return (None if _NAME.match(name) else (name, k))


def _hermes_body(text: str, k: int, limit: int) -> bool:
    """The object at ``k`` is a call object (a name and its arguments: Hermes' body
    after a stray word), not the arguments of the call a GLM name line names."""
    e = extent(text, k, limit)
    return e is not None and markers.call_body(text, k, e) is not None


def glm_head(text: str, i: int, limit: int) -> bool:
    """``<tool_call>NAME`` followed by ``<arg_key>``, ``<tool_sep>`` or ``</tool_call>``: GLM / hy_v3
    (a name line that is no name before ``<arg_key>`` too: the reader says it is not ok)."""
    m = _GLM.match(text, i, limit)
    if m is not None:
        k = skip_space(text, m.end(), limit)
        if (m.group(3) is not None or text.startswith(("<arg_key>", "</tool_call>"), k)
                or (text.startswith("{", k) and not _hermes_body(text, k, limit))
                or (k >= limit == len(text) and bool(m.group(2) or m.group(3)))):
            return True
    return _glm_bad_name(text, i, limit) is not None


# a key and the opening of its value. GLM 4.6 models drop </arg_key> or <arg_value> at times,
# and either way the reading is one: a key holds no line break and no tag of the format, and
# a value without its <arg_value> is one only when its </arg_value> comes before any other
# <arg_value>. (GLM 4.6 may also write its line breaks as a backslash and an "n".)
_ARG = re.compile(r"(?:\\n)*<arg_key>((?:[^<\n]|<(?!/?(?:arg_key|arg_value|tool_call|tool_sep)>)){0,256}?)"
                  r"(?:</arg_key>(?:(?:\s|\\n)*<arg_value>|(?:\r?\n|\\n)?"
                  r"(?=(?:(?!</?arg_value>|<arg_key>|</?tool_call>).)*</arg_value>))|<arg_value>)",
                  re.S)


def glm_tags(pattern: str, prefix: str = "", suffix: str = "") -> str:
    """``pattern`` with GLM's tag names given ``prefix`` (LongCat's ``<longcat_arg_key>``) and,
    before each ``>`` that ends a name, ``suffix`` (Hy3's ``<arg_key:opensource>``)."""
    pattern = pattern.replace("tool_call", prefix + "tool_call").replace("arg_", prefix + "arg_")
    if suffix:
        pattern = re.sub(r"(tool_call|arg_key|arg_value|tool_sep)(\)?)>",
                         lambda m: m.group(1) + m.group(2) + suffix + ">", pattern)
    return pattern


# what a model writes in a call's place to say that it calls no tool (a tool so named is read, given)
_NO_TOOL = frozenset(("none", "null", "nil", "no_tool", "no_call"))


def glm_reader(prefix: str = "", suffix: str = "", end: str = ""):  # type: ignore[no-untyped-def]
    """The reader of GLM's calls, their tags named with ``prefix`` (LongCat writes
    ``<longcat_tool_call>NAME<longcat_arg_key>k</longcat_arg_key><longcat_arg_value>v...``)
    or ending in ``suffix`` (Hy3 writes ``<tool_call:opensource>NAME<tool_sep:opensource>``);
    ``end``: the call's closer when it is not ``</tool_call>`` so named."""
    def tag(t: str) -> str:
        return glm_tags(t, prefix, suffix)

    head = re.compile(tag(_GLM.pattern))
    open_tag = tag("<tool_call>")
    arg = re.compile(tag(_ARG.pattern), re.S)
    # (a key's end and a value's start inside a value: where it ends is a guess)
    key_then_value = re.compile(tag(r"</arg_key>\s*<arg_value>"))
    opener, closer, key_open, value_close = tag("<tool_call"), end or tag("</tool_call>"), tag("<arg_key>"), \
        tag("</arg_value>")

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        bad = _glm_bad_name(text, i, limit, open_tag, key_open, tag("<tool_sep>"))
        if bad is not None:
            return _no_name(text, i, bad[1], limit, bad[0], (closer,))
        m = head.match(text, i, limit)
        if m is None:
            return None, i + 1
        name = m.group(1)
        j = m.end()
        k = skip_space(text, j, limit)
        if text.startswith("{", k):  # <tool_call>NAME\n{json}</tool_call>: the arguments as JSON
            if name.endswith(":"):  # ("Sure:" before the JSON: a sentence's word, no tool's name)
                return None, i + 1
            found, end = _json_body(name, text, i, k, limit, ctx, closer, opener, True)
            return [not_an_envelope(c, ctx) for c in found], end  # (a call's envelope under its name)
        ps = _read_params(ctx, name, text, j, limit, arg, key_open, value_close, (closer,), "none",
                          foreign=key_then_value)
        if not ps.params and ps.end_at >= 0 and name.lower() in _NO_TOOL and (
                ctx.tools is None or name not in ctx.tools.schemas):
            return [], ps.end_at + len(closer)  # <tool_call>none</tool_call>: the model says it calls none
        return _finish(name, ps, text, i, j, limit, len(closer), ctx)

    return read


read_glm = glm_reader()
