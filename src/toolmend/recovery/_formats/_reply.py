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

from .._toolcalls import SPECIAL_TOKEN, ToolCall
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
from ._scan import Scanner
from ._tokens import REASONING_MARK, TokenSearch, reasoning_end
from ._xmlblock import PARAMS_AFTER

__all__ = ["scan", "reply_shown", "prose_around"]

# blanks and the tokens that close calls or the turn (after calls made: their markup, never shown)
_CLOSING_MARKUP = re.compile(r"(?:\s|" + "|".join(map(re.escape, sorted(
    {*TURN_ENDS, *SECTIONS.values(), *WRAPPERS.values(), *PARAMS_AFTER, "</tool_calls>",
     *(c for closers in MARKER_CLOSERS.values() for c in closers if c[:1] in "<[")}, key=len, reverse=True)))
    + ")*")
# markup that the prose around calls may begin or end with (a call's wrapper or block, a token),
# left out of what is shown; a piece with markup inside it (or a fence that no fence closes in
# it) is not shown at all: it is the calls' block, a turn of another's, ... (a stream never shows
# a call's markup). A whole fenced block or code span in the piece is shown as it is.
# (HTML's own tags, <b>, <br/>, <a href=..>, are prose's formatting: shown)
# (not </s>, the end of a turn)
_HTML = r"</?(?i:b|i|em|strong|u|del|ins|mark|small|sup|sub|kbd|br|hr|p|a|span|ul|ol|li|h[1-6]|div|" \
    r"table|thead|tbody|tr|td|th|blockquote|code|pre|img|details|summary)(?=[\s/>])(?:\s[^<>\n]{0,200})?/?>"
_EDGE = SPECIAL_TOKEN + r"|(?!" + _HTML + r")</?[|\uff5c]?[A-Za-z_][\w:.|\uff5c-]{0,40}" \
    r"(?:[ \t][^<>\n]{0,200})?/?>|\[/?[A-Z][A-Z_]{2,}\]|\uff5c|\]~"
_MARKUP = re.compile(_EDGE + r"|```|~~~")
_TAG_START = re.compile(r"<[/|\uff5cA-Za-z_]")  # (a tag or token begun, whole or cut: "city</a", "x</")
_LEADING_MARKUP = re.compile(r"(?:\s|" + _EDGE + r")*")
_EDGE_MARKUP = re.compile(_EDGE)
_FENCE_LINE = re.compile(r"(?m)^[ \t]*(?:```|~~~)[\w+.-]*[ \t]*$")
_BARE_FENCE = re.compile(r"[ \t]*(?:```|~~~)[ \t]*(?:\r?\n|\Z)")  # (the closer of a call's fence)
_CODE = re.compile(r"(?ms)^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$|(`+)[^`\n]+?\2|" + _HTML)
# where the model's turn is over (a token ending it, a made-up turn's header written as text, a
# ReAct observation): nothing after it is this message's
_TURN_OVER = re.compile("|".join(map(re.escape, TURN_ENDS)) + r"|(?m:^[ \t]*(?:### (?:Instruction|Response)|"
                        r"\**Observation\**:|Human:|User:))")
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
    over = _TURN_OVER.search(text, start) if after_calls else None
    if over is not None:  # (after the calls, a made-up turn is no text of this message)
        text = text[:over.start()]
        if start >= len(text):
            return []
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


def prose_around(text: str, start: int, calls: list[ToolCall], first: int,
                 hidden: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The model's prose in ``text[start:]`` around ``calls[first:]`` (read there at a message's
    end, ``hidden`` the reasoning that reading found), to show: (the index of the call it stands
    before, ``len(calls)`` after the last; where it starts and ends). A piece is the text between
    two calls less the reasoning, trimmed of the markup at its edges (a wrapper, a fence, a
    token); one with markup inside it, or a line that is no words (a list's brackets around its
    calls, a JSON block beside them), is not shown, nor is anything after a turn's end."""
    pieces: list[tuple[int, int, int]] = []
    hidden = sorted(hidden)
    k = start
    for index in range(first, len(calls) + 1):
        b = calls[index].span[0] if index < len(calls) else len(text)
        over = _TURN_OVER.search(text, k, b) if k < b else None
        stop = b if over is None else over.start()
        shown = True
        for h0, h1 in hidden:  # (reasoning is never shown)
            if h1 > k and h0 < stop:
                shown = _add_prose(pieces, index, text, k, h0) and shown
                k = max(k, h1)
        shown = _add_prose(pieces, index, text, k, stop) and shown
        if over is not None or (not shown and index > first):
            break  # (a turn's end; or after a call, text that is no words: what follows is not shown)
        if index < len(calls):
            k = max(k, calls[index].span[1])
    return pieces


def _add_prose(pieces: list[tuple[int, int, int]], index: int, text: str, a: int, b: int) -> bool:
    """``text[a:b]``'s prose, less the markup at its edges, added to ``pieces`` when it holds no
    markup and every line of it is words (the blanks around it kept: its line breaks); False when
    something else is left."""
    if a >= b:
        return True
    a0 = _LEADING_MARKUP.match(text, a, b).end()  # type: ignore[union-attr]
    closer = _BARE_FENCE.match(text, a0, b)  # (the fence the call before stood in, closed)
    if closer is not None:
        a0 = _LEADING_MARKUP.match(text, closer.end(), b).end()  # type: ignore[union-attr]
    b0 = _markup_before(text, a0, b)
    if b0 <= a0:
        return True
    words = _CODE.sub(" ", text[a0:b0])  # (whole blocks, code spans, HTML's tags: shown as written)
    if _MARKUP.search(words) is not None or _TAG_START.search(words) is not None or not _prose(words):
        return False
    while a0 > a and text[a0 - 1] in " \t\r\n":
        a0 -= 1
    while b0 < b and text[b0] in " \t\r\n":
        b0 += 1
    pieces.append((index, a0, b0))
    return True


def _prose(piece: str) -> bool:
    """Every line of ``piece`` is words: it holds a letter or a digit, and opens with none of
    JSON's or a list's signs (a list's brackets around its calls, a JSON text block beside a
    call's, the commas between calls are their container's, never shown)."""
    return all(line[0] not in '{}[]",:()<|' and any(c.isalnum() for c in line)
               for line in map(str.strip, piece.splitlines()) if line)


def _markup_before(text: str, a: int, b: int) -> int:
    """Where the blanks, tokens and tags that ``text[a:b]`` ends with begin, and the fence line
    opening the next call's fence (one that closes a block in the piece is the piece's)."""
    while b > a:
        while b > a and text[b - 1] in " \t\r\n":
            b -= 1
        line = text.rfind("\n", a, b) + 1 or a
        if _FENCE_LINE.fullmatch(text, line, b) is not None and len(_FENCE_LINE.findall(text, a, b)) % 2:
            b = line
            continue
        last = text[b - 1]
        k = text.rfind("<", a, b) if last == ">" else text.rfind("[", a, b) if last == "]" else -1
        if k >= 0 and _EDGE_MARKUP.fullmatch(text, k, b) is not None:
            b = k
            continue
        break
    return b
