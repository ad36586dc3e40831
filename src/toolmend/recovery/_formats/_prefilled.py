"""The call a reply opens with when its family's opener was the prompt's (``PREFILLED``:
GLM's name then ``<arg_key>``, Gemma 4's ``call:NAME{``, MiniMax M2's ``<invoke name=``,
harmony's recipient), or when its label only ever opens an answer (NexusRaven-V2's
``Call:``, the model's own): read as if the opener stood before it. The scan looks here at
the reply's start and where a bare reasoning closer ends the reasoning the prompt opened.

The same bodies right after a call's closer are the next call, its opener dropped
(``DROPPED_AFTER``: Gemma 4's ``<tool_call|>call:g{..}<tool_call|>``, the model leaving
out the second ``<|tool_call>``): read the same way, with a fix saying so.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..._text import skip_blanks
from .._toolcalls import ToolCall
from ._base import Ctx, opener_put_back
from ._context import TURN_ENDS, in_quotes
from ._pythonic import read_raven
from ._tokens import BARE_CLOSER
from ._xml import read_glm

if TYPE_CHECKING:
    from ._scan import Scanner

__all__ = ["PREFILLED", "PREFILLED_OPENERS", "DROPPED_AFTER", "DROPPED_CLOSERS", "DROPPED_BODIES",
           "read_prefilled", "read_dropped", "quoted_run"]

# A call whose family's opener the prompt held (a call forced by writing the opener after the
# assistant's header): the text opens with the call's body, and is read as if the opener stood
# before it. Each family's body:
_BODIES = {
    # NAME<arg_key> (Hunyuan's NAME<tool_sep><arg_key> too)
    "glm": r"[A-Za-z_][\w.-]{0,127}[ \t]{0,8}\r?\n?[ \t]{0,8}(?:<tool_sep>[ \t\r\n]{0,8})?<arg_key>",
    "gemma4": r"call:[A-Za-z_]",  # call:NAME{
    "minimax_m2": r"<invoke[ \t]+name=",
    # (harmony's: the prompt ends in <|start|>assistant, the reply opens with its recipient; Glimmer's
    # has none)
    "harmony": r"to=[^\s<]{1,160}[ \t]{0,8}<\|channel\|>",
    # (NexusRaven-V2's label, its own, not the prompt's: it only ever opens the answer)
    "nexusraven": r"Call:[ \t]{0,8}[A-Za-z_][\w.-]{0,127}[ \t]{0,8}\(",
}
_LEAD = r"[ \t\r\n]{0,64}"  # (the blanks before one)
PREFILLED = re.compile(_LEAD + "(?:" + "|".join(f"(?P<{k}>{body})" for k, body in _BODIES.items()) + ")")
# the family's marker (its reader's) and the text the prompt held, put back before the body
PREFILLED_OPENERS = {"glm": ("<tool_call>", "<tool_call>"), "gemma4": ("<|tool_call>", "<|tool_call>"),
                     "minimax_m2": ("<minimax:tool_call>", "<minimax:tool_call>"),
                     "harmony": ("<|start|>", "<|start|>assistant "), "nexusraven": ("Call:", "")}

# the readers of the bodies that no family's marker opens (the others are their marker's)
_OWN_READERS: dict[str, Any] = {"glm": read_glm, "nexusraven": read_raven}

# a call's closer -> the family whose next call may follow it with its opener dropped: (its kind,
# its body's family in _BODIES, its marker and the text put back before the body). After a
# closer, such a body can only be a call: prose never opens with "call:g{" or "g\n<arg_key>"
DROPPED_AFTER: dict[str, tuple[str, str, str, str]] = {
    "</tool_call>": ("glm", "glm", "<tool_call>", "<tool_call>"),
    "<tool_call|>": ("gemma4", "gemma_after", "<|tool_call>", "<|tool_call>"),
    "<end_function_call>": ("functiongemma", "gemma_after", "<start_function_call>", "<start_function_call>"),
    "</minimax:tool_call>": ("minimax_m2", "minimax_m2", "<minimax:tool_call>", "<minimax:tool_call>"),
    "<|call|>": ("harmony", "harmony", "<|start|>", "<|start|>assistant "),
    "</longcat_tool_call>": ("hermes", "longcat", "<longcat_tool_call>", "<longcat_tool_call>"),
    "</function_calls>": ("olmo3", "minimax_m2", "<function_calls>", "<function_calls>"),  # (Claude's)
}
# the bodies after a closer only (no prompt holds their opener): LongCat's GLM-style NAME<longcat_arg_key>
# (and Gemma's call: written with blanks, or ":" or "-" before the name, as after its opener, or
# left out, the name run into its "{": g{..}<tool_call|>)
_BODIES_AFTER = {**_BODIES, "longcat": _BODIES["glm"].replace("<arg_key>", "<longcat_arg_key>"),
                 "gemma_after": r"(?i:call)\s*:\s*[A-Za-z_]|[:-]{1,2}\s*[A-Za-z_][\w.-]{0,127}\s*[{(]"
                                r"|[A-Za-z_][\w-]{0,63}(?:\.[A-Za-z_][\w-]{0,63})*\{"}  # (not "e.g.{")
DROPPED_CLOSERS = tuple(DROPPED_AFTER)
# a token or a tag (a turn's end, a tool's result, a role's header), not words: "<-" and "[1]" are words
_TOKEN = re.compile(r"[\u200b-\u200d\u2060\ufeff]*"  # (zero-width characters before it)
                    r"(?:<[A-Za-z_/|!<\uff5c]|<0x|\[/?[A-Za-z_]{2,}\]|\]~|\[e~\[)")
# the last call's start: a <tool_call> whose body is JSON, or an object of a Hermes block holding
# several (Hermes'): no GLM call's, whose </tool_call> a GLM body after it does not follow (a
# stream reports such a call at its closer)
_JSON_BODY = re.compile(r"<tool_call>[ \t\r\n]*[{\[]|[{\[]")
_LONGEST = max(map(len, DROPPED_CLOSERS))
_CALL_WORD = re.compile(r"(?i:call)\s*:")
assert all(c.count("<") == 1 for c in DROPPED_CLOSERS)
# closer -> the pattern of the body that may follow it (a stream matches it partially)
DROPPED_BODIES = {closer: r"\s*(?:" + _BODIES_AFTER[body] + ")"
                  for closer, (_, body, _, _) in DROPPED_AFTER.items()}
_DROPPED = {closer: re.compile(pattern) for closer, pattern in DROPPED_BODIES.items()}


def read_prefilled(scanner: Scanner, calls: list[ToolCall], at: int = 0) -> int:
    """The call the reply opens with at ``at`` (the text's start, or where its reasoning
    ended) when its family's opener was the prompt's, or its label opens answers only
    (``PREFILLED``), added to ``calls``: read as if the opener stood before it, and where
    the scan goes on (``at``: the reply opens with no such call)."""
    text = scanner.text
    m = PREFILLED.match(text, at)
    if m is None or m.lastgroup not in scanner.kinds:
        return at
    (marker, opener), k = PREFILLED_OPENERS[m.lastgroup], m.start(m.lastgroup)
    found, b = _read_as_opened(scanner, k, _OWN_READERS.get(m.lastgroup) or scanner.readers[marker], opener)
    if not found:
        return at
    if m.lastgroup == "nexusraven" and not scanner.reasoning_over and b > found[-1].span[1]:
        # (NexusRaven's account of its calls, read on past them: a bare closer there may end the
        # reasoning the prompt opened, as one the scan meets does, so the scan goes on from it)
        q = BARE_CLOSER.search(text, found[-1].span[1], b)
        b = b if q is None else q.start()
    return read_dropped(scanner, calls, scanner._past_closer(k, b, found, calls, False))


def _read_as_opened(scanner: Scanner, k: int, read: Any, opener: str, closer: str = "",
                    limit: int = -1) -> tuple[list[ToolCall], int]:
    """The calls ``read`` reads at ``k`` with ``opener`` put back before the body, their spans in
    the text (from the body on: the opener was not written), and where the reading ends. With
    ``closer``, the text to the first closer is read, and to the second: the same reading of both
    is the reading (a run of such calls is read in linear time); else (a value holding the
    closer) the rest of the text is."""
    text = scanner.text
    limit = len(text) if limit < 0 else limit
    c = text.find(closer, k, limit) if closer else -1
    c2 = text.find(closer, c + len(closer), limit) if c >= 0 else -1
    if c2 >= 0:
        found, end = _opened(scanner, read, opener + text[k:c + len(closer)])
        if found and (found, end) == _opened(scanner, read, opener + text[k:c2 + len(closer)]):
            return _moved(found, end, k, opener)
    return _moved(*_opened(scanner, read, opener + text[k:limit]), k, opener)


def _opened(scanner: Scanner, read: Any, virtual: str) -> tuple[list[ToolCall], int]:
    ctx = Ctx(scanner.ctx.tools, scanner.ctx.fmt)  # (its searches remembered are the virtual text's)
    found, end = read(virtual, 0, len(virtual), ctx)
    return found or [], end


def _moved(found: list[ToolCall], end: int, k: int, opener: str) -> tuple[list[ToolCall], int]:
    """The calls read in the virtual text (the opener, then the text from ``k``), in the text."""
    if not found:
        return [], k
    shift = k - len(opener)
    found = [replace(c, span=(max(k, c.span[0] + shift), c.span[1] + shift)) for c in found]
    return found, max(end + shift, k)


def read_dropped(scanner: Scanner, calls: list[ToolCall], b: int, limit: int = -1,
                 in_fence: bool = False) -> int:
    """The calls right after the last of ``calls`` (the scan goes on at ``b``, past its closer
    or its block's) whose opener was dropped (``DROPPED_AFTER``), each read as if it stood
    there, added with a fix saying so; where the scan goes on (``limit``: where the text the
    scan reads ends, a fence's end). A placeholder's (``NAME``) is the format described, as
    after its opener: shown, not made."""
    limit = len(scanner.text) if limit < 0 else limit
    while calls:
        got = _dropped_after(scanner, calls[-1].span, b, limit)
        if got is None:
            return b
        found, k, end = got
        if scanner._placeholder(found):
            return end
        b = scanner._past_closer(k, end, found, calls, in_fence)
    return b


def quoted_run(scanner: Scanner, found: list[ToolCall] | None, span: tuple[int, int], pos: int, limit: int,
               in_fence: bool) -> int:
    """Where the scan goes on past the call read from ``span`` (the scan at ``pos``) when the
    quotation mark before it closes after it, or after the calls right after it whose opener
    was dropped (``"call:f{..}<tool_call|>call:g{..}<tool_call|>"``: the run is quoted); -1 if not."""
    text, (lead, end) = scanner.text, span
    if in_quotes(text, lead, end):
        return pos
    if not found:
        return -1
    calls_end = scanner.calls_end
    run = read_dropped(scanner, list(found), pos, limit, in_fence)  # (read aside: nothing kept)
    scanner.calls_end = calls_end
    return run if run > pos and in_quotes(text, lead, run) else -1


def _dropped_after(scanner: Scanner, last: tuple[int, int], b: int,
                   limit: int) -> tuple[list[ToolCall], int, int] | None:
    """The calls whose opener was dropped right after the call spanning ``last`` (the scan goes
    on at ``b``), where their body begins and where they end; None when no such body follows.
    A body that does not end at its family's closer is no call when words follow it
    (``call:f{..} would be wrong``), and not ok when the text ends there; one that reads as no
    call, or not ok, runs to that closer (an entry not ok, as after its opener)."""
    text = scanner.text
    closer = text[text.rfind("<", max(0, b - _LONGEST), b):b]  # (each closer holds one "<")
    family = DROPPED_AFTER.get(closer)
    if family is None or family[0] not in scanner.kinds:
        return None
    kind, body, marker, opener = family
    m = _DROPPED[closer].match(text, b, limit)
    if m is None or last[1] > b or text[last[1]:b - len(closer)].strip() or (
            closer == "</tool_call>" and _JSON_BODY.match(text, last[0]) is not None):
        # (the closer is the last call's, or its block's: MiniMax M2's invoke in one; a Hermes
        # block's JSON is no GLM call's)
        return None
    k = skip_blanks(text, b, m.end())
    found, end = _read_as_opened(scanner, k, _OWN_READERS.get(kind) or scanner.readers[marker], opener,
                                 closer, limit)
    if text[k] not in ":-" and _CALL_WORD.match(text, k) is None and body == "gemma_after" and not (
            found and found[-1].ok and text.endswith(closer, 0, end)):
        return None  # (a name run into "{" with its call word dropped too: a call only when whole and closed)
    nxt = scanner.ctx.find(text, marker, k, limit)  # (the next call's own opener: no closer after it is
    shut = scanner.ctx.find(text, closer, k, limit)  # this one's; remembered: a run of calls stays linear)
    shut = shut if nxt < 0 or shut < nxt else -1
    if not found or not found[-1].ok:
        if shut >= 0:
            end = max(end, shut + len(closer))
        elif not found:
            return None
        why = f"the text after the {closer} at offset {b - len(closer)} begins as a call whose opener was " \
              "dropped, but is none its format writes: it is not run"
        found = found[:-1] + [replace(found[-1], span=(found[-1].span[0], end)) if found else
                              ToolCall("", text[k:end], None, False, (k, end), why)]
    elif not text.endswith(closer, 0, end):
        after = skip_blanks(text, end, limit)
        if after < limit and not text.startswith(TURN_ENDS, after) and _TOKEN.match(text, after) is None:
            return None  # words after it: a sentence naming a call, not one (a token, a tag: cut there)
        c = found[-1]
        found[-1] = ToolCall(c.name, c.raw_args, None, False, c.span, f"the call to {c.name!r} after the "
                             f"{closer}, its opener dropped, has no closer of its own: cut, or a call named "
                             "in words, which cannot be told", c.id)
    found[0] = opener_put_back(found[0], f"the call's opening {opener.strip()} was dropped after the "
                                         f"{closer} before it, at offset {k}: read as if it stood there")
    return found, k, end
