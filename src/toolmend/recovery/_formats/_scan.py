"""The one scan over model text: markers, fences, code spans and reasoning.

A single regular expression finds, left to right, whichever comes first: a Markdown fence, an
inline code span, a ``<tool_call`` tag, a reasoning block, a tool result, one of the families'
markers (the table in ``_registry``) or a JSON (or pythonic) value on a line of its own. Each hit
is handed to its reader, which says where the scan goes on: one pass plus the readers' work.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..._kernels import markers
from .._restated import ALTERNATIVE, one_of_them
from .._toolcalls import _PLACEHOLDER_NAME, ToolCall, _json_calls, _skip_ws
from ._base import Ctx, more_after, unreadable_block
from ._bytools import calls_by_tools, fenced_calls, keyed_calls
from ._context import (
    ASSISTANT_HEAD,
    CALL_LINE_END,
    LINE_TURN_END,
    LIST_ITEM,
    MADE_UP_TURN,
    OBSERVATION,
    PROSE_WORDS,
    QUOTE_LEAD,
    QUOTES,
    REPLY_HEAD,
    RESPONSE,
    TURN_END,
    TURN_ENDS,
    TURN_OPENERS,
    a_member_value,
    after_markup,
    args_end,
    call_lead,
    fence_close,
    framed_as_example,
    framed_line,
    in_a_value,
    line_end,
    opens_its_line,
    opens_reply,
    past_unread,
    quoted,
    says_shown,
    shown_below,
    stray_closer,
    turn_or_line_end,
)
from ._hermes import NOT_A_TAG, read_tag_at
from ._json import read_glm4
from ._prefilled import quoted_run, read_dropped, read_prefilled
from ._pyliteral import python_prefix
from ._pythonic import comment_after, joined_lists, read_list, tool_code
from ._tokens import (
    ANALYSIS,
    BARE_CLOSER,
    BARE_CLOSERS,
    BLANK_RUN,
    IMPLICIT_ENDS,
    LINE_FIRSTS,
    LINE_OPENERS,
    REASONING,
    UNSEEN,
    TokenSearch,
    reasoning_end,
)
from ._xmlblock import parameter_past

__all__ = ["Scanner", "reasoning_end", "REASONING"]

_next_start, _extent = markers.next_start, markers.extent  # (the marker kernel)

# fences whose content may be a call; any other language is code
_CALL_LANGS = frozenset({"", "json", "jsonc", "json5", "jsonl", "xml", "text", "txt", "plaintext",
                         "tool_call", "tool_code", "tool", "tools", "function", "output"})
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_ALONE = re.compile(r"[ \t]*\r?\n")  # (what ends the line of a tag alone on it)
_SHOWN_GAP = re.compile(r"\s*(?:\n" + LIST_ITEM.pattern + ")?")  # (blanks, or the next item of a list)
_PYTHON = frozenset({"python", "py", "python3"})  # (code, unless it holds calls of the tools given alone)


class Scanner:
    """One parse: the token pattern of the enabled families and their readers."""

    # the state a parse starts in (class values, an instance shadows them); the reasoning known to
    reasoning_over = False  # be over (thinking=True or False): a closer with no opener is text
    calls_end = -1  # where the last JSON value read as calls ends
    reread = 0  # what value_at read again past a closer
    calls_before = False  # the scan goes on after calls read before (a stream's, reported)
    shown_end = -1  # where the last call shown, not made, ends: calls right after it are shown too
    hidden: list[tuple[int, int]] | None = None  # where reasoning stands (when asked: a stream shows none)

    def __init__(self, text: str, ctx: Ctx, kinds: frozenset[str], readers: dict[str, Any],
                 pattern: TokenSearch) -> None:
        self.text = text
        self.ctx = ctx
        self.kinds = kinds
        self.readers = readers  # marker text -> reader
        self.token = pattern
        # The last search for each closing marker: where it started and what it found (a marker
        # missing after p is missing after any later point: openers with no closer, one search).
        self.searched: dict[str, tuple[int, int, re.Match[str] | None]] = {}

    def _anchored(self, p: int, limit: int) -> tuple[re.Match[str] | None, int]:
        """The token pattern's match at the line start found from ``p`` (a line start, or a line
        break), and where the run of line breaks and blanks from ``p`` ends: only the run's last
        line can begin an anchored alternative (a blank line cannot), and only when what ends the
        run is what one begins with."""
        text = self.text
        e = BLANK_RUN.match(text, p, limit).end()  # type: ignore[union-attr]
        if e < limit and text[e] in LINE_FIRSTS:
            return self.token.match(text, max(p, text.rfind("\n", p, e) + 1), limit), e
        return None, e

    def next_token(self, pos: int, limit: int) -> re.Match[str] | None:
        """The token pattern's leftmost match in ``text[pos:limit]``, tried only where it can begin."""
        text, token = self.text, self.token
        if pos < limit and (pos == 0 or text[pos - 1] == "\n") and text[pos] in LINE_OPENERS:
            m = self._anchored(pos, limit)[0]
            if m is not None:
                return m
        starts, table, by_pair = _next_start, token.starts, token.by_pair
        while pos < limit:
            p = starts(text, pos, limit, table)
            if p >= limit:
                return None
            if text[p] == "\n":
                m, pos = self._anchored(p, limit)
                if m is not None:
                    return m
                continue  # past the run: its first other character may start another alternative
            if p + 2 <= limit:  # (token.match, inline: the alternatives that may begin there)
                sub = by_pair.get(text[p:p + 2], UNSEEN)
                if sub is UNSEEN:
                    sub = token.matcher(text[p:p + 2])
                m = None if sub is None else sub(text, p, limit)
            else:
                m = token.whole(text, p, limit)
            if m is not None:
                return m
            pos = p + 1
        return None

    def closer(self, pattern: str, start: int, limit: int) -> re.Match[str] | None:
        last = self.searched.get(pattern)
        if last is not None and last[1] == limit and start >= last[0] and (
                last[2] is None or last[2].start() >= start):
            return last[2]
        found = re.compile(pattern, re.I).search(self.text, start, limit)
        self.searched[pattern] = (start, limit, found)
        return found

    def scan(self, pos: int, limit: int, calls: list[ToolCall], in_fence: bool) -> bool:
        text = self.text
        floor = pos  # where the prose before the next fence starts
        search = self.next_token
        while pos < limit:
            m = search(pos, limit)
            if m is None:
                return False
            kind = m.lastgroup
            if kind == "tag" or kind == "fam":  # (the calls first: the kinds met most)
                pos, floor = self._call(m, kind == "tag", floor, limit, calls, in_fence)
                continue
            if kind == "eot":
                if in_fence or TURN_END.match(text, m.start(), limit) is None:
                    pos = m.end()  # (shown in a fenced block, or named in a sentence: text)
                    continue
                if not calls and not self.calls_before:
                    reply = REPLY_HEAD.match(text, m.end(), limit)
                    if reply is not None:  # the prompt's turns, then the reply's header: the reply follows
                        pos = floor = reply.end()
                        continue
                # the turn ended: the rest is not this message's (after its calls, an assistant's
                # header too: the model wrote on into a turn of its own making; a stream has
                # reported those calls, and the whole text reads them alike)
                return True
            if kind == "role":
                own = RESPONSE in m.group() or ASSISTANT_HEAD.match(text, m.start(), limit) is not None
                if in_fence and not own:  # (a transcript in a block: its calls are none of this reply's)
                    return False
                if in_fence or (not calls and not self.calls_before and own):
                    pos = m.end()  # (shown; or the header of this reply, echoed before its calls)
                    continue
                return True  # a turn of the model's own making (a user's, a tool's): its turn is over
            if kind == "turn":  # (alone on its line after calls, its closer yet to come, it is one too)
                shut = "(?-i:" + re.escape(TURN_OPENERS[m.group()]) + ")"
                if not in_fence and after_markup(text, m.start()) and ((calls or self.calls_before) and
                                                                       _ALONE.match(text, m.end()) or
                                                                       self.closer(shut, m.end(), limit)):
                    return True  # a tool's result, or the user's turn: the model's turn is over
                pos = m.end()
                continue
            if kind == "fence":
                if in_fence:  # a fence line inside a fence: text, past its ticks only ("```<think>")
                    pos = m.end("ticks")
                    continue
                pos = floor = self.fence(m, floor, limit, calls)
                continue
            if kind == "tick":
                ticks = m.group("tick")
                close = self.closer(r"(?<!`)" + ticks + r"(?!`)", m.end(), limit)
                para = None if close is None else _BLANK_LINE.search(text, m.end(), close.start())
                pos = close.end() if close is not None and para is None else m.end()
                if close is not None and para is None and len(ticks) >= 3 and not in_fence:
                    pos = floor = self._fence_on_its_line(m, close, floor, limit, calls)
                continue
            if kind == "think":
                pos, closed = self.reasoning(m, limit, calls, in_fence)
                if self.hidden is not None and not in_fence:
                    self.hidden.append((m.start(), closed if closed >= 0 else pos))
                if closed >= 0:
                    floor = closed  # (reasoning frames nothing after it)
                    opens = opens_reply(text, m.start())  # (the reasoning opens the message)
                    pos = pos if in_fence else self.opening_calls(pos, limit, calls, opens)
                continue
            if kind == "close":
                pos = floor = m.end()
                if not in_fence and not self.reasoning_over:  # a bare closer: what came before was reasoning
                    del calls[:]
                    if self.hidden is not None:
                        self.hidden.append((0, m.end()))
                    last = BARE_CLOSER.search(text, pos) is None
                    pos = floor = self.opening_calls(pos, limit, calls, last)
                continue
            if kind == "comment":  # an HTML comment: what it holds was commented out, not written
                close_comment = self.closer("-->", m.end(), limit)
                # (one opening its line, or closed on it: "<!--" in a sentence is text)
                if close_comment is not None and (opens_its_line(text, m.start()) or text.find(
                        "\n", m.end(), close_comment.start()) < 0):
                    pos = close_comment.end()
                else:
                    pos = m.end()
                continue
            if kind == "example":  # what <example> holds is shown (and HTML's <code>, to a blank line)
                close_tag = self.closer("</" + m.group()[1:].rstrip("sS>") + "s?>", m.end(), limit)
                blank = None if m.group()[1] in "eE" else self.closer(r"\n[ \t]*\n", m.end(), limit)
                held = close_tag is not None and (blank is None or close_tag.start() < blank.start())
                pos = floor = close_tag.end() if close_tag is not None and held else m.end()
                continue
            if kind == "resp":
                close_resp = self.closer(r"</tool_response\s*>", m.end(), limit)
                if not in_fence and after_markup(text, m.start()) and (close_resp is not None or (
                        calls or self.calls_before) and _ALONE.match(text, m.end())):
                    # a tool's result on lines of its own (or its opener alone after calls): the model's turn
                    # ended before it, and a call after it is a later turn's (or one made on a result made up)
                    return True
                pos = close_resp.end() if close_resp is not None else m.end()
                continue
            if kind == "arrow":
                found, end = self.readers[">>>"](text, m.start(), limit, self.ctx)
                pos = max(end, m.end())
                if found:
                    calls.extend(found)
                    floor = pos
                continue
            if not in_fence and framed_line(text, m.start(), floor):
                # a call without a marker shown after "for example:" / "never run this:" (as a fence
                # is): its line skipped, and a value's next lines are read as part of it
                pos = floor = line_end(text, m.start(), limit)
                continue
            if kind == "py":
                read = self._py_list(m, limit, calls, in_fence)
                if read >= 0:
                    pos = floor = read
                    continue
                if "json" not in self.kinds:
                    pos = m.end()
                    continue
            assert kind in ("json", "py")
            pos = floor = self.value_at(m.end() - 1, limit, calls, in_fence)
        return pos > limit  # (a reader that met the turn's end went past the limit)

    def _call(self, m: re.Match[str], tag: bool, floor: int, limit: int, calls: list[ToolCall],
              in_fence: bool) -> tuple[int, int]:
        """The call at the marker ``m`` (a ``<tool_call`` tag, ``tag``, or a family's), added to
        ``calls`` unless quoted or shown: (where the scan goes on, where the prose after it starts)."""
        text, start = self.text, m.start()
        lead = call_lead(text, start, floor)  # (its section's opener, Hunyuan's <tool_calls> too)
        if text[lead - 1:lead] in QUOTE_LEAD and quoted(text, lead, floor):
            return line_end(text, start, limit), floor  # a call in a Markdown quotation: its line is quoted
        if tag:
            # (a body that opens with "{" is no turn's: the everyday call is spared the search)
            if not in_fence and text[start + 11:start + 13].strip()[:1] != "{" and \
                    MADE_UP_TURN.match(text, start, limit) is not None:
                return limit + 1, floor  # (<tool_call>\nuser\n...: the turn is over, see scan)
            found, end = read_tag_at(text, start, limit, self.ctx, self.kinds)
            if (found is None or found is NOT_A_TAG) and text.startswith("<tool_call>", start) and \
                    not in_fence and after_markup(text, lead):
                unread = self._unread_block(start, limit)
                if unread is not None:
                    found, end = unread
            if found is NOT_A_TAG or not found:
                return (max(end, m.end()) if found is not NOT_A_TAG else end), floor
        else:
            marker = m.group("fam")
            found, end = self.readers[marker](text, start, limit, self.ctx)
            if not found or not found[-1].ok:
                # a call not read, or not ok: what stands to its closer is its own, never text
                past = past_unread(text, marker, max(end, start + len(marker)), limit, self.ctx.find)
                if past >= 0 and not found and not in_fence and after_markup(text, lead):
                    found = unreadable_block(text, marker, start, past)  # (its block on its own: not ok)
                    end = past
                elif found is None or (not found and past >= 0):
                    return (past if past >= 0 else max(end, start + 1)), floor
                if found and past > end:
                    end = past
                    found[-1] = replace(found[-1], span=(found[-1].span[0], past))
        if found and end < limit and found[-1].raw_args[:1] != "{":  # (a call in tags, a parameter
            ran_on = parameter_past(text, found[-1], end, limit)  # right after its closer: it ran on)
            if ran_on is not None:
                found[-1], end = ran_on
        pos = max(end, m.end() if tag else start + 1)
        if lead and text[lead - 1] in QUOTES:
            run = quoted_run(self, found, (lead, end), pos, limit, in_fence)
            if run >= 0:
                return run, run  # in quotation marks in a sentence: shown, not made
        shown = found and not in_fence and (shown_below(text, start, floor, lead) or (
            self.shown_end >= 0 and self._after_shown(lead)))
        if shown or (found and self._placeholder(found)):  # ("For example:", <function=NAME>...: shown)
            # (a bare closer the reader passed over ends the reasoning the call stands in, as ever)
            q = -1 if in_fence or self.reasoning_over else self._closer_passed_over(start, pos, found)
            if q >= 0:
                del calls[:]
                return q, q
            pos = read_dropped(self, list(found), pos, limit, in_fence)  # (those right after it: shown too)
            if shown:
                self.shown_end = pos  # (and the calls right after one shown are shown too)
            return pos, pos
        pos = self._past_closer(start, pos, found, calls, in_fence)
        if found:  # (the next call right after it, its opener dropped)
            pos = read_dropped(self, calls, pos, limit, in_fence)
        return pos, pos

    def _py_list(self, m: re.Match[str], limit: int, calls: list[ToolCall], in_fence: bool) -> int:
        """The Python list of calls at ``m`` (and those a comma joins to it), added when the model's (on
        its line, a comment after it at most); where the scan goes on, or -1: no such list (JSON's?)."""
        text = self.text
        if in_a_value(text, m.end() - 1, self.calls_end):  # (an argument of code: self.f(\n[g()])
            return line_end(text, m.start(), limit)
        found, end, cut_at = self._read_list(m.end() - 1, limit, in_fence)
        if found is None:
            return cut_at  # (-1: no such list; else the closer that cut it, which the scan meets)
        found, end = joined_lists(text, found, end, limit, self.ctx)  # ([f(a=1)], [g(b=2)]: GPT-3.5's)
        kept = "pythonic_inline" in self.kinds or self._alone(end, limit)
        comment = None if kept else comment_after(text, end, limit)
        if not kept and comment is None:
            return -1
        if not self._placeholder(found) and not (comment and says_shown(comment)):  # ([NAME(a=1)]; "# e.g.")
            # "[f(a=1)]  # or": one of two choices offered, the other below it or not written (the
            # calls on either side of a line offering a choice are restated's: offered)
            offered = comment is not None and ALTERNATIVE.match(comment) is not None
            calls.extend(one_of_them(found) if offered else found)
        return end

    def _fence_on_its_line(self, m: re.Match[str], close: re.Match[str], floor: int, limit: int,
                           calls: list[ToolCall]) -> int:
        """A line that is a fence on its own (```[f(a=1)]```, as Mistral Large writes it): the
        list of calls it holds, when it holds nothing else and nothing frames it; where the
        scan goes on (past it)."""
        text = self.text
        a = m.end()
        while a < close.start() and text[a] in " \t":
            a += 1
        if not (text.startswith("[", a) and opens_its_line(text, m.start())
                and self._alone(close.end(), limit)) or "\n" in text[a:close.start()]:
            return close.end()
        found, end = read_list(text, a, close.start(), self.ctx)
        if found and not text[end:close.start()].strip() and not framed_line(text, m.start(), floor) \
                and not self._placeholder(found):
            calls.extend(found)
        return close.end()

    def _unread_block(self, start: int, limit: int) -> tuple[list[ToolCall], int] | None:
        """The ``<tool_call>`` block at ``start`` that no reader read and that holds no call the
        scan reads (a family's marker, a JSON or Python call), closed on its own: a call not ok
        when it begins as one (``<function = b>``, GLM's ``b<Arg_key>``), and where it ends."""
        body = start + len("<tool_call>")
        past = past_unread(self.text, "<tool_call>", body, limit, self.ctx.find)
        if past < 0:
            return None
        inner = self.next_token(body, past - len("</tool_call>"))
        if inner is not None and inner.lastgroup in ("fam", "tag", "json", "py", "arrow"):
            return None  # (its calls are read as the scan goes on)
        return unreadable_block(self.text, "<tool_call>", start, past), past

    def opening_calls(self, pos: int, limit: int, calls: list[ToolCall], reply: bool) -> int:
        """The calls the reply opens with after the reasoning, no marker before them: GLM-4
        named (GLM-Z1's), or, with tools= and the format not named, calls known by a tool's
        name (as at the message's start); added; where the scan goes on."""
        if "glm4" in self.kinds:
            found, end = read_glm4(self.text, pos, limit, self.ctx)
        else:
            by_tools = calls_by_tools(self.text, self.ctx, pos) if self.ctx.tools is not None else None
            found, end = by_tools if by_tools is not None else ([], pos)
        calls.extend(found)
        if found:
            return end
        # (an opener left out after the reasoning that opens the message, or the last bare closer's,
        # <channel|>call:NAME{..}: as at the message's start)
        return read_prefilled(self, calls, pos) if reply else pos

    def _placeholder(self, found: list[ToolCall]) -> bool:
        """A call of ``found`` names a placeholder (``NAME``, ``{{name}}``), no tool given: the format."""
        for c in found:  # (a name that opens with a lower-case letter is none: most names, at once)
            if c.ok and not c.name[:1].islower() and _PLACEHOLDER_NAME.match(c.name) is not None and (
                    self.ctx.tools is None or c.name not in self.ctx.tools.schemas):
                return True
        return False

    def _after_shown(self, lead: int) -> bool:
        """Only blanks or a list's next item between the last call shown and ``lead`` (matched in place)."""
        e = self.shown_end
        return 0 <= e <= lead and _SHOWN_GAP.fullmatch(self.text, e, lead) is not None

    def fence(self, m: re.Match[str], floor: int, limit: int, calls: list[ToolCall]) -> int:
        """The fenced block opened at ``m``: its calls added when its language may hold
        some and nothing frames it as an example; where it ends."""
        text = self.text
        body = m.end()
        content_end, block_end = fence_close(text, body, limit, m.group("ticks"))
        if content_end == limit:
            # a fence never closed ends at the end of the model's turn, or at a reasoning closer on
            # a line of its own (the reasoning the prompt opened held the fence)
            q = LINE_TURN_END.search(text, body, limit)
            if q is None and not self.reasoning_over:
                q = _LINE_CLOSER.search(text, body, limit)
            if q is not None:
                content_end = block_end = q.start()
        lang = m.group("lang").lower().lstrip("{.").rstrip("}")
        content = text[body:content_end]
        if not lang and (calls or self.calls_before) and stray_closer(text, m, content_end, block_end, floor):
            return m.end()  # (no block opens there: see stray_closer)
        if lang in _PYTHON and "pythonic" in self.kinds and \
                not framed_as_example(text, m.start(), floor, content):
            calls.extend(fenced_calls(text, body, content_end, self.ctx))  # (calls of tools given alone)
        elif lang in _CALL_LANGS and not framed_as_example(text, m.start(), floor, content):
            before = len(calls)
            code = tool_code(text, body, content_end) if lang == "tool_code" and \
                self.kinds & {"pythonic", "gemma4"} else None
            if code is not None:
                calls.extend(code)
            elif self.scan(body, content_end, calls, True):
                return len(text)  # the turn ended inside the block: nothing after it is this message's
            if len(calls) > before and OBSERVATION.match(text, block_end, limit):
                return len(text)  # the calls' results made up after the block: the turn ended there
        return block_end

    def reasoning(self, m: re.Match[str], limit: int, calls: list[ToolCall],
                  in_fence: bool) -> tuple[int, int]:
        """The reasoning opened at ``m``, skipped: (where the scan goes on, where the
        reasoning closed or -1). Harmony's analysis is a message, read as harmony's are
        (one with a recipient is a call: built-in tools are called from analysis)."""
        text = self.text
        opener = m.group("think")
        if opener[:11] == ANALYSIS[:11] and "harmony" in self.kinds and \
                text.find("<|message|>", m.end(), min(limit, m.start() + 400)) >= 0:
            found, end = self.readers["<|channel|>"](text, m.start(), limit, self.ctx)
            if found is not None:
                pos = self._past_closer(m.start(), max(end, m.end()), found, calls, in_fence)
                return pos, pos
        closer = next(c for o, c in REASONING.items() if o.lower() == opener.lower())  # (ASCII's cases)
        close_think = self.closer("(?a:" + re.escape(closer) + ")", m.end(), limit)
        if close_think is None:
            # reasoning to the end of the text (Kimi's tool section ends it implicitly)
            found = [k for k in (text.find(e, m.end(), limit) for e in IMPLICIT_ENDS) if k >= 0]
            return (min(found) if found else limit), -1
        pos = close_think.end()
        k = _skip_ws(text, pos, limit)
        if k < limit and text[k] in "{[" and text[k - 1] not in "\n":
            # </think>{"name": ...} or </think>[f(a=1)] on one line: what the answer starts with
            before = len(calls)
            found, end = read_list(text, k, limit, self.ctx) if "pythonic" in self.kinds else (None, k)
            if found is not None:
                calls.extend(found)
            elif "json" in self.kinds:
                end = self.json_at(k, limit, calls)
            if len(calls) > before:
                return end, close_think.end()
        return pos, pos

    def _past_closer(self, a: int, b: int, found: list[ToolCall], calls: list[ToolCall],
                     in_fence: bool) -> int:
        """Add ``found``, read from ``text[a:b]``, to ``calls``, and say where the
        scan goes on (``b``); unless the reader passed over a bare reasoning
        closer: one there (outside the arguments of a whole call) ends the
        reasoning the prompt opened, as one the scan meets does, so the calls
        before it are dropped and the scan goes on past it. Looked for where a
        reader may pass one over: the text it read without a call, a call not
        whole and a whole call that ran to the end of the text without its
        closer (outside their arguments)."""
        text = self.text
        if found and not in_fence and (len(found) > 1 or text[found[0].span[1] - 1] != ">" or (
                text[found[0].span[1] - 2] in "|n\uff5c" and text.endswith(TURN_ENDS, *found[0].span))):
            over = self._turn_end_passed_over(found)  # (not the everyday call its closing tag ends)
            if over is not None:  # the turn ended in the text a call ran on to: the scan stops there
                found, b = over, len(self.text)
        if found:
            self.calls_end = b  # (a JSON line after ",": the next call, not a value's element)
        if in_fence or self.reasoning_over or (len(found) == 1 and found[0].ok and (
                found[0].span[1] < len(self.text) or self._closed(found[0].span))):
            calls.extend(found)  # (the everyday case: one whole call read to its closer)
            return b
        q = self._closer_passed_over(a, b, found)
        if q < 0:
            calls.extend(found)
            return b
        del calls[:]
        return q

    def _closer_passed_over(self, a: int, b: int, found: list[ToolCall]) -> int:
        """Where a bare closer a reader passed over in ``text[a:b]`` ends (-1: none): in the
        text it read without a call; in a call's text outside its arguments when it ran to the
        end of the text; in the arguments of a call not whole, on a line of its own or where
        they begin (a value's closer is the value's, and a JSON string holds no line break)."""
        text, limit = self.text, len(self.text)
        if not found:  # (a message a reader skipped, reasoning or an answer, is its family's to read)
            h = text.find("<|message|>", a, b)
            regions = [(a, b if h < 0 else h, BARE_CLOSER)]
        else:
            regions = []
        for c in found:
            if c.ok and (c.span[1] < limit or self._closed(c.span)):
                continue  # a call read to its closer: nothing but its arguments is passed over
            r = text.rfind(c.raw_args, c.span[0], c.span[1]) if c.raw_args else -1
            if r < 0:
                continue  # arguments decoded from a string: the span is theirs
            if c.span[1] < limit:  # not whole, a later call ended it: a closer in its arguments
                q = _LINE_CLOSER.search(text, r, r + len(c.raw_args))  # on a line, that call after it
                t = None if q is None else self.next_token(q.end(), limit)
                if t is not None and t.lastgroup in ("tag", "fam") and t.start() <= c.span[1]:
                    return q.end()  # type: ignore[union-attr]
                continue
            regions += [(c.span[0], r, BARE_CLOSER), (r + len(c.raw_args), c.span[1], BARE_CLOSER)]
            if not c.ok:
                regions.append((r, r + len(c.raw_args), _LINE_CLOSER))
                first = BARE_CLOSER.match(text, _skip_ws(text, r, r + len(c.raw_args)))
                if first is not None:  # <tool_call name="f"></think>
                    return first.end()
        for ra, rb, closer in regions:
            q = closer.search(text, ra, rb)
            if q is not None:
                return q.end()
        return -1

    def _turn_end_passed_over(self, found: list[ToolCall]) -> list[ToolCall] | None:
        """The calls of ``found`` up to a turn end a reader passed over, the last
        one's text ended there; None when there is none. A call with no closer
        of its own (a Hermes body without ``</tool_call>`` runs to the next tag)
        may take in the model's end of turn after its arguments, and the next
        turn's calls after it; a call not whole, in its arguments too."""
        text = self.text
        for k, c in enumerate(found):
            a, e = c.span
            while e > a and text[e - 1] in " \t\r\n":
                e -= 1
            if e <= a or (text[e - 1] == ">" and not text.endswith(TURN_ENDS, a, e)):
                continue  # its closer ends it (</tool_call>, <|call|>): what it holds is its own
            raw = c.raw_args
            r = text.find(raw, a, e) if c.ok and raw else -1
            if c.ok and r < 0:
                continue  # arguments decoded from a string: the span is theirs
            start = a if r < 0 else r + (args_end(raw) if raw[-1] in "> \t\r\n" else len(raw))
            # (a span holding no turn end's first character is searched no further)
            maybe = any(text.find(c, start, e) >= 0 for c in _TURN_END_FIRSTS)
            q = TURN_END.search(text, start, e) if maybe else None
            if q is not None:
                return [*found[:k], replace(c, span=(a, q.start()))]
        return None

    def _closed(self, span: tuple[int, int]) -> bool:
        """The call's text ends in a tag that is no reasoning closer (its last characters looked at only)."""
        text, (a, end) = self.text, span
        if text.endswith("</tool_call>", a, end):
            return True  # (the everyday closer)
        while end > a and text[end - 1] != ">" and text[end - 1].isspace():
            end -= 1
        if end <= a or text[end - 1] != ">":
            return False
        tail = text[max(a, end - _CLOSER_MAX):end].lower()
        # (every closer names thinking, reasoning or a suffix: most tails are searched no further)
        return ("think" not in tail and "reason" not in tail and "suffix" not in tail) or \
            BARE_CLOSER.search(text, max(a, end - _CLOSER_MAX), end) is None

    def _alone(self, end: int, limit: int) -> bool:
        """Nothing but blanks, tokens and a call's closing tag between ``end`` and the
        end of its line (``[f(a=1)]<|eot|>``: raw output with its tokens kept; after a
        period ending the sentence, ``[f(a=1)].``, too)."""
        text, nl = self.text, self.text.find("\n", end, limit)
        dot = text.startswith(".", end) and not text.startswith("..", end)
        return CALL_LINE_END.fullmatch(text, end + dot, turn_or_line_end(text, end, limit, nl)) is not None

    def value_at(self, i: int, limit: int, calls: list[ToolCall], in_fence: bool) -> int:
        """``json_at``, except that while the reasoning may be open, a value that runs on to a bare closer
        the scan meets next, its text up to it strict JSON outside a string, ends there: the draft was
        reasoning ("[rm()]\\n{\\n</think>"). Read no further than the closer first, so that many such
        values are not each read to the end (a call's head before it is read whole, within a budget)."""
        closer = None if in_fence or self.reasoning_over else self.closer(_ANY_CLOSER, i, limit)
        if closer is None:
            return self.json_at(i, limit, calls)
        c = closer.start()
        n, calls_end = len(calls), self.calls_end
        end = self.json_at(i, c, calls)
        if end < c:
            return end
        drafted = len(calls) > n  # (a call's head: it may be whole with the closer in its text)
        del calls[n:]  # (calls before a closer are reasoning)
        self.calls_end = calls_end
        strict = markers.JsonPrefix(())
        strict.feed(self.text[i:c])
        if strict.failed or strict.done or strict.in_string or not self._meets(i + 1, closer, limit):
            return self.json_at(i, limit, calls)
        if drafted:
            end = self.json_at(i, limit, calls)
            self.reread += end - c
            if any(f.ok for f in calls[n:]) or markers.extent(self.text, i, limit, None) >= 0 or \
                    self.reread > 4 * len(self.text):
                return end  # (a call read whole, the closer in its text)
            del calls[n:]
            self.calls_end = calls_end
        return c

    def _read_list(self, i: int, limit: int, in_fence: bool) -> tuple[list[ToolCall] | None, int, int]:
        """``read_list`` and -1, except that while the reasoning may be open, a list that runs on to a
        bare closer the scan meets next, its text up to it Python outside a string, ends there (None, -1
        and where the closer stands): "[rm()]\\n[f(a=1,\\n</think>", the draft was reasoning. Read no
        further than the closer first, as ``value_at`` reads."""
        closer = None if in_fence or self.reasoning_over else self.closer(_ANY_CLOSER, i, limit)
        if closer is not None:
            c = closer.start()
            found, end = read_list(self.text, i, c, self.ctx)
            if found is not None and end < c:
                return found, end, -1
            if found is not None and python_prefix(self.text[i:c]) and self._meets(i + 1, closer, limit):
                return None, -1, c
        return (*read_list(self.text, i, limit, self.ctx), -1)

    def _meets(self, p: int, closer: re.Match[str], limit: int) -> bool:
        """The scan, from ``p`` inside a value, meets ``closer`` before any other marker (lines opening
        values inside it are the value's; searched to the scan's ``limit``, whose searches it remembers)."""
        while True:
            m = self.next_token(p, limit)
            if m is None or m.start() > closer.start():
                return False
            if m.lastgroup not in ("json", "py"):
                return m.lastgroup == "close" and m.start() == closer.start()
            p = m.end()

    def json_at(self, i: int, limit: int, calls: list[ToolCall]) -> int:
        """Read the JSON value at ``i`` (on a line of its own); add its calls; return where to go on.
        Values joined by ``;`` (Llama 3) are read one after the other."""
        text = self.text
        if in_a_value(text, i, self.calls_end) or ("json_inline" in self.kinds and a_member_value(text, i)):
            return line_end(text, i, limit)  # part of a value begun before: data (its lines are read on)
        found_all: list[ToolCall] = []
        while True:
            found, end = _json_calls(text, i, limit, lenient=False)
            found = found if found is not None else keyed_calls(text, i, end, self.ctx)  # [{"f": {..}}]
            if found is None and found_all and limit == len(text) and _extent(text, i, limit, None) < 0:
                end = limit  # (the next call cut before its name: the text ends there; the calls stand)
                break
            if found is None:
                return end
            found_all.extend(more_after(found, text, end, limit))
            k = _skip_ws(text, end, limit)
            sep = text[k] if k < limit else ""  # (";" between objects, Llama 3's; "," between lists)
            if sep == ";" or sep == "," and text[end - 1] == "]":  # (objects a comma joins: an array's)
                c, k = k, _skip_ws(text, k + 1, limit)
                if k < limit and text[k] == ("{" if sep == ";" else "["):
                    i = k
                    continue
                # (a separator ending the value's line: read when prose or the end follows, not code)
                end = c + 1 if k >= limit or PROSE_WORDS.match(text, k) is not None else k
            elif sep == "{" and text[end - 1] == "}" and "\n" not in text[end:k]:
                i = k  # ({..} {..}: objects one after the other on the line, Ollama's models')
                continue
            break
        nl = text.find("\n", end, limit)
        rest = text[end:turn_or_line_end(text, end, limit, nl)].strip().lstrip("]}")  # (a stray closer)
        if rest.strip() and not rest.lstrip().startswith(("<tool_call", "```")) and \
                "json_inline" not in self.kinds and CALL_LINE_END.fullmatch(rest) is None:
            return end  # JSON inside a sentence: a value being talked about
        calls.extend(found_all)
        if found_all:
            self.calls_end = end
        return end


_ANY_CLOSER = "(?a:" + BARE_CLOSER.pattern + ")"  # (as the token pattern finds one: ASCII's letters fold)
_CLOSER_MAX = max(map(len, BARE_CLOSERS))  # (the longest: a call's tail is searched for one that long)
_TURN_END_FIRSTS = "".join(sorted({t[0] for t in TURN_ENDS}))
# (Scanner._closed looks for a closer only in a tail naming one of these)
assert all(any(w in c.lower() for w in ("think", "reason", "suffix")) for c in BARE_CLOSERS)
_LINE_CLOSER = re.compile("(?m)^[ \t]*(?:" + "|".join(re.escape(c) for c in BARE_CLOSERS) + ")", re.I | re.A)
