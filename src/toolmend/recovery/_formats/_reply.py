"""Where the reply starts, and the calls it opens with, before the scan reads on.

The text may hold the prompt's turns (the reply is the last assistant turn), the
reasoning the prompt opened (``thinking=True``: nothing before its closer is a
call), or calls no marker opens: known by a tool's name, GLM-4's name line, the
name Functionary v3.2's prompt left for the first call, or a body whose opener
was the prompt's (``_prefilled``). Then one ``Scanner`` reads the rest.
"""

from __future__ import annotations

import re
from typing import Any

from .._toolcalls import ToolCall
from ._base import Ctx
from ._bytools import calls_by_tools
from ._context import (
    MARKER_CLOSERS,
    PROMPT_HEAD,
    SECTIONS,
    TURN_ENDS,
    WRAPPERS,
    before_string_end,
    reply_start,
)
from ._json import read_glm4
from ._prefilled import read_prefilled
from ._prose import prose_around
from ._scan import Scanner
from ._tokens import REASONING_MARK, TokenSearch, reasoning_end
from ._xmlblock import PARAMS_AFTER

__all__ = ["scan", "reply_shown"]

# blanks and the tokens that close calls or the turn (after calls made: their markup, never shown)
_CLOSING_MARKUP = re.compile(r"(?:\s|" + "|".join(map(re.escape, sorted(
    {*TURN_ENDS, *SECTIONS.values(), *WRAPPERS.values(), *PARAMS_AFTER, "</tool_calls>",
     *(c for closers in MARKER_CLOSERS.values() for c in closers if c[:1] in "<[")}, key=len, reverse=True)))
    + ")*")
_HEAD_CALL = re.compile(r"[ \t\r\n]*([A-Za-z_][\w.-]{0,127})[ \t]*\r?\n(?=[ \t]*\{)")


def scan(text: str, ctx: Ctx, kinds: frozenset[str], readers: dict[str, Any],
         pattern: TokenSearch, thinking: bool | None = None, start: int = 0,
         after_calls: bool = False, hidden: list[tuple[int, int]] | None = None) -> list[ToolCall]:
    """The calls in ``text`` from ``start``; ``pattern`` is ``token_pattern(kinds,
    tuple(readers))``, built once. ``thinking``: True, the prompt opened a
    reasoning block, which ends at the first closer (nothing before it is a
    call; no closer, no call); False, it opened none; None, unknown: a closer
    with no opener ends the reasoning the prompt opened. Known either way, a
    later closer with no opener is text. A scan from ``start`` > 0 goes on from
    the end of a call read before, with the reasoning known to be over;
    ``after_calls``: the message's calls before ``start`` were read (a stream's); ``hidden``, a
    list: where the reasoning stands is added to it."""
    calls: list[ToolCall] = []
    # the reply read from its start (a stream's scan from the end of the reasoning, no call read
    # before, is one too), not on from a call a stream read
    opening = start == 0 or (thinking is True and not after_calls)
    if start == 0 and text[:1] in "<[] \t\n\r" and PROMPT_HEAD.match(text) is not None:
        start = reply_start(text)  # the text holds the prompt: the reply is its last assistant turn
    if thinking:
        start = reasoning_end(text, start) if start == 0 else start
        if hidden is not None:
            hidden.append((0, len(text) if start < 0 else start))
        if start < 0:
            return calls
    m = _HEAD_CALL.match(text, start) if "name_head" in kinds and (start == 0 or thinking) else None
    by_tools = calls_by_tools(text, ctx, start) if opening and m is None and ctx.tools is not None else None
    if by_tools is not None:  # calls no marker begins, known by a tool's name
        calls.extend(by_tools[0])
        start = by_tools[1]
    elif m is not None and "glm4" in kinds:  # GLM-4: the message opens with its calls
        found_glm4, start = read_glm4(text, m.start(1), len(text), ctx)
        calls.extend(found_glm4)
    elif m is not None and m.group(1) != "all" and start == 0:
        # Functionary v3.2 named: the prompt ends in ">>>", so the first call starts with its name
        found, end = readers[">>>"](">>>" + text[m.start(1):], 0, len(text) - m.start(1) + 3,
                                    Ctx(ctx.tools, ctx.fmt))  # (a text of its own: searches of its own)
        if found:
            shift = m.start(1) - 3
            calls.extend(ToolCall(c.name, c.raw_args, c.args, c.ok, (c.span[0] + shift + 3 if c.span[0] == 0
                                                                      else c.span[0] + shift,
                                                                      c.span[1] + shift), c.error, c.id)
                         for c in found)
            start = end + shift
    scanner = Scanner(text, ctx, kinds, readers, pattern)
    if thinking is not None:
        scanner.reasoning_over = True
    scanner.calls_before, scanner.hidden = after_calls, hidden
    if opening and not calls:
        start = read_prefilled(scanner, calls, start)
    scanner.scan(start, len(text), calls, False)
    return before_string_end(text, calls, after_calls, start)


def reply_shown(text: str, start: int, format: str | None, thinking: bool | None,
                after_calls: bool = False) -> list[str]:
    """``text[start:]`` to show as the model's reply, in its pieces: the text less the reasoning
    the scan reads in the whole text (its blocks, what a closer with no opener ends, what the
    prompt opened); nothing when, ``after_calls`` (the calls before ``start`` made), it holds
    only the markup that closes them (a section's or block's closer, a turn's end token)."""
    if start >= len(text) or (after_calls and _CLOSING_MARKUP.fullmatch(text, start) is not None):
        return []
    if after_calls:  # (after the calls: the model's words, never markup, to its turn's end)
        return [text[a:b] for _, a, b in prose_around(text, start, [], 0, [])]
    if (not thinking or after_calls) and REASONING_MARK.search(text, start) is None:
        # (no marker from there on: none of it is reasoning, as an opener before it would have held
        # the stream in it; after calls, what the prompt opened is over)
        return [text[start:]]
    from . import parse  # (the package's reading, which this module serves)

    hidden: list[tuple[int, int]] = []
    parse(text, format, None, thinking, 0, False, hidden)
    parts, k = [], start
    for a, b in sorted(hidden):
        if b > k:
            parts.append(text[k:a])
            k = b
    return [p for p in (*parts, text[k:]) if p]
