"""The model's words around its calls, as a stream shows them when it reads the calls at the end.

A piece is the text between two calls (before the first, after the last) less the reasoning the
reading found. The markup at its edges is left out: a call's wrapper or section tokens, the fence
a call stands in, a list's brackets around its calls, a ReAct ``Action:`` label. What is left is
shown when it is the model's words: no markup inside it (a call shown as an example, a cut call's
rest), every line of it words (not a JSON block beside a call), standing on lines of its own
(a word run into a token, ``<|im_start|>user``, is the token's); whole fenced blocks, code spans
and HTML's tags in it are shown as written. After a call, a piece that is not words ends what is
shown, and nothing after the turn's end is (its token, or a made-up turn's header written as text).
"""

from __future__ import annotations

import bisect
import re

from .._toolcalls import SPECIAL_TOKEN, ToolCall
from ._context import TURN_ENDS, TURN_OPENERS

__all__ = ["prose_around"]

# (HTML's own tags, <b>, <br/>, <a href=..>, are prose's formatting; not </s>, the end of a turn)
_HTML = r"</?(?i:b|i|em|strong|u|del|ins|mark|small|sup|sub|kbd|br|hr|p|a|span|ul|ol|li|h[1-6]|div|" \
    r"table|thead|tbody|tr|td|th|blockquote|code|pre|img|details|summary)(?=[\s/>])(?:\s[^<>\n]{0,200})?/?>"
# a token or a tag (harmony's message heads too), a bracketed token ([TOOL_CALLS]), DeepSeek's bar
_EDGE = r"<\|start\|>assistant|<\|channel\|>(?:final|commentary)\b|" + SPECIAL_TOKEN + r"|(?!" + _HTML \
    + r")</?[|\uff5c]?[A-Za-z_][\w:.|\uff5c-]{0,40}(?:[ \t][^<>\n]{0,200})?/?>|" \
    + r"\[/?[A-Z][A-Z_]{2,}\]|\uff5c|\]~"
_MARKUP = re.compile(_EDGE + r"|```|~~~")
_TAG_START = re.compile(r"<[/|\uff5cA-Za-z_]")  # (a tag or token begun, whole or cut: "city</a", "x</")
# what a piece may open with: blanks, markup, and the end of a list or object that held calls
_LEADING = re.compile(r"(?:\s|[\]}),]|" + _EDGE + r")*")
_EDGE_AT = re.compile(_EDGE)
_FENCE_LINE = re.compile(r"(?m)^[ \t]*(?:```|~~~)[\w+.-]*[ \t]*$")
_FENCE_START = re.compile(r"(?m)^[ \t]*(?:```|~~~)")  # (a line a fence opens, tokens after it or not)
_FENCE_AT = re.compile(r"[ \t]*(```|~~~)")
_BARE_FENCE = re.compile(r"[ \t]*(?:```|~~~)[ \t]*(?:\r?\n|\Z)")
_LABEL = re.compile(r"[ \t]*(?:Action(?: Input)?|Call)[ \t]*:[ \t]*")  # (a call's label on its line)
_INLINE = re.compile(r"(?<!`)(`{1,2})(?!`)[^`\n]+?(?<!`)\1(?!`)|<(?:https?://|mailto:)[^<>\s]+>|"
                     r"<[^<>\s@]+@[^<>\s]+>|(?:(?<=\w)|^)<[\w ,.\[\]]{1,60}>|"
                     + _HTML)  # (code spans, links, List<String>, HTML)
# where the model's turn is over (a token ending it, a made-up turn's header written as text, a
# ReAct observation): nothing after it is this message's
_OVER = (*TURN_ENDS, *TURN_OPENERS, "</s>", "<tool_response>", "<observation>")  # (a tool's result too)
_TURN_OVER = re.compile("|".join(map(re.escape, _OVER)) + r"|(?m:^[ \t]*(?:#{2,3} "
                        r"(?:Instruction|Response|Human|User)|\**Observation\**:|\**(?:Human|User)\**:))")


def prose_around(text: str, start: int, calls: list[ToolCall], first: int,
                 hidden: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The model's words in ``text[start:]`` around ``calls[first:]`` (``hidden``: the reasoning
    the reading found): (the index of the call each piece stands before, ``len(calls)`` after the
    last; where it starts and ends). A ``start`` inside a line goes on with a line shown before."""
    continued = start > 0 and text[start - 1] not in "\r\n"
    pieces: list[tuple[int, int, int]] = []
    hidden = sorted(hidden)
    h = bisect.bisect_left(hidden, (start, -1))
    h = h - 1 if h and hidden[h - 1][1] > start else h  # (a block already open at start)
    k = start
    for index in range(first, len(calls) + 1):
        b = calls[index].span[0] if index < len(calls) else len(text)
        over = _TURN_OVER.search(text, k, b) if k < b else None
        stop = b if over is None else over.start()
        words = True
        while h < len(hidden) and hidden[h][0] < stop:  # (reasoning is never shown)
            if hidden[h][1] > k:
                words = _add(pieces, index, text, k, hidden[h][0], continued and k == start, False) and words
                k = hidden[h][1]
            h += 1
        if k < stop:
            call_next, fenced = stop == b < len(text), index > first and _in_fence(text, calls[index - 1])
            words = _add(pieces, index, text, k, stop, continued and k == start, call_next, fenced) and words
        if over is not None or (not words and index > first):
            break  # (a turn's end; or after a call, text that is no words: what follows is not shown)
        if index < len(calls):
            k = max(k, calls[index].span[1])
    return pieces


def _add(pieces: list[tuple[int, int, int]], index: int, text: str, a: int, b: int, continued: bool,
         call_next: bool, fenced: bool = False) -> bool:
    """``text[a:b]``'s words added to ``pieces`` (the blanks around them kept: their line breaks;
    ``call_next``: a call begins at ``b``); False when something else is left."""
    a0 = a if continued else _LEADING.match(text, a, b).end()  # type: ignore[union-attr]
    if a0 > a and text[a:a0].strip() and not _line_starts(text, a, a0):
        return a0 >= b  # (a word run into the markup before it, <|im_start|>user: the markup's)
    if not continued and _BARE_FENCE.match(text, a0, b) and (
            fenced or len(_FENCE_START.findall(text, a0, b)) % 2):
        nl = text.find("\n", a0, b)  # (past that fence's line)
        a0 = _LEADING.match(text, nl + 1 if nl >= 0 else b, b).end()  # type: ignore[union-attr]
    b0 = _markup_before(text, a0, b)
    k = text.rfind("\n", a0, b0)
    if call_next and b0 < b and text[b0:b].strip() and "\n" not in text[b0:b] and not (continued and k < 0) \
            and _FENCE_LINE.fullmatch(text, k + 1, b0) is None:
        b0 = k + 1 if k >= 0 else a0  # (its last line runs into the call's opening: "functools[")
    if b0 <= a0:
        return True
    words = _masked(text[a0:b0])
    if _MARKUP.search(words) is not None or _TAG_START.search(words) is not None or \
            not _prose(words, continued):
        return False
    while a0 > a and text[a0 - 1] in " \t\r\n":
        a0 -= 1
    while b0 < b and text[b0] in " \t\r\n":
        b0 += 1
    pieces.append((index, a0, b0))
    return True


def _in_fence(text: str, call: ToolCall) -> bool:
    """The line right before ``call`` opens a fence (```json): the call stands in it."""
    k = call.span[0]
    while k > 0 and text[k - 1] in " \t\r\n":
        k -= 1
    return _FENCE_LINE.fullmatch(text, text.rfind("\n", 0, k) + 1, k) is not None


def _line_starts(text: str, a: int, a0: int) -> bool:
    """The markup ``text[a:a0]`` ends at a line's start (a line break after its last piece), or with
    harmony's ``<|message|>`` (whose message runs on in its line)."""
    last = a0
    while last > a and text[last - 1] in " \t":
        last -= 1
    return text[last - 1] in "\r\n" or text.endswith("<|message|>", a, last)


def _masked(piece: str) -> str:
    """``piece`` with its whole fenced blocks, code spans and HTML's tags blanked (one pass over its
    lines: a block left open keeps its fence, which the check then finds)."""
    out: list[str] = []
    block: list[str] = []
    fence = ""
    for line in piece.split("\n"):
        m = _FENCE_AT.match(line)
        if not fence:
            if m is not None:
                fence, block = m.group(1), [line]
            else:
                out.append(line)
        else:
            block.append(line)
            if line.strip() == fence:
                out.append("x")
                fence, block = "", []
    return _INLINE.sub("x", "\n".join(out + block))


def _prose(piece: str, continued: bool) -> bool:
    """Every line of ``piece`` is words: it holds a letter or a digit, and opens with none of
    JSON's or a list's signs (``continued``: the first line goes on a line shown before)."""
    lines = list(map(str.strip, piece.splitlines()))
    if continued and lines:
        lines = lines[1:]
    return all(line[0] not in '{}[]",:()<|' and any(c.isalnum() for c in line) for line in lines if line)


def _markup_before(text: str, a: int, b: int) -> int:
    """Where the blanks, tokens, tags, a list's opening and a call's label that ``text[a:b]`` ends
    with begin, and the fence line opening the next call's fence (one that closes a block in the
    piece is the piece's)."""
    while b > a:
        while b > a and text[b - 1] in " \t\r\n([{":
            b -= 1
        line = text.rfind("\n", a, b) + 1 or a
        opens = _FENCE_LINE.fullmatch(text, line, b) is not None and len(_FENCE_START.findall(text, a, b)) % 2
        if opens or _LABEL.fullmatch(text, line, b) is not None:
            b = line
            continue
        last = text[b - 1]
        k = text.rfind("<", a, b) if last == ">" else text.rfind("[", a, b) if last == "]" else -1
        if k >= 0 and _EDGE_AT.fullmatch(text, k, b) is not None:
            b = k
            continue
        break
    return b
