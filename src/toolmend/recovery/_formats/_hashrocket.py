"""MiniMax's calls written as text, with Perl's hash arrows (``=>``).

MiniMax M2.5 and M2.7 write their calls this way when the serving stack left
them to write text (an Anthropic- or OpenAI-compatible endpoint that caught no
call of its own format), and agents meet them as a reply's text:

    [TOOL_CALL]
    {tool => "read_file", args => {
      --path "src/a.py"
      --limit 20
    }}
    [/TOOL_CALL]

The arguments are command-line flags, one ``--key value`` a line (or several on
a line): a value in double quotes is a JSON string, one in single quotes is the
text as written (as a shell reads it), a JSON object or list is JSON, a bare
word is a JSON number or literal when it is one and text otherwise (typed by
the tool's schema when tools are given), and a flag with no value is ``true``.
``args`` may be a JSON object instead (``args => {"pattern": "*"}``, keys
unquoted too), and a call may write none (``{tool => "list_skills"}``). A block
may hold several calls, one after the other.

``--key=value`` is ``--key value``, and a JSON call in the block (``{"name": ...,
"arguments": ...}``) is read as JSON. A value whose end is not where a line or the
next flag begins (``--q "a "b" c"``, two words unquoted, a bracket in a bare word),
a flag after a bare value on its line that is no parameter of the tool (``--cmd git
--no-pager log``: the command's flag, or the call's?), ``--key=`` with nothing, a
value in brackets that is no JSON as written (a shell's ``[a-z]``) and anything
after a call in its block make the call not ok: what was meant is a guess. A block
whose closer never comes is read to the end of the text when each call in it is
whole (the model stopped after it); otherwise the call is cut, never ok.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import replace

import orjson

from ..._text import skip_blanks, string_end
from .._jsonish import extent
from .._toolcalls import _NAME, ToolCall
from ._base import Ctx, cut_call, named_call, xml_call
from ._json import block_reader

__all__ = ["HASHROCKET_CALL", "HASHROCKET_CLOSER", "read_hashrocket"]

HASHROCKET_CALL, HASHROCKET_CLOSER = "[TOOL_CALL]", "[/TOOL_CALL]"
# a call's head: {tool => "NAME" (the key quoted too, the name in either quotes or none)
_HEAD = re.compile(r"""\{[ \t\r\n]*(["']?)tool\1[ \t]*=>[ \t]*(?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|"""
                   r"""([A-Za-z_][\w.\-]{0,255}))[ \t\r\n]*""")
_ARGS = re.compile(r"""[ \t\r\n]*,[ \t\r\n]*(["']?)args\1[ \t]*=>[ \t\r\n]*""")
_JSON_BLOCK = block_reader(HASHROCKET_CALL, (HASHROCKET_CLOSER,))
_FLAG = re.compile(r"--([A-Za-z_][\w.\-]{0,255})")  # (then a blank, "=", or the arguments' end)
_LITERAL = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


class _Unread(Exception):
    """The call's text does not read as the format writes it (the reason)."""


def _name(head: re.Match[str]) -> str:
    """The tool's name a call's head gives, in either quotes or none."""
    return head.group(2) or head.group(3) or head.group(4)


def _flags(text: str, k: int, end: int, known: Container[str]) -> tuple[list[tuple[str, str, bool | None]],
                                                                        int]:
    """The ``--key value`` flags from ``k`` (after the arguments' ``{``) to their ``}``:
    (key, value's text, is JSON: True / a string as written: None / text: False) and
    where the ``}`` stands. ``known``: the tool's parameters (a bare word is typed by its
    schema; a flag after one on its line is the call's only when it is one of them)."""
    params: list[tuple[str, str, bool | None]] = []
    while True:
        k = skip_blanks(text, k, end)
        if k >= end:
            raise EOFError
        if text[k] == "}":
            return params, k
        m = _FLAG.match(text, k, end)
        if m is None:
            raise _Unread(f"{text[k:k + 30]!r} stands where a flag (--key) or the arguments' end should")
        key, v = m.group(1), m.end()
        given = v < end and text[v] == "="  # (--key=value: a value follows, whatever it is)
        if given:
            v += 1
        elif v < end and text[v] not in " \t\r\n}":
            raise _Unread(f"--{key} is followed by {text[v:v + 20]!r}")
        while v < end and text[v] in " \t" and not given:
            v += 1
        if v >= end:
            raise EOFError
        c, bare = text[v], False
        if c in " \t\r\n}" and given:
            raise _Unread(f"--{key}= gives no value")
        if not given and (c in "\r\n}" or text.startswith("--", v)):  # a flag alone: set
            params.append((key, "true", True))
            k = v
            continue
        if c == '"':
            e = string_end(text, v, end)
            if e is None:
                raise EOFError
            params.append((key, text[v:e], True))
        elif c == "'":
            e = text.find("'", v + 1, end)
            if e < 0:
                raise EOFError
            if "\n" in text[v:e]:
                raise _Unread(f"the value of --{key} opens a quote its line does not close")
            params.append((key, text[v + 1:e], None))
            e += 1
        elif c in "{[":
            x = extent(text, v, end)
            if x is None:
                raise EOFError
            try:  # (JSON as written: a shell's [a-z] is no list to repair)
                orjson.loads(text[v:x])
            except orjson.JSONDecodeError:
                raise _Unread(f"the value of --{key}, {text[v:v + 30]!r}, is no JSON: what it is, a "
                              "guess") from None
            params.append((key, text[v:x], True))
            e = x
        else:  # a bare word, to the next blank or the arguments' "}" (another bracket in it: a guess)
            e, bare = v, True
            while e < end and text[e] not in " \t\r\n}":
                e += 1
            word = text[v:e]
            if any(b in word for b in "{[]"):
                raise _Unread(f"the value of --{key}, {word[:30]!r}, holds a bracket: where it ends is a "
                              "guess")
            params.append((key, word, False if key in known else bool(_LITERAL.fullmatch(word))))
        k = e
        while k < end and text[k] in " \t":
            k += 1
        if k < end and text[k] not in "\r\n}" and not text.startswith("--", k):
            raise _Unread(f"the value of --{key} is followed by {text[k:k + 30]!r}: where it ends is a guess")
        nxt = _FLAG.match(text, k, end) if bare and text.startswith("--", k) else None
        if nxt is not None and nxt.group(1) not in known:  # (--cmd pytest --verbose: a value, or two flags?)
            raise _Unread(f"--{nxt.group(1)} follows the bare value of --{key} on its line: the value's, or "
                          "a flag of the call, is a guess")


def _call(text: str, k: int, end: int, ctx: Ctx) -> tuple[ToolCall, int]:
    """The call whose ``{`` is at ``k`` and where it ends (past its ``}``)."""
    head = _HEAD.match(text, k, end)
    if head is None:
        raise _Unread("no {tool => NAME} head")
    name = _name(head)
    if not _NAME.match(name):
        raise _Unread(f"{name[:40]!r} is no tool's name")
    j = head.end()
    args = _ARGS.match(text, j, end)
    if args is None:  # no arguments written: {tool => "NAME"}
        if j >= end:
            raise EOFError
        if text[j] != "}":
            raise _Unread(f"{text[j:j + 30]!r} stands after the name of {name!r}")
        return named_call(name, "", (k, j + 1)), j + 1
    a = args.end()
    if a >= end:
        raise EOFError
    if text[a] != "{":
        raise _Unread(f"the arguments of {name!r} are no object")
    inner = skip_blanks(text, a + 1, end)
    if inner < end and text.startswith("--", inner):
        known = ctx.tools.properties(name) if ctx.tools is not None else {}
        params, close = _flags(text, inner, end, known)
        raw, after = text[a:close + 1], close + 1
        call = xml_call(name, params, raw, (k, after), ctx)
    else:
        x = extent(text, a, end)
        if x is None:
            raise EOFError
        raw, after = text[a:x], x
        call = named_call(name, raw, (k, after))
    z = skip_blanks(text, after, end)
    if z >= end:
        raise EOFError
    if text[z] != "}":
        raise _Unread(f"{text[z:z + 30]!r} stands after the arguments of {name!r}")
    return call, z + 1


def read_hashrocket(text: str, i: int, limit: int, ctx: Ctx) -> tuple[list[ToolCall] | None, int]:
    k = skip_blanks(text, i + len(HASHROCKET_CALL), limit)
    if k >= limit:
        return [], limit  # (cut before its body: nothing to report yet)
    if text[k] != "{":
        return None, i + len(HASHROCKET_CALL)  # (the marker named in a sentence)
    close = ctx.find(text, HASHROCKET_CLOSER, k, limit)
    end = close if close >= 0 else limit
    past = close + len(HASHROCKET_CLOSER) if close >= 0 else limit
    if _HEAD.match(text, k, end) is None:  # (a JSON call in the block: {"name": ..., "arguments": ...})
        found: tuple[list[ToolCall] | None, int] = _JSON_BLOCK(text, i, limit, ctx)
        return found
    calls: list[ToolCall] = []
    try:
        while k < end:
            call, k = _call(text, k, end, ctx)
            calls.append(call)
            k = skip_blanks(text, k, end)
            if k < end and text[k] != "{":  # (more after the call: it may have ended early)
                calls[-1] = ToolCall(call.name, call.raw_args, None, False, call.span, (
                    f"{text[k:k + 30]!r} stands after the call to {call.name!r} in its {HASHROCKET_CALL} "
                    "block: where the call ends is a guess"))
                return _spanned(calls, i, past), past
    except (EOFError, _Unread) as stop:
        head = _HEAD.match(text, k, end)
        name = "" if head is None else _name(head)
        raw = text[k:end].strip()
        if isinstance(stop, EOFError):  # (the block's end, or the text's, came first)
            calls.append(cut_call(name, raw, (k, past), "before its block's end" if close >= 0 else
                                  "by the end of the text"))
        else:
            calls.append(ToolCall(name, raw, None, False, (k, past), f"the {HASHROCKET_CALL} block at offset "
                                  f"{i} does not read as its format writes a call: {stop}"))
    return _spanned(calls, i, past), past


def _spanned(calls: list[ToolCall], i: int, past: int) -> list[ToolCall]:
    """The block's calls spanning it: the first from its marker, the last to its closer."""
    calls[0] = replace(calls[0], span=(i, calls[0].span[1]))
    calls[-1] = replace(calls[-1], span=(calls[-1].span[0], past))
    return calls
