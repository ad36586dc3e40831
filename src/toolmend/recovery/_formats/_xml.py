"""Families that write each parameter as text between tags.

    <function=NAME><parameter=k>v</parameter></function>          qwen3_coder, seed_oss, step3p5,
                                                                   nemotron 3 (in <tool_call> or bare)
    <function=NAME>{json}</function>                               functionary v3.1
    <invoke name="NAME"><parameter name="k">v</parameter></invoke> minimax_m2 (<minimax:tool_call>)
    <｜DSML｜invoke name=..><｜DSML｜parameter name=.. string="true|false">   deepseek_v32 / v4
    <steptml:invoke name=..><steptml:parameter name=..>            step3
    <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>  glm45 / glm47
    <tool_call>NAME<tool_sep><arg_key>..                           hy_v3

A value runs to its closing tag; one leading and one trailing newline are the
format's, not the value's. A call whose text ends before its closing tag is cut
and not ok (another parameter may have followed).
"""

from __future__ import annotations

import re

from .._jsonish import extent, skip_space
from .._toolcalls import _NAME, ToolCall
from ._base import Ctx, cut_call, named_call, xml_call

__all__ = ["read_function", "invoke_reader", "read_glm"]


def _value(text: str, a: int, b: int, newlines: bool = True) -> str:
    """The value between ``a`` and ``b``; with ``newlines``, less the one newline the
    format puts after the opening tag and before the closing one (Qwen3-Coder's
    template writes ``<parameter=k>\\nv\\n</parameter>``); the other formats write the
    value as it is."""
    v = text[a:b]
    if not newlines:
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


_FN = re.compile(r"<function=([^>\n<]{1,128})>")
_PARAM = re.compile(r"<parameter=([^>\n<]{1,128})>")
_WRAPPERS = ("<tool_call>", "<seed:tool_call>")
_WRAP_CLOSE = ("</tool_call>", "</seed:tool_call>")


def read_function(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    m = _FN.match(text, i, limit)
    if m is None:
        rest = text[i:limit]
        if limit == len(text) and ">" not in rest and "\n" not in rest:
            return [], limit  # cut inside the name: not a call yet
        return None, i + 1
    name = m.group(1).strip().strip("\"'")
    if not _NAME.match(name):
        return None, m.end()
    j = m.end()
    end_fn = text.find("</function>", j, limit)
    k = skip_space(text, j, limit)
    if k < limit and text[k] in "{[":  # functionary: the arguments as JSON
        e = extent(text, k, limit)
        if e is None:
            return [named_call(name, text[k:limit], (i, limit), cut=True)], limit
        close = skip_space(text, e, limit)
        end = close + len("</function>") if text.startswith("</function>", close) else e
        return [named_call(name, text[k:e], _wrap_span(text, i, end, _WRAPPERS, _WRAP_CLOSE))], end
    body_end = end_fn if end_fn >= 0 else limit
    wrap_close = min((x for x in (text.find(c, j, body_end) for c in _WRAP_CLOSE) if x >= 0), default=-1)
    if end_fn < 0 and wrap_close >= 0:  # </function> dropped, </tool_call> there: the call ends
        body_end = end_fn = wrap_close
    params: list[tuple[str, str, bool]] = []
    last = j
    k = j
    while True:
        k = skip_space(text, k, body_end)
        if k >= body_end:
            break
        pm = _PARAM.match(text, k, body_end)
        if pm is None:
            if end_fn < 0 and "<parameter=".startswith(text[k:body_end]) or (
                    end_fn < 0 and text.startswith("<parameter=", k)):
                return [cut_call(name, text[j:limit].strip(), (i, limit),
                                     "inside a parameter's name")], limit
            return [ToolCall(name, text[j:body_end].strip(), None, False, (i, body_end),
                             f"the call to {name!r} holds text that is not a parameter at offset {k}")], \
                max(body_end, k + 1)
        key = pm.group(1).strip().strip("\"'")
        v = pm.end()
        close = text.find("</parameter>", v, body_end)
        nxt = text.find("<parameter=", v, body_end)
        if close >= 0 and (nxt < 0 or close < nxt):
            params.append((key, _value(text, v, close), False))
            k = last = close + len("</parameter>")
        elif nxt >= 0 or end_fn >= 0:  # </parameter> dropped: the next one (or </function>) ends it
            stop = nxt if nxt >= 0 else end_fn
            params.append((key, _value(text, v, stop), False))
            k = last = stop
        else:
            return [cut_call(name, text[j:limit].strip(), (i, limit),
                                     f"inside parameter {key!r}")], limit
    if end_fn < 0:
        return [cut_call(name, text[j:limit].strip(), (i, limit), "before </function>")], limit
    end = end_fn + len("</function>") if text.startswith("</function>", end_fn) else end_fn
    span = _wrap_span(text, i, end, _WRAPPERS, _WRAP_CLOSE)
    return [xml_call(name, params, text[j:last].strip(), span, ctx)], span[1]


def invoke_reader(prefix: str):  # type: ignore[no-untyped-def]
    """The reader of ``<{prefix}invoke name="f"><{prefix}parameter name="k">v</{prefix}parameter>``."""
    p = re.escape(prefix)
    inv = re.compile(r"<" + p + r"invoke\s+name\s*=\s*(\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|[^\s>/]{1,128})"
                     r"\s*(/?)>")
    par = re.compile(r"<" + p + r"parameter\s+name\s*=\s*(\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|[^\s>]{1,128})"
                     r"(?:\s+string\s*=\s*\"(true|false)\")?\s*>")
    inv_close = "</" + prefix + "invoke>"
    par_close = "</" + prefix + "parameter>"
    par_open = "<" + prefix + "parameter"

    def read(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
        m = inv.match(text, i, limit)
        if m is None:
            rest = text[i:limit]
            if limit == len(text) and ">" not in rest:
                return [], limit
            return None, i + 1
        name = m.group(1).strip("\"'")
        if not _NAME.match(name):
            return None, m.end()
        j = m.end()
        if m.group(2):  # <invoke name="f"/>: a call without arguments
            return [xml_call(name, [], "", (i, j), ctx)], j
        end_inv = text.find(inv_close, j, limit)
        body_end = end_inv if end_inv >= 0 else limit
        params: list[tuple[str, str, bool]] = []
        k = last = j
        while True:
            k = skip_space(text, k, body_end)
            if k >= body_end:
                break
            pm = par.match(text, k, body_end)
            if pm is None:
                if end_inv < 0 and (par_open.startswith(text[k:body_end]) or text.startswith(par_open, k)):
                    return [cut_call(name, text[j:limit].strip(), (i, limit),
                                     "inside a parameter's name")], limit
                return [ToolCall(name, text[j:body_end].strip(), None, False, (i, body_end),
                                 f"the call to {name!r} holds text that is not a parameter at offset {k}")], \
                    max(body_end, k + 1)
            key = pm.group(1).strip("\"'")
            v = pm.end()
            close = text.find(par_close, v, body_end)
            if close < 0:
                if end_inv < 0:
                    return [cut_call(name, text[j:limit].strip(), (i, limit),
                                     f"inside parameter {key!r}")], limit
                return [ToolCall(name, text[j:body_end].strip(), None, False, (i, body_end),
                                 f"parameter {key!r} of {name!r} has no {par_close}")], body_end
            params.append((key, _value(text, v, close, False), pm.group(2) == "false"))
            k = last = close + len(par_close)
        if end_inv < 0:
            return [cut_call(name, text[j:limit].strip(), (i, limit), f"before {inv_close}")], limit
        end = end_inv + len(inv_close)
        return [xml_call(name, params, text[j:last].strip(), (i, end), ctx)], end

    return read


_GLM = re.compile(r"<tool_call>[ \t]*([@A-Za-z_][\w.:@/-]{0,127})[ \t]*(\n?)[ \t]*(<tool_sep>)?")


def glm_head(text: str, i: int, limit: int) -> bool:
    """``<tool_call>NAME`` followed by ``<arg_key>``, ``<tool_sep>`` or ``</tool_call>``: GLM / hy_v3."""
    m = _GLM.match(text, i, limit)
    if m is None:
        return False
    k = skip_space(text, m.end(), limit)
    return (m.group(3) is not None or text.startswith(("<arg_key>", "</tool_call>"), k)
            or (k >= limit == len(text) and bool(m.group(2) or m.group(3))))


def read_glm(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    m = _GLM.match(text, i, limit)
    if m is None:
        return None, i + 1
    name = m.group(1)
    j = m.end()
    end_call = text.find("</tool_call>", j, limit)
    nxt = text.find("<tool_call>", j, limit)
    body_end = end_call if end_call >= 0 and (nxt < 0 or end_call < nxt) else (nxt if nxt >= 0 else limit)
    closed = end_call >= 0 and body_end == end_call
    params: list[tuple[str, str, bool]] = []
    k = last = j
    while True:
        k = skip_space(text, k, body_end)
        if k >= body_end:
            break
        if not text.startswith("<arg_key>", k):
            if not closed and "<arg_key>".startswith(text[k:body_end]) and body_end == len(text):
                break
            return [ToolCall(name, text[j:body_end].strip(), None, False, (i, body_end),
                             f"the call to {name!r} holds text that is not an argument at offset {k}")], \
                max(body_end, k + 1)
        ke = text.find("</arg_key>", k, body_end)
        if ke < 0:
            return [cut_call(name, text[j:body_end].strip(), (i, body_end), "inside an argument's name")], \
                body_end
        key = text[k + len("<arg_key>"):ke].strip()
        v = skip_space(text, ke + len("</arg_key>"), body_end)
        if not text.startswith("<arg_value>", v):
            return [cut_call(name, text[j:body_end].strip(), (i, body_end),
                             f"before the value of {key!r}")], body_end
        ve = text.find("</arg_value>", v, body_end)
        if ve < 0:
            return [cut_call(name, text[j:body_end].strip(), (i, body_end),
                             f"inside the value of {key!r}")], body_end
        params.append((key, _value(text, v + len("<arg_value>"), ve, False), False))
        k = last = ve + len("</arg_value>")
    if not closed:
        return [cut_call(name, text[j:body_end].strip(), (i, body_end), "before </tool_call>")], body_end
    end = end_call + len("</tool_call>")
    return [xml_call(name, params, text[j:last].strip(), (i, end), ctx)], end
