"""What stands around an XML-style call in the block that holds it (Qwen3-Coder's and
Seed-OSS's ``<tool_call>``, MiniMax's ``<minimax:tool_call>``, DeepSeek's DSML
``function_calls`` and ``tool_calls``): a parameter before the call's own tag, or a value's
closing tag after its end, which was the call's or not (a call returned ok without it would
lose it); a parameter right after the call's closer (its arguments ran on past a closer
written early); an invoke its reader cannot read, a call not ok (a block never loses one)."""

from __future__ import annotations

import re

from ..._text import skip_blanks
from .._toolcalls import ToolCall
from ._base import Ctx, named_in
from ._context import WRAPPERS

__all__ = ["CALL_OPENERS", "FUNCTION_BLOCK_ENDS", "PARAM", "PARAMS_AFTER", "WRAP_OPEN", "WRAP_CLOSE",
           "closer_after", "lost_before", "parameter_before", "parameter_past", "past_closers",
           "PARAM_OPENERS", "unread_invoke"]

# the tags that open a call in the XML-style families
CALL_OPENERS = re.compile(r"<(tool_call|function=|function name=|invoke|\|tool_call:start\||\|tool_call|"
                          r"minimax:tool_call|seed:tool_call|steptml:invoke|\uff5cDSML\uff5cinvoke|longcat_tool_call|atem:invoke)")
PARAM = re.compile(r"<parameter=([^>\n<]{1,128})>")  # (Qwen3-Coder's parameter tag)
WRAP_OPEN, WRAP_CLOSE = tuple(WRAPPERS), tuple(WRAPPERS.values())  # (the blocks a <function=...> stands in)


def closer_after(close: str, block: str | tuple[str, ...], text: str, end: int, limit: int,
                 ctx: Ctx) -> bool:
    """A value's closing tag stands after the call's end (at ``end``) in the block holding
    the call, before its ``block`` closer (one of them) and any other call: a value may have
    held the call's closing tag (a file showing the format). A block whose closer never comes
    goes on to the end of the text. (Only inside a block: a call ended by its own closer is
    read, and streamed live, as it stands there.)"""
    c = ctx.find(text, close, end, limit)
    if c < 0:
        return False
    blocks = (block,) if isinstance(block, str) else block
    shut = max(ctx.find(text, b, end, limit) for b in blocks)
    if shut < c and (shut >= 0 or limit < len(text)):
        return False
    return CALL_OPENERS.search(text, end, c) is None


FUNCTION_BLOCK_ENDS = ("<function=", "</function>", *WRAP_CLOSE)  # (a <function=...>'s block: its first)
_LOOK_BACK = 16_384  # (how far back a block's opener is looked for, past a parameter before the call)


def parameter_before(text: str, i: int, openers: tuple[str, ...], ends: tuple[str, ...],
                     par: re.Pattern[str], par_close: str,
                     calls: tuple[str, str] | None = None) -> tuple[str, int] | None:
    """A parameter standing before the call's tag at ``i`` in the block holding it: after the
    block's opener (one of ``openers``, none of ``ends`` since), or, in a block of calls one
    after the other (``calls``: their opener and closer), after the call before
    (``<tool_call><parameter=k>v</parameter><function=...``, ``<minimax:tool_call><parameter
    name="k">v</parameter><invoke name="f">``). (Its name, where the call it makes not ok
    begins: the block's opener for the block's first call, else the parameter), or None.
    Looked for only where a parameter's closing tag ends right before ``i``."""
    lo = max(0, i - _LOOK_BACK)
    if not text[max(lo, i - 40):i].rstrip().endswith(par_close):
        return None
    o = max(text.rfind(w, lo, i) for w in openers)
    if o < 0 or any(text.find(e, o, i) >= 0 for e in ends):
        return None
    start = o
    if calls is not None:
        last = text.rfind(calls[1], o, i)
        if text.rfind(calls[0], o, i) > last:
            return None  # (in a call never closed before this one: that call's, which is not ok)
        start = o if last < 0 else last + len(calls[1])
    m = par.search(text, start, i)
    return None if m is None else (m.group(1).strip().strip("\"'"), o if start == o else m.start())


def lost_before(found: list[ToolCall], lost: tuple[str, int], tag: str) -> list[ToolCall]:
    """The call ``found`` reads, not ok for the parameter ``lost`` (``parameter_before``)
    standing before its ``tag``."""
    c = found[0]
    return [ToolCall(c.name, c.raw_args, None, False, (lost[1], max(c.span[1], found[-1].span[1])),
                     f"parameter {lost[0]!r} stands before {tag} in its block: whether it is the call's "
                     "cannot be told", c.id)]


# the closers of calls in tags (or of their blocks) and the opening tags of their formats' parameters:
# one right after such a closer makes its call not ok (Qwen3-Coder's and Seed-OSS', also at a bare
# </function>, its opener dropped; GLM's, LongCat's, MiniMax M2's, Claude's, DSML's and Step-3's; the
# stream reports such a call once what follows its closer shows none: _livefamilies.parameter_follows)
PARAMS_AFTER = {"</tool_call>": ("<parameter=", "<arg_key>", "<arg_value>"),
                "</seed:tool_call>": ("<parameter=",), "</function>": ("<parameter=",),
                "</longcat_tool_call>": ("<longcat_arg_key>", "<longcat_arg_value>"),
                "</minimax:tool_call>": ("<parameter name=",), "</function_calls>": ("<parameter name=",),
                "</\uff5cDSML\uff5cfunction_calls>": ("<\uff5cDSML\uff5cparameter",),
                "</\uff5cDSML\uff5ctool_calls>": ("<\uff5cDSML\uff5cparameter",),
                "</steptml:invoke>": ("<steptml:parameter",),
                "<\uff5ctool_call_end\uff5c>": ("<steptml:parameter",),
                "<\uff5ctool_calls_end\uff5c>": ("<steptml:parameter",)}
PARAM_OPENERS = tuple(dict.fromkeys(tag for tags in PARAMS_AFTER.values() for tag in tags))


def past_closers(text: str, end: int, limit: int) -> tuple[int, int]:
    """From a call's end, past blanks and the closers of ``PARAMS_AFTER`` that follow it (its
    block's, right after the call's own: DSML's, Step-3's): where the last of them ends, and
    the first character after it that is no blank."""
    k = skip_blanks(text, end, limit)
    shut = next((s for s in PARAMS_AFTER if text.startswith(s, k, limit)), None)
    while shut is not None:
        end = k + len(shut)
        k = skip_blanks(text, end, limit)
        shut = next((s for s in PARAMS_AFTER if text.startswith(s, k, limit)), None)
    return end, k


def parameter_past(text: str, c: ToolCall, end: int, limit: int) -> tuple[ToolCall, int] | None:
    """The call ``c``, read in tags to its closer (at ``end``), not ok when a parameter's
    opening tag follows that closer with only blanks between: its arguments ran on past a
    closer written early, and the call without them would lose them (the same closer again
    later ends it; a later call opener, or the text's end, else). With where the scan goes
    on; None when no parameter follows. (``c`` is a call in tags: the caller knows its
    arguments are no JSON body.)"""
    end, k = past_closers(text, end, limit)
    if not c.ok or not text.startswith(PARAM_OPENERS, k, limit):
        return None
    closer = next((s for s in PARAMS_AFTER if text.endswith(s, c.span[0], end)), "")
    tag = next((t for t in PARAMS_AFTER.get(closer, ()) if text.startswith(t, k, limit)), None)
    qwen = "<function=" in text[c.span[0]:end]  # (a <tool_call>'s: Qwen3-Coder's, else GLM's)
    if tag is None or (closer == "</tool_call>" and (tag == "<parameter=") != qwen):
        return None  # (not a call of these formats, or not its own format's parameter)
    opener = CALL_OPENERS.search(text, k, limit)
    bound = limit if opener is None else opener.start()
    again = text.find(closer, k, bound)
    stop = bound if again < 0 else again + len(closer)
    while stop > k and text[stop - 1].isspace():
        stop -= 1  # (the blanks before the next call are not the refused one's)
    return ToolCall(c.name, c.raw_args, None, False, (c.span[0], stop),
                    f"the text after the call to {c.name!r} goes on with a parameter ({tag}) after "
                    f"its {closer}: its arguments may run on past a closer written early, and which "
                    "are its arguments cannot be told", c.id), stop


def unread_invoke(text: str, k: int, limit: int, ctx: Ctx, invoke: str, invoke_close: str,
                  closer: str) -> tuple[list[ToolCall] | None, int]:
    """The invoke at ``k`` that its reader could not read (``<invoke name="b" id="1">``, no
    name): a call not ok, to its own closer, when that comes before the next invoke and the
    block's closer (a block never loses a call); else None (where it ends is not known)."""
    c = ctx.find(text, invoke_close, k, limit)
    if c < 0:
        return None, k
    nxt, shut = text.find(invoke, k + len(invoke), c), text.find(closer, k, c)
    if nxt >= 0 or shut >= 0:
        return None, k
    end = c + len(invoke_close)
    head = text[k:text.find(">", k, end) + 1 or end]
    return [ToolCall(named_in(head), text[k:end], None, False, (k, end),
                     f"the {head[:60]!r} at offset {k} is no call its format writes: it is not run")], end
